"""Reading runs back: the list, newest first, with its counts."""

from __future__ import annotations

from datetime import timedelta

from soundstage.store import open_store
from tests.stores import RUN, STARTED, check, trial


def test_runs_are_listed_newest_first_with_trials_written_and_passed(store_url: str) -> None:
    store = open_store(store_url)
    assert store is not None
    older, newer, empty = (
        {**RUN, "run_id": "a"},
        {**RUN, "run_id": "b", "scenes": ["x.yaml", "y.yaml"]},
        {**RUN, "run_id": "c"},
    )
    store.start_run(newer, STARTED + timedelta(hours=1))
    store.start_run(older, STARTED)
    store.start_run(empty, STARTED - timedelta(hours=1))
    store.write_trial("a", trial(1), [check("said_hello", True)])
    store.write_trial("a", trial(2, "failed"), [check("said_hello", False)])
    store.write_trial("b", trial(1, scene="x"), [])

    listed = [
        (r["run_id"], r["started_at"], r["scenes"], r["trials_written"], r["trials_passed"]) for r in store.runs()
    ]

    assert listed == [
        ("b", "2026-01-01T01:00:00Z", ["x.yaml", "y.yaml"], 1, 1),
        ("a", "2026-01-01T00:00:00Z", ["seeds/hello.yaml"], 2, 1),
        ("c", "2025-12-31T23:00:00Z", ["seeds/hello.yaml"], 0, 0),
    ]
    assert store.run_ids() == ["b", "a", "c"]
    assert store.run("nope") is None
    store.close()
