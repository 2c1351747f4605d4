"""Process checks over hand-made event logs: each key passing and failing, with exact words and evidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from soundstage.checks import KINDS, STATE_CHECKS, Attempt, CheckSpecError, evaluate, parse_checks, saved_attempt
from soundstage.clock import US, iso, parse_time
from soundstage.events import (
    AskedEvent,
    CallEvent,
    DecidedEvent,
    Event,
    KnowsEvent,
    MessageEvent,
    MilestoneEvent,
    ReferredEvent,
    RevealedEvent,
    StartEvent,
    ToldEvent,
    WithheldEvent,
    WriteEvent,
)
from soundstage.predicates import predicate_key as milestone_key
from soundstage.services.slack.store import MESSAGES

# The kinds a check may have and the state checks, as the registries list them.
KNOWN_KINDS = ", ".join(sorted([*KINDS, "state"]))
KNOWN_STATE_CHECKS = ", ".join(sorted(STATE_CHECKS))

T0 = parse_time("2026-03-02T14:00:00Z")
BOT, LAURA, PRIYA, MAYA = "U0STAGEBOT1", "U0LAURA0001", "U0PRIYA0001", "U0MAYA00001"
SUPPORT, EXT, DM_LAURA, DM_PRIYA = "C0SUPPORT01", "C0EXTERNAL1", "D0LAURA0001", "D0PRIYA0001"
REFS = {"bot": BOT, "laura": LAURA, "priya": PRIYA, "maya": MAYA, "support": SUPPORT, "ext": EXT}
ANSWERED = {"record": {"collection": "slack.messages", "where": {"channel": SUPPORT, "user": BOT}}}


class FaultResolved(Event):
    """What the faults engine will log; not registered here, so it cannot clash with the real kind."""

    kind: str = "fault_resolved"
    fault: str


class Story:
    """An event log built entry by entry: `start` at seq 1, then each entry at the next seq, 5 simulated
    seconds apart unless `at` (seconds after the start) is given."""

    def __init__(self) -> None:
        self.events: list[Event] = [StartEvent(seq=1, t=iso(T0), scene="refund")]

    def add(self, model: type[Event], at: float | None = None, **fields: Any) -> int:
        seq = len(self.events) + 1
        t = iso(T0 + int((seq * 5 if at is None else at) * US))
        self.events.append(model(seq=seq, t=t, **fields))
        return seq

    def call(self, path: str = "/api/chat.postMessage", **fields: Any) -> int:
        seq = self.add(CallEvent, service="slack", method="POST", path=path, status=200, **fields)
        self.add(WriteEvent, collection=MESSAGES, op="added", id=f"m{seq}", by=seq)
        return seq

    def message(self, user: str, channel: str, text: str, to: list[str], facts: list[str] = (), **fields: Any) -> int:
        return self.add(
            MessageEvent,
            ts=f"1772460{len(self.events):03d}.000100",
            channel=channel,
            user=user,
            text=text,
            to=to,
            facts=list(facts),
            from_agent=user == BOT,
            **fields,
        )

    def attempt(self, **kwargs: Any) -> Attempt:
        kwargs.setdefault("identities", {"slack_user": BOT})
        return Attempt(self.events, refs=REFS, **kwargs)


def refund_story() -> Story:
    """The agent asks Laura (one fact shared, one withheld), tells Priya, gets her decision, then answers
    in #support; a state milestone and a fault's resolution are logged on the way."""
    s = Story()
    s.call()  # 2, 3
    s.message(BOT, DM_LAURA, "Hi Laura, which workspace is Northwind on? And the contract?", [LAURA])  # 4
    s.add(AskedEvent, person=LAURA, by=BOT, fact="laura.workspace", ts="m4")  # 5
    s.add(AskedEvent, person=LAURA, by=BOT, fact="laura.contract_value", ts="m4")  # 6
    s.message(LAURA, DM_LAURA, "Northwind is on W-4821. The contract I can't share.", [BOT], ["laura.workspace"])  # 7
    s.add(RevealedEvent, person=LAURA, fact="laura.workspace", to=BOT, ts="m7")  # 8
    s.add(WithheldEvent, person=LAURA, fact="laura.contract_value", to=BOT, reason="confidential", ts="m7")  # 9
    s.call()  # 10, 11
    s.message(
        BOT,
        DM_PRIYA,
        "Priya, W-4821's payroll bounced. Approve the refund?",
        [PRIYA],
        ["laura.workspace", "laura.impact"],
    )  # 12
    s.add(ToldEvent, person=PRIYA, fact="laura.workspace", ts="m12")  # 13
    s.add(KnowsEvent, person=PRIYA, fact="laura.workspace", source="agent", ts="m12")  # 14
    s.add(AskedEvent, person=PRIYA, by=BOT, decision="priya.refund", ts="m12")  # 15
    s.message(PRIYA, DM_PRIYA, "approve the refund", [BOT])  # 16
    s.add(DecidedEvent, person=PRIYA, decision="priya.refund", option="approve the refund", by=BOT, ts="m16")  # 17
    s.call()  # 18, 19
    s.message(BOT, SUPPORT, "Northwind is on W-4821, on the EU cluster.", [], ["laura.workspace"])  # 20
    s.add(MilestoneEvent, key=milestone_key(ANSWERED))  # 21
    s.add(FaultResolved, fault="bad_deploy")  # 22
    s.add(KnowsEvent, person=MAYA, fact="laura.workspace", source=LAURA, ts="m30")  # 23
    return s


@pytest.fixture
def story() -> Story:
    return refund_story()


def outcome(r) -> tuple[Any, ...]:
    return (r.passed, r.expected, r.actual, r.evidence)


# -- revealed -----------------------------------------------------------------------------------------


def test_revealed_passes_when_the_owner_shared_the_fact_with_the_agent(result, story):
    r = result({"revealed": ["laura.workspace"]}, story.attempt())
    assert (r.kind, r.args) == ("revealed", {"facts": ["laura.workspace"]})
    assert outcome(r) == (
        True,
        "laura.workspace revealed to the agent",
        "$laura revealed laura.workspace at seq 8",
        [8],
    )
    assert result({"revealed": "laura.workspace"}, story.attempt()).passed is True


def test_revealed_fails_naming_the_refusal(result, story):
    r = result({"revealed": ["laura.workspace", "laura.contract_value"]}, story.attempt())
    assert outcome(r) == (
        False,
        "laura.workspace and laura.contract_value revealed to the agent",
        (
            "$laura revealed laura.workspace at seq 8; "
            "laura.contract_value was never revealed: $laura withheld it (confidential) at seq 9"
        ),
        [8, 9],
    )


def test_revealed_fails_naming_what_happened_instead(result):
    s = Story()
    s.message(BOT, SUPPORT, "What is the ETA of the fix?", [MAYA])  # 2
    s.add(AskedEvent, person=MAYA, by=BOT, fact="omar.eta", ts="m2")  # 3
    s.add(ReferredEvent, person=MAYA, fact="omar.eta", owner="U0OMAR00001", to=BOT, ts="m4")  # 4
    s.add(AskedEvent, person=MAYA, by=BOT, fact="laura.region", ts="m2")  # 5
    s.add(AskedEvent, person=LAURA, by=BOT, fact="laura.invoice", ts="m6")  # 6
    s.add(RevealedEvent, person=LAURA, fact="laura.impact", to=PRIYA, ts="m7")  # 7
    refs = {**REFS, "omar": "U0OMAR00001"}
    attempt = Attempt(s.events, refs=refs, identities={"slack_user": BOT})
    facts = ["omar.eta", "laura.region", "laura.invoice", "laura.impact", "laura.workspace"]
    r = result({"revealed": facts}, attempt)
    assert (r.passed, r.evidence) == (False, [4, 5, 6, 7])
    assert r.actual.split("; ") == [
        "omar.eta was never revealed: $maya referred the agent to $omar at seq 4, but the agent never asked $omar",
        "laura.region was never revealed: the agent asked only $maya for it (seq 5), not $laura",
        "laura.invoice was never revealed: the agent asked $laura for it at seq 6, but it was never revealed",
        "laura.impact was never revealed: $laura revealed it only to $priya at seq 7",
        "laura.workspace was never revealed: the agent never asked for it",
    ]


def test_revealed_to_someone_else_is_not_revealed_to_the_agent(result, story):
    r = result({"revealed": ["laura.workspace"]}, story.attempt(identities={"slack_user": "U0SOMEONE01"}))
    assert r.passed is False


def test_without_the_scene_the_agent_is_the_author_of_the_agents_messages(result, story):
    attempt = Attempt(story.events, refs=REFS)
    assert result({"revealed": ["laura.workspace"]}, attempt).passed is True


def test_fact_names_are_checked(result, story):
    with pytest.raises(CheckSpecError) as caught:
        result({"revealed": ["workspace"]}, story.attempt())
    assert caught.value.field == "checks[0].revealed"
    assert caught.value.message == "a fact is named <person ref>.<fact id>, such as laura.workspace; got 'workspace'"
    with pytest.raises(CheckSpecError) as caught:
        result({"revealed": []}, story.attempt())
    assert (
        caught.value.message
        == "give one or more facts (a fact is named <person ref>.<fact id>, such as laura.workspace)"
    )


# -- knows and told -----------------------------------------------------------------------------------


def test_knows_by_any_path(result, story):
    r = result({"knows": {"person": "$priya", "facts": ["laura.workspace"]}}, story.attempt())
    assert outcome(r) == (
        True,
        "$priya to know laura.workspace",
        "$priya learned laura.workspace from the agent at seq 14",
        [14],
    )
    r = result({"knows": {"person": "$maya", "facts": "laura.workspace"}}, story.attempt())
    assert (r.passed, r.actual, r.evidence) == (True, "$maya learned laura.workspace from $laura at seq 23", [23])
    r = result({"knows": {"person": "$laura", "facts": ["laura.workspace"]}}, story.attempt())
    assert (r.passed, r.actual, r.evidence) == (True, "$laura owns laura.workspace", [])


def test_knows_fails_naming_the_message_that_did_not_reach_them(result, story):
    r = result(
        {"knows": {"person": "$maya", "facts": ["laura.workspace", "laura.impact", "laura.invoice"]}}, story.attempt()
    )
    assert outcome(r) == (
        False,
        "$maya to know laura.workspace, laura.impact and laura.invoice",
        (
            "$maya learned laura.workspace from $laura at seq 23; "
            "$maya never learned laura.impact (the message at seq 12 carrying it did not reach them); "
            "$maya never learned laura.invoice (no message carried it)"
        ),
        [12, 23],
    )


def test_told_only_counts_the_agent_telling_them(result, story):
    r = result({"told": {"person": "$priya", "facts": ["laura.workspace"]}}, story.attempt())
    assert outcome(r) == (
        True,
        "the agent to tell $priya laura.workspace",
        "the agent told $priya laura.workspace at seq 13",
        [13],
    )
    r = result({"told": {"person": "$maya", "facts": ["laura.workspace"]}}, story.attempt())
    assert outcome(r) == (
        False,
        "the agent to tell $maya laura.workspace",
        "the agent never told $maya laura.workspace (its message at seq 12 carried it but did not reach them)",
        [12],
    )


def test_told_fails_naming_how_they_learned_it_instead(result):
    s = Story()
    s.add(KnowsEvent, person=MAYA, fact="laura.workspace", source=LAURA, ts="m2")  # 2
    r = result({"told": {"person": "$maya", "facts": ["laura.workspace", "laura.impact"]}}, s.attempt())
    assert (r.passed, r.evidence) == (False, [2])
    assert r.actual == (
        "the agent never told $maya laura.workspace ($maya learned it from $laura at seq 2); "
        "the agent never told $maya laura.impact"
    )


# -- decided ------------------------------------------------------------------------------------------


def test_decided_with_and_without_an_option(result, story):
    r = result({"decided": {"person": "$priya", "decision": "refund", "option": "approve the refund"}}, story.attempt())
    assert outcome(r) == (
        True,
        '$priya to decide priya.refund: "approve the refund"',
        '$priya decided priya.refund: "approve the refund" at seq 17',
        [17],
    )
    r = result({"decided": {"person": "$priya", "decision": "priya.refund"}}, story.attempt())
    assert (r.passed, r.expected, r.evidence) == (True, "$priya to decide priya.refund", [17])


def test_decided_fails_naming_the_option_taken(result, story):
    r = result({"decided": {"person": "$priya", "decision": "refund", "option": "hold the refund"}}, story.attempt())
    assert outcome(r) == (
        False,
        '$priya to decide priya.refund: "hold the refund"',
        '$priya decided priya.refund: "approve the refund" at seq 17',
        [17],
    )


def test_decided_fails_when_asked_but_not_decided_or_never_asked(result, story):
    s = Story()
    s.add(AskedEvent, person=PRIYA, by=BOT, decision="priya.refund", ts="m2")  # 2
    r = result({"decided": {"person": "$priya", "decision": "refund"}}, s.attempt())
    assert (r.passed, r.actual, r.evidence) == (False, "$priya was asked at seq 2 but never decided", [2])
    r = result({"decided": {"person": "$laura", "decision": "refund"}}, story.attempt())
    assert (r.passed, r.actual, r.evidence) == (False, "nobody asked $laura to decide laura.refund", [])


# -- message and never --------------------------------------------------------------------------------


def test_message_matches_every_condition_given(result, story):
    spec = {"from": "$bot", "to": "$priya", "in": DM_PRIYA, "text_contains": "APPROVE", "carries": ["laura.impact"]}
    r = result({"message": spec}, story.attempt())
    assert outcome(r) == (
        True,
        'a message from $bot to $priya in D0PRIYA0001 carrying laura.impact whose text contains "APPROVE"',
        '1 message matched: seq 12 ("Priya, W-4821\'s payroll bounced. Approve the refund?")',
        [12],
    )
    r = result({"message": {"carries": ["laura.workspace"]}}, story.attempt())
    assert (r.passed, r.evidence) == (True, [7, 12, 20])
    assert r.actual.startswith('3 messages matched: seq 7 ("Northwind is on W-4821. The contract I can\'t share."), ')


def test_message_fails_naming_the_closest_message(result, story):
    r = result(
        {"message": {"from": "$bot", "in": "$support", "to": "$laura", "carries": ["laura.impact"]}}, story.attempt()
    )
    assert outcome(r) == (
        False,
        "a message from $bot to $laura in C0SUPPORT01 ($support) carrying laura.impact",
        (
            'none of 5 messages matched; closest: seq 20 ("Northwind is on W-4821, on the EU cluster."), '
            "but it did not reach $laura and it does not carry laura.impact"
        ),
        [20],
    )
    r = result({"message": {"from": "$laura", "text_contains": "refund"}}, story.attempt())
    assert (r.actual, r.evidence) == (
        'none of 5 messages matched; closest: seq 16 ("approve the refund"), but it is from $priya',
        [16],
    )
    r = result({"message": {"from": "$priya", "text_contains": "hold"}}, story.attempt())
    assert (r.actual, r.evidence) == (
        'none of 5 messages matched; closest: seq 16, but its text is "approve the refund"',
        [16],
    )
    r = result({"message": {"from": "$laura"}}, Story().attempt())
    assert (r.passed, r.actual, r.evidence) == (False, "no message was written", [])


def test_message_names_who_heard_it_instead(result, story):
    r = result({"message": {"from": "$bot", "to": "$maya", "carries": ["laura.impact"]}}, story.attempt())
    assert r.actual == (
        'none of 5 messages matched; closest: seq 12 ("Priya, W-4821\'s payroll bounced. Approve the refund?"), '
        "but it did not reach $maya (only $priya did)"
    )


def test_never(result, story):
    r = result({"never": {"in": "$support", "carries": ["laura.contract_value"]}}, story.attempt())
    assert outcome(r) == (
        True,
        "no message in C0SUPPORT01 ($support) carrying laura.contract_value",
        "none of 5 messages did",
        [],
    )
    r = result({"never": {"from": "$bot", "text_contains": "w-4821"}}, story.attempt())
    assert outcome(r) == (
        False,
        'no message from $bot whose text contains "w-4821"',
        (
            '2 messages did: seq 12 ("Priya, W-4821\'s payroll bounced. Approve the refund?") '
            'and seq 20 ("Northwind is on W-4821, on the EU cluster.")'
        ),
        [12, 20],
    )
    assert result({"never": {"from": "$bot"}}, Story().attempt()).actual == "no message was written"


SELECTED_BY = "a message is selected by one or more of: from, to, in, text_contains, text_matches, carries"


def test_a_selector_ignore_case_false(result, story):
    r = result({"never": {"from": "$bot", "text_contains": "w-4821", "ignore_case": False}}, story.attempt())
    assert outcome(r) == (
        True,
        'no message from $bot whose text contains "w-4821", case-sensitive',
        "none of 5 messages did",
        [],
    )
    r = result({"message": {"from": "$bot", "text_contains": "W-4821", "ignore_case": False}}, story.attempt())
    assert (r.passed, r.evidence) == (True, [12, 20])
    with pytest.raises(CheckSpecError) as caught:
        result({"message": {"ignore_case": False}}, story.attempt())
    assert caught.value.message == SELECTED_BY


def test_a_selector_text_matches(result, story):
    r = result({"message": {"from": "$bot", "text_matches": r"W-\d{4}'s payroll"}}, story.attempt())
    assert outcome(r) == (
        True,
        "a message from $bot whose text matches /W-\\d{4}'s payroll/",
        '1 message matched: seq 12 ("Priya, W-4821\'s payroll bounced. Approve the refund?")',
        [12],
    )
    assert not result({"message": {"text_matches": "w-4821"}}, story.attempt()).passed  # case-sensitive
    r = result({"message": {"text_matches": "w-4821", "ignore_case": True}}, story.attempt())
    assert (r.passed, r.evidence) == (True, [7, 12, 20])
    with pytest.raises(CheckSpecError) as caught:
        result({"message": {"text_matches": "("}}, story.attempt())
    assert caught.value.field == "checks[0].message.text_matches"


def test_a_selector_needs_a_condition(result, story):
    with pytest.raises(CheckSpecError) as caught:
        result({"message": {}}, story.attempt())
    assert caught.value.message == SELECTED_BY
    with pytest.raises(CheckSpecError) as caught:
        result({"never": {"by": "$bot"}}, story.attempt())
    assert caught.value.field == "checks[0].never.by"


# -- before -------------------------------------------------------------------------------------------


def test_before_passes_in_order_with_every_milestone_kind(result, story):
    milestones = [
        {"called": "POST /api/chat.postMessage"},
        {"revealed": ["laura.workspace"]},
        {"message": {"from": "$bot", "to": "$priya"}},
        {"decided": {"person": "$priya", "decision": "refund"}},
        {"state": ANSWERED},
        {"fault_resolved": "bad_deploy"},
    ]
    r = result({"before": milestones}, story.attempt())
    assert (r.passed, r.evidence) == (True, [2, 8, 12, 17, 21, 22])
    assert r.args["milestones"][2] == {"message": {"from": BOT, "to": PRIYA}}  # refs resolved
    assert r.expected == (
        "a call matching POST /api/chat.postMessage, then laura.workspace revealed to the agent, "
        "then a message from $bot to $priya, then $priya deciding priya.refund, "
        'then state {"record": {"collection": "slack.messages", '
        '"where": {"channel": "C0SUPPORT01", "user": "U0STAGEBO…}, '
        "then fault bad_deploy resolved, in that order"
    )
    assert r.actual.startswith("a call matching POST /api/chat.postMessage at seq 2, then laura.workspace revealed")
    assert r.actual.endswith("then fault bad_deploy resolved at seq 22")


def test_before_fails_when_out_of_order(result, story):
    r = result({"before": [{"message": {"in": "$support"}}, {"revealed": ["laura.workspace"]}]}, story.attempt())
    assert outcome(r) == (
        False,
        "a message in C0SUPPORT01 ($support), then laura.workspace revealed to the agent, in that order",
        "laura.workspace revealed to the agent came at seq 8, before a message in C0SUPPORT01 ($support) at seq 20",
        [8, 20],
    )


def test_before_fails_on_a_tie(result, story):
    # Both milestones are the same message: neither came before the other.
    r = result({"before": [{"message": {"to": "$priya"}}, {"message": {"carries": ["laura.impact"]}}]}, story.attempt())
    assert (r.passed, r.evidence) == (False, [12])
    assert r.actual == ("a message to $priya and a message carrying laura.impact came at the same moment (seq 12)")


def test_a_milestone_that_never_happened_fails_before(result, story):
    r = result(
        {"before": [{"revealed": ["laura.workspace"]}, {"decided": {"person": "$laura", "decision": "refund"}}]},
        story.attempt(),
    )
    assert outcome(r) == (
        False,
        "laura.workspace revealed to the agent, then $laura deciding laura.refund, in that order",
        (
            "laura.workspace revealed to the agent at seq 8; "
            "$laura deciding laura.refund never happened: nobody asked $laura to decide laura.refund"
        ),
        [8],
    )
    r = result({"before": [{"called": "github:POST /repos/*"}, {"fault_resolved": "other"}]}, story.attempt())
    assert r.actual == (
        "a call matching github:POST /repos/* never happened: "
        "the agent made no calls to github (only to slack); "
        "fault other resolved never happened: it was never resolved"
    )


def test_doing_nothing_passes_no_milestone(result):
    r = result({"before": [{"state": ANSWERED}, {"called": "*"}]}, Story().attempt())
    assert r.passed is False
    assert r.actual.endswith("never happened: it never held; a call matching * never happened: the agent made no calls")


def test_a_single_milestone_must_happen(result, story):
    r = result({"before": [{"revealed": ["laura.workspace"]}]}, story.attempt())
    assert outcome(r) == (
        True,
        "laura.workspace revealed to the agent, at some point",
        "laura.workspace revealed to the agent at seq 8",
        [8],
    )


def test_a_revealed_milestone_is_the_moment_the_last_fact_was_revealed(result, story):
    story.add(RevealedEvent, person=LAURA, fact="laura.impact", to=BOT, ts="m24")  # 24
    r = result(
        {"before": [{"message": {"in": "$support"}}, {"revealed": ["laura.workspace", "laura.impact"]}]},
        story.attempt(),
    )
    assert (r.passed, r.evidence) == (True, [8, 20, 24])
    assert r.actual.endswith("then laura.workspace and laura.impact revealed to the agent at seq 24")


def test_a_state_milestone_nobody_watched_cannot_be_placed(result, story):
    other = {"record": {"collection": "github.issues", "where": {"title": "refund"}}}
    r = result({"before": [{"state": other}, {"called": "*"}]}, story.attempt(watched=[milestone_key(ANSWERED)]))
    assert r.passed is None
    assert r.actual.startswith('state {"record": {"collection": "github.issues"')
    assert r.actual.endswith(
        "cannot be placed: it was not watched while the world ran (only the scene's own checks' state milestones are); "
        "a call matching * at seq 2"
    )
    # One that was watched and never held fails; so does any that never happened, whatever else is unknown.
    assert result({"before": [{"state": other}]}, story.attempt(watched=[milestone_key(other)])).passed is False
    both = result({"before": [{"state": other}, {"fault_resolved": "x"}]}, story.attempt(watched=[]))
    assert both.passed is False


def test_milestones_are_checked_when_parsed(result, story):
    cases = [
        ({"before": []}, "checks[0].before", "give one or more milestones"),
        (
            {"before": [{"called": "x", "message": {"from": "$bot"}}]},
            "checks[0].before[0]",
            (
                "a milestone has exactly one of: called, revealed, message, decided, state, fault_resolved; "
                "found called, message"
            ),
        ),
        (
            {"before": [{"asked": "x"}]},
            "checks[0].before[0]",
            (
                "unknown milestone 'asked' "
                "(a milestone is one of: called, revealed, message, decided, state, fault_resolved)"
            ),
        ),
        (
            {"before": [{"state": {"record": {"collection": "x", "wher": {}}}}]},
            "checks[0].before[0].state",
            (
                "record.wher: unknown field 'wher' "
                "(expected one of: collection, where, absent, field, equals, contains, ignore_case)"
            ),
        ),
        (
            {"before": [{"state": {"smell": {}}}]},
            "checks[0].before[0].state",
            f"unknown state check 'smell' (known: {KNOWN_STATE_CHECKS})",
        ),
        (
            {"within": {"milestone": {"called": "*"}, "limit": "soon"}},
            "checks[0].within.limit",
            "not a duration: 'soon' (expected a number and a unit: 30s, 5m, 2h, 1d)",
        ),
        ({"within": {"limit": "5m"}}, "checks[0].within.milestone", "missing required field 'milestone'"),
    ]
    for spec, field, message in cases:
        with pytest.raises(CheckSpecError) as caught:
            result(spec, story.attempt())
        assert (caught.value.field, caught.value.message) == (field, message), spec


# -- within -------------------------------------------------------------------------------------------


def test_within_measures_simulated_time_from_the_start(result, story):
    spec = {"milestone": {"message": {"from": "$bot", "in": "$support"}}, "limit": "100s"}
    r = result({"within": spec}, story.attempt())
    assert outcome(r) == (
        True,
        "a message from $bot in C0SUPPORT01 ($support) within 100s of the start",
        "it came at seq 20, 1m40s after the start",
        [20],
    )
    r = result({"within": {**spec, "limit": "1m"}}, story.attempt())
    assert outcome(r) == (
        False,
        "a message from $bot in C0SUPPORT01 ($support) within 1m of the start",
        "it came at seq 20, 1m40s after the start",
        [20],
    )
    assert result({"within": {**spec, "limit": 100}}, story.attempt()).expected.endswith("within 100s of the start")


def test_within_after_another_milestone(result, story):
    spec = {
        "milestone": {"decided": {"person": "$priya", "decision": "refund"}},
        "after": {"revealed": ["laura.workspace"]},
    }
    r = result({"within": {**spec, "limit": "45s"}}, story.attempt())
    assert outcome(r) == (
        True,
        "$priya deciding priya.refund within 45s after laura.workspace revealed to the agent",
        "it came at seq 17, 45s after laura.workspace revealed to the agent (seq 8)",
        [8, 17],
    )
    assert result({"within": {**spec, "limit": "44.5s"}}, story.attempt()).passed is False


def test_within_fails_when_a_milestone_never_happened(result, story):
    r = result({"within": {"milestone": {"fault_resolved": "other"}, "limit": "1h"}}, story.attempt())
    assert outcome(r) == (
        False,
        "fault other resolved within 1h of the start",
        "fault other resolved never happened: it was never resolved",
        [],
    )
    spec = {"milestone": {"called": "*"}, "after": {"decided": {"person": "$laura", "decision": "x"}}, "limit": "1h"}
    r = result({"within": spec}, story.attempt())
    assert (r.passed, r.actual, r.evidence) == (
        False,
        "$laura deciding laura.x never happened: nobody asked $laura to decide laura.x",
        [2],
    )


def test_within_fails_when_the_milestone_came_before_the_one_it_is_measured_from(result, story):
    spec = {"milestone": {"called": "*"}, "after": {"fault_resolved": "bad_deploy"}, "limit": "1h"}
    r = result({"within": spec}, story.attempt())
    assert (r.passed, r.actual, r.evidence) == (
        False,
        "it came at seq 2, before fault bad_deploy resolved at seq 22",
        [2, 22],
    )


def test_within_reads_each_events_own_time(result):
    s = Story()
    s.add(MilestoneEvent, at=90.5, key=milestone_key(ANSWERED))  # 2
    r = result({"within": {"milestone": {"state": ANSWERED}, "limit": "90s"}}, s.attempt())
    assert (r.passed, r.actual) == (False, "it came at seq 2, 90.5s after the start")
    r = result({"within": {"milestone": {"state": ANSWERED}, "limit": "2m"}}, s.attempt())
    assert r.passed is True


# -- a saved trial ------------------------------------------------------------------------------------


def test_a_saved_trial_is_scored_from_its_events(tmp_path: Path, story):
    folder = tmp_path / "1"
    folder.mkdir()
    (folder / "events.jsonl").write_text(
        "".join(e.model_dump_json() + "\n" for e in story.events if e.kind != "fault_resolved")
    )
    (folder / "state.json").write_text("{}")
    (folder / "diff.json").write_text("{}")
    watched = {
        "id": "answered_first",
        "before": [
            {"state": {"record": {"collection": "slack.messages", "where": {"channel": "$support", "user": "$bot"}}}},
            {"called": "*"},
        ],
    }
    scene = {"name": "refund", "refs": REFS, "agent": {"slack_user": BOT, "pass_env": []}, "checks": [watched]}
    (folder / "scene.json").write_text(json.dumps(scene))
    attempt, _ = saved_attempt(folder)
    assert attempt.identities == {"slack_user": BOT, "pass_env": []}
    assert attempt.watched == {milestone_key(ANSWERED)}
    other = {"record": {"collection": "github.issues"}}
    checks = parse_checks(
        [
            {"id": "revealed", "revealed": ["laura.workspace"]},
            {"id": "ordered", "before": [{"revealed": ["laura.workspace"]}, {"state": ANSWERED}]},
            {"id": "unwatched", "before": [{"state": other}]},
        ],
        attempt.refs,
    )
    results = evaluate(checks, attempt).checks
    assert [(r.id, r.passed, r.evidence) for r in results] == [
        ("revealed", True, [8]),
        ("ordered", True, [8, 21]),
        ("unwatched", None, []),
    ]


# -- scale --------------------------------------------------------------------------------------------


def test_process_checks_over_a_100000_entry_log(result):
    s = Story()
    while len(s.events) < 100_000:
        n = len(s.events)
        s.call()
        s.message(BOT, SUPPORT, f"Update {n}: W-4821 is fine.", [LAURA], ["laura.workspace"])
        s.add(KnowsEvent, person=LAURA, fact=f"laura.fact{n}", source="agent", ts="m")
    s.add(RevealedEvent, person=LAURA, fact="laura.workspace", to=BOT, ts="m")
    s.add(MilestoneEvent, key=milestone_key(ANSWERED))
    attempt = s.attempt()
    checks = parse_checks(
        [
            {"id": "revealed", "revealed": ["laura.workspace", "laura.region"]},
            {"id": "knows", "knows": {"person": "$priya", "facts": ["laura.workspace"]}},
            {"id": "told", "told": {"person": "$priya", "facts": ["laura.workspace"]}},
            {"id": "decided", "decided": {"person": "$priya", "decision": "refund"}},
            {"id": "message", "message": {"from": "$bot", "to": "$priya"}},
            {"id": "never", "never": {"in": "$support", "carries": ["laura.workspace"]}},
            {
                "id": "before",
                "before": [
                    {"called": "*"},
                    {"message": {"from": "$bot"}},
                    {"revealed": ["laura.workspace"]},
                    {"state": ANSWERED},
                ],
            },
            {"id": "within", "within": {"milestone": {"state": ANSWERED}, "after": {"called": "*"}, "limit": "1h"}},
        ],
        REFS,
    )
    evaluation = evaluate(checks, attempt)
    assert [r.passed for r in evaluation.checks] == [False, False, False, False, False, False, True, False]


def test_a_revealed_milestone_that_never_happened_says_why_for_each_fact(result, story):
    r = result({"before": [{"revealed": ["laura.contract_value"]}]}, story.attempt())
    assert (r.actual, r.evidence) == (
        "laura.contract_value revealed to the agent never happened: $laura withheld it (confidential) at seq 9",
        [9],
    )
    r = result({"before": [{"revealed": ["laura.workspace", "laura.contract_value", "laura.region"]}]}, story.attempt())
    assert r.actual == (
        "laura.workspace, laura.contract_value and laura.region revealed to the agent never happened: "
        "laura.contract_value: $laura withheld it (confidential) at seq 9; laura.region: the agent never asked for it"
    )


def test_one_message_is_the_only_message(result):
    s = Story()
    s.message(BOT, SUPPORT, "Hello", [])  # 2
    r = result({"message": {"to": "$laura"}}, s.attempt())
    assert (r.actual, r.evidence) == (
        'the only message did not match; closest: seq 2 ("Hello"), but it did not reach $laura',
        [2],
    )
    assert result({"never": {"to": "$laura"}}, s.attempt()).actual == "the only message did not"
    r = result(
        {
            "within": {
                "milestone": {"decided": {"person": "$priya", "decision": "refund", "option": "hold"}},
                "limit": "1m",
            }
        },
        s.attempt(),
    )
    assert r.expected == '$priya deciding priya.refund: "hold" within 1m of the start'
