"""State milestones on live worlds: watched after every change, emitted once, at the moment they came to hold;
and state predicates decided on a live world now."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from soundstage.checks import Attempt, evaluate, parse_checks, state_predicates
from soundstage.clock import parse_duration, parse_time
from soundstage.predicates import PredicateError, StatePredicate, state_holds
from soundstage.predicates import predicate_key as milestone_key
from soundstage.services.slack import messages
from soundstage.services.slack.store import CHANNELS, MESSAGES, USERS
from soundstage.stage.image import WorldImage, build_image
from soundstage.stage.models import read_scene_text
from soundstage.world import World

SCENE = """
name: watch
task: Answer the question in #support.
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: laura, name: laura}
    channels:
      - {ref: support, name: support, members: [$bot, $laura]}
      - {ref: general, name: general, members: [$bot, $laura]}
    messages:
      - {ref: question, channel: $support, user: $laura, text: "Where is the CSV export?"}
checks:
  - id: answered_then_reacted
    before:
      - {state: {slack.message: {channel: $support, from: $bot, text_contains: "Reports"}}}
      - {called: "POST /api/reactions.add"}
  - id: answered_quickly
    within: {milestone: {state: {record: {collection: slack.messages, where: {text: "reports"}}}}, limit: 1m}
  - id: laura_was_there
    before: [{state: {record: {collection: slack.users, where: {name: laura}}}}]
  - id: answered
    state: {slack.message: {channel: $support, from: $bot}}
"""


@pytest.fixture
def image() -> WorldImage:
    return build_image(*read_scene_text(SCENE))


@pytest.fixture
def world(image: WorldImage) -> World:
    world = image.instantiate("w1")  # the image starts watching the scene's state milestones
    return world


def call(world: World, path: str, action: Callable[[World], Any] = lambda w: None) -> int:
    """One agent call as the recording layer makes it: due events, the handler's writes, the call, a tick."""
    at = world.begin_call()
    action(world)
    return world.end_call(at, service="slack", method="POST", path=path, status=200).seq


def post(channel: str, text: str, user: str = "bot") -> Callable[[World], Any]:
    return lambda w: messages.post(w, w.refs[channel], w.refs[user], text)


def milestones(world: World) -> list[tuple[int, str, str]]:
    return [(e.seq, e.t, e.key) for e in world.log.events if e.kind == "milestone"]


def keys(image: WorldImage) -> list[str]:
    return [milestone_key(p) for p in [p.predicate for p in state_predicates(image.checks)]]


def test_state_milestones_are_the_resolved_predicates_of_before_and_within(image):
    support, bot = image.refs["support"], image.refs["bot"]
    assert [p.predicate for p in state_predicates(image.checks)] == [
        {"slack.message": {"channel": support, "from": bot, "text_contains": "Reports"}},
        {"record": {"collection": "slack.messages", "where": {"text": "reports"}}},
        {"record": {"collection": "slack.users", "where": {"name": "laura"}}},
    ]
    assert milestone_key([p.predicate for p in state_predicates(image.checks)][1]) == (
        '{"record":{"collection":"slack.messages","where":{"text":"reports"}}}'
    )
    assert state_predicates(parse_checks([{"id": "a", "trace": {"called": "*"}}], {})) == []


def test_a_milestone_is_emitted_once_when_its_predicate_first_holds(image, world):
    answered, quickly, laura = keys(image)
    # Laura is there from the start: its milestone comes when watching begins, at the start.
    assert milestones(world) == [(2, "2026-03-02T14:00:00Z", laura)]
    call(world, "/api/chat.postMessage", post("general", "Hello"))  # 3, 4 at 14:00:00
    assert len(milestones(world)) == 1
    seq = call(world, "/api/chat.postMessage", post("support", "It is under Reports > Export."))  # 5, 6 at 14:00:05
    assert seq == 5
    # Both hold after the write of seq 6, at the time of that write (the clock has ticked on since).
    assert milestones(world)[1:] == [(7, "2026-03-02T14:00:05Z", answered), (8, "2026-03-02T14:00:05Z", quickly)]
    assert world.now() == parse_time("2026-03-02T14:00:10Z")
    call(world, "/api/chat.postMessage", post("support", "Reports, again."))  # 9, 10
    call(world, "/api/reactions.add")  # 11
    assert len(milestones(world)) == 3
    results = {r.id: r for r in evaluate(image.checks, Attempt.from_world(world)).checks}
    assert (results["answered_then_reacted"].passed, results["answered_then_reacted"].evidence) == (True, [7, 11])
    assert (results["answered_quickly"].passed, results["answered_quickly"].actual) == (
        True,
        "it came at seq 8, 5s after the start",
    )
    assert (results["laura_was_there"].passed, results["laura_was_there"].evidence) == (True, [2])


def test_a_milestone_reached_by_a_due_event_has_that_events_time(image, world):
    answered = keys(image)[0]
    bot_said = post("support", "Reports > Export, Laura.")  # the world's own write, as a person's reply would be
    world.schedule(parse_time("2026-03-02T14:00:40Z"), bot_said)
    call(world, "/api/auth.test")  # 3 at 14:00:00
    world.advance(parse_duration("1m"))  # 4: clock event; the reply at 14:00:40 (5), then the milestone (6)
    assert milestones(world)[1:] == [(6, "2026-03-02T14:00:40Z", answered), (7, "2026-03-02T14:00:40Z", keys(image)[1])]
    assert [e.kind for e in world.log.events[3:5]] == ["clock", "write"]


def test_a_write_that_is_rolled_back_reaches_no_milestone(world):
    at = world.begin_call()
    post("support", "Reports")(world)
    world.rollback()
    world.end_call(at, service="slack", method="POST", path="/api/chat.postMessage", status=200, error=True)
    assert len(milestones(world)) == 1


def test_a_predicate_is_evaluated_again_only_when_what_it_read_changed(monkeypatch, image):
    evaluated: list[str] = []
    holds = StatePredicate.holds

    def counting(self: StatePredicate, attempt: Attempt) -> bool:
        evaluated.append(self.name)
        return holds(self, attempt)

    monkeypatch.setattr(StatePredicate, "holds", counting)
    world = image.instantiate("w1")  # the image starts watching the scene's state milestones
    assert evaluated == ["slack.message", "record", "record"]  # each once when watching begins
    evaluated.clear()
    call(world, "/api/users.profile.set", lambda w: w[USERS].change(w.refs["laura"], title="CS"))
    call(world, "/api/auth.test")  # no write at all
    assert evaluated == []  # slack.users changed, which neither pending predicate reads
    call(world, "/api/chat.postMessage", post("general", "Hello"))
    assert evaluated == ["slack.message", "record"]


def test_a_predicate_that_reads_the_log_is_evaluated_after_any_write():
    scene = SCENE.replace(
        "  - id: laura_was_there",
        "  - id: wrote\n    before: [{state: {writes: {collection: slack.users, min: 1}}}]\n  - id: laura_was_there",
    )
    image = build_image(*read_scene_text(scene))
    world = image.instantiate("w1")  # the image starts watching the scene's state milestones
    wrote = milestone_key({"writes": {"collection": "slack.users", "min": 1}})
    call(world, "/api/chat.postMessage", post("general", "Hello"))
    call(world, "/api/users.profile.set", lambda w: w[USERS].change(w.refs["laura"], title="CS"))  # 5, 6
    assert milestones(world)[-1] == (7, "2026-03-02T14:00:05Z", wrote)


def test_a_state_milestone_nobody_watched_is_not_decided(image, world):
    extra = parse_checks(
        [{"id": "extra", "before": [{"state": {"record": {"collection": "slack.channels", "where": {"name": "x"}}}}]}],
        world.refs,
        source="custom",
    )
    (result,) = evaluate(extra, Attempt.from_world(world)).checks
    assert result.passed is None
    assert result.actual.endswith(
        "cannot be placed: it was not watched while the world ran (only the scene's own checks' state milestones are)"
    )
    assert Attempt.from_world(world).watched == frozenset(keys(image))


# -- state_holds --------------------------------------------------------------------------------------


def test_state_holds_decides_a_predicate_on_the_live_world_now(image):
    world = image.instantiate("w1")
    support, bot = world.refs["support"], world.refs["bot"]
    answered = {"slack.message": {"channel": support, "from": bot}}
    assert state_holds(world, answered) is False
    call(world, "/api/chat.postMessage", post("support", "Under Reports."))
    assert state_holds(world, answered) is True
    assert state_holds(world, {"slack.message": {"channel": support, "from": bot, "text_contains": "nope"}}) is False
    assert state_holds(world, {"record": {"collection": "slack.messages", "where": {"text": "under reports"}}}) is True
    assert state_holds(world, {"diff": {"collection": "slack.messages", "change": "added", "count": 1}}) is True
    assert state_holds(world, {"diff": {"collection": "slack.users", "change": "changed"}}) is False
    assert state_holds(world, {"writes": {"collection": "slack.messages", "min": 1}}) is True
    assert state_holds(world, {"record": {"collection": "github.issues", "absent": True}}) is True


def test_state_holds_refuses_an_invalid_predicate(world):
    with pytest.raises(PredicateError) as caught:
        state_holds(world, {"record": {"where": {}}})
    assert str(caught.value) == "record.collection: missing required field 'collection'"
    with pytest.raises(PredicateError):
        state_holds(world, {"slack.message": {}, "record": {}})


# -- the live attempt ---------------------------------------------------------------------------------


def test_from_world_works_out_the_diff_only_when_read(world):
    call(world, "/api/chat.postMessage", post("support", "Under Reports."))
    attempt = Attempt.from_world(world)
    assert attempt._diff is None
    call(world, "/api/chat.postMessage", post("support", "Later."))  # after the attempt was taken
    assert attempt.diff[MESSAGES]["added"][0]["text"] == "Under Reports."
    assert len(attempt.diff[MESSAGES]["added"]) == 1  # the diff of the state the attempt holds
    assert attempt.identities["slack_user"] == world.refs["bot"]


def test_a_world_view_records_what_a_check_read(world):
    call(world, "/api/chat.postMessage", post("support", "Under Reports."))
    cases = [
        ({"slack.message": {"channel": world.refs["support"]}}, {MESSAGES}, False, True),
        ({"record": {"collection": "slack.users", "where": {"name": "laura"}}}, {USERS}, False, True),
        ({"diff": {"collection": "slack.channels"}}, {CHANNELS}, False, False),
        ({"writes": {"max": 0}}, set(), True, False),
    ]
    from soundstage.predicates import WorldView, parse_state_predicate

    for predicate, reads, reads_all, held in cases:
        view = WorldView(world)
        assert parse_state_predicate(predicate).holds(view) is held, predicate
        assert (view.reads, view.reads_all) == (reads, reads_all), predicate
    assert WorldView(world).events is world.log.events  # nothing copied


def test_a_reaction_is_decided_live_reading_only_the_messages(world):
    from soundstage.predicates import Watched, WorldView, parse_state_predicate
    from soundstage.services.slack import reactions

    eyes = {"name": "eyes", "by": world.refs["bot"], "message": world.refs["question"], "new": True}
    predicate = parse_state_predicate({"slack.reaction": eyes})
    watched = Watched(predicate, "reaction")
    assert watched.evaluate(world)[0] is False
    assert (watched.reads, watched.reads_all) == ({MESSAGES}, False)
    assert watched.due({CHANNELS}) is False
    (question,) = world[MESSAGES].by("ts", world.refs["question"])
    call(world, "/api/reactions.add", lambda w: reactions.react(w, question, w.refs["bot"], "eyes"))
    assert watched.due({MESSAGES}) is True
    view = WorldView(world)
    assert predicate.holds(view) is True
    assert (view.reads, view.reads_all) == ({MESSAGES}, False)


def test_watching_over_http(stage):
    """The whole path: the server's recording layer ends each call, and the world's watcher emits the event."""
    live = stage.world(SCENE)
    client = live.slack()
    client.chat_postMessage(channel=live.world.refs["support"], text="It is under Reports > Export.")
    client.reactions_add(channel=live.world.refs["support"], name="eyes", timestamp=live.world.refs["question"])
    events = live.events()
    assert [(e["seq"], e["kind"]) for e in events if e["kind"] in ("call", "milestone")] == [
        (2, "milestone"),
        (3, "call"),
        (5, "milestone"),
        (6, "milestone"),
        (7, "call"),
    ]
    checks = live.get("checks")["checks"]
    assert [(c["id"], c["passed"], c["evidence"]) for c in checks][:3] == [
        ("answered_then_reacted", True, [5, 7]),
        ("answered_quickly", True, [6]),
        ("laura_was_there", True, [2]),
    ]
