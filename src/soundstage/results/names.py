"""The names a trial's records had (docs/viewer.md, "Names beside ids"): each id a service's records are known
by, with the name a person knows it by (`#support` for a Slack channel), from the world's state as the trial
recorded it. Each service says how its records are named (`record_names`); this only gathers them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..services import SERVICES
from ..services.base import State


def record_names(state: State, diff: Mapping[str, Any]) -> dict[str, str]:
    """Every named record by its id: those of the final `state`, and those removed on the way (`diff`'s
    `removed`, which the final state has lost). A record's final name wins over an earlier one's."""
    removed = {collection: change.get("removed", []) for collection, change in diff.items()}
    found: dict[str, str] = {}
    for service in SERVICES.values():
        named = getattr(service, "record_names", None)
        if named is not None:
            found.update(named(removed))
            found.update(named(state))
    return found
