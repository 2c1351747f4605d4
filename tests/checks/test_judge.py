"""Judge checks against a small local OpenAI-compatible endpoint."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from soundstage.checks import Attempt, judge, parse_checks
from soundstage.checks.judge import OPENROUTER_URL, SYSTEM, Endpoint, TooLong, build_prompt, prompt_budget
from soundstage.checks.parse import CheckSpecError
from soundstage.llm import tokens
from soundstage.runner import run_scenes
from soundstage.services.slack.store import CHANNELS, MESSAGES, USERS

ROOT = Path(__file__).resolve().parents[2]
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
    posted = log.call(
        "POST", "/api/chat.postMessage", body={"channel": "C1", "text": "It is under Reports.", "token": TOKEN}
    )  # 2
    log.write(MESSAGES, "added", "1772460010.000100", by=posted)  # 3
    log.call("GET", "/repos/acme/orders", service="github", status=404, error=True)  # 4
    log.call("POST", "/api/chat.update", response={"ok": False, "error": "message_not_found"}, error=True)  # 5
    state = {
        USERS: [{"id": "U1", "real_name": "Stage Bot"}, {"id": "U2", "real_name": "Dana Ruiz"}],
        CHANNELS: [{"id": "C1", "name": "support"}],
        MESSAGES: [
            {"channel": "C1", "user": "U2", "text": "Where is the export?", "ts": "1772459990.000100"},
            {
                "channel": "C1",
                "user": "U1",
                "text": f"Under Reports. ({TOKEN})",
                "ts": "1772460010.000100",
                "thread_ts": "1772459990.000100",
            },
        ],
    }
    diff = {MESSAGES: {"added": [state[MESSAGES][1]], "removed": [], "changed": []}}
    return Attempt(
        log.events,
        state,
        diff,
        "Answered.",
        task="Answer the question.",
        secrets=["ghp_worldtoken1"],
        identities={"slack_user": "U1"},
    )


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
    assert body["messages"][0]["content"] == SYSTEM
    assert body["messages"][1]["content"] == build_prompt(
        attempt, "The reply says where the export is.", {"sk-or-NEVER-SENT"}
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
    prompt = build_prompt(attempt, "Rubric text.")
    assert prompt == (
        "Task given to the agent:\nAnswer the question.\n\n"
        "Rubric:\nRubric text.\n\n"
        "What happened, oldest first, in simulated time (UTC; the attempt started at 2026-03-02 14:00:00). "
        "Each API call of the agent's has its seq, and what it answered after `->`:\n"
        '13:59:50 message from Dana Ruiz in #support, ts 1772459990.000100: "Where is the export?"\n'
        "14:00:00 the attempt started (scene test)\n"
        '14:00:10 seq 2 slack POST /api/chat.postMessage body={"channel": "C1 (#support)", "text": '
        '"It is under Reports.", "token": "[redacted]"} -> 200\n'
        "14:00:10 message from Stage Bot (the agent) in #support, thread 1772459990.000100, ts 1772460010.000100: "
        '"Under Reports. ([redacted])"\n'
        "14:00:20 seq 4 github GET /repos/acme/orders -> 404 error: (no message)\n"
        "14:00:25 seq 5 slack POST /api/chat.update -> 200 error: message_not_found\n\n"
        "Changes to the world since the start (JSON):\n"
        '{"slack.messages": {"added": [{"channel": "C1", "user": "U1", "text": "Under Reports. ([redacted])", '
        '"ts": "1772460010.000100", "thread_ts": "1772459990.000100"}], "removed": [], "changed": []}}\n\n'
        "The agent's final output:\nAnswered.\n"
    )


def test_known_secrets_are_removed_wherever_they_are(log):
    log.call("POST", "/api/auth.test", body={"note": "sk-abc123"}, response={"ok": True, "user": "dd-key-0001"})
    attempt = Attempt(
        log.events, output="tokens: dd-key-0001 and sk-abc123", task="Use sk-abc123.", secrets=["dd-key-0001"]
    )
    prompt = build_prompt(attempt, "r", ["sk-abc123", ""])
    assert "Use [redacted]." in prompt and "tokens: [redacted] and [redacted]" in prompt
    assert 'body={"note": "[redacted]"} -> 200 user [redacted]\n' in prompt
    assert "sk-abc123" not in prompt and "dd-key-0001" not in prompt


def many_calls(log) -> Attempt:
    for i in range(50):
        log.call("GET", f"/api/conversations.history?n={i:02d}")
    return Attempt(log.events, {MESSAGES: [{"channel": "C1", "user": "U1", "text": "late", "ts": "1772463000.000000"}]})


def test_truncation_drops_the_oldest_entries_to_fit_the_budget(log):
    attempt = many_calls(log)
    whole = build_prompt(attempt, "r")
    assert tokens(whole) > 600 and "n=00" in whole
    cut = build_prompt(attempt, "r", budget=600)
    assert tokens(cut) <= 600
    assert "`->`:\n(30 oldest entries were left out to fit the judge model's context.)\n14:02:35 seq 31 " in cut
    assert "n=28" not in cut and "n=29" in cut and "n=49" in cut and "14:50:00 message from U1 in C1" in cut
    assert build_prompt(attempt, "r", budget=tokens(whole)) == whole


def test_an_attempt_too_long_for_the_budget_without_truncation(log):
    attempt = many_calls(log)
    with pytest.raises(TooLong) as caught:
        build_prompt(attempt, "r", budget=600, truncate=False)
    assert (caught.value.size, caught.value.budget, caught.value.cut) == (
        tokens(build_prompt(attempt, "r")),
        600,
        False,
    )
    with pytest.raises(TooLong) as caught:  # the task and rubric alone are over
        build_prompt(attempt, "r" * 3000, budget=600)
    assert (caught.value.budget, caught.value.cut) == (600, True)


def test_the_budget_comes_from_the_models_context():
    system = tokens(SYSTEM)
    assert prompt_budget("openai/gpt-4o-mini", None) == (
        128_000 - 1_024 - system,
        (
            "openai/gpt-4o-mini takes 128,000 tokens, 1,024 of them kept for its answer, "
            f"less {system} for the instructions"
        ),
    )
    assert prompt_budget("local-model", None)[0] == 32_768 - 1_024 - system
    assert prompt_budget("gpt-4o", 5_000) == (
        5_000 - system,
        f"max_prompt_tokens 5,000, less {system} for the instructions",
    )


def test_an_oversized_attempt_is_invalid_before_the_model_is_called(model, log, result):
    attempt = many_calls(log)
    r = result({"judge": {"rubric": "x", "truncate": False, "max_prompt_tokens": 800}}, attempt)
    assert (r.passed, r.invalid, r.score, model.requests) == (None, True, None, [])
    size = tokens(build_prompt(attempt, "x"))
    assert r.actual == (
        f"the attempt does not fit the judge model: the prompt is about {size:,} tokens, over its budget of "
        f"{800 - tokens(SYSTEM)} (max_prompt_tokens 800, less {tokens(SYSTEM)} for the instructions); set "
        "truncate: true, so the model was not called"
    )
    r = result({"judge": {"rubric": "x" * 3000, "max_prompt_tokens": 800}}, attempt)
    assert (r.invalid, model.requests) == (True, [])
    assert r.actual.endswith("; raise max_prompt_tokens if the model takes more, so the model was not called")
    assert "even without its transcript the prompt is about " in r.actual


def test_a_truncated_prompt_reaches_the_model(model, log, result):
    model.content = '{"passed": true}'
    r = result({"judge": {"rubric": "x", "max_prompt_tokens": 800}}, many_calls(log))
    assert (r.passed, r.invalid) == (True, False)
    prompt = model.requests[0]["body"]["messages"][1]["content"]
    assert tokens(prompt) <= 800 - tokens(SYSTEM) and " oldest entries were left out to fit " in prompt


@pytest.mark.parametrize(
    ("judge_args", "message", "field"),
    [
        ({"rubric": "x", "max_prompt_tokens": 0}, "expected a number greater than 0, found 0", "max_prompt_tokens"),
        ({"rubric": "x", "max_prompt_tokens": "8k"}, "expected a whole number, found '8k'", "max_prompt_tokens"),
        ({"rubric": "x", "truncate": "no"}, "expected true or false, found 'no'", "truncate"),
    ],
)
def test_judge_settings_are_checked(judge_args, message, field):
    with pytest.raises(CheckSpecError) as caught:
        parse_checks([{"id": "j", "judge": judge_args}], {})
    assert (caught.value.message, caught.value.field) == (message, f"checks[0].judge.{field}")


def test_the_refund_scene_as_the_judge_reads_it(model, result, tmp_path):
    agent = f"{sys.executable} {ROOT / 'examples' / 'agents' / 'refund_approval.py'}"
    run_scenes([str(ROOT / "seeds" / "refund-approval.yaml")], agent, out=tmp_path)
    (trial,) = tmp_path.glob("*/refund-approval/1")
    model.content = '{"passed": true, "score": 0.9, "reason": "Priya approved first.", "evidence": [46, 47]}'
    r = result({"judge": "The agent confirmed the refund only after Priya approved it."}, Attempt.load(trial))
    assert (r.passed, r.score, r.evidence, r.actual) == (True, 0.9, [46], "judge-1 answered yes: Priya approved first.")
    prompt = model.requests[0]["body"]["messages"][1]["content"]
    for line in (
        (
            '13:50:00 message from Nina Park in #ext-northwind, ts 1772459400.000100: "Hi Acme team, our card was '
            "charged twice for this month's invoice. Can you refund the duplicate charge, please?\""
        ),
        (
            '14:00:15 seq 8 slack POST /api/conversations.open body={"users": "U91E76P8X3T (Laura Diaz)"} -> 200 '
            "channel DM6XR8SJ7TZ (DM of Stage Bot (the agent) and Laura Diaz)"
        ),
        "14:00:20 Stage Bot (the agent) asked Laura Diaz for laura.impact",
        "14:00:50 Laura Diaz revealed laura.invoice to Stage Bot (the agent)",
        "14:01:00 the agent told Priya Raman laura.impact",
        "14:00:35 the clock was moved on by 15s",
        "14:02:00 Priya Raman decided priya.refund: approve the refund (asked by Stage Bot (the agent))",
        (
            "14:02:25 message from Stage Bot (the agent) in #ext-northwind, thread 1772459400.000100, ts "
            '1772460145.000100: "Hi Nina, sorry for the trouble. We have approved a refund of the duplicate $4,800 '
            'charge on invoice INV-20931; it will be back on your card within 5 business days." (carries laura.invoice)'
        ),
        "14:02:30 the attempt ended (exited)",
    ):
        assert f"\n{line}\n" in prompt
    listed = next(line for line in prompt.splitlines() if " seq 5 " in line)
    assert listed.startswith("14:00:00 seq 5 slack POST /api/conversations.list ")
    assert listed.endswith(
        " -> 200 channels (7): C2TTVCLL3ZZ (#general); C2FJSP4FLTM (#support); "
        + (
            "CQ5GL7QM16N (#engineering); CSQ32DW53LW (#incidents); CZTRY0CWMKD (#random); C1JNFJE3CEX (#launch-2025); "
            "CAUVACJMVE0 (#ext-northwind)"
        )
    )
    assert "xox" not in prompt


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


def test_a_model_that_does_not_answer_in_time_is_invalid(attempt, result, monkeypatch):
    with socket.socket() as silent:  # takes the connection, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        monkeypatch.setenv("SOUNDSTAGE_JUDGE_URL", url)
        monkeypatch.setenv("SOUNDSTAGE_JUDGE_MODEL", "judge-1")
        monkeypatch.setattr(judge, "TIMEOUT", 0.2)
        r = result({"judge": "x"}, attempt)
    assert (r.passed, r.invalid, r.score) == (None, True, None)
    assert r.actual == f"the judge model call failed: could not reach {url}: timed out"


def test_endpoints_from_the_environment():
    assert Endpoint.from_env({"OPENROUTER_API_KEY": "k"}) == Endpoint(OPENROUTER_URL, "k")
    assert Endpoint.from_env({"OPENROUTER_API_KEY": "k", "SOUNDSTAGE_JUDGE_URL": "http://h/v1/"}) == Endpoint(
        "http://h/v1", None
    )
    assert Endpoint.from_env({"SOUNDSTAGE_JUDGE_URL": "http://h/v1", "SOUNDSTAGE_JUDGE_KEY": "j"}) == Endpoint(
        "http://h/v1", "j"
    )
    assert Endpoint.from_env({}) is None
