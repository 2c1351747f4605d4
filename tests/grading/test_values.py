"""Value tests: `tester`, made once for many records, says what `holds_for` says."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from soundstage.grading.values import Case, value_test

RECORDS = [
    {"ts": "1772458800.000100", "text": "Reports > Exports", "labels": ["Bug", "ui"], "number": 12, "open": True},
    {"ts": "1772458800.000100X", "text": "REPORTS", "labels": [{"name": "bug"}], "number": "12", "open": 1},
    {"text": None, "labels": [], "number": 12.0},
    {},
    MappingProxyType({"ts": "1772458800.000100", "text": "reports", "labels": ["bug"]}),  # a record not a dict
]
SPECS = ["1772458800.000100", "reports", "bug", "", 12, True, None, ["bug"], {"equals": "reports"}, {"in": [12, "x"]}]
PATHS = ["ts", "text", "labels", "number", "open", "labels.name", "missing"]


@pytest.mark.parametrize("ignore_case", [None, True, False])
@pytest.mark.parametrize("spec", SPECS)
def test_a_tester_says_what_holds_for_says(spec, ignore_case):
    test, case = value_test(spec), Case(ignore_case)
    for path in PATHS:
        tester = test.tester(path, case)
        assert [tester(r) for r in RECORDS] == [test.holds_for(r, path, case) for r in RECORDS], path


def test_a_plain_value_at_one_field_matches_as_a_where_does():
    ts = value_test("1772458800.000100").tester("ts", Case())
    assert [ts(r) for r in RECORDS] == [True, True, False, False, True]  # a substring, as every `where` text
    bug = value_test("BUG").tester("labels", Case())
    assert [bug(r) for r in RECORDS] == [True, False, False, False, True]  # an element of a list, ignoring case
    exact = value_test("BUG").tester("labels", Case(False))
    assert [exact(r) for r in RECORDS] == [False, False, False, False, False]
    twelve = value_test(12).tester("number", Case())
    assert [twelve(r) for r in RECORDS] == [True, False, True, False, False]
