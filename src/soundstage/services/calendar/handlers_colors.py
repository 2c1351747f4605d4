"""Colours (`colors.get`)."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops
from .colors import palette


@ops("GET /calendar/v3/colors")
def colors_get(call: Call) -> Any:
    """colors.get: the palette of calendars and events, the same for everyone."""
    return palette()
