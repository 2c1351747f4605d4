"""The Google Calendar API v3: calendars and each person's calendar list, events, free/busy, ACLs and colours."""

from .service import service

__all__ = ["service"]
