"""One transaction on the results store, the one way its statements run (writing.py, reading.py): on SQLite
through the stdlib's sqlite3 and on PostgreSQL through psycopg, each a DB-API connection. Statements are
plain SQL with named parameters (`:name`), the same for both; values are encoded and decoded here alone, by
the type of their column, so the two databases are written and read by the same code. SQLite keeps each
value as SQLAlchemy's SQLite dialect keeps it (JSON as text, times as UTC text without their zone, booleans as
0 and 1): stores written by earlier versions and by Alembic's migrations read alike
(tests/store/test_transaction.py holds the two to the same rows)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

# The columns of schema.py that are not plain numbers or text, by type and table (tests/store/test_transaction.py
# holds these to the schema).
JSON_COLUMNS = {
    "runs": {"scenes"},
    "trials": {"digests"},
    "checks": {"evidence"},
    "figures": {"pass_at", "pass_hat", "checks"},
}
TIME_COLUMNS = {"runs": {"started_at", "finished_at"}, "evaluations": {"created_at"}}
BOOLEAN_COLUMNS = {"runs": {"strict"}, "trials": {"killed", "timed_out"}, "checks": {"required", "passed", "invalid"}}

# psycopg's parameters are `%(name)s` where sqlite3's are `:name` (the statements have no `::` casts and no `%`).
_NAMED = re.compile(r":(\w+)")


class Transaction:
    """Statements on one table at a time (`table` says how to encode and decode its columns), in a
    transaction begun and ended by whoever made it (`sqlite.transaction`, or SQLAlchemy's for PostgreSQL).
    Values are Python's: JSON columns' the value to encode (None is JSON's null), times aware datetimes."""

    def __init__(self, connection: Any, sqlite: bool) -> None:
        self.cursor = connection.cursor()
        self.sqlite = sqlite

    def execute(self, table: str, sql: str, params: dict[str, Any]) -> None:
        self.cursor.execute(self._sql(sql), self._encoded(table, params))

    def executemany(self, table: str, sql: str, rows: list[dict[str, Any]]) -> None:
        self.cursor.executemany(self._sql(sql), [self._encoded(table, row) for row in rows])

    def rows(self, table: str, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows a query of `table` answers, each by column name, decoded."""
        self.cursor.execute(self._sql(sql), self._encoded(table, params))
        names = [column[0] for column in self.cursor.description]
        return [self._decoded(table, dict(zip(names, row))) for row in self.cursor.fetchall()]

    def _sql(self, sql: str) -> str:
        return sql if self.sqlite else _NAMED.sub(r"%(\1)s", sql)

    def _encoded(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        json_columns, times = JSON_COLUMNS.get(table, ()), TIME_COLUMNS.get(table, ())
        out = dict(row)
        for name, value in row.items():
            if name in json_columns:
                out[name] = json.dumps(value)  # psycopg hands text to a json column as it is
            elif name in times and value is not None and self.sqlite:
                out[name] = _sqlite_time(value)
        return out

    def _decoded(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        booleans, json_columns, times = (
            BOOLEAN_COLUMNS.get(table, ()),
            JSON_COLUMNS.get(table, ()),
            TIME_COLUMNS.get(table, ()),
        )
        for name, value in row.items():
            if value is None:
                continue
            if name in booleans:
                row[name] = bool(value)  # SQLite keeps 0 and 1
            elif name in json_columns and self.sqlite:  # psycopg decodes JSON itself
                row[name] = json.loads(value)
            elif name in times:
                row[name] = _utc(datetime.fromisoformat(value) if self.sqlite else value)
        return row


def _sqlite_time(value: datetime) -> str:
    """`YYYY-MM-DD HH:MM:SS.ffffff` in UTC, without the zone: SQLAlchemy's SQLite dialect's form."""
    value = value.astimezone(UTC)
    return (
        f"{value.year:04d}-{value.month:02d}-{value.day:02d} "
        f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}"
    )


def _utc(value: datetime) -> datetime:
    """SQLite's times come back without their zone: they were written in UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def over(connection: Any) -> Transaction:
    """The transaction of a SQLAlchemy connection (PostgreSQL, or a SQLite store being migrated), through its
    driver's own connection."""
    return Transaction(connection.connection.driver_connection, sqlite=connection.dialect.name == "sqlite")
