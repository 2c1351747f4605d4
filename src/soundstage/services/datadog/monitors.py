"""Monitor records (`datadog.monitors`, keyed by the integer id as a string) and their checks.

A record has the v1 Monitor fields: `id` (int), `name`, `type`, `query`, `message`, `tags`, `priority`,
`options` (MonitorOptions as given, thresholds included), `overall_state`, `state` (`{"groups": {name:
MonitorStateGroup}}`), `created`/`modified`/`overall_state_modified` (epoch microseconds), `creator` (a
user id or None), `multi`, `restricted_roles`, `draft_status`. Monitor ids count from 1000001.
"""

from __future__ import annotations

from typing import Any, get_args

from .models_monitoring import MonitorState, MonitorType
from .queries import QueryError, parse_monitor_query

FIRST_ID = 1_000_000  # ids are FIRST_ID + n
TYPES = frozenset(get_args(MonitorType))
STATES = get_args(MonitorState)


def problem(type_: Any, query: Any, options: dict[str, Any]) -> str | None:
    """What is wrong with a monitor's type, query and thresholds, in Datadog's words; None when nothing."""
    if type_ not in TYPES:
        return "The value provided for parameter 'type' is invalid"
    if not isinstance(query, str) or not query.strip():
        return "The value provided for parameter 'query' is invalid"
    if type_ not in ("metric alert", "query alert"):
        return None
    try:
        parsed = parse_monitor_query(query)
    except QueryError as exc:
        return f"The value provided for parameter 'query' is invalid: {exc}"
    critical = (options.get("thresholds") or {}).get("critical")
    if critical is not None and float(critical) != parsed.threshold:
        return f"Alert threshold ({float(critical)}) does not match that used in the query ({parsed.threshold})."
    return None


# The options Datadog's web app saves with every monitor it makes (the API leaves them out when a request
# does): a world's monitors were made there, by its people.
MADE_IN_APP = {
    "notify_audit": False,
    "require_full_window": False,
    "notify_no_data": False,
    "renotify_interval": 0,
    "include_tags": True,
    "new_group_delay": 60,
}


def complete_options(query: str, type_: str, options: dict[str, Any]) -> dict[str, Any]:
    """Options as Datadog stores them: the query's threshold as `thresholds.critical`, the usual defaults
    (`groupby_simple_monitor` false, as in Datadog's recorded answer to an edit that left it out)."""
    result = {
        "notify_no_data": False,
        "notify_audit": False,
        "include_tags": True,
        "new_host_delay": 300,
        "groupby_simple_monitor": False,
        **options,
    }
    if type_ in ("metric alert", "query alert"):
        try:
            threshold = parse_monitor_query(query).threshold
        except QueryError:
            return result
        thresholds = {k: v for k, v in (result.get("thresholds") or {}).items() if v is not None}
        thresholds.setdefault("critical", threshold)
        result["thresholds"] = thresholds
    return result


def is_multi(query: str) -> bool:
    """Whether the monitor alerts per group (`by {host}`)."""
    try:
        return bool(parse_monitor_query(query).metric.by)
    except QueryError:
        return " by " in query


def new_monitor(monitor_id: int, at: int, created: int, creator: str | None, fields: dict[str, Any]) -> dict[str, Any]:
    """A monitor record from checked fields (`name`, `type`, `query`, and optionally `message`, `tags`,
    `priority`, `options`, `restricted_roles`), not yet evaluated: its state as of `at`, `created` and
    `modified` at the stamp `created`."""
    return {
        "id": monitor_id,
        "name": fields.get("name") or "",
        "type": fields["type"],
        "query": fields["query"],
        "message": fields.get("message") or "",
        "tags": list(fields.get("tags") or []),
        "priority": fields.get("priority"),
        "options": complete_options(fields["query"], fields["type"], dict(fields.get("options") or {})),
        "overall_state": "No Data",
        "overall_state_modified": at,
        "state": {"groups": {}},
        "created": created,
        "modified": created,
        "creator": creator,
        "multi": is_multi(fields["query"]),
        "restricted_roles": fields.get("restricted_roles"),
        "draft_status": fields.get("draft_status") or "published",
    }
