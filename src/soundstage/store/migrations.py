"""Bringing a store's tables to the newest schema: Alembic, driven from Python (no alembic.ini).

Alembic (and Mako under it) is loaded only when a store is behind `HEAD`: that is a third of a second of
CPU, which a run against an up-to-date store, every run but a store's first, would otherwise pay. SQLAlchemy
itself is loaded by `migrate`, not by `HEAD`: a SQLite store at `HEAD` is written and read without it (sqlite.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .transaction import over
from .writing import fill_figures

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

SCRIPTS = Path(__file__).with_name("revisions")
# The newest revision, read from the files' names: the revisions are numbered in order, each file named after
# its revision id (`0002_evaluations_and_figures.py` is revision "0002"); tests/store/test_migrations.py holds
# this to Alembic's head.
HEAD = max(path.name.partition("_")[0] for path in (SCRIPTS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def migrate(engine: Engine) -> None:
    """Applies the migrations the store has not had yet, in one transaction (PostgreSQL rolls back a
    half-applied migration; SQLite's DDL is transactional as well through the driver's own transaction).
    Figures are computed by results/figures.py, which a revision does not import: the figures of runs stored
    before the store had them are written here, once."""
    with engine.begin() as connection:
        if revision(connection) != HEAD:
            _upgrade(connection)
        fill_figures(over(connection))


def revision(connection: Connection) -> str | None:
    """The store's revision, read from Alembic's own table; None for a store without one (a new store)."""
    from sqlalchemy import inspect, text

    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return found[0] if len(found) == 1 else None


def _upgrade(connection: Connection) -> None:
    from alembic import command  # only here: see the module's docstring
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
