"""Datadog's MCP tools (facts in `mcp_tools.yaml`), each the REST operation it stands for. Every call carries
both keys, as Datadog's clients send them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..mcp import RestCall, Tools, env_headers, path, picked

tools = Tools(
    "datadog",
    Path(__file__).with_name("mcp_tools.yaml"),
    env_headers({"dd-api-key": "{DD_API_KEY}", "dd-application-key": "{DD_APP_KEY}"}),
)

# The recurrence of a downtime, by the REST API's names.
_RECURRENCE = {"type": "type", "period": "period", "weekDays": "week_days", "until": "until_date"}


def _csv(values: Any) -> str:
    return ",".join(str(value) for value in values)


@tools("get_monitors", "GET /api/v1/monitor")
def get_monitors(arguments: dict[str, Any]) -> RestCall:
    query = picked(arguments, {"name": "name"})
    if arguments.get("groupStates"):
        query["group_states"] = _csv(arguments["groupStates"])
    if arguments.get("tags"):
        query["tags"] = _csv(arguments["tags"])
    return RestCall("GET", "/api/v1/monitor", query=query)


@tools("get_dashboard", "GET /api/v1/dashboard/{dashboard_id}")
def get_dashboard(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/api/v1/dashboard/{dashboardId}", arguments))


@tools("list_downtimes", "GET /api/v1/downtime")
def list_downtimes(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/api/v1/downtime", query=picked(arguments, {"currentOnly": "current_only"}))


@tools("schedule_downtime", "POST /api/v1/downtime")
def schedule_downtime(arguments: dict[str, Any]) -> RestCall:
    renames = {"start": "start", "end": "end", "message": "message", "timezone": "timezone"}
    body = {"scope": [arguments["scope"]], **picked(arguments, renames)}
    body.update(picked(arguments, {"monitorId": "monitor_id", "monitorTags": "monitor_tags"}))
    if "recurrence" in arguments:
        body["recurrence"] = picked(arguments["recurrence"], _RECURRENCE)
    return RestCall("POST", "/api/v1/downtime", body=body)


@tools("cancel_downtime", "DELETE /api/v1/downtime/{downtime_id}")
def cancel_downtime(arguments: dict[str, Any]) -> RestCall:
    return RestCall("DELETE", path("/api/v1/downtime/{downtimeId}", arguments))


@tools("mute_host", "POST /api/v1/host/{host_name}/mute")
def mute_host(arguments: dict[str, Any]) -> RestCall:
    body = {"override": False, **picked(arguments, {"message": "message", "end": "end", "override": "override"})}
    return RestCall("POST", path("/api/v1/host/{hostname}/mute", arguments), body=body)


@tools("unmute_host", "POST /api/v1/host/{host_name}/unmute")
def unmute_host(arguments: dict[str, Any]) -> RestCall:
    return RestCall("POST", path("/api/v1/host/{hostname}/unmute", arguments))


@tools("list_hosts", "GET /api/v1/hosts")
def list_hosts(arguments: dict[str, Any]) -> RestCall:
    names = ("filter", "sort_field", "sort_dir", "start", "count", "from")
    flags = ("include_muted_hosts_data", "include_hosts_metadata")
    return RestCall("GET", "/api/v1/hosts", query=picked(arguments, {name: name for name in names + flags}))


@tools("get_active_hosts_count", "GET /api/v1/hosts/totals")
def get_active_hosts_count(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/api/v1/hosts/totals", query={"from": arguments.get("from", 7200)})


@tools("list_incidents", "GET /api/v2/incidents")
def list_incidents(arguments: dict[str, Any]) -> RestCall:
    query = {"page[size]": arguments.get("pageSize", 10), "page[offset]": arguments.get("pageOffset", 0)}
    return RestCall("GET", "/api/v2/incidents", query=query)


@tools("get_incident", "GET /api/v2/incidents/{incident_id}")
def get_incident(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", path("/api/v2/incidents/{incidentId}", arguments))


@tools("get_logs", "POST /api/v2/logs/events/search")
def get_logs(arguments: dict[str, Any]) -> RestCall:
    # As the server asks: the span in milliseconds, newest first.
    window = {"from": str(int(arguments["from"] * 1000)), "to": str(int(arguments["to"] * 1000))}
    body = {
        "filter": {"query": arguments.get("query", ""), **window},
        "page": {"limit": arguments.get("limit", 100)},
        "sort": "-timestamp",
    }
    return RestCall("POST", "/api/v2/logs/events/search", body=body)


@tools("query_metrics", "GET /api/v1/query")
def query_metrics(arguments: dict[str, Any]) -> RestCall:
    return RestCall("GET", "/api/v1/query", query=picked(arguments, {"from": "from", "to": "to", "query": "query"}))
