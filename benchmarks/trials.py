"""Trials per second of `soundstage run`, and where a trial's time goes, side by side in one run (docs/scale.md).

    python benchmarks/trials.py [--trials 10] [--parallel 2] [--skip-ways] [--ray-only]

Scripted agents (no model) against two example scenes, TRIALS trials each: csv-export
(examples/agents/csv_export.py) and a people scene, workaround (examples/agents/workaround.py).

(a) The same trials three ways, each one `soundstage run` command timed from outside, its store and folders
    included: sequentially, with `--parallel P`, and on a local Ray cluster (`--ray`, started by this benchmark)
    of 1 and then 2 nodes of one CPU each, one trial at a time on each, whose ratio is the scaling factor.
    Without Ray installed (`pip install 'soundstage[ray]'`) or without the option, the Ray way says so.
(e) `--ray` without an address on this machine against `--parallel P` (threads), wall and CPU: the first `--ray`
    run, which starts soundstage's local cluster (`soundstage ray`) and the stages, then runs that find them
    up; the cluster, in a soundstage home of the benchmark's own, is stopped after. CPU is the command's (its
    agents' included) and, for `--ray`, the cluster's (its processes sampled from /proc, Linux only).
    `--ray-only` runs this alone.
(b) A trial's time split, from the sequential trials run again in this process with timers around the
    runner's steps. Soundstage's share: building the live world and the trial folder, launching the agent
    (spawning its supervisor until the agent's process exists), ending its tree once it has exited, scoring
    the checks, writing the trial's files and its row in the results store. The agent's share: its start-up
    (from its process existing until its first call is answered: its interpreter and imports) and its time
    (from there until it exits). Beside them, what a bare `python -c pass` and an import of slack_sdk cost.
(c) One csv-export `soundstage run` from outside, in a child process with the same timers: its wall time,
    the agent process's, and soundstage's own share (the difference), split into its steps.
(d) What a trial leaves: the bytes of its folder and of its rows in the SQLite store.
Reported, not budgeted. On a loaded machine read the ratios: every way of one run shares the same load.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
# The child that (c) times runs the command line of this checkout, whatever is installed.
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
AGENTS = ROOT / "examples" / "agents"
SCENES = {
    "csv-export": AGENTS / "csv_export.py",
    "workaround": AGENTS / "workaround.py",
}
RAY_MISSING = "not available: pip install 'soundstage[ray]'"

# The trial's steps, in the order the table prints them, and whose share each is.
STEPS = [
    ("world", "soundstage", "build the live world from the scene's image"),
    ("launch", "soundstage", "spawn the supervisor until the agent's process exists"),
    ("startup", "agent", "agent process exists -> its first call answered"),
    ("agent", "agent", "first call answered -> the agent exits"),
    ("end", "soundstage", "the agent exited -> its tree is ended"),
    ("checks", "soundstage", "score the checks"),
    ("files", "soundstage", "write result, checks, state, diff, output"),
    ("store", "soundstage", "write the trial's rows to the results store"),
    ("rest", "soundstage", "the rest: the trial folder, its journal, log and trace opened and closed"),
]
# A run's steps besides its trials, in the child process of (c).
RUN_STEPS = ["import", "store open", "image", "server start", "server stop"]


def agent_command(scene: str) -> str:
    return f"{sys.executable} {SCENES[scene]}"


def soundstage(*args: str) -> list[str]:
    return [sys.executable, "-m", "soundstage", *args]


def timed_command(argv: list[str], cwd: Path) -> float:
    """Runs a command to its end; answers its wall time. Any failure stops the benchmark, with its output."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=ENV, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return wall


def run_way(trials: int, folder: Path, *extra: str) -> float:
    """Trials per second of `soundstage run` over both scenes, one command per scene (each its own agent)."""
    wall = 0.0
    for scene in SCENES:
        argv = soundstage("run", str(ROOT / "seeds" / f"{scene}.yaml"), "--agent", agent_command(scene))
        wall += timed_command([*argv, "--trials", str(trials), "--out", str(folder), "--json", *extra], ROOT)
    return trials * len(SCENES) / wall


def cpu_of_session(session: int) -> dict[int, float]:
    """CPU seconds of each live process of a session: its own, and that of the children it has reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for proc in Path("/proc").iterdir():
        try:
            stat = (proc / "stat").read_text()
        except (OSError, ValueError):
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == session:
            found[int(proc.name)] = sum(int(value) for value in fields[11:15]) / tick
    return found


class SessionCpu:
    """The CPU the processes of the session `session()` names (a Ray head's, once it exists) use while this
    samples them, every 0.1 s: Ray's raylet does not reap its workers' CPU into its own (it ignores SIGCHLD),
    so each process is followed while it lives."""

    def __init__(self, session: Callable[[], int | None]) -> None:
        self.session = session
        head = session()
        self.first = cpu_of_session(head) if head is not None else {}  # a head started later: all of it counts
        self.last = dict(self.first)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample)
        self.thread.start()

    def sample(self) -> None:
        while not self.done.wait(0.1):
            self.read()

    def read(self) -> None:
        head = self.session()
        if head is not None:
            self.last.update(cpu_of_session(head))

    def stop(self) -> float:
        self.done.set()
        self.thread.join()
        self.read()
        return sum(seconds - self.first.get(pid, 0.0) for pid, seconds in self.last.items())


def timed_cpu(argv: list[str], env: dict[str, str], session: Callable[[], int | None]) -> tuple[float, float]:
    """Wall and CPU seconds of a command run to its end: its own with its children's, and those of the
    processes of the session `session()` names (a Ray head's) while it runs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cluster = SessionCpu(session)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu + cluster.stop()


def ray_against_threads(trials: int, parallel: int, rounds: int = 3) -> dict[str, list[tuple[float, float]]] | str:
    """(e): wall and CPU of `--parallel P` and of `--ray` (the first run starting the local cluster, then
    `rounds` runs finding it up) over both scenes, TRIALS trials each, one command per scene; or why not."""
    if importlib.util.find_spec("ray") is None:
        return RAY_MISSING
    found: dict[str, list[tuple[float, float]]] = defaultdict(list)
    with scratch() as home:
        env = {**ENV, "SOUNDSTAGE_HOME": str(home)}
        env.pop("RAY_ADDRESS", None)
        record = home / "ray" / "cluster.json"

        def head() -> int | None:
            try:
                return int(json.loads(record.read_text())["pid"])
            except (OSError, ValueError):  # none yet, or being written
                return None

        def way(name: str, *extra: str) -> None:
            wall = cpu = 0.0
            with scratch() as folder:
                for scene in SCENES:
                    argv = soundstage("run", str(ROOT / "seeds" / f"{scene}.yaml"), "--agent", agent_command(scene))
                    argv += ["--trials", str(trials), "--out", str(folder), "--json", *extra]
                    spent = timed_cpu(argv, env, head)
                    wall, cpu = wall + spent[0], cpu + spent[1]
            found[name].append((wall, cpu))

        try:
            way("--ray, cold", "--ray")
            for _ in range(rounds):
                way(f"--parallel {parallel}", "--parallel", str(parallel))
                way("--ray, reused", "--ray")
        finally:
            subprocess.run(soundstage("ray", "stop"), env=env, capture_output=True, check=False)
    return found


def print_ray_against_threads(trials: int, parallel: int) -> None:
    print(f"(e) --ray on this machine against --parallel {parallel}: {trials} trials of each of {', '.join(SCENES)}")
    found = ray_against_threads(trials, parallel)
    if isinstance(found, str):
        print(f"    {found}")
        return
    print(f"    {'way':<18} {'wall s':>8} {'CPU s':>8}  (medians of {len(found['--ray, reused'])}, but the cold start)")
    for name, figures in found.items():
        wall, cpu = statistics.median(f[0] for f in figures), statistics.median(f[1] for f in figures)
        print(f"    {name:<18} {wall:8.2f} {cpu:8.2f}")
    threads = statistics.median(f[0] for f in found[f"--parallel {parallel}"])
    reused = statistics.median(f[0] for f in found["--ray, reused"])
    print(f"    --ray reused over --parallel {parallel}, wall: x{reused / threads:.2f}")


def ray_ways(trials: int, folders: Callable[[], contextlib.AbstractContextManager[Path]]) -> dict[int, float] | str:
    """Trials per second on a local Ray cluster of one node, then of two (each node one CPU, one trial at a
    time), or why they cannot be measured here. The cluster is started here and each command attaches to it
    (`--ray-address`), so its start is left out, as on a cluster that is up already; it is shut down after."""
    if importlib.util.find_spec("ray") is None:
        return RAY_MISSING
    usage = subprocess.run(soundstage("run", "--help"), env=ENV, capture_output=True, text=True, check=False).stdout
    if "--ray-address" not in usage:
        return RAY_MISSING
    from ray.cluster_utils import Cluster

    os.environ["PYTHONPATH"] = ENV["PYTHONPATH"]  # the nodes' workers run this checkout's soundstage too
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        found = {}
        for nodes in (1, 2):
            if nodes == 2:
                cluster.add_node(num_cpus=1)
                cluster.wait_for_nodes()
            with folders() as folder:
                found[nodes] = run_way(
                    trials, folder, "--ray", "--ray-address", cluster.address, "--parallel", str(nodes)
                )
        return found
    finally:
        cluster.shutdown()


class Timers:
    """Timers around the runner's steps, installed by wrapping its functions in this process (nothing in
    soundstage times itself): each trial's steps in `trials`, the run's own in `run`."""

    def __init__(self) -> None:
        self.trials: list[dict[str, float]] = []
        self.run: dict[str, float] = defaultdict(float)
        self.agent_seconds = 0.0  # the agent processes' wall time, from existing to exiting
        self._local = threading.local()

    def install(self) -> None:
        from soundstage import runner, store
        from soundstage.server import Server
        from soundstage.server.hub import Hub
        from soundstage.stage.image import ImageCache
        from soundstage.store import Store

        timers = self

        def step(owner: Any, name: str, key: str, into_run: bool = False) -> None:
            original = getattr(owner, name)

            def timed(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    spent = time.perf_counter() - started
                    if into_run:
                        timers.run[key] += spent
                    else:
                        timers.current[key] += spent

            setattr(owner, name, timed)

        trial_run = runner._TrialRunner.run

        def run_trial(self: Any, image: Any, number: int) -> Any:
            timers._local.trial = defaultdict(float)
            started = time.perf_counter()
            try:
                return trial_run(self, image, number)
            finally:
                trial = timers.current
                trial["total"] = time.perf_counter() - started
                trial["world"] = trial.pop("add", 0.0)
                trial["files"] = trial.pop("write", 0.0) - trial["checks"]
                trial["rest"] = trial["total"] - sum(trial[key] for key, _, _ in STEPS if key not in ("rest", "store"))
                timers.trials.append(trial)

        agent_init = runner._Agent.__init__

        def start_agent(self: Any, *args: Any, **kwargs: Any) -> None:
            started = time.perf_counter()
            agent_init(self, *args, **kwargs)
            trial = timers.current
            trial["launch"] = time.perf_counter() - started
            trial["exists"] = time.perf_counter()

        watch = runner._Agent._watch

        def watch_agent(self: Any) -> None:
            watch(self)
            self.exited_at = time.perf_counter()

        agent_end = runner._Agent.end

        def end_agent(self: Any) -> Any:
            ending = agent_end(self)
            trial = timers.current
            exited = getattr(self, "exited_at", time.perf_counter())
            first = trial.pop("first_call", exited)
            trial["startup"] = first - trial["exists"]
            trial["agent"] = exited - first
            trial["end"] = time.perf_counter() - exited
            timers.agent_seconds += exited - trial.pop("exists")
            return ending

        add = Hub.add

        def add_world(self: Any, image: Any) -> Any:
            world = add(self, image)
            trial = timers.current

            def first_call(event: Any) -> None:
                if event.kind == "call" and "first_call" not in trial:
                    trial["first_call"] = time.perf_counter()

            world.log.listen(first_call)
            return world

        runner._TrialRunner.run = run_trial  # type: ignore[method-assign]
        runner._Agent.__init__ = start_agent  # type: ignore[method-assign]
        runner._Agent._watch = watch_agent  # type: ignore[method-assign]
        runner._Agent.end = end_agent  # type: ignore[method-assign]
        Hub.add = add_world  # type: ignore[method-assign]
        step(Hub, "add", "add")
        step(runner, "score", "checks")
        step(runner._TrialRunner, "_write", "write")
        step(Store, "write_trial", "store_pending")
        step(store, "open_store", "store open", into_run=True)
        step(ImageCache, "load", "image", into_run=True)
        step(Server, "start", "server start", into_run=True)
        step(Server, "stop", "server stop", into_run=True)

    @property
    def current(self) -> dict[str, float]:
        """The trial this thread runs; the store's write (in the run's thread) goes to the last trial ended."""
        trial = getattr(self._local, "trial", None)
        if trial is None:
            trial = self.trials[-1] if self.trials else self.run
        return trial  # type: ignore[no-any-return]

    def settle(self) -> None:
        """Moves each store write, timed after its trial ended, into that trial's `store`."""
        for trial in self.trials:
            trial["store"] = trial.pop("store_pending", 0.0)


def split_run(trials: int, folder: Path) -> Timers:
    """(b): the sequential trials of both scenes in this process, timed step by step."""
    from soundstage.cli.history import opened
    from soundstage.runner import run_scenes

    timers = Timers()
    timers.install()
    for scene in SCENES:
        scenes = [str(ROOT / "seeds" / f"{scene}.yaml")]
        run_scenes(scenes, agent_command(scene), trials=trials, out=folder, store=lambda: opened(None, folder))
    timers.settle()
    return timers


def one_run(report: Path) -> None:
    """(c), in the child: imports what `soundstage run` imports, times it, then runs the command line with
    the timers installed and writes what they saw to `report`."""
    begun = time.time()  # the wall clock: the parent's stamps are compared with it
    started = time.perf_counter()
    gc.disable()  # as soundstage.cli.main does while a command's modules load
    import soundstage.cli.run
    import soundstage.store  # noqa: F401

    imported = time.perf_counter() - started
    from soundstage.cli import main

    timers = Timers()
    timers.install()
    timers.run["import"] = imported
    try:
        main()
    except SystemExit:
        pass
    timers.settle()
    trial = timers.trials[0]
    used = resource.getrusage(resource.RUSAGE_SELF)  # this process alone: not the agent, nor its supervisor
    data = {
        "run": dict(timers.run),
        "trial": trial,
        "agent": timers.agent_seconds,
        "cpu": used.ru_utime + used.ru_stime,
    }
    data.update(begun=begun, ended=time.time())
    report.write_text(json.dumps(data), encoding="utf-8")


def csv_export_run(folder: Path) -> tuple[dict[str, Any], float]:
    """(c): one csv-export `soundstage run` in a child process, timed from outside, into a folder whose store
    exists, as for every run but the first; answers that, and the wall time of the first (making the store)."""
    report = folder / "one-run.json"
    scene = str(ROOT / "seeds" / "csv-export.yaml")
    argv = [sys.executable, __file__, "--one-run", str(report), "run", scene, "--agent", agent_command("csv-export")]
    first = timed_command([*argv, "--out", str(folder)], ROOT)
    spawned = time.time()
    wall = timed_command([*argv, "--out", str(folder)], ROOT)
    exited = time.time()
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    data.update(wall=wall, startup=data["begun"] - spawned, teardown=exited - data["ended"])
    return data, first


def bare_python() -> tuple[float, float]:
    """Medians of 5: `python -c pass`, and `python -c 'import slack_sdk'` (what both agents import first)."""

    def median(code: str) -> float:
        walls = []
        for _ in range(5):
            walls.append(timed_command([sys.executable, "-c", code], ROOT))
        return statistics.median(walls)

    return median("pass"), median("import slack_sdk")


def artefacts(folder: Path) -> tuple[float, float]:
    """Bytes per trial: of the trial folders under `folder`, and of its SQLite store."""
    trials = [path.parent for path in folder.glob("*/*/*/result.json")]
    files = sum(path.stat().st_size for trial in trials for path in trial.iterdir() if path.is_file())
    with contextlib.closing(sqlite3.connect(folder / "soundstage.db")) as connection:  # its log moved in
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store = (folder / "soundstage.db").stat().st_size
    return files / len(trials), store / len(trials)


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="soundstage-trials-") as folder:
        yield Path(folder)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def print_ways(trials: int, parallel: int) -> None:
    print(f"(a) trials per second, {trials} trials of each of {', '.join(SCENES)} (one `soundstage run` per scene)")
    found: dict[str, float] = {}
    for name, extra in (("sequential", ()), (f"--parallel {parallel}", ("--parallel", str(parallel)))):
        with scratch() as folder:
            found[name] = run_way(trials, folder, *extra)
        print(f"    {name:<16} {found[name]:8.2f} trials/s")
    print(f"    --parallel {parallel} over sequential: x{found[f'--parallel {parallel}'] / found['sequential']:.2f}")
    ray = ray_ways(trials, scratch)
    if isinstance(ray, str):
        print(f"    {'Ray':<16} {ray}")
        return
    for nodes, rate in ray.items():
        print(f"    {f'Ray, {nodes} node' + 's' * (nodes > 1):<16} {rate:8.2f} trials/s")
    print(f"    Ray scaling from 1 to 2 nodes: x{ray[2] / ray[1]:.2f}")


def print_split(timers: Timers, folder: Path) -> None:
    trials = timers.trials
    print(f"(b) a trial's time, mean of {len(trials)} sequential trials in this process (ms)")
    shares: dict[str, float] = defaultdict(float)
    for key, whose, what in STEPS:
        mean = statistics.fmean(trial[key] for trial in trials)
        shares[whose] += mean
        print(f"    {key:<8} {ms(mean)}  {whose:<10} {what}")
    print(f"    {'total':<8} {ms(statistics.fmean(trial['total'] + trial['store'] for trial in trials))}")
    print(f"    soundstage's share {ms(shares['soundstage'])}, the agent's {ms(shares['agent'])}")
    bare, slack = bare_python()
    print(f"    beside them: python -c pass {ms(bare)}, python -c 'import slack_sdk' {ms(slack)}")
    per_folder, per_row = artefacts(folder)
    print(
        f"(d) a trial leaves {per_folder / 1024:.1f} KiB of trial folder and {per_row / 1024:.1f} KiB of SQLite store"
    )


def print_one_run(data: dict[str, Any], first: float) -> None:
    run, trial = data["run"], data["trial"]
    own = data["wall"] - data["agent"]
    print("(c) one csv-export `soundstage run`, its store made by an earlier one (ms)")
    print(f"    wall {ms(data['wall'])}, the agent process {ms(data['agent'])}, soundstage's own share {ms(own)}")
    print(f"    soundstage's process used {ms(data['cpu'])} of CPU (its supervisor's and the agent's not counted)")
    print(f"    (the earlier run, making the store: wall {ms(first)})")
    for key in RUN_STEPS:
        print(f"    {key:<14} {ms(run.get(key, 0.0))}")
    mine = sum(trial[key] for key, whose, _ in STEPS if whose == "soundstage")
    print(f"    {'the trial':<14} {ms(mine)}  (its soundstage steps, as in (b))")
    print(f"    {'python start':<14} {ms(data['startup'])}  (spawned until its first line runs)")
    print(f"    {'python exit':<14} {ms(data['teardown'])}  (the command done until the process has exited)")
    counted = sum(run.get(key, 0.0) for key in RUN_STEPS) + mine + data["startup"] + data["teardown"]
    print(f"    {'the rest':<14} {ms(own - counted)}  (options, the run's folder, store rows, summary)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=10, help="trials of each scene, each way")
    parser.add_argument("--parallel", type=int, default=2, help="trials at once for --parallel")
    parser.add_argument("--skip-ways", action="store_true", help="only (b), (c) and (d)")
    parser.add_argument("--ray-only", action="store_true", help="only (e)")
    args = parser.parse_args()
    if args.ray_only:
        print_ray_against_threads(args.trials, args.parallel)
        return
    if not args.skip_ways:
        print_ways(args.trials, args.parallel)
        print_ray_against_threads(args.trials, args.parallel)
    with scratch() as folder:
        timers = split_run(args.trials, folder)
        print_split(timers, folder)
    with scratch() as folder:
        print_one_run(*csv_export_run(folder))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one-run":
        report = Path(sys.argv[2])
        sys.argv = ["soundstage", *sys.argv[3:]]
        one_run(report)
    else:
        main()
