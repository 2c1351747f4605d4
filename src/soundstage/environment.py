"""Environments for training loops (docs/environment.md): a scene's episodes driven by reset, step and finish.

    env = Environment("csv-export", store="sqlite:///results.db", policy="v2")
    obs = env.reset()                                   # a fresh world: the task, the tools
    result = env.step("slack_list_channels", {})        # one tool call against the world
    reward = env.finish(output="...")                   # the score, the outcome, every check
    env.close()                                         # the session's run ends in the store

Each episode is a new world of the scene, made from its cached image, and a step is exactly a call of the MCP
endpoint that serves every service (server/mcp.py, `call_tool`): the same tools, argument checks, logging (the
call's event names the tool), rate limits, faults and people. Everything runs in this process, on a hub of its
own or the one given (a `Stage`'s), without HTTP. With a store, each episode finished is written as a trial of
one run per environment, so `soundstage show` and `history` show the rewards as training goes on.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Self

from .checks import Evaluation, score
from .clock import iso, parse_duration
from .errors import InfrastructureError, UsageError
from .results import Outcome, ResultsSink, Run, exit_code, outcome, run_figures
from .results import Trial as Episode
from .server import Hub
from .server.mcp import Endpoint, UnknownTool, call_tool, every_service, function_schemas, offered
from .server.runs import DROPPED, live_trial
from .store import Store, open_store
from .world import World

# The base of the URLs a world's answers link to when no server serves the hub: a name that resolves nowhere.
UNSERVED = "http://soundstage.invalid"


@dataclass(frozen=True)
class Observation:
    """What an episode starts with: the task, the tools as OpenAI function schemas (`tools`) and as MCP lists them
    (`mcp_tools`), and, when a server serves the hub, the services' URLs and the agent's environment."""

    world: str
    task: str
    tools: list[dict[str, Any]]
    mcp_tools: list[dict[str, Any]]
    urls: dict[str, str]
    env: dict[str, Any]


@dataclass(frozen=True)
class StepResult:
    """A tool call's result: its text (the REST answer's body, as the vendor's MCP server gives it), whether it is
    the tool's error, and the seq of the call's event in the world's log."""

    content: str
    is_error: bool
    seq: int


@dataclass(frozen=True)
class Reward:
    """How an episode was graded: its score (the weighted share of its checks, 0 to 1; None when it could not be
    judged or has no checks), its outcome, and the evaluation with every check's result."""

    score: float | None
    outcome: Outcome
    evaluation: Evaluation


class Environment:
    """A scene's episodes, one at a time: `reset` makes a fresh world, `step` calls a tool in it, `finish` grades
    it and drops it. `hub` and `url`: a `Stage`'s (`stage.hub`, `stage.url`), so the services' URLs in the
    observation are served too; by default a hub of its own that no server serves. `store`: a results store (a
    database URL, or an open one) the episodes are written to, as trials of one run whose
    agent is `policy`."""

    def __init__(
        self,
        scene: str,
        hub: Hub | None = None,
        url: str | None = None,
        store: str | ResultsSink | None = None,
        policy: str = "environment",
    ) -> None:
        self.hub = hub or Hub(idle_ttl=None, finished_ttl=None)
        self.url = url
        self.image = self.hub.images.load(scene=scene)
        self.scene = self.image.name
        self.policy = policy
        self.store: ResultsSink | None = open_store(store) if isinstance(store, str) else store
        self._opened = isinstance(store, str)  # closed with the environment
        self.run: Run | None = None  # written at the first episode's end
        self.episodes: list[Episode] = []
        self.world: World | None = None  # the episode under way
        self._endpoint: Endpoint | None = None
        self._started = 0.0
        self._schemas: dict[tuple[str, ...], tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    def reset(self) -> Observation:
        """Starts an episode in a fresh world of the scene. An episode still under way is ended first: its world
        is dropped and it is recorded `invalid` (`dropped`), as a run's trial whose world went away is."""
        if self.world is not None:
            world, self.world, self._endpoint = self.world, None, None
            self.hub.drop(world.id)
            self._record(
                live_trial(self.scene, len(self.episodes) + 1, world.id, self._started, "invalid", DROPPED, None, [])
            )
        world = self.hub.add(self.image)
        self._started = time.monotonic()
        endpoint = every_service(self.hub, world, self.url or UNSERVED)
        self.world, self._endpoint = world, endpoint
        schemas = self._schemas.get(key := tuple(endpoint.tools))
        if schemas is None:  # the same tools every episode: the scene hands the same credentials
            named = offered(endpoint)
            mcp = [{"name": name, "description": text, "inputSchema": schema} for name, text, schema in named]
            schemas = self._schemas[key] = (function_schemas(named), mcp)
        served = self.url is not None
        return Observation(
            world=world.id,
            task=world.task,
            tools=schemas[0],
            mcp_tools=schemas[1],
            urls=self.hub.urls(world, self.url) if served else {},  # type: ignore[arg-type]
            env=self.hub.environment(world, self.url) if served else {},  # type: ignore[arg-type]
        )

    def step(self, tool: str, arguments: dict[str, Any] | None = None) -> StepResult:
        """Calls `tool` with `arguments` in the episode's world, as the agent's MCP client would. A tool the world
        does not serve, or arguments its schema refuses, is the tool's error (logged, as over MCP; an unknown
        tool counts as an unimplemented call)."""
        endpoint = self._under_way()
        try:
            result = call_tool(endpoint, tool, arguments if arguments is not None else {})
        except UnknownTool as exc:
            return StepResult(str(exc), True, exc.seq)
        if result.real_delay_ms:  # a slow api fault holds the answer for real time, as over HTTP
            time.sleep(result.real_delay_ms / 1000)
        return StepResult("\n".join(result.texts), result.is_error, result.seq)

    def advance(self, duration: str) -> str:
        """Moves the episode's clock on (`"5m"`): steps move it only as calls do (a tick each), so people who
        answer later answer only once time passes. Answers the new time."""
        world = self._under_way().world
        try:
            us = parse_duration(duration)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        world.advance(us)
        return iso(world.now())

    def finish(self, output: str | None = None) -> Reward:
        """Ends the episode with the agent's `output` (what it would say it did), grades it by the scene's
        checks, records it in the store and drops its world."""
        endpoint = self._under_way()
        world = endpoint.world
        world.finish(output or "")
        with world.lock:
            evaluation = score(world)
            graded = outcome(evaluation.checks)
            episode = live_trial(
                self.scene,
                len(self.episodes) + 1,
                world.id,
                self._started,
                graded,
                "finished",
                world,
                evaluation.checks,
            )
        self.world, self._endpoint = None, None
        self.hub.drop(world.id)
        self._record(episode)
        return Reward(episode.score, graded, evaluation)

    def close(self) -> None:
        """Drops an episode still under way (recorded as dropped) and ends the session's run in the store."""
        if self.world is not None:
            world, self.world, self._endpoint = self.world, None, None
            self.hub.drop(world.id)
            self._record(
                live_trial(self.scene, len(self.episodes) + 1, world.id, self._started, "invalid", DROPPED, None, [])
            )
        if self.run is not None and self.store is not None:
            ended = self.run.model_copy(
                update={
                    "finished_at": _now(),
                    "exit_code": exit_code(self.episodes),
                    "trials": len(self.episodes),
                    "figures": run_figures(self.episodes),
                }
            )
            self._write(lambda store: store.finish_run(ended))
        if self._opened and isinstance(self.store, Store):
            self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _under_way(self) -> Endpoint:
        if self._endpoint is None:
            raise UsageError("no episode is under way: call reset() to start one (a finished episode's world is gone)")
        return self._endpoint

    def _record(self, episode: Episode) -> None:
        self.episodes.append(episode)
        if self.store is None:
            return
        if self.run is None:
            self.run = Run(
                run_id="run_" + secrets.token_hex(16),
                folder="",
                agent=self.policy,
                scenes=[self.scene],
                trials=0,  # as many as the session runs: unknown until it ends
                started_at=_now(),
            )
            run = self.run
            self._write(lambda store: store.start_run(run))
        run_id = self.run.run_id
        self._write(lambda store: store.write_trial(run_id, episode))

    def _write(self, write: Callable[[ResultsSink], None]) -> None:
        if self.store is None:
            return
        try:
            write(self.store)
        except InfrastructureError as exc:
            raise UsageError(f"the results store could not be written: {exc}") from None


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
