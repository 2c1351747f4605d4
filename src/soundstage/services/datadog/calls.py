"""Datadog's request conventions: operations registered as `"METHOD /api/v1/monitor/{monitor_id}"` on `ops`,
each called with a `Call`; how Datadog reads what a request gives (query parameters, body fields, the record
a path names) and the 400 or 404 it answers when it cannot; and its paging (page numbers, offsets, and the
cursors of the v2 log and event searches, with their `links.next`).

A query parameter Datadog cannot read is `The value provided for parameter '<name>' is invalid` (`invalid`);
a body field of the wrong type is `Invalid '<name>': expected ...`. Body integers are Go `int64`s there, so
anything wider is a 400, and epoch-second times must also render as ISO-8601 (years 1970..9999).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, TypeGuard, overload
from urllib.parse import urlencode

from ...clock import US, parse_time
from ...world import Principal, Record
from ..base import INT64_MAX, INT64_MIN, Operations, loads_json
from ..rest import RestCall
from .errors import DatadogError, bad_request, not_found
from .logs_query import Doc, Matcher, compile_query
from .monitor_search import QueryParsingError, parse_search
from .monitor_search import Search as MonitorSearch
from .stamps import stamp
from .store import DOWNTIMES, HOSTS, INCIDENTS, MONITORS, USERS
from .views_monitoring import GROUP_STATES

ops = Operations("datadog")

LAST_SECOND = 253_402_300_799  # 9999-12-31T23:59:59Z
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass
class Call(RestCall):
    """A Datadog call: also whom the keys speak for."""

    principal: Principal

    def not_an_object(self) -> DatadogError:
        return DatadogError(400, "Invalid JSON body: expected an object")

    def stamp(self) -> int:
        """The time Datadog records for what this call stores: the simulated now to the microsecond (`stamps`)."""
        return stamp(self.world.ids, self.now())

    def text(self, name: str) -> str | None:
        """A query parameter as a string (the last one when repeated), None when absent."""
        value = self.request.query.get(name)
        if isinstance(value, list):
            value = value[-1]
        return value

    @overload
    def integer(self, name: str, default: int, minimum: int | None = None) -> int: ...

    @overload
    def integer(self, name: str, default: None = None, minimum: int | None = None) -> int | None: ...

    def integer(self, name: str, default: int | None = None, minimum: int | None = None) -> int | None:
        """A query parameter as an int64 (the type Datadog's API gives its integer parameters); anything else
        (or below `minimum`) is Datadog's 400."""
        value = self.text(name)
        if value is None or value == "":
            return default
        # As Go's strconv reads one: a sign, then ASCII digits only (no spaces, underscores or other digits).
        digits = value[1:] if value[0] in "+-" else value
        if not (digits.isascii() and digits.isdigit()):
            raise invalid(name)
        number = int(value)
        if not INT64_MIN <= number <= INT64_MAX or (minimum is not None and number < minimum):
            raise invalid(name)
        return number

    def boolean(self, name: str, default: bool = False) -> bool:
        """A query parameter as `true`/`false` (any case); anything else is Datadog's 400."""
        value = self.text(name)
        if value is None or value == "":
            return default
        if value.lower() not in ("true", "false"):
            raise invalid(name)
        return value.lower() == "true"

    def csv(self, name: str) -> list[str]:
        """A comma-separated query parameter, each value stripped, without empty ones."""
        return [v.strip() for v in (self.text(name) or "").split(",") if v.strip()]

    def names(self, name: str, allowed: tuple[str, ...]) -> list[str]:
        """A comma-separated query parameter whose values must all be `allowed` (`include=users`)."""
        given = self.csv(name)
        if any(n not in allowed for n in given):
            raise invalid(name)
        return given

    def sort(self, fields: Container[str]) -> tuple[str, bool] | None:
        """`sort=<field>[,asc|desc]` as (field, descending), None when absent; `fields` are those allowed."""
        text = self.text("sort")
        if not text:
            return None
        field, _, direction = text.partition(",")
        if field not in fields or direction not in ("", "asc", "desc"):
            raise invalid("sort")
        return field, direction == "desc"

    def body_or_query(self, name: str) -> Any:
        """An argument of the legacy endpoints, which read it from the JSON body or the query string."""
        value = self.fields.get(name)
        return value if value is not None else self.text(name)

    def key_user(self) -> str | None:
        """The user the application key belongs to, if the world has that user."""
        user = self.principal.user
        return user if user and user in self.world[USERS] else None

    # -- paging ----------------------------------------------------------------------------------------

    def page_size(self, name: str, default: int, most: int) -> int:
        """A page size of at least 1; above `most` it is Datadog's 400."""
        size = self.integer(name, default, minimum=1)
        if size > most:
            raise invalid(name)
        return size

    def page_and_per_page(self) -> tuple[int, int]:
        """v1 search paging: `page` (from 0) and `per_page` (default 30)."""
        return self.integer("page", 0, minimum=0) or 0, self.integer("per_page", 30, minimum=1) or 30

    def offset_and_limit(self) -> tuple[int, int]:
        """v2 offset paging: `page[offset]` (default 0) and `page[limit]` (default 30, at most 100)."""
        offset = self.integer("page[offset]", 0, minimum=0) or 0
        limit = self.integer("page[limit]", 30, minimum=1) or 30
        return offset, min(limit, 100)


def invalid(name: str) -> DatadogError:
    """Datadog's 400 for a parameter it cannot read."""
    return DatadogError(400, f"The value provided for parameter '{name}' is invalid")


def monitor_query(call: Call) -> MonitorSearch:
    """The `query` of the monitor searches, in `monitor_search`'s syntax; a field it does not know is a 400."""
    try:
        return parse_search(call.text("query") or "")
    except QueryParsingError as exc:
        raise bad_request(str(exc)) from exc
    except ValueError as exc:
        raise bad_request(f"Invalid query: {exc}") from exc


def monitor_view(call: Call) -> tuple[list[str] | None, bool]:
    """How a reply renders monitors: `group_states` (`all`, `alert`, `warn`, `no data`, `ok`, comma-separated)
    and `with_downtimes`."""
    states = [s.lower() for s in call.csv("group_states")]
    if any(s not in GROUP_STATES for s in states):
        raise invalid("group_states")
    return states or None, call.boolean("with_downtimes")


# -- the records a path names -------------------------------------------------------------------------


def monitor_of(call: Call, missing: str = "Monitor not found") -> Record:
    return _named(call, MONITORS, "monitor_id", missing)


def downtime_of(call: Call, missing: str = "Downtime not found") -> Record:
    """The downtime the path names; an id that is not a UUID is Datadog's 400."""
    if not _UUID.fullmatch(call.params["downtime_id"]):
        raise bad_request("Invalid URL param: downtime_id must be an uuid")
    return _named(call, DOWNTIMES, "downtime_id", missing)


def host_of(call: Call) -> Record:
    return _named(call, HOSTS, "host_name", "Host not found")


def incident_of(call: Call) -> Record:
    return _named(call, INCIDENTS, "incident_id")


def _named(call: Call, collection: str, param: str, *missing: str) -> Record:
    """The record path parameter `param` names, or Datadog's 404 (saying `missing`)."""
    record = call.world[collection].get(call.params[param])
    if record is None:
        raise not_found(*missing)
    return record


# -- body fields --------------------------------------------------------------------------------------


def is_int64(value: Any) -> TypeGuard[int]:
    """A JSON integer (not a boolean) that fits an int64."""
    return isinstance(value, int) and not isinstance(value, bool) and INT64_MIN <= value <= INT64_MAX


def is_epoch_seconds(value: Any) -> bool:
    """A JSON integer of epoch seconds between 1970 and the end of year 9999."""
    return is_int64(value) and 0 <= value <= LAST_SECOND


def fits_int64(value: Any) -> bool:
    """Whether every integer in a JSON value, at any depth, fits an int64 (what Datadog can store)."""
    if isinstance(value, dict):
        return all(fits_int64(v) for v in value.values())
    if isinstance(value, list):
        return all(fits_int64(v) for v in value)
    return not isinstance(value, int) or isinstance(value, bool) or INT64_MIN <= value <= INT64_MAX


def string_field(fields: dict[str, Any], name: str, where: str = "", limit: int | None = None) -> str | None:
    """An optional string field (at most `limit` characters); `where` prefixes its name in the 400
    (`data.attributes.`)."""
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise bad_request(f"Invalid '{where}{name}': expected a string")
    if limit is not None and len(value) > limit:
        raise bad_request(f"Invalid '{where}{name}': longer than {limit} characters")
    return value


def boolean_field(fields: dict[str, Any], name: str, where: str = "") -> bool | None:
    value = fields.get(name)
    if value is not None and not isinstance(value, bool):
        raise bad_request(f"Invalid '{where}{name}': expected a boolean")
    return value


def time_field(fields: dict[str, Any], name: str, where: str = "") -> int | None:
    """An optional ISO-8601 time field, as epoch µs."""
    value = fields.get(name)
    if value is None:
        return None
    try:
        return parse_time(value)
    except (TypeError, ValueError):
        raise bad_request(f"Invalid '{where}{name}': expected an ISO-8601 time") from None


def iso_time(value: Any, name: str) -> int | None:
    """An ISO-8601 time (None stays None) as epoch µs; anything else is `invalid(name)`."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid(name)
    try:
        return parse_time(value)
    except ValueError:
        raise invalid(name) from None


# -- the v2 log and event searches --------------------------------------------------------------------

MAX_LIMIT = 1000
_UNITS = {"s": US, "m": 60 * US, "h": 3600 * US, "d": 86400 * US, "w": 7 * 86400 * US}
_DATE_MATH = re.compile(r"^now(?:\s*([+-])\s*(\d+)\s*([smhdw]))?$")


def parse_instant(text: Any, now: int, name: str) -> int:
    """`now`, `now-15m` (s, m, h, d, w), epoch milliseconds, or ISO-8601, to epoch microseconds."""
    value = str(text).strip() if isinstance(text, (str, int)) and not isinstance(text, bool) else None
    if value is None:
        raise bad_request(
            f"Invalid '{name}': expected a date (ISO-8601, epoch milliseconds or now-15m), found {text!r}"
        )
    math = _DATE_MATH.match(value)
    if math:
        if not math.group(1):
            return now
        offset = int(math.group(2)) * _UNITS[math.group(3)]
        return now - offset if math.group(1) == "-" else now + offset
    if value.isascii() and value.isdigit():
        return int(value) * 1000
    try:
        return parse_time(value)
    except ValueError:
        raise bad_request(
            f"Invalid '{name}': expected a date (ISO-8601, epoch milliseconds or now-15m), found {value!r}"
        ) from None


def cursor(after: str) -> str:
    """An opaque cursor naming the last item of a page, the way Datadog spells it."""
    return base64.urlsafe_b64encode(json.dumps({"after": after}).encode()).decode().rstrip("=")


def read_cursor(value: Any) -> str:
    try:
        decoded = loads_json(base64.urlsafe_b64decode(str(value) + "=" * (-len(str(value)) % 4)))
    except (ValueError, binascii.Error):
        decoded = None
    if not isinstance(decoded, dict) or not isinstance(decoded.get("after"), str):
        raise bad_request(f"Invalid 'page[cursor]': {value!r} is not a cursor this search returned")
    return decoded["after"]


def page_after(
    items: list[Any], after: str | None, key: Callable[[Any], str], limit: int
) -> tuple[list[Any], str | None]:
    """The page of `items` following the one whose key is `after`, and the cursor for the next page."""
    start = 0
    if after is not None:
        start = next((i + 1 for i, item in enumerate(items) if key(item) == after), len(items))
    page = items[start : start + limit]
    more = start + limit < len(items)
    return page, cursor(key(page[-1])) if more and page else None


@dataclass
class Search:
    """One v2 search request (logs and events): `filter` {query, from, to}, `sort` and `page` {cursor, limit}."""

    matcher: Matcher
    start: int  # epoch µs, inclusive
    end: int
    descending: bool
    after: str | None
    limit: int
    raw: dict[str, str]  # the request as GET query parameters, for `links.next`

    def run(self, records: list[Record], doc: Callable[[Record], Doc], time: str) -> tuple[list[Record], str | None]:
        """The page of `records` in the window that match, in order, and the cursor of the next page."""
        found = [r for r in records if self.start <= r[time] <= self.end and self.matcher(doc(r))]
        found.sort(key=lambda r: (r[time], r["id"]), reverse=self.descending)
        return page_after(found, self.after, lambda r: str(r["id"]), self.limit)


def search_from_body(call: Call) -> Search:
    """The search a POST body asks for."""
    body = call.fields
    filters = _object(body.get("filter"), "filter")
    page = _object(body.get("page"), "page")
    return _search(call, filters.get("query"), filters.get("from"), filters.get("to"), body.get("sort"), page)


def search_from_query(call: Call) -> Search:
    """The search the GET form's query parameters ask for (what `links.next` points to)."""
    page: dict[str, Any] = {}
    if call.text("page[cursor]") is not None:
        page["cursor"] = call.text("page[cursor]")
    if call.text("page[limit]") is not None:
        page["limit"] = call.integer("page[limit]")
    return _search(
        call, call.text("filter[query]"), call.text("filter[from]"), call.text("filter[to]"), call.text("sort"), page
    )


def _object(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad_request(f"Invalid '{name}': expected an object")
    return value


def _search(call: Call, query: Any, start: Any, end: Any, sort: Any, page: dict[str, Any]) -> Search:
    now = call.now()
    matcher = compile_query(query)
    since = parse_instant(start if start is not None else "now-15m", now, "from")
    until = parse_instant(end if end is not None else "now", now, "to")
    if since > until:
        raise bad_request("Invalid time range: 'from' is after 'to'")
    if sort not in (None, "timestamp", "-timestamp"):
        raise bad_request(f"Invalid 'sort': expected timestamp or -timestamp, found {sort!r}")
    limit = page.get("limit", 10)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise bad_request(f"Invalid 'page[limit]': expected an integer from 1 to {MAX_LIMIT}, found {limit!r}")
    cursor = page.get("cursor")
    raw = {
        "filter[query]": query if isinstance(query, str) else "*",
        "filter[from]": str(since // 1000),
        "filter[to]": str(until // 1000),
        "sort": sort or "-timestamp",
        "page[limit]": str(limit),
    }
    return Search(
        matcher=matcher,
        start=since,
        # Nothing has happened after the simulated now.
        end=min(until, now),
        descending=sort != "timestamp",
        after=read_cursor(cursor) if cursor is not None else None,
        limit=limit,
        raw=raw,
    )


def search_response(
    call: Call, search: Search, data: list[dict[str, Any]], after: str | None, path: str
) -> dict[str, Any]:
    """The list answer logs and events share: `data`, `links.next` (the GET form of the next page) and `meta`
    {page.after, elapsed, request_id, status}."""
    meta: dict[str, Any] = {
        "elapsed": 1 + len(data) // 100,
        "request_id": call.world.ids.code("datadog:request", 40),
        "status": "done",
    }
    body: dict[str, Any] = {"data": data, "meta": meta}
    if after is not None:
        meta["page"] = {"after": after}
        link = urlencode({**search.raw, "page[cursor]": after})
        body["links"] = {"next": f"{call.request.base_url}{path}?{link}"}
    return body
