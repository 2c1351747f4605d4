"""The one way a statement runs (transaction.py): values encoded by their column's type, SQLite's as SQLAlchemy's
dialect stores them, whether the store is reached through sqlite3 or through SQLAlchemy's engine."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, create_engine
from tests.stores import FINISHED, RUN, check, ended, trial, trial_json

from soundstage.results import Trial
from soundstage.store import Store, open_store
from soundstage.store.schema import metadata
from soundstage.store.transaction import BOOLEAN_COLUMNS, JSON_COLUMNS, TIME_COLUMNS

TABLES = ("runs", "trials", "evaluations", "checks", "figures")


def test_the_columns_encoded_by_type_are_the_schemas() -> None:
    for typed, kind in ((JSON_COLUMNS, JSON), (TIME_COLUMNS, DateTime), (BOOLEAN_COLUMNS, Boolean)):
        in_schema = {
            table.name: {column.name for column in table.columns if isinstance(column.type, kind)}
            for table in metadata.tables.values()
        }
        assert typed == {name: columns for name, columns in in_schema.items() if columns}


def _write_everything(store: Store) -> None:
    """Every write, with each kind of value: a check undecided, one scored and invalid, one weighed, an ungraded
    scene (its figures' JSON columns hold null), a trial without digests (its JSON column holds null), a run
    rewritten, a trial rewritten, an evaluation."""
    store.start_run(RUN)
    store.start_run(RUN)
    scored = check("style", True, required=False).model_copy(update={"score": 0.75, "invalid": True})
    store.write_trial(RUN.run_id, trial(1, checks=[check("said_hello", True), check("tone", None), scored]))
    store.write_trial(RUN.run_id, trial(2, "failed", checks=[check("said_hello", False)]))
    weighed = check("tone", True).model_copy(update={"weight": 2.5})
    store.write_trial(RUN.run_id, trial(2, "failed", checks=[check("said_hello", False), weighed]))
    free = {**trial_json(1, "ungraded", scene="free"), "wall_seconds": 2, "digests": None}
    store.write_trial(RUN.run_id, Trial.model_validate(free))
    store.finish_run(ended(RUN, 1, FINISHED))
    assert (
        store.add_evaluation(RUN.run_id, {("hello", 2): [check("said_hello", True)]}, "file", "bye.yaml", FINISHED) == 1
    )


def _rows(database: Path) -> dict[str, list[tuple[tuple[type, Any], ...]]]:
    """Each table's rows as SQLite keeps them: each value with its type."""
    with sqlite3.connect(database) as connection:
        return {
            table: [
                tuple((type(value), value) for value in row) for row in connection.execute(f"SELECT * FROM {table}")
            ]
            for table in TABLES
        }


def test_sqlite_rows_are_those_sqlalchemys_own_inserts_store(tmp_path: Path) -> None:
    """Stores written by earlier versions (through SQLAlchemy) and Alembic's migrations read alike."""
    url = f"sqlite:///{tmp_path / 'store' / 'soundstage.db'}"
    opened = open_store(url)
    assert opened is not None
    _write_everything(opened)
    opened.close()
    # The same values, read back by SQLAlchemy's types and written again by its inserts into a fresh store.
    again = open_store(f"sqlite:///{tmp_path / 'again' / 'soundstage.db'}")
    assert again is not None
    again.close()
    engine = create_engine(f"sqlite:///{tmp_path / 'again' / 'soundstage.db'}")
    with create_engine(url).connect() as source, engine.begin() as target:
        for table in TABLES:
            found = [dict(row) for row in source.execute(metadata.tables[table].select()).mappings()]
            target.execute(metadata.tables[table].insert(), found)
    engine.dispose()

    written, inserted = _rows(tmp_path / "store" / "soundstage.db"), _rows(tmp_path / "again" / "soundstage.db")

    assert written == inserted
    assert ((str, "null"), (str, "null")) in [row[9:11] for row in written["figures"]]  # the ungraded scene
    # A trial's score, added after its digests, comes last: none for the one with an invalid check, nor ungraded.
    digests = [column.name for column in metadata.tables["trials"].columns].index("digests")
    assert [(row[digests], row[-1]) for row in written["trials"]] == [
        ((str, '{"result.json": "sha256:' + f"{1:064x}" + '"}'), (type(None), None)),
        ((str, '{"result.json": "sha256:' + f"{2:064x}" + '"}'), (float, 0.7143)),
        ((str, "null"), (type(None), None)),
    ]
    assert [row[-1] for row in written["checks"]] == [(float, 1.0)] * 4 + [(float, 2.5), (float, 1.0)]
    assert written["runs"][0][7] == (str, "2026-01-01 00:00:00.000000")


def test_a_sqlite_store_reached_through_sqlalchemy_stores_the_same_rows(tmp_path: Path) -> None:
    """A SQLite URL that sqlite3 is not given (a query, escapes) is reached through SQLAlchemy's engine."""
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
        rows[way] = _rows(tmp_path / way / "soundstage.db")

    assert rows["sqlite3"] == rows["sqlalchemy"]
