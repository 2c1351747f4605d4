"""A Gymnasium environment over `soundstage.environment` (docs/environment.md, "Gymnasium"), with the `gym` extra:
`pip install 'soundstage[gym]'`.

    env = SceneEnv("csv-export")
    observation, info = env.reset(seed=0)       # info: the tools as OpenAI function schemas
    observation, reward, terminated, truncated, info = env.step('{"tool": "slack_list_channels", "arguments": {}}')
    ...
    env.step('{"finish": "what the agent says it did"}')      # terminated; reward: the episode's score

An action is text, a JSON object: a tool call (`tool`, `arguments`) or the end of the episode (`finish`, the
agent's output). An observation is text too, a JSON object written in ASCII: the task, and the last tool result
(`content`, `is_error`), or why the action was no tool call. The reward is 0 until the episode ends, then its
score (0 for an episode that could not be judged); an episode that reaches `max_steps` is truncated and graded
as it is.
"""

from __future__ import annotations

import json
import string
from typing import Any

import gymnasium
from gymnasium import spaces

from .environment import Environment, Reward

# How long an action or observation may be, as Gymnasium's text spaces need a bound: a tool result longer than
# this is cut, and the observation says how long it was (`cut`).
MAX_TEXT = 1 << 20
# JSON in ASCII is made of these.
_CHARSET = frozenset(string.printable)


class SceneEnv(gymnasium.Env[str, str]):
    """A scene's episodes as a Gymnasium environment. The keyword arguments are `Environment`'s (a hub, a store
    and the policy's name). `seed` seeds the environment's own random generator (`np_random`), as Gymnasium asks;
    the world is the scene's whatever the seed, as a scene's world is always the same."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, scene: str, max_steps: int = 50, **environment: Any) -> None:
        self.environment = Environment(scene, **environment)
        self.max_steps = max_steps
        self.action_space = spaces.Text(MAX_TEXT, min_length=2, charset=_CHARSET)
        self.observation_space = spaces.Text(MAX_TEXT, min_length=2, charset=_CHARSET)
        self._task = ""
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        observation = self.environment.reset()
        self._task, self._steps = observation.task, 0
        info = {"world": observation.world, "tools": observation.tools, "mcp_tools": observation.mcp_tools}
        return self._observe(None, False), info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._steps += 1
        try:
            call = json.loads(action)
        except ValueError as exc:
            call = f"the action is not JSON: {exc}"
        if isinstance(call, dict) and set(call) == {"finish"} and isinstance(call["finish"], str | None):
            return self._end(self.environment.finish(call["finish"]), terminated=True)
        if isinstance(call, dict) and isinstance(call.get("tool"), str) and set(call) <= {"tool", "arguments"}:
            arguments = call.get("arguments", {})
            if isinstance(arguments, dict):
                result = self.environment.step(call["tool"], arguments)
                observation, info = self._observe(result.content, result.is_error), {"seq": result.seq}
            else:
                observation, info = self._observe('"arguments" must be a JSON object', True), {}
        else:
            problem = call if isinstance(call, str) else 'give {"tool": ..., "arguments": {...}} or {"finish": ...}'
            observation, info = self._observe(problem, True), {}
        if self._steps >= self.max_steps:
            return self._end(self.environment.finish(None), terminated=False)
        return observation, 0.0, False, False, info

    def close(self) -> None:
        self.environment.close()

    def _end(self, reward: Reward, terminated: bool) -> tuple[str, float, bool, bool, dict[str, Any]]:
        info = {"outcome": reward.outcome, "score": reward.score, "evaluation": reward.evaluation}
        return self._observe(None, False), reward.score or 0.0, terminated, not terminated, info

    def _observe(self, content: str | None, is_error: bool) -> str:
        seen: dict[str, Any] = {"task": self._task, "content": content, "is_error": is_error}
        text = json.dumps(seen)
        kept = content or ""
        while len(text) > MAX_TEXT:  # each cut takes at least the excess off: escapes only make it longer
            kept = kept[: len(kept) - (len(text) - MAX_TEXT) - 64]
            seen.update(content=kept, cut=len(content or ""))
            text = json.dumps(seen)
        return text
