"""Items on the shelf: state changes and lookups, no HTTP."""

from __future__ import annotations

from soundstage.world import Record, World

from .store import ITEMS


def add(world: World, name: str) -> Record:
    item_id = f"i{world.ids.next('toy')}"
    return world[ITEMS].add(item_id, {"id": item_id, "name": name})
