"""Slack's request conventions read from what they remember as from a fresh reading."""

from __future__ import annotations

import re

import pytest

from soundstage.services.base import ServiceRequest
from soundstage.services.slack.calls import Args, parse_content_type
from soundstage.services.slack.errors import SlackError

HEADERS = [
    "",
    "application/x-www-form-urlencoded",
    "Application/X-WWW-Form-URLEncoded",
    "application/x-www-form-urlencoded; charset=utf-8",
    "application/json",
    "application/json;charset=UTF-8",
    'application/json; charset="utf-8"',
    " application/json ; Charset = utf-8 ; ",
    "application/json; charset=latin-1",
    "multipart/form-data; boundary=----x123",
    'multipart/form-data; boundary="a;b"',
    "text/plain; a=1; b=2; a=3",
    ";;=;",
    "=x",
]


@pytest.mark.parametrize("header", HEADERS)
def test_a_content_type_read_again_is_the_one_read_first(header):
    fresh = parse_content_type.__wrapped__(header)
    for _ in range(2):
        kind, params = parse_content_type(header)
        assert (kind, dict(params)) == (fresh[0], dict(fresh[1]))
    with pytest.raises(TypeError):  # shared by every call with this header: nobody may change it
        params["charset"] = "x"  # type: ignore[index]


def test_a_content_type_is_read_afresh_once_pushed_out():
    for n in range(parse_content_type.cache_info().maxsize + 10):
        assert parse_content_type(f"text/plain; n={n}")[1]["n"] == str(n)
    assert parse_content_type(HEADERS[3]) == ("application/x-www-form-urlencoded", {"charset": "utf-8"})


NAMES = ["channel", "text", "thread_ts", "a.b-c_9", "x" * 255, "x" * 256, "", "users[]", "b[]x", "é", "a b", "a\n"]


def _refused_as(name: str) -> str | None:
    """Slack's rule for argument names, read afresh."""
    if name.endswith("[]"):
        return "invalid_array_arg"
    return None if re.fullmatch(r"[A-Za-z0-9_.\-]{1,255}", name) else "invalid_arg_name"


@pytest.mark.parametrize("name", NAMES)
def test_an_argument_name_is_judged_again_as_it_was_first(name):
    request = ServiceRequest("POST", "/api/chat.postMessage", {name: "1"}, {}, b"")
    for _ in range(2):
        if _refused_as(name) is None:
            assert Args.parse(request).values == {name: "1"}
        else:
            with pytest.raises(SlackError) as raised:
                Args.parse(request)
            assert raised.value.code == _refused_as(name) and raised.value.messages[0]
