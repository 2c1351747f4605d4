"""Call patterns and the value comparisons checks share."""

from __future__ import annotations

import pytest

from soundstage.checks import CallPattern
from soundstage.grading.match import dice, get_path, loosely_equal, same, value_matches


@pytest.mark.parametrize(
    ("pattern", "method", "path", "matches"),
    [
        ("POST /api/chat.postMessage", "POST", "/api/chat.postMessage", True),
        ("post /api/chat.postMessage", "POST", "/api/chat.postMessage", True),
        ("POST /api/chat.postMessage", "GET", "/api/chat.postMessage", False),
        ("POST /api/chat.postMessage", "POST", "/api/chat.postMessages", False),  # the whole path
        ("POST /api/chat.postMessage", "POST", "/api/chatXpostMessage", False),  # `.` is literal
        ("* /api/chat.*", "GET", "/api/chat.update", True),
        ("GET /repos/*/issues", "GET", "/repos/acme/orders/issues", True),  # `*` crosses `/`
        ("GET /repos/*/issues", "GET", "/repos/acme/orders/issues/1", False),
        ("GET *", "GET", "/anything/at/all", True),
        ("*", "DELETE", "/x", True),
        ("GET /a+b(c)", "GET", "/a+b(c)", True),  # regex characters are literal
    ],
)
def test_pattern_matching(pattern, method, path, matches):
    assert CallPattern.parse(pattern).matches("slack", method, path) is matches


def test_a_service_prefix_picks_the_service():
    assert CallPattern.parse("github:POST /repos/*").matches("github", "post", "/repos/a/b/issues") is True
    assert CallPattern.parse("github:POST /repos/*").matches("slack", "POST", "/repos/a/b/issues") is False
    assert CallPattern.parse("POST /repos/*").matches("github", "POST", "/repos/a") is True


def test_pattern_parts():
    p = CallPattern.parse("  github:post   /repos/* ")
    assert (p.text, p.service, p.method, p.path.pattern, p.literal) == (
        "github:post /repos/*",
        "github",
        "POST",
        r"/repos/.*",
        None,
    )
    assert CallPattern.parse("GET /api/auth.test").literal == "/api/auth.test"
    assert (CallPattern.parse("*").method, CallPattern.parse("*").path, CallPattern.parse("*").service) == (
        None,
        None,
        None,
    )
    assert CallPattern.parse("slack:*").service == "slack"
    assert str(CallPattern.parse("GET /x")) == "GET /x"


@pytest.mark.parametrize(
    ("text", "tail"),
    [
        ("chat.postMessage", "got 'chat.postMessage'"),
        ("POST", "'POST' has no path"),
        ("GET x", "the path of 'GET x' must start with '/'"),
        ("", "got ''"),
    ],
)
def test_bad_patterns(text, tail):
    with pytest.raises(ValueError) as caught:
        CallPattern.parse(text)
    assert str(caught.value).endswith(tail)


def test_get_path():
    record = {
        "user": {"login": "maya"},
        "labels": [{"name": "bug"}, {"name": "p1"}],
        "blocks": [{"text": "hi"}],
        "n": 0,
    }
    assert get_path(record, "user.login") == ["maya"]
    assert get_path(record, "labels.name") == ["bug", "p1"]
    assert get_path(record, "blocks.0.text") == ["hi"]
    assert get_path(record, "blocks.1.text") == []
    assert get_path(record, "labels") == [[{"name": "bug"}, {"name": "p1"}]]
    assert get_path(record, "n") == [0]
    assert get_path(record, "user.name") == []
    assert get_path("text", "a") == []


def test_a_double_star_reaches_any_depth():
    bold = {"type": "text", "style": {"bold": True}}
    table = {"type": "table", "rows": [[{"type": "rich_text", "elements": [bold]}]]}
    listed = {"type": "rich_text", "elements": [{"type": "rich_text_list", "style": "bullet", "elements": []}]}
    record = {"blocks": [table, listed], "type": "message"}
    assert get_path(record, "blocks.**.type") == ["table", "rich_text", "text", "rich_text", "rich_text_list"]
    assert get_path(record, "blocks.**.style.bold") == [True]
    assert get_path(record, "blocks.**.style") == [{"bold": True}, "bullet"]
    assert get_path(record, "**.type") == ["message", *get_path(record, "blocks.**.type")]
    assert get_path(record, "blocks.**.nothing") == []


def test_value_matches():
    assert value_matches("Export times out", "EXPORT") is True
    assert value_matches(12, 12) is True
    assert value_matches(12, "12") is False
    assert value_matches(["bug", "p1"], "BUG") is True
    assert value_matches(["bug"], ["bug"]) is True
    assert value_matches(None, "x") is False
    assert value_matches("Export times out", "EXPORT", fold=False) is False
    assert value_matches("Export times out", "Export", fold=False) is True


def test_same_ignores_the_case_of_text_only_when_folding():
    assert (same("Bug", "bug"), same("Bug", "bug", fold=False), same(1, 1, fold=False)) == (True, False, True)
    assert same(["A"], ["a"]) is False  # lists are compared as they are


def test_loosely_equal_accepts_arguments_sent_as_text():
    assert loosely_equal("10", 10) is True
    assert loosely_equal("1.5", 1.5) is True
    assert loosely_equal("ten", 10) is False
    assert loosely_equal("1", True) is True
    assert loosely_equal("true", True) is True
    assert loosely_equal("0", False) is True
    assert loosely_equal("1", False) is False
    assert loosely_equal(10, "10") is False
    assert loosely_equal("C1", "C1") is True
    assert loosely_equal(["a"], ["a"]) is True


def test_dice():
    assert dice("abc", "abc") == 1.0
    assert dice("ab", "cd") == 0.0
    assert (
        round(dice("post /api/chat.postmessage", "post /api/chat.update"), 4) == 0.6222
    )  # the 14 bigrams of "post /api/chat." of 25 + 20
