"""Writing runs, trials and checks: what is read back, rewriting, and the runner writing trials as they end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from soundstage.runner import TrialResult, run_scenes
from soundstage.store import Store, open_store
from tests.stores import FINISHED, RUN, STARTED, check, trial

STAGE = Path(__file__).parent.parent / "cli" / "stage"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    assert opened is not None
    yield opened
    opened.close()


def stored_check(result: dict, number: int) -> dict:
    kept = {key: result[key] for key in ("id", "kind", "required", "passed", "expected", "actual", "explanation")}
    return {"trial": number, **kept, "invalid": False, "score": None, "evidence": result["evidence"], "source": "scene"}


def test_a_written_run_reads_back_field_for_field(store: Store) -> None:
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], trial(1), [check("said_hello", True), check("style", None, required=False)])
    store.write_trial(RUN["run_id"], trial(2, "failed"), [check("said_hello", False)])
    store.finish_run(RUN["run_id"], 1, FINISHED)

    run = store.run(RUN["run_id"])

    assert run is not None
    results = run.pop("results")
    assert (run.pop("evaluation"), run.pop("evaluations")) == (
        0,
        [{"number": 0, "checks_from": "run", "checks_file": None, "created_at": "2026-01-01T00:00:00Z"}],
    )
    assert run.pop("figures") == [
        {
            "scene": "hello",
            "status": "graded",
            "trials": 2,
            "invalid": 0,
            "passed": 1,
            "k": 2,
            "pass_at_1": 0.5,
            "pass_at_k": 1.0,
            "pass_hat_k": 0.0,
            "pass_at": {"1": 0.5, "2": 1.0},
            "pass_hat": {"1": 0.5, "2": 0.0},
            "checks": {
                "said_hello": {"required": True, "passed": 1, "trials": 2, "pass_rate": 0.5},
                "style": {"required": False, "passed": 0, "trials": 1, "pass_rate": 0.0},
            },
        }
    ]
    assert run == {
        "run_id": "20260101-000000",
        "folder": "runs/20260101-000000",
        "agent": "python agent.py",
        "scenes": ["seeds/hello.yaml"],
        "trials": 2,
        "strict": False,
        "exit_code": 1,
        "started_at": "2026-01-01T00:00:00Z",
        "finished_at": "2026-01-01T00:01:30Z",
    }
    first = {key: value for key, value in trial(1).items() if key != "failed_checks"}
    assert results[0] == {
        **first,
        "checks": [
            {key: value for key, value in stored_check(check("said_hello", True), 1).items() if key != "trial"},
            {key: value for key, value in stored_check(check("style", None, False), 1).items() if key != "trial"},
        ],
    }
    assert [(r["trial"], r["outcome"], [c["passed"] for c in r["checks"]]) for r in results] == [
        (1, "passed", [True, None]),
        (2, "failed", [False]),
    ]


def test_rewriting_a_trial_replaces_its_checks(store: Store) -> None:
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], trial(1, "failed"), [check("said_hello", False), check("posted", False)])
    store.write_trial(RUN["run_id"], trial(1), [check("said_hello", True)])

    run = store.run(RUN["run_id"])

    assert run is not None
    assert [(r["outcome"], [c["id"] for c in r["checks"]]) for r in run["results"]] == [("passed", ["said_hello"])]


def test_a_trial_keeps_its_attempts_and_one_written_before_there_were_any_ran_once(store: Store) -> None:
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], {**trial(1), "attempts": 2}, [check("said_hello", True)])
    store.write_trial(RUN["run_id"], {k: v for k, v in trial(2).items() if k != "attempts"}, [check("said_hello", True)])

    run = store.run(RUN["run_id"])

    assert run is not None
    assert [(r["trial"], r["attempts"]) for r in run["results"]] == [(1, 2), (2, 1)]


def test_rewriting_a_run_replaces_its_rows_and_leaves_other_runs_alone(store: Store) -> None:
    other = {**RUN, "run_id": "20260101-000000-2"}
    for run in (RUN, other):
        store.start_run(run, STARTED)
        store.write_trial(run["run_id"], trial(1), [check("said_hello", True)])
        store.write_trial(run["run_id"], trial(2), [check("said_hello", True)])

    store.start_run({**RUN, "agent": "python better.py"}, FINISHED)
    store.write_trial(RUN["run_id"], trial(1, "failed"), [check("said_hello", False)])

    rewritten, kept = store.run(RUN["run_id"]), store.run(other["run_id"])
    assert rewritten is not None and kept is not None
    assert (rewritten["agent"], rewritten["exit_code"], rewritten["started_at"]) == (
        "python better.py",
        None,
        "2026-01-01T00:01:30Z",
    )
    assert [(r["trial"], r["outcome"]) for r in rewritten["results"]] == [(1, "failed")]
    assert [(r["trial"], r["outcome"]) for r in kept["results"]] == [(1, "passed"), (2, "passed")]


def test_a_trial_without_results_given_takes_its_folders_checks_json(store: Store, tmp_path: Path) -> None:
    import json

    folder = tmp_path / "hello" / "1"
    folder.mkdir(parents=True)
    (folder / "checks.json").write_text(json.dumps([check("said_hello", False)]))
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], {**trial(1, "failed"), "folder": str(folder)})
    store.write_trial(RUN["run_id"], {**trial(2, "invalid"), "folder": str(tmp_path / "none")})

    run = store.run(RUN["run_id"])

    assert run is not None
    assert [[c["id"] for c in r["checks"]] for r in run["results"]] == [["said_hello"], []]


def test_the_runner_writes_each_trial_as_it_ends_so_a_stopped_run_keeps_it(store: Store, tmp_path: Path) -> None:
    agent = f"python3 {STAGE / 'agent.py'} hello"

    def stop(_: TrialResult) -> None:
        raise KeyboardInterrupt  # Ctrl-C once the first trial has ended

    with pytest.raises(KeyboardInterrupt):
        run_scenes(
            [str(STAGE / "hello.yaml")], agent, trials=2, out=tmp_path / "runs", store=lambda: store, on_progress=stop
        )

    [listed] = store.runs()
    run = store.run(listed["run_id"])
    assert run is not None
    assert (run["exit_code"], run["finished_at"], run["agent"], run["trials"]) == (None, None, agent, 2)
    assert [(r["scene"], r["trial"], r["outcome"]) for r in run["results"]] == [("hello", 1, "passed")]
    assert [c["passed"] for c in run["results"][0]["checks"]] == [True, True]
    assert run["results"][0]["folder"] == str(tmp_path / "runs" / listed["run_id"] / "hello" / "1")


def test_a_finished_run_is_stored_with_its_exit_code(store: Store, tmp_path: Path) -> None:
    agent = f"python3 {STAGE / 'agent.py'} exit 0"

    result = run_scenes([str(STAGE / "hello.yaml")], agent, trials=2, out=tmp_path / "runs", store=lambda: store)

    run = store.run(result.run_id)
    assert run is not None
    assert run["exit_code"] == 1 and run["finished_at"] is not None
    assert run["folder"] == str(result.folder)
    stored = [(r["trial"], r["outcome"], r["world"], r["counts"]) for r in run["results"]]
    assert stored == [(t.trial, t.outcome, t.world, t.counts) for t in result.results]
    # The store computes the figures from its rows: the same as run.json's.
    assert run["figures"] == result.figures


def test_an_evaluation_scores_the_same_trials_again_with_figures_of_its_own(store: Store) -> None:
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], trial(1), [check("said_hello", True)])
    store.write_trial(RUN["run_id"], trial(2, "failed"), [check("said_hello", False)])
    store.finish_run(RUN["run_id"], 1, FINISHED)

    first = store.add_evaluation(
        RUN["run_id"],
        [
            {"scene": "hello", "trial": 1, "checks": [check("bye", False)]},
            {"scene": "hello", "trial": 2, "checks": [check("bye", True), check("style", False, required=False)]},
        ],
        "file",
        "bye.yaml",
        FINISHED,
    )
    second = store.add_evaluation(
        RUN["run_id"], [{"scene": "hello", "trial": number, "checks": []} for number in (1, 2)], "scene", None, FINISHED
    )

    assert (first, second) == (1, 2)
    own, newest, by_file = store.run(RUN["run_id"]), store.run(RUN["run_id"], None), store.run(RUN["run_id"], 1)
    assert own is not None and newest is not None and by_file is not None
    assert [(e["number"], e["checks_from"], e["checks_file"]) for e in own["evaluations"]] == [
        (0, "run", None),
        (1, "file", "bye.yaml"),
        (2, "scene", None),
    ]
    # The run's own grading is as it was; under evaluation 1 each trial has the outcome its checks there give.
    assert [(r["outcome"], [c["id"] for c in r["checks"]]) for r in own["results"]] == [
        ("passed", ["said_hello"]),
        ("failed", ["said_hello"]),
    ]
    assert [(r["outcome"], [c["id"] for c in r["checks"]]) for r in by_file["results"]] == [
        ("failed", ["bye"]),
        ("passed", ["bye", "style"]),
    ]
    [figures] = by_file["figures"]
    assert (figures["passed"], figures["pass_at"], figures["pass_hat"], figures["checks"]) == (
        1,
        {"1": 0.5, "2": 1.0},
        {"1": 0.5, "2": 0.0},
        {
            "bye": {"required": True, "passed": 1, "trials": 2, "pass_rate": 0.5},
            "style": {"required": False, "passed": 0, "trials": 1, "pass_rate": 0.0},
        },
    )
    assert newest["evaluation"] == 2
    assert [(f["status"], f["pass_at_1"]) for f in newest["figures"]] == [("ungraded", None)]
    assert [r["outcome"] for r in newest["results"]] == ["ungraded", "ungraded"]
    [listed] = store.runs()
    assert (listed["evaluation_count"], listed["figures"]) == (
        3,
        [
            {
                "scene": "hello",
                "status": "graded",
                "trials": 2,
                "invalid": 0,
                "passed": 1,
                "pass_at_1": 0.5,
                "pass_at_k": 1.0,
                "pass_hat_k": 0.0,
            }
        ],
    )


def test_rewriting_a_run_drops_its_evaluations(store: Store) -> None:
    store.start_run(RUN, STARTED)
    store.write_trial(RUN["run_id"], trial(1), [check("said_hello", True)])
    store.add_evaluation(RUN["run_id"], [{"scene": "hello", "trial": 1, "checks": []}], "scene", None, FINISHED)

    store.start_run(RUN, STARTED)

    run = store.run(RUN["run_id"], None)
    assert run is not None
    assert ([e["number"] for e in run["evaluations"]], run["figures"], run["results"]) == ([0], [], [])


def test_the_columns_encoded_by_type_are_the_schemas() -> None:
    from sqlalchemy import JSON, Boolean, DateTime

    from soundstage.store.schema import metadata
    from soundstage.store.writing import BOOLEAN_COLUMNS, JSON_COLUMNS, TIME_COLUMNS

    for typed, kind in ((JSON_COLUMNS, JSON), (TIME_COLUMNS, DateTime), (BOOLEAN_COLUMNS, Boolean)):
        in_schema = {
            table.name: {column.name for column in table.columns if isinstance(column.type, kind)}
            for table in metadata.tables.values()
        }
        assert typed == {name: columns for name, columns in in_schema.items() if columns}


def _write_everything(store: Store) -> None:
    """Every write, with each kind of value: a check undecided, one scored and invalid, an ungraded scene
    (its figures' JSON columns hold null), a run rewritten, a trial rewritten, an evaluation."""
    store.start_run(RUN, STARTED)
    store.start_run(RUN, STARTED)
    scored = {**check("style", True, required=False), "score": 0.75, "invalid": True}
    store.write_trial(RUN["run_id"], trial(1), [check("said_hello", True), check("tone", None), scored])
    store.write_trial(RUN["run_id"], trial(2, "failed"), [check("said_hello", False)])
    store.write_trial(RUN["run_id"], trial(2, "failed"), [check("said_hello", False), check("tone", True)])
    store.write_trial(RUN["run_id"], {**trial(1, "ungraded", scene="free"), "wall_seconds": 2}, [])
    store.finish_run(RUN["run_id"], 1, FINISHED)
    scored_again = [{"scene": "hello", "trial": 2, "checks": [check("said_hello", True)]}]
    assert store.add_evaluation(RUN["run_id"], scored_again, "file", "bye.yaml", FINISHED) == 1


def test_sqlite3_stores_the_rows_sqlalchemy_stores(tmp_path: Path) -> None:
    import sqlite3

    from sqlalchemy import create_engine

    rows = {}
    for way in ("sqlite3", "sqlalchemy"):
        url = f"sqlite:///{tmp_path / way / 'soundstage.db'}"
        opened = open_store(url)  # migrated; written through sqlite3 from then on
        assert opened is not None
        if way == "sqlalchemy":
            opened.close()
            opened = Store(url, url, engine=create_engine(url))
        _write_everything(opened)
        opened.close()
        with sqlite3.connect(tmp_path / way / "soundstage.db") as connection:
            rows[way] = {
                table: [tuple((type(value), value) for value in row) for row in connection.execute(f"SELECT * FROM {table}")]
                for table in ("runs", "trials", "evaluations", "checks", "figures")
            }

    assert rows["sqlite3"] == rows["sqlalchemy"]
    assert ((str, "null"), (str, "null")) in [row[9:11] for row in rows["sqlite3"]["figures"]]  # the ungraded scene
    assert rows["sqlite3"]["runs"][0][7] == (str, "2026-01-01 00:00:00.000000")
