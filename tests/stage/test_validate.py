"""`validate_file` misses nothing: every name a check or a person uses resolves, every problem of a file is
reported in one run, each with its file, line and field, and a scene is told apart from a world file."""

from __future__ import annotations

from pathlib import Path

import pytest

from soundstage.grading import KINDS
from soundstage.services.slack.models import User
from soundstage.stage import validate_file

SCENE = """name: refund
task: Ask Priya to approve the refund.
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: priya, name: priya}
      - {ref: sam, name: sam}
      - {ref: nina, name: nina}
    channels:
      - {ref: ext, name: ext-northwind, members: [$bot, $nina]}
people:
  - ref: priya
    slack_user: $priya
    facts:
      - {id: budget, text: "The budget is 5k.", match: ["5k"], ask: ["budget"]}
    decisions:
      - {id: refund, ask: ["refund"], options: ["approve the refund", "hold the refund"]}
  - ref: sam
    slack_user: $sam
    facts:
      - {id: contract_value, text: "They pay 180k a year.", match: ["180k"], confidential: true}
checks:
"""
FIRST = SCENE.count("\n") + 1  # the line of the first check


def problems(tmp_path: Path, text: str) -> list[tuple[int | None, str, str]]:
    scene = tmp_path / "scene.yaml"
    scene.write_text(text)
    return [(e.line, e.field, e.message) for e in validate_file(scene)]


def test_the_base_scene_is_valid(tmp_path: Path) -> None:
    assert problems(tmp_path, SCENE + "  - {id: ok, revealed: [priya.budget]}\n") == []


@pytest.mark.parametrize(
    ("check", "field", "message"),
    [
        (
            "{id: c, never: {in: $ext, carries: [sam.contract_vaule]}}",
            "checks[0].never.carries[0]",
            (
                "fact 'sam.contract_vaule' is not one of the scene's facts "
                "(declared: priya.budget, sam.contract_value); did you mean 'sam.contract_value'?"
            ),
        ),
        (
            "{id: c, revealed: [priya.budgit]}",
            "checks[0].revealed[0]",
            (
                "fact 'priya.budgit' is not one of the scene's facts (declared: priya.budget, sam.contract_value); "
                "did you mean 'priya.budget'?"
            ),
        ),
        (
            "{id: c, told: {person: $priya, facts: [sam.contract]}}",
            "checks[0].told.facts[0]",
            (
                "fact 'sam.contract' is not one of the scene's facts (declared: priya.budget, sam.contract_value); "
                "did you mean 'sam.contract_value'?"
            ),
        ),
        (
            "{id: c, knows: {person: $nina, facts: [priya.budget]}}",
            "checks[0].knows.person",
            "$nina is not a person of this scene (people: $priya, $sam): only people hear, learn and decide",
        ),
        (
            "{id: c, decided: {person: $priya, decision: refnd}}",
            "checks[0].decided",
            "decision 'refnd' is not one of $priya's decisions (declared: refund); did you mean 'refund'?",
        ),
        (
            "{id: c, decided: {person: $priya, decision: refund, option: approve}}",
            "checks[0].decided",
            "'approve' is not an option of priya.refund (options: 'approve the refund', 'hold the refund')",
        ),
        (
            '{id: c, before: [{decided: {person: $sam, decision: refund}}, {called: "*"}]}',
            "checks[0].before[0].decided",
            "decision 'refund' is not one of $sam's decisions (declared: none)",
        ),
        (
            '{id: c, trace: {not_called: ["slak:GET *"]}}',
            "checks[0].trace.not_called[0]",
            (
                "service 'slak' is not one of soundstage's services (declared: slack, github, datadog, "
                "pagerduty, calendar, gmail); "
                "did you mean 'slack'?"
            ),
        ),
        (
            '{id: c, within: {milestone: {called: "githb:POST /repos/*"}, limit: 1h}}',
            "checks[0].within.milestone.called",
            (
                "service 'githb' is not one of soundstage's services (declared: slack, github, datadog, "
                "pagerduty, calendar, gmail); "
                "did you mean 'github'?"
            ),
        ),
        (
            "{id: c, message: {to: $nina, text_contains: refund}}",
            "checks[0].message.to",
            "$nina is not a person of this scene (people: $priya, $sam): only people hear, learn and decide",
        ),
    ],
)
def test_every_name_a_check_uses_resolves(tmp_path: Path, check: str, field: str, message: str) -> None:
    assert problems(tmp_path, SCENE + f"  - {check}\n") == [(FIRST, field, message)]


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = SCENE + (
        "  - {id: a, trace: {called: $nope}}\n"
        "  - {id: b, trace_calls: {called: '*'}}\n"
        "  - {id: c, state: {github.pull: {repo: acme/orders, merged: 'yes'}}}\n"
        "  - {id: e, revealed: [priya.budgit]}\n"
        "pass: [a, b, d]\n"
    )
    assert problems(tmp_path, text) == [
        (FIRST, "checks[0].trace.called", "unknown ref $nope (known refs: $bot, $ext, $nina, $priya, $sam)"),
        (FIRST + 1, "checks[1].trace_calls", _unknown_kind("trace_calls")),
        (FIRST + 2, "checks[2].state.github.pull.merged", "expected true or false, found 'yes'"),
        (
            FIRST + 3,
            "checks[3].revealed[0]",
            (
                "fact 'priya.budgit' is not one of the scene's facts (declared: priya.budget, sam.contract_value); "
                "did you mean 'priya.budget'?"
            ),
        ),
        (FIRST + 4, "pass[2]", "no check has the id 'd' (check ids: a, b, c, e)"),
    ]


def test_a_scene_without_a_task_is_told_so(tmp_path: Path) -> None:
    text = SCENE.replace("task: Ask Priya to approve the refund.\n", "") + "  - {id: ok, revealed: [priya.budget]}\n"
    assert problems(tmp_path, text) == [(1, "task", "required field is missing")]


def test_a_world_file_is_still_a_world_file(tmp_path: Path) -> None:
    world = "name: tiny\nslack:\n  users:\n    - {ref: bot, name: stagebot, emial: x}\n"
    assert problems(tmp_path, world) == [
        (4, "slack.users[0].emial", _unknown_field("emial")),
    ]


def _unknown_kind(key: str) -> str:
    return f"unknown check kind {key!r} (a check has one of: {', '.join(sorted([*KINDS, 'state']))})"


def _unknown_field(name: str) -> str:
    fields = sorted(f.alias or n for n, f in User.model_fields.items())
    return f"unknown field {name!r}; expected one of: {', '.join(fields)}"


def test_faults_and_people_name_declared_faults_in_their_conditions(tmp_path: Path) -> None:
    faults = (
        "faults:\n"
        "  - id: slow\n"
        "    active_while: {fault_resolved: {fault: slwo}}\n"
        "    effects: [{metric: {name: orders.latency, value: 900}}]\n"
    )
    text = SCENE.replace("people:\n", faults + "people:\n").replace(
        'ask: ["budget"]}', 'ask: ["budget"], share_if: {state: {fault_resolved: {fault: slwo}}}}'
    )
    unknown = "fault 'slwo' is not one of the scene's faults (declared: slow); did you mean 'slow'?"
    line = text.splitlines().index("    active_while: {fault_resolved: {fault: slwo}}") + 1
    assert problems(tmp_path, text + "  - {id: ok, revealed: [priya.budget]}\n") == [
        (line, "faults[0].active_while.fault_resolved.fault", unknown),
        (line + 6, "people[0].facts[0].share_if.state.fault_resolved.fault", unknown),
    ]


def test_a_bad_field_of_a_person_hides_no_check_error(tmp_path: Path) -> None:
    text = SCENE.replace("    slack_user: $priya\n", "    slack_user: $priya\n    reply_after: soon\n") + (
        "  - {id: a, revealed: [priya.budgit]}\n"
        "  - {id: b, trace_calls: {called: '*'}}\n"
        "  - {id: c, knows: {person: $nina, facts: [priya.budget]}}\n"
    )
    first = FIRST + 1
    assert problems(tmp_path, text) == [
        (16, "people[0].reply_after", "expected a duration like 30s, 5m or 2h, found 'soon'"),
        (first, "checks[0].revealed[0]", _unknown_fact("priya.budgit", "priya.budget")),
        (first + 1, "checks[1].trace_calls", _unknown_kind("trace_calls")),
        (
            first + 2,
            "checks[2].knows.person",
            "$nina is not a person of this scene (people: $priya, $sam): only people hear, learn and decide",
        ),
    ]


def test_a_bad_ref_hides_no_unknown_field_of_its_check(tmp_path: Path) -> None:
    text = SCENE + "  - {id: a, state: {slack.message: {channel: $nope, txt: refund}}}\n"
    assert problems(tmp_path, text) == [
        (
            FIRST,
            "checks[0].state.slack.message.channel",
            "unknown ref $nope (known refs: $bot, $ext, $nina, $priya, $sam)",
        ),
        (
            FIRST,
            "checks[0].state.slack.message.txt",
            (
                "unknown field 'txt' (expected one of: channel, from, in_thread_of, text_contains, text_matches, "
                "count_gte, ignore_case)"
            ),
        ),
    ]


def test_an_unknown_field_a_bad_record_and_a_missing_task_are_reported_together(tmp_path: Path) -> None:
    text = (
        SCENE.replace("task: Ask Priya to approve the refund.\n", "tsak: Ask Priya.\n").replace(
            "members: [$bot, $nina]", "members: [$bot, $nobody]"
        )
        + "  - {id: ok, revealed: [priya.budget]}\n"
    )
    assert [(line, field) for line, field, _ in problems(tmp_path, text)] == [
        (1, "task"),
        (2, "tsak"),
        (12, "seed.slack.channels[0].members[1]"),
    ]


def test_a_person_left_out_leaves_no_false_alarm_and_hides_nothing_else(tmp_path: Path) -> None:
    # Without slack_user, Sam cannot be read: a check naming his fact is no problem of its own.
    text = SCENE.replace("  - ref: sam\n    slack_user: $sam\n", "  - ref: sam\n") + (
        "  - {id: a, never: {in: $ext, carries: [sam.contract_value]}}\n  - {id: b, trace: {called: 3}}\n"
    )
    found = problems(tmp_path, text)
    assert [(line, field) for line, field, _ in found] == [
        (20, "people[1].slack_user"),
        (FIRST, "checks[1].trace.called"),
    ]
    assert found[0][2] == "required field is missing"


def test_a_broken_world_file_hides_no_error_of_the_scene(tmp_path: Path) -> None:
    (tmp_path / "worlds").mkdir()
    (tmp_path / "worlds" / "tiny.yaml").write_text("name: tiny\nslack:\n  users: [{ref: bot, nmae: stagebot}]\n")
    (tmp_path / "seeds").mkdir()
    scene = tmp_path / "seeds" / "scene.yaml"
    scene.write_text("name: s\nworld: tiny\ntask: 3\nchecks: []\n")
    assert [(Path(e.file).name, e.line, e.field) for e in validate_file(scene)] == [
        ("scene.yaml", 3, "task"),
        ("tiny.yaml", 3, "slack.users[0].name"),
        ("tiny.yaml", 3, "slack.users[0].nmae"),
    ]


def _unknown_fact(name: str, meant: str) -> str:
    return (
        f"fact {name!r} is not one of the scene's facts (declared: priya.budget, sam.contract_value); "
        f"did you mean {meant!r}?"
    )
