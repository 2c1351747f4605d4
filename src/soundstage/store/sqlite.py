"""The SQLite store written with the stdlib's sqlite3, once it is at the newest schema: SQLAlchemy is a quarter
of a run's imports, and a run only writes. Values are encoded as SQLAlchemy's SQLite dialect encodes them
(tests/store/test_writing.py compares the rows), so either can read what the other wrote."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from .writing import JSON_COLUMNS, TIME_COLUMNS, decoded

# Seconds a write waits for a lock another process holds before it fails (the run tries again: runner.py).
BUSY_TIMEOUT = 5.0


def connect(path: Path) -> sqlite3.Connection:
    """Foreign keys on; and a write-ahead log synced at its checkpoints, not at every commit: a trial's write
    costs a fraction of the fsyncs of the rollback journal (benchmarks/store.py), readers do not wait for
    writers, and a crash of soundstage never loses a commit (a crash of the machine may lose the last ones).
    Transactions are begun and ended here (`isolation_level=None`), from any thread, one at a time."""
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    try:
        pragmas(connection)
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def pragmas(connection: Any, _record: Any = None) -> None:
    """Set on every connection to the store, SQLAlchemy's as well (a `connect` event: `_record` is its pool's)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def revision(connection: sqlite3.Connection) -> str | None:
    """The store's revision, from Alembic's own table; None for a store without one (a new store)."""
    if connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone() is None:
        return None
    found = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    return found[0][0] if len(found) == 1 else None


class SqliteTransaction:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, table: str, sql: str, params: dict[str, Any]) -> None:
        self.connection.execute(sql, encoded(table, params))

    def executemany(self, table: str, sql: str, rows: list[dict[str, Any]]) -> None:
        self.connection.executemany(sql, [encoded(table, row) for row in rows])

    def rows(self, table: str, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        cursor = self.connection.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [decoded(table, dict(zip(names, row)), True) for row in cursor.fetchall()]


@contextmanager
def transaction(connection: sqlite3.Connection, lock: threading.Lock) -> Iterator[SqliteTransaction]:
    """Commits when the block ends, rolls back when it raises."""
    with lock:
        connection.execute("BEGIN")
        try:
            yield SqliteTransaction(connection)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")


def encoded(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """A row of `table` as SQLAlchemy's SQLite dialect stores it: JSON as `json.dumps` text (None as `null`),
    times as `YYYY-MM-DD HH:MM:SS.ffffff` without their zone (they are UTC)."""
    json_columns, times = JSON_COLUMNS.get(table, ()), TIME_COLUMNS.get(table, ())
    out = dict(row)
    for name, value in row.items():
        if name in json_columns:
            out[name] = json.dumps(value)
        elif name in times and value is not None:
            out[name] = _time(value)
    return out


def _time(value: datetime) -> str:
    return (
        f"{value.year:04d}-{value.month:02d}-{value.day:02d} "
        f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}"
    )
