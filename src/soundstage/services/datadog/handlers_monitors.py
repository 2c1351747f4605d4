"""Monitors (v1): list, create, get, edit, delete, search, group search, and the legacy mute/unmute (not in
the spec; mapped onto v2 downtime records). Every handler checks all it reads before its first write."""

from __future__ import annotations

import re
from typing import Any

from ...clock import US
from ...world import Record
from . import downtimes, evaluation, views
from .errors import DatadogError, bad_request, not_found
from .monitor_search import matches as search_matches
from .monitor_search import parse_search
from .monitors import FIRST_ID, complete_options, is_multi, new_monitor, problem
from .numbers import fits_int64, is_epoch_seconds, is_int64
from .queries import QueryError, parse_monitor_query
from .router import Call, invalid, ops
from .store import DOWNTIMES, MONITORS, SERIES

_EDITABLE = ("name", "type", "query", "message", "tags", "priority", "options", "restricted_roles", "draft_status")
# `type:` in monitor search names a classification, not the monitor type.
_CLASSIFICATION = {
    "metric alert": "metric",
    "query alert": "metric",
    "log alert": "log",
    "trace-analytics alert": "apm",
    "service check": "custom",
    "event alert": "event",
    "event-v2 alert": "event",
    "process alert": "process",
    "rum alert": "rum",
    "synthetics alert": "synthetics",
    "slo alert": "slo",
    "composite": "composite",
}
_MENTION = re.compile(r"@([\w.+-]+(?:@[\w.-]+)?)")
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


def monitor_of(call: Call) -> Record:
    record = call.world[MONITORS].get(call.params["monitor_id"])
    if record is None:
        raise not_found("Monitor not found")
    return record


def _group_states(call: Call) -> list[str] | None:
    text = call.text("group_states")
    if not text:
        return None
    states = [s.strip().lower() for s in text.split(",") if s.strip()]
    if any(s not in views.GROUP_STATES for s in states):
        raise invalid("group_states")
    return states


def _view_args(call: Call) -> tuple[list[str] | None, bool]:
    """How the reply renders the monitor (`group_states`, `with_downtimes`), read before any write."""
    return _group_states(call), call.boolean("with_downtimes")


def _view(call: Call, record: Record, args: tuple[list[str] | None, bool] | None = None) -> dict[str, Any]:
    return views.monitor(call.world, record, *(args or _view_args(call)))


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
    _group_states(call)
    call.boolean("with_downtimes")
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
    return [_view(call, r) for r in found]


def _scope_tags(record: Record) -> list[str]:
    try:
        return list(parse_monitor_query(record["query"]).metric.scope)
    except QueryError:
        return []


@ops("POST /api/v1/monitor")
def create_monitor(call: Call) -> dict[str, Any]:
    fields = _checked_fields(call.fields, None)
    shown = _view_args(call)
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
    shown = _view_args(call)
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


# -- search ------------------------------------------------------------------------------------------


def _facets(call: Call, record: Record) -> dict[str, list[str]]:
    try:
        metrics, scopes = _metric_and_scopes(record)
    except QueryError:
        metrics, scopes = [], []
    creator = views.creator(call.world, record["creator"])
    return {
        "status": [record["overall_state"].lower()],
        "muted": [str(downtimes.muted(call.world[DOWNTIMES], record, call.now())).lower()],
        "tag": [t.lower() for t in record["tags"]],
        "type": [_CLASSIFICATION.get(record["type"], record["type"].split()[0])],
        "id": [str(record["id"])],
        "metric": metrics,
        "scope": [s.lower() for s in scopes],
        "notification": [m.lower() for m in _MENTION.findall(record["message"])],
        "priority": [f"p{record['priority']}"] if record["priority"] else [],
        "creator": [creator["email"].lower(), creator["handle"].lower()] if creator else [],
    }


def _metric_and_scopes(record: Record) -> tuple[list[str], list[str]]:
    if record["type"] not in evaluation.EVALUATED:
        return [], []
    query = parse_monitor_query(record["query"]).metric
    return [query.metric], list(query.scope) or ["*"]


def _paging(call: Call) -> tuple[int, int]:
    return call.integer("page", 0, minimum=0) or 0, call.integer("per_page", 30, minimum=1) or 30


def _counts(values: list[Any]) -> list[dict[str, Any]]:
    counted: dict[Any, int] = {}
    for value in values:
        counted[value] = counted.get(value, 0) + 1
    return [
        {"name": name, "count": count} for name, count in sorted(counted.items(), key=lambda kv: (-kv[1], str(kv[0])))
    ]


def _sorted(records: list[Record], sort: str | None, key_of: dict[str, Any]) -> list[Record]:
    if not sort:
        return records
    field, _, direction = sort.partition(",")
    if field not in key_of or direction not in ("", "asc", "desc"):
        raise invalid("sort")
    return sorted(records, key=key_of[field], reverse=direction == "desc")


@ops("GET /api/v1/monitor/search")
def search_monitors(call: Call) -> dict[str, Any]:
    try:
        search = parse_search(call.text("query") or "")
    except ValueError as exc:
        raise bad_request(f"Invalid query: {exc}") from exc
    page, per_page = _paging(call)
    sort = call.text("sort")
    found = []
    for record in sorted(call.world[MONITORS], key=lambda r: r["id"]):
        facets = _facets(call, record)
        if search_matches(search, facets, record["name"]):
            found.append((record, facets))
    keys = {
        "name": lambda r: r["name"].lower(),
        "status": lambda r: evaluation.SEVERITY.get(r["overall_state"], 0),
        "id": lambda r: r["id"],
        "priority": lambda r: r["priority"] or 6,
    }
    by_id = {r["id"]: f for r, f in found}
    records = _sorted([r for r, _ in found], sort, keys)
    shown = records[page * per_page : (page + 1) * per_page]
    return {
        "monitors": [_search_result(call, r, by_id[r["id"]]) for r in shown],
        "metadata": {
            "page": page,
            "page_count": -(-len(records) // per_page),
            "per_page": per_page,
            "total_count": len(records),
        },
        "counts": {
            "status": _counts([r["overall_state"] for r, _ in found]),
            "muted": _counts([f["muted"][0] == "true" for _, f in found]),
            "tag": _counts([t for r, _ in found for t in r["tags"]]),
            "type": _counts([f["type"][0] for _, f in found]),
        },
    }


def _search_result(call: Call, record: Record, facets: dict[str, list[str]]) -> dict[str, Any]:
    triggered = [g["last_triggered_ts"] for g in record["state"]["groups"].values() if g["last_triggered_ts"]]
    mentions = _MENTION.findall(record["message"])
    creator = views.creator(call.world, record["creator"])
    metrics, scopes = facets["metric"], facets["scope"]
    result: dict[str, Any] = {
        "id": record["id"],
        "name": record["name"],
        "status": record["overall_state"],
        "type": record["type"],
        "classification": facets["type"][0],
        "tags": list(record["tags"]),
        "query": record["query"],
        "metrics": metrics,
        "scopes": scopes,
        "notifications": [{"handle": m, "name": m} for m in mentions],
        "last_triggered_ts": max(triggered) if triggered else None,
        "org_id": 1,
        "quality_issues": [],
    }
    if creator is not None:
        result["creator"] = creator
    return result


@ops("GET /api/v1/monitor/groups/search")
def search_monitor_groups(call: Call) -> dict[str, Any]:
    try:
        search = parse_search(call.text("query") or "")
    except ValueError as exc:
        raise bad_request(f"Invalid query: {exc}") from exc
    page, per_page = _paging(call)
    found = []
    for record in sorted(call.world[MONITORS], key=lambda r: r["id"]):
        facets = _facets(call, record)
        for name, group in record["state"]["groups"].items():
            group_facets = {**facets, "status": [(group["status"] or "").lower()], "group": [name.lower()]}
            if search_matches(search, group_facets, record["name"]):
                found.append((record, name, group, group_facets))
    keys = {
        "name": lambda item: item[0]["name"].lower(),
        "status": lambda item: evaluation.SEVERITY.get(item[2]["status"], 0),
        "group": lambda item: item[1],
    }
    sort = call.text("sort")
    if sort:
        field, _, direction = sort.partition(",")
        if field not in keys or direction not in ("", "asc", "desc"):
            raise invalid("sort")
        found.sort(key=keys[field], reverse=direction == "desc")
    shown = found[page * per_page : (page + 1) * per_page]
    return {
        "groups": [
            {
                "group": name,
                "group_tags": name.split(",") if name != "*" else ["*"],
                "monitor_id": record["id"],
                "monitor_name": record["name"],
                "status": group["status"],
                "last_triggered_ts": group["last_triggered_ts"],
                "last_nodata_ts": group["last_nodata_ts"] or 0,
            }
            for record, name, group, _ in shown
        ],
        "metadata": {
            "page": page,
            "page_count": -(-len(found) // per_page),
            "per_page": per_page,
            "total_count": len(found),
        },
        "counts": {
            "status": _counts([g["status"] for _, _, g, _ in found]),
            "type": _counts([f["type"][0] for _, _, _, f in found]),
        },
    }


# -- legacy mute ---------------------------------------------------------------------------------------


def _legacy_arg(call: Call, name: str) -> Any:
    """The legacy endpoints read their arguments from the JSON body or the query string."""
    value = call.fields.get(name)
    return value if value is not None else call.text(name)


@ops("POST /api/v1/monitor/{monitor_id}/mute")
def mute_monitor(call: Call) -> dict[str, Any]:
    record = monitor_of(call)
    scope = _legacy_arg(call, "scope") or "*"
    end = _legacy_arg(call, "end")
    now = call.now()
    shown = _view_args(call)
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
            call.world.ids.next("datadog.downtime_ids") + 4_000_000_000,
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
    scope = _legacy_arg(call, "scope")
    all_scopes = _legacy_arg(call, "all_scopes") in (True, "true")
    now = call.now()
    shown = _view_args(call)
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
