"""Priorities: `GET /priorities`, in the account's order (most urgent first)."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops, paginate
from .store import PRIORITIES
from .views_directory import priority_view


@ops("GET /priorities")
def priorities_list(call: Call) -> dict[str, Any]:
    priorities = sorted(call.world[PRIORITIES], key=lambda p: p["order"])
    return paginate(call, "priorities", priorities, lambda p: priority_view(call, p))
