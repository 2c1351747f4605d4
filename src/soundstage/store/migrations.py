"""Bringing a store's tables to the newest schema: Alembic, driven from Python (no alembic.ini)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

from .writing import fill_figures

SCRIPTS = Path(__file__).with_name("revisions")


def migrate(engine: Engine) -> None:
    """Applies the migrations the store has not had yet, in one transaction (PostgreSQL rolls back a
    half-applied migration; SQLite's DDL is transactional as well through the driver's own transaction).
    Figures are computed by figures.py, which a revision does not import: the figures of runs stored before
    the store had them are written here, once."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        fill_figures(connection)
