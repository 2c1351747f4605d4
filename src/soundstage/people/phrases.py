"""`match` and `ask` phrases as written, found case-insensitively at word boundaries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase found case-insensitively, at word boundaries, whatever characters it starts or ends with:
    `W-4821` is in "ws W-4821." but not in "W-48210", `refund` is in "Refund?" but not in "refunds"."""
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Phrases:
    """Phrases as written and their patterns; `found(text)` is whether any of them occurs in `text`."""

    phrases: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...] = field(repr=False, compare=False)

    @classmethod
    def of(cls, phrases: list[str] | tuple[str, ...]) -> Phrases:
        kept = tuple(p for p in phrases if p.strip())
        return cls(kept, tuple(phrase_pattern(p) for p in kept))

    def found(self, text: str) -> bool:
        return any(p.search(text) for p in self.patterns)
