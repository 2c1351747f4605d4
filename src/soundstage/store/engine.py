"""writing.py's `Transaction` over a SQLAlchemy connection: a PostgreSQL store, and a SQLite store while it is
migrated. Its parameters get the columns' types of schema.py, so values are stored as the tables' own inserts
would store them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Connection, DateTime, TextClause, bindparam, text

from .writing import BOOLEAN_COLUMNS, JSON_COLUMNS, TIME_COLUMNS, decoded


class EngineTransaction:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def execute(self, table: str, sql: str, params: dict[str, Any]) -> None:
        self.connection.execute(_statement(table, sql, params), params)

    def executemany(self, table: str, sql: str, rows: list[dict[str, Any]]) -> None:
        self.connection.execute(_statement(table, sql, rows[0]), rows)

    def rows(self, table: str, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        as_text = self.connection.dialect.name == "sqlite"  # PostgreSQL's driver decodes JSON itself
        found = self.connection.execute(_statement(table, sql, params), params).mappings()
        return [decoded(table, dict(row), as_text) for row in found]


def _statement(table: str, sql: str, params: dict[str, Any]) -> TextClause:
    types: dict[str, Any] = {name: JSON for name in JSON_COLUMNS.get(table, ())}
    types.update({name: DateTime(timezone=True) for name in TIME_COLUMNS.get(table, ())})
    types.update({name: Boolean for name in BOOLEAN_COLUMNS.get(table, ())})
    return text(sql).bindparams(*[bindparam(name, type_=types[name]) for name in params if name in types])
