"""The monitor search syntax of `/api/v1/monitor/search` and `/groups/search`: space-separated terms,
AND-ed; `field:value`, `field:"quoted value"` or `field:(a OR b)`; anything else is free text matched
against the monitor's name (case-insensitive). Fields: `status`, `muted`, `tag`, `type`, `id`, `metric`,
`scope`, `notification`, `priority`, `creator`; an unknown field or status is a 400."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FIELDS = frozenset(
    {"status", "muted", "tag", "type", "id", "metric", "scope", "notification", "priority", "creator", "group"}
)
# MonitorOverallStates, as `status:` values.
STATUSES = frozenset({"alert", "ignored", "no data", "ok", "skipped", "unknown", "warn"})
_TERM = re.compile(r'(?:([A-Za-z_]+):(?:"([^"]*)"|\(([^)]*)\)|(\S+)))|"([^"]*)"|(\S+)')


class QueryParsingError(ValueError):
    """A query Datadog refuses in its own words (the message is the whole answer)."""


@dataclass
class Search:
    fields: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)  # field -> AND-ed alternatives
    text: list[str] = field(default_factory=list)


def parse_search(query: str) -> Search:
    """ValueError names an unknown field; QueryParsingError a status that is not one."""
    search = Search()
    for match in _TERM.finditer(query or ""):
        name, quoted, choices, plain, phrase, word = match.groups()
        if name is None:
            search.text.append((phrase if phrase is not None else word).lower())
            continue
        name = name.lower()
        if name not in FIELDS:
            raise ValueError(f"invalid search field {name!r}")
        if choices is not None:
            values = tuple(v.strip().strip('"').lower() for v in re.split(r"\s+OR\s+", choices) if v.strip())
        else:
            values = ((quoted if quoted is not None else plain).lower(),)
        for value in values if name == "status" else ():
            if value not in STATUSES:
                raise QueryParsingError(f"Query parsing error: '{value}' is not a valid monitor status")
        search.fields.setdefault(name, []).append(values)
    return search


def matches(search: Search, facets: dict[str, list[str]], name: str) -> bool:
    """Whether a monitor (or group) with these facet values (lower-case) and this name matches."""
    lowered = name.lower()
    if any(word not in lowered for word in search.text):
        return False
    for field_name, clauses in search.fields.items():
        have = facets.get(field_name, [])
        for alternatives in clauses:
            if not any(_value_matches(field_name, wanted, have) for wanted in alternatives):
                return False
    return True


def _value_matches(field_name: str, wanted: str, have: list[str]) -> bool:
    if field_name in ("metric", "notification", "creator") or wanted.endswith("*"):
        stem = wanted.rstrip("*")
        return any(value.startswith(stem) if wanted.endswith("*") else value == wanted for value in have)
    return wanted in have
