"""State predicates: the state checks (the generic ones here, each service's in its own package) used as
conditions and milestones, decided on a live world now or watched as it changes.

    predicate = parse_state_predicate({"github.file_at": {...}})   # refs resolved
    state_holds(world, predicate)                                  # now
    Watched(predicate, "what").evaluate(world)                     # again only when what it read changed
"""

from __future__ import annotations

from .. import services  # noqa: F401 (each service registers its state checks)
from . import faults, records  # noqa: F401 (they register the generic state checks)
from .live import Watched, evaluate_now, state_holds, writes_since
from .predicate import PredicateError, StatePredicate, parse_state_predicate, predicate_key
from .view import WorldView

__all__ = [
    "PredicateError",
    "StatePredicate",
    "Watched",
    "WorldView",
    "evaluate_now",
    "parse_state_predicate",
    "predicate_key",
    "state_holds",
    "writes_since",
]
