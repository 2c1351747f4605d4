"""Calendars and calendar-list entries: state changes and lookups, no HTTP."""

from __future__ import annotations

from ...world import Record, World
from .store import CALENDARS, LIST

# A new entry's colour on a person's list, as Calendar gives a primary calendar (colours.get's calendar "14").
PRIMARY_COLOR = ("14", "#9fe1e7", "#000000")


def calendar_record(
    calendar_id: str,
    summary: str,
    time_zone: str,
    owner: str,
    at: int,
    people: tuple[str, ...] = (),
    description: str | None = None,
    location: str | None = None,
) -> Record:
    return {
        "id": calendar_id,
        "summary": summary,
        "description": description,
        "location": location,
        "timeZone": time_zone,
        "owner": owner,  # ours: whose calendar it is
        "people": list(people),  # ours: a primary calendar's owner's records elsewhere, which a check's `$ref` names
        "updated": at,
    }


def entry_id(person: str, calendar_id: str) -> str:
    return f"{person}/{calendar_id}"


def entry_record(person: str, calendar: Record, role: str, at: int, primary: bool = False) -> Record:
    color, background, foreground = PRIMARY_COLOR
    return {
        "id": entry_id(person, calendar["id"]),
        "person": person,  # ours: whose list it is on
        "calendar": calendar["id"],  # ours
        "accessRole": role,
        "primary": primary,
        "colorId": color,
        "backgroundColor": background,
        "foregroundColor": foreground,
        "selected": True,
        "hidden": False,
        "summaryOverride": None,
        "defaultReminders": [{"method": "popup", "minutes": 10}] if role in ("owner", "writer") else [],
        "updated": at,
    }


def entry(world: World, person: str, calendar_id: str) -> Record | None:
    return world[LIST].get(entry_id(person, calendar_id))


def entries(world: World, person: str) -> list[Record]:
    """A person's calendar list: the primary calendar first, then by summary."""
    listed = world[LIST].by("person", person)
    return sorted(
        listed, key=lambda e: (not e["primary"], world[CALENDARS].one(e["calendar"])["summary"].casefold(), e["id"])
    )
