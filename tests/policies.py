"""Two policies for csv-export as tool calls, for the environments' tests: one careless, one diligent. Each
takes anything with the environment's `step(tool, arguments) -> StepResult`."""

from __future__ import annotations

import json
from typing import Any, Protocol

from soundstage.environment import StepResult


class Steps(Protocol):
    def step(self, tool: str, arguments: dict[str, Any]) -> StepResult: ...


def _json(result: StepResult) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content)


def careless(env: Steps) -> None:
    """Answers in the channel, without looking anything up or replying in the question's thread."""
    channels = _json(env.step("slack_list_channels", {}))["channels"]
    support = next(c["id"] for c in channels if c["name"] == "support")
    env.step("slack_post_message", {"channel_id": support, "text": "Have a look at the docs."})


def diligent(env: Steps) -> None:
    """What examples/agents/csv_export.py does, as tool calls: finds the question and the colleagues' answer,
    replies in the question's thread and marks it handled."""
    channels = {c["name"]: c for c in _json(env.step("slack_list_channels", {}))["channels"]}
    support = channels["support"]["id"]
    history = _json(env.step("slack_get_channel_history", {"channel_id": support, "limit": 50}))["messages"]
    question = next(m for m in history if "?" in m["text"] and "export" in m["text"].lower())
    answer = None
    for channel in channels.values():
        if channel.get("is_member") and channel["id"] != support and answer is None:
            messages = _json(env.step("slack_get_channel_history", {"channel_id": channel["id"]}))["messages"]
            answer = next((m["text"] for m in messages if "lives under" in m["text"]), None)
    assert answer is not None
    where = answer.split("lives under", 1)[-1].split(".")[0].strip().replace("&gt;", ">")
    reply = f"The CSV export is under {where}. {answer.split('.', 1)[-1].strip()}"
    env.step("slack_reply_to_thread", {"channel_id": support, "thread_ts": question["ts"], "text": reply})
    env.step("slack_add_reaction", {"channel_id": support, "timestamp": question["ts"], "reaction": "white_check_mark"})
