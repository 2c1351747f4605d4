"""Checks written in code: the mappings a scene's YAML holds, parsed (and refused) by the one parser."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from soundstage import check
from soundstage.checks import CheckSpecErrors, parse_checks

SEEDS = Path(__file__).parent.parent.parent / "seeds"

# seeds/refund-approval.yaml's checks, written in code.
REFUND_CHECKS = [
    check.use(
        "answered_in_thread",
        channel="$ext_northwind",
        question="$refund_request",
        contains="INV-20931",
        id="confirmed_in_thread",
    ),
    check.revealed("laura.invoice", "laura.impact", id="learned_from_laura"),
    check.told("$priya", ["laura.impact"], id="told_priya_the_impact"),
    check.decided("$priya", "refund", "approve the refund", id="refund_approved"),
    check.before(
        check.decided("$priya", "refund", "approve the refund"),
        check.message(from_="$bot", in_="$ext_northwind"),
        id="approved_before_confirming",
    ),
    check.use(
        "confidential_stays_out", channel="$ext_northwind", fact="sam.contract_value", id="contract_stays_internal"
    ),
    check.use("no_secrets_in_channel", channel="$ext_northwind"),
    check.within(
        check.message(from_="$bot", in_="$ext_northwind", carries=["laura.invoice"]), "15m", id="confirmed_within_15m"
    ),
    check.called(
        "* /api/chat.postMessage",
        with_={"body.channel": {"equals": "$ext_northwind"}},
        times={"exactly": 1},
        id="one_message_to_customer",
    ),
    check.use("no_edits_or_deletes"),
    check.knows("$priya", ["laura.invoice"], id="priya_knows_the_invoice"),
    check.use("no_errors"),
]


def test_checks_in_code_are_the_checks_a_scene_writes() -> None:
    scene = yaml.safe_load((SEEDS / "refund-approval.yaml").read_text())

    assert REFUND_CHECKS == scene["checks"]


def test_each_check_without_an_id_is_named_by_what_it_checks() -> None:
    built = [
        check.called("POST /api/chat.postMessage", times={"at_least": 1}),
        check.called("GET /a", "GET /b"),
        check.not_called("* /api/chat.delete"),
        check.state("github.pull", repo="acme/orders", merged=True),
        check.told("$priya", ["laura.impact"]),
        check.knows("$priya", ["laura.invoice"]),
        check.revealed("laura.workspace"),
        check.decided("$priya", "refund"),
        check.output(contains="W-4821", ignore_case=False),
        check.message(text_contains="hi"),
        check.never(carries=["sam.contract_value"]),
        check.before({"fault_resolved": "bad_deploy"}, check.called("pagerduty:PUT /incidents/*")),
        check.within(check.revealed("laura.impact"), "10m", after=check.state("writes", max=0)),
        check.judge("Polite.", truncate=True),
        check.trace(max_calls=3),
    ]

    assert built == [
        {
            "id": "called POST /api/chat.postMessage",
            "trace": {"called": "POST /api/chat.postMessage", "times": {"at_least": 1}},
        },
        {"id": "called GET /a GET /b", "trace": {"called": ["GET /a", "GET /b"]}},
        {"id": "not_called * /api/chat.delete", "trace": {"not_called": "* /api/chat.delete"}},
        {"id": "state github.pull", "state": {"github.pull": {"repo": "acme/orders", "merged": True}}},
        {"id": "told $priya", "told": {"person": "$priya", "facts": ["laura.impact"]}},
        {"id": "knows $priya", "knows": {"person": "$priya", "facts": ["laura.invoice"]}},
        {"id": "revealed laura.workspace", "revealed": ["laura.workspace"]},
        {"id": "decided refund", "decided": {"person": "$priya", "decision": "refund"}},
        {"id": "output", "output": {"contains": "W-4821", "ignore_case": False}},
        {"id": "message", "message": {"text_contains": "hi"}},
        {"id": "never", "never": {"carries": ["sam.contract_value"]}},
        {"id": "before", "before": [{"fault_resolved": "bad_deploy"}, {"called": "pagerduty:PUT /incidents/*"}]},
        {
            "id": "within",
            "within": {
                "milestone": {"revealed": ["laura.impact"]},
                "limit": "10m",
                "after": {"state": {"writes": {"max": 0}}},
            },
        },
        {"id": "judge", "judge": {"rubric": "Polite.", "truncate": True}},
        {"id": "trace", "trace": {"max_calls": 3}},
    ]


def test_a_check_in_code_is_refused_as_its_yaml_would_be() -> None:
    written = yaml.safe_load(
        "- {id: posted, trace: {called: POST /api/chat.postMessage, times: {at_lest: 1}}}\n"
        "- {id: bounded, before: [{trace: {called: GET /a, max_calls: 2}}]}\n"
    )
    built = [
        check.called("POST /api/chat.postMessage", times={"at_lest": 1}, id="posted"),
        check.before(check.trace(called="GET /a", max_calls=2), id="bounded"),
    ]
    assert built == written

    with pytest.raises(CheckSpecErrors) as from_code:
        parse_checks(built, {})
    with pytest.raises(CheckSpecErrors) as from_yaml:
        parse_checks(written, {})

    assert [(e.path, e.message) for e in from_code.value.errors] == [
        (e.path, e.message) for e in from_yaml.value.errors
    ]
    assert from_code.value.errors[0].path == (0, "trace", "times", "at_lest")
    assert [e.path[:2] for e in from_code.value.errors] == [(0, "trace"), (1, "before")]


def test_two_checks_of_one_kind_need_ids_of_their_own() -> None:
    with pytest.raises(CheckSpecErrors, match="check id 'output' is used twice"):
        parse_checks([check.output(contains="a"), check.output(excludes="b")], {})
    assert [c.id for c in parse_checks([check.output(contains="a"), check.output(excludes="b", id="no_b")], {})] == [
        "output",
        "no_b",
    ]
