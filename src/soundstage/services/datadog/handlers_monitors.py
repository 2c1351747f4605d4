"""Monitors (v1): list, create, get, edit, delete, and the legacy mute/unmute (not in the spec; mapped onto
v2 downtime records). Every handler checks all it reads before its first write. Search is
`handlers_monitor_search`."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from . import downtimes, evaluation, views_monitoring
from .calls import Call, fits_int64, invalid, is_epoch_seconds, is_int64, monitor_of, monitor_view, ops
from .errors import DatadogError, bad_request
from .monitors import FIRST_ID, complete_options, is_multi, new_monitor, problem
from .queries import QueryError, parse_monitor_query
from .store import DOWNTIMES, MONITORS, SERIES

_EDITABLE = ("name", "type", "query", "message", "tags", "priority", "options", "restricted_roles", "draft_status")
# MonitorOptions fields by JSON type (the v1 spec), checked so that evaluation and views can trust them.
_INT_OPTIONS = (
    "evaluation_delay",
    "min_failure_duration",
    "min_location_failed",
    "new_group_delay",
    "new_host_delay",
    "no_data_timeframe",
    "renotify_interval",
    "renotify_occurrences",
    "timeout_h",
)
_BOOL_OPTIONS = (
    "enable_logs_sample",
    "enable_samples",
    "groupby_simple_monitor",
    "include_tags",
    "locked",
    "notify_audit",
    "notify_no_data",
    "require_full_window",
)
_STR_OPTIONS = ("escalation_message", "group_retention_duration", "synthetics_check_id")


def _view(call: Call, record: Record, shown: tuple[list[str] | None, bool] | None = None) -> dict[str, Any]:
    return views_monitoring.monitor(call.world, record, *(shown or monitor_view(call)))


def _options_problem(options: dict[str, Any]) -> str | None:
    """The name of the first option of the wrong type, None when all are right."""
    for name in _INT_OPTIONS:
        if options.get(name) is not None and not is_int64(options[name]):
            return name
    if not 0 <= (options.get("min_failure_duration") or 0) <= 7200:
        return "min_failure_duration"
    for name in _BOOL_OPTIONS:
        if options.get(name) is not None and not isinstance(options[name], bool):
            return name
    for name in _STR_OPTIONS:
        if options.get(name) is not None and not isinstance(options[name], str):
            return name
    return None if fits_int64(options) else "options"


def _checked_fields(body: dict[str, Any], current: Record | None) -> dict[str, Any]:
    """The editable fields of a create or edit body, checked; an edit keeps what the body leaves out."""
    fields = {k: body[k] for k in _EDITABLE if k in body}
    merged = {**({k: current[k] for k in _EDITABLE} if current else {}), **fields}
    if current is None and "type" not in body:
        raise bad_request("The value provided for parameter 'type' is invalid")
    if current is None and "query" not in body:
        raise bad_request("The value provided for parameter 'query' is invalid")
    for name in ("name", "message", "type"):
        if merged.get(name) is not None and not isinstance(merged[name], str):
            raise invalid(name)
    tags = merged.get("tags")
    if tags is not None and (not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)):
        raise invalid("tags")
    priority = merged.get("priority")
    if priority is not None and (isinstance(priority, bool) or not isinstance(priority, int) or not 1 <= priority <= 5):
        raise invalid("priority")
    options = merged.get("options")
    if options is not None and not isinstance(options, dict):
        raise invalid("options")
    thresholds = (options or {}).get("thresholds")
    if thresholds is not None and (
        not isinstance(thresholds, dict)
        or not all(
            v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and fits_int64(v))
            for v in thresholds.values()
        )
    ):
        raise invalid("thresholds")
    bad_option = _options_problem(options or {})
    if bad_option:
        raise invalid(bad_option)
    if merged.get("draft_status") not in (None, "draft", "published"):
        raise invalid("draft_status")
    roles = merged.get("restricted_roles")
    if roles is not None and (not isinstance(roles, list) or not all(isinstance(r, str) for r in roles)):
        raise invalid("restricted_roles")
    changed_type = current is not None and fields.get("type", current["type"]) != current["type"]
    if changed_type and {fields["type"], current["type"]} != {"metric alert", "query alert"}:
        raise bad_request("The monitor type cannot be changed")
    message = problem(merged.get("type"), merged.get("query"), options or {})
    if message:
        raise bad_request(message)
    return merged


def _evaluated(call: Call, record: dict[str, Any]) -> dict[str, Any]:
    """The record with its state at the simulated now (Datadog evaluates a new or edited monitor at once)."""
    fields = evaluation.changes(call.world[SERIES], call.world.ids.seed, record, call.now())
    return {**record, **fields}


def _next_id(call: Call) -> int:
    monitors = call.world[MONITORS]
    while True:
        candidate = FIRST_ID + call.world.ids.next(MONITORS)
        if str(candidate) not in monitors:
            return candidate


@ops("GET /api/v1/monitor")
def list_monitors(call: Call) -> list[dict[str, Any]]:
    name = (call.text("name") or "").lower()
    scope = [t for t in (call.text("tags") or "").split(",") if t]
    monitor_tags = [t for t in (call.text("monitor_tags") or "").split(",") if t]
    id_offset = call.integer("id_offset")
    page = call.integer("page", minimum=0)
    page_size = call.integer("page_size", 100, minimum=1)
    shown = monitor_view(call)
    found = []
    for record in sorted(call.world[MONITORS], key=lambda r: r["id"]):
        if name and name not in record["name"].lower():
            continue
        if scope and not all(tag in _scope_tags(record) for tag in scope):
            continue
        if monitor_tags and not set(monitor_tags) <= set(record["tags"]):
            continue
        if id_offset is not None and record["id"] <= id_offset:
            continue
        found.append(record)
    if page is not None:
        size = min(page_size or 100, 1000)
        found = found[page * size : (page + 1) * size]
    return [_view(call, r, shown) for r in found]


def _scope_tags(record: Record) -> list[str]:
    try:
        return list(parse_monitor_query(record["query"]).metric.scope)
    except QueryError:
        return []


@ops("POST /api/v1/monitor")
def create_monitor(call: Call) -> dict[str, Any]:
    fields = _checked_fields(call.fields, None)
    shown = monitor_view(call)
    now = call.now()
    record = _evaluated(call, new_monitor(_next_id(call), now, call.principal.user or None, fields))
    call.world[MONITORS].add(str(record["id"]), record)
    return _view(call, record, shown)


@ops("GET /api/v1/monitor/{monitor_id}")
def get_monitor(call: Call) -> dict[str, Any]:
    return _view(call, monitor_of(call))


@ops("PUT /api/v1/monitor/{monitor_id}")
def update_monitor(call: Call) -> dict[str, Any]:
    current = monitor_of(call)
    merged = _checked_fields(call.fields, current)
    shown = monitor_view(call)
    changes: dict[str, Any] = {k: merged[k] for k in _EDITABLE if merged[k] != current[k]}
    if "query" in changes or "type" in changes or "options" in changes:
        changes["options"] = complete_options(merged["query"], merged["type"], dict(merged["options"] or {}))
        changes["multi"] = is_multi(merged["query"])
    if "query" in changes:
        changes["state"] = {"groups": {}}  # other groups, other states
    changes["tags"] = list(merged["tags"] or [])
    changes["modified"] = call.now()
    record = _evaluated(call, {**current, **changes})
    updated = call.world[MONITORS].change(
        str(current["id"]), **{k: v for k, v in record.items() if current.get(k) != v}
    )
    return _view(call, updated, shown)


@ops("DELETE /api/v1/monitor/{monitor_id}")
def delete_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    call.world[MONITORS].remove(str(record["id"]))
    return {"deleted_monitor_id": record["id"]}


# -- legacy mute ---------------------------------------------------------------------------------------


@ops("POST /api/v1/monitor/{monitor_id}/mute")
def mute_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    scope = call.body_or_query("scope") or "*"
    end = call.body_or_query("end")
    now = call.now()
    shown = monitor_view(call)
    if not isinstance(scope, str):
        raise invalid("scope")
    try:
        downtimes.parse_scope(scope)
    except ValueError:
        raise invalid("scope") from None
    end_us = None
    if end not in (None, ""):
        try:
            end_s = int(end)  # from the query string it is text
        except (TypeError, ValueError):
            raise invalid("end") from None
        if isinstance(end, bool) or not is_epoch_seconds(end_s) or end_s * US <= now:
            raise invalid("end")
        end_us = end_s * US
    downtime_id = call.world.ids.uuid(DOWNTIMES)
    call.world[DOWNTIMES].add(
        downtime_id,
        downtimes.new_downtime(
            downtime_id,
            downtimes.next_legacy_id(call.world.ids),
            now,
            call.principal.user or None,
            scope=scope,
            monitor_identifier={"monitor_id": record["id"]},
            schedule={"start": now, "end": end_us},
        ),
    )
    return _view(call, record, shown)


@ops("POST /api/v1/monitor/{monitor_id}/unmute")
def unmute_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    scope = call.body_or_query("scope")
    all_scopes = call.body_or_query("all_scopes") in (True, "true")
    now = call.now()
    shown = monitor_view(call)
    mutes = [
        d
        for d in downtimes.for_monitor(call.world[DOWNTIMES], record, now, ("active", "scheduled"))
        if "monitor_id" in d["monitor_identifier"] and (all_scopes or not scope or d["scope"] == scope)
    ]
    if scope and not all_scopes and not mutes:
        raise DatadogError(400, f"Monitor {record['id']} is not muted for scope {scope}")
    for downtime in mutes:
        call.world[DOWNTIMES].change(downtime["id"], canceled=now, modified=now)
    return _view(call, record, shown)
