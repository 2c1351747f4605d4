"""Building the cast: every name in `people` resolved once, and every mistake reported with file, line
and field."""

from __future__ import annotations

import pytest

from soundstage.errors import SpecError
from soundstage.people.cast import Condition, DecidedRef

from .conftest import cast_of, scene

GOOD = """
  - ref: laura
    slack_user: $laura
    persona: Customer Success Lead.
    reply_after: 45s
    watches: [$support, $general]
    general_answer: workspace
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821."
        match: ["W-4821"]
        ask: ["workspace", "which account"]
        referred_by: [$maya]
      - id: renewal
        text: "They renew on June 30."
        match: ["June 30"]
        share_if: {told: [laura.workspace], knows: [maya.eta]}
    script:
      - {at: 10m, say: "Morning", in: $general}
      - {at: 90s, say: "Ping", to: $bot}
    on:
      - {fault_resolved: bad_deploy, say: "Thanks!", in: $support}
      - {decided: {person: $priya, decision: refund, option: hold}, say: "OK", to: $maya}
  - ref: maya
    slack_user: $maya
    knows: [laura.workspace]
    facts:
      - {id: eta, text: "Thursday.", match: ["Thursday"], ask: ["eta"]}
  - ref: priya
    slack_user: $priya
    decisions:
      - id: refund
        ask: [refund]
        options: [approve, hold]
        choose:
          - {option: approve, if: {state: {slack.message: {channel: $ext, from: $bot}}}}
          - {option: hold, if: {decided: {person: $priya, decision: priya.refund}}}
        default: hold
"""


def test_a_cast_is_resolved_to_ids(people):
    live = people(scene(GOOD, name="build-good"))
    refs = live.world.refs
    cast = cast_of(scene(GOOD, name="build-good"))
    laura, maya, priya = cast.people
    assert (laura.ref, laura.user, laura.persona, laura.reply_after) == (
        "laura",
        refs["laura"],
        "Customer Success Lead.",
        45_000_000,
    )
    assert laura.watches == {refs["support"], refs["general"]}
    assert laura.knows == ("laura.workspace", "laura.renewal")
    assert (laura.general_answer, maya.general_answer) == ("laura.workspace", None)
    assert maya.knows == ("maya.eta", "laura.workspace")
    assert list(cast.facts) == ["laura.workspace", "laura.renewal", "maya.eta"]
    workspace = cast.facts["laura.workspace"]
    assert (workspace.owner, workspace.referred_by, workspace.ask.phrases) == (
        refs["laura"],
        (refs["maya"],),
        ("workspace", "which account"),
    )
    assert cast.facts["laura.renewal"].share_if == Condition(knows=("maya.eta",), told=("laura.workspace",))
    assert [(s.at, s.trigger, s.line.channel, s.line.to) for s in laura.script] == [
        (600_000_000, "at 10m", refs["general"], None),
        (90_000_000, "at 90s", None, refs["bot"]),
    ]
    assert [t.name for t in laura.on] == ["fault_resolved bad_deploy", "decided priya.refund"]
    assert laura.on[1].decided == DecidedRef(refs["priya"], "priya.refund", "hold")
    refund = cast.decisions["priya.refund"]
    assert refund.choose[0].when.state == {"slack.message": {"channel": refs["ext"], "from": refs["bot"]}}
    assert refund.choose[1].when.decided == DecidedRef(refs["priya"], "priya.refund", None)
    assert cast.by_user[refs["priya"]] is priya
    assert cast.carried("on w-4821 by thursday") == ["laura.workspace", "maya.eta"]


def line_of(text: str, snippet: str, nth: int = 1) -> int:
    """The line of the nth occurrence of `snippet` in the scene's `people` section."""
    lines = text.splitlines()
    start = lines.index("people:")
    found = [n for n, line in enumerate(lines[start:], start + 1) if snippet in line]
    return found[nth - 1]


@pytest.mark.parametrize(
    "people, marker, field, message",
    [
        (
            "  - {ref: laura, slack_user: $support}",
            "slack_user: $support",
            "people[0].slack_user",
            "$support names a record of slack.channels, expected one of slack.users",
        ),
        (
            "  - {ref: maya, slack_user: $laura}",
            "ref: maya",
            "people[0].ref",
            "a person's ref is the ref of their Slack user ($laura); 'maya' does not name that user",
        ),
        (
            "  - {ref: laura, slack_user: $laura}\n  - {ref: laura, slack_user: $laura}",
            ("{ref: laura", 2),
            "people[1].ref",
            "person 'laura' is declared twice",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    facts:\n"
                "      - {id: x, text: X, match: [X]}\n      - {id: x, text: Y, match: [Y]}"
            ),
            "{id: x, text: Y",
            "people[0].facts[1].id",
            "fact id 'x' is used twice by laura",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n"
                "      - {id: d, ask: [a], options: [o]}\n      - {id: d, ask: [b], options: [o]}"
            ),
            "{id: d, ask: [b]",
            "people[0].decisions[1].id",
            "decision id 'd' is used twice by laura",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    knows: [maya.eta]",
            "knows: [maya.eta]",
            "people[0].knows[0]",
            "expected a fact as <person ref>.<fact id> (facts: none), found 'maya.eta'",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    general_answer: workspace\n    facts:\n"
                "      - {id: x, text: X, match: [X]}"
            ),
            "general_answer",
            "people[0].general_answer",
            "laura has no fact 'workspace' (their facts: x)",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    watches: [$nowhere]",
            "watches",
            "people[0].watches[0]",
            "unknown ref $nowhere",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    watches: [$laura]",
            "watches",
            "people[0].watches[0]",
            "$laura names a record of slack.users, expected one of slack.channels",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    facts:\n"
                "      - id: x\n        text: X\n        match: [X]\n        share_if: {told: [laura.y]}"
            ),
            "share_if",
            "people[0].facts[0].share_if.told[0]",
            "expected a fact as <person ref>.<fact id> (facts: laura.x), found 'laura.y'",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    facts:\n"
                "      - id: x\n        text: X\n        match: [X]\n        referred_by: [$nina]"
            ),
            "referred_by",
            "people[0].facts[0].referred_by[0]",
            "expected a person of this scene (people: $laura), found '$nina'",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n      - id: d\n        ask: [a]\n"
                "        options: [o, p]\n        choose:\n          - option: o\n"
                "            if: {decided: {person: $laura, decision: nope}}"
            ),
            "if: {decided",
            "people[0].decisions[0].choose[0].if.decided.decision",
            "laura has no decision 'nope' (their decisions: d)",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n      - id: d\n        ask: [a]\n"
                "        options: [o, p]\n        choose:\n          - option: o\n"
                "            if: {decided: {person: $laura, decision: d, option: q}}"
            ),
            "if: {decided",
            "people[0].decisions[0].choose[0].if.decided.option",
            "'q' is not one of the options of laura.d: o, p",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n      - id: d\n        ask: [a]\n"
                "        options: [o, p]\n        choose:\n          - option: o\n"
                "            if: {state: {slack.nothing: {}}}"
            ),
            "if: {state",
            "people[0].decisions[0].choose[0].if.state",
            "unknown state check 'slack.nothing'",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n      - id: d\n        ask: [a]\n"
                "        options: [o, p]\n        choose:\n          - option: o\n"
                "            if: {state: {slack.message: {chanel: $support}}}"
            ),
            "if: {state",
            "people[0].decisions[0].choose[0].if.state.slack.message.chanel",
            "unknown field 'chanel'",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    script:\n      - {at: 1m, say: hi, in: $maya}",
            "at: 1m",
            "people[0].script[0].in",
            "$maya names a record of slack.users, expected one of slack.channels",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    on:\n      - {fault_resolved: x, say: hi, to: $support}",
            "fault_resolved",
            "people[0].on[0].to",
            "$support names a record of slack.channels, expected one of slack.users",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    on:\n"
                "      - {decided: {person: $nina, decision: d}, say: hi, to: $bot}"
            ),
            "decided",
            "people[0].on[0].decided.person",
            "expected a person of this scene (people: $laura), found '$nina'",
        ),
        (
            '  - ref: laura\n    slack_user: $laura\n    working_hours: {from: "17:00", to: "09:00"}',
            "working_hours",
            "people[0].working_hours",
            "`to` (09:00) must be after `from` (17:00)",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    working_hours: {from: 9am}",
            "working_hours",
            "people[0].working_hours.from",
            "expected a time of day like 09:00, found '9am'",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n"
                "      - {id: d, invitation: true, options: [maybe]}"
            ),
            "id: d",
            "people[0].decisions[0]",
            "option 'maybe' of a decision on invitations is not one of ['accepted', 'tentative', 'declined']",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n"
                "      - {id: d, invitation: true, ask: [a], options: [accepted]}"
            ),
            "id: d",
            "people[0].decisions[0]",
            "a decision on invitations is taken on each invitation, never asked",
        ),
        (
            "  - ref: laura\n    slack_user: $laura\n    decisions:\n      - {id: d, options: [o]}",
            "id: d",
            "people[0].decisions[0]",
            "a decision needs `ask` phrases",
        ),
        (
            (
                "  - ref: laura\n    slack_user: $laura\n    decisions:\n"
                "      - {id: d, invitation: true, options: [accepted]}\n"
                "      - {id: e, invitation: true, options: [declined]}"
            ),
            "id: e",
            "people[0].decisions[1].invitation",
            "laura has a decision on invitations already",
        ),
    ],
)
def test_mistakes_name_file_line_and_field(people, marker, field, message):
    text = scene(people, name="build-bad")
    with pytest.raises(SpecError) as caught:
        cast_of(text)
    error = caught.value
    snippet, nth = marker if isinstance(marker, tuple) else (marker, 1)
    assert (error.file, error.field, error.line) == ("<scene_yaml>", field, line_of(text, snippet, nth))
    assert error.message.startswith(message), error.message


def test_on_may_be_one_mapping_as_design_writes_it():
    cast = cast_of(
        scene("  - ref: laura\n    slack_user: $laura\n    on: {fault_resolved: bad_deploy, say: Fixed!, in: $support}")
    )
    assert [t.name for t in cast.people[0].on] == ["fault_resolved bad_deploy"]


def test_a_scene_without_people_has_an_empty_cast():
    cast = cast_of(scene("  []").replace("people:\n  []", "people: []"))
    assert (cast.people, bool(cast)) == ((), False)


def test_the_control_api_reports_a_people_mistake_with_line_and_field(stage):
    text = scene("  - ref: laura\n    slack_user: $laura\n    knows: [maya.eta]", name="build-http")
    response = stage.http.post("/v1/worlds", json={"scene_yaml": text})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_scene"
    assert error["errors"] == [
        {
            "file": "<scene_yaml>",
            "line": line_of(text, "knows: [maya.eta]"),
            "field": "people[0].knows[0]",
            "message": "expected a fact as <person ref>.<fact id> (facts: none), found 'maya.eta'",
        }
    ]


def test_only_the_people_are_called_on_by_name(people):
    refs = people(scene(GOOD, name="build-names")).world.refs
    names = cast_of(scene(GOOD, name="build-names")).names
    # Nina and the bot are users but not people: what reads every message holds the cast's names alone.
    assert sorted(names.users) == ["laura", "laura diaz", "maya", "maya chen", "priya", "priya raman"]
    assert names.addressees("Nina? Laura?") == {refs["laura"]}
