"""Forking a live world (`World.fork`): the fork starts in its parent's state, its people's memory and pending
replies, its faults' progress and its rate-limit windows included, and then the two go on alone."""

from __future__ import annotations

import gc
import json
import types
import weakref
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from tests.garbage import no_cycles_left

from soundstage.clock import US, iso
from soundstage.faults.api import ApiFaults
from soundstage.grading.attempt import Watching
from soundstage.people.engine import State
from soundstage.server.recording import record
from soundstage.services import SERVICES
from soundstage.services.base import ServiceRequest
from soundstage.stage import ImageCache, WorldImage
from soundstage.world import Principal, World, _itself

SCENE = """
name: fork-test
task: Find the root cause and end the outage.
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
rate_limits: {slack: {"chat.postMessage": "3/1m"}}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
      - {ref: maya, name: maya, real_name: Maya Chen, title: SRE}
    channels:
      - {ref: support, name: support, members: [$bot, $maya]}
      - {ref: room, name: outage, members: [$bot, $maya]}
faults:
  - id: outage
    active_while: {record: {collection: slack.channels, where: {name: outage}}}
    effects: [{metric: {name: orders.latency.p99, value: 2400, normal: 180}}]
    recover_after: 2m
people:
  - ref: maya
    slack_user: $maya
    persona: SRE.
    reply_after: 1m
    facts:
      - {id: cause, text: "The cache key is wrong.", match: ["cache key"], ask: ["root cause"]}
    on: {fault_resolved: outage, say: "Latency is back to normal.", in: $support}
checks:
  - {id: resolved, state: {fault_resolved: {fault: outage}}}
"""
START = 1772460000  # 2026-03-02T14:00:00Z, in seconds


@pytest.fixture(scope="module")
def image() -> WorldImage:
    return ImageCache().load(scene_yaml=SCENE)


def call(world: World, operation: str, **params: str) -> dict[str, Any]:
    """A Slack call of the agent's bot, through the recording layer; its JSON answer."""
    bot = Principal("slack", world.refs["bot"], "bot")
    body = urlencode(params).encode()
    form = {"content-type": "application/x-www-form-urlencoded"}
    request = ServiceRequest("POST", f"/api/{operation}", {}, form, body, "http://x/w/x/slack")
    _, content, _, _ = record(world, SERVICES["slack"], bot, request)
    answer: dict[str, Any] = json.loads(content)
    return answer


def ask(world: World) -> dict[str, Any]:
    return call(
        world,
        "chat.postMessage",
        channel=world.refs["support"],
        text=f"<@{world.refs['maya']}> what is the root cause?",
    )


def end_outage(world: World) -> dict[str, Any]:
    return call(world, "conversations.rename", channel=world.refs["room"], name="resolved")


def events(world: World) -> list[dict[str, Any]]:
    return [event.model_dump(mode="json") for event in world.log.events]


def kinds(world: World, after: int) -> list[str]:
    return [event.kind for event in world.log.after(after)]


def people(world: World) -> tuple[int, dict[str, set[str]], dict[str, set[str]], dict[str, int]]:
    state = world.part(State)
    return state.cursor, state.knows, state.told, state.replies


def faults(world: World) -> list[tuple[str, bool, int]]:
    """Each fault's id, whether it is active and its episode, from the world's fault watcher."""
    watcher = next(w for w in world._watchers if hasattr(w, "faults"))
    return [(state.fault.id, state.active, state.episode) for state in watcher.faults]


def due(world: World) -> list[int]:
    return sorted(d.at for d in world._due)


def everything(world: World) -> Any:
    """What a world is, beyond its id and tokens: state, log, clock, ids, people, faults, what falls due."""
    return (
        world.state(),
        events(world),
        world.now(),
        world.ids._counters,
        people(world),
        faults(world),
        due(world),
        world.diff(),
    )


def test_a_fork_starts_where_its_parent_is(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    ask(parent)  # maya's answer is due a minute later: pending in both
    fork = parent.fork("w-fork")
    assert fork.id == "w-fork" and fork.scene == "fork-test" and not fork.finished
    assert everything(fork) == everything(parent)
    assert fork.log.last_seq == parent.log.last_seq == len(parent.log.events)
    assert faults(fork) == [("outage", True, 1)]
    assert due(fork) == [(START + 60) * US]  # maya's answer, a minute after the question
    assert people(fork)[3] == {}  # she has not answered yet


def test_a_fork_diverges_without_touching_its_parent(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    ask(parent)
    before = everything(parent)
    fork = parent.fork("w-fork")
    seq = fork.log.last_seq

    assert end_outage(fork)["channel"]["name"] == "resolved"
    fork.advance(3 * 60 * US)

    assert everything(parent) == before  # state, log, clock, people, faults, due actions: all as they were
    assert faults(fork) == [("outage", False, 1)]
    assert faults(parent) == [("outage", True, 1)]
    assert fork.log.last_seq > seq
    # Forked, the fork's log goes on from the parent's last seq.
    assert fork.log.after(seq)[0].seq == seq + 1
    assert kinds(fork, seq) == [
        "call",
        "write",  # the rename
        "write",  # Slack's "renamed the channel" message
        "fault_resolved",
        "write",  # the metric's series back to normal
        "write",  # maya's "back to normal"
        "script",
        "message",
        "clock",
        "write",  # maya's answer, a minute after the question
        "write",  # the question's thread
        "revealed",
        "message",
    ]
    names = {c["name"] for c in fork.state()["slack.channels"]}
    assert names == {"support", "resolved"}
    assert {c["name"] for c in parent.state()["slack.channels"]} == {"support", "outage"}
    assert parent.now() == (START + 5) * US and fork.now() == (START + 10 + 180) * US
    assert people(fork)[3] == {"maya": 1} and people(parent)[3] == {}

    # The parent goes on alone as well: its own pending reply comes, the fork's state stays.
    after_fork = everything(fork)
    parent.advance(60 * US)
    assert people(parent)[3] == {"maya": 1}
    assert faults(parent) == [("outage", True, 1)]
    assert everything(fork) == after_fork


def test_a_fork_behaves_as_its_parent_would(image: WorldImage) -> None:
    """The same calls on a fork and on its parent give the same log, ids and answers; and both as a world that
    made every call from the start."""
    parent = image.instantiate("w-parent")
    ask(parent)
    fork = parent.fork("w-fork")
    whole = image.instantiate("w-whole")
    ask(whole)
    answers = []
    for world in (parent, fork, whole):
        answers.append((ask(world), end_outage(world)))
        world.advance(5 * 60 * US)
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0]["ok"] and answers[0][1]["ok"]
    assert everything(parent) == everything(fork) == everything(whole)


def test_rate_limit_windows_are_forked_not_shared(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    ask(parent)
    ask(parent)  # 2 of 3 posts a minute
    fork = parent.fork("w-fork")
    assert ask(fork)["ok"] is True
    assert ask(fork) == {"ok": False, "error": "ratelimited"}
    assert ask(parent)["ok"] is True  # the fork's posts took no place in the parent's window
    assert ask(parent) == {"ok": False, "error": "ratelimited"}


def test_a_fork_of_a_fork(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    ask(parent)
    child = parent.fork("w-child")
    end_outage(child)
    grandchild = child.fork("w-grandchild")
    assert everything(grandchild) == everything(child)
    grandchild.advance(60 * US)
    assert people(grandchild)[3] == {"maya": 1}
    assert people(child)[3] == people(parent)[3] == {}
    assert faults(grandchild) == faults(child) == [("outage", False, 1)]
    assert faults(parent) == [("outage", True, 1)]


def test_derived_indexes_follow_each_world_alone(image: WorldImage) -> None:
    """A fork copies the derived indexes its parent built (Slack's history by channel): each follows its own
    writes after."""
    parent = image.instantiate("w-parent")
    ask(parent)
    support = parent.refs["support"]
    before = [m["text"] for m in call(parent, "conversations.history", channel=support)["messages"]]
    assert len(before) == 1  # the question; the index is built
    fork = parent.fork("w-fork")
    call(fork, "chat.postMessage", channel=support, text="only in the fork")
    history = call(fork, "conversations.history", channel=support)["messages"]
    assert [m["text"] for m in history] == ["only in the fork", *before]
    assert [m["text"] for m in call(parent, "conversations.history", channel=support)["messages"]] == before


def test_a_finished_world_is_not_forked(image: WorldImage) -> None:
    world = image.instantiate("w-done")
    world.finish("done")
    with pytest.raises(ValueError, match="world w-done has finished: fork a world before it finishes"):
        world.fork("w-fork")


def _reachable(roots: Any) -> Iterator[Any]:
    """Every object the engine's state leads to, but what forks share on purpose and code: objects marked
    `shared_by_forks` are not looked into, functions only through their closures."""
    seen: set[int] = set()
    stack = [roots]
    while stack:
        found = stack.pop()
        if id(found) in seen or isinstance(found, (type, types.ModuleType)):
            continue
        seen.add(id(found))
        if getattr(type(found), "__deepcopy__", None) is _itself:
            continue
        yield found
        if isinstance(found, types.FunctionType):
            stack.extend(cell.cell_contents for cell in found.__closure__ or ())
        else:
            stack.extend(gc.get_referents(found))


def test_a_fork_shares_nothing_mutable_with_its_parent(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    ask(parent)
    end_outage(parent)  # a recovery pending: a due action that holds the fault's state
    fork = parent.fork("w-fork")

    def mutable(world: World) -> dict[int, Any]:
        """The engine's own state: world parts, due actions, watchers, clock and ids."""
        roots = (world._parts, world._due, world._watchers, world.clock, world.ids)
        immutable = (str, bytes, int, float, bool, tuple, frozenset, type(None), types.FunctionType)
        return {id(o): o for o in _reachable(roots) if not isinstance(o, immutable)}

    theirs, ours = mutable(parent), mutable(fork)
    assert len(ours) > 30  # people, faults, limits and what falls due were looked into (not the shared rules)
    assert [type(ours[i]).__name__ for i in set(theirs) & set(ours)] == []
    # Records and events are never changed in place: the maps and the list that hold them are each world's own.
    assert fork.log.events == parent.log.events and fork.log.events is not parent.log.events
    for name, collection in parent.collections.items():
        assert fork.collections[name]._records == collection._records
        assert fork.collections[name]._records is not collection._records


def test_the_parts_copy_methods_copy_every_field(image: WorldImage) -> None:
    """The parts that copy themselves for a fork (the people's memory, the api faults' counts, the milestones
    watched, the due actions) hold what their parent's hold, field for field."""
    parent = image.instantiate("w-parent")
    ask(parent)
    end_outage(parent)
    parent.part(State).decided.append(("maya", "rollback", "yes"))
    parent.part(State).replies["maya"] = 2
    parent.part(ApiFaults).seen["x"] = 3
    parent.part(Watching).keys = frozenset({"milestone"})
    fork = parent.fork("w-fork")
    assert fork.part(State) == parent.part(State) and fork.part(State).knows is not parent.part(State).knows
    assert fork.part(ApiFaults) == parent.part(ApiFaults)
    assert fork.part(Watching).keys == frozenset({"milestone"})
    due = [(d.at, d.order, type(d.action)) for d in parent._due]
    assert [(d.at, d.order, type(d.action)) for d in fork._due] == due and len(due) >= 2


def test_a_dropped_fork_and_parent_leave_no_cycle(image: WorldImage) -> None:
    with no_cycles_left():
        parent = image.instantiate("w-parent")
        ask(parent)
        end_outage(parent)
        fork = parent.fork("w-fork")
        grandchild = fork.fork("w-grandchild")
        for world in (parent, fork, grandchild):
            ask(world)
            world.advance(5 * 60 * US)
        del world
        held = [weakref.ref(w) for w in (parent, fork, grandchild)] + [weakref.ref(parent.log)]
        del parent
        assert held[0]() is None  # the parent is freed while its forks live
        del fork, grandchild
        assert [ref() for ref in held] == [None, None, None, None]


def test_fork_times_are_the_parents(image: WorldImage) -> None:
    parent = image.instantiate("w-parent")
    parent.advance(90 * US)
    fork = parent.fork("w-fork")
    assert iso(fork.now()) == iso(parent.now()) == "2026-03-02T14:01:30Z"
    fork.advance(US)
    assert iso(parent.now()) == "2026-03-02T14:01:30Z"
