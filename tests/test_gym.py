"""The Gymnasium environment (soundstage.gym): text actions and observations, the score as the reward."""

from __future__ import annotations

import json

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed: pip install 'soundstage[gym]'")

from gymnasium.utils.env_checker import check_env

from soundstage.gym import SceneEnv


def call(tool: str, **arguments: object) -> str:
    return json.dumps({"tool": tool, "arguments": arguments})


def scripted_policy(observation: dict, memory: dict) -> str:
    """A fake policy: the csv-export solution as a script that reads each observation."""
    content = json.loads(observation["content"]) if observation["content"] and not observation["is_error"] else None
    step = memory.setdefault("step", 0)
    memory["step"] += 1
    if step == 0:
        return call("slack_list_channels")
    if step == 1:
        memory["channels"] = {c["name"]: c["id"] for c in content["channels"]}
        return call("slack_get_channel_history", channel_id=memory["channels"]["support"])
    if step == 2:
        memory["question"] = next(m["ts"] for m in content["messages"] if "export" in m["text"].lower())
        return call("slack_get_channel_history", channel_id=memory["channels"]["engineering"])
    if step == 3:
        answer = next(m["text"] for m in content["messages"] if "lives under" in m["text"])
        where = answer.split("lives under", 1)[-1].split(".")[0].strip().replace("&gt;", ">")
        text = f"The CSV export is under {where}. {answer.split('.', 1)[-1].strip()}"
        return call(
            "slack_reply_to_thread", channel_id=memory["channels"]["support"], thread_ts=memory["question"], text=text
        )
    if step == 4:
        support = memory["channels"]["support"]
        return call("slack_add_reaction", channel_id=support, timestamp=memory["question"], reaction="white_check_mark")
    return json.dumps({"finish": "answered in the thread"})


def test_a_scripted_policy_earns_the_score_as_its_reward() -> None:
    env = SceneEnv("csv-export")
    text, info = env.reset(seed=7)
    assert env.observation_space.contains(text)
    assert info["tools"][0]["function"]["name"] == "slack_list_channels"
    memory: dict = {}
    rewards = []
    terminated = truncated = False
    while not (terminated or truncated):
        action = scripted_policy(json.loads(text), memory)
        assert env.action_space.contains(action)
        text, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(text)
        rewards.append(reward)
    assert (terminated, truncated) == (True, False)
    assert rewards == [0.0] * 5 + [1.0]
    assert (info["outcome"], info["score"]) == ("passed", 1.0)
    env.close()


def test_an_action_that_is_no_tool_call_is_an_error_observation_and_max_steps_truncates() -> None:
    env = SceneEnv("csv-export", max_steps=2)
    env.reset()
    text, reward, terminated, truncated, _ = env.step("not json")
    seen = json.loads(text)
    assert seen["is_error"] and seen["content"].startswith("the action is not JSON")
    assert (reward, terminated, truncated) == (0.0, False, False)
    text, reward, terminated, truncated, info = env.step(json.dumps({"tool": "slack_list_channels", "arguments": []}))
    # The second step reaches max_steps: the episode is graded as it is, and truncated.
    assert (terminated, truncated, info["outcome"]) == (False, True, "failed")
    assert reward == info["score"] > 0


def test_the_gymnasium_checker_accepts_it() -> None:
    check_env(SceneEnv("csv-export"), skip_render_check=True)
