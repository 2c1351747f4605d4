"""The garbage collector's policies over large logs (collector.py)."""

from __future__ import annotations

import gc
from pathlib import Path

from soundstage import collector
from soundstage.server import Hub

ROOT = Path(__file__).resolve().parent.parent


def test_held_freezes_what_exists_until_the_outermost_hold_ends() -> None:
    assert gc.get_freeze_count() == 0
    with collector.held():
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with collector.held():
            pass
        assert gc.get_freeze_count() >= frozen  # the inner hold gave nothing back
    assert gc.get_freeze_count() == 0


def test_serving_freezes_the_survivors_of_each_full_collection() -> None:
    thresholds = gc.get_threshold()
    with collector.serving():
        assert collector._collected in gc.callbacks
        assert gc.get_threshold() == collector.THRESHOLDS
        gc.unfreeze()
        survivor = [[]]  # a container made after the start, alive through the next full collection
        gc.collect()
        assert gc.get_freeze_count() > 0
        assert not any(o is survivor for o in gc.get_objects())  # out of the collector's sight
        collector.release()
        assert gc.get_freeze_count() == 0
        assert any(o is survivor for o in gc.get_objects())
    assert collector._collected not in gc.callbacks
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


def test_a_world_dropped_from_a_serving_hub_is_given_back_to_the_collector() -> None:
    hub = Hub()
    world = hub.add(hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml")))
    with collector.serving():
        assert gc.get_freeze_count() > 0
        hub.drop(world.id)
        assert gc.get_freeze_count() == 0


def test_release_outside_a_server_gives_nothing_back() -> None:
    with collector.held():
        collector.release()
        assert gc.get_freeze_count() > 0
