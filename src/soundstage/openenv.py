"""An OpenEnv environment over `soundstage.environment` (docs/environment.md, "OpenEnv"), with the `openenv` extra:
`pip install 'soundstage[openenv]'`.

    env = SceneEnvironment("csv-export")
    observation = env.reset()                   # observation.task, observation.tools (OpenEnv's MCP `Tool`s)
    observation = env.step(CallToolAction(tool_name="slack_list_channels", arguments={}))
    ...
    env.step(CallToolAction(tool_name="finish", arguments={"output": "..."}))   # done; reward: the score

The actions are OpenEnv's own MCP actions (`ListToolsAction`, `CallToolAction`), so its HTTP server
(`create_app(SceneEnvironment.factory(...), CallToolAction, SceneObservation)`) and clients drive a scene as
they drive any MCP environment. The episode ends with a call of one more tool, `finish`, whose `output` is what
the agent says it did (no service's MCP tool has that name).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openenv.core.env_server.interfaces import Environment as OpenEnvironment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation, State

from .environment import Environment, Reward
from .server import Hub

FINISH = "finish"
_FINISH_TOOL = Tool(
    name=FINISH,
    description="End the episode: say what you did. The episode is graded on the world as it is then.",
    input_schema={
        "type": "object",
        "properties": {"output": {"type": "string", "description": "What you did, as you would report it."}},
        "additionalProperties": False,
    },
)


class SceneObservation(Observation):
    """What an episode starts with: its world's id, the task and the tools (the world's MCP tools, then
    `finish`)."""

    world: str
    task: str
    tools: list[Tool]


class SceneEnvironment(OpenEnvironment):
    """A scene's episodes as an OpenEnv environment. The keyword arguments are `Environment`'s (a hub, a store
    and the policy's name). Each instance runs its own episodes (an OpenEnv server makes one per session). An
    episode that reaches `max_steps` calls is done, graded as it is. `state` holds the episode's outcome and
    score once it is done, as OpenEnv's clients see only the observation's own fields and the reward."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # each instance has its own worlds

    def __init__(self, scene: str, max_steps: int = 50, **environment: Any) -> None:
        super().__init__()
        self.environment = Environment(scene, **environment)
        self.max_steps = max_steps
        self.tools: list[Tool] = []
        self.reward: Reward | None = None  # the last episode's, once it is done
        self._state = State()

    @classmethod
    def factory(cls, scene: str, **options: Any) -> Callable[[], SceneEnvironment]:
        """What OpenEnv's `create_app` takes: a maker of environments, one per session, all on one hub unless
        `options` name one (so the scene's image is built once)."""
        options.setdefault("hub", Hub(idle_ttl=None, finished_ttl=None))
        return lambda: cls(scene, **options)

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> SceneObservation:
        """A new episode in a fresh world of the scene. `seed` changes nothing: a scene's world is always the
        same. `episode_id`, when given, names the episode in `state` (the world's id otherwise)."""
        observation = self.environment.reset()
        offered = observation.mcp_tools
        self.tools = [
            Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"]) for t in offered
        ]
        self.tools.append(_FINISH_TOOL)
        self.reward = None
        self._state = State(episode_id=episode_id or observation.world, step_count=0)
        return SceneObservation(world=observation.world, task=observation.task, tools=self.tools)

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        """Lists the tools, or calls one: a tool of the world (its answer is the result, an MCP `tools/call`
        result), or `finish`, which ends the episode with its score as the reward."""
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=self.tools)
        if not isinstance(action, CallToolAction):
            problem = f"{type(action).__name__} is no action of this environment: list the tools or call one"
            error = ToolError(error_type=ToolErrorType.INVALID_ARGS, message=problem)
            return CallToolObservation(tool_name="", error=error)
        if action.tool_name == FINISH:
            output = action.arguments.get("output")
            reward = self.environment.finish(output if isinstance(output, str) else None)
            self._state.step_count += 1
            return self._end(action.tool_name, reward)
        result = self.environment.step(action.tool_name, action.arguments)  # UsageError when no episode is under way
        self._state.step_count += 1
        answer = {"content": [{"type": "text", "text": result.content}], "isError": result.is_error}
        if self._state.step_count >= self.max_steps:
            return self._end(action.tool_name, self.environment.finish(None), answer)
        return CallToolObservation(tool_name=action.tool_name, result=answer, metadata={"seq": result.seq})

    @property
    def state(self) -> State:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        scene = self.environment.scene
        return EnvironmentMetadata(name=scene, description=f"the soundstage scene {scene}", version="1")

    def close(self) -> None:
        self.environment.close()

    def _end(self, tool: str, reward: Reward, answer: dict[str, Any] | None = None) -> CallToolObservation:
        self.reward = reward
        self._state.outcome, self._state.score = reward.outcome, reward.score
        return CallToolObservation(tool_name=tool, result=answer, done=True, reward=reward.score or 0.0)
