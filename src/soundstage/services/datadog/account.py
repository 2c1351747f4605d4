"""The world's one Datadog organization: its UUID and that of its default incident type, made from the
world's seed, so they are the same in every copy of the world without drawing on the id counters."""

from __future__ import annotations

import hashlib
import uuid

from ...world import World


def _seeded_uuid(world: World, name: str) -> str:
    digest = hashlib.sha256(f"{world.ids.seed}\x00datadog:{name}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def org_id(world: World) -> str:
    """The organization every user belongs to (a user's `org` relationship)."""
    return _seeded_uuid(world, "org")


def incident_type_id(world: World) -> str:
    """The organization's default incident type, which every incident has (`incident_type_uuid`)."""
    return _seeded_uuid(world, "incident_type")
