"""Ids and records of Datadog's users, events, logs, SLOs, dashboards and incidents, shared by the seed
and the handlers that create them.

Records keep the field names of Datadog's API objects; every time is an integer of epoch microseconds
(`created_at`, `date_happened`, `timestamp`, `created`, `resolved`...), the views render Datadog's formats.
User references (`creator`, `author`, `commander`, `created_by`, `last_modified_by`) hold user UUIDs.
"""

from __future__ import annotations

import base64
from typing import Any

from ...ids import IdSource

_LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
# Event ids are large int64s, like Datadog's.
EVENT_IDS = 7_000_000_000_000_000_000
# Incident fields every incident has, besides the ones a world or a call adds.
SEVERITY = "severity"
STATE = "state"
STATES = ("active", "stable", "resolved")
SEVERITIES = ("UNKNOWN", "SEV-0", "SEV-1", "SEV-2", "SEV-3", "SEV-4", "SEV-5")


def event_id(ids: IdSource) -> int:
    return EVENT_IDS + int.from_bytes(ids.digest("datadog:event")[:8], "big") % 10**18


def slo_id(ids: IdSource) -> str:
    return ids.hex("datadog:slo", 32)


def dashboard_id(ids: IdSource) -> str:
    number = int.from_bytes(ids.digest("datadog:dashboard"), "big")
    chars = []
    for _ in range(9):
        number, rest = divmod(number, len(_LOWER))
        chars.append(_LOWER[rest])
    return f"{''.join(chars[:3])}-{''.join(chars[3:6])}-{''.join(chars[6:])}"


def widget_id(ids: IdSource) -> int:
    return int.from_bytes(ids.digest("datadog:widget")[:6], "big")


def log_id(ids: IdSource, timestamp: int) -> str:
    """Datadog's opaque log id: base64 of a version byte, the time in milliseconds and random bytes."""
    raw = b"\x01\x00\x00\x01" + (timestamp // 1000).to_bytes(8, "big") + ids.digest("datadog:log")[:20]
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def user(
    user_id: str,
    email: str,
    at: int,
    handle: str | None = None,
    name: str | None = None,
    title: str | None = None,
    status: str | None = None,
    disabled: bool = False,
    verified: bool = True,
    service_account: bool = False,
    mfa_enabled: bool = False,
) -> dict[str, Any]:
    return {
        "id": user_id,
        "handle": handle or email,
        "email": email,
        "name": name,
        "title": title,
        "status": status or ("Disabled" if disabled else "Active"),
        "disabled": disabled,
        "verified": verified,
        "service_account": service_account,
        "mfa_enabled": mfa_enabled,
        "created_at": at,
        "modified_at": at,
    }


def event(
    event_id: int,
    title: str,
    text: str,
    at: int,
    tags: list[str] | None = None,
    alert_type: str = "info",
    priority: str = "normal",
    source_type_name: str | None = None,
    host: str | None = None,
    device_name: str | None = None,
    aggregation_key: str | None = None,
    related_event_id: int | None = None,
) -> dict[str, Any]:
    return {
        "id": event_id,
        "title": title,
        "text": text,
        "date_happened": at,
        "tags": list(tags or []),
        "alert_type": alert_type,
        "priority": priority,
        "source_type_name": source_type_name,
        "host": host,
        "device_name": device_name,
        "aggregation_key": aggregation_key,
        "related_event_id": related_event_id,
    }


def log(
    ids: IdSource,
    timestamp: int,
    message: str,
    service: str | None,
    host: str | None,
    status: str,
    tags: list[str],
    attributes: dict[str, Any],
) -> dict[str, Any]:
    # Datadog keeps log times to the millisecond.
    timestamp -= timestamp % 1000
    return {
        "id": log_id(ids, timestamp),
        "timestamp": timestamp,
        "message": message,
        "service": service,
        "host": host,
        "status": status,
        "tags": tags,
        "attributes": attributes,
    }


def incident(
    incident_id: str,
    public_id: int,
    title: str,
    at: int,
    customer_impacted: bool = False,
    customer_impact_scope: str | None = None,
    severity: str = "UNKNOWN",
    state: str = "active",
    commander: str | None = None,
    created_by: str | None = None,
    fields: dict[str, Any] | None = None,
    resolved: int | None = None,
) -> dict[str, Any]:
    return {
        "id": incident_id,
        "public_id": public_id,
        "title": title,
        "customer_impacted": customer_impacted,
        "customer_impact_scope": customer_impact_scope,
        "customer_impact_start": at if customer_impacted else None,
        "customer_impact_end": resolved if customer_impacted else None,
        "severity": severity,
        "state": state,
        "commander": commander,
        "created_by": created_by,
        "last_modified_by": created_by,
        "fields": dict(fields or {}),
        "created": at,
        "modified": at,
        "detected": at,
        "resolved": resolved,
    }


def next_public_id(incidents: Any) -> int:
    """One more than the highest public id so far (incidents are numbered 1, 2, 3... per organisation)."""
    return max((r["public_id"] for r in incidents), default=0) + 1
