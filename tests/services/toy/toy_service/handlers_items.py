"""The shelf's operations."""

from __future__ import annotations

from typing import Any

from . import items
from .calls import Call, ops
from .errors import ToyError
from .store import ITEMS


@ops("GET /items")
def list_items(call: Call) -> Any:
    return {"items": list(call.world[ITEMS])}


@ops("GET /items/{id}")
def get_item(call: Call) -> Any:
    item = call.world[ITEMS].get(call.params["id"])
    if item is None:
        raise ToyError(404, "no such item")
    return item


@ops("POST /items")
def add_item(call: Call) -> Any:
    name = call.fields.get("name")
    if not isinstance(name, str) or not name:
        raise ToyError(400, "an item has a name")
    return items.add(call.world, name)
