"""Monitoring records rendered as Datadog's API objects: v1 Monitor, Host and MatchingDowntime, v2 Downtime
(JSON:API).

Times: v1 monitor `created`/`modified` and v2 downtime times as ISO-8601 with `+00:00` (`iso_us`: microseconds
unless on a whole second, as Datadog sends them); state-group, host and mute times in epoch seconds, where the
schema says int.
"""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record, World
from . import downtimes, hosts
from .series import value_at
from .store import DOWNTIMES, MONITORS, SERIES, USERS, downtime_status
from .views_records import iso_us, user

GROUP_STATES = ("all", "alert", "warn", "no data", "ok")


def creator(world: World, user_id: str | None) -> dict[str, Any] | None:
    """Monitor `creator`: the user's email, handle, integer id and name, when the world knows the user."""
    record = world[USERS].get(user_id) if user_id else None
    if record is None:
        return None
    return {"email": record["email"], "handle": record["handle"], "id": record["legacy_id"], "name": record["name"]}


def _group(group: dict[str, Any]) -> dict[str, Any]:
    # The schema's timestamps are plain ints: Datadog answers 0 for "never".
    return {
        "name": group["name"],
        "status": group["status"],
        "last_triggered_ts": group["last_triggered_ts"] or 0,
        "last_resolved_ts": group["last_resolved_ts"] or 0,
        "last_nodata_ts": group["last_nodata_ts"] or 0,
        "last_notified_ts": group["last_triggered_ts"] or 0,
    }


def matching_downtime(record: Record) -> dict[str, Any]:
    end = record["schedule"]["end"]
    return {
        "id": record["legacy_id"],
        "start": record["schedule"]["start"] // US,
        "end": end // US if end is not None else None,
        "scope": [record["scope"]],
    }


def monitor(
    world: World, record: Record, group_states: list[str] | None = None, with_downtimes: bool = False
) -> dict[str, Any]:
    """A v1 Monitor. `group_states` (`all`, `alert`, `warn`, `no data`) adds `state.groups` in those states;
    `with_downtimes` adds `matching_downtimes`."""
    now = world.now()
    active = downtimes.for_monitor(world[DOWNTIMES], record, now)
    options = dict(record["options"])
    # Legacy readers see mutes as `options.silenced` ({scope: end or null}), as Datadog kept them.
    options["silenced"] = {
        d["scope"]: (d["schedule"]["end"] // US if d["schedule"]["end"] is not None else None)
        for d in active
        if "monitor_id" in d["monitor_identifier"]
    }
    body: dict[str, Any] = {
        "id": record["id"],
        "name": record["name"],
        "type": record["type"],
        "query": record["query"],
        "message": record["message"],
        "tags": list(record["tags"]),
        "priority": record["priority"],
        "options": options,
        "overall_state": record["overall_state"],
        "overall_state_modified": iso_us(record["overall_state_modified"]),
        "created": iso_us(record["created"]),
        "created_at": record["created"] // US * 1000,  # epoch milliseconds of the whole second
        "modified": iso_us(record["modified"]),
        "deleted": None,
        "multi": record["multi"],
        "restricted_roles": record["restricted_roles"],
        "draft_status": record["draft_status"],
        "org_id": 1,
    }
    made_by = creator(world, record["creator"])
    if made_by is not None:
        body["creator"] = made_by
    if group_states:
        wanted = set(GROUP_STATES[1:]) if "all" in group_states else set(group_states)
        groups = record["state"]["groups"]
        body["state"] = {
            "groups": {name: _group(g) for name, g in groups.items() if g["status"] and g["status"].lower() in wanted}
        }
    if with_downtimes:
        body["matching_downtimes"] = [matching_downtime(d) for d in active]
    return body


def _seconds(us: int | None) -> int | None:
    return us // US if us is not None else None


def _legacy_user(world: World, user_id: str | None) -> int | None:
    record = world[USERS].get(user_id) if user_id else None
    return record["legacy_id"] if record is not None else None


def downtime_v1(world: World, record: Record) -> dict[str, Any]:
    """A v1 Downtime: the same record as v2's, by its integer id, times in epoch seconds, the scope as a list
    and `monitor_tags` `["*"]` for a downtime of one monitor, with the fields Datadog's recorded answers add
    to the schema's (`org_id`, `created`, `modified`, `status`, `uuid`, `child_id`)."""
    status = downtime_status(record, world.now())
    identifier = record["monitor_identifier"]
    body: dict[str, Any] = {
        "id": record["legacy_id"],
        "monitor_id": identifier.get("monitor_id"),
        "org_id": 1,
        "start": record["schedule"]["start"] // US,
        "end": _seconds(record["schedule"]["end"]),
        "canceled": _seconds(record["canceled"]),
        "created": record["created"] // US,
        "modified": record["modified"] // US,
        "message": record["message"],
        "active": status == "active",
        "disabled": status == "canceled",
        "recurrence": None,
        "timezone": record["display_timezone"],
        "parent_id": None,
        "child_id": None,
        "updater_id": _legacy_user(world, record.get("updated_by")),
        "downtime_type": 2,
        "status": status,
        "monitor_tags": list(identifier.get("monitor_tags", ["*"])),
        "mute_first_recovery_notification": record["mute_first_recovery_notification"],
        "notify_end_types": list(record["notify_end_types"]),
        "notify_end_states": list(record["notify_end_states"]),
        "uuid": record["id"],
        "scope": downtimes.v1_scope(record["scope"]),
    }
    creator_id = _legacy_user(world, record["created_by"])
    if creator_id is not None:  # an int32 in the schema, never null: left out for a downtime of no known user
        body["creator_id"] = creator_id
    return body


def downtime(world: World, record: Record, relationships: bool) -> dict[str, Any]:
    """A v2 downtime (`DowntimeResponseData`); Datadog adds `relationships` to the answer of a write and to
    a read with `include`, not to a plain read."""
    schedule = record["schedule"]
    identifier = record["monitor_identifier"]
    monitor_id = identifier.get("monitor_id")
    body: dict[str, Any] = {
        "type": "downtime",
        "id": record["id"],
        "attributes": {
            "canceled": iso_us(record["canceled"]) if record["canceled"] is not None else None,
            "created": iso_us(record["created"]),
            "modified": iso_us(record["modified"]),
            "display_timezone": record["display_timezone"],
            "message": record["message"],
            "monitor_identifier": dict(identifier),
            "mute_first_recovery_notification": record["mute_first_recovery_notification"],
            "notify_end_states": list(record["notify_end_states"]),
            "notify_end_types": list(record["notify_end_types"]),
            "schedule": {
                "start": iso_us(schedule["start"]),
                "end": iso_us(schedule["end"]) if schedule["end"] is not None else None,
            },
            "scope": record["scope"],
            "status": downtime_status(record, world.now()),
        },
    }
    if relationships:
        body["relationships"] = {
            "created_by": {"data": {"type": "users", "id": record["created_by"]} if record["created_by"] else None},
            "monitor": {"data": {"type": "monitors", "id": str(monitor_id)} if monitor_id is not None else None},
        }
    return body


def downtime_included(world: World, records: list[Record], include: set[str]) -> list[dict[str, Any]]:
    """`included` for `include=created_by,monitor`: each user and monitor once, in order of first mention."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for record in records:
        user_id = record["created_by"]
        if "created_by" in include and user_id and ("users", user_id) not in seen:
            found = world[USERS].get(user_id)
            if found is not None:
                seen["users", user_id] = user(found)
        monitor_id = record["monitor_identifier"].get("monitor_id")
        if "monitor" in include and monitor_id is not None and ("monitors", str(monitor_id)) not in seen:
            found = world[MONITORS].get(str(monitor_id))
            if found is not None:
                seen["monitors", str(monitor_id)] = {
                    "type": "monitors",
                    "id": monitor_id,
                    "attributes": {"name": found["name"]},
                }
    return list(seen.values())


def _host_metric(world: World, name: str, metric: str) -> float:
    """The host's latest value of a system metric, when the world has the series; 0 otherwise."""
    now = world.now()
    for record in world[SERIES].by("metric", metric):
        if f"host:{name}" in record["tags"]:
            step = record["interval"] * US
            return value_at(record, now // step * step, world.ids.seed)
    return 0.0


def host(world: World, record: Record, metadata: bool = True, muted_data: bool = True) -> dict[str, Any]:
    """A v1 Host."""
    now = world.now()
    is_muted = hosts.muted(record, now)
    body: dict[str, Any] = {
        "name": record["name"],
        "host_name": record["name"],
        "id": record["id"],
        "aliases": [record["name"], *record["aliases"]],
        "apps": list(record["apps"]),
        "sources": sorted({"agent", *(s.lower() for s in record["tags_by_source"] if s != "Datadog")}),
        "tags_by_source": {k: list(v) for k, v in record["tags_by_source"].items()},
        "up": record["up"],
        "is_muted": is_muted,
        "last_reported_time": hosts.last_reported(record, now),
        "metrics": {
            "cpu": _host_metric(world, record["name"], "system.cpu.user"),
            "iowait": _host_metric(world, record["name"], "system.cpu.iowait"),
            "load": _host_metric(world, record["name"], "system.load.1"),
        },
    }
    if muted_data:
        body["mute_timeout"] = record["mute_timeout"] if is_muted else None
    if metadata:
        body["meta"] = _host_meta(record)
    return body


def _host_meta(record: Record) -> dict[str, Any]:
    """HostMeta as the Agent reports it (the keys of Datadog's recorded answers): the host's apps as its
    checks; no OS version is known, so the version triples are empty, as for the other platforms."""
    unknown = ["", "", ""]
    return {
        "platform": record["platform"],
        "agent_version": "7.52.0",
        "agent_flavor": "agent",
        "agent_checks": [[app, app, app, "OK", "", ""] for app in record["apps"]],
        "host_id": record["id"],
        "socket-hostname": record["name"],
        "socket-fqdn": record["name"],
        "machine": "amd64",
        "timezones": ["UTC"],
        "install_method": {"tool": None, "installer_version": None, "tool_version": "undefined"},
        "nixV": list(unknown),
        "macV": list(unknown),
        "winV": list(unknown),
        "fbsdV": list(unknown),
    }
