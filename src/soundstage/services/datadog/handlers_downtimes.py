"""Downtimes (v2, JSON:API): list, schedule, get, update, cancel, and a monitor's downtime matches.

One-time schedules only (`{start, end}`); a recurring schedule is a 400. Errors use APIErrorResponse, as
the v2 spec says for these operations. Every handler checks all it reads before its first write.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ...world import Record
from ..base import Reply
from . import downtimes, views_monitoring, views_records
from .bodies import Body, Place, read
from .calls import Call, downtime_of, invalid, iso_time, monitor_of, ops
from .errors import bad_request
from .store import DOWNTIMES, MONITORS, downtime_status

_INCLUDES = ("created_by", "monitor")


def _response(call: Call, record: Record, include: set[str], written: bool) -> dict[str, Any]:
    """The answer naming one downtime. The answer of a write includes its creator unasked, as Datadog's
    recorded answers do; a read includes only what `include` asks for."""
    include = include | {"created_by"} if written else include
    body: dict[str, Any] = {"data": views_monitoring.downtime(call.world, record, bool(include))}
    if include:
        body["included"] = views_monitoring.downtime_included(call.world, [record], include)
    return body


def _data(call: Call) -> dict[str, Any]:
    data = call.fields.get("data")
    if not isinstance(data, dict):
        raise bad_request("The value provided for parameter 'data' is invalid")
    if data.get("type") != "downtime":
        raise bad_request("The value provided for parameter 'type' is invalid: expected downtime")
    attributes = data.get("attributes")
    if not isinstance(attributes, dict):
        raise bad_request("The value provided for parameter 'attributes' is invalid")
    return data


class Notifying(Body):
    """What a downtime says and how it notifies, in v1 as in v2; read only where given (`given`)."""

    message: str | None = None
    mute_first_recovery_notification: bool = False
    notify_end_states: list[Literal["alert", "no data", "warn"]] = Field(default_factory=list)
    notify_end_types: list[Literal["canceled", "expired"]] = Field(default_factory=list)

    def given(self) -> dict[str, Any]:
        """The fields the body gave, as the record keeps them."""
        return self.model_dump(exclude_unset=True, by_alias=True)


class _Attributes(Notifying):
    """The attributes taken as given: all but `scope`, `monitor_identifier` and `schedule`."""

    display_timezone: str = ""


def named(place: Place) -> Exception:
    """Datadog names the field it cannot read."""
    return invalid(str(place[0]))


def _checked(call: Call, attributes: dict[str, Any], current: Record | None) -> dict[str, Any]:
    """The attributes of a create (all) or an update (those given), checked, schedule in µs."""
    fields: dict[str, Any] = {}
    if "scope" in attributes or current is None:
        fields["scope"] = _scope(attributes.get("scope"))
    if "monitor_identifier" in attributes or current is None:
        fields["monitor_identifier"] = _identifier(call, attributes.get("monitor_identifier"))
    if "schedule" in attributes or current is None:
        fields["schedule"] = _schedule(attributes.get("schedule"), current, call.stamp())
    return {**fields, **read(_Attributes, attributes, named).given()}


def _scope(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise invalid("scope")
    try:
        downtimes.parse_scope(value)
    except ValueError:
        raise invalid("scope") from None
    return value


def _schedule(given: Any, current: Record | None, now: int) -> dict[str, Any]:
    """A one-time schedule, in µs: what `given` sets over the one `current` has (from `now`, the call's stamp,
    with no end, for a new downtime)."""
    schedule = {} if given is None else given
    if not isinstance(schedule, dict):
        raise invalid("schedule")
    if "recurrences" in schedule:
        raise bad_request("Recurring downtimes are not supported: give a one-time schedule with start and end")
    if set(schedule) - {"start", "end"}:
        raise invalid("schedule")
    base = current["schedule"] if current else {"start": now, "end": None}
    start = iso_time(schedule.get("start"), "start") if "start" in schedule else base["start"]
    end = iso_time(schedule.get("end"), "end") if "end" in schedule else base["end"]
    start = now if start is None else start
    if end is not None and end <= start:
        raise bad_request("The downtime end must be after its start")
    return {"start": start, "end": end}


def _identifier(call: Call, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        raise invalid("monitor_identifier")
    if "monitor_id" in value:
        monitor_id = value["monitor_id"]
        if isinstance(monitor_id, bool) or not isinstance(monitor_id, int):
            raise invalid("monitor_id")
        if str(monitor_id) not in call.world[MONITORS]:
            raise bad_request(f"Monitor {monitor_id} not found")
        return {"monitor_id": monitor_id}
    tags = value.get("monitor_tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) and t for t in tags):
        raise invalid("monitor_tags")
    return {"monitor_tags": list(tags)}


@ops("GET /api/v2/downtime")
def list_downtimes(call: Call) -> dict[str, Any]:
    current_only = call.boolean("current_only")
    include = set(call.names("include", _INCLUDES))
    offset, limit = call.offset_and_limit()
    now = call.now()
    found = [d for d in call.world[DOWNTIMES] if not current_only or downtime_status(d, now) == "active"]
    page = found[offset : offset + limit]
    body: dict[str, Any] = {
        "data": [views_monitoring.downtime(call.world, d, bool(include)) for d in page],
        "meta": {"page": {"total_filtered_count": len(found)}},
    }
    if include:
        body["included"] = views_monitoring.downtime_included(call.world, page, include)
    return body


@ops("POST /api/v2/downtime")
def create_downtime(call: Call) -> dict[str, Any]:
    data = _data(call)
    fields = _checked(call, data["attributes"], None)
    include = set(call.names("include", _INCLUDES))
    downtime_id = call.world.ids.uuid(DOWNTIMES)
    record = downtimes.new_downtime(
        downtime_id,
        downtimes.next_legacy_id(call.world.ids),
        call.stamp(),
        call.principal.user or None,
        **fields,
    )
    call.world[DOWNTIMES].add(downtime_id, record)
    return _response(call, record, include, written=True)


@ops("GET /api/v2/downtime/{downtime_id}")
def get_downtime(call: Call) -> dict[str, Any]:
    return _response(call, downtime_of(call), set(call.names("include", _INCLUDES)), written=False)


@ops("PATCH /api/v2/downtime/{downtime_id}")
def update_downtime(call: Call) -> dict[str, Any]:
    current = downtime_of(call)
    data = _data(call)
    if data.get("id") != current["id"]:
        raise bad_request("The downtime id in the body does not match the one in the path")
    if current["canceled"] is not None:
        raise bad_request("A canceled downtime cannot be updated")
    fields = _checked(call, data["attributes"], current)
    include = set(call.names("include", _INCLUDES))
    record = call.world[DOWNTIMES].change(current["id"], **fields, modified=call.stamp(), updated_by=call.key_user())
    return _response(call, record, include, written=True)


@ops("DELETE /api/v2/downtime/{downtime_id}")
def cancel_downtime(call: Call) -> Reply:
    record = downtime_of(call, f"Downtime {call.params['downtime_id']} not found")
    if record["canceled"] is None:
        stamped = call.stamp()
        call.world[DOWNTIMES].change(record["id"], canceled=stamped, modified=stamped)
    return Reply(204, None)


@ops("GET /api/v2/monitor/{monitor_id}/downtime_matches")
def list_monitor_downtimes(call: Call) -> dict[str, Any]:
    monitor = monitor_of(call, f"Monitor with id {call.params['monitor_id']} not found")
    offset, limit = call.offset_and_limit()
    now = call.now()
    found = downtimes.for_monitor(call.world[DOWNTIMES], monitor, now)
    data = []
    for record in found[offset : offset + limit]:
        names = monitor["state"]["groups"] or {"*": None}
        groups = [name for name in names if downtimes.covering([record], monitor, name)]
        schedule = record["schedule"]
        data.append(
            {
                "type": "downtime_match",
                "id": record["id"],
                "attributes": {
                    "start": views_records.iso_us(schedule["start"]),
                    "end": views_records.iso_us(schedule["end"]) if schedule["end"] is not None else None,
                    "scope": record["scope"],
                    "groups": groups,
                },
            }
        )
    return {"data": data, "meta": {"page": {"total_filtered_count": len(found)}}}
