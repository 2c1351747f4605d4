"""Writing the results of 1,000 trials, side by side in one run (docs/cli.md, "The results store").

    python benchmarks/store.py [--trials 1000] [--checks 5]

(a) the trial folders alone, as the runner writes them at a trial's end (result.json, checks.json, state.json,
    diff.json, output.txt);
(b) the same folders, and each trial written to a SQLite store as the runner does it (one transaction a trial,
    with its check results), with the run's start and finish;
(c) the same with a PostgreSQL store: SOUNDSTAGE_TEST_POSTGRES names the server (DEVELOPERS.md), the store
    working in a schema of its own that is dropped afterwards. Skipped without the variable.
Each figure includes opening the store (connecting and migrating it). Reported, not budgeted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.checks import CheckResult
from soundstage.results import Counts, Run, Trial
from soundstage.results.files import checks_json, encoded, result_json
from soundstage.store import Store, open_store

SCENES = 10


def run_record(folder: Path, trials: int) -> Run:
    return Run(
        run_id=folder.name,
        folder=str(folder),
        agent="python agent.py",
        scenes=[f"seeds/scene-{n}.yaml" for n in range(SCENES)],
        trials=trials // SCENES,
        started_at=datetime.now(UTC),
    )


def trial_record(folder: Path, scene: str, number: int, checks: int) -> Trial:
    passed = number % 3 != 0
    results = [
        CheckResult(
            id=f"check_{n}",
            kind="state:slack.message",
            required=True,
            passed=passed or n > 0,
            expected="a message in #general saying the export is done",
            actual="1 message" if passed else "no message",
            explanation="the agent posted it" if passed else "nothing was posted to #general",
            evidence=[n + 3],
            source="scene",
        )
        for n in range(checks)
    ]
    return Trial(
        scene=scene,
        trial=number,
        world=uuid.uuid4().hex,
        outcome="passed" if passed else "failed",
        exit_code=0,
        timed_out=False,
        finish_reason="exited",
        wall_seconds=1.5,
        simulated_seconds=42.0,
        counts=Counts(calls=12, events=40, errors=1, unimplemented=0),
        folder=str(folder),
        checks=results,
    )


def write_folder(folder: Path, trial: Trial) -> None:
    """What the runner writes at a trial's end (its state being a few small collections)."""
    folder.mkdir(parents=True)
    state = {"slack.messages": {f"m{n}": {"id": f"m{n}", "text": "hello " * 10, "ts": n} for n in range(20)}}
    for name, data in (
        ("checks.json", checks_json(trial.checks)),
        ("result.json", result_json(trial)),
        ("state.json", encoded(state)),
        ("diff.json", encoded({"slack.messages": {"added": ["m19"]}})),
    ):
        (folder / name).write_bytes(data)
    (folder / "output.txt").write_text("done\n", encoding="utf-8")


def one_run(base: Path, trials: int, checks: int, opener: Callable[[], Store] | None) -> float:
    """Seconds to write a run of `trials` trials: folders, and the store when `opener` gives one."""
    started = time.perf_counter()
    store = opener() if opener is not None else None
    folder = base / "20260101-000000"
    run = run_record(folder, trials)
    if store is not None:
        store.start_run(run)
    for index in range(trials):
        scene, number = f"scene-{index % SCENES}", index // SCENES + 1
        trial_folder = folder / scene / str(number)
        trial = trial_record(trial_folder, scene, number, checks)
        write_folder(trial_folder, trial)
        if store is not None:
            store.write_trial(run.run_id, trial)
    if store is not None:
        store.finish_run(run.model_copy(update={"exit_code": 1, "finished_at": datetime.now(UTC)}))
        stored = store.run(run.run_id)
        assert stored is not None and len(stored.results) == trials
        store.close()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--checks", type=int, default=5, help="check results per trial")
    args = parser.parse_args()
    print(f"writing the results of {args.trials} trials ({args.checks} checks each)")
    with tempfile.TemporaryDirectory() as tmp:
        folders = one_run(Path(tmp) / "a", args.trials, args.checks, None)
        print(f"  (a) trial folders alone:         {folders:7.3f} s")
        url = f"sqlite:///{Path(tmp) / 'b' / 'soundstage.db'}"
        sqlite = one_run(Path(tmp) / "b", args.trials, args.checks, lambda: _opened(url))
        print(f"  (b) folders + SQLite store:      {sqlite:7.3f} s  (store: +{sqlite - folders:.3f} s)")
        base = os.environ.get("SOUNDSTAGE_TEST_POSTGRES")
        if not base:
            print("  (c) PostgreSQL: skipped, SOUNDSTAGE_TEST_POSTGRES is not set")
            return
        schema = f"bench_{uuid.uuid4().hex}"
        admin = create_engine(make_url(base).set(drivername="postgresql+psycopg"))
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            pg = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
            postgres = one_run(
                Path(tmp) / "c", args.trials, args.checks, lambda: _opened(pg.render_as_string(hide_password=False))
            )
            print(f"  (c) folders + PostgreSQL store:  {postgres:7.3f} s  (store: +{postgres - folders:.3f} s)")
        finally:
            with admin.begin() as connection:
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()


def _opened(url: str) -> Store:
    store = open_store(url)
    assert store is not None
    return store


if __name__ == "__main__":
    main()
