"""Reading runs back: the list, newest first, with its counts."""

from __future__ import annotations

from datetime import timedelta

from tests.stores import RUN, STARTED, check, trial

from soundstage.store import open_store


def test_runs_are_listed_newest_first_with_trials_written_and_passed(store_url: str) -> None:
    store = open_store(store_url)
    assert store is not None
    older, newer, empty = (
        RUN.model_copy(update={"run_id": "a"}),
        RUN.model_copy(
            update={"run_id": "b", "scenes": ["x.yaml", "y.yaml"], "started_at": STARTED + timedelta(hours=1)}
        ),
        RUN.model_copy(update={"run_id": "c", "started_at": STARTED - timedelta(hours=1)}),
    )
    store.start_run(newer)
    store.start_run(older)
    store.start_run(empty)
    store.write_trial("a", trial(1, checks=[check("said_hello", True)]))
    store.write_trial("a", trial(2, "failed", checks=[check("said_hello", False)]))
    store.write_trial("b", trial(1, scene="x"))

    listed = [
        (r.run.run_id, r.run.started_at, r.run.scenes, r.trials_written, r.trials_passed, r.run.results)
        for r in store.runs()
    ]

    assert listed == [
        ("b", STARTED + timedelta(hours=1), ["x.yaml", "y.yaml"], 1, 1, []),
        ("a", STARTED, ["seeds/hello.yaml"], 2, 1, []),
        ("c", STARTED - timedelta(hours=1), ["seeds/hello.yaml"], 0, 0, []),
    ]
    assert [r.run.model_dump(mode="json")["started_at"] for r in store.runs()] == [
        "2026-01-01T01:00:00Z",
        "2026-01-01T00:00:00Z",
        "2025-12-31T23:00:00Z",
    ]
    assert store.run_ids() == ["b", "a", "c"]
    assert store.run("nope") is None
    store.close()
