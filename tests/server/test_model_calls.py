"""The agent's model calls through the interception proxy (docs/interception.md, "Model calls"): captured in the
trace with their model, tokens and latency, their bodies only when asked, and refused past a world's token cap.
The model is tests/models.py's scripted one, over TLS at 127.0.0.2 (a loopback address the agent's NO_PROXY does
not name), its certificate from a CA of the test's that the proxy trusts through SSL_CERT_FILE."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import trustme
from tests.models import History, ScriptedModel, scripted_model

from soundstage.events import ModelCallEvent
from soundstage.server import Server
from soundstage.server.model_calls import ModelCapture
from soundstage.server.runs import counts
from soundstage.world import World

from .test_control import SCENE
from .test_proxy import calls

MODEL_HOST = "127.0.0.2"


def list_channels(history: History) -> tuple[str, dict[str, Any]]:
    """A model that asks for the channels, whatever it is told."""
    return "list_channels", {"limit": 10}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScriptedModel]:
    """The scripted model over TLS; the test process (where the proxy runs) trusts its CA."""
    ca = trustme.CA()
    bundle = tmp_path_factory.mktemp("model-ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(MODEL_HOST).configure_cert(context)
    with pytest.MonkeyPatch.context() as patch, scripted_model(list_channels, context, MODEL_HOST) as running:
        patch.setenv("SSL_CERT_FILE", str(bundle))
        yield running


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


def live(server: Server, capture: ModelCapture) -> tuple[World, httpx.Client]:
    """A world whose agent's model calls are captured as `capture` says, and a client with its environment."""
    world = server.hub.add(server.hub.images.load(scene_yaml=SCENE), capture)
    env = server.hub.environment(world, server.url)
    client = httpx.Client(
        proxy=env["HTTPS_PROXY"],
        verify=ssl.create_default_context(cafile=env["SSL_CERT_FILE"]),
        timeout=30,
        trust_env=False,
    )
    return world, client


def ask(client: httpx.Client, model: ScriptedModel, messages: int, **options: Any) -> httpx.Response:
    body = {"model": "scripted", "messages": [{"role": "user", "content": "hi"}] * messages, **options}
    return client.post(f"{model.url}/chat/completions", json=body, headers={"authorization": "Bearer sk-test"})


def model_calls(world: World) -> list[ModelCallEvent]:
    return [event for event in world.log.events if isinstance(event, ModelCallEvent)]


def capture(model: ScriptedModel, **options: Any) -> ModelCapture:
    return ModelCapture.of([f"{MODEL_HOST}:{model.server_address[1]}"], **options)


def test_a_model_call_is_captured_with_its_model_and_tokens_not_its_bodies(
    server: Server, model: ScriptedModel
) -> None:
    world, client = live(server, capture(model))
    with client:
        answer = ask(client, model, 2)
    assert answer.status_code == 200
    assert answer.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "list_channels"
    assert model.requests[-1]["authorization"] == "Bearer sk-test"  # the agent's own key reaches the model

    (call,) = model_calls(world)
    assert call.model_dump(exclude={"seq", "t", "latency_ms"}) == {
        "kind": "model_call",
        "host": f"{MODEL_HOST}:{model.server_address[1]}",
        "method": "POST",
        "path": "/v1/chat/completions",
        "model": "scripted",
        "status": 200,
        "usage": {"prompt_tokens": 20, "completion_tokens": 5, "total_tokens": 25},
        "stream": False,
        "refused": None,
        "request": None,
        "response": None,
    }
    assert call.latency_ms >= 0
    # The connection to the host is an outside call as any other; the model call is counted apart.
    assert calls(world) == [("outside", "CONNECT", f"/{MODEL_HOST}:{model.server_address[1]}", 200)]
    found = counts(world)
    assert (found.calls, found.model_calls, found.model_tokens, found.model_refused) == (1, 1, 25, 0)


def test_the_bodies_are_kept_when_asked_and_a_stream_is_put_together(server: Server, model: ScriptedModel) -> None:
    world, client = live(server, capture(model, bodies=True))
    with client:
        plain = ask(client, model, 1)
        streamed = ask(client, model, 1, stream=True)
    assert streamed.text.count("data: ") == 5  # the chunks reached the agent as the model sent them: 4 and DONE

    first, second = model_calls(world)
    assert first.request["messages"] == [{"role": "user", "content": "hi"}]
    assert first.response == plain.json()
    # A stream without `include_usage` tells no usage, and none is asked for without a cap.
    assert (second.stream, second.usage, model.requests[-1].get("stream_options")) == (True, None, None)
    assert second.response["choices"] == [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": f"call_{len(model.requests)}",
                        "type": "function",
                        "function": {"name": "list_channels", "arguments": '{"limit": 10}'},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ]


def test_past_the_token_cap_a_call_is_refused_and_logged(server: Server, model: ScriptedModel) -> None:
    world, client = live(server, capture(model, max_tokens=40))
    with client:
        first = ask(client, model, 2)  # 25 tokens: under the cap
        second = ask(client, model, 1, stream=True)  # the usage a capped stream is made to tell: 15, 40 in all
        served = len(model.requests)
        refused = ask(client, model, 1)

    assert (first.status_code, second.status_code, refused.status_code) == (200, 200, 429)
    assert model.requests[served - 1]["stream_options"] == {"include_usage": True}
    assert len(model.requests) == served  # the refused call never reached the model
    assert refused.headers["x-should-retry"] == "false"  # OpenAI's clients take it as final
    assert refused.json()["error"]["code"] == "token_cap"
    assert "used 40 tokens, its cap of 40" in refused.json()["error"]["message"]
    assert [(c.status, c.usage and c.usage["total_tokens"], c.refused) for c in model_calls(world)] == [
        (200, 25, None),
        (200, 15, None),
        (429, None, "token_cap"),
    ]
    found = counts(world)
    assert (found.model_calls, found.model_tokens, found.model_refused) == (3, 40, 1)


def test_an_agent_cannot_lower_its_usage_by_asking_a_stream_without_it(server: Server, model: ScriptedModel) -> None:
    world, client = live(server, capture(model, max_tokens=1000))
    with client:
        ask(client, model, 3, stream=True, stream_options={"include_usage": False})
    assert model.requests[-1]["stream_options"] == {"include_usage": True}
    assert [c.usage for c in model_calls(world)] == [{"prompt_tokens": 30, "completion_tokens": 5, "total_tokens": 35}]


def test_a_host_not_captured_is_tunnelled_as_before(server: Server, model: ScriptedModel) -> None:
    world, client = live(server, ModelCapture())  # the default hosts only: the model's is an outside one
    with client, pytest.raises(httpx.ProxyError):
        ask(client, model, 1)  # 127.0.0.2 is not public, and neither the scene nor the run allows it
    assert model_calls(world) == []
    assert calls(world) == [("outside", "CONNECT", f"/{MODEL_HOST}:{model.server_address[1]}", 403)]
