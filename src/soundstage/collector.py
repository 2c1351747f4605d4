"""Short garbage-collection pauses over large event logs.

Every full collection walks every container object alive, and a busy world's log holds a dozen of them per
call (the event, its response): over tens of thousands of calls a full collection stalls every call for
hundreds of milliseconds, and checks over a long log spend most of their time in collections that find
nothing. Nearly all of it lives as long as its world, so it is moved out of the collector's sight
(`gc.freeze`); reference counting still frees frozen objects, and only a cycle among them that became
garbage waits until they are handed back (`gc.unfreeze`).

`serving()`: a server's process, from start to stop, freezes the survivors of each collection, the youngest
generation's included, so each object is walked once, by the first collection after it was made, and no
collection walks the log again: a collection of the older generations found nothing to collect in a busy
world's log, yet walked each call's dozen objects twice more, stalling calls for 5 to 50 ms every few thousand
calls. Nothing is ever handed back: a world dropped (deleted, or expired) is freed by reference counting alone,
frozen or not, as nothing it holds leads back to it (world.py), so dropping it costs what it holds and no
collection walks the other worlds' objects because of it (handing everything back for a full collection to
find the dropped world's cycles walked every live world's objects: 0.8 s with one world of 244,000 events
alive). What must never become a cycle, since a frozen cycle stays until the process ends, is tested
(tests/test_collector.py: worlds of every shipped scene, used and dropped, leave no cyclic garbage). Its
thresholds (`THRESHOLDS`): the youngest generation is collected every 2,000 allocations rather than 700 (most
of a call's objects die with the call, by reference counting, and fewer young collections walk the survivors
fewer times).
`held()`: during a computation over a log (evaluating checks) the collector does not run at all. Such a
computation makes indexes that hold a reference to every event, and few cycles: a collection would walk those
indexes again and again to find nothing (the log and the state are alive anyway). What it made is then frozen
while serving, garbage included, so it must make no cycle that outlives it (evaluating checks and building
images make none: the test above covers both); outside a server its cycles are collected by the next full
collection. The collector is turned back on as it was found.
`transient()`: work that makes cycles which die with it, in a library soundstage does not own (the MCP SDK's
server refers to itself through its handlers: about 40 objects per request). A collection that runs while such
work is under way freezes nothing, or the work's cycles, alive at that moment, would be frozen and outlive it
for good; after it, collections of the young generations freeze nothing either, since the older ones may hold
those cycles, until a full collection has looked at every generation with no such work under way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

THRESHOLDS = (2000, 10, 10)
# paused: held() turned the collector off; transient: transient() work under way; unsettled: a collection froze
# nothing because of it, and no full collection has run since with none under way.
_state = {"serving": False, "held": 0, "paused": False, "transient": 0, "unsettled": False}


def _collected(phase: str, info: dict[str, Any]) -> None:
    if phase != "stop":
        return
    if _state["transient"]:
        _state["unsettled"] = True
    elif not _state["unsettled"] or info["generation"] == 2:
        _state["unsettled"] = False
        gc.freeze()


@contextmanager
def serving() -> Iterator[None]:
    gc.collect()
    gc.freeze()  # the code, the scene images: alive until the process ends
    gc.callbacks.append(_collected)
    thresholds = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    _state["serving"], _state["unsettled"] = True, False
    try:
        yield
    finally:
        _state["serving"] = False
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(_collected)
        gc.unfreeze()


@contextmanager
def held() -> Iterator[None]:
    if not _state["held"]:  # the outermost hold, of any thread: the innermost ones find it off already
        _state["paused"] = gc.isenabled()
        gc.disable()
    _state["held"] += 1
    try:
        yield
    finally:
        _state["held"] -= 1
        if not _state["held"]:
            _settle()
            if _state["paused"]:
                gc.enable()


@contextmanager
def transient() -> Iterator[None]:
    _state["transient"] += 1
    try:
        yield
    finally:
        _state["transient"] -= 1


def _settle() -> None:
    """What a computation made and kept (its indexes) is moved out of the youngest generation without being
    walked, or the first collection after it would walk all of it: frozen while serving, as the survivors of a
    full collection are; else into the oldest generation (freezing merges every generation and starts the
    count of new objects again, unfreezing hands them all to the oldest). Not while the generations may hold
    the cycles of transient work: the collections to come walk what it made."""
    if _state["transient"] or _state["unsettled"]:
        return
    gc.freeze()
    if not _state["serving"]:
        gc.unfreeze()
