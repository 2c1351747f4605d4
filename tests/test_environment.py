"""The environment for training loops (soundstage.environment): reset, step through the MCP call path, finish
with the score, and the episodes in the results store."""

from __future__ import annotations

import json

import pytest
from tests.policies import careless, diligent
from tests.stores import store_url  # noqa: F401 (a fixture)

from soundstage.environment import Environment
from soundstage.errors import UsageError
from soundstage.rehearsal import Stage
from soundstage.server.mcp import TOOLED
from soundstage.store import open_store

SLACK_TOOLS = [
    "slack_list_channels",
    "slack_post_message",
    "slack_reply_to_thread",
    "slack_add_reaction",
    "slack_get_channel_history",
    "slack_get_thread_replies",
    "slack_get_users",
    "slack_get_user_profile",
    "conversations_search_messages",
]


def test_reset_offers_the_task_and_the_tools_of_the_agents_credentials() -> None:
    env = Environment("csv-export")
    observation = env.reset()
    assert observation.task.startswith("You are Stage Bot, Acme's support assistant in Slack.")
    tools = TOOLED["slack"].all()
    slack = [t for t in observation.tools if t["function"]["name"] in SLACK_TOOLS]
    assert slack == [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": dict(t.input_schema)},
        }
        for t in tools
    ]
    assert [t["name"] for t in observation.mcp_tools] == [t["function"]["name"] for t in observation.tools]
    assert observation.mcp_tools[0]["inputSchema"] == observation.tools[0]["function"]["parameters"]
    # No server serves the environment's own hub: no URLs to hand out.
    assert (observation.urls, observation.env) == ({}, {})


def test_a_step_is_the_mcp_call_logged_once_with_its_tool() -> None:
    with Stage() as stage:
        env = Environment("csv-export", hub=stage.hub, url=stage.url)
        observation = env.reset()
        assert observation.urls["slack"] == f"{stage.url}/w/{observation.world}/slack"
        assert observation.env["SLACK_BOT_TOKEN"].startswith("xoxb-")
        result = env.step("slack_get_channel_history", {"channel_id": "C2FJSP4FLTM", "limit": 1})
        world = stage.hub.worlds[observation.world]
        [event] = world.log.calls()
        assert event.seq == result.seq
        assert event.mcp == {
            "tool": "slack_get_channel_history",
            "arguments": {"channel_id": "C2FJSP4FLTM", "limit": 1},
        }
        assert (event.path, event.status) == ("/api/conversations.history", 200)
        # The same as the REST call the tool stands for answers.
        assert json.loads(result.content) == event.response
        assert not result.is_error


def test_an_unknown_tool_and_bad_arguments_are_the_tools_errors() -> None:
    with Stage() as stage:
        env = Environment("csv-export", hub=stage.hub, url=stage.url)
        world = stage.hub.worlds[env.reset().world]
        unknown = env.step("slack_delete_everything", {})
        assert (unknown.content, unknown.is_error) == ("Unknown tool: slack_delete_everything", True)
        bad = env.step("slack_reply_to_thread", {"channel_id": "C1"})
        assert bad.is_error and bad.content.startswith("invalid arguments: arguments: 'thread_ts' is a required")
        first, second = world.log.calls()
        assert (first.seq, first.status, first.unimplemented) == (unknown.seq, 404, True)
        assert (second.seq, second.status, second.unimplemented) == (bad.seq, 400, False)


def test_finish_grades_the_episode_and_drops_its_world() -> None:
    env = Environment("csv-export")
    world = env.reset().world
    diligent(env)
    reward = env.finish("answered")
    assert (reward.outcome, reward.score) == ("passed", 1.0)
    assert reward.evaluation.score == 1.0
    assert world not in env.hub.worlds
    with pytest.raises(UsageError, match=r"no episode is under way: call reset\(\)"):
        env.step("slack_list_channels", {})
    with pytest.raises(UsageError, match="no episode is under way"):
        env.finish()


def test_reset_drops_an_episode_under_way() -> None:
    env = Environment("csv-export")
    first = env.reset().world
    second = env.reset().world
    assert first != second and list(env.hub.worlds) == [second]
    assert [(e.outcome, e.finish_reason) for e in env.episodes] == [("invalid", "dropped")]


def test_advance_moves_the_episodes_clock() -> None:
    env = Environment("csv-export")
    env.reset()
    assert env.advance("1h") == "2026-03-02T15:00:00Z"
    with pytest.raises(UsageError, match="duration"):
        env.advance("soon")


def test_a_better_script_shows_a_higher_reward_in_the_store(store_url: str) -> None:  # noqa: F811
    runs = {}
    for name, policy in (("careless", careless), ("diligent", diligent)):
        with Environment("csv-export", store=store_url, policy=name) as env:
            for _ in range(3):
                env.reset()
                policy(env)
                env.finish()
            assert env.run is not None
            runs[name] = env.run.run_id
    store = open_store(store_url)
    assert store is not None
    try:
        scores = {}
        for name, run_id in runs.items():
            run = store.run(run_id)
            assert run is not None and run.agent == name and run.finished_at is not None
            assert [t.trial for t in run.results] == [1, 2, 3]
            scores[name] = [t.score for t in run.results]
    finally:
        store.close()
    assert scores == {"careless": [0.4286] * 3, "diligent": [1.0] * 3}
