"""Who a message is addressed to: the users it mentions, and those it calls by name.

A user is called by name by their first name, display name, real name or user name, in any case, where a
colleague would take it as said to them:

- at the start of the message or of a sentence, followed by `,` `:` `!` `?` `-` or nothing more
  ("Omar, why...", "Omar: quick one", "Omar?"), or after a greeting ("hey Omar why...", "thanks, Omar");
  there, several names joined by `,`, `&` or `and` call on each ("Omar, Maya: ...", "Hi Omar and Maya,");
- written as `@name` anywhere ("cc @omar");
- at the end of a sentence after a comma ("any idea, Omar?"), or right before a final question mark
  unless the word before makes the name its object ("any idea what's going on Omar?", not "did you ask
  Omar?").

A name inside a sentence ("Omar said it's fixed") addresses nobody. Names are read from the world's users
when the world image is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

MENTION = re.compile(r"<@([A-Z0-9]+)(?:\|[^>]*)?>")
GREETINGS = r"(?:hey|hi|hello|yo|morning|good morning|thanks|thank you|ok|okay|sorry|so|and|cc)"
# Words that make a following name their object, not the one spoken to: "did you ask Omar?"
OBJECTS = frozenset(
    [
        "ask",
        "asked",
        "asking",
        "tell",
        "told",
        "telling",
        "to",
        "with",
        "from",
        "for",
        "about",
        "by",
        "and",
        "or",
        "of",
        "cc",
        "ping",
        "pinged",
        "than",
        "like",
        "is",
        "was",
        "are",
        "were",
        "be",
        "call",
        "called",
        "see",
        "saw",
        "meet",
        "met",
    ]
)


def _forms(user: Mapping[str, Any]) -> set[str]:
    profile = user.get("profile") or {}
    forms = {
        str(profile.get("first_name") or ""),
        str(profile.get("display_name") or ""),
        str(profile.get("real_name") or user.get("real_name") or ""),
        str(user.get("name") or ""),
    }
    return {" ".join(f.lower().split()) for f in forms if len(f.strip()) >= 2}


@dataclass(frozen=True)
class Names:
    """The world's users by the names a message may call them by."""

    users: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))  # name -> ids
    patterns: tuple[re.Pattern[str], ...] = field(default=(), repr=False, compare=False)
    trailing: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    each: re.Pattern[str] | None = field(default=None, repr=False, compare=False)  # a name, in a list of them

    @classmethod
    def of(cls, users: Iterable[Mapping[str, Any]]) -> Names:
        named: dict[str, list[str]] = {}
        for user in users:
            for form in _forms(user):
                named.setdefault(form, []).append(str(user["id"]))
        if not named:
            return cls()
        # Longest first, so "Omar Haddad" is read whole before "Omar".
        name = "|".join(r"\s+".join(map(re.escape, n.split())) for n in sorted(named, key=len, reverse=True))
        start = r"(?:^|(?<=[.!?\n]))\s*"
        # Several spoken to at once: "Omar, Maya: ...", "Hi Omar and Maya,".
        names = rf"@?(?:{name})(?:\s*(?:,|&|\band\b)\s*@?(?:{name})(?!\w))*"
        patterns = (
            re.compile(start + rf"(?P<names>{names})(?=\s*(?:[,:!?\u2013\u2014-]|$))", re.IGNORECASE),
            re.compile(start + GREETINGS + rf"[\s,]+(?P<names>{names})(?!\w)", re.IGNORECASE),
            re.compile(rf"@(?P<name>{name})(?!\w)", re.IGNORECASE),
            re.compile(rf",\s*@?(?P<name>{name})(?=\s*(?:[.!?]|$))", re.IGNORECASE),
        )
        trailing = re.compile(rf"(?P<before>[\w']+)\s+(?P<name>{name})\s*\?+\s*(?:$|\n)", re.IGNORECASE)
        each = re.compile(rf"(?<!\w)(?P<name>{name})(?!\w)", re.IGNORECASE)
        return cls(MappingProxyType({n: tuple(ids) for n, ids in named.items()}), patterns, trailing, each)

    def addressees(self, text: str) -> frozenset[str]:
        """The user ids a message mentions or calls by name."""
        found = set(MENTION.findall(text))
        for pattern in self.patterns:
            for m in pattern.finditer(text):
                said = m.groupdict().get("names")
                spoken = [n["name"] for n in self.each.finditer(said)] if said and self.each else [m["name"]]
                for called in spoken:
                    found.update(self.users.get(" ".join(called.lower().split()), ()))
        if self.trailing is not None:
            for m in self.trailing.finditer(text):
                if m["before"].lower() not in OBJECTS:
                    found.update(self.users.get(" ".join(m["name"].lower().split()), ()))
        return frozenset(found)
