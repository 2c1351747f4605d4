"""Generic state checks: `record`, `diff` and `writes`, each field passing and failing."""

from __future__ import annotations

import random

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.grading.conditions import closest, matching
from soundstage.grading.words import show
from soundstage.predicates.records import RecordArgs, record


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
        'lost {"name": "bug"})'
    )
    r = state(result, office, "diff", collection="github.issues", changes={"state": {"to": "merged"}})
    assert (r.passed, r.evidence) == (False, [9, 10])
    assert r.actual == (
        'none of 1 changed record matched; closest: number 7, title "Export times out" (state "open" '
        '→ "closed" and labels lost {"name": "bug"})'
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


# -- case and value tests -----------------------------------------------------------------------------


def test_ignore_case_false_compares_text_exactly(result, office):
    where = {"title": "csv EXPORT"}
    r = state(result, office, "record", collection="github.issues", where=where, ignore_case=False)
    assert (r.passed, r.expected) == (
        False,
        'a record in github.issues where title contains "csv EXPORT", case-sensitive',
    )
    r = state(result, office, "record", collection="github.issues", where={"title": "CSV ex"}, ignore_case=False)
    assert (r.passed, r.evidence) == (True, [7, 8])
    r = state(result, office, "diff", collection="github.issues", changes={"state": {"to": "CLOSED"}})
    assert r.passed is True
    r = state(
        result, office, "diff", collection="github.issues", changes={"state": {"to": "CLOSED"}}, ignore_case=False
    )
    assert (r.passed, r.expected) == (
        False,
        'at least one changed record in github.issues, with state changed to "CLOSED", case-sensitive',
    )


def test_where_matches_a_regex_case_sensitive_unless_asked(result, office):
    where = {"title": {"matches": "^csv"}}
    r = state(result, office, "record", collection="github.issues", where=where)
    assert (r.passed, r.expected, r.actual) == (
        False,
        "a record in github.issues where title matches /^csv/",
        'none of 2 records did; closest: number 101, title "CSV export docs", where title is "CSV export docs"',
    )
    r = state(result, office, "record", collection="github.issues", where=where, ignore_case=True)
    assert (r.passed, r.expected, r.evidence) == (
        True,
        "a record in github.issues where title matches /^csv/, ignoring case",
        [7, 8],
    )
    r = state(result, office, "record", collection="github.issues", where={"labels.name": {"matches": "^do"}})
    assert (r.passed, r.actual) == (True, '1 record did: number 101, title "CSV export docs"')


def test_where_len_equals_has_only_and_not(result, office):
    def passes(where):
        return state(result, office, "record", collection="github.issues", where=where).passed

    assert (passes({"labels": {"len": 0}}), passes({"labels": {"len": 2}})) == (True, False)
    assert passes({"title": {"len": 15}}) is True  # "CSV export docs"
    assert (passes({"title": {"equals": "csv export DOCS"}}), passes({"title": {"equals": "csv export"}})) == (
        True,
        False,
    )
    assert passes({"labels.name": {"has": ["DOCS"]}}) is True  # the names the path gathered, one per label
    assert passes({"labels.name": {"has": ["docs", "bug"]}}) is False
    assert passes({"labels": {"has": [{"name": "docs"}]}}) is True
    assert passes({"title": {"has": ["CSV export docs"]}}) is False  # a text is not a list
    assert passes({"labels": {"only": [{"name": "docs"}]}}) is True
    assert passes({"labels": {"only": []}}) is True  # issue 7 has no labels left
    assert passes({"number": 7, "labels": {"only": [{"name": "bug"}]}}) is False
    assert (passes({"number": {"in": [7, 8]}}), passes({"number": {"in": [8, 9]}})) == (True, False)
    assert passes({"state": {"in": ["CLOSED", "merged"]}}) is True  # text ignoring case, whole values
    assert passes({"state": {"in": ["clos"]}}) is False
    assert passes({"title": {"not": "export", "len": 15}}) is False
    assert passes({"title": {"not": {"matches": "times"}}, "number": 101}) is True
    assert passes({"assignees": {"not": "maya"}, "number": 7}) is True  # a missing field holds no value


def test_where_words_of_each_test(result, office):
    where = {
        "labels": {"only": ["a", "b"], "len": 2},
        "title": {"not": {"matches": "x"}},
        "body": {"has": ["y"]},
        "state": {"in": ["open", "closed"], "equals": "open"},
    }
    r = state(result, office, "record", collection="github.issues", where=where, absent=True)
    assert r.expected == (
        'no record in github.issues where labels holds "a" and "b" and nothing else and has length 2, '
        'title not (matches /x/), body includes "y" and state is one of "open" or "closed" and equals "open"'
    )


def test_where_tests_are_checked_when_parsed(result, office):
    cases = [
        (
            {"title": {"matches": "("}},
            "checks[0].state.record.where.title",
            "matches is not a valid regular expression: missing ), unterminated subpattern at position 0",
        ),
        ({"title": {"has": "x"}}, "checks[0].state.record.where.title", 'has is a list of the elements, got "x"'),
        ({"title": {"in": 3}}, "checks[0].state.record.where.title", "in is a list of the values allowed, got 3"),
        ({"title": {"len": -1}}, "checks[0].state.record.where.title", "len is a whole number, 0 or more, got -1"),
        ({"title": {"len": True}}, "checks[0].state.record.where.title", "len is a whole number, 0 or more, got true"),
        (
            {"title": {"like": "x"}},
            "checks[0].state.record.where.title",
            "unknown test 'like' (a test has one or more of equals, in, matches, len, has, only, not)",
        ),
        (
            {"title": {"not": {}}},
            "checks[0].state.record.where.title",
            "a mapping here is a test with one or more of equals, in, matches, len, has, only, not",
        ),
    ]
    for where, field, message in cases:
        with pytest.raises(CheckSpecError) as caught:
            state(result, office, "record", collection="github.issues", where=where)
        assert (caught.value.field, caught.value.message) == (field, message), where
    with pytest.raises(CheckSpecError) as caught:
        state(result, office, "diff", collection="x", changes={"members": {"added": {"matches": "["}}})
    assert caught.value.field == "checks[0].state.diff.changes.members.added"


# A channel the agent made Maya and Omar members of, and one whose topic it set (which Slack logs as a message).
GROWTH_BEFORE = {"id": "C0GROWTH001", "name": "growth", "members": ["U0STAGEBOT1", "U0NICK00001"]}
GROWTH = {**GROWTH_BEFORE, "members": ["U0STAGEBOT1", "U0NICK00001", "U0MAYA00001", "U0OMAR00001"]}
SALES = {"id": "C0SALES0001", "name": "sales", "members": ["U0MAYA00001", "U0STAGEBOT1"], "topic": "Q3"}
JOINED = {
    "channel": "C0SALES0001",
    "user": "U0STAGEBOT1",
    "ts": "1.000100",
    "subtype": "channel_join",
    "text": "joined",
}
POSTED = {"channel": "C0SALES0001", "user": "U0STAGEBOT1", "ts": "1.000200", "text": "Welcome, Maya"}


def channels_attempt(log):
    invite = log.call("POST", "/api/conversations.invite")  # 2
    log.write("slack.channels", "changed", "C0GROWTH001", by=invite, fields=["members"])  # 3
    join = log.call("POST", "/api/conversations.join")  # 4
    log.write("slack.channels", "changed", "C0SALES0001", by=join, fields=["members"])  # 5
    log.write("slack.messages", "added", "1.000100", by=join)  # 6
    post = log.call("POST", "/api/chat.postMessage")  # 7
    log.write("slack.messages", "added", "1.000200", by=post)  # 8
    moved = {"members": {"from": GROWTH_BEFORE["members"], "to": GROWTH["members"]}}
    joined = {"members": {"from": ["U0MAYA00001"], "to": SALES["members"]}}
    diff = {
        "slack.channels": {
            "added": [],
            "removed": [],
            "changed": [
                {"id": "C0GROWTH001", "record": GROWTH, "changes": moved},
                {"id": "C0SALES0001", "record": SALES, "changes": joined},
            ],
        },
        "slack.messages": {"added": [JOINED, POSTED], "removed": [], "changed": []},
    }
    state = {"slack.channels": [GROWTH, SALES], "slack.messages": [JOINED, POSTED]}
    refs = {"maya": "U0MAYA00001", "omar": "U0OMAR00001", "bot": "U0STAGEBOT1", "nick": "U0NICK00001"}
    return Attempt(log.events, state, diff, None, refs)


def test_diff_added_to_a_list_field(result, log):
    attempt = channels_attempt(log)
    r = result(
        {"state": {"diff": {"collection": "slack.channels", "changes": {"members": {"added": "$maya"}}}}}, attempt
    )
    assert (r.passed, r.evidence) == (True, [2, 3])
    assert r.expected == 'at least one changed record in slack.channels, with members changed, gaining "U0MAYA00001"'
    assert r.actual == (
        '1 record matched: id "C0GROWTH001", name "growth" (members gained "U0MAYA00001" and "U0OMAR00001")'
    )
    # Maya was already in #sales: a changed channel that includes her is not one she was added to.
    spec = {"collection": "slack.channels", "where": {"members": "$maya"}, "changes": {"members": {}}, "count": 2}
    assert result({"state": {"diff": spec}}, attempt).passed is True
    spec = {"collection": "slack.channels", "changes": {"members": {"added": ["$maya", "$bot"]}}}
    r = result({"state": {"diff": spec}}, attempt)
    assert (r.passed, r.evidence) == (False, [2, 3])
    assert r.expected == (
        'at least one changed record in slack.channels, with members changed, gaining "U0MAYA00001" and "U0STAGEBOT1"'
    )


def test_diff_added_no_one_else_and_removed(result, log):
    attempt = channels_attempt(log)
    only = {"collection": "slack.channels", "changes": {"members": {"added": {"only": ["$omar", "$maya"]}}}}
    r = result({"state": {"diff": only}}, attempt)
    assert (r.passed, r.evidence) == (True, [2, 3])
    assert r.expected == (
        "at least one changed record in slack.channels, with members changed, gaining elements that "
        'holds "U0OMAR00001" and "U0MAYA00001" and nothing else'
    )
    just_maya = {"collection": "slack.channels", "changes": {"members": {"added": {"only": ["$maya"]}}}}
    assert result({"state": {"diff": just_maya}}, attempt).passed is False
    one = {"collection": "slack.channels", "changes": {"members": {"added": {"len": 1}}}}
    r = result({"state": {"diff": one}}, attempt)
    assert (r.passed, r.evidence) == (True, [4, 5])  # the agent joined #sales
    gone = {"collection": "slack.channels", "changes": {"members": {"removed": "$nick"}}}
    assert result({"state": {"diff": gone}}, attempt).passed is False
    stayed = {"collection": "slack.channels", "changes": {"members": {"removed": {"len": 0}}}, "count": 2}
    assert result({"state": {"diff": stayed}}, attempt).passed is True
    exact = {
        "collection": "slack.channels",
        "where": {"name": "growth", "members": {"only": ["$bot", "$nick", "$maya"]}},
    }
    r = result({"state": {"record": exact}}, attempt)
    assert (r.passed, r.actual) == (
        False,
        (
            'none of 2 records did; closest: id "C0GROWTH001", name "growth", where members is '
            '["U0STAGEBOT1", "U0NICK00001", "U0MAYA00001", "U0OMAR00001"]'
        ),
    )


def test_diff_leaving_out_system_messages(result, log):
    attempt = channels_attempt(log)
    spec = {"collection": "slack.messages", "change": "added", "count": 1}
    assert result({"state": {"diff": spec}}, attempt).passed is False  # the join notice counts as a message
    spec["where"] = {"subtype": {"not": {"matches": "^channel_"}}}
    r = result({"state": {"diff": spec}}, attempt)
    assert (r.passed, r.evidence) == (True, [7, 8])
    assert r.expected == "exactly 1 added record in slack.messages where subtype not (matches /^channel_/)"
    assert r.actual == '1 record matched: ts "1.000200", text "Welcome, Maya" (added)'


def test_diff_each_compares_the_elements_of_a_list_field(result, office):
    r = state(result, office, "diff", collection="github.issues", each="labels", change="added", count=1)
    assert (r.passed, r.evidence) == (True, [7, 8])
    assert r.expected == "exactly 1 added labels element in github.issues"
    assert r.actual == '1 record matched: number 101, title "CSV export docs" (added)'
    r = state(
        result,
        office,
        "diff",
        collection="github.issues",
        each="labels",
        change="removed",
        where={"number": 7, "labels.name": {"equals": "bug"}},
    )
    assert (r.passed, r.evidence) == (True, [9, 10])
    r = state(
        result,
        office,
        "diff",
        collection="github.issues",
        each="labels",
        change="added",
        where={"labels.name": {"equals": "bug"}},
    )
    assert (r.passed, r.actual) == (
        False,
        'none of 1 added labels element matched; closest: number 101, title "CSV export docs" (added)',
    )
    # An element has no fields of its own: none is ever changed.
    r = state(result, office, "diff", collection="github.issues", each="labels", change="changed", count=0)
    assert (r.passed, r.actual) == (True, "github.issues has no changed labels elements")


def test_diff_each_unchanged_elements(result, office):
    r = state(result, office, "diff", collection="slack.messages", each="reactions", change="unchanged")
    assert (r.passed, r.actual) == (False, "slack.messages has no unchanged reactions elements")
    r = state(result, office, "diff", collection="github.issues", each="labels", change="unchanged", count=0)
    assert r.passed is True


def test_diff_fields_sees_only_the_paths_given(result, office):
    changes = {"state": {"to": "closed"}}
    r = state(
        result, office, "diff", collection="github.issues", changes=changes, strict=True, fields=["state", "title"]
    )
    assert (r.passed, r.evidence) == (True, [9, 10])  # the labels changed too, unseen
    assert r.expected == (
        'at least one changed record in github.issues, with state changed to "closed" and no other field changed, '
        "seeing only state and title"
    )
    assert r.actual == '1 record matched: number 7, title "Export times out" (state "open" → "closed")'
    r = state(result, office, "diff", collection="github.issues", change="changed", fields=["title"], count=0)
    assert r.passed is True
    r = state(
        result,
        office,
        "diff",
        collection="slack.messages",
        fields=["reactions.name"],
        changes={"reactions.name": {"from": None, "to": "eyes"}},
    )
    assert (r.passed, r.evidence) == (True, [5, 6])


def test_diff_each_has_no_changes_or_fields(result, office):
    with pytest.raises(CheckSpecError, match="each compares the elements of a list field"):
        state(result, office, "diff", collection="x", each="labels", fields=["a"])


def test_record_closest_agrees_with_ranking_every_record_by_where():
    """The closest record is sought among those meeting all of `where` when there are any: the same one
    ranking every record by how much of `where` it meets finds."""
    rng = random.Random(14)
    args = RecordArgs(collection="x", where={"a": 1, "b": 1}, field="tags", contains="t")
    where, field = args.conditions()
    for _ in range(200):
        records = [
            {"id": f"r{n}", "a": rng.randint(0, 2), "b": rng.randint(0, 2), "tags": rng.sample(["t", "u", "v"], 1)}
            for n in range(rng.randint(1, 10))
        ]
        if matching(records, where + field):
            continue
        near = closest(records, field, rank=lambda r: sum(c.holds(r) for c in where))
        outcome = record(args, Attempt([], state={"x": records}))
        assert f"closest: id {show(near['id'], 60)}," in outcome.actual
