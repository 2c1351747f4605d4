"""Warnings for `ask` phrases so narrow that a question in common words misses them (`soundstage validate`).

A phrase is reached by other wordings when it belongs to a group of the synonym table, or is one word of
letters (every inflection of it counts, `understanding.stem`). A phrase of several words outside the table
("how much do they pay") is asked only by those words in that order, and an id ("W-4821", "1.5.0") only by
someone who knows it already. A fact or decision all of whose phrases are narrow gets a warning, with the
file, line and field of its `ask`; a scene that has one still runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import SpecError
from ..spec.loader import dotted, read_document
from .understanding import Asks

WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")


def narrow(phrase: str) -> bool:
    """Whether only these very words, in this order, ask for what the phrase names."""
    return not (WORD.fullmatch(phrase.strip()) or Asks.of([phrase]).groups)


def narrow_asks(path: Path) -> list[SpecError]:
    """A warning for each fact and decision of a scene's people whose every `ask` phrase is narrow. A file
    that cannot be read, or whose people are malformed, gets none here: validation reports its errors."""
    try:
        document = read_document(path)
    except SpecError:
        return []
    people = document.data.get("people")
    warnings: list[SpecError] = []
    for i, person in enumerate(people if isinstance(people, list) else []):
        if not isinstance(person, dict):
            continue
        for section in ("facts", "decisions"):
            items = person.get(section)
            for j, item in enumerate(items if isinstance(items, list) else []):
                ask = _phrases(item.get("ask") if isinstance(item, dict) else None)
                if not ask or not all(narrow(p) for p in ask):
                    continue
                where = ("people", i, section, j, "ask")
                listed = ", ".join(f'"{p}"' for p in ask)
                warnings.append(
                    SpecError(
                        f"{person.get('ref')}.{item.get('id')} is asked only by these exact words ({listed}): "
                        "add a single word a question would use, or a phrase of the synonym table "
                        '(docs/people.md, "Other words")',
                        str(path),
                        document.line(where),
                        dotted(where),
                    )
                )
    return warnings


def _phrases(ask: Any) -> list[str]:
    """The phrases of a well-formed `ask`, else none."""
    if isinstance(ask, list) and all(isinstance(p, str) and p.strip() for p in ask):
        return ask
    return []
