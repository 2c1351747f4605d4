"""Access control (`acl.*`): who has which role on a calendar, each a rule of a scope (`user:<address>`,
`group:<address>`, `domain:<domain>`, `default`, the public); only its owners read and change them."""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from ..google import paging
from ..google.errors import GoogleError, not_found
from ..google.ids import etag
from . import calendars
from .bodies import EMAIL
from .calls import Call, ops
from .views import acl_rule

SCOPES = ("default", "user", "group", "domain")
RULE_ROLES = ("none", *calendars.ROLES)


def _readable(call: Call) -> str:
    """The calendar whose rules the caller reads: 403 `forbidden` but for its owners, as Calendar answers."""
    entry = call.listed("reader")
    if entry["accessRole"] != "owner":
        raise GoogleError(403, "forbidden", "Forbidden")
    return str(entry["calendar"])


def _owned(call: Call) -> Record:
    """The calendar whose rules the caller changes: 403 `requiredAccessLevel` but for its owners."""
    return call.calendar(call.listed("owner"))


def _found(call: Call, calendar_id: str) -> Record:
    found = calendars.rule(call.world, calendar_id, call.params["ruleId"])
    if found is None:
        raise not_found()
    return found


def _changeable(call: Call, calendar: Record, scope_type: str, value: str | None) -> None:
    """Nobody changes their own rule, nor another owner the calendar's owner's, as Calendar refuses (403)."""
    if scope_type != "user":
        return
    if value == call.me:
        raise GoogleError(403, "cannotChangeOwnAcl", "Cannot change your own access level.", domain="calendar")
    if value == calendar["owner"]:
        raise GoogleError(
            403, "cannotChangeOwnerAcl", "Cannot change the access level of the owner.", domain="calendar"
        )


def _role(body: dict[str, Any]) -> str:
    role = body.get("role")
    if role is None:
        raise GoogleError(400, "required", "Missing role.", domain="global")
    if role not in RULE_ROLES:
        raise GoogleError(400, "invalid", "Invalid value for: role")
    return str(role)


def _scope(body: dict[str, Any]) -> tuple[str, str | None]:
    """A rule's scope: its type, and its value (an address, a domain; none for `default`)."""
    scope = body.get("scope")
    if scope is None or (isinstance(scope, dict) and scope.get("type") is None):
        raise GoogleError(400, "required", "Missing scope type.")
    if not isinstance(scope, dict) or scope["type"] not in SCOPES:
        raise GoogleError(400, "invalid", "Invalid value for: scope.type")
    scope_type, value = str(scope["type"]), scope.get("value")
    if scope_type == "default":
        if value not in (None, ""):
            raise GoogleError(400, "invalid", "Invalid value for: scope.value")
        return scope_type, None
    if not isinstance(value, str) or not value:
        raise GoogleError(400, "required", "Missing scope value.")
    value = value.lower()
    if (scope_type == "domain" and ("@" in value or "." not in value)) or (
        scope_type != "domain" and not EMAIL.match(value)
    ):
        raise GoogleError(400, "invalid", "Invalid value for: scope.value")
    return scope_type, value


@ops("GET /calendar/v3/calendars/{calendarId}/acl")
def acl_list(call: Call) -> Any:
    """acl.list: the calendar's rules, by rule id, for its owners alone."""
    calendar_id = _readable(call)
    size = call.integer("maxResults", 100, 1, 250)
    call.boolean("showDeleted")
    rules = calendars.rules(call.world, calendar_id)
    chunk, token = paging.page(rules, f"acl:{calendar_id}", call.text("pageToken"), size)
    body: dict[str, Any] = {"kind": "calendar#acl", "etag": etag(max((r["updated"] for r in rules), default=0))}
    if token is not None:
        body["nextPageToken"] = token
    body["items"] = [acl_rule(rule) for rule in chunk]
    return body


@ops("GET /calendar/v3/calendars/{calendarId}/acl/{ruleId}")
def acl_get(call: Call) -> Any:
    """acl.get: one rule of the calendar, by its id (`user:<address>`, `default`)."""
    return acl_rule(_found(call, _readable(call)))


@ops("POST /calendar/v3/calendars/{calendarId}/acl")
def acl_insert(call: Call) -> Any:
    """acl.insert: a rule for a scope (its role replaced where the scope has one); a user of the world it gives a
    role gets the calendar on their list."""
    calendar = _owned(call)
    call.boolean("sendNotifications")
    scope_type, value = _scope(call.fields)
    role = _role(call.fields)
    _changeable(call, calendar, scope_type, value)
    return acl_rule(calendars.put_rule(call.world, calendar["id"], scope_type, value, role))


def _rewrite(call: Call, whole: bool) -> Any:
    calendar = _owned(call)
    call.boolean("sendNotifications")
    found = _found(call, calendar["id"])
    given = call.fields
    scoped = whole or given.get("scope") is not None
    if scoped and _scope(given) != (found["scopeType"], found["scopeValue"]):
        raise GoogleError(400, "invalid", "Invalid value for: scope")
    role = _role(given) if whole or "role" in given else found["role"]
    _changeable(call, calendar, found["scopeType"], found["scopeValue"])
    return acl_rule(calendars.put_rule(call.world, calendar["id"], found["scopeType"], found["scopeValue"], role))


@ops("PATCH /calendar/v3/calendars/{calendarId}/acl/{ruleId}")
def acl_patch(call: Call) -> Any:
    """acl.patch: the rule's role, where the body gives one; its scope cannot change."""
    return _rewrite(call, whole=False)


@ops("PUT /calendar/v3/calendars/{calendarId}/acl/{ruleId}")
def acl_update(call: Call) -> Any:
    """acl.update: the rule as the body gives it (`scope`, the rule's own, and `role` required)."""
    return _rewrite(call, whole=True)


@ops("DELETE /calendar/v3/calendars/{calendarId}/acl/{ruleId}")
def acl_delete(call: Call) -> Any:
    """acl.delete: the rule removed; whom it alone gave access loses the calendar from their list."""
    calendar = _owned(call)
    found = _found(call, calendar["id"])
    _changeable(call, calendar, found["scopeType"], found["scopeValue"])
    calendars.remove_rule(call.world, found)
    return Reply(204, None)
