"""Users: `GET /api/v2/users`, paged by `page[size]` and `page[number]` (from 0), sorted by `sort`
(`name`, `email`, `handle`, `status`, `created_at`, `modified_at`; `-` for descending) or `sort_dir`,
filtered by `filter` (in the name, email or handle) and `filter[status]` (comma-separated)."""

from __future__ import annotations

from typing import Any

from ...world import Record
from . import views_records
from .account import org_id
from .calls import Call, invalid, ops
from .store import USERS

SORTS = ("name", "email", "handle", "status", "created_at", "modified_at")
MAX_PAGE = 5000


def _matches(record: Record, text: str, statuses: set[str]) -> bool:
    if statuses and record["status"].lower() not in statuses:
        return False
    if text:
        return any(text in (record[f] or "").lower() for f in ("name", "email", "handle"))
    return True


def _key(record: Record, field: str) -> tuple[Any, ...]:
    value = record[field]
    # Users without the field (a name) come last; text sorts without regard to case.
    return (value is None, value.lower() if isinstance(value, str) else value or 0, record["id"])


@ops("GET /api/v2/users")
def list_users(call: Call) -> dict[str, Any]:
    size = call.page_size("page[size]", 10, MAX_PAGE)
    number = call.integer("page[number]", 0, minimum=0)
    sort = call.text("sort") or "name"
    descending = sort.startswith("-")
    field = sort.lstrip("-")
    if field not in SORTS:
        raise invalid("sort")
    direction = call.text("sort_dir")
    if direction not in (None, "asc", "desc"):
        raise invalid("sort_dir")
    descending = descending or direction == "desc"
    text = (call.text("filter") or "").strip().lower()
    statuses = {s.strip().lower() for s in (call.text("filter[status]") or "").split(",") if s.strip()}
    every = list(call.world[USERS])
    found = [r for r in every if _matches(r, text, statuses)]
    found.sort(key=lambda r: _key(r, field))
    if descending:
        found.reverse()
    page = found[number * size : (number + 1) * size]
    org = org_id(call.world)
    return {
        "data": [views_records.user(r, org) for r in page],
        "included": [],
        "meta": {"page": {"total_count": len(every), "total_filtered_count": len(found)}},
    }
