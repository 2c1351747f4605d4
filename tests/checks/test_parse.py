"""Parsing check lists: ids, kind keys, refs, shorthands, pass lists, and errors that point at the field."""

from __future__ import annotations

import pytest

from soundstage.checks import KINDS, STATE_CHECKS, CheckSpecError, check_pass_list, parse_checks
from soundstage.errors import SpecError

# The kinds a check may have and the state checks, as the registries list them.
KNOWN_KINDS = ", ".join(sorted([*KINDS, "state"]))
KNOWN_STATE_CHECKS = ", ".join(sorted(STATE_CHECKS))

REFS = {"support": "C0SUPPORT01", "bot": "U0STAGEBOT1"}


def error(data, refs=REFS) -> CheckSpecError:
    with pytest.raises(CheckSpecError) as caught:
        parse_checks(data, refs)
    return caught.value


def test_a_scene_check_list():
    checks = parse_checks(
        [
            {"id": "answered", "state": {"slack.message": {"channel": "$support", "from": "$bot"}}},
            {"id": "filed", "trace": {"called": "POST /repos/acme/orders/issues"}},
            {"id": "helpful", "judge": "The reply says where the export is."},
            {"id": "short", "output": {"contains": ["$support", "$5 refund", "$100"]}},
        ],
        REFS,
        source="custom",
    )
    assert [(c.id, c.kind.name, c.source) for c in checks] == [
        ("answered", "state:slack.message", "custom"),
        ("filed", "trace", "custom"),
        ("helpful", "judge", "custom"),
        ("short", "output", "custom"),
    ]
    assert checks[0].spec == {"channel": "C0SUPPORT01", "from": "U0STAGEBOT1"}
    assert checks[0].args.from_ == "U0STAGEBOT1"
    assert checks[2].spec == {"rubric": "The reply says where the export is."}
    assert checks[3].args.contains == ["C0SUPPORT01", "$5 refund", "$100"]  # only whole `$name` strings are refs


@pytest.mark.parametrize(
    ("data", "message", "path", "field"),
    [
        ({"id": "a"}, "checks are a list of mappings, got dict", (), "checks"),
        ([["trace"]], "a check is a mapping with an id and one kind key, got list", (0,), "checks[0]"),
        ([{"trace": {"no_calls": True}}], "every check needs an id (a non-empty string)", (0, "id"), "checks[0].id"),
        (
            [{"id": "a"}],
            f"a check has exactly one kind key ({KNOWN_KINDS}); found none",
            (0,),
            "checks[0]",
        ),
        (
            [{"id": "a", "trace": {"no_calls": True}, "output": {"equals": ""}}],
            f"a check has exactly one kind key ({KNOWN_KINDS}); found trace, output",
            (0,),
            "checks[0]",
        ),
        (
            [{"id": "a", "smell": {}}],
            f"unknown check kind 'smell' (a check has one of: {KNOWN_KINDS})",
            (0, "smell"),
            "checks[0].smell",
        ),
        (
            [{"id": "a", "state": {"slack.message": {}, "record": {}}}],
            f"state names exactly one predicate ({KNOWN_STATE_CHECKS})",
            (0, "state"),
            "checks[0].state",
        ),
        (
            [{"id": "a", "state": {"slack.reactions": {}}}],
            f"unknown state check 'slack.reactions' (known: {KNOWN_STATE_CHECKS})",
            (0, "state"),
            "checks[0].state",
        ),
        (
            [{"id": "a", "trace": "POST /x"}],
            "the arguments of a trace check are a mapping, got str",
            (0, "trace"),
            "checks[0].trace",
        ),
        (
            [{"id": "a", "trace": {"called": "POST /x"}}, {"id": "a", "trace": {"no_calls": True}}],
            "check id 'a' is used twice (first at checks[0])",
            (1, "id"),
            "checks[1].id",
        ),
        (
            [{"id": "a", "trace": {"with": {"body.channel": {"equals": "$nowhere"}}}}],
            "unknown ref $nowhere (known refs: $bot, $support)",
            (0, "trace", "with", "body.channel", "equals"),
            "checks[0].trace.with.body.channel.equals",
        ),
        (
            [{"id": "a", "trace": {"times": {"at_least": "two"}, "called": "*"}}],
            "expected a whole number, found 'two'",
            (0, "trace", "times", "at_least"),
            "checks[0].trace.times.at_least",
        ),
        (
            [{"id": "a", "trace": {"caled": "*"}}],
            (
                "unknown field 'caled' (expected one of: called, not_called, times, first, last, order, "
                "with, max_calls, no_errors, no_calls, respected_retry_after)"
            ),
            (0, "trace", "caled"),
            "checks[0].trace.caled",
        ),
        (
            [{"id": "a", "state": {"slack.message": {"channel": "$support", "frm": "$bot"}}}],
            (
                "unknown field 'frm' (expected one of: channel, from, in_thread_of, text_contains, "
                "text_matches, count_gte, ignore_case)"
            ),
            (0, "state", "slack.message", "frm"),
            "checks[0].state.slack.message.frm",
        ),
        (
            [{"id": "a", "state": {"record": {}}}],
            "missing required field 'collection'",
            (0, "state", "record", "collection"),
            "checks[0].state.record.collection",
        ),
        (
            [{"id": "a", "judge": {"model": "m"}}],
            "missing required field 'rubric'",
            (0, "judge", "rubric"),
            "checks[0].judge.rubric",
        ),
    ],
)
def test_errors_name_the_field(data, message, path, field):
    problem = error(data)
    assert (problem.message, problem.path, problem.field) == (message, path, field)
    assert isinstance(problem, SpecError) and problem.exit_code == 2
    assert str(problem) == f"<input>: {field}: {message}"


@pytest.mark.parametrize(
    ("trace", "message", "path"),
    [
        (
            {},
            (
                "a trace check has one or more of: called, not_called, times, first, last, order, with, "
                "max_calls, no_errors, no_calls, respected_retry_after"
            ),
            (),
        ),
        (
            {"no_errors": False},
            (
                "a trace check has one or more of: called, not_called, times, first, last, order, with, "
                "max_calls, no_errors, no_calls, respected_retry_after"
            ),
            (),
        ),
        ({"called": []}, "give at least one pattern", ("called",)),
        ({"with": {}}, "with has one or more conditions: {body.<path>: {equals: ...}}", ("with",)),
        ({"times": {"exactly": 1}}, "times counts the calls of a single called pattern: give called one pattern", ()),
        (
            {"called": ["*", "GET /a"], "times": {"exactly": 1}},
            "times counts the calls of a single called pattern: give called one pattern",
            (),
        ),
        ({"called": "*", "times": {}}, "times has at_least, at_most or exactly", ("times",)),
        (
            {"called": "*", "times": {"exactly": 1, "at_most": 2}},
            "times has exactly, or at_least and/or at_most, not both",
            ("times",),
        ),
        (
            {"called": "*", "times": {"at_least": 3, "at_most": 2}},
            "times: at_least (3) is more than at_most (2)",
            ("times",),
        ),
        (
            {"called": "*", "times": {"at_least": -1}},
            "expected a number of at least 0, found -1",
            ("times", "at_least"),
        ),
        (
            {"with": {"channel": {"equals": "C1"}}},
            "a with path is `operation` or starts with query. or body. (the call's inputs), got 'channel'",
            ("with",),
        ),
        (
            {"with": {"body.channel": {}}},
            "a condition has one or more of equals, in, contains, matches, exists",
            ("with", "body.channel"),
        ),
        (
            {"with": {"body.text": {"matches": "("}}},
            "expected a valid regular expression, found '('",
            ("with", "body.text", "matches"),
        ),
        (
            {"called": "chat.postMessage"},
            (
                "a call pattern is '<METHOD> <PATH>' such as 'POST /api/chat.postMessage' or 'GET "
                "/repos/*/issues', optionally after "
                "a service ('github:POST /repos/*'), 'mcp:<service>/<tool>' for an MCP tool's calls "
                "('mcp:github/create_issue'), or '*' for any call; got 'chat.postMessage'"
            ),
            ("called",),
        ),
        ({"not_called": ["GET /a", "POST"]}, "; 'POST' has no path", ("not_called",)),
        ({"order": ["GET /a", 3]}, "; got 3", ("order",)),
        (
            {"first": "POST api/chat.postMessage"},
            "the path of 'POST api/chat.postMessage' must start with '/'",
            ("first",),
        ),
        ({"max_calls": -1}, "expected a number of at least 0, found -1", ("max_calls",)),
        (
            {"no_errors": "maybe"},
            "expected true or false, found 'maybe'",
            ("no_errors",),
        ),
    ],
)
def test_trace_argument_errors(trace, message, path):
    problem = error([{"id": "t", "trace": trace}])
    assert problem.message.endswith(message)
    assert problem.path == (0, "trace", *path)


def test_pass_list():
    checks = parse_checks([{"id": "a", "trace": {"no_calls": True}}, {"id": "b", "trace": {"no_errors": True}}], {})
    check_pass_list(None, checks)
    check_pass_list(["b"], checks)
    with pytest.raises(CheckSpecError) as caught:
        check_pass_list(["a", "c"], checks)
    assert (caught.value.message, caught.value.path, caught.value.field) == (
        "no check has the id 'c' (check ids: a, b)",
        (1,),
        "pass[1]",
    )
    with pytest.raises(CheckSpecError, match="'a' is listed twice"):
        check_pass_list(["a", "a"], checks)
    with pytest.raises(CheckSpecError, match="pass is a list of check ids, got str"):
        check_pass_list("a", checks)


def test_a_weight_is_a_number_0_or_more_and_1_by_default():
    checks = parse_checks(
        [
            {"id": "answered", "weight": 3, "trace": {"called": "*"}},
            {"id": "tidy", "weight": 0.5, "trace": {"no_errors": True}},
            {"id": "noted", "weight": 0, "trace": {"max_calls": 9}},
            {"id": "plain", "trace": {"no_calls": True}},
        ],
        REFS,
    )
    assert [(c.id, c.weight) for c in checks] == [("answered", 3.0), ("tidy", 0.5), ("noted", 0.0), ("plain", 1.0)]
    assert checks[0].spec == {"called": "*"}  # the weight is the check's, not an argument of its kind


@pytest.mark.parametrize("weight", [-1, "2", True, None, float("inf"), float("nan"), [1]])
def test_a_weight_that_is_not_a_number_0_or_more_is_named_at_its_field(weight):
    problem = error(
        [{"id": "a", "trace": {"no_errors": True}}, {"id": "b", "weight": weight, "trace": {"no_calls": True}}]
    )
    assert (problem.message, problem.path, problem.field) == (
        f"weight is a number, 0 or more (default 1); found {weight!r}",
        (1, "weight"),
        "checks[1].weight",
    )
