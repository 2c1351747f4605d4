"""PagerDuty's handler convention: operations registered as `"METHOD /incidents/{id}"` on `ops`, each
called with a `Call`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...clock import parse_time
from ...world import Principal, Record
from ..base import Operations
from ..rest import RestCall
from .errors import PagerDutyError, bad_time, invalid
from .models_directory import ZONES
from .store import USERS

ops = Operations("pagerduty")


@dataclass
class Call(RestCall):
    """A PagerDuty call: also whom the token speaks for, and that user's record (None for an account-level
    key)."""

    principal: Principal
    user: Record | None

    def not_an_object(self) -> PagerDutyError:
        return invalid("The request body must be a JSON object.")


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
    values: list[str] = []
    for key in (f"{name}[]", name):
        value = call.query.get(key)
        if value is not None:
            values += value if isinstance(value, list) else [value]
    return [v for v in values if v != ""]


def text(call: Call, name: str) -> str | None:
    """A single-valued query parameter (the last one when given twice)."""
    value = call.query.get(name)
    return value[-1] if isinstance(value, list) else value


def flag(call: Call, name: str) -> bool:
    """A boolean query parameter: `true` (any case) is true; anything else, or nothing, false."""
    return (text(call, name) or "").lower() == "true"


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


# PagerDuty's ceiling on offset+limit for classic paging.
MAX_RECORDS = 10_000


def page_args(call: Call) -> tuple[int, int]:
    """`offset` (default 0) and `limit` (default 25, at most 100); PagerDuty answers 400 for junk, and
    400 `Arguments Caused Error` past its 10 000-record ceiling."""
    offset, limit = (
        _number(call, "offset", 0),
        min(_number(call, "limit", 25), 100) or 25,
    )
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


def _number(call: Call, name: str, default: int) -> int:
    value = call.query.get(name)
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
        "total": len(items) if call.query.get("total") == "true" else None,
    }


def by_name(records: Iterable[Record], query: str | None, *fields: str) -> list[Record]:
    """Records whose `fields` contain `query` case-insensitively (all when there is none), sorted by name as
    PagerDuty lists them."""
    needle = (query or "").casefold()
    found = [r for r in records if not needle or any(needle in (r.get(f) or "").casefold() for f in fields)]
    return sorted(found, key=lambda r: (r["name"].casefold(), r["id"]))
