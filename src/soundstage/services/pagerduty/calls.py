"""PagerDuty's request conventions: operations registered as `"METHOD /incidents/{id}"` on `ops`, each
called with a `Call`; how PagerDuty reads what a request gives (the `From` header, query parameters and
their `name[]` sets, body objects and references to other objects, the incident a path names) and the 400s
(code 2001 `Invalid Input Provided`, mostly) or 404 it answers when it cannot; and its classic offset paging
(`offset`, `limit`, `more`, `total`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...clock import parse_time
from ...world import Principal, Record
from ..base import Operations
from ..rest import RestCall
from .errors import PagerDutyError, bad_time, invalid, not_found
from .incidents import Incidents
from .models_directory import ZONES
from .store import ESCALATION_POLICIES, PRIORITIES, SERVICES, USERS

ops = Operations("pagerduty")
NAME_SORTS = ("name", "name:asc", "name:desc")


@dataclass
class Call(RestCall):
    """A PagerDuty call: also whom the token speaks for, and that user's record (None for an account-level
    key)."""

    principal: Principal
    user: Record | None

    def not_an_object(self) -> PagerDutyError:
        return invalid("The request body must be a JSON object.")


# -- headers and query parameters --------------------------------------------------------------------


def requester(call: Call) -> Record:
    """The user named by the `From` header, which PagerDuty requires on the writes that act as a user:
    without it 400 code 2016, for an email no user has 400 code 1008 (both as PagerDuty answers them)."""
    email = call.request.headers.get("from", "").strip()
    if not email:
        raise PagerDutyError(
            400,
            2016,
            'You must specify a user\'s email address in the "From" header to perform this action',
        )
    found = call.world[USERS].by("email", email)
    if not found:
        raise PagerDutyError(400, 1008, "Requester User Not Found", [])
    return found[0]


def listed(call: Call, name: str) -> list[str]:
    """A set-style filter: `name[]` given any number of times (or plain `name`), without empty values."""
    query = call.request.query
    if not query:
        return []
    values: list[str] = []
    for key in (f"{name}[]", name):
        value = query.get(key)
        if value is not None:
            values += value if isinstance(value, list) else [value]
    return [v for v in values if v != ""]


def text(call: Call, name: str) -> str | None:
    """A single-valued query parameter (the last one when given twice)."""
    value = call.request.query.get(name)
    return value[-1] if isinstance(value, list) else value


def flag(call: Call, name: str) -> bool:
    """A boolean query parameter: `true` (any case) is true; anything else, or nothing, false."""
    return (text(call, name) or "").lower() == "true"


def account_zone(call: Call) -> str:
    """The account's time zone (`time_zone` of the `pagerduty:` section; UTC in a world without one)."""
    settings: dict[str, str] = call.world.settings.get("pagerduty", {})
    return settings.get("time_zone", "Etc/UTC")


def zone(call: Call) -> str | None:
    """The `time_zone` to render times in (None: the default); one that is no IANA zone is a 400."""
    value = text(call, "time_zone")
    if not value:
        return None
    if value not in ZONES:
        raise invalid("Time zone is not a valid time zone.")
    return value


def moment(call: Call, name: str) -> int | None:
    """`since`/`until` as epoch µs (None when absent); a value that is no time is PagerDuty's 400 code 2004."""
    value = text(call, name)
    if value is None or value == "":
        return None
    try:
        return parse_time(value.replace(" ", "+"))  # an unescaped `+` of an offset arrives as a space
    except ValueError:
        raise bad_time(name) from None


def by_name_descending(call: Call) -> bool:
    """The directory lists' `sort_by`: `name` or `name:asc` (the default) or `name:desc`, which is True."""
    sort = text(call, "sort_by") or "name"
    if sort not in NAME_SORTS:
        raise invalid(f"sort_by must be one of {', '.join(NAME_SORTS)}.")
    return sort == "name:desc"


def sorts(call: Call, allowed: tuple[str, ...], default: str) -> list[tuple[str, bool]]:
    """`sort_by`: at most two `field[:asc|:desc]` of `allowed` (`default` when none), as (field, descending)."""
    given = listed(call, "sort_by")
    if not given:
        return [(default, False)]
    if len(given) > 2:
        raise invalid("sort_by takes at most two fields.")
    found: list[tuple[str, bool]] = []
    for item in given:
        field, _, direction = item.partition(":")
        if field not in allowed or direction not in ("", "asc", "desc"):
            raise invalid(f"sort_by must be one of {', '.join(allowed)}, with :asc or :desc.")
        found.append((field, direction == "desc"))
    return found


# -- paging ------------------------------------------------------------------------------------------

# PagerDuty's ceiling on offset+limit for classic paging.
MAX_RECORDS = 10_000


def page_args(call: Call) -> tuple[int, int]:
    """`offset` (default 0) and `limit` (default 25, at most 100); PagerDuty answers 400 for junk, and
    400 `Arguments Caused Error` past its 10 000-record ceiling."""
    query = call.request.query
    offset, limit = _number(query, "offset", 0), min(_number(query, "limit", 25), 100) or 25
    if offset + limit > MAX_RECORDS:
        raise PagerDutyError(
            400,
            2001,
            "Arguments Caused Error",
            [
                (
                    "Offset+limit exceeds maximum allowed value of 10000. Please try to refine your search to"
                    " reduce the returned set of records below this number, like adding a date range."
                )
            ],
        )
    return offset, limit


def _number(query: dict[str, Any], name: str, default: int) -> int:
    value = query.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, list) or not (value.isascii() and value.isdigit()):
        raise invalid(f"{name} must be a non-negative integer.")
    return int(value)


def paginate(call: Call, key: str, items: list[Any], view: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """One page of `items` (rendered by `view`) under `key`, with `limit`, `offset`, `more` and `total`
    (null unless the request says `total=true`), PagerDuty's classic offset paging."""
    offset, limit = page_args(call)
    chunk = items[offset : offset + limit]
    return {
        key: [view(item) for item in chunk] if view else chunk,
        "limit": limit,
        "offset": offset,
        "more": offset + limit < len(items),
        "total": len(items) if call.request.query.get("total") == "true" else None,
    }


def by_name(records: Iterable[Record], query: str | None, *fields: str) -> list[Record]:
    """Records whose `fields` contain `query` case-insensitively (all when there is none), sorted by name as
    PagerDuty lists them."""
    needle = (query or "").casefold()
    found = [r for r in records if not needle or any(needle in (r.get(f) or "").casefold() for f in fields)]
    return sorted(found, key=lambda r: (r["name"].casefold(), r["id"]))


# -- the body ----------------------------------------------------------------------------------------


def wrapped(call: Call, key: str) -> dict[str, Any]:
    """The object the body wraps under `key` (`{"incident": {...}}`)."""
    value = call.fields.get(key)
    if not isinstance(value, dict):
        raise invalid(f"{key} must be an object.")
    return value


def body_text(body: dict[str, Any], name: str, required: bool = False) -> str | None:
    value = body.get(name)
    if value is None:
        if required:
            raise invalid(f"{name} is required.")
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise invalid(f"{name} must be a non-empty string.")
    return value


def body_time(body: dict[str, Any], name: str) -> int:
    """A required ISO-8601 date-time, as epoch µs."""
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise invalid(f"{name} is required and must be an ISO-8601 date-time.")
    try:
        return parse_time(value)
    except ValueError:
        raise invalid(f"{name} is not a valid ISO-8601 date-time.") from None


def choice(body: dict[str, Any], name: str, allowed: tuple[str, ...]) -> str | None:
    value = body.get(name)
    if value is not None and value not in allowed:
        raise invalid(f"{name} must be one of {', '.join(allowed)}.")
    return value


def bridge_of(value: Any) -> dict[str, str | None]:
    """An incident's `conference_bridge`: a phone number and a URL, each optional."""
    if not isinstance(value, dict) or set(value) - {"conference_number", "conference_url"}:
        raise invalid("conference_bridge must be an object with conference_number and conference_url.")
    bridge = {key: value.get(key) for key in ("conference_number", "conference_url")}
    if any(v is not None and not isinstance(v, str) for v in bridge.values()):
        raise invalid("conference_number and conference_url must be strings.")
    return bridge


def details_of(value: Any) -> str | None:
    """An incident's `body` (`{"type": "incident_body", "details": "..."}`) as its details."""
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("type") != "incident_body":
        raise invalid("body must be an object of type incident_body.")
    details = value.get("details")
    if details is not None and not isinstance(details, str):
        raise invalid("body details must be a string.")
    return details


# -- references to other objects ---------------------------------------------------------------------


def ref_id(value: Any, name: str, kinds: tuple[str, ...]) -> str:
    """The id of a reference object `{"id", "type"}` whose type is one of `kinds`."""
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        raise invalid(f"{name} must be a reference with an id.")
    if value.get("type") not in kinds:
        raise invalid(f"{name} type must be {' or '.join(kinds)}.")
    return value["id"]


def user_of(call: Call, value: Any, name: str) -> str:
    user_id = ref_id(value, name, ("user_reference", "user"))
    if user_id not in call.world[USERS]:
        raise invalid(f"{name} {user_id} was not found.")
    return user_id


def assignees_of(call: Call, body: dict[str, Any]) -> list[str] | None:
    """`assignments: [{"assignee": {id, type}}]` as user ids (None when absent)."""
    value = body.get("assignments")
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(a, dict) for a in value):
        raise invalid("assignments must be a non-empty array of {assignee} objects.")
    users: list[str] = []
    for a in value:
        user = user_of(call, a.get("assignee"), "Assignee")
        if user not in users:
            users.append(user)
    return users


def policy_of(call: Call, value: Any) -> str:
    policy_id = ref_id(value, "escalation_policy", ("escalation_policy_reference", "escalation_policy"))
    if policy_id not in call.world[ESCALATION_POLICIES]:
        raise invalid("Escalation policy not found.")
    return policy_id


def priority_of(call: Call, value: Any) -> str | None:
    """A priority reference, or a name (the highest priority so named), or null (no priority)."""
    if value is None:
        return None
    priorities = call.world[PRIORITIES]
    if isinstance(value, str):
        named = priorities.by("name", value)
        if not named:
            raise invalid(f"Priority '{value}' was not found.")
        return named[0]["id"]
    priority_id = ref_id(value, "priority", ("priority_reference", "priority"))
    if priority_id not in priorities:
        raise invalid("Priority not found.")
    return priority_id


def services_of(call: Call, body: dict[str, Any]) -> list[str]:
    """A maintenance window's `services: [{id, type}]` (at least one) as service ids, without repeats."""
    refs = body.get("services")
    if not isinstance(refs, list) or not refs:
        raise invalid("Maintenance window must have at least one service.")
    ids: list[str] = []
    for ref in refs:
        if not isinstance(ref, dict) or not isinstance(ref.get("id"), str):
            raise invalid("Each service must be a service reference with an id.")
        if ref["id"] not in call.world[SERVICES]:
            raise invalid(f"Service {ref['id']} was not found.")
        if ref["id"] not in ids:
            ids.append(ref["id"])
    return ids


def incident_of(call: Call) -> Record:
    """The incident the path names, by id or number, or 404."""
    found = Incidents.of(call.world).incident(call.params["id"])
    if found is None:
        raise not_found()
    return found
