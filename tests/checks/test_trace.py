"""Trace checks: every field passing and failing, with exact words and evidence."""

from __future__ import annotations

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.services.github.store import ISSUES
from soundstage.services.slack.store import MESSAGES

REFS = {"support": "C0SUPPORT01", "question": "1772459000.000100"}


@pytest.fixture
def attempt(log) -> Attempt:
    log.call("POST", "/api/auth.test", response={"ok": True})  # 2
    log.call("GET", "/api/conversations.history", query={"channel": "C0SUPPORT01", "limit": "10"})  # 3
    log.call(  # 4
        "POST",
        "/api/chat.update",
        body={"channel": "C0SUPPORT01", "ts": "1", "text": "hi"},
        response={"ok": False, "error": "message_not_found"},
        error=True,
    )
    post = log.call(  # 5
        "POST",
        "/api/chat.postMessage",
        body={
            "channel": "C0SUPPORT01",
            "text": "Reports are under Settings > Export",
            "thread_ts": "1772459000.000100",
        },
    )
    log.write(MESSAGES, "added", "C0SUPPORT01/1772460025.000100", by=post)  # 6
    issue = log.call(
        "POST",
        "/repos/acme/orders/issues",
        service="github",
        status=201,
        body={"title": "CSV export", "labels": ["bug"]},
    )  # 7
    log.write(ISSUES, "added", "1", by=issue)  # 8
    log.call(
        "GET", "/repos/acme/orders/issues/1", service="github", status=404, query={"per_page": "5"}, error=True
    )  # 9
    log.call("GET", "/api/v1/monitor/123", service="datadog")  # 10
    return Attempt(log.events, refs=REFS)


def test_called_passes_with_every_matching_call(result, attempt):
    r = result({"trace": {"called": "POST /api/chat.*"}}, attempt)
    assert (r.passed, r.kind, r.evidence) == (True, "trace", [4, 5])
    assert r.expected == "at least one call matching POST /api/chat.*"
    assert r.actual == "2 calls matched (seq 4 and 5)"
    assert (
        r.explanation
        == "Passed: expected at least one call matching POST /api/chat.*, and 2 calls matched (seq 4 and 5)."
    )


def test_called_fails_naming_the_closest_call(result, attempt):
    r = result({"trace": {"called": "POST /api/chat.postEphemeral"}}, attempt)
    assert (r.passed, r.evidence) == (False, [5])
    assert r.actual == "none of 7 calls matched; closest: POST /api/chat.postMessage (seq 5)"
    assert r.explanation == (
        "Failed: expected at least one call matching POST /api/chat.postEphemeral, "
        "but none of 7 calls matched; closest: POST /api/chat.postMessage (seq 5)."
    )


def test_called_needs_every_listed_pattern(result, attempt):
    r = result({"trace": {"called": ["POST /api/chat.postMessage", "DELETE /api/*"]}}, attempt)
    assert (r.passed, r.evidence) == (False, [2, 5])
    assert r.explanation == (
        "Failed: expected at least one call matching DELETE /api/*, "
        "but none of 7 calls matched; closest: POST /api/auth.test (seq 2)."
    )
    assert (
        r.expected == "at least one call matching POST /api/chat.postMessage; at least one call matching DELETE /api/*"
    )


def test_service_prefix_limits_the_calls_a_pattern_sees(result, attempt):
    assert result({"trace": {"called": "github:GET /repos/*"}}, attempt).evidence == [9]
    assert result({"trace": {"called": "GET /api/*"}}, attempt).evidence == [3, 10]
    r = result({"trace": {"called": "datadog:GET /api/conversations.*"}}, attempt)
    assert (r.passed, r.actual, r.evidence) == (
        False,
        "none of 7 calls matched; closest: datadog:GET /api/v1/monitor/123 (seq 10)",
        [10],
    )
    r = result({"trace": {"called": "pagerduty:*"}}, attempt)
    assert (r.passed, r.actual) == (False, "the agent made no calls to pagerduty (only to datadog, github and slack)")


def test_star_alone_and_star_method_match_any(result, attempt):
    assert result({"trace": {"called": "*"}}, attempt).evidence == [2, 3, 4, 5, 7, 9, 10]
    assert result({"trace": {"called": "slack:* /api/chat.*"}}, attempt).evidence == [4, 5]
    assert result({"trace": {"called": "get /REPOS/*"}}, attempt).passed is False  # paths keep their case
    assert result({"trace": {"called": "get /repos/*"}}, attempt).evidence == [9]  # methods do not


def test_called_on_an_empty_trace(result, log):
    r = result({"trace": {"called": "*"}}, Attempt(log.events))
    assert (r.passed, r.actual, r.evidence) == (False, "the agent made no calls", [])


def test_not_called_passes_and_fails(result, attempt):
    r = result({"trace": {"not_called": ["POST /api/v1/*", "PUT /api/*", "DELETE /api/*"]}}, attempt)
    assert (r.passed, r.evidence) == (True, [])
    assert r.expected == "no call matching POST /api/v1/*, PUT /api/* or DELETE /api/*"
    assert r.actual == "none of 7 calls matched"
    r = result({"trace": {"not_called": ["github:*", "POST /api/chat.update"]}}, attempt)
    assert (r.passed, r.evidence) == (False, [4, 7, 9])
    assert r.actual == (
        "3 calls matched: POST /api/chat.update (seq 4), POST /repos/acme/orders/issues (seq 7) "
        "and GET /repos/acme/orders/issues/1 (seq 9)"
    )


def test_times_counts_the_calls_of_one_pattern(result, attempt):
    r = result({"trace": {"called": "POST /api/chat.*", "times": {"exactly": 2}}}, attempt)
    assert (r.passed, r.expected, r.actual, r.evidence) == (
        True,
        "exactly 2 calls matching POST /api/chat.*",
        "2 calls matched (seq 4 and 5)",
        [4, 5],
    )
    r = result({"trace": {"called": "POST /api/chat.*", "times": {"at_most": 1}}}, attempt)
    assert (r.passed, r.expected) == (False, "at most one call matching POST /api/chat.*")
    r = result({"trace": {"called": "POST /api/chat.*", "times": {"at_least": 3}}}, attempt)
    assert (r.passed, r.expected) == (False, "at least 3 calls matching POST /api/chat.*")
    r = result({"trace": {"called": "DELETE *", "times": {"exactly": 0}}}, attempt)
    assert (r.passed, r.expected, r.actual, r.evidence) == (True, "no calls matching DELETE *", "none matched", [])
    r = result({"trace": {"called": "* *", "times": {"at_least": 2, "at_most": 6}}}, attempt)
    assert (r.passed, r.expected, r.actual) == (
        False,
        "between 2 and 6 calls matching * *",
        "7 calls matched (seq 2, 3, 4, 5, 7 and 2 more)",
    )


def test_times_counts_only_calls_meeting_with(result, attempt):
    spec = {"called": "POST /api/chat.*", "with": {"body.text": {"contains": "settings"}}, "times": {"exactly": 1}}
    r = result({"trace": spec}, attempt)
    assert (r.passed, r.evidence) == (True, [5])
    assert r.expected == 'exactly 1 call matching POST /api/chat.* whose body.text contains "settings"'


def test_first_and_last(result, attempt):
    r = result({"trace": {"first": "POST /api/auth.test", "last": "datadog:GET /api/v1/monitor/*"}}, attempt)
    assert (r.passed, r.evidence) == (True, [2, 10])
    assert (
        r.actual == "the first call was POST /api/auth.test (seq 2); the last call was GET /api/v1/monitor/123 (seq 10)"
    )
    r = result({"trace": {"first": "POST /api/chat.postMessage"}}, attempt)
    assert (r.passed, r.expected, r.actual, r.evidence) == (
        False,
        "the agent's first call to match POST /api/chat.postMessage",
        "the first call was POST /api/auth.test (seq 2)",
        [2],
    )
    r = result({"trace": {"last": "github:*"}}, attempt)
    assert (r.passed, r.evidence) == (False, [10])


def test_first_on_an_empty_trace(result, log):
    r = result({"trace": {"first": "*"}}, Attempt(log.events))
    assert (r.passed, r.actual) == (False, "the agent made no calls")


def test_order_passes_with_calls_between(result, attempt):
    r = result(
        {"trace": {"order": ["GET /api/conversations.history", "POST /api/chat.postMessage", "github:POST /repos/*"]}},
        attempt,
    )
    assert (r.passed, r.evidence) == (True, [3, 5, 7])
    assert r.expected == (
        "calls matching GET /api/conversations.history, then POST /api/chat.postMessage, then "
        "github:POST /repos/*, in that order"
    )
    assert (
        r.actual == "GET /api/conversations.history at seq 3, then POST /api/chat.postMessage at seq 5, then "
        "github:POST /repos/* at seq 7"
    )


def test_order_fails_when_a_call_came_too_early(result, attempt):
    r = result({"trace": {"order": ["github:POST /repos/*", "POST /api/chat.postMessage"]}}, attempt)
    assert (r.passed, r.evidence) == (False, [5, 7])
    assert r.actual == (
        "github:POST /repos/* at seq 7, then no call matching POST /api/chat.postMessage came after "
        "seq 7 (it was called at seq 5)"
    )


def test_order_fails_when_a_pattern_never_matched(result, attempt):
    r = result({"trace": {"order": ["POST /api/auth.test", "POST /api/reactions.add"]}}, attempt)
    assert (r.passed, r.evidence) == (False, [2])
    assert r.actual == "POST /api/auth.test at seq 2, then no call matched POST /api/reactions.add"


def test_with_conditions_pass(result, attempt):
    spec = {
        "called": "POST /api/chat.postMessage",
        "with": {
            "body.channel": {"equals": "$support"},
            "body.text": {"contains": "SETTINGS", "matches": "Export$"},
            "body.thread_ts": {"exists": True},
            "body.unfurl_links": {"exists": False},
        },
    }
    r = result({"trace": spec}, attempt)
    assert (r.passed, r.evidence) == (True, [5])
    assert r.expected == (
        "at least one call matching POST /api/chat.postMessage; a call matching POST /api/chat.postMessage whose "
        'body.channel equals "C0SUPPORT01", body.text contains "SETTINGS", body.text matches /Export$/, '
        "body.thread_ts is present and body.unfurl_links is absent"
    )
    assert r.args["with"]["body.channel"] == {"equals": "C0SUPPORT01"}


def test_with_the_operation_names_a_graphql_call(result, log):
    log.call(
        "POST", "/graphql", service="github", body={"query": "query PullRequestList {...}"}, operation="PullRequestList"
    )
    log.call(
        "POST",
        "/graphql",
        service="github",
        body={"query": "mutation PullRequestMerge {...}"},
        operation="PullRequestMerge",
    )
    attempt = Attempt(log.events, refs=REFS)
    merged = {"called": "github:POST /graphql", "with": {"operation": {"equals": "PullRequestMerge"}}}
    r = result({"trace": merged}, attempt)
    assert (r.passed, r.evidence) == (True, [2, 3])
    closed = {"called": "github:POST /graphql", "with": {"operation": {"equals": "IssueClose"}}}
    assert result({"trace": closed}, attempt).passed is False


def test_with_in_takes_any_of_several_values(result, attempt):
    spec = {"called": "POST /api/chat.*", "with": {"body.channel": {"in": ["C0RANDOM001", "$support"]}}}
    r = result({"trace": spec}, attempt)
    assert (r.passed, r.evidence) == (True, [4, 5])
    assert r.expected.endswith('whose body.channel is one of "C0RANDOM001", "C0SUPPORT01"')
    assert r.args["with"]["body.channel"] == {"in": ["C0RANDOM001", "C0SUPPORT01"]}
    # "no delete of Alex's or Maya's message", one check
    spec = {"called": "POST /api/chat.update", "with": {"body.ts": {"in": ["7", "8"]}}, "times": {"exactly": 0}}
    assert result({"trace": spec}, attempt).passed is True
    spec = {"called": "POST /api/chat.update", "with": {"body.ts": {"in": [1, "8"]}}, "times": {"exactly": 0}}
    assert result({"trace": spec}, attempt).passed is False  # loosely, as equals: 1 is the "1" sent
    with pytest.raises(CheckSpecError, match=r"checks\[0\].trace.with.body.ts.in: expected a list, found .1."):
        result({"trace": {"with": {"body.ts": {"in": "1"}}}}, attempt)


def test_with_fails_naming_what_the_closest_call_had(result, attempt):
    spec = {
        "called": "POST /api/chat.*",
        "with": {"body.channel": {"equals": "$support"}, "body.text": {"contains": "CSV"}},
    }
    r = result({"trace": spec}, attempt)
    assert (r.passed, r.evidence) == (False, [4, 5])
    assert r.explanation == (
        'Failed: expected a call matching POST /api/chat.* whose body.channel equals "C0SUPPORT01" '
        "and body.text contains "
        '"CSV", but none of 2 calls matching POST /api/chat.* did; closest: POST /api/chat.update (seq 4), '
        'where body.text was "hi".'
    )


def test_with_reads_query_and_compares_text_arguments_loosely(result, attempt):
    r = result({"trace": {"with": {"query.limit": {"equals": 10}, "query.channel": {"equals": "$support"}}}}, attempt)
    assert (r.passed, r.evidence, r.actual) == (True, [3], "1 call did (seq 3)")
    r = result({"trace": {"with": {"query.cursor": {"exists": True}}}}, attempt)
    assert (r.passed, r.actual) == (
        False,
        "none of 7 calls did; closest: POST /api/auth.test (seq 2), where query.cursor was missing",
    )


def test_with_ignore_case(result, attempt):
    def passes(condition):
        return result(
            {"trace": {"called": "POST /api/chat.postMessage", "with": {"body.text": condition}}}, attempt
        ).passed

    assert (passes({"contains": "SETTINGS"}), passes({"contains": "SETTINGS", "ignore_case": False})) == (True, False)
    assert (passes({"matches": "^reports"}), passes({"matches": "^reports", "ignore_case": True})) == (False, True)
    assert passes({"matches": "(?i)^reports"}) is True  # a regex can still ask for itself
    text = "Reports are under Settings > Export"
    assert (passes({"equals": text.upper()}), passes({"equals": text.upper(), "ignore_case": True})) == (False, True)
    spec = {
        "called": "POST /api/chat.postMessage",
        "with": {"body.text": {"contains": "Settings", "ignore_case": False}},
    }
    r = result({"trace": spec}, attempt)
    assert (r.passed, r.evidence) == (True, [5])
    assert r.expected.endswith('whose body.text contains "Settings", case-sensitive')
    with pytest.raises(CheckSpecError) as caught:
        result({"trace": {"with": {"body.text": {"ignore_case": True}}}}, attempt)
    assert (caught.value.field, caught.value.message) == (
        "checks[0].trace.with.body.text",
        "a condition has one or more of equals, in, contains, matches, exists",
    )


def test_with_reaches_into_lists(result, attempt):
    r = result(
        {"trace": {"called": "github:POST /repos/*/issues", "with": {"body.labels": {"contains": "bug"}}}}, attempt
    )
    assert (r.passed, r.evidence) == (True, [7])
    r = result({"trace": {"with": {"body.labels.0": {"equals": "bug"}}}}, attempt)
    assert (r.passed, r.evidence) == (True, [7])


def test_with_when_the_pattern_matched_nothing(result, attempt):
    r = result({"trace": {"called": "POST /api/pins.add", "with": {"body.channel": {"exists": True}}}}, attempt)
    assert r.explanation.endswith(
        "expected a call matching POST /api/pins.add whose body.channel is present, but no call "
        "matching POST /api/pins.add was made."
    )


def test_max_calls(result, attempt):
    r = result({"trace": {"max_calls": 7}}, attempt)
    assert (r.passed, r.expected, r.actual, r.evidence) == (True, "at most 7 calls", "the agent made 7 calls", [])
    r = result({"trace": {"max_calls": 3}}, attempt)
    assert (r.passed, r.actual, r.evidence) == (
        False,
        "the agent made 7 calls; call 4 was POST /api/chat.postMessage (seq 5)",
        [5],
    )
    r = result({"trace": {"max_calls": 0}}, attempt)
    assert (r.passed, r.expected) == (False, "no calls")


def test_no_errors(result, attempt, log):
    r = result({"trace": {"no_errors": True}}, attempt)
    assert (r.passed, r.expected, r.evidence) == (False, "no call to get an error", [4, 9])
    assert r.actual == (
        "2 calls did: POST /api/chat.update got message_not_found (seq 4) and GET "
        "/repos/acme/orders/issues/1 got HTTP 404 (seq 9)"
    )
    clean = Attempt([e for e in log.events if e.seq not in (4, 9)])
    r = result({"trace": {"no_errors": True}}, clean)
    assert (r.passed, r.actual, r.evidence) == (True, "none of 5 calls did", [])


def test_a_status_of_400_or_more_is_an_error_even_unflagged(result, log):
    log.call("POST", "/repos/a/b/pulls/1/merge", service="github", status=405)
    r = result({"trace": {"no_errors": True}}, Attempt(log.events))
    assert (r.passed, r.evidence) == (False, [2])


def test_no_calls(result, attempt, log):
    r = result({"trace": {"no_calls": True}}, attempt)
    assert (r.passed, r.expected, r.evidence) == (False, "no calls at all", [2, 3, 4, 5, 7, 9, 10])
    assert r.actual == (
        "the agent made 7 calls: POST /api/auth.test (seq 2), GET /api/conversations.history (seq 3), "
        "POST /api/chat.update (seq 4), POST /api/chat.postMessage (seq 5), POST "
        "/repos/acme/orders/issues (seq 7) and 2 more"
    )
    empty = Attempt(log.events[:1])
    r = result({"trace": {"no_calls": True}}, empty)
    assert (r.passed, r.actual) == (True, "the agent made none")


def test_several_fields_must_all_hold(result, attempt):
    r = result({"trace": {"called": "POST /api/chat.postMessage", "no_errors": True, "max_calls": 10}}, attempt)
    assert (r.passed, r.evidence) == (False, [4, 5, 9])
    assert (
        r.expected == "at least one call matching POST /api/chat.postMessage; at most 10 calls; no call to get an error"
    )
    assert r.explanation == (
        "Failed: expected no call to get an error, but 2 calls did: POST /api/chat.update got "
        "message_not_found (seq 4) "
        "and GET /repos/acme/orders/issues/1 got HTTP 404 (seq 9)."
    )
