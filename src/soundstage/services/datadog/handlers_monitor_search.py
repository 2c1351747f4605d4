"""Monitor search (v1): `GET /api/v1/monitor/search` and `GET /api/v1/monitor/groups/search`, in the
syntax of `monitor_search`, with facet counts and page metadata."""

from __future__ import annotations

import re
from typing import Any

from ...clock import US
from ...world import Record
from . import downtimes, evaluation, views_monitoring
from .calls import Call, monitor_query, ops
from .monitor_search import matches as search_matches
from .queries import QueryError, parse_monitor_query
from .store import DOWNTIMES, MONITORS

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


def _facets(call: Call, record: Record) -> dict[str, list[str]]:
    try:
        metrics, scopes = _metric_and_scopes(record)
    except QueryError:
        metrics, scopes = [], []
    creator = views_monitoring.creator(call.world, record["creator"])
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


def _search_creator(call: Call, record: Record) -> dict[str, Any] | None:
    """The search result's `creator`: Datadog's recorded answers show the handle, id and name, no email."""
    creator = views_monitoring.creator(call.world, record["creator"])
    return {k: v for k, v in creator.items() if k != "email"} if creator is not None else None


def _muted_until(silencing: list[Record]) -> int | None:
    """When the downtimes silencing a monitor or group end (epoch seconds); None when none does, or one never ends."""
    ends = [d["schedule"]["end"] for d in silencing]
    return max(ends) // US if ends and None not in ends else None


def _counts(values: list[Any]) -> list[dict[str, Any]]:
    counted: dict[Any, int] = {}
    for value in values:
        counted[value] = counted.get(value, 0) + 1
    return [
        {"name": name, "count": count} for name, count in sorted(counted.items(), key=lambda kv: (-kv[1], str(kv[0])))
    ]


@ops("GET /api/v1/monitor/search")
def search_monitors(call: Call) -> dict[str, Any]:
    search = monitor_query(call)
    page, per_page = call.page_and_per_page()
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
    records = [r for r, _ in found]
    sort = call.sort(keys)
    if sort:
        records.sort(key=keys[sort[0]], reverse=sort[1])
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
    creator = _search_creator(call, record)
    metrics, scopes = facets["metric"], facets["scope"]
    modified = record["overall_state_modified"]
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
        "muted_until_ts": _muted_until(downtimes.for_monitor(call.world[DOWNTIMES], record, call.now())),
        "priority": record["priority"],
        # Epoch seconds here (ISO on the monitor itself), null until the state first changes.
        "overall_state_modified": modified // US if modified is not None else None,
        "restricted_roles": record["restricted_roles"],
        "org_id": 1,
        "quality_issues": [],
    }
    if creator is not None:
        result["creator"] = creator
    return result


@ops("GET /api/v1/monitor/groups/search")
def search_monitor_groups(call: Call) -> dict[str, Any]:
    search = monitor_query(call)
    page, per_page = call.page_and_per_page()
    found = []
    now = call.now()
    for record in sorted(call.world[MONITORS], key=lambda r: r["id"]):
        facets = _facets(call, record)
        active = downtimes.for_monitor(call.world[DOWNTIMES], record, now)
        for name, group in record["state"]["groups"].items():
            silencing = downtimes.covering(active, record, name)
            group_facets = {
                **facets,
                "status": [(group["status"] or "").lower()],
                "group": [name.lower()],
                "muted": [str(bool(silencing)).lower()],
            }
            if search_matches(search, group_facets, record["name"]):
                found.append((record, name, group, group_facets, silencing))
    keys = {
        "name": lambda item: item[0]["name"].lower(),
        "status": lambda item: evaluation.SEVERITY.get(item[2]["status"], 0),
        "group": lambda item: item[1],
    }
    sort = call.sort(keys)
    if sort:
        found.sort(key=keys[sort[0]], reverse=sort[1])
    shown = found[page * per_page : (page + 1) * per_page]
    return {
        "groups": [
            {
                "group": name,
                "group_tags": name.split(",") if name != "*" else ["*"],
                "monitor_id": record["id"],
                "monitor_name": record["name"],
                "status": group["status"],
                "priority": record["priority"],
                "all_tags": list(record["tags"]),
                "env_tags": [t for t in record["tags"] if t.startswith("env:")],
                "team_tags": [t for t in record["tags"] if t.startswith("team:")],
                "muted": bool(silencing),
                "muted_until_ts": _muted_until(silencing),
                "downtimes": [views_monitoring.matching_downtime(d) for d in silencing],
                "last_triggered_ts": group["last_triggered_ts"],
                "last_nodata_ts": group["last_nodata_ts"] or 0,
            }
            for record, name, group, _, silencing in shown
        ],
        "metadata": {
            "page": page,
            "page_count": -(-len(found) // per_page),
            "per_page": per_page,
            "total_count": len(found),
        },
        "counts": {
            "status": _counts([g["status"] for _, _, g, _, _ in found]),
            "muted": _counts([bool(silencing) for *_, silencing in found]),
            "tag": _counts([t for record, *_ in found for t in record["tags"]]),
            "type": _counts([f["type"][0] for _, _, _, f, _ in found]),
        },
    }
