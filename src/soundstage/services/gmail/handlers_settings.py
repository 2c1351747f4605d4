"""The mailbox's settings (`users.settings.*`): its send-as addresses, its filters, its vacation responder."""

from __future__ import annotations

import re
from typing import Any

from ...world import Record
from ..base import Reply
from ..google.errors import GoogleError
from . import filters, labels, vacation
from .calls import Call, ops
from .errors import invalid_argument, not_found
from .views import filter_view


def own_address(call: Call) -> dict[str, Any]:
    """The account's own address as its send-as entry: the primary one and the default, with the person's name;
    no reply-to and no signature (the world gives none)."""
    mailbox = call.mailbox()
    return {
        "sendAsEmail": mailbox["emailAddress"],
        "displayName": call.name,
        "replyToAddress": "",
        "signature": "",
        "isPrimary": True,
        "isDefault": True,
    }


@ops("GET /gmail/v1/users/{userId}/settings/sendAs")
def settings_send_as_list(call: Call) -> Any:
    """users.settings.sendAs.list: the account's addresses to send from (its own only: no aliases here)."""
    return {"sendAs": [own_address(call)]}


@ops("GET /gmail/v1/users/{userId}/settings/sendAs/{sendAsEmail}")
def settings_send_as_get(call: Call) -> Any:
    """users.settings.sendAs.get: one of them, by its address (case aside); Gmail's 404 for any other."""
    entry = own_address(call)
    if call.params["sendAsEmail"].lower() != entry["sendAsEmail"].lower():
        raise not_found()
    return entry


def _object(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise invalid_argument(f"Invalid value at '{where}'")
    return value


def _integer(value: Any, where: str) -> int | None:
    """An int64 field as Google's JSON takes one: a number, or its digits as a string (int64's own form)."""
    if value is None:
        return None
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,19}", value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise invalid_argument(f"Invalid value at '{where}'")
    return value


def _typed(body: dict[str, Any], name: str, kind: type, where: str) -> Any:
    value = body.get(name)
    if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise invalid_argument(f"Invalid value at '{where}.{name}'")
    return value


def _criteria(body: dict[str, Any]) -> dict[str, Any]:
    """A filter's criteria as given, checked; those set (as Gmail answers them: no empty text, no false flag)."""
    given = _object(body.get("criteria"), "filter.criteria")
    found: dict[str, Any] = {}
    for name in ("from", "to", "subject", "query", "negatedQuery"):
        value = _typed(given, name, str, "filter.criteria")
        if value and value.strip():
            found[name] = value
    for name in ("hasAttachment", "excludeChats"):
        if _typed(given, name, bool, "filter.criteria"):
            found[name] = True
    size = _integer(given.get("size"), "filter.criteria.size")
    if size is not None and not 0 <= size < 2**31:
        raise invalid_argument("Invalid value at 'filter.criteria.size'")
    comparison = _typed(given, "sizeComparison", str, "filter.criteria")
    if comparison is not None and comparison not in filters.SIZE_COMPARISONS:
        raise invalid_argument(f"Invalid value at 'filter.criteria.size_comparison' ({comparison})")
    if size:
        found["size"] = size
    if comparison and comparison != "unspecified":
        found["sizeComparison"] = comparison
    return found


def _action(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    given = _object(body.get("action"), "filter.action")
    found: dict[str, Any] = {}
    for name in ("addLabelIds", "removeLabelIds"):
        ids = call.list_of(name, given)
        if ids:
            found[name] = list(dict.fromkeys(ids))
    forward = _typed(given, "forward", str, "filter.action")
    if forward:  # an empty address is no forwarding, as Gmail takes it
        found["forward"] = forward
    return found


@ops("GET /gmail/v1/users/{userId}/settings/filters")
def settings_filters_list(call: Call) -> Any:
    """users.settings.filters.list: the mailbox's filters, in the order made; `{}` when there are none."""
    call.mailbox()
    found = filters.of(call.world, call.me)
    return {"filter": [filter_view(record) for record in found]} if found else {}


def _filter(call: Call) -> Record:
    return call.owned(filters.get)


@ops("GET /gmail/v1/users/{userId}/settings/filters/{id}")
def settings_filters_get(call: Call) -> Any:
    """users.settings.filters.get."""
    return filter_view(_filter(call))


@ops("POST /gmail/v1/users/{userId}/settings/filters")
def settings_filters_create(call: Call) -> Any:
    """users.settings.filters.create: criteria and an action, checked as Gmail checks them; applied from now on to
    the mail the mailbox receives, never to the mail it holds."""
    call.mailbox()
    body = call.fields
    criteria, action = _criteria(body), _action(call, body)
    if not filters.has_criteria(criteria):
        raise invalid_argument("Filter doesn't have any criteria")
    if not filters.has_action(action):
        raise invalid_argument("Filter doesn't have any actions")
    for label in (*action.get("addLabelIds", ()), *action.get("removeLabelIds", ())):
        if label == "DRAFT" or labels.get(call.world, call.me, label) is None:
            raise invalid_argument(f"Invalid label: {label}")
    if "forward" in action:  # the world has no forwarding addresses, so none is verified
        raise GoogleError(400, "failedPrecondition", "Unrecognized forwarding address")
    existing = filters.of(call.world, call.me)
    if len(existing) >= filters.LIMIT:
        raise GoogleError(400, "failedPrecondition", "Too many filters")
    if any(filters.same(record, criteria, action) for record in existing):
        raise GoogleError(400, "failedPrecondition", "Filter already exists")
    return filter_view(filters.create(call.world, call.world.ids, call.me, criteria, action))


@ops("DELETE /gmail/v1/users/{userId}/settings/filters/{id}")
def settings_filters_delete(call: Call) -> Any:
    """users.settings.filters.delete: gone at once; 204."""
    call.world[filters.FILTERS].remove(_filter(call)["id"])
    return Reply(204, None)


@ops("GET /gmail/v1/users/{userId}/settings/vacation")
def settings_get_vacation(call: Call) -> Any:
    """users.settings.getVacation: the responder's settings (`{"enableAutoReply": false}` until set)."""
    return _vacation_view(vacation.settings(call.world, call.mailbox()["id"]))


def _vacation_view(given: dict[str, Any]) -> dict[str, Any]:
    """int64 fields as Google's JSON gives them: strings."""
    return {k: str(v) if k in ("startTime", "endTime") else v for k, v in given.items()}


@ops("PUT /gmail/v1/users/{userId}/settings/vacation")
def settings_update_vacation(call: Call) -> Any:
    """users.settings.updateVacation: the settings replaced by the body's, checked; replies from then on."""
    call.mailbox()
    body = call.fields
    given: dict[str, Any] = {}
    for name in vacation.FIELDS:
        if name in ("startTime", "endTime"):
            value = _integer(body.get(name), name)
            if value is not None and value < 0:
                raise invalid_argument(f"Invalid value at '{name}'")
        else:
            kind: type = bool if name in ("enableAutoReply", "restrictToContacts", "restrictToDomain") else str
            value = _typed(body, name, kind, "vacation_settings")
        if value is not None:
            given[name] = value
    given.setdefault("enableAutoReply", False)
    start, end = given.get("startTime"), given.get("endTime")
    if start is not None and end is not None and start >= end:
        raise invalid_argument("Start time must precede end time")
    if given["enableAutoReply"] and not any(
        given.get(name) for name in ("responseSubject", "responseBodyPlainText", "responseBodyHtml")
    ):
        raise invalid_argument("Response subject or body must be nonempty to enable auto-reply")
    return _vacation_view(vacation.update(call.world, call.me, given, call.name))
