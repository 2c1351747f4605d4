import gc
import weakref

import pytest

from soundstage.clock import US, Clock, parse_time
from soundstage.ids import IdSource
from soundstage.world import Collection, World, diff_snapshots

START = parse_time("2026-03-02T14:00:00Z")


def make_world() -> World:
    users = Collection("slack.users", {"U1": {"id": "U1", "name": "maya", "team": "T1"}})
    return World(
        "w1",
        "scene",
        {"slack.users": users},
        Clock(START),
        IdSource("s"),
        initial={"slack.users": users._records.copy()},
    )


def test_collection_index_follows_changes():
    c = Collection("x")
    c.add("a", {"id": "a", "kind": "k1"})
    c.add("b", {"id": "b", "kind": "k2"})
    assert [r["id"] for r in c.by("kind", "k1")] == ["a"]
    c.change("b", kind="k1")
    assert [r["id"] for r in c.by("kind", "k1")] == ["a", "b"]
    c.remove("a")
    assert [r["id"] for r in c.by("kind", "k1")] == ["b"]
    c.add("c", {"id": "c", "kind": "k2"})
    assert [r["id"] for r in c.by("kind", "k2")] == ["c"]
    with pytest.raises(KeyError):
        c.add("c", {})


def test_change_never_mutates_the_old_record():
    c = Collection("x")
    old = c.add("a", {"id": "a", "n": 1})
    new = c.change("a", n=2)
    assert old == {"id": "a", "n": 1} and new == {"id": "a", "n": 2}


def test_writes_outside_a_call_are_logged_at_once():
    world = make_world()
    world["slack.users"].change("U1", name="maya.chen")
    event = world.log.events[-1]
    assert (event.kind, event.collection, event.op, event.id, event.fields, event.by) == (
        "write",
        "slack.users",
        "changed",
        "U1",
        ["name"],
        None,
    )


def test_call_lifecycle_logs_call_then_writes_then_ticks():
    world = make_world()
    at = world.begin_call()
    world["slack.users"].add("U2", {"id": "U2", "name": "omar"})
    call = world.end_call(at, service="slack", method="POST", path="/api/x", status=200)
    assert [e.kind for e in world.log.events] == ["start", "call", "write"]
    assert call.seq == 2 and call.t == "2026-03-02T14:00:00Z"
    assert world.log.events[2].by == 2
    assert world.now() == START + 5 * US


def test_rollback_undoes_a_failed_call():
    world = make_world()
    at = world.begin_call()
    world["slack.users"].add("U2", {"id": "U2", "name": "omar"})
    world["slack.users"].change("U1", name="x")
    world["slack.users"].remove("U1")
    world.rollback()
    world.end_call(at, service="slack", method="POST", path="/api/x", status=200)
    assert world.state()["slack.users"] == [{"id": "U1", "name": "maya", "team": "T1"}]
    assert [e.kind for e in world.log.events] == ["start", "call"]
    assert world["slack.users"].by("name", "maya")[0]["id"] == "U1"


def test_due_events_run_in_time_order_at_their_own_time():
    world = make_world()
    seen = []
    world.schedule(START + 30 * US, lambda w: seen.append(("b", w.now())))
    world.schedule(START + 10 * US, lambda w: seen.append(("a", w.now())))
    world.schedule(START + 99 * US, lambda w: seen.append(("c", w.now())))
    world.advance(60 * US)
    assert seen == [("a", START + 10 * US), ("b", START + 30 * US)]
    assert world.now() == START + 60 * US
    assert world.log.events[-1].kind == "clock" and world.log.events[-1].advanced == "1m"


def test_diff_and_finish():
    world = make_world()
    world["slack.users"].change("U1", name="maya.chen")
    world["slack.users"].add("U2", {"id": "U2"})
    assert world.diff() == {
        "slack.users": {
            "added": [{"id": "U2"}],
            "removed": [],
            "changed": [
                {
                    "id": "U1",
                    "record": {"id": "U1", "name": "maya.chen", "team": "T1"},
                    "changes": {"name": {"from": "maya", "to": "maya.chen"}},
                }
            ],
        }
    }
    assert world.finish("done") is True
    assert world.finish("again") is False
    assert world.output == "done" and world.log.events[-1].kind == "finish"


def test_diff_snapshots_skips_identical_records():
    record = {"id": "a"}
    assert diff_snapshots({"x": {"a": record}}, {"x": {"a": record}}) == {}
    assert diff_snapshots({"x": {"a": record}}, {"x": {}})["x"]["removed"] == [{"id": "a"}]


def test_a_recurring_action_skips_only_the_runs_it_says_change_nothing():
    """`every` against an action scheduling itself again each minute: the runs that act, at the same times and in
    the same order among other due events of the same time (scheduled before, during and after its runs)."""

    def drive(recurring: bool) -> tuple[list[tuple[str, int]], int]:
        world = make_world()
        seen: list[tuple[str, int]] = []
        state = {"next": 0, "dirty": False, "runs": 0}

        def tick(world: World, until: int = 0) -> int:
            state["runs"] += 1
            now = world.now()
            if now >= state["next"] or state["dirty"]:  # acts; else it would change nothing
                seen.append(("tick", now))
                state["next"], state["dirty"] = now + (7 if len(seen) % 2 else 25) * 60 * US, False
            return state["next"]

        def other(name: str, then: int | None = None):
            def run(world: World) -> None:
                seen.append((name, world.now()))
                state["dirty"] = name.startswith("write")
                if then is not None:
                    world.schedule(world.now() + then, other(name + "+", None))

            return run

        def again(world: World) -> None:
            tick(world)
            world.schedule(world.now() + 60 * US, again)

        if recurring:
            world.every(START + 60 * US, 60 * US, tick)
        else:
            world.schedule(START + 60 * US, again)
        world.schedule(START + 180 * US, other("a", 60 * US))  # a whole minute, scheduling the next one
        world.schedule(START + 30 * 60 * US, other("write-b", 30 * US))
        world.schedule(START + 30 * 60 * US, other("c"))
        world.schedule(START + 95 * 60 * US + 10 * US, other("write-d", 50 * US))
        world.advance(3600 * US)
        world.schedule(world.now() + 60 * US, other("write-e"))  # as a call would, between clock moves
        world.advance(90 * US)
        world.schedule(world.now() + 30 * US, other("f", 30 * US))
        world.advance(7 * 86400 * US)
        return seen, state["runs"]

    (seen, runs), (expected, every_minute) = drive(recurring=True), drive(recurring=False)
    assert seen == expected
    # Run: the 636 runs that act and 5 others (just after other due events), where every minute is 10,141.
    assert (len(seen), runs, every_minute) == (646, 641, 10_141)


def test_nothing_a_world_holds_leads_back_to_it():
    """Its collections' journal and its periodic actions hold no reference to it: reference counting alone
    frees a world let go, without the garbage collector (a server's never looks at it again)."""
    gc.disable()
    try:
        world = make_world()
        world.every(START, 60 * US, lambda w, until: until)
        world["slack.users"].change("U1", name="maya.chen")
        at = world.begin_call()
        world["slack.channels"].add("C1", {"id": "C1"})
        world.end_call(at, service="slack", method="POST", path="/api/conversations.create", status=200)
        world.advance(3600 * US)
        freed = weakref.ref(world)
        del world
        assert freed() is None
    finally:
        gc.enable()
