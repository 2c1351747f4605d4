"""One v2 search request (logs and events): `filter` {query, from, to}, `sort` and `page` {cursor, limit},
from a POST body or the matching GET's query parameters; and the list response both share: `data`,
`links.next` (the GET form of the next page) and `meta` {page.after, elapsed, request_id, status}.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from ...world import Record
from .errors import bad_request
from .logs_query import Doc, Matcher, compile_query, page_after, parse_instant, read_cursor
from .router import Call

MAX_LIMIT = 1000


@dataclass
class Search:
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


def from_body(call: Call) -> Search:
    body = call.fields
    filters = _object(body.get("filter"), "filter")
    page = _object(body.get("page"), "page")
    return _search(call, filters.get("query"), filters.get("from"), filters.get("to"), body.get("sort"), page)


def from_query(call: Call) -> Search:
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


def response(call: Call, search: Search, data: list[dict[str, Any]], after: str | None, path: str) -> dict[str, Any]:
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
