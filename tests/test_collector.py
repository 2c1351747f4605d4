"""The garbage collector's policies over large logs (collector.py)."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from soundstage import collector
from soundstage.checks import score
from soundstage.clock import US
from soundstage.rehearsal import Stage
from soundstage.server import Hub
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.world import World

ROOT = Path(__file__).resolve().parent.parent
SCENES = sorted((ROOT / "seeds").glob("*.yaml"))
BIG_CALLS = 20_000  # the big world's calls: tens of thousands of objects alive in its log


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
        for generation in (0, 1, 2):
            survivor = [[]]  # a container made after the start, alive through the next collection
            gc.collect(generation)
            assert gc.get_freeze_count() > 0
            assert not any(o is survivor for o in gc.get_objects())  # out of the collector's sight
    assert collector._collected not in gc.callbacks
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0


class _Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.mark.parametrize("transient", [True, False])
def test_the_cycles_of_transient_work_are_collected_not_frozen(transient: bool) -> None:
    """A cycle alive during a collection that runs while transient work is under way is not frozen, nor by the
    young collections after it: the first full collection finds it. Outside such work it is frozen for good."""
    with collector.serving():
        with collector.transient() if transient else contextlib.nullcontext():
            cycle = _Cycle()
            dead = weakref.ref(cycle)
            gc.collect(0)  # while the work holds it
        del cycle
        gc.collect(0)
        assert dead() is not None  # in an older generation, or frozen
        gc.collect(2)
        assert (dead() is None) is transient
        survivor = [[]]
        gc.collect(0)
        assert not any(o is survivor for o in gc.get_objects())  # once a full one has run, young ones freeze


def test_mcp_requests_leave_nothing_frozen() -> None:
    """The MCP SDK makes cycles for each request it serves: a server that answers many tool calls holds no more
    frozen objects after the last than after the first few."""
    from tests.server.test_mcp import over_mcp

    def calls(count: int) -> int:
        live = stage.world("csv-export")

        async def steps(session: Any) -> None:
            for _ in range(count):
                await session.call_tool("slack_list_channels", {})

        over_mcp(live.env["SLACK_MCP_URL"], live.env["SLACK_BOT_TOKEN"], steps)
        live.close()
        gc.collect(0)
        return gc.get_freeze_count()

    with collector.serving(), Stage() as stage:
        first = calls(20)  # the first requests import the SDK and build its models: alive for good
        grown = [calls(150) - first for _ in range(3)]
        assert max(grown) < 500  # by about 25 objects per call, and more each time, when their cycles are frozen


def _use(hub: Hub, world: World) -> None:
    """What a trial does to its world: calls that write, the clock moved on (people reply, monitors evaluate,
    faults fire), the attempt finished and its checks evaluated."""
    slack = SERVICES["slack"]
    bot = next((p for p in world.tokens.values() if p.service == "slack" and p.token_type == "bot"), None)
    for channel in list(world["slack.channels"])[:2] if bot is not None else []:
        for text in ("hello team, any update?", "can you check the deploy?"):
            body = urlencode({"channel": channel["id"], "text": text}).encode()
            form = {"content-type": "application/x-www-form-urlencoded"}
            request = ServiceRequest("POST", "/api/chat.postMessage", {}, form, body, "http://x/w/x/slack")
            record(world, slack, bot, request)
    world.advance(3 * 3600 * US)
    world.finish("done")
    score(world)


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.stem)
def test_a_dropped_world_leaves_no_cycle(scene: Path) -> None:
    """Nothing a world holds leads back to it: dropped, it is freed by reference counting alone, so a server,
    which never hands frozen objects back to the collector, keeps none of it."""
    hub = Hub()
    image = hub.images.load(scene=str(scene))
    _use(hub, hub.add(image))  # a first world: what is made once a process (imports, caches) is made now
    gc.collect()
    gc.disable()
    try:
        world = hub.add(image)
        _use(hub, world)
        held = [weakref.ref(world), weakref.ref(world.log)]
        hub.drop(world.id)
        del world
        assert [ref() for ref in held] == [None, None]  # freed by reference counting, no collection run
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        assert gc.garbage == []  # nothing of it was left in cycles either
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("scene", SCENES, ids=lambda scene: scene.stem)
def test_a_dropped_fork_and_its_parent_leave_no_cycle(scene: Path) -> None:
    """A fork holds nothing of its parent, nor the parent of it: each, used and dropped, is freed by reference
    counting alone, whichever goes first."""
    hub = Hub()
    image = hub.images.load(scene=str(scene))
    first = hub.add(image)
    _use(hub, hub.fork(first.id))  # what a first fork makes once a process is made now
    gc.collect()
    gc.disable()
    try:
        parent = hub.add(image)
        fork = hub.fork(parent.id)
        held = [weakref.ref(parent), weakref.ref(parent.log), weakref.ref(fork), weakref.ref(fork.log)]
        _use(hub, parent)
        hub.drop(parent.id)
        del parent
        assert [ref() is None for ref in held] == [True, True, False, False]
        _use(hub, fork)
        hub.drop(fork.id)
        del fork
        assert [ref() for ref in held] == [None, None, None, None]
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_building_images_leaves_no_cycle() -> None:
    """Building an image holds the collector off and freezes what it made (`held`): any cycle it dropped would
    stay until the process ends, for each image a server builds."""
    collector_images = Hub().images
    collector_images.load(scene=str(ROOT / "seeds" / "csv-export.yaml"))  # Faker made and imported, once
    gc.collect()
    gc.disable()
    try:
        images = Hub().images
        for scene in SCENES:
            images.load(scene=str(scene))
        del images
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("how", ["deleted", "expired"])
def test_dropping_a_world_walks_no_other_worlds_objects(how: str) -> None:
    """With a big world alive in a server, dropping another one leaves every collection after it, full ones
    included, walking only what was made since the last: the objects in the collector's generations when each
    starts, counted from its own callback."""
    wall = [0.0]
    hub = Hub(idle_ttl=60.0, finished_ttl=60.0, wall=lambda: wall[0])
    image = hub.images.load(scene=str(ROOT / "seeds" / "csv-export.yaml"))
    walked: list[int] = []

    def counted(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            walked.append(sum(len(gc.get_objects(generation)) for generation in range(info["generation"] + 1)))

    with collector.serving():
        big = hub.add(image)
        post = _poster(big)
        for _ in range(BIG_CALLS):
            post()
        assert big.log.last_seq > 2 * BIG_CALLS  # each call logged with its write: a few objects each
        small = hub.add(image)
        _use(hub, small)
        gc.callbacks.insert(0, counted)
        try:
            if how == "deleted":
                hub.drop(small.id)
            else:
                wall[0] = 61.0
                hub.touch(big)
                assert hub.expire() == [small.id]
            del small
            for _ in range(2_000):  # calls after it: their collections, young and old, run as they come
                post()
            gc.collect()  # and a full one at once
        finally:
            gc.callbacks.remove(counted)
    assert list(hub.worlds) == [big.id]
    assert len(walked) > 10
    assert max(walked) < BIG_CALLS // 4  # on a collector handed everything back, the first full one walks it all


def _poster(world: World) -> Callable[[], Any]:
    slack = SERVICES["slack"]
    bot = next(p for p in world.tokens.values() if p.service == "slack" and p.token_type == "bot")
    body = urlencode({"channel": world.refs["general"], "text": "noise"}).encode()
    form = {"content-type": "application/x-www-form-urlencoded"}
    request = ServiceRequest("POST", "/api/chat.postMessage", {}, form, body, "http://x/w/x/slack")
    return lambda: record(world, slack, bot, request)
