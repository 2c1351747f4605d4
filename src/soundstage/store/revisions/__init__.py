"""Alembic's migrations of the results store, applied by ..migrations (no alembic.ini needed)."""
