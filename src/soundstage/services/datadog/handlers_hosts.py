"""Hosts (v1): the host list with its filter, sort and paging, and muting a host."""

from __future__ import annotations

from typing import Any

from ...clock import US
from ...world import Record
from . import hosts, views_monitoring
from .calls import Call, host_of, invalid, is_epoch_seconds, ops
from .errors import DatadogError
from .store import HOSTS

_SORT_FIELDS = ("name", "status", "apps", "cpu", "iowait", "load")
_MAX_COUNT = 1000


def _matches(record: Record, words: list[str]) -> bool:
    """`filter`: every word found in the host's name, aliases, apps or tags (case-insensitive)."""
    haystack = [record["name"], *record["aliases"], *record["apps"], *hosts.tags(record)]
    lowered = [h.lower() for h in haystack]
    return all(any(word in h for h in lowered) for word in words)


@ops("GET /api/v1/hosts")
def list_hosts(call: Call) -> dict[str, Any]:
    words = (call.text("filter") or "").lower().split()
    sort_field = call.text("sort_field") or "name"
    sort_dir = call.text("sort_dir") or "asc"
    start = call.integer("start", 0, minimum=0) or 0
    count = call.integer("count", 100, minimum=0)
    since = call.integer("from")
    muted_data = call.boolean("include_muted_hosts_data", True)
    metadata = call.boolean("include_hosts_metadata", True)
    if sort_field not in _SORT_FIELDS:
        raise invalid("sort_field")
    if sort_dir not in ("asc", "desc"):
        raise invalid("sort_dir")
    now = call.now()
    found = [
        r for r in call.world[HOSTS] if _matches(r, words) and (since is None or hosts.last_reported(r, now) >= since)
    ]
    rendered = [views_monitoring.host(call.world, r, metadata, muted_data) for r in found]
    keys = {
        "name": lambda h: h["name"],
        "status": lambda h: (not h["up"], h["name"]),
        "apps": lambda h: (len(h["apps"]), h["name"]),
        "cpu": lambda h: h["metrics"]["cpu"],
        "iowait": lambda h: h["metrics"]["iowait"],
        "load": lambda h: h["metrics"]["load"],
    }
    rendered.sort(key=keys[sort_field], reverse=sort_dir == "desc")
    page = rendered[start : start + min(count if count is not None else 100, _MAX_COUNT)]
    return {
        "exact_total_matching": True,
        "host_list": page,
        "total_matching": len(found),
        "total_returned": len(page),
    }


@ops("POST /api/v1/host/{host_name}/mute")
def mute_host(call: Call) -> dict[str, Any]:
    record = host_of(call)
    body = call.fields
    end, message, override = body.get("end"), body.get("message"), body.get("override", False)
    now = call.now()
    if end is not None and (not is_epoch_seconds(end) or end * US <= now):
        raise invalid("end")
    if message is not None and not isinstance(message, str):
        raise invalid("message")
    if not isinstance(override, bool):
        raise invalid("override")
    if hosts.muted(record, now) and not override:
        raise DatadogError(
            400,
            f"host:{record['name']} is already muted. To mute this host with a different end timestamp, "
            "add 'override': true to the request",
        )
    call.world[HOSTS].change(record["name"], is_muted=True, mute_timeout=end, mute_message=message)
    reply: dict[str, Any] = {"action": "Muted", "hostname": record["name"], "message": message or ""}
    if end is not None:
        reply["end"] = end
    return reply


@ops("POST /api/v1/host/{host_name}/unmute")
def unmute_host(call: Call) -> dict[str, Any]:
    record = host_of(call)
    if not hosts.muted(record, call.now()):
        raise DatadogError(400, f"host:{record['name']} is not muted")
    call.world[HOSTS].change(record["name"], is_muted=False, mute_timeout=None, mute_message=None)
    return {"action": "Unmuted", "hostname": record["name"]}


@ops("GET /api/v1/hosts/totals")
def get_host_totals(call: Call) -> dict[str, int]:
    """Active hosts: those that reported since `from` (epoch seconds; default the last two hours, Datadog's
    window for an active host); up: those of them still up."""
    now = call.now()
    since = call.integer("from", now // US - 7200)
    if not is_epoch_seconds(since):
        raise invalid("from")
    active = [r for r in call.world[HOSTS] if hosts.last_reported(r, now) >= since]
    return {"total_active": len(active), "total_up": sum(1 for r in active if r["up"])}
