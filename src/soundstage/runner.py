"""Running an agent against live worlds: trials, their folders (docs/cli.md) and the run's result.

One server serves the whole run. Each trial builds a fresh live world, starts the agent as a process
with the agent's environment (docs/http.md), waits until it exits, finishes through the control API, or runs out
of time, ends whatever the agent left running, then scores the world and writes the trial folder. The agent
runs under a supervisor process (supervisor.py) that can end its whole tree. The wall clock is read here only
to time trials, to name the run folder and to date
the run in the results store; none of it enters a world.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from .checks import score
from .checks.evaluate import INITIAL_FILE, WRITES_FILE
from .checks.python import sources
from .clock import US
from .errors import UsageError
from .events import CallEvent, Event, FinishEvent, ModelCallEvent, WriteEvent
from .guard import undumpable
from .home import home
from .people.understanding_model import cache_path
from .results import Run, RunWriter, Trial, exit_code, outcome, run_figures
from .results.digests import file_digest
from .results.files import CHECKS_FILE, RESULT_FILE, checks_json, encoded, result_json, write
from .results.trial import not_started
from .sandbox import BWRAP, NONE, Cover, bwrap_command, choose, command_words, needed_folders, unstartable
from .server import Hub, Server
from .server.hub import TRUST_VARIABLES
from .server.model_calls import ModelCapture
from .server.runs import counts
from .spec.fields import env_name
from .spec.suites import expand_suites
from .stage import ImageCache, WorldImage
from .store import DB_FILE
from .world import World

if TYPE_CHECKING:  # SQLAlchemy and Alembic are imported only by a run that writes to the store
    from .store import Store


# Of the user's environment, only these reach the agent (plus the scene's `agent.pass_env`, and `--pass-env`).
KEPT_ENV = ("PATH", "HOME", "LANG")
# How long an agent that finished through the control API may take to exit before it is killed.
FINISH_GRACE = 2.0
# The agent's supervisor, run as a script (see supervisor.py).
SUPERVISOR = Path(__file__).with_name("supervisor.py")
# How long the supervisor may take to end the agent's tree once told to, before it is killed itself.
END_GRACE = 10.0
# What more is read of the agent's stdout once the attempt has ended, should something still be writing to it.
DRAIN_LIMIT = 1 << 20
# The pauses, in seconds, before a write to the results store that failed is tried again (SQLite itself waits
# up to 5 s for a lock at each try): a store locked or unreachable for longer is given up for the run.
STORE_RETRIES = (0.5, 1.0, 2.0, 4.0)
# The scenes' images, kept for the runs that follow in this process (rehearsals and tests run many): a scene
# is built again only when one of its files changes.
IMAGES = ImageCache()


def run_scenes(
    scenes: list[str],
    agent: str,
    trials: int = 1,
    parallel: int | None = None,
    out: Path = Path("runs"),
    strict: bool = False,
    timeout: float = 300.0,
    tls: bool = False,
    cwd: Path | None = None,
    on_progress: Callable[[Trial], None] | None = None,
    store: Callable[[], Store] | None = None,
    on_start: Callable[[Path], None] | None = None,
    pass_env: list[str] | None = None,
    env: dict[str, str] | None = None,
    intercept: bool = False,
    where: TrialPool | None = None,
    sandbox: str = "auto",
    hide: list[Path] | None = None,
    on_note: Callable[[str], None] | None = None,
    capture: ModelCapture | None = None,
) -> Run:
    """Runs `agent` `trials` times against each scene (a suite stands for its scenes); writes `out/<run-id>/`.
    The server listens on http and https (`tls`: every service's URL is https). Opens the results store with
    `store` once the scenes load, before any agent starts, and writes the run there too, each trial as it ends.
    Raises SpecError, NotFound or UsageError before anything runs, InfrastructureError when the run cannot be
    carried out.
    `on_start` is given the run folder before the first trial starts, `on_progress` each trial as it ends,
    `on_note` each warning (no sandbox here; the results store failed).
    `pass_env` names variables of this process's environment the agent gets too, `env` variables with their
    values (`AgentEnv`). With `intercept`, the server also listens as the interception proxy and the agent's
    environment sends its HTTP through it, so clients left at the vendors' own hosts reach the world.
    `where` runs the trials, `parallel` at once: in threads of this process (`ThreadedTrials`, one trial at
    a time unless `parallel` says more) unless given another pool (runner_ray.py: a Ray cluster).
    `sandbox` (sandbox.py: auto, required, none) is how the agent is kept from the grader; `hide` names
    files it must not see besides the run's own (the project file). `capture` says which of the agent's model
    calls through the proxy are captured, with their bodies or not, and the tokens a trial's agent may use."""
    given = AgentEnv.of(pass_env, env)
    argv = _command(agent)
    choice = choose(sandbox)  # `required` where there is none: refused before anything is made
    undumpable()  # sandbox or not: no agent reads the admin token from this process's memory
    note = on_note or (lambda _: None)
    arguments = scenes
    scenes = expand_suites(scenes)
    if not scenes:
        raise UsageError("give at least one scene")
    if trials < 1 or (parallel is not None and parallel < 1) or timeout <= 0:
        raise UsageError("--trials and --parallel must be at least 1, and --timeout more than 0")
    images = [IMAGES.load(scene=scene) for scene in scenes]
    names = [image.name for image in images]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"two of the scenes given are named {name!r}; a run needs distinct scene names")
    opened = store() if store is not None else None
    try:
        failed = "; the run goes on, its trials written to their folders only"
        writer = RunWriter(opened, STORE_RETRIES, on_failure=lambda why: note(why + failed))
        folder = _new_run_folder(out)
        suites = [Path(argument) for argument in arguments if Path(argument).is_file()]
        cover = run_cover(out, folder, opened.file if opened is not None else None, suites, hide or [])
        plan = TrialPlan(agent, argv, timeout, cwd, given, tls, intercept, parallel, sandbox, cover, capture)
        run = Run(
            run_id=folder.name,
            folder=str(folder),
            agent=agent,
            scenes=[image.source for image in images],
            trials=trials,
            strict=strict,
            started_at=_now(),
            sandbox=choice.kind,  # this machine's (a Ray node records its own, in each trial)
        )
        writer.start(run)
        if choice.note is not None and where is None:  # said once the run starts; a Ray node says it in each trial
            note(choice.note)
        if on_start is not None:
            on_start(folder)
        ended: dict[tuple[str, int], Trial] = {}
        with contextlib.closing((where or ThreadedTrials()).run(plan, images, trials, folder)) as finishing:
            for result in finishing:  # closed on an error here too: every trial still running ends
                writer.trial(run.run_id, result)  # as each trial ends: a run stopped later keeps it
                if on_progress is not None:
                    on_progress(result)
                ended[result.scene, result.trial] = result
        run.results = [ended[name, n] for name in names for n in range(1, trials + 1)]
        run.finished_at = _now()
        run.figures = run_figures(run.results)
        run.exit_code = exit_code(run.results, strict)
        writer.finish(run)
    finally:
        if opened is not None:
            opened.close()
    if writer.failure is not None:
        again = f"soundstage load {shlex.quote(str(folder))}" + _load_options(opened, out)
        run.infrastructure.append(
            f"{writer.failure}; every trial is in its folder: write the run to the store with `{again}`"
        )
        run.exit_code = exit_code(run.results, strict, run.infrastructure)
    unsaved = writer.save(run)
    if unsaved is not None:
        run.infrastructure.append(unsaved)
        run.exit_code = exit_code(run.results, strict, run.infrastructure)
    return run


def run_cover(out: Path, folder: Path, store_file: Path | None, files: list[Path], alone: list[Path]) -> Cover:
    """What no agent of the run may see: the run folders (`out`, and the run's own in case `out` holds what
        the agent runs), the results store's file, soundstage's home but the CA certificates the agent trusts (and
    the people's understanding cache, wherever it is: what is in it decides what people reveal),
        `files` with the folders they lie in (the suites given), and the `alone` files (the project file)."""
    hidden = [out, folder, home(), cache_path(os.environ), *files, *(file.parent for file in files), *alone]
    if store_file is not None:
        sidecars = [store_file.with_name(store_file.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
        hidden += [store_file.parent, store_file, *sidecars]
    return Cover(tuple(path.absolute() for path in hidden))


def _load_options(store: Store | None, out: Path) -> str:
    """What `soundstage load` needs besides the run folder to reach `store`: nothing for the default one."""
    if store is None or store.file == (out / DB_FILE).absolute():
        return ""
    return f" --db {shlex.quote(store.shown)}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class TrialPlan:
    """How a run's trials go: the agent's command line (and its words), its time limit, working folder and
    environment, how the server listens (https for every service, the interception proxy), how many
    trials run at once (None: the pool decides), the sandbox asked for and what it must hide, and how the
    agent's model calls are captured (None: the default hosts', without bodies or cap)."""

    agent: str
    argv: list[str]
    timeout: float
    cwd: Path | None
    given: AgentEnv
    tls: bool
    intercept: bool
    parallel: int | None
    sandbox: str = NONE
    cover: Cover = field(default_factory=Cover)
    capture: ModelCapture | None = None


class TrialPool(Protocol):
    """Where a run's trials run."""

    def run(self, plan: TrialPlan, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
        """Runs trials 1 to `trials` of each image, each into `folder/<scene>/<trial>/`, and yields each as it
        ends. Closing the iteration early (an error, Ctrl-C) ends every trial still running."""
        ...


class ThreadedTrials:
    """Trials in threads of this process, against one server that serves the whole run."""

    def run(self, plan: TrialPlan, images: list[WorldImage], trials: int, folder: Path) -> Generator[Trial, None, None]:
        hub = Hub(idle_ttl=None, finished_ttl=None)  # each trial drops its own world, however slow its agent
        server = Server(hub, tls_everywhere=plan.tls, proxy_port=0 if plan.intercept else None).start()
        try:
            runner = _TrialRunner(hub, server.url, plan, folder)
            with ThreadPoolExecutor(max_workers=plan.parallel or 1) as pool:
                futures = [pool.submit(runner.run, image, n) for image in images for n in range(1, trials + 1)]
                try:
                    for future in as_completed(futures):
                        yield future.result()
                except BaseException:  # a failure of the run itself, or Ctrl-C: end every trial now
                    pool.shutdown(wait=False, cancel_futures=True)
                    runner.kill_all()
                    raise
        finally:
            server.stop()


def _command(agent: str) -> list[str]:
    try:
        argv = shlex.split(agent)
    except ValueError as exc:
        raise UsageError(f"cannot read the agent command {agent!r}: {exc}") from None
    if not argv:
        raise UsageError("the agent command is empty")
    return argv


def _new_run_folder(out: Path) -> Path:
    """`out/YYYYMMDD-HHMMSS`, or with `-2`, `-3`... when that second is taken (mkdir decides, atomically)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    number = 1
    while True:
        folder = out / (stamp if number == 1 else f"{stamp}-{number}")
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            number += 1
        except OSError as exc:
            raise UsageError(f"cannot write the run folder {folder}: {exc.strerror}") from None


@dataclass(frozen=True)
class AgentEnv:
    """What the user gives the agent besides the world's variables (docs/cli.md, "The agent's environment"):
    the names of variables of soundstage's own environment to pass on (`--pass-env`), and variables with
    their values (`--env`). Their values are secrets: soundstage writes them nowhere, and replaces them by
    `[NAME]` in what the agent prints."""

    pass_env: tuple[str, ...] = ()
    values: tuple[tuple[str, str], ...] = ()
    # The variables to pass on as the run's own process read them, where that is not the process running the
    # agent (a Ray node's stage, which serves other runs too); None: this process's environment.
    read: tuple[tuple[str, str], ...] | None = None

    @classmethod
    def of(cls, pass_env: list[str] | None = None, env: dict[str, str] | None = None) -> AgentEnv:
        """Raises UsageError naming a name that cannot be given to the agent."""
        for name in [*(pass_env or []), *(env or {})]:
            try:
                env_name(name)
            except ValueError as exc:
                raise UsageError(f"{name!r}: {exc}") from None
        return cls(tuple(pass_env or ()), tuple((env or {}).items()))

    def passed(self, name: str) -> str | None:
        """The value of a variable to pass on, None when it is not set."""
        return os.environ.get(name) if self.read is None else dict(self.read).get(name)


def agent_environment(hub: Hub, world: World, base_url: str, given: AgentEnv = AgentEnv()) -> dict[str, str]:
    """What of the user's environment the agent gets: PATH, HOME, LANG, the scene's `pass_env` names and
    those `given` that are set, and the values `given`; the world's own variables over all of them, but for
    NODE_OPTIONS, where the user's options follow the world's (interception's preload)."""
    env = {name: os.environ[name] for name in KEPT_ENV if name in os.environ}
    passed = {name: given.passed(name) for name in [*world.agent.get("pass_env", []), *given.pass_env]}
    env.update({name: value for name, value in passed.items() if value is not None})
    env.update(given.values)
    node_options = env.get("NODE_OPTIONS")
    env.update(hub.environment(world, base_url))
    if node_options and env["NODE_OPTIONS"] != node_options:
        env["NODE_OPTIONS"] = f"{env['NODE_OPTIONS']} {node_options}"
    return env


# A value shorter than this is not a secret worth hiding: replacing it would garble ordinary text.
SECRET_MIN = 8


def secrets_of(world: World, given: AgentEnv, env: dict[str, str]) -> list[tuple[str, str]]:
    """The secrets in the agent's environment `env`: the values of the variables passed on or given (not
    those the world's own variables replaced), longest first, so a secret holding another is replaced whole."""
    passed = [(name, given.passed(name)) for name in [*world.agent.get("pass_env", []), *given.pass_env]]
    found = {
        (name, value)
        for name, value in [*passed, *given.values]
        if value is not None and env.get(name) == value and len(value) >= SECRET_MIN
    }
    return sorted(found, key=lambda secret: -len(secret[1]))


def redact(text: str, secrets: list[tuple[str, str]]) -> str:
    for name, value in secrets:
        text = text.replace(value, f"[{name}]")
    return text


class _Lines:
    """A JSON-lines file a trial writes as its world logs, and the digest of what it wrote. A line that cannot
    be written (disk full) breaks the world's log (events.py), and the file takes no more lines."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: IO[bytes] = path.open("wb")
        self.failed = False
        self._hash = hashlib.sha256()
        self._lock = threading.Lock()

    @property
    def digest(self) -> str:
        """Of the lines written whole."""
        return "sha256:" + self._hash.hexdigest()

    def write(self, line: str) -> None:
        """Raises OSError, naming the file, when the line cannot be written: the world's log breaks on it."""
        data = (line + "\n").encode()
        with self._lock:
            if self.file.closed or self.failed:  # a call still in flight when the trial ended
                return
            try:
                self.file.write(data)
                self.file.flush()
            except OSError as exc:
                self.failed = True
                raise OSError(exc.errno, exc.strerror, self.path.name) from None
            self._hash.update(data)

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError):  # what could not be flushed has broken the log already
            self.file.close()


class _Trace(_Lines):
    """Writes each `call` and `model_call` event to `trace.jsonl` as it is logged. `ended` is set when the world
    finishes (and by the runner when the agent exits): the attempt is over."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.ended = threading.Event()

    def __call__(self, event: Event) -> None:
        if isinstance(event, (CallEvent, ModelCallEvent)):
            self.write(event.model_dump_json())
        elif isinstance(event, FinishEvent):
            self.ended.set()


class _Journal(_Lines):
    """While the trial runs, what scores it should the run be killed before the trial ends (docs/cli.md):
    the state at the start (`initial.json`) and each record as a write left it (`writes.jsonl`, one line a
    write, flushed). Removed once the trial folder is written."""

    def __init__(self, folder: Path, world: World) -> None:
        self.paths = (folder / INITIAL_FILE, folder / WRITES_FILE)
        # Read by soundstage alone: compact, and made by `dumps`, whose C encoder is 4 times as fast as `dump`'s.
        self.paths[0].write_text(json.dumps(world.initial, ensure_ascii=False, default=str), encoding="utf-8")
        super().__init__(self.paths[1])
        self.world = world

    def __call__(self, event: Event) -> None:
        if isinstance(event, WriteEvent):
            # Logged under the world's lock once the write is made: the record is as the write left it.
            record = self.world[event.collection].get(event.id)
            line = {"seq": event.seq, "collection": event.collection, "op": event.op, "id": event.id, "record": record}
            self.write(json.dumps(line, ensure_ascii=False, default=str))

    def remove(self) -> None:
        for path in self.paths:
            path.unlink(missing_ok=True)


class _TrialRunner:
    """Runs trials of one run; the run's threads share it."""

    def __init__(self, hub: Hub, base_url: str, plan: TrialPlan, run_folder: Path) -> None:
        self.hub = hub
        self.base_url = base_url
        self.plan = plan
        self.run_folder = run_folder
        self.sandbox = choose(plan.sandbox).kind  # this machine's: a Ray node may differ from the caller's
        self._running: set[_Agent] = set()  # the agents running now
        self._stopping = False
        self._lock = threading.Lock()

    def kill_all(self) -> None:
        """Ends every agent running now, and any a trial is starting."""
        with self._lock:
            self._stopping = True
            running = list(self._running)
        for agent in running:
            agent.stop()

    def run(self, image: WorldImage, number: int) -> Trial:
        """Runs one trial into its folder. A failure of soundstage's own while it runs (a file that cannot be
        written) makes it `invalid`, saying why; the run goes on."""
        folder = _TrialFolder(self.run_folder / image.name / str(number))
        world = self.hub.add(image, self.plan.capture)
        try:
            folder.dump("scene.json", world.scene_record)  # first: `check` needs it, however the trial ends
            journal = _Journal(folder.path, world)
        except OSError as exc:
            self.hub.drop(world.id)
            return self._invalid(world, folder.path, number, folder.unwritable(exc))
        world.log.listen(journal)
        world.log.mirror_to(folder.path / "events.jsonl")
        trace = _Trace(folder.path / "trace.jsonl")
        world.log.listen(trace)
        try:
            started = time.monotonic()
            ending, timed_out, stdout = self._attempt(world, image, folder, trace)
            wall = time.monotonic() - started
            world.finish(stdout, "timeout" if timed_out else "exited")
            result = self._write(world, folder, number, ending, timed_out, wall)
        except NotStarted as exc:  # not the agent's failure: the trial is invalid, saying why, and the run goes on
            checked = [not_started(str(exc))]
            result = self._invalid(world, folder.path, number, str(exc)).model_copy(update={"checks": checked})
            with contextlib.suppress(OSError):  # as `_write` does: what could not be written is said already
                folder.write(CHECKS_FILE, checks_json(checked))
                folder.write(RESULT_FILE, result_json(result))
        finally:
            self.hub.drop(world.id)  # no call reaches the world any more; closes events.jsonl
            trace.close()
            journal.close()
        journal.remove()
        # What was written, as it was written: a file changed since (by an agent without a sandbox) is told apart.
        folder.digests.update({"events.jsonl": world.log.digest, "trace.jsonl": trace.digest})
        result.digests = dict(sorted(folder.digests.items()))
        return result

    def _invalid(self, world: World, folder: Path, number: int, why: str) -> Trial:
        """A trial that could not be carried out: no agent ran (or what it did cannot be trusted)."""
        return Trial(
            scene=world.scene,
            trial=number,
            world=world.id,
            outcome="invalid",
            exit_code=0,
            killed=False,
            timed_out=False,
            finish_reason="not_run",
            wall_seconds=0.0,
            simulated_seconds=0.0,
            counts=counts(world),
            folder=str(folder),
            sandbox=self.sandbox,
            infrastructure=why,
        )

    def _attempt(
        self, world: World, image: WorldImage, folder: _TrialFolder, trace: _Trace
    ) -> tuple[_Ending, bool, str]:
        """Runs the agent until it exits, finishes the world, or times out, then ends whatever it left
        running; answers how the agent ended, whether it timed out, and its stdout."""
        plan = self.plan
        env = agent_environment(self.hub, world, self.base_url, plan.given)
        secrets = secrets_of(world, plan.given, env)
        with contextlib.ExitStack() as stack:
            argv = plan.argv
            words = command_words(argv, plan.cwd or Path.cwd())
            # Found before it runs, in the sandbox or not: bubblewrap would only exit 1 saying so in agent.log,
            # which the agent writes too, and its interpreter's absence reads as the script's own.
            reason = unstartable(words[0], env)
            if reason is not None:
                raise NotStarted(plan.agent, reason)
            if self.sandbox == BWRAP:
                workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="soundstage-agent-")))
                cover = plan.cover + trial_cover(self.run_folder, folder.path, image, env)
                argv = bwrap_command(words, workdir, cover, needed_folders(env))
            with (folder.path / "agent.log").open("wb") as log:
                agent = _Agent(plan.agent, argv, env, plan.cwd, world.task, log, trace.ended, self.sandbox == BWRAP)
            with self._lock:
                self._running.add(agent)
                if self._stopping:
                    agent.stop()
            try:
                timed_out = not trace.ended.wait(plan.timeout)
                if not timed_out:
                    agent.ended.wait(FINISH_GRACE)  # it finished the world: time to exit by itself
                ending = agent.end()
            finally:
                with self._lock:
                    self._running.discard(agent)
        log_file = folder.path / "agent.log"
        if secrets:  # what the agent printed keeps no secret it was given
            folder.text("agent.log", redact(log_file.read_text("utf-8", "replace"), secrets))
        else:
            folder.digests["agent.log"] = file_digest(log_file)
        return ending, timed_out, redact(agent.output.rest(), secrets)

    def _write(
        self, world: World, folder: _TrialFolder, number: int, ending: _Ending, timed_out: bool, wall: float
    ) -> Trial:
        """Scores the world and writes the trial folder, `result.json` last. A file soundstage could not write, its
        event log's or one of these, makes the trial `invalid`, saying which and why."""
        evaluation = score(world)
        finish = next(event for event in world.log.events if isinstance(event, FinishEvent))
        result = Trial(
            scene=world.scene,
            trial=number,
            world=world.id,
            outcome=outcome(evaluation.checks),
            exit_code=ending.exit_code,
            killed=ending.killed,
            timed_out=timed_out,
            finish_reason=finish.reason,
            wall_seconds=round(wall, 3),
            simulated_seconds=(world.now() - world.clock.start) / US,
            counts=counts(world),
            folder=str(folder.path),
            sandbox=self.sandbox,
            checks=evaluation.checks,
        )
        failure = f"{world.log.broken} (in {folder.path})" if world.log.broken else None
        try:
            folder.write(CHECKS_FILE, checks_json(evaluation.checks))
            # The whole world, most of a trial's bytes: compact, by json's C encoder (indenting is done in
            # Python), in a quarter of the time and two thirds of the bytes.
            folder.text("state.json", json.dumps(world.state(), ensure_ascii=False) + "\n")
            folder.dump("diff.json", world.diff())
            folder.text("output.txt", world.output or "")  # what output checks read
        except OSError as exc:
            failure = failure or folder.unwritable(exc)
        if failure is not None:
            result = result.model_copy(update={"outcome": "invalid", "score": None, "infrastructure": failure})
        with contextlib.suppress(OSError):  # last, saying how the trial ended, whatever else could be written
            folder.write(RESULT_FILE, result_json(result))
        return result


class _TrialFolder:
    """A trial's folder as the runner writes it: each file written whole, and its digest kept as written, so
    that what changes it later is told apart (results/digests.py)."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True)
        self.path = path
        self.digests: dict[str, str] = {}

    def write(self, name: str, data: bytes) -> None:
        self.digests[name] = write(self.path / name, data)

    def dump(self, name: str, data: Any) -> None:
        self.write(name, encoded(data))

    def text(self, name: str, text: str) -> None:
        self.write(name, text.encode())

    def unwritable(self, exc: OSError) -> str:
        return f"the trial folder {self.path} could not be written: {_why(exc)}"


def trial_cover(run_folder: Path, folder: Path, image: WorldImage, env: dict[str, str]) -> Cover:
    """What one trial's agent must not see besides the run's cover: the run folder it is written into (a
    Ray node's own), its trial folder, the files its scene was built from with their folders, and its Python
    checks' modules; and what it must see under a cover: the CA certificates its environment names."""
    files = [Path(name) for name in image.files]
    # A Python check's module alone, not its folder: that may be the project's, which the agent may need.
    hidden = (run_folder, folder, *files, *(file.parent for file in files), *sources(image.checks))
    shown = tuple(Path(env[name]) for name in TRUST_VARIABLES if name in env)
    return Cover(tuple(path.absolute() for path in hidden), shown)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


class NotStarted(Exception):
    """The agent's command could not be started: the system could not run its program (not found, not
    executable, its `#!` interpreter missing), or its supervisor could not be run. Decided before the agent
    runs a line of its own, so nothing the agent does makes a trial of it; once it runs, how it ends is its own."""

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(f"the agent command {command!r} could not be started: {reason}")


@dataclass(frozen=True)
class _Ending:
    """How the agent ended: its exit code (negative: killed by that signal), and whether soundstage killed it."""

    exit_code: int
    killed: bool


class _Agent:
    """The agent's command running under its supervisor (supervisor.py), which ends the agent's whole tree:
    when the agent exits, when `end` is called, and when soundstage dies (docs/cli.md, "How a trial ends").

    The supervisor is started from the trial's own thread, which lives until the supervisor has exited: the
    parent-death signal it sets is sent when the thread that started it ends, not only the process."""

    def __init__(
        self,
        command: str,
        argv: list[str],
        env: dict[str, str],
        cwd: Path | None,
        task: str,
        log: IO[bytes],
        on_exit: threading.Event,
        sandboxed: bool = False,
    ) -> None:
        self.command = command
        self.on_exit = on_exit
        self.ended = threading.Event()  # the supervisor has said how the agent ended, or has gone
        self._ending: dict[str, Any] | None = None
        status_r, status_w = os.pipe()
        try:
            with tempfile.TemporaryFile() as stdin:  # the task, then end of file: nothing to feed or block on
                stdin.write(task.encode("utf-8"))
                stdin.seek(0)
                self.process = subprocess.Popen(
                    [*self._supervisor(status_w, sandboxed), "--", *argv],
                    stdin=stdin,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    env=env,
                    cwd=cwd,
                    start_new_session=True,  # its own process group, away from the terminal's Ctrl-C
                    pass_fds=(status_w,),
                )
        except OSError as exc:
            os.close(status_r)
            raise self._not_started(exc.strerror or str(exc)) from None
        finally:
            os.close(status_w)
        self._status = os.fdopen(status_r, "rb")
        started = self._message()
        if started is None or "started" not in started:
            self.process.wait()
            self._status.close()
            assert self.process.stdout is not None
            self.process.stdout.close()
            reason = started.get("error") if started else None
            raise self._not_started(str(reason or f"its supervisor failed (see {log.name})"))
        assert self.process.stdout is not None
        self.output = _Output(self.process.stdout)
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    @staticmethod
    def _supervisor(status_w: int, sandboxed: bool) -> list[str]:
        head = [sys.executable, "-I", "-S", str(SUPERVISOR), str(status_w), str(os.getpid())]
        return [*head, "--sandboxed"] if sandboxed else head

    def _not_started(self, reason: str) -> NotStarted:
        return NotStarted(self.command, reason)

    def _message(self) -> dict[str, Any] | None:
        line = self._status.readline()
        try:
            message = json.loads(line) if line else None
        except ValueError:
            return None
        return message if isinstance(message, dict) else None

    def _watch(self) -> None:
        """Waits for the supervisor's last word: the agent has exited (or been killed) and its tree is gone."""
        self._ending = self._message()
        self._status.close()
        self.ended.set()
        self.on_exit.set()

    def stop(self) -> None:
        """Tells the supervisor to kill the agent's tree and exit, unless it has done so already."""
        if not self.ended.is_set():
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)

    def end(self) -> _Ending:
        """Ends the agent's tree unless it has ended already; answers how the agent ended."""
        self.stop()
        try:
            self.process.wait(END_GRACE)
        except subprocess.TimeoutExpired:  # not expected: then the agent dies with it (parent-death signal)
            _kill_group(self.process.pid)
            self.process.wait()
        self._watcher.join()  # the status pipe is at its end once the supervisor has exited
        ending = self._ending or {}
        if "exit" in ending:
            return _Ending(int(ending["exit"]), bool(ending.get("killed")))
        if "signal" in ending:
            return _Ending(-int(ending["signal"]), bool(ending.get("killed")))
        return _Ending(-signal.SIGKILL, True)


class _Output:
    """The agent's stdout, read in a thread as it comes. `rest` stops reading once what is there has been read:
    a process that escaped the tree and holds the pipe open cannot keep the trial waiting."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe
        self.chunks: list[bytes] = []
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        source = self.pipe.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(source, selectors.EVENT_READ)
            selector.register(self._wake_r, selectors.EVENT_READ)
            stopping, left = False, DRAIN_LIMIT
            while left > 0:
                ready = {key.fd for key, _ in selector.select(0 if stopping else None)}
                if self._wake_r in ready:
                    stopping = True
                if source not in ready:
                    if stopping:
                        return
                    continue
                data = os.read(source, 65536)
                if not data:
                    return
                self.chunks.append(data)
                if stopping:
                    left -= len(data)

    def rest(self) -> str:
        """Everything read, once what is waiting in the pipe has been read too."""
        os.write(self._wake_w, b"x")
        self._thread.join()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self.pipe.close()
        return b"".join(self.chunks).decode("utf-8", "replace")


def how_the_agent_ended(exit_code: int, killed: bool) -> str | None:
    """`the agent exited with code 2`, `the agent was killed by SIGSEGV`; None when it exited with 0 or when
    soundstage ended it (at the timeout, after finishing, or when the run was stopped)."""
    if killed or exit_code == 0:
        return None
    if exit_code > 0:
        return f"the agent exited with code {exit_code}"
    try:
        name = signal.Signals(-exit_code).name
    except ValueError:
        name = f"signal {-exit_code}"
    return f"the agent was killed by {name}"


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # nothing left in the group
