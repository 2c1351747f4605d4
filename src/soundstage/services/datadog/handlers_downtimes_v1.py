"""Downtimes (v1): list, schedule, get, update, cancel, cancel by scope. The same records as v2's
(`handlers_downtimes`), by their integer `legacy_id`, times in epoch seconds and the scope as a list.

One-time schedules only: a `recurrence` that is not null is a 400. Every handler checks all it reads before
its first write.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from ...clock import US
from ...world import Record
from ..base import Reply
from . import downtimes, views_monitoring
from .bodies import read
from .calls import Call, invalid, is_epoch_seconds, is_int64, ops
from .errors import bad_request, not_found
from .handlers_downtimes import Notifying, named
from .store import DOWNTIMES, MONITORS, downtime_status


def _of(call: Call, missing: str) -> Record:
    """The downtime the path's integer id names, or 404 `missing`."""
    text = call.params["downtime_id"]
    if text.isascii() and text.isdigit():
        for record in call.world[DOWNTIMES]:
            if record["legacy_id"] == int(text):
                return record
    raise not_found(missing)


def _scope(value: Any) -> str:
    """v1's scope (a list of tags, or one string) as the v2 scope it stands for."""
    scopes = [value] if isinstance(value, str) else value
    if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) and s.strip() for s in scopes):
        raise bad_request("Invalid scope parameter")
    scope = downtimes.v2_scope(scopes)
    try:
        downtimes.parse_scope(scope)
    except ValueError:
        raise bad_request("Invalid scope parameter") from None
    return scope


class _Fields(Notifying):
    """The fields taken as given: all but the scope, the monitor and the times."""

    timezone: Annotated[str, Field(min_length=1)] = Field("", serialization_alias="display_timezone")


def _checked(call: Call, body: dict[str, Any], current: Record | None) -> dict[str, Any]:
    """The v2 attributes a create (all) or an update (those given) asks for, checked; schedule in µs."""
    fields: dict[str, Any] = {}
    if "scope" in body or current is None:
        fields["scope"] = _scope(body.get("scope"))
    if "monitor_id" in body or "monitor_tags" in body or current is None:
        fields["monitor_identifier"] = _identifier(call, body)
    if body.get("recurrence") is not None:
        raise bad_request("Recurring downtimes are not supported: give a one-time schedule with start and end")
    if "start" in body or "end" in body or current is None:
        fields["schedule"] = _schedule(call, body, current)
    return {**fields, **read(_Fields, body, named).given()}


def _schedule(call: Call, body: dict[str, Any], current: Record | None) -> dict[str, Any]:
    """The one-time schedule `start` and `end` (epoch seconds) set over the one `current` has (from now, with
    no end, for a new downtime), in µs."""
    base = current["schedule"] if current else {"start": call.stamp(), "end": None}
    start = _seconds(body, "start", base["start"])
    end = _seconds(body, "end", base["end"])
    start = call.stamp() if start is None else start
    if end is not None and end <= start:
        raise bad_request("The downtime end must be after its start")
    return {"start": start, "end": end}


def _seconds(body: dict[str, Any], name: str, default: int | None) -> int | None:
    """An epoch-seconds field as µs (null: none); absent, `default`."""
    if name not in body:
        return default
    value = body[name]
    if value is None:
        return None
    if not is_epoch_seconds(value):
        raise invalid(name)
    return value * US


def _identifier(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    """`monitor_id` or else `monitor_tags` (`["*"]`, every monitor, when neither is given)."""
    monitor_id = body.get("monitor_id")
    if monitor_id is not None:
        if isinstance(monitor_id, bool) or not is_int64(monitor_id):
            raise invalid("monitor_id")
        if str(monitor_id) not in call.world[MONITORS]:
            raise bad_request(f"Monitor {monitor_id} not found")
        return {"monitor_id": monitor_id}
    tags = body.get("monitor_tags")
    if tags is None:
        return {"monitor_tags": ["*"]}
    if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
        raise invalid("monitor_tags")
    return {"monitor_tags": list(tags) or ["*"]}


@ops("GET /api/v1/downtime")
def list_downtimes(call: Call) -> list[dict[str, Any]]:
    """`with_creator` adds each downtime's `creator` ({email, handle, id, name}), as Datadog's recorded list does."""
    current_only = call.boolean("current_only")
    with_creator = call.boolean("with_creator")
    now = call.now()
    found = []
    for record in call.world[DOWNTIMES]:
        if current_only and downtime_status(record, now) != "active":
            continue
        shown = views_monitoring.downtime_v1(call.world, record)
        creator = views_monitoring.creator(call.world, record["created_by"]) if with_creator else None
        if creator is not None:
            shown["creator"] = creator
        found.append(shown)
    return found


@ops("POST /api/v1/downtime")
def create_downtime(call: Call) -> dict[str, Any]:
    fields = _checked(call, call.fields, None)
    downtime_id = call.world.ids.uuid(DOWNTIMES)
    record = downtimes.new_downtime(
        downtime_id, downtimes.next_legacy_id(call.world.ids), call.stamp(), call.key_user(), **fields
    )
    call.world[DOWNTIMES].add(downtime_id, record)
    return views_monitoring.downtime_v1(call.world, record)


@ops("GET /api/v1/downtime/{downtime_id}")
def get_downtime(call: Call) -> dict[str, Any]:
    return views_monitoring.downtime_v1(call.world, _of(call, "Downtime not found"))


@ops("PUT /api/v1/downtime/{downtime_id}")
def update_downtime(call: Call) -> dict[str, Any]:
    current = _of(call, "Downtime not found")
    if current["canceled"] is not None:
        raise bad_request("A canceled downtime cannot be updated")
    fields = _checked(call, call.fields, current)
    record = call.world[DOWNTIMES].change(current["id"], **fields, modified=call.stamp(), updated_by=call.key_user())
    return views_monitoring.downtime_v1(call.world, record)


@ops("DELETE /api/v1/downtime/{downtime_id}")
def cancel_downtime(call: Call) -> Reply:
    record = _of(call, f"Downtime {call.params['downtime_id']} not found")
    if record["canceled"] is None:
        stamped = call.stamp()
        call.world[DOWNTIMES].change(record["id"], canceled=stamped, modified=stamped)
    return Reply(204, None)


@ops("POST /api/v1/downtime/cancel/by_scope")
def cancel_downtimes_by_scope(call: Call) -> dict[str, Any]:
    """Cancels the downtimes not yet over whose scope has the given term, as Datadog's recorded answer shows."""
    scope = call.fields.get("scope")
    if not isinstance(scope, str) or not scope.strip():
        raise bad_request("Invalid scope parameter")
    now = call.now()
    found = [
        d
        for d in call.world[DOWNTIMES]
        if downtime_status(d, now) in ("active", "scheduled") and scope.strip() in downtimes.v1_scope(d["scope"])
    ]
    if not found:
        raise not_found("No downtimes found")
    stamped = call.stamp()
    for record in found:
        call.world[DOWNTIMES].change(record["id"], canceled=stamped, modified=stamped)
    return {"cancelled_ids": [d["legacy_id"] for d in found]}
