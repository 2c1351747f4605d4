"""The garbage collector's policies over large logs (collector.py)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from soundstage import collector
from soundstage.server import Hub

ROOT = Path(__file__).resolve().parent.parent


def test_held_keeps_the_collector_off_until_the_outermost_hold_ends() -> None:
    assert gc.isenabled()
    with collector.held():
        assert not gc.isenabled()
        with collector.held():
            pass
        assert not gc.isenabled()  # the inner hold did not turn it back on
    assert gc.isenabled()


def test_held_turns_the_collector_back_on_after_an_error() -> None:
    with pytest.raises(ValueError), collector.held():
        raise ValueError("a check's bug")
    assert gc.isenabled()


def test_held_leaves_a_collector_found_off_off() -> None:
    gc.disable()
    try:
        with collector.held():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_serving_freezes_the_survivors_of_every_collection() -> None:
    thresholds = gc.get_threshold()
    with collector.serving():
        assert collector._collected in gc.callbacks
        assert gc.get_threshold() == collector.THRESHOLDS
        gc.unfreeze()
        survivor = [[]]  # a container made after the start, alive through the next collection
        gc.collect(0)  # the youngest generation's, as most are
        assert gc.get_freeze_count() > 0
        assert not any(o is survivor for o in gc.get_objects())  # out of the collector's sight
        collector.release()
        assert gc.get_freeze_count() == 0
        assert any(o is survivor for o in gc.get_objects())
    assert collector._collected not in gc.callbacks
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


def test_after_a_release_only_a_full_collection_freezes_again() -> None:
    with collector.serving():
        collector.release()
        dropped = [[]]  # what a dropped world left: walked by the next full collection before it is frozen
        gc.collect(0)
        gc.collect(1)
        assert gc.get_freeze_count() == 0
        assert any(o is dropped for o in gc.get_objects())
        gc.collect()
        assert gc.get_freeze_count() > 0
        survivor = [[]]
        gc.collect(0)  # settled: young collections freeze their survivors again
        assert not any(o is survivor for o in gc.get_objects())


def test_a_world_dropped_from_a_serving_hub_is_given_back_to_the_collector() -> None:
    hub = Hub()
    world = hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    with collector.serving():
        assert gc.get_freeze_count() > 0
        hub.drop(world.id)
        assert gc.get_freeze_count() == 0


def test_release_outside_a_server_gives_nothing_back() -> None:
    gc.freeze()
    try:
        collector.release()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
