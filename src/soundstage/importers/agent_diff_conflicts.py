"""Assertions of one Agent-Diff test that no attempt can meet together.

Agent-Diff's `changed` assertions are strict: every row a `changed` assertion's `where` matches may change
only the fields of its `expected_changes` (and those ignored). So when one assertion needs a row to change
a field and another, whose `where` that row meets, does not allow that field, the second fails whenever
the first holds: the test cannot pass, whatever the agent does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The field naming a row of each table a strict `changed` assertion applies to.
KEYS = {"messages": "message_id", "channels": "channel_id"}


@dataclass(frozen=True)
class Demand:
    """One `changed` assertion of a test: the row it is pinned to, what it needs changed and allows."""

    check_id: str
    entity: str
    where: dict[str, Any]
    needs: frozenset[str]  # fields the row must change (when it needs a row at all)
    allows: frozenset[str]  # fields the row may change
    needs_a_row: bool


def demand(check_id: str, assertion: dict[str, Any], ignored: list[str]) -> Demand | None:
    """The demand of a `changed` assertion pinned to one row by `eq` on its key; None for any other."""
    entity, where = assertion.get("entity"), assertion.get("where")
    if assertion.get("diff_type") != "changed" or entity not in KEYS or not isinstance(where, dict):
        return None
    key = where.get(KEYS[entity])
    if key is None or (isinstance(key, dict) and set(key) != {"eq"}):
        return None
    changes = assertion.get("expected_changes") or {}
    if not isinstance(changes, dict):
        return None
    needs = frozenset(changes)
    expected = assertion.get("expected_count")
    if expected is None:
        needs_a_row = True
    elif isinstance(expected, int) and not isinstance(expected, bool):
        needs_a_row = expected >= 1
    else:
        needs_a_row = isinstance(expected, dict) and isinstance(expected.get("min"), int) and expected["min"] >= 1
    return Demand(check_id, entity, where, needs, needs | frozenset(ignored), needs_a_row)


def conflicts(demands: list[Demand]) -> list[str]:
    """Each pair of a test's assertions that cannot both hold, said in words."""
    said = []
    for n, first in enumerate(demands):
        for second in demands[n + 1 :]:
            reasons = [
                _forbids(a, b)
                for a, b in ((first, second), (second, first))
                if a.entity == b.entity and a.needs_a_row and _within(b.where, a.where) and a.needs - b.allows
            ]
            if reasons:
                row = f"{first.entity} row {_pin(first)}"
                said.append(
                    f"{first.check_id} and {second.check_id} cannot both hold (the {row}): {'; and '.join(reasons)}"
                )
    return said


def _within(outer: dict[str, Any], inner: dict[str, Any]) -> bool:
    """Whether every row meeting `inner` meets `outer` too: `outer` tests nothing `inner` does not, alike."""
    return all(name in inner and _same(inner[name], test) for name, test in outer.items())


def _same(a: Any, b: Any) -> bool:
    return bool(_tests(a) == _tests(b))


def _tests(pred: Any) -> Any:
    """A predicate as its operators: a plain value is `eq`, as Agent-Diff reads it."""
    return pred if isinstance(pred, dict) else {"eq": pred}


def _pin(d: Demand) -> str:
    return str(_tests(d.where[KEYS[d.entity]])["eq"])


def _forbids(a: Demand, b: Demand) -> str:
    fields = ", ".join(sorted(a.needs - b.allows))
    expected = ", ".join(sorted(b.needs)) or "nothing"
    return f"{a.check_id} needs {fields} changed, and {b.check_id} lets it change only {expected}"
