"""The migrations build exactly the tables of schema.py, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from soundstage.store import open_store
from soundstage.store.schema import metadata


def test_the_migrated_tables_are_the_schemas(store_url: str) -> None:
    store = open_store(store_url)
    assert store is not None

    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)

    assert differences == []
    store.close()
