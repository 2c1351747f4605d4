"""The OpenEnv environment (soundstage.openenv): driven by OpenEnv's own server and client, the score as the
reward."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("openenv.core", reason="the openenv extra is not installed: pip install 'soundstage[openenv]'")

import uvicorn
from openenv.core.env_server import create_fastapi_app
from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction
from openenv.core.env_server.types import Action
from openenv.core.generic_client import GenericEnvClient
from tests.policies import careless, diligent
from tests.ports import free_port

from soundstage.environment import StepResult
from soundstage.errors import UsageError
from soundstage.openenv import FINISH, SceneEnvironment, SceneObservation
from soundstage.server.mcp import TOOLED


class OverTheWire:
    """A policy's steps sent as OpenEnv `call_tool` actions through OpenEnv's own client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def step(self, tool: str, arguments: dict[str, Any]) -> StepResult:
        result = self.client.step({"type": "call_tool", "tool_name": tool, "arguments": arguments})
        assert (result.done, result.reward) == (False, None)
        answer = result.observation["result"]
        return StepResult(answer["content"][0]["text"], answer["isError"], 0)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """OpenEnv's server of csv-export episodes, one environment per session, on a port of its own."""
    app = create_fastapi_app(SceneEnvironment.factory("csv-export"), CallToolAction, SceneObservation)
    port = free_port()
    serving = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=serving.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not serving.started:
        assert time.monotonic() < deadline, "OpenEnv's server did not start"
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    serving.should_exit = True
    thread.join(10)


@pytest.mark.parametrize(("policy", "reward", "outcome"), [(careless, 0.4286, "failed"), (diligent, 1.0, "passed")])
def test_a_policy_driven_through_openenvs_client_earns_its_score(
    server: str, policy: Any, reward: float, outcome: str
) -> None:
    with GenericEnvClient(base_url=server).sync() as client:
        for _ in range(2):  # a session's second episode is a fresh world too
            started = client.reset()
            assert started.observation["task"].startswith("You are Stage Bot, Acme's support assistant in Slack.")
            names = [tool["name"] for tool in started.observation["tools"]]
            assert names[0] == "slack_list_channels" and names[-1] == FINISH
            policy(OverTheWire(client))
            ended = client.step({"type": "call_tool", "tool_name": "finish", "arguments": {"output": "done"}})
            assert (ended.done, round(ended.reward, 4)) == (True, reward)
            state = client.state()
            assert (state["episode_id"], state["outcome"]) == (started.observation["world"], outcome)


def test_no_services_tool_is_named_finish() -> None:
    assert FINISH not in {tool.name for tools in TOOLED.values() for tool in tools.all()}


def test_list_tools_a_tools_error_and_max_steps() -> None:
    env = SceneEnvironment("csv-export", max_steps=2)
    started = env.reset(seed=3, episode_id="ep-1")
    listed = env.step(ListToolsAction())
    assert listed.tools == started.tools and listed.tools[-1].name == "finish"
    other = env.step(Action())  # no MCP action: an error, and no step of the episode
    assert other.error.error_type == "invalid_args" and env.state.step_count == 0
    # The vendor's error is the tool's result, as MCP gives it; the world logged the call.
    failed = env.step(CallToolAction(tool_name="slack_get_channel_history", arguments={"channel_id": "CNOPE"}))
    assert failed.result["isError"] and '"error":"channel_not_found"' in failed.result["content"][0]["text"]
    assert (failed.done, env.state.step_count, env.state.episode_id) == (False, 1, "ep-1")
    # The second call reaches max_steps: the episode is done, graded as it is.
    last = env.step(CallToolAction(tool_name="slack_list_channels", arguments={}))
    assert last.done and not last.result["isError"]
    assert (env.state.outcome, last.reward) == ("failed", env.reward.score)
    assert 0 < last.reward < 1
    with pytest.raises(UsageError):  # no episode under way
        env.step(CallToolAction(tool_name="slack_list_channels", arguments={}))
    env.close()
