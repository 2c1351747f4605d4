"""Judge checks against a small local OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import socket

import pytest

from soundstage.checks import Attempt, judge
from soundstage.checks.judge import OPENROUTER_URL, Endpoint, build_prompt
from soundstage.services.slack.store import MESSAGES

TOKEN = "xoxb-1111-2222-abcdefSECRET"


@pytest.fixture
def model(chat_model, monkeypatch):
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_URL", chat_model.url + "/")
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_MODEL", "judge-1")
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-NEVER-SENT")
    monkeypatch.delenv("SOUNDSTAGE_JUDGE_KEY", raising=False)
    return chat_model


@pytest.fixture
def attempt(log) -> Attempt:
    log.call(
        "POST", "/api/chat.postMessage", body={"channel": "C1", "text": "It is under Reports.", "token": TOKEN}
    )  # 2
    log.call("GET", "/repos/acme/orders", service="github", status=404, error=True)  # 3
    log.call("POST", "/api/chat.update", response={"ok": False, "error": "message_not_found"}, error=True)  # 4
    state = {
        MESSAGES: [
            {"channel": "C1", "user": "U2", "text": "Where is the export?", "ts": "1772459990.000100"},
            {
                "channel": "C1",
                "user": "U1",
                "text": f"Under Reports. ({TOKEN})",
                "ts": "1772460010.000100",
                "thread_ts": "1772459990.000100",
            },
        ]
    }
    diff = {MESSAGES: {"added": [state[MESSAGES][1]], "removed": [], "changed": []}}
    return Attempt(log.events, state, diff, "Answered.", task="Answer the question.", secrets=["ghp_worldtoken1"])


def test_a_verdict_from_the_model(model, attempt, result):
    model.content = '```json\n{"passed": true, "reason": "The reply names Reports.", "evidence": [2, 99]}\n```'
    r = result({"judge": "The reply says where the export is."}, attempt)
    assert (r.passed, r.invalid, r.kind, r.evidence) == (True, False, "judge", [2])
    assert r.expected == 'the judge model to find that "The reply says where the export is." holds'
    assert r.actual == "judge-1 answered yes: The reply names Reports."
    (request,) = model.requests
    assert (request["path"], request["authorization"]) == ("/v1/chat/completions", None)
    body = request["body"]
    assert (body["model"], body["temperature"], [m["role"] for m in body["messages"]]) == (
        "judge-1",
        0,
        ["system", "user"],
    )
    assert body["messages"][1]["content"] == build_prompt(
        attempt, "The reply says where the export is.", False, {"sk-or-NEVER-SENT"}
    )
    assert "SECRET" not in json.dumps(body) and "sk-or" not in json.dumps(body)


def test_a_verdict_without_a_reason(model, attempt, result):
    model.content = '{"passed": true}'
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.actual, r.evidence, r.score) == (True, "judge-1 answered yes", [], 1.0)


def test_the_judges_score_when_it_gives_one(model, attempt, result):
    model.content = '{"passed": false, "score": 0.35, "reason": "Half there."}'
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.score, r.invalid) == (False, 0.35, False)
    model.content = '{"passed": false}'
    assert result({"judge": "x"}, attempt).score == 0.0
    model.content = '{"passed": true, "score": 1.5}'  # outside [0, 1]: no verdict
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.score, r.invalid) == (None, None, True)


def test_a_skipped_judge_has_no_score(attempt, result, monkeypatch):
    for name in ("SOUNDSTAGE_JUDGE_URL", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.score) == (None, None)


def test_a_failing_verdict_and_the_checks_own_model(model, attempt, result, monkeypatch):
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_KEY", "local-key")
    model.content = '{"passed": false, "reason": "It never mentions timing."}'
    r = result({"judge": {"rubric": "It says how long the export takes.", "model": "other-model"}}, attempt)
    assert (r.passed, r.invalid, r.actual, r.evidence) == (
        False,
        False,
        "other-model answered no: It never mentions timing.",
        [],
    )
    assert model.requests[0]["body"]["model"] == "other-model"
    assert model.requests[0]["authorization"] == "Bearer local-key"


def test_the_prompt(attempt):
    prompt = build_prompt(attempt, "Rubric text.", False)
    assert prompt == (
        "Task given to the agent:\nAnswer the question.\n\n"
        "Rubric:\nRubric text.\n\n"
        "The agent's API calls (oldest first):\n"
        'seq 2 2026-03-02T14:00:10Z slack POST /api/chat.postMessage body={"channel": "C1", "text": '
        '"It is under Reports.", '
        '"token": "[redacted]"} -> 200\n'
        "seq 3 2026-03-02T14:00:15Z github GET /repos/acme/orders -> 404\n"
        "seq 4 2026-03-02T14:00:20Z slack POST /api/chat.update -> 200 message_not_found\n\n"
        "Slack messages at the end (oldest first):\n"
        "[1772459990.000100] C1 U2: Where is the export?\n"
        "[1772460010.000100] C1 thread 1772459990.000100 U1: Under Reports. ([redacted])\n\n"
        "Changes to the world since the start (JSON):\n"
        '{"slack.messages": {"added": [{"channel": "C1", "user": "U1", "text": "Under Reports. ([redacted])", '
        '"ts": "1772460010.000100", "thread_ts": "1772459990.000100"}], "removed": [], "changed": []}}\n\n'
        "The agent's final output:\nAnswered.\n"
    )


def test_known_secrets_are_removed_wherever_they_are(log):
    attempt = Attempt(
        log.events, output="tokens: dd-key-0001 and sk-abc123", task="Use sk-abc123.", secrets=["dd-key-0001"]
    )
    prompt = build_prompt(attempt, "r", False, ["sk-abc123", ""])
    assert "Use [redacted]." in prompt and "tokens: [redacted] and [redacted]" in prompt


def test_truncate_drops_the_oldest_calls_and_messages(log, monkeypatch):
    for i in range(50):
        log.call("GET", f"/api/conversations.history?n={i:02d}")
    attempt = Attempt(
        log.events, {MESSAGES: [{"channel": "C1", "user": "U1", "text": "late", "ts": "1772463000.000000"}]}
    )
    monkeypatch.setattr(judge, "PROMPT_BUDGET", 1500)
    whole = build_prompt(attempt, "r", False)
    assert len(whole) > 1500 and "n=00" in whole
    cut = build_prompt(attempt, "r", True)
    assert len(cut) <= 1500
    assert "(35 oldest calls and messages were left out to fit.)\n" in cut
    assert "n=34" not in cut and "n=35" in cut and "n=49" in cut and "] C1 U1: late" in cut


def test_without_an_endpoint_the_check_is_skipped(log, result, monkeypatch):
    for name in ("SOUNDSTAGE_JUDGE_URL", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    r = result({"judge": "x"}, Attempt(log.events))
    assert (r.passed, r.invalid) == (None, False)
    assert r.actual == (
        "no judge model is configured (set OPENROUTER_API_KEY, or SOUNDSTAGE_JUDGE_URL for another "
        "endpoint), so the check was skipped"
    )


def test_without_a_model_name_the_check_is_skipped(model, attempt, result, monkeypatch):
    monkeypatch.delenv("SOUNDSTAGE_JUDGE_MODEL")
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid, model.requests) == (None, False, [])
    assert (
        r.actual
        == "no judge model is named (set SOUNDSTAGE_JUDGE_MODEL or give the check a model), so the check was skipped"
    )


def test_a_model_error_makes_the_result_invalid(model, attempt, result):
    model.status, model.reply = 503, {"error": {"message": "overloaded"}}
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid) == (None, True)
    assert (
        r.actual
        == f'the judge model call failed: {model.url} answered HTTP 503: {{"error": {{"message": "overloaded"}}}}'
    )


def test_an_answer_that_is_no_completion_is_invalid(model, attempt, result):
    model.reply = b"<html>gateway</html>"
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid, r.actual) == (
        None,
        True,
        f"the judge model call failed: {model.url} did not answer with a chat completion: <html>gateway</html>",
    )


def test_an_answer_without_a_verdict_is_invalid(model, attempt, result):
    model.content = "I think it passed."
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid, r.actual) == (
        None,
        True,
        'the judge model call failed: the model did not give the verdict asked for: "I think it passed."',
    )
    model.content = '{"passed": "yes"}'
    assert result({"judge": "x"}, attempt).invalid is True


def test_an_unreachable_endpoint_is_invalid(attempt, result, monkeypatch):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("SOUNDSTAGE_JUDGE_MODEL", "judge-1")
    r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid) == (None, True)
    assert r.actual.startswith(f"the judge model call failed: could not reach http://127.0.0.1:{port}/v1: ")


def test_endpoints_from_the_environment():
    assert Endpoint.from_env({"OPENROUTER_API_KEY": "k"}) == Endpoint(OPENROUTER_URL, "k")
    assert Endpoint.from_env({"OPENROUTER_API_KEY": "k", "SOUNDSTAGE_JUDGE_URL": "http://h/v1/"}) == Endpoint(
        "http://h/v1", None
    )
    assert Endpoint.from_env({"SOUNDSTAGE_JUDGE_URL": "http://h/v1", "SOUNDSTAGE_JUDGE_KEY": "j"}) == Endpoint(
        "http://h/v1", "j"
    )
    assert Endpoint.from_env({}) is None
