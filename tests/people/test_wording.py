"""Optional model wording of replies, against a small local OpenAI-compatible endpoint, and the chat
client it shares with judge checks (`soundstage.llm`)."""

from __future__ import annotations

import json

import httpx
import pytest

from soundstage.llm import OPENROUTER_URL, Endpoint, ModelError
from soundstage.people.wording import URLS, Wording

from .conftest import scene, story

PEOPLE = """
  - ref: laura
    slack_user: $laura
    persona: Customer Success Lead. Short, friendly answers.
    reply_after: 30s
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821."
        match: ["W-4821"]
        ask: ["workspace"]
      - id: contract_value
        text: "Northwind pays 180k a year."
        match: ["180k"]
        ask: ["contract"]
        confidential: true
"""
SCENE = scene(PEOPLE, name="wording")
TEMPLATE = "Good question. Northwind is on workspace W-4821. Sorry, I can't share that."


@pytest.fixture
def model(chat_model):
    return chat_model


@pytest.fixture
def worded(people, model, monkeypatch):
    """A world whose people are worded by the fake model."""

    def world():
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_MODEL", "people-1")
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_URL", model.url + "/")
        monkeypatch.setenv("SOUNDSTAGE_PEOPLE_KEY", "people-key")
        monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-NEVER-SENT")
        return people(SCENE)

    return world


def ask(live, text="Which workspace, and what's the contract?"):
    slack = live.slack()
    dm = slack.conversations_open(users=live.world.refs["laura"])["channel"]["id"]
    slack.chat_postMessage(channel=dm, text=text)
    live.advance("30s")
    return slack.conversations_history(channel=dm, limit=1)["messages"][0]["text"]


def test_the_model_phrases_the_reply_given_only_what_the_engine_chose(worded, model):
    model.content = "Hi! Northwind is on workspace W-4821. The contract side I have to keep to myself, sorry."
    live = worded()
    assert ask(live) == model.content
    [request] = model.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["authorization"] == "Bearer people-key"
    body = request["body"]
    assert (body["model"], body["temperature"]) == ("people-1", 0)
    system, user = body["messages"]
    assert system["role"] == "system" and "You are Laura Diaz" in system["content"]
    assert "Customer Success Lead. Short, friendly answers." in system["content"]
    assert user["content"] == (
        "Their message:\nWhich workspace, and what's the contract?\n\nWhat your reply must say:\n"
        '- Share this, word for word: "Northwind is on workspace W-4821."\n'
        "- Politely decline to share what they asked for, without saying anything about it"
    )
    assert "180k" not in json.dumps(body)  # the withheld fact never reaches the model
    # The engine's records do not depend on the wording.
    assert story(live)[-3:] == [
        "@35 revealed $laura laura.workspace to $bot in @35",
        "@35 withheld $laura laura.contract_value to $bot (confidential) in @35",
        f"@35 message @35 $laura in dm:bot+laura to nobody carries laura.workspace: {model.content}",
    ]


@pytest.mark.parametrize(
    "content",
    [
        "Northwind is on the EU cluster.",  # drops the chosen fact
        "Northwind is on workspace W-4821. They pay 180k, but keep that quiet.",  # carries one not chosen
        "",
    ],
)
def test_a_reply_that_drops_or_adds_a_fact_is_discarded_for_the_template(worded, model, content):
    model.content = content
    assert ask(worded()) == TEMPLATE
    assert len(model.requests) == 1


def test_a_failed_model_call_falls_back_to_the_template(worded, model):
    model.status = 503
    assert ask(worded()) == TEMPLATE


def test_without_a_people_model_no_model_is_asked(people, model, monkeypatch):
    monkeypatch.setenv("SOUNDSTAGE_PEOPLE_URL", model.url)
    assert ask(people(SCENE)) == TEMPLATE
    assert model.requests == []


def test_the_people_endpoint_from_the_environment():
    env = {"SOUNDSTAGE_PEOPLE_MODEL": "m"}
    assert Wording.from_env(env) is None  # a model but nowhere to ask it
    assert Wording.from_env({**env, "OPENROUTER_API_KEY": "k"}) == Wording(Endpoint(OPENROUTER_URL, "k"), "m")
    assert Wording.from_env({**env, "OPENROUTER_API_KEY": "k", "SOUNDSTAGE_JUDGE_URL": "http://j/v1/"}) == Wording(
        Endpoint("http://j/v1", None), "m"
    )
    both = {
        **env,
        "SOUNDSTAGE_JUDGE_URL": "http://j/v1",
        "SOUNDSTAGE_PEOPLE_URL": "http://p/v1",
        "SOUNDSTAGE_PEOPLE_KEY": "pk",
    }
    assert Wording.from_env(both) == Wording(Endpoint("http://p/v1", "pk"), "m")
    assert Wording.from_env({"SOUNDSTAGE_PEOPLE_URL": "http://p/v1"}) is None  # no model named
    assert Endpoint.from_env({"SOUNDSTAGE_PEOPLE_URL": "http://p/v1"}, URLS) == Endpoint("http://p/v1", None)


def test_the_chat_client_reports_what_went_wrong():
    def serve(status: int, body: bytes) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(status, content=body)))

    endpoint = Endpoint("http://model.test/v1", "k")
    ok = b'{"choices": [{"message": {"content": "hello"}}]}'
    assert endpoint.chat("m", [{"role": "user", "content": "hi"}], client=serve(200, ok)) == "hello"
    with pytest.raises(ModelError, match=r"^http://model.test/v1 answered HTTP 500: boom$"):
        endpoint.chat("m", [], client=serve(500, b"boom"))
    with pytest.raises(ModelError, match=r"did not answer with a chat completion: <html>"):
        endpoint.chat("m", [], client=serve(200, b"<html>"))
    with pytest.raises(ModelError, match=r"did not answer with a chat completion"):
        endpoint.chat("m", [], client=serve(200, b'{"choices": [{"message": {"content": null}}]}'))

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(ModelError, match=r"^could not reach http://model.test/v1: refused$"):
        endpoint.chat("m", [], client=httpx.Client(transport=httpx.MockTransport(refuse)))
