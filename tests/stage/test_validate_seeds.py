"""Every problem of a service section is reported in one run, with the rest of the file's: each record of a
`slack`, `github`, `datadog` or `pagerduty` section is built on its own, one with a problem is left out, and a
record that names one left out is left out without a problem of its own (it would only repeat the other's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from soundstage.stage import validate_file

Problems = list[tuple[int | None, str, str]]

HEAD = "name: s\ntask: t\nseed:\n"  # then a service section (the cases below), then a bad check
BAD_CHECK = "checks:\n  - {id: a, trace: {called: 3}}\n"
BAD_PATTERN = (
    "a call pattern is '<METHOD> <PATH>' such as 'POST /api/chat.postMessage' or 'GET /repos/*/issues', "
    "optionally after a service ('github:POST /repos/*'), 'mcp:<service>/<tool>' for an MCP tool's calls "
    "('mcp:github/create_issue'), or '*' for any call; got 3"
)


def problems(tmp_path: Path, text: str, name: str = "scene.yaml") -> Problems:
    scene = tmp_path / name
    scene.write_text(text)
    return [(e.line, e.field, e.message) for e in validate_file(scene)]


# #ext names Priya, left out; the messages name #ext and #general, left out: none of them is a problem.
SLACK = (
    """  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: priya, name: priya, tz: Mars/Olympus}
      - {ref: sam, name: sam}
    channels:
      - {ref: ops, name: Ops Room, members: [$bot, $sam]}
      - {ref: ext, name: ext, members: [$bot, $priya]}
      - {ref: gen, name: general, members: [$bot, $sam, $sam]}
    messages:
      - {channel: $ext, user: $priya, text: hi}
      - {channel: $gen, user: $sam, text: hello}
""",
    [
        (7, "seed.slack.users[1].tz", "unknown time zone 'Mars/Olympus' (expected an IANA name such as Europe/Berlin)"),
        (
            10,
            "seed.slack.channels[0].name",
            (
                "invalid channel name 'Ops Room' (invalid_name_specials): use lower case letters, digits, - and _, "
                "at most 80 characters"
            ),
        ),
        (12, "seed.slack.channels[2].members", "a member is listed twice"),
    ],
)


# acme/app is left out, and its issues with it: their problems are its own to fix first.
GITHUB = (
    """  github:
    users: [{ref: me, login: me}]
    repos:
      - full_name: acme/app
        files: {README.md: hi}
        production: $me
        issues: [{title: hidden, user: $nobody}]
      - full_name: acme/api
        files: {README.md: hi}
        labels: [{name: bug}, {name: bug}]
        issues:
          - {title: one, user: $nobody}
          - {title: two, state: open, closed_ago: 1h}
        pulls:
          - {title: p, head: feature}
""",
    [
        (9, "seed.github.repos[0].production", "$me names a record of github.users, expected one of github.commits"),
        (13, "seed.github.repos[1].labels[1]", "label 'bug' is defined twice in acme/api"),
        (15, "seed.github.repos[1].issues[0].user", "unknown ref $nobody (known refs: $me)"),
        (16, "seed.github.repos[1].issues[1].closed_ago", "an open item has no closed_ago"),
        (18, "seed.github.repos[1].pulls[0].head", "acme/api has no branch 'feature'"),
    ],
)


# The downtime names monitor $m1, left out.
DATADOG = (
    """  datadog:
    users: [{ref: ana, email: ana@acme.test}]
    monitors:
      - {ref: m1, name: lat, type: metric alert, query: "nonsense", message: m}
      - {ref: m2, name: ok, type: metric alert, query: "avg(last_5m):avg:a{*} > 5", message: m, creator: $nobody}
    hosts:
      - {name: web-1}
      - {name: web-1}
    downtimes:
      - {scope: "env:prod", monitor_identifier: {monitor_id: $m1}}
""",
    [
        (
            7,
            "seed.datadog.monitors[0].query",
            (
                "The value provided for parameter 'query' is invalid: expected "
                "time_aggr(last_#m):space_aggr:metric{scope} [by {tags}] <comparator> <threshold>"
            ),
        ),
        (8, "seed.datadog.monitors[1].creator", "unknown ref $nobody (known refs: $ana, $m1, $m2)"),
        (11, "seed.datadog.hosts[1].name", "host 'web-1' is defined twice"),
    ],
)


# Incident b is of the service $svc, left out.
PAGERDUTY = (
    """  pagerduty:
    users:
      - {ref: omar, name: Omar, email: omar@acme.test}
      - {ref: omar2, name: Omar Two, email: omar@acme.test}
    escalation_policies:
      - {ref: ep, name: EP, escalation_rules: [{targets: [$omar]}]}
    services:
      - {ref: svc, name: Checkout, escalation_policy: $nope}
      - {ref: svc2, name: Orders, escalation_policy: $ep}
    incidents:
      - {title: a, service: $svc2, ago: 1h, status: acknowledged, acknowledged_ago: 2h}
      - {title: b, service: $svc, ago: 1h}
      - {title: c, service: $svc2, ago: 1h, resolved_ago: 10m}
""",
    [
        (7, "seed.pagerduty.users[1].email", "email omar@acme.test is already used by another PagerDuty user"),
        (
            11,
            "seed.pagerduty.services[0].escalation_policy",
            "unknown ref $nope (known refs: $ep, $omar, $omar2, $svc, $svc2)",
        ),
        (14, "seed.pagerduty.incidents[0].acknowledged_ago", "acknowledged_ago must be at most ago"),
        (16, "seed.pagerduty.incidents[2].resolved_ago", "a triggered incident has no resolved_ago"),
    ],
)


@pytest.mark.parametrize("section", [SLACK, GITHUB, DATADOG, PAGERDUTY], ids=["slack", "github", "datadog", "pd"])
def test_every_bad_record_of_a_section_and_the_bad_check(tmp_path: Path, section: tuple[str, Problems]) -> None:
    text, expected = section
    check = (HEAD + text).count("\n") + 2  # the line of the bad check, after the section
    assert problems(tmp_path, HEAD + text + BAD_CHECK) == [*expected, (check, "checks[0].trace.called", BAD_PATTERN)]


def test_a_world_file_reports_every_bad_record_of_every_section(tmp_path: Path) -> None:
    text = """name: tiny
slack:
  users:
    - {ref: bot, name: stagebot, tz: Nowhere}
    - {ref: ana, name: ana, tz: Mars/Olympus}
pagerduty:
  users:
    - {ref: omar, name: Omar, email: omar@acme.test}
    - {ref: omar2, name: Omar Two, email: omar@acme.test}
"""
    assert [(line, field) for line, field, _ in problems(tmp_path, text, "tiny.yaml")] == [
        (4, "slack.users[0].tz"),
        (5, "slack.users[1].tz"),
        (9, "pagerduty.users[1].email"),
    ]


def test_a_person_of_a_user_left_out_is_no_problem_nor_are_the_checks_naming_them(tmp_path: Path) -> None:
    text = """name: people
task: t
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
      - {ref: priya, name: priya, tz: Mars/Olympus}
people:
  - ref: priya
    slack_user: $priya
    facts: [{id: budget, text: "The budget is 5k.", match: ["5k"], ask: ["budget"]}]
checks:
  - {id: a, revealed: [priya.budget]}
  - {id: b, trace: {called: 3}}
"""
    # Priya's user is left out, and so is she: her fact is no problem of the check naming it.
    assert problems(tmp_path, text) == [
        (8, "seed.slack.users[1].tz", "unknown time zone 'Mars/Olympus' (expected an IANA name such as Europe/Berlin)"),
        (15, "checks[1].trace.called", BAD_PATTERN),
    ]
