"""`run --ray`: the trials of a run on a Ray cluster of two nodes on this machine, started by these tests,
have the outcomes, trial numbers, folders and store rows of a local run, also when a stage's worker process
or a whole node dies mid-trial."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'soundstage[ray]'): run --ray is untested")
from ray.cluster_utils import Cluster
from tests.processes import wait_until

from soundstage.results import Run
from soundstage.results.digests import folder_digests
from soundstage.results.files import run_document
from soundstage.runner import run_scenes
from soundstage.runner_ray import NAMESPACE, RayTrials
from soundstage.store import open_store

ROOT = Path(__file__).parents[1]
SCENE = "seeds/csv-export.yaml"
PASSING = f"{sys.executable} examples/agents/csv_export.py"
FAILING = f"{sys.executable} examples/agents/careless_support.py"
FIRST_TRIAL = f"{sys.executable} tests/cluster/first_trial.py"  # then `kill` or `hold`
# What a trial's result says that does not depend on where or when it ran.
SAME = (
    "scene", "trial", "outcome", "failed_checks", "exit_code", "killed", "timed_out", "finish_reason", "counts",
    "sandbox",
)  # fmt: skip


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """Two nodes of one CPU each: a trial at a time on each, each node with a stage of its own."""
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    yield cluster
    cluster.shutdown()


@pytest.fixture(autouse=True)
def in_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The working folder a run ships to the nodes: the scene and the agents are found there by these paths."""
    monkeypatch.chdir(ROOT)


def same(results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(result[key] for key in SAME) for result in results]


def files(run: dict[str, Any]) -> list[tuple[str, list[str], Any]]:
    """Each trial folder: where it is in the run folder, its files, and its scene.json."""
    return [
        (
            Path(result["folder"]).relative_to(run["folder"]).as_posix(),
            sorted(path.name for path in Path(result["folder"]).iterdir()),
            json.loads((Path(result["folder"]) / "scene.json").read_text()),
        )
        for result in run["results"]
    ]


def parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[1])


# First, while no other cluster of the module runs: it starts one of its own.
def test_a_node_that_dies_mid_trial_has_its_trial_run_again_on_another(tmp_path: Path) -> None:
    """A cluster of its own: a head that runs no trial, and two nodes, one of which is taken down under the
    first trial (its stage's process is a worker of that node's raylet)."""
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    nodes = [cluster.add_node(num_cpus=1) for _ in range(2)]
    marker = tmp_path / "held"
    taken_down: list[object] = []  # the node, or why it could not be taken down

    def take_down() -> None:
        try:
            assert wait_until(lambda: marker.is_file() and marker.read_text() != "", 300), "no trial was held"
            raylet = parent(int(marker.read_text()))
            [node] = [node for node in nodes if node.all_processes["raylet"][0].process.pid == raylet]
            cluster.remove_node(node)
            taken_down.append(node)
        # Anything at all (the wait, the marker, Ray's remove_node) is kept for the test's own assertion
        # below to show: an exception left to end this thread would be only printed, and the cause lost.
        except Exception as exc:  # noqa: BLE001 - handed to the main thread, see above
            taken_down.append(exc)

    watcher = threading.Thread(target=take_down)
    watcher.start()
    try:
        run = first_trial_run("hold", marker, cluster, tmp_path)
    finally:
        watcher.join()
        cluster.shutdown()

    assert taken_down in ([nodes[0]], [nodes[1]])
    assert run.exit_code == 0
    assert [(r.trial, r.outcome) for r in run.results] == [(n, "passed") for n in (1, 2, 3, 4)]
    assert sorted(r.attempts for r in run.results) == [1, 1, 1, 2]


def test_a_run_on_ray_has_the_trials_folders_and_store_rows_of_a_local_run(cluster: Cluster, tmp_path: Path) -> None:
    # The failing agent's run writes its trial folders on storage the nodes share (here, this machine's disk).
    for agent, exit_code, shared in ((PASSING, 0, []), (FAILING, 1, ["--ray-shared-out"])):
        local = run_document(run_scenes([SCENE], agent, trials=4, parallel=2, out=tmp_path / "local"))
        db = f"sqlite:///{tmp_path / 'ray.db'}"
        shown = subprocess.run(
            [sys.executable, "-m", "soundstage", "run", SCENE, "--agent", agent, "--trials", "4", *shared]
            + ["--out", str(tmp_path / "ray"), "--db", db, "--ray", "--ray-address", cluster.address, "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        run = json.loads(shown.stdout)

        assert (shown.returncode, run["exit_code"], local["exit_code"]) == (exit_code, exit_code, exit_code)
        assert same(run["results"]) == same(local["results"])
        assert [result["attempts"] for result in run["results"]] == [1, 1, 1, 1]
        assert files(run) == files(local)
        assert sorted(path.name for path in Path(run["folder"]).iterdir()) == ["csv-export", "run.json"]
        # result.json as the run recorded it, and the digests it recorded of the folder as it was sent back.
        recorded = [{key: value for key, value in r.items() if key != "digests"} for r in run["results"]]
        assert [json.loads((Path(r["folder"]) / "result.json").read_text()) for r in run["results"]] == recorded
        assert [r["digests"] for r in run["results"]] == [folder_digests(Path(r["folder"])) for r in run["results"]]
        assert run["figures"] == local["figures"]
        assert stored(db, run["run_id"]) == [
            (r["scene"], r["trial"], r["outcome"], r["attempts"], r["folder"]) for r in run["results"]
        ]


def stored(db: str, run_id: str) -> list[tuple[str, int, str, int, str]]:
    """The run's trials as the store has them."""
    store = open_store(db)
    assert store is not None
    run = store.run(run_id)
    store.close()
    assert run is not None
    return [(r.scene, r.trial, r.outcome, r.attempts, r.folder) for r in run.results]


def first_trial_run(what: str, marker: Path, cluster: Cluster, tmp_path: Path, **options: Any) -> Run:
    """Four trials of the agent that, in the first trial, kills its stage's process or holds its trial. It stands
    for a machine that dies: out of a sandbox, where it can see the stage and write its marker."""
    return run_scenes(
        [SCENE],
        f"{FIRST_TRIAL} {what}",
        trials=4,
        out=tmp_path / "runs",
        env={"MARKER": str(marker)},
        where=RayTrials(cluster.address),
        sandbox="none",
        **options,
    )


def test_a_worker_killed_mid_trial_has_its_trial_run_again_and_counted_once(cluster: Cluster, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    db = f"sqlite:///{tmp_path / 'ray.db'}"

    run = first_trial_run("kill", marker, cluster, tmp_path, store=lambda: open_store(db))

    assert marker.read_text().isdigit()  # the first trial started killed its stage's process
    assert run.exit_code == 0
    assert [(r.trial, r.outcome) for r in run.results] == [(n, "passed") for n in (1, 2, 3, 4)]
    assert sorted(r.attempts for r in run.results) == [1, 1, 1, 2]
    assert sorted(path.relative_to(run.folder).as_posix() for path in Path(run.folder).glob("*/*")) == [
        f"csv-export/{n}" for n in (1, 2, 3, 4)
    ]
    for result in run.results:  # written once, whole, by the attempt that ended
        assert json.loads((Path(result.folder) / "result.json").read_text())["attempts"] == result.attempts
        assert len((Path(result.folder) / "trace.jsonl").read_text().splitlines()) == result.counts.calls
    assert stored(db, run.run_id) == [(r.scene, r.trial, r.outcome, r.attempts, r.folder) for r in run.results]
    assert run.figures is not None and (run.figures[0].trials, run.figures[0].passed) == (4, 4)
    # The stages stay up for the next run of this working folder, which runs in the same processes.
    before = stage_processes(cluster)
    assert len(before) == 2  # one per node: the killed stage's node has a new one
    again = run_scenes([SCENE], PASSING, trials=2, out=tmp_path / "runs", where=RayTrials(cluster.address))
    assert [(r.outcome, r.attempts) for r in again.results] == [("passed", 1), ("passed", 1)]
    assert stage_processes(cluster) == before


def test_a_stage_whose_copy_of_the_working_folder_was_replaced_runs_its_trials_in_the_new_one(
    cluster: Cluster, tmp_path: Path
) -> None:
    """Nodes on one machine share their copy of the working folder, and Ray replaces it (the same path, a new
    folder) each time another node sets up a run there: stages left in the old folder failed their trials with
    "[Errno 2] No such file or directory"."""
    run_scenes([SCENE], PASSING, out=tmp_path / "runs", where=RayTrials(cluster.address))
    for copy in set(on_stages(cluster, lambda _: os.getcwd()).values()):  # as Ray's agent does it: rmtree, unzip
        shutil.copytree(copy, tmp_path / "copy")
        shutil.rmtree(copy)
        (tmp_path / "copy").rename(copy)

    again = run_scenes([SCENE], PASSING, trials=2, out=tmp_path / "runs", where=RayTrials(cluster.address))

    assert [(r.outcome, r.attempts) for r in again.results] == [("passed", 1), ("passed", 1)]


def stage_processes(cluster: Cluster) -> dict[str, int]:
    """The stages up on the cluster: each one's name, and the pid of its process."""
    return on_stages(cluster, lambda _: os.getpid())


def on_stages(cluster: Cluster, call: Callable[[Any], Any]) -> dict[str, Any]:
    """What `call` answers in each stage up on the cluster, by the stage's name."""
    ray.init(address=cluster.address, logging_level="WARNING")
    try:
        return {
            actor["name"]: ray.get(ray.get_actor(actor["name"], namespace=NAMESPACE).__ray_call__.remote(call))
            for actor in ray.util.list_named_actors(all_namespaces=True)
            if actor["namespace"] == NAMESPACE
        }
    finally:
        ray.shutdown()


def test_an_agent_that_cannot_start_is_an_invalid_trial_as_it_is_locally(cluster: Cluster, tmp_path: Path) -> None:
    run = run_scenes([SCENE], "no-such-agent", out=tmp_path / "runs", where=RayTrials(cluster.address))

    [trial] = run.results
    assert (run.exit_code, trial.outcome, trial.infrastructure) == (
        3,
        "invalid",
        "the agent command 'no-such-agent' could not be started: No such file or directory",
    )
