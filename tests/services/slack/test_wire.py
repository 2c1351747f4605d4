"""The wire: argument forms, Slack's errors for malformed requests, warnings, unknown methods and paths."""

from __future__ import annotations

import json

from .conftest import START


def test_get_with_query_arguments(slack):
    response = slack.raw("conversations.info", http="GET", params={"channel": slack["support"]})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    assert response.json()["channel"]["id"] == slack["support"]


def test_json_body(slack):
    response = slack.raw(
        "conversations.info",
        content=json.dumps({"channel": slack["support"]}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert response.json()["channel"]["name"] == "support"
    assert "warning" not in response.json()


def test_multipart_body(slack):
    response = slack.raw("conversations.info", files={"channel": (None, slack["support"])})
    assert response.json()["channel"]["name"] == "support"


def test_query_and_body_are_merged(slack):
    response = slack.raw("chat.postMessage", params={"channel": slack["support"]}, data={"text": "merged"})
    body = response.json()
    assert body["ok"] is True and body["message"]["text"] == "merged"
    assert slack.live.trace()[-1]["body"] == {"channel": slack["support"], "text": "merged"}


def test_date_header_is_simulated_time(slack):
    response = slack.raw("auth.test")
    assert "Mon, 02 Mar 2026 14:00:00 GMT" in response.headers.get_list("date")


def test_json_without_charset_warns(slack):
    body = slack.raw("auth.test", json={}).json()
    assert body["ok"] is True
    assert body["warning"] == "missing_charset"
    assert body["response_metadata"] == {"warnings": ["missing_charset"]}


def test_form_with_charset_warns(slack):
    body = slack.raw(
        "auth.test", content="a=1", headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
    ).json()
    assert body["warning"] == "superfluous_charset"


def test_invalid_json(slack):
    body = slack.raw("chat.postMessage", content="{nope", headers={"Content-Type": "application/json"}).json()
    assert body["ok"] is False and body["error"] == "invalid_json"
    assert body["response_metadata"]["messages"][0].startswith("[ERROR] the body is not valid JSON")


def test_json_not_object(slack):
    body = slack.raw("chat.postMessage", content="[1, 2]", headers={"Content-Type": "application/json"}).json()
    assert body["error"] == "json_not_object"


def test_invalid_form_data(slack):
    body = slack.raw(
        "auth.test", content=b"a=\xff\xfe", headers={"Content-Type": "application/x-www-form-urlencoded"}
    ).json()
    assert body["error"] == "invalid_form_data"


def test_missing_post_type(slack):
    response = slack.raw("auth.test", content=b"channel=C1", headers={"Content-Type": ""})
    assert response.json()["error"] == "missing_post_type"


def test_invalid_post_type(slack):
    body = slack.raw("auth.test", content=b"hello", headers={"Content-Type": "text/plain"}).json()
    assert body["error"] == "invalid_post_type"


def test_invalid_charset(slack):
    body = slack.raw("auth.test", content=b"{}", headers={"Content-Type": "application/json; charset=latin-1"}).json()
    assert body["error"] == "invalid_charset"


def test_invalid_arg_name(slack):
    assert slack.error("auth.test", **{"bad name!": "1"}) == "invalid_arg_name"


def test_invalid_array_arg(slack):
    assert slack.error("conversations.info", **{"channel[]": slack["support"]}) == "invalid_array_arg"
    repeated = slack.raw("conversations.info", params=[("channel", slack["support"]), ("channel", slack["general"])])
    assert repeated.json()["error"] == "invalid_array_arg"


def test_wrong_types_are_invalid_arguments(slack):
    body = slack.raw(
        "conversations.history",
        content=json.dumps({"channel": slack["support"], "inclusive": "maybe"}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    ).json()
    assert body["error"] == "invalid_arguments"
    assert body["response_metadata"]["messages"] == ["[ERROR] inclusive must be a boolean (true, false, 1 or 0)"]
    text_object = slack.raw(
        "chat.postMessage",
        content=json.dumps({"channel": slack["support"], "text": {"a": 1}}),
        headers={"Content-Type": "application/json; charset=utf-8"},
    ).json()
    assert text_object["error"] == "invalid_arguments"


def test_unknown_method(slack):
    body = slack.call("files.upload", channels=slack["support"])
    assert body == {"ok": False, "error": "unknown_method", "req_method": "files.upload"}
    call = slack.live.trace()[-1]
    assert call["unimplemented"] is True and call["error"] is True and call["operation"] == "files.upload"


def test_unknown_method_without_a_token(slack):
    assert slack.error("no.such.method", token=None) == "unknown_method"


def test_paths_outside_api_are_not_found(slack):
    headers = {"Authorization": f"Bearer {slack.live.token}"}
    response = slack.live.http.get(slack.base.replace("/api/", "/messages/C1"), headers=headers)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert slack.live.trace()[-1]["unimplemented"] is True


def test_each_call_ticks_the_clock(slack):
    slack.call("auth.test")
    assert slack.call("chat.postMessage", channel=slack["support"], text="hi")["ts"] == f"{START + 5}.000100"


def test_failed_calls_change_nothing(slack):
    before = slack.live.world.snapshot()
    assert slack.error("chat.postMessage", channel=slack["support"]) == "no_text"
    assert slack.error("conversations.invite", channel=slack["support"], users=f"{slack['omar']},UNOBODY") == (
        "user_not_found"
    )
    assert slack.live.world.snapshot() == before


def test_json_nested_too_deep_is_invalid_json(slack):
    before = slack.writes()
    deep = "[" * 100_000 + "]" * 100_000
    body = slack.raw("chat.postMessage", content=deep, headers={"Content-Type": "application/json"}).json()
    assert (body["ok"], body["error"]) == (False, "invalid_json")
    assert body["response_metadata"]["messages"] == [
        "[ERROR] the body is not valid JSON: nested more than 100 levels deep"
    ]
    # blocks given as a JSON string are read the same way
    blocks = '[{"type": "section", "x": ' + "[" * 300 + "]" * 300 + "}]"
    assert slack.error("chat.postMessage", channel=slack["support"], blocks=blocks) == "invalid_blocks"
    assert slack.writes() == before
    call = slack.live.trace()[-1]
    assert (call["operation"], call["status"], call["body"]["blocks"]) == ("chat.postMessage", 200, blocks)


def test_nested_multipart_is_invalid_form_data(slack):
    # Each part declaring itself multipart again: the email parser would recurse once per level.
    body = b"x"
    for level in range(2000):
        inner = f"b{level - 1}".encode()
        body = (
            b'--b%d\r\nContent-Disposition: form-data; name="text"\r\nContent-Type: multipart/mixed; boundary=%s'
            b"\r\n\r\n%s\r\n--b%d--\r\n" % (level, inner, body, level)
        )
    headers = {"Content-Type": "multipart/form-data; boundary=b1999"}
    response = slack.raw("chat.postMessage", params={"channel": slack["support"]}, content=body, headers=headers)
    assert response.json() == {
        "ok": False,
        "error": "invalid_form_data",
        "response_metadata": {"messages": ["[ERROR] a multipart part is itself multipart"]},
    }
