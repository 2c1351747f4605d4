"""Alembic's environment: migrates the connection that migrations.py hands over in the config."""

from __future__ import annotations

from alembic import context

from soundstage.store.schema import metadata

context.configure(connection=context.config.attributes["connection"], target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
