"""Calendars, calendar-list entries and access-control rules: state changes and lookups, no HTTP.

Who may do what with a calendar is its rules (`calendar.acl`: a user's, a domain's, the public `default`); a
person's entry of it on their calendar list carries the best role the rules give them. A deleted calendar, and
an entry taken off a list, stay, `deleted`, so that a list's sync token reports them."""

from __future__ import annotations

from typing import Any

from ...world import Record, World
from .store import ACL, CALENDARS, LIST

ROLES = ("freeBusyReader", "reader", "writer", "owner")
# What Calendar mails a calendar's owner of by default, on their primary calendar.
NOTIFIED = ("eventCreation", "eventChange", "eventCancellation", "eventResponse")

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
        "deleted": False,  # ours: calendars.delete keeps it, so that lists' sync tokens report it
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
        "notifications": [{"type": kind, "method": "email"} for kind in NOTIFIED] if primary else [],
        "deleted": False,  # ours: taken off the list (calendarList.delete), kept for its sync tokens
        "updated": at,
    }


def entry(world: World, person: str, calendar_id: str) -> Record | None:
    """A person's entry of a calendar on their list (None when it is not on it)."""
    found = world[LIST].get(entry_id(person, calendar_id))
    return None if found is None or found["deleted"] else found


def entries(world: World, person: str, deleted: bool = False) -> list[Record]:
    """A person's calendar list (with `deleted`, the entries taken off it too): the primary first, then by
    summary."""
    listed = [e for e in world[LIST].by("person", person) if deleted or not e["deleted"]]
    return sorted(
        listed, key=lambda e: (not e["primary"], world[CALENDARS].one(e["calendar"])["summary"].casefold(), e["id"])
    )


def changed(world: World, entry: Record) -> int:
    """When an entry, or the calendar it shows, last changed."""
    return max(entry["updated"], world[CALENDARS].one(entry["calendar"])["updated"])


def calendar(world: World, calendar_id: str) -> Record | None:
    """A calendar that was not deleted."""
    found = world[CALENDARS].get(calendar_id)
    return None if found is None or found["deleted"] else found


def is_primary(calendar: Record) -> bool:
    """A person's primary calendar: its id their address."""
    return bool(calendar["id"] == calendar["owner"])


def create(world: World, calendar_id: str, owner: str, fields: dict[str, Any]) -> Record:
    """A new secondary calendar, `owner` its owner by a rule and on their list."""
    at = world.now()
    record = calendar_record(
        calendar_id,
        fields["summary"],
        fields["timeZone"],
        owner,
        at,
        description=fields.get("description"),
        location=fields.get("location"),
    )
    made = world[CALENDARS].add(calendar_id, record)
    put_rule(world, calendar_id, "user", owner, "owner")
    return made


def change(world: World, calendar: Record, fields: dict[str, Any]) -> Record:
    return world[CALENDARS].change(calendar["id"], **fields, updated=world.now())


def delete(world: World, calendar: Record) -> None:
    """A secondary calendar deleted: its rules removed, taken off every list."""
    for rule in world[ACL].by("calendar", calendar["id"]):
        world[ACL].remove(rule["id"])
    for listed in world[LIST].by("calendar", calendar["id"]):
        if not listed["deleted"]:
            world[LIST].change(listed["id"], deleted=True, updated=world.now())
    world[CALENDARS].change(calendar["id"], deleted=True, updated=world.now())


# Access-control rules: `user:<address>`, `group:<address>`, `domain:<domain>`, `default` (the public).


def rule_id(scope_type: str, value: str | None) -> str:
    return "default" if scope_type == "default" else f"{scope_type}:{value}"


def rule_record(calendar_id: str, scope_type: str, value: str | None, role: str, at: int) -> Record:
    rule = rule_id(scope_type, value)
    return {
        "id": f"{calendar_id}/{rule}",
        "calendar": calendar_id,  # ours
        "ruleId": rule,
        "scopeType": scope_type,
        "scopeValue": value,
        "role": role,  # one of ROLES, or `none`
        "updated": at,
    }


def rule(world: World, calendar_id: str, name: str) -> Record | None:
    return world[ACL].get(f"{calendar_id}/{name}")


def rules(world: World, calendar_id: str) -> list[Record]:
    """A calendar's rules, by rule id."""
    return sorted(world[ACL].by("calendar", calendar_id), key=lambda r: r["ruleId"])


def role_of(world: World, calendar_id: str, person: str) -> str | None:
    """The best role a calendar's rules give `person`: their own, their domain's, the public's (None: none)."""
    given = [
        found["role"]
        for found in (
            rule(world, calendar_id, rule_id("user", person)),
            rule(world, calendar_id, rule_id("domain", person.rpartition("@")[2])),
            rule(world, calendar_id, "default"),
        )
        if found is not None and found["role"] in ROLES
    ]
    return max(given, key=ROLES.index, default=None)


def put_rule(world: World, calendar_id: str, scope_type: str, value: str | None, role: str) -> Record:
    """A rule made or its role changed; the lists of the people it reaches follow it."""
    found = rule(world, calendar_id, rule_id(scope_type, value))
    if found is None:
        made = world[ACL].add(
            f"{calendar_id}/{rule_id(scope_type, value)}",
            rule_record(calendar_id, scope_type, value, role, world.now()),
        )
    else:
        made = world[ACL].change(found["id"], role=role, updated=world.now())
    _follow(world, made)
    return made


def remove_rule(world: World, found: Record) -> None:
    world[ACL].remove(found["id"])
    _follow(world, found)


def _follow(world: World, changed_rule: Record) -> None:
    """Each list entry a rule reaches takes the role the calendar's rules now give its person; a user of the
    world given a role gets the calendar on their list, as Calendar adds a calendar shared with someone."""
    calendar_id = changed_rule["calendar"]
    people = {e["person"] for e in world[LIST].by("calendar", calendar_id) if not e["deleted"]}
    shared = changed_rule["scopeValue"] if changed_rule["scopeType"] == "user" else None
    if shared is not None and world[CALENDARS].get(shared) is not None:  # an account of the world
        people.add(shared)
    for person in sorted(people):
        role = role_of(world, calendar_id, person)
        listed = entry(world, person, calendar_id)
        if role is None:
            if listed is not None:
                world[LIST].change(listed["id"], deleted=True, updated=world.now())
        elif listed is not None:
            if listed["accessRole"] != role:
                world[LIST].change(listed["id"], accessRole=role, updated=world.now())
        elif person == shared:
            subscribe(world, person, world[CALENDARS].one(calendar_id), role)


def subscribe(world: World, person: str, calendar: Record, role: str) -> Record:
    """`calendar` on `person`'s list (again, when it was taken off), with `role`."""
    made = entry_record(person, calendar, role, world.now(), primary=calendar["id"] == person)
    if world[LIST].get(made["id"]) is None:
        return world[LIST].add(made["id"], made)
    return world[LIST].change(made["id"], **{k: v for k, v in made.items() if k != "id"})
