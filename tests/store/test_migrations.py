"""The migrations build exactly the tables of schema.py, on SQLite and PostgreSQL alike, and a store made by
an earlier revision is brought up to date in place, its rows kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from tests.stores import FINISHED, STARTED, check

from soundstage.store import DRIVERS, migrations, open_store
from soundstage.store.migrations import HEAD, SCRIPTS
from soundstage.store.schema import metadata


def test_the_migrated_tables_are_the_schemas(store_url: str) -> None:
    store = open_store(store_url)
    assert store is not None

    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)

    assert differences == []
    store.close()


def test_head_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))

    assert ScriptDirectory.from_config(config).get_heads() == [HEAD]


def test_a_store_at_head_is_opened_without_alembic(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    made = open_store(store_url)
    assert made is not None
    made.close()

    def refused(connection: object) -> None:
        raise AssertionError("a store at HEAD needs no migration")

    monkeypatch.setattr(migrations, "_upgrade", refused)
    store = open_store(store_url)

    assert store is not None
    with store.engine.connect() as connection:
        assert migrations.revision(connection) == HEAD
    store.close()


def migrate_to(engine: Engine, revision: str, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_a_store_of_revision_0001_is_upgraded_in_place(store_url: str, tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()  # where the SQLite case's file goes
    url = make_url(store_url)
    engine = create_engine(url.set(drivername=DRIVERS[url.drivername]))
    migrate_to(engine, "0001")
    said, posted = check("said_hello", True), check("posted", False)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO runs VALUES ('r1', 'runs/r1', 'python agent.py', '[\"hello.yaml\"]', 2, false, 1,"
                " :started, :finished)"
            ),
            {"started": STARTED, "finished": FINISHED},
        )
        for number, outcome in ((1, "passed"), (2, "failed")):
            connection.execute(
                text(
                    "INSERT INTO trials VALUES ('r1', 'hello', :number, 'w', :outcome, 0, false, false, 'exited',"
                    " 1.0, 2.0, 1, 2, 0, 0, 0, :folder)"
                ),
                {"number": number, "outcome": outcome, "folder": f"runs/r1/hello/{number}"},
            )
            for position, result in enumerate([said, posted if number == 2 else said]):
                connection.execute(
                    text(
                        "INSERT INTO checks VALUES ('r1', 'hello', :number, :position, :id, 'trace', true,"
                        " :passed, false, NULL, 'x', 'y', 'z', '[]', 'scene')"
                    ),
                    {"number": number, "position": position, "id": result.id, "passed": result.passed},
                )

    store = open_store(store_url)

    assert store is not None
    run = store.run("r1", None)
    assert run is not None
    assert (run.evaluation, [e.created_at for e in run.evaluations]) == (0, [STARTED])
    assert [(r.outcome, [(c.id, c.passed) for c in r.checks]) for r in run.results] == [
        ("passed", [("said_hello", True), ("said_hello", True)]),
        ("failed", [("said_hello", True), ("posted", False)]),
    ]
    # Stored before there were attempts (each ran once), sandboxes and digests (none recorded).
    assert [(r.attempts, r.sandbox, r.digests) for r in run.results] == [(1, None, None), (1, None, None)]
    # The figures of a run stored before there were any are written when the store is opened.
    assert [(f.scene, f.passed, f.pass_at, f.pass_hat) for f in run.figures or []] == [
        ("hello", 1, {"1": 0.5, "2": 1.0}, {"1": 0.5, "2": 0.0})
    ]
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    store.add_evaluation("r1", {("hello", 1): [check("bye", True)]}, "scene", None, STARTED)
    store.close()

    # Going back to 0001 keeps the runs' own check results, under the old key.
    migrate_to(engine, "0001", down=True)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT trial, position, check_id FROM checks ORDER BY trial, position")).all()
        tables = connection.execute(text("SELECT count(*) FROM runs")).scalar()
    assert [tuple(row) for row in rows] == [
        (1, 0, "said_hello"),
        (1, 1, "said_hello"),
        (2, 0, "said_hello"),
        (2, 1, "posted"),
    ]
    assert tables == 1
    engine.dispose()


def test_a_store_of_revision_0004_gains_weights_and_scores_its_rows_kept(store_url: str, tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    url = make_url(store_url)
    engine = create_engine(url.set(drivername=DRIVERS[url.drivername]))
    migrate_to(engine, "0004")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO runs VALUES ('r1', 'runs/r1', 'python agent.py', '[\"hello.yaml\"]', 1, false, 0,"
                " :started, :finished)"
            ),
            {"started": STARTED, "finished": FINISHED},
        )
        connection.execute(
            text("INSERT INTO evaluations VALUES ('r1', 0, 'run', NULL, :started)"), {"started": STARTED}
        )
        connection.execute(
            text(
                "INSERT INTO trials VALUES ('r1', 'hello', 1, 'w', 'passed', 0, false, false, 'exited', 1.0, 2.0,"
                " 1, 2, 0, 0, 0, 'runs/r1/hello/1', 1, 'bwrap', NULL, NULL)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO checks (run_id, evaluation, scene, trial, position, check_id, kind, required, passed,"
                " invalid, score, expected, actual, explanation, evidence, source) VALUES ('r1', 0, 'hello', 1, 0,"
                " 'said_hello', 'trace', true, true, false, 1.0, 'x', 'y', 'z', '[]', 'scene')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO figures (run_id, evaluation, scene, status, trials, invalid, passed, pass_at_1,"
                " pass_at_k, pass_hat_k, pass_at, pass_hat, checks) VALUES ('r1', 0, 'hello', 'graded', 1, 0, 1,"
                " 1.0, 1.0, 1.0, '{}', '{}', :checks)"
            ),
            {"checks": '{"said_hello": {"required": true, "passed": 1, "trials": 1, "pass_rate": 1.0}}'},
        )

    store = open_store(store_url)

    assert store is not None
    run = store.run("r1")
    assert run is not None
    # Stored before scores: its check weighs 1, as every check did; the trial and its scene have no score.
    assert [(r.score, [(c.id, c.weight) for c in r.checks]) for r in run.results] == [(None, [("said_hello", 1.0)])]
    assert [(f.passed, f.mean_score) for f in run.figures or []] == [(1, None)]
    # Scored again, the same trial gets the score its checks give.
    store.add_evaluation(
        "r1", {("hello", 1): [check("said_hello", True), check("tone", False)]}, "scene", None, STARTED
    )
    again = store.run("r1", 1)
    assert again is not None
    assert ([r.score for r in again.results], [f.mean_score for f in again.figures or []]) == ([0.5], [0.5])
    store.close()

    migrate_to(engine, "0004", down=True)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM checks")).scalar() == 3
    engine.dispose()
