"""Calendars themselves (`calendars.*`)."""

from __future__ import annotations

from typing import Any

from .calls import Call, ops
from .views import calendar


@ops("GET /calendar/v3/calendars/{calendarId}")
def calendars_get(call: Call) -> Any:
    """calendars.get: a calendar the caller may read."""
    return calendar(call.calendar(call.listed("reader")))
