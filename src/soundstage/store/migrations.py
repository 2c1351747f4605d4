"""Bringing a store's tables to the newest schema: Alembic, driven from Python (no alembic.ini)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

SCRIPTS = Path(__file__).with_name("revisions")


def migrate(engine: Engine) -> None:
    """Applies the migrations the store has not had yet, in one transaction (PostgreSQL rolls back a
    half-applied migration; SQLite's DDL is transactional as well through the driver's own transaction)."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
