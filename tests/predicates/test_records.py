"""Generic state checks: `record`, `diff` and `writes`, each field passing and failing."""

from __future__ import annotations

import pytest

from soundstage.checks import CheckSpecError


def state(result, office, name, **args):
    return result({"state": {name: args}}, office.attempt())


# -- record -------------------------------------------------------------------------------------------


def test_record_where_matches_strings_as_case_insensitive_substrings(result, office):
    r = state(result, office, "record", collection="github.issues", where={"title": "csv EXPORT", "state": "open"})
    assert (r.passed, r.kind, r.evidence) == (True, "state:record", [7, 8])
    assert r.expected == 'a record in github.issues where title contains "csv EXPORT" and state contains "open"'
    assert r.actual == '1 record did: number 101, title "CSV export docs"'


def test_record_where_compares_other_values_by_equality_and_reaches_into_lists(result, office):
    r = state(result, office, "record", collection="github.issues", where={"number": 101, "labels.name": "doc"})
    assert (r.passed, r.evidence) == (True, [7, 8])
    assert r.expected == 'a record in github.issues where number is 101 and labels.name contains "doc"'
    r = state(result, office, "record", collection="datadog.monitors", where={"id": "123"})
    assert r.passed is False  # 123 the number is not "123" the text


def test_record_fails_naming_the_closest_record(result, office):
    r = state(
        result,
        office,
        "record",
        collection="github.issues",
        where={"title": "export", "state": "closed", "number": 101},
    )
    assert (r.passed, r.evidence) == (False, [7, 8])
    assert r.actual == 'none of 2 records did; closest: number 101, title "CSV export docs", where state is "open"'
    r = state(result, office, "record", collection="github.issues", where={"assignees.login": "maya"})
    assert (
        r.actual
        == 'none of 2 records did; closest: number 101, title "CSV export docs", where assignees.login is missing'
    )


def test_record_in_an_empty_collection(result, office):
    r = state(result, office, "record", collection="github.labels")
    assert (r.passed, r.expected, r.actual) == (False, "a record in github.labels", "github.labels has no records")


def test_record_absent(result, office):
    r = state(result, office, "record", collection="github.issues", where={"title": "refund"}, absent=True)
    assert (r.passed, r.expected, r.actual, r.evidence) == (
        True,
        'no record in github.issues where title contains "refund"',
        "none of 2 records did",
        [],
    )
    r = state(result, office, "record", collection="github.issues", where={"title": "export"}, absent=True)
    assert (r.passed, r.evidence) == (False, [7, 8, 9, 10])
    assert r.actual == '2 records did: number 7, title "Export times out" and number 101, title "CSV export docs"'


def test_record_field_equals_and_contains(result, office):
    r = state(result, office, "record", collection="github.issues", where={"number": 7}, field="labels", equals=[])
    assert (r.passed, r.evidence) == (True, [9, 10])
    assert r.expected == "a record in github.issues where number is 7 whose labels equals []"
    r = state(result, office, "record", collection="github.issues", where={"number": 7}, field="state", equals="open")
    assert (r.passed, r.actual, r.evidence) == (
        False,
        'none of 2 records did; closest: number 7, title "Export times out", where state is "closed"',
        [9, 10],
    )
    r = state(
        result,
        office,
        "record",
        collection="slack.messages",
        where={"ts": "$question"},
        field="reactions.name",
        contains="EYES",
    )
    assert (r.passed, r.evidence) == (True, [5, 6])


def test_record_field_tests_need_field(result, office):
    with pytest.raises(CheckSpecError) as caught:
        state(result, office, "record", collection="github.issues", equals="x")
    assert caught.value.field == "checks[0].state.record"
    assert caught.value.message == "equals tests the field named by field: give field"


# -- diff ---------------------------------------------------------------------------------------------


def test_diff_added(result, office):
    r = state(result, office, "diff", collection="slack.messages", change="added", where={"user": "$bot"})
    assert (r.passed, r.kind, r.evidence) == (True, "state:diff", [2, 3])
    assert r.expected == 'at least one added record in slack.messages where user contains "U0STAGEBOT1"'
    assert (
        r.actual
        == '1 record matched: ts "1772460010.000100", text "It is under Reports > Export; it takes a minute." (added)'
    )


def test_diff_count(result, office):
    r = state(result, office, "diff", collection="slack.messages", change="added", count=2)
    assert (r.passed, r.expected, r.evidence) == (True, "exactly 2 added records in slack.messages", [2, 3, 4])
    r = state(result, office, "diff", collection="slack.messages", change="added", count=1)
    assert (r.passed, r.evidence) == (False, [2, 3, 4])
    assert r.actual == (
        '2 records matched: ts "1772460010.000100", text "It is under Reports > Export; it takes a minute." (added) '
        'and ts "1772460030.000200", text "Thanks!" (added)'
    )
    r = state(result, office, "diff", collection="github.issues", change="added", count_gte=1, count_lte=1)
    assert (r.passed, r.expected) == (True, "between 1 and 1 added records in github.issues")
    r = state(result, office, "diff", collection="github.issues", change="removed", count=0)
    assert (r.passed, r.expected, r.actual) == (
        True,
        "no removed records in github.issues",
        "github.issues has no removed records",
    )


def test_diff_changed_with_from_and_to(result, office):
    changes = {"state": {"from": "open", "to": "closed"}}
    r = state(result, office, "diff", collection="github.issues", where={"number": 7}, changes=changes)
    assert (r.passed, r.evidence) == (True, [9, 10])
    assert (
        r.expected
        == 'at least one changed record in github.issues where number is 7, with state changed from "open" to "closed"'
    )
    assert (
        r.actual == '1 record matched: number 7, title "Export times out" (state "open" → "closed" and labels '
        '[{"name": "bug"}] → [])'
    )
    r = state(result, office, "diff", collection="github.issues", changes={"state": {"to": "merged"}})
    assert (r.passed, r.evidence) == (False, [9, 10])
    assert r.actual == (
        'none of 1 changed record matched; closest: number 7, title "Export times out" (state "open" '
        '→ "closed" and labels '
        '[{"name": "bug"}] → [])'
    )


def test_diff_strict_allows_no_other_field(result, office):
    r = state(result, office, "diff", collection="github.issues", changes={"state": {"to": "closed"}}, strict=True)
    assert r.passed is False
    assert (
        r.expected
        == 'at least one changed record in github.issues, with state changed to "closed" and no other field changed'
    )
    r = state(
        result, office, "diff", collection="github.issues", changes={"state": {}, "labels": {"to": []}}, strict=True
    )
    assert (r.passed, r.evidence) == (True, [9, 10])


def test_diff_removed_names_the_removals(result, office):
    r = state(result, office, "diff", collection="github.labels", change="removed", where={"name": "wontfix"})
    assert (r.passed, r.evidence, r.actual) == (True, [11, 12], '1 record matched: name "wontfix" (removed)')


def test_diff_unchanged(result, office):
    r = state(result, office, "diff", collection="slack.messages", change="unchanged", where={"channel": "$general"})
    assert (r.passed, r.evidence, r.actual) == (
        True,
        [],
        '1 record matched: ts "1772458000.000100", text "Hello everyone" (unchanged)',
    )
    r = state(result, office, "diff", collection="slack.messages", change="unchanged", where={"channel": "$support"})
    assert (r.passed, r.actual) == (
        False,
        'none of 1 unchanged record matched; closest: ts "1772458000.000100", text "Hello everyone" (unchanged)',
    )


def test_diff_any_change_without_change(result, office):
    r = state(result, office, "diff", collection="github.issues", count=2)
    assert (r.passed, r.expected, r.evidence) == (
        True,
        "exactly 2 added, removed or changed records in github.issues",
        [7, 8, 9, 10],
    )
    r = state(result, office, "diff", collection="pagerduty.incidents")
    assert (r.passed, r.actual) == (False, "pagerduty.incidents has no added, removed or changed records")


def test_diff_rejects_incoherent_arguments(result, office):
    with pytest.raises(CheckSpecError, match="changes describes changed records, not added ones"):
        state(result, office, "diff", collection="x", change="added", changes={"a": {}})
    with pytest.raises(CheckSpecError, match="give count, or count_gte and/or count_lte, not both"):
        state(result, office, "diff", collection="x", count=1, count_gte=1)
    with pytest.raises(CheckSpecError, match=r"strict \(no other field changed\) needs changes"):
        state(result, office, "diff", collection="x", strict=True)
    with pytest.raises(CheckSpecError) as caught:
        state(result, office, "diff", collection="x", change="moved")
    assert caught.value.path == (0, "state", "diff", "change")


# -- writes -------------------------------------------------------------------------------------------


def test_writes_counts_only_the_agents_writes(result, office):
    r = state(result, office, "writes", collection="datadog.monitors", max=0)
    assert (r.passed, r.kind, r.evidence) == (True, "state:writes", [])
    assert r.expected == "no records created, updated or removed by the agent in datadog.monitors"
    assert r.actual == "the agent wrote no records in datadog.monitors"


def test_writes_in_one_collection(result, office):
    r = state(result, office, "writes", collection="slack.messages", max=0)
    assert (r.passed, r.evidence) == (False, [2, 3, 5, 6])
    assert r.actual == (
        "the agent wrote 2 records in slack.messages: slack.messages C0SUPPORT01/1772460010.000100 added (seq 3) "
        "and slack.messages C0SUPPORT01/1772459000.000100 changed (seq 6)"
    )


def test_writes_in_every_collection(result, office):
    r = state(result, office, "writes", min=1, max=3)
    assert (r.passed, r.evidence) == (False, [2, 3, 5, 6, 7, 8, 9, 10, 11, 12])
    assert r.expected == "between 1 and 3 records created, updated or removed by the agent"
    assert r.actual.startswith(
        "the agent wrote 5 records: github.issues 101 added (seq 8), github.issues 107 changed (seq 10), "
    )
    r = state(result, office, "writes", min=5)
    assert (r.passed, r.expected) == (True, "at least 5 records created, updated or removed by the agent")


def test_writes_needs_a_bound(result, office):
    with pytest.raises(CheckSpecError, match="writes has min, max or both"):
        state(result, office, "writes", collection="x")
