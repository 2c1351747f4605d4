"""Writing runs, trials and checks: what is read back, rewriting, and the runner writing trials as they end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.stores import FINISHED, RUN, check, ended, trial, trial_json

from soundstage.checks import RESULT_VERSION, CheckResult
from soundstage.results import Trial
from soundstage.results.files import read_trial
from soundstage.runner import run_scenes
from soundstage.store import Store, open_store

STAGE = Path(__file__).parent.parent / "cli" / "stage"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    assert opened is not None
    yield opened
    opened.close()


def stored_check(result: CheckResult) -> dict:
    """A check result as the store gives it back: without its arguments (the store keeps none), as this version's."""
    return {**result.model_dump(mode="json"), "args": {}, "version": RESULT_VERSION}


def test_a_written_run_reads_back_field_for_field(store: Store) -> None:
    style = check("style", None, required=False).model_copy(update={"weight": 3.0})
    checks = [check("said_hello", True), style]
    store.start_run(RUN)
    store.write_trial(RUN.run_id, trial(1, checks=checks))
    store.write_trial(RUN.run_id, trial(2, "failed", checks=[check("said_hello", False)]))
    store.finish_run(ended(RUN, 1, FINISHED))

    read = store.run(RUN.run_id)

    assert read is not None
    run = read.model_dump(mode="json")
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
            "mean_score": 0.125,
            "checks": {
                "said_hello": {"required": True, "passed": 1, "trials": 2, "pass_rate": 0.5},
                "style": {"required": False, "passed": 0, "trials": 1, "pass_rate": 0.0},
            },
        }
    ]
    assert run == {
        "version": 2,
        "run_id": "20260101-000000",
        "folder": "runs/20260101-000000",
        "agent": "python agent.py",
        "scenes": ["seeds/hello.yaml"],
        "trials": 2,
        "strict": False,
        "exit_code": 1,
        "started_at": "2026-01-01T00:00:00Z",
        "finished_at": "2026-01-01T00:01:30Z",
        "sandbox": None,  # the store keeps neither of these two
        "infrastructure": [],
    }
    # Its score: 1 of 4, the undecided check weighing 3.
    checked = [stored_check(result) for result in checks]
    assert results[0] == {**trial_json(1), "version": 2, "score": 0.25, "checks": checked}
    assert [(r["trial"], r["outcome"], r["score"], [c["passed"] for c in r["checks"]]) for r in results] == [
        (1, "passed", 0.25, [True, None]),
        (2, "failed", 0.0, [False]),
    ]


def test_a_trial_keeps_the_score_it_was_stored_with_and_an_invalid_one_none(store: Store) -> None:
    store.start_run(RUN)
    store.write_trial(RUN.run_id, trial(1, checks=[check("said_hello", True)]).model_copy(update={"score": 0.5}))
    # Its checks passed, but soundstage could not write its files: invalid, with no score.
    broken = trial(2, checks=[check("said_hello", True)])
    store.write_trial(RUN.run_id, broken.model_copy(update={"outcome": "invalid", "score": None}))
    store.finish_run(ended(RUN, 3, FINISHED))

    read = store.run(RUN.run_id)

    assert read is not None
    assert [(r.outcome, r.score) for r in read.results] == [("passed", 0.5), ("invalid", None)]
    assert [(f.k, f.mean_score) for f in read.figures or []] == [(1, 0.5)]


def test_rewriting_a_trial_replaces_its_checks(store: Store) -> None:
    store.start_run(RUN)
    store.write_trial(RUN.run_id, trial(1, "failed", checks=[check("said_hello", False), check("posted", False)]))
    store.write_trial(RUN.run_id, trial(1, checks=[check("said_hello", True)]))

    run = store.run(RUN.run_id)

    assert run is not None
    assert [(r.outcome, [c.id for c in r.checks]) for r in run.results] == [("passed", ["said_hello"])]


def test_a_trial_keeps_its_attempts_and_one_written_before_there_were_any_ran_once(store: Store) -> None:
    store.start_run(RUN)
    store.write_trial(
        RUN.run_id, Trial.model_validate({**trial_json(1), "attempts": 2, "checks": [check("said_hello", True)]})
    )
    before = {k: v for k, v in trial_json(2).items() if k != "attempts"}  # a result.json written before attempts
    store.write_trial(RUN.run_id, Trial.model_validate({**before, "checks": [check("said_hello", True)]}))

    run = store.run(RUN.run_id)

    assert run is not None
    assert [(r.trial, r.attempts) for r in run.results] == [(1, 2), (2, 1)]


def test_rewriting_a_run_replaces_its_rows_and_leaves_other_runs_alone(store: Store) -> None:
    other = RUN.model_copy(update={"run_id": "20260101-000000-2"})
    for run in (RUN, other):
        store.start_run(run)
        store.write_trial(run.run_id, trial(1, checks=[check("said_hello", True)]))
        store.write_trial(run.run_id, trial(2, checks=[check("said_hello", True)]))

    store.start_run(RUN.model_copy(update={"agent": "python better.py", "started_at": FINISHED}))
    store.write_trial(RUN.run_id, trial(1, "failed", checks=[check("said_hello", False)]))

    rewritten, kept = store.run(RUN.run_id), store.run(other.run_id)
    assert rewritten is not None and kept is not None
    assert (rewritten.agent, rewritten.exit_code, rewritten.started_at) == ("python better.py", None, FINISHED)
    assert [(r.trial, r.outcome) for r in rewritten.results] == [(1, "failed")]
    assert [(r.trial, r.outcome) for r in kept.results] == [(1, "passed"), (2, "passed")]


def test_a_trial_read_from_its_folder_is_written_with_its_checks_json(store: Store, tmp_path: Path) -> None:
    import json

    for number, checks in ((1, [check("said_hello", False)]), (2, None)):  # a trial not carried out has no checks.json
        folder = tmp_path / "hello" / str(number)
        folder.mkdir(parents=True)
        (folder / "result.json").write_text(json.dumps(trial_json(number, "failed" if checks else "invalid")))
        if checks:
            (folder / "checks.json").write_text(json.dumps([c.model_dump(mode="json") for c in checks]))
    store.start_run(RUN)
    for number in (1, 2):
        store.write_trial(RUN.run_id, read_trial(tmp_path / "hello" / str(number)))

    run = store.run(RUN.run_id)

    assert run is not None
    assert [[c.id for c in r.checks] for r in run.results] == [["said_hello"], []]


def test_the_runner_writes_each_trial_as_it_ends_so_a_stopped_run_keeps_it(store: Store, tmp_path: Path) -> None:
    agent = f"python3 {STAGE / 'agent.py'} hello"

    def stop(_: Trial) -> None:
        raise KeyboardInterrupt  # Ctrl-C once the first trial has ended

    with pytest.raises(KeyboardInterrupt):
        run_scenes(
            [str(STAGE / "hello.yaml")],
            agent,
            trials=2,
            out=tmp_path / "runs",
            store=lambda: open_store(store.url),
            on_progress=stop,
        )

    [listed] = store.runs()
    run = store.run(listed.run.run_id)
    assert run is not None
    assert (run.exit_code, run.finished_at, run.agent, run.trials) == (None, None, agent, 2)
    assert [(r.scene, r.trial, r.outcome) for r in run.results] == [("hello", 1, "passed")]
    assert [c.passed for c in run.results[0].checks] == [True, True]
    assert run.results[0].folder == str(tmp_path / "runs" / run.run_id / "hello" / "1")


def test_a_finished_run_is_stored_with_its_exit_code(store: Store, tmp_path: Path) -> None:
    agent = f"python3 {STAGE / 'agent.py'} exit 0"

    result = run_scenes(
        [str(STAGE / "hello.yaml")], agent, trials=2, out=tmp_path / "runs", store=lambda: open_store(store.url)
    )

    run = store.run(result.run_id)
    assert run is not None
    assert run.exit_code == 1 and run.finished_at is not None
    assert run.folder == result.folder
    stored = [(r.trial, r.outcome, r.world, r.counts) for r in run.results]
    assert stored == [(t.trial, t.outcome, t.world, t.counts) for t in result.results]
    # The store computes the figures from its rows: the same as run.json's.
    assert run.figures == result.figures


def test_an_evaluation_scores_the_same_trials_again_with_figures_of_its_own(store: Store) -> None:
    store.start_run(RUN)
    store.write_trial(RUN.run_id, trial(1, checks=[check("said_hello", True)]))
    store.write_trial(RUN.run_id, trial(2, "failed", checks=[check("said_hello", False)]))
    store.finish_run(ended(RUN, 1, FINISHED))

    first = store.add_evaluation(
        RUN.run_id,
        {
            ("hello", 1): [check("bye", False)],
            ("hello", 2): [check("bye", True), check("style", False, required=False)],
        },
        "file",
        "bye.yaml",
        FINISHED,
    )
    second = store.add_evaluation(RUN.run_id, {("hello", number): [] for number in (1, 2)}, "scene", None, FINISHED)

    assert (first, second) == (1, 2)
    own, newest, by_file = store.run(RUN.run_id), store.run(RUN.run_id, None), store.run(RUN.run_id, 1)
    assert own is not None and newest is not None and by_file is not None
    assert [(e.number, e.checks_from, e.checks_file) for e in own.evaluations] == [
        (0, "run", None),
        (1, "file", "bye.yaml"),
        (2, "scene", None),
    ]
    # The run's own grading is as it was; under evaluation 1 each trial has the outcome its checks there give.
    assert [(r.outcome, [c.id for c in r.checks]) for r in own.results] == [
        ("passed", ["said_hello"]),
        ("failed", ["said_hello"]),
    ]
    assert [(r.outcome, [c.id for c in r.checks]) for r in by_file.results] == [
        ("failed", ["bye"]),
        ("passed", ["bye", "style"]),
    ]
    # So has each its score, and the scene its mean score.
    assert ([r.score for r in own.results], [r.score for r in by_file.results]) == ([1.0, 0.0], [0.0, 0.5])
    assert [f.mean_score for f in by_file.figures or []] == [0.25]
    [figures] = [f.model_dump(mode="json") for f in by_file.figures or []]
    assert (figures["passed"], figures["pass_at"], figures["pass_hat"], figures["checks"]) == (
        1,
        {"1": 0.5, "2": 1.0},
        {"1": 0.5, "2": 0.0},
        {
            "bye": {"required": True, "passed": 1, "trials": 2, "pass_rate": 0.5},
            "style": {"required": False, "passed": 0, "trials": 1, "pass_rate": 0.0},
        },
    )
    assert newest.evaluation == 2
    assert [(f.status, f.pass_at_1) for f in newest.figures or []] == [("ungraded", None)]
    assert [r.outcome for r in newest.results] == ["ungraded", "ungraded"]
    [listed] = store.runs()
    assert (len(listed.run.evaluations), [f.model_dump(mode="json") for f in listed.run.figures or []]) == (
        3,
        [
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
                "mean_score": 0.5,
                "checks": {"said_hello": {"required": True, "passed": 1, "trials": 2, "pass_rate": 0.5}},
            }
        ],
    )


def test_rewriting_a_run_drops_its_evaluations(store: Store) -> None:
    store.start_run(RUN)
    store.write_trial(RUN.run_id, trial(1, checks=[check("said_hello", True)]))
    store.add_evaluation(RUN.run_id, {("hello", 1): []}, "scene", None, FINISHED)

    store.start_run(RUN)

    run = store.run(RUN.run_id, None)
    assert run is not None
    assert ([e.number for e in run.evaluations], run.figures, run.results) == ([0], [], [])
