"""A SQLite store at the newest schema, reached with the stdlib's sqlite3: SQLAlchemy is a quarter of a run's
imports, and loads only to make or migrate a store (and for PostgreSQL)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .transaction import Transaction

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
    if (
        connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone()
        is None
    ):
        return None
    found = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    return found[0][0] if len(found) == 1 else None


@contextmanager
def transaction(connection: sqlite3.Connection, lock: threading.Lock) -> Iterator[Transaction]:
    """Commits when the block ends, rolls back when it raises."""
    with lock:
        connection.execute("BEGIN")
        try:
            yield Transaction(connection, sqlite=True)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
