"""Output checks: contains, excludes, equals, matches (+exact), similar_to (+threshold), ignore_case."""

from __future__ import annotations

import pytest

from soundstage.checks import Attempt, CheckSpecError
from soundstage.checks.output import similarity

TEXT = "Laura's workspace is W-4821 on the EU cluster.\nThe CSV export is under Reports.\n"


@pytest.fixture
def attempt(log) -> Attempt:
    log.finish(TEXT)  # seq 2
    return Attempt(log.events, output=TEXT)


def test_contains(result, attempt):
    r = result({"output": {"contains": ["w-4821", "Reports"]}}, attempt)
    assert (r.passed, r.kind, r.expected, r.actual, r.evidence) == (
        True,
        "output",
        'the output to contain "w-4821" and "Reports"',
        "it does",
        [2],
    )
    r = result({"output": {"contains": "180k"}}, attempt)
    assert (r.passed, r.evidence) == (False, [2])
    assert (
        r.actual == 'it lacks "180k"; it is "Laura\'s workspace is W-4821 on the EU cluster.\\nThe CSV export is '
        'under Reports.\\n"'
    )


def test_ignore_case_false(result, attempt):
    r = result({"output": {"contains": "w-4821", "ignore_case": False}}, attempt)
    assert r.passed is False
    assert r.actual.startswith('it lacks "w-4821"; it is ')


def test_excludes(result, attempt):
    r = result({"output": {"excludes": ["180k", "contract"]}}, attempt)
    assert (r.passed, r.expected, r.actual) == (True, 'the output not to contain "180k" or "contract"', "it does not")
    r = result({"output": {"excludes": "eu CLUSTER"}}, attempt)
    assert (r.passed, r.actual) == (
        False,
        (
            'it contains "eu CLUSTER": "Laura\'s workspace is W-4821 on the EU cluster.\\nThe CSV export '
            'is under Reports.\\n"'
        ),
    )


def test_excludes_shows_where_the_text_is(result, log):
    text = "x" * 200 + " the secret is 180k " + "y" * 200
    r = result({"output": {"excludes": "180k"}}, Attempt(log.events, output=text))
    assert r.actual == 'it contains "180k": "…' + "x" * 23 + " the secret is 180k " + "y" * 37 + '…"'


def test_equals_ignores_surrounding_whitespace_and_case(result, log):
    attempt = Attempt(log.events, output="  Done.\n")
    assert result({"output": {"equals": "done."}}, attempt).passed is True
    r = result({"output": {"equals": "done.", "ignore_case": False}}, attempt)
    assert (r.passed, r.expected, r.actual) == (False, 'the output to be "done.", case-sensitive', 'it is "  Done.\\n"')


def test_matches_is_case_sensitive_unless_asked(result, attempt):
    r = result({"output": {"matches": r"w-\d{4}"}}, attempt)
    assert (r.passed, r.expected, r.actual[:27]) == (
        False,
        "the output to match /w-\\d{4}/",
        "it does not; it is \"Laura's",
    )
    r = result({"output": {"matches": r"w-\d{4}", "ignore_case": True}}, attempt)
    assert (r.passed, r.expected, r.actual) == (
        True,
        "the output to match /w-\\d{4}/, ignoring case",
        'it does: "W-4821"',
    )
    r = result({"output": {"matches": r"W-\d{4}", "contains": "eu cluster"}}, attempt)
    assert r.passed is True  # text still ignores case by default
    r = result({"output": {"matches": r"W-\d{4}", "contains": "eu cluster", "ignore_case": False}}, attempt)
    assert (r.passed, r.explanation) == (
        False,
        (
            'Failed: expected the output to contain "eu cluster", case-sensitive, but it lacks "eu cluster"; it is '
            '"Laura\'s workspace is W-4821 on the EU cluster.\\nThe CSV export is under Reports.\\n".'
        ),
    )
    r = result({"output": {"matches": r"INV-\d+"}}, attempt)
    assert r.passed is False
    assert r.actual.startswith('it does not; it is "Laura')


def test_matches_exact_anchors_the_whole_output(result, attempt):
    assert result({"output": {"matches": r"Laura.*Reports\.", "exact": True}}, attempt).passed is False  # no DOTALL
    r = result({"output": {"matches": r"(?s)Laura.*Reports\.", "exact": True}}, attempt)
    assert (r.passed, r.expected) == (True, "the whole output to match /(?s)Laura.*Reports\\./")
    assert result({"output": {"matches": "W-4821", "exact": True}}, attempt).passed is False


def test_similar_to_reports_the_score_and_passes_at_half(result, attempt):
    near = "Laura's workspace is W-4821 (EU cluster). The CSV export is in Reports."
    r = result({"output": {"similar_to": near}}, attempt)
    assert (r.passed, r.actual) == (True, "its similarity is 0.86")
    assert r.expected == f'the output to be similar to "{near}" (Dice similarity 0.5 or more)'
    r = result({"output": {"similar_to": near, "threshold": 0.9}}, attempt)
    assert (r.passed, r.actual) == (False, "its similarity is 0.86")
    assert r.expected.endswith("(Dice similarity 0.9 or more)")
    assert result({"output": {"similar_to": "Nothing alike at all"}}, attempt).actual == "its similarity is 0.06"


def test_the_score_of_similar_to_is_the_raw_dice_similarity(result, attempt):
    near = "Laura's workspace is W-4821 (EU cluster). The CSV export is in Reports."
    raw = similarity(TEXT.casefold(), near.casefold())
    assert round(raw, 4) == 0.8649
    # Passing or failing at its threshold, the score is the similarity itself.
    assert result({"output": {"similar_to": near}}, attempt).score == raw
    assert result({"output": {"similar_to": near, "threshold": 0.9}}, attempt).score == raw
    # With other conditions, the lowest: 0 when one of them failed, else the similarity.
    assert result({"output": {"similar_to": near, "contains": "W-4821"}}, attempt).score == raw
    assert result({"output": {"similar_to": near, "contains": "180k"}}, attempt).score == 0.0
    # Pass/fail conditions score 1 or 0; with no output yet there is no score.
    assert result({"output": {"contains": "Reports"}}, attempt).score == 1.0
    assert result({"output": {"contains": "180k"}}, attempt).score == 0.0
    assert result({"output": {"similar_to": near}}, Attempt(attempt.events)).score is None


def test_dice_similarity():
    assert similarity("night", "nacht") == 0.25  # ni gh ht / na ac ch ht: one shared bigram of 8
    assert similarity("aaaa", "aa") == 0.5  # bigrams count as a multiset: 2 * 1 / (3 + 1)
    assert similarity("a  b\n", "a b") == 1.0  # whitespace runs count as one space
    assert similarity("a", "b") == 0.0
    assert similarity("", "") == 1.0


def test_several_fields_name_only_the_failures(result, attempt):
    r = result({"output": {"contains": "W-4821", "excludes": "Reports"}}, attempt)
    assert r.passed is False
    assert r.explanation.startswith('Failed: expected the output not to contain "Reports", but it contains "Reports": ')


def test_no_output_yet_is_undecided(result, log):
    r = result({"output": {"contains": "x"}}, Attempt(log.events))
    assert (r.passed, r.actual, r.evidence) == (None, "the agent has given no output yet", [])
    assert r.explanation == 'Not decided: expected the output to contain "x", but the agent has given no output yet.'


def test_empty_output_is_an_output(result, log):
    r = result({"output": {"equals": ""}}, Attempt(log.events, output=""))
    assert r.passed is True


@pytest.mark.parametrize(
    ("args", "message", "path"),
    [
        ({}, "an output check has one or more of contains, excludes, equals, matches, similar_to", (0, "output")),
        (
            {"equals": None},
            "an output check has one or more of contains, excludes, equals, matches, similar_to",
            (0, "output"),
        ),
        (
            {"matches": "(", "exact": True},
            "matches is not a valid regular expression: missing ), unterminated subpattern at position 0",
            (0, "output"),
        ),
        ({"contains": "a", "exact": True}, "exact anchors matches: give matches", (0, "output")),
        ({"contains": "a", "threshold": 0.5}, "threshold is for similar_to: give similar_to", (0, "output")),
        (
            {"similar_to": "a", "threshold": 2},
            "expected a number of at most 1, found 2",
            (0, "output", "threshold"),
        ),
        ({"contains": [1]}, "expected a string, found 1", (0, "output", "contains", 0)),
        ({"excludes": []}, "give at least one text", (0, "output", "excludes")),
    ],
)
def test_bad_arguments(result, attempt, args, message, path):
    with pytest.raises(CheckSpecError) as caught:
        result({"output": args}, attempt)
    assert (caught.value.message, caught.value.path) == (message, path)
