"""Optional model-backed understanding, against a small local OpenAI-compatible endpoint: what it adds to the
rules, its cache by question text, and that it is never required."""

from __future__ import annotations

import json

import pytest

from soundstage.llm import Endpoint
from soundstage.people.understanding_model import ModelUnderstanding, cache_at, keys_in

from .conftest import scene, story

PEOPLE = """
  - ref: omar
    slack_user: $omar
    reply_after: 30s
    facts:
      - {id: incident, text: "A bad cache key.", match: ["bad cache key"], ask: ["root cause"]}
    decisions:
      - {id: rollback, ask: ["rollback"], options: ["roll back", "hold"]}
"""
SCENE = scene(PEOPLE, name="understanding-model")
QUESTION = "Omar, what broke checkout after lunch?"  # no rule hears it as asking for the cause


@pytest.fixture
def understood(people, chat_model, monkeypatch, tmp_path):
    """`understood()`: a world whose people's understanding asks the fake model, cached in tmp_path."""

    def world():
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL", "reader-1")
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_URL", chat_model.url)
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE", str(tmp_path / "understanding.jsonl"))
        return people(SCENE)

    return world


def ask(live, text=QUESTION):
    live.slack().chat_postMessage(channel=live.world.refs["general"], text=text)  # @0
    live.advance("30s")
    return story(live)


def test_the_model_adds_what_the_rules_missed(understood, chat_model, tmp_path):
    chat_model.content = 'It asks about ["omar.incident"].'
    assert ask(understood()) == [
        f"@0 message @0 $bot (agent) in $general to $omar: {QUESTION}",
        "@0 asked $omar for omar.incident by $bot in @0",
        "@30 revealed $omar omar.incident to $bot in @30",
        "@30 message @30 $omar in $general thread @0 to nobody carries omar.incident: Sure. A bad cache key.",
    ]
    [request] = chat_model.requests
    body = request["body"]
    assert (body["model"], body["temperature"]) == ("reader-1", 0)
    assert body["messages"][1] == {
        "role": "user",
        "content": 'Topics:\n- omar.incident: asked as "root cause"\n- omar.rollback: asked as "rollback"\n\n'
        f"Message:\n{QUESTION}",
    }
    assert "A bad cache key" not in json.dumps(body)  # a fact's text never reaches the model
    [line] = (tmp_path / "understanding.jsonl").read_text().splitlines()
    assert json.loads(line)["asks"] == ["omar.incident"]


def test_a_rerun_hears_the_question_as_the_first_run_did_without_asking_again(understood, chat_model):
    chat_model.content = '["omar.incident"]'
    first = ask(understood())
    chat_model.content = "[]"  # a model that would now answer otherwise is not asked
    assert ask(understood()) == first
    assert len(chat_model.requests) == 1


@pytest.mark.parametrize(("status", "content"), [(503, ""), (200, "I think it is about the incident.")])
def test_a_failed_call_or_an_answer_without_a_list_adds_nothing_and_is_not_kept(
    understood, chat_model, tmp_path, status, content
):
    chat_model.status, chat_model.content = status, content
    assert ask(understood())[1:] == ["@30 message @30 $omar in $general thread @0 to nobody: Got it, thanks!"]
    assert not (tmp_path / "understanding.jsonl").exists()


def test_without_the_setting_no_model_is_asked(people, chat_model, monkeypatch):
    monkeypatch.delenv("SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL", raising=False)
    monkeypatch.setenv("SOUNDSTAGE_PEOPLE_URL", chat_model.url)
    assert ask(people(SCENE))[1:] == ["@30 message @30 $omar in $general thread @0 to nobody: Got it, thanks!"]
    assert chat_model.requests == []


def test_the_endpoint_and_cache_from_the_environment(tmp_path):
    home = str(tmp_path / "home")
    env = {"SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL": "m", "SOUNDSTAGE_JUDGE_URL": "http://j/v1", "SOUNDSTAGE_HOME": home}
    assert ModelUnderstanding.from_env(env) == ModelUnderstanding(
        Endpoint("http://j/v1", None), "m", cache_at(tmp_path / "home" / "people" / "understanding.jsonl")
    )
    named = {**env, "SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE": str(tmp_path / "x.jsonl")}
    assert ModelUnderstanding.from_env(named).cache.path == tmp_path / "x.jsonl"
    assert ModelUnderstanding.from_env({"SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL": "m"}) is None  # nowhere to ask
    assert ModelUnderstanding.from_env({"SOUNDSTAGE_JUDGE_URL": "http://j/v1"}) is None  # off unless named


def test_keys_in_an_answer():
    known = ["omar.incident", "omar.rollback"]
    assert keys_in('["omar.rollback", "nope", "omar.incident"]', known) == ["omar.incident", "omar.rollback"]
    assert keys_in("[]", known) == []
    assert keys_in("none", known) is None
    assert keys_in("[not json]", known) is None
