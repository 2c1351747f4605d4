"""Records rendered as Datadog's API objects: v1 Event, v2 event and log search items, v1
ServiceLevelObjective, v1 Dashboard, v2 User and v2 incident (JSON:API).

Times: v1 events and SLOs in epoch seconds; logs as ISO-8601 with milliseconds and `Z`; users,
dashboards and incidents as ISO-8601 with `+00:00` and microseconds unless on a whole second, as Datadog
sends them. Optional
fields whose type is not nullable are left out when the record has no value.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Literal

from ...clock import US, iso
from ...world import Record, World
from . import incidents
from .account import incident_type_id
from .store import USERS

APP = "https://app.datadoghq.com"
# Datadog's v2 event status for each v1 alert type.
_EVENT_STATUS = {"warning": "warn"}


def iso_us(us: int) -> str:
    """`2026-03-02T14:00:00.123456+00:00`, or `2026-03-02T14:00:00+00:00` on a whole second: Python's
    isoformat, which Datadog's recorded answers follow (an incident's `detected` at a whole second has no
    fraction)."""
    seconds = iso(us - us % US)[:-1]
    return f"{seconds}.{us % US:06d}+00:00" if us % US else f"{seconds}+00:00"


def iso_ms(us: int) -> str:
    """`2026-03-02T14:00:00.000Z`."""
    seconds = iso(us - us % US)[:-1]
    return f"{seconds}.{us % US // 1000:03d}Z"


def _present(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


# -- users ---------------------------------------------------------------------------------------------


def icon(email: str) -> str:
    digest = hashlib.md5(email.strip().lower().encode(), usedforsecurity=False).hexdigest()
    return f"https://secure.gravatar.com/avatar/{digest}?s=48&d=retro"


def user(record: Record, org: str | None = None) -> dict[str, Any]:
    """A v2 User; `org` (the organization's UUID) adds the `org` relationship, as the users list shows it."""
    body = {
        "type": "users",
        "id": record["id"],
        "attributes": {
            "name": record["name"],
            "handle": record["handle"],
            "created_at": iso_us(record["created_at"]),
            "modified_at": iso_us(record["modified_at"]),
            "email": record["email"],
            "icon": icon(record["email"]),
            "title": record["title"],
            "verified": record["verified"],
            "service_account": record["service_account"],
            "disabled": record["disabled"],
            "allowed_login_methods": [],
            "status": record["status"],
            "mfa_enabled": record["mfa_enabled"],
            "last_login_time": None,
            "uuid": record["id"],
        },
        "relationships": {"roles": {"data": []}},
    }
    if org is not None:
        body["relationships"]["org"] = {"data": {"type": "orgs", "id": org}}
    return body


def _user_ref(user_id: str | None) -> dict[str, Any] | None:
    return {"type": "users", "id": user_id} if user_id else None


def incident_user(record: Record) -> dict[str, Any]:
    """A user as an incident's `included` lists it."""
    return {
        "type": "users",
        "id": record["id"],
        "attributes": {
            "uuid": record["id"],
            "handle": record["handle"],
            "email": record["email"],
            "name": record["name"],
            "icon": icon(record["email"]),
        },
    }


# -- events --------------------------------------------------------------------------------------------


def event(record: Record) -> dict[str, Any]:
    """A v1 Event."""
    return {
        "id": record["id"],
        "id_str": str(record["id"]),
        "title": record["title"],
        "text": record["text"],
        "date_happened": record["date_happened"] // US,
        "alert_type": record["alert_type"],
        "priority": record["priority"],
        "tags": list(record["tags"]),
        "url": f"{APP}/event/event?id={record['id']}",
        **_present(
            host=record["host"],
            device_name=record["device_name"],
            source_type_name=record["source_type_name"],
            aggregation_key=record["aggregation_key"],
            related_event_id=record["related_event_id"],
        ),
        "is_aggregate": False,
        "resource": f"/api/v1/events/{record['id']}",
    }


def posted_event(record: Record, priority: str | None) -> dict[str, Any]:
    """The event of `POST /api/v1/events`' answer, shaped as Datadog's recorded one: no alert type or
    resource, `handle` null (an API key posts it, not a user), `priority` as the request gave it (null when
    it gave none), `related_event_id` null unless given; the other fields the request gave come back too."""
    return {
        "id": record["id"],
        "id_str": str(record["id"]),
        "title": record["title"],
        "text": record["text"],
        "date_happened": record["date_happened"] // US,
        "handle": None,
        "priority": priority,
        "related_event_id": record["related_event_id"],
        "tags": list(record["tags"]),
        "url": f"{APP}/event/event?id={record['id']}",
        **_present(
            host=record["host"],
            device_name=record["device_name"],
            source_type_name=record["source_type_name"],
            aggregation_key=record["aggregation_key"],
        ),
    }


def event_status(alert_type: str) -> str:
    """The v2 event `status` of a v1 alert type."""
    return _EVENT_STATUS.get(alert_type, alert_type)


def event_v2_id(record: Record) -> str:
    raw = b"\x00\x00\x01" + (record["date_happened"] // 1000).to_bytes(8, "big") + record["id"].to_bytes(8, "big")
    return base64.b64encode(raw).decode().rstrip("=")


def _tag_value(tags: list[str], key: str) -> str | None:
    """The value of the first `key:value` tag."""
    return next((t.partition(":")[2] for t in tags if t.partition(":")[0] == key), None)


def event_v2(record: Record) -> dict[str, Any]:
    """An item of `POST /api/v2/events/search`; its `service` is that of its `service:` tag, `undefined`
    without one, as Datadog answers."""
    ms = record["date_happened"] // 1000
    return {
        "id": event_v2_id(record),
        "type": "event",
        "attributes": {
            "timestamp": iso_ms(record["date_happened"]),
            "message": record["text"],
            "tags": list(record["tags"]),
            "attributes": {
                "evt": {"id": str(record["id"]), "source_id": 0, "type": "api"},
                "title": record["title"],
                "timestamp": ms,
                "date_happened": record["date_happened"] // US,
                "status": event_status(record["alert_type"]),
                "priority": record["priority"],
                "tags": list(record["tags"]),
                "service": _tag_value(record["tags"], "service") or "undefined",
                **_present(
                    hostname=record["host"],
                    source_type_name=record["source_type_name"],
                    aggregation_key=record["aggregation_key"],
                    event_object=record["aggregation_key"],  # Datadog's recorded answers repeat the key here
                    device_name=record["device_name"],
                ),
            },
        },
    }


# -- logs ----------------------------------------------------------------------------------------------


def log(record: Record) -> dict[str, Any]:
    return {
        "id": record["id"],
        "type": "log",
        "attributes": {
            "timestamp": iso_ms(record["timestamp"]),
            "message": record["message"],
            "status": record["status"],
            "tags": list(record["tags"]),
            "attributes": dict(record["attributes"]),
            **_present(service=record["service"], host=record["host"]),
        },
    }


# -- SLOs ----------------------------------------------------------------------------------------------


def _display(value: float) -> str:
    return f"{value:g}"


def slo(world: World, record: Record) -> dict[str, Any]:
    thresholds = []
    for threshold in record["thresholds"]:
        shown = {**threshold, "target_display": _display(threshold["target"])}
        if "warning" in threshold:
            shown["warning_display"] = _display(threshold["warning"])
        thresholds.append(shown)
    primary = record["thresholds"][0]
    body: dict[str, Any] = {
        "id": record["id"],
        "name": record["name"],
        "type": record["type"],
        "type_id": 1 if record["type"] == "metric" else 0,
        "description": record["description"],
        "tags": list(record["tags"]),
        "thresholds": thresholds,
        "monitor_ids": list(record["monitor_ids"]),
        "monitor_tags": [],
        "groups": list(record["groups"]),
        "created_at": record["created_at"] // US,
        "modified_at": record["modified_at"] // US,
        # The first threshold is the primary one, which the SLO's top-level fields repeat.
        "timeframe": primary["timeframe"],
        "target_threshold": primary["target"],
    }
    if "warning" in primary:
        body["warning_threshold"] = primary["warning"]
    if record["query"] is not None:
        body["query"] = dict(record["query"])
    creator = world[USERS].get(record["creator"]) if record["creator"] else None
    if creator is not None:
        body["creator"] = {"email": creator["email"], "handle": creator["handle"], "name": creator["name"]}
    return body


# -- dashboards ----------------------------------------------------------------------------------------


def _slug(title: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in title.lower()).split())


def dashboard(world: World, record: Record) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": record["id"],
        "title": record["title"],
        "description": record["description"],
        "layout_type": record["layout_type"],
        "widgets": record["widgets"],
        "tags": list(record["tags"]) or None,
        "template_variables": record["template_variables"],
        "template_variable_presets": [],
        "notify_list": [],
        "restricted_roles": [],
        "is_read_only": False,
        "experience_type": "default",
        "url": f"/dashboard/{record['id']}/{_slug(record['title'])}",
        "created_at": iso_us(record["created_at"]),
        "modified_at": iso_us(record["modified_at"]),
    }
    if record["layout_type"] == "ordered":
        body["reflow_type"] = "fixed"
    author = world[USERS].get(record["author"]) if record["author"] else None
    if author is not None:
        body["author_handle"] = author["handle"]
        body["author_name"] = author["name"]
    return body


# -- incidents -----------------------------------------------------------------------------------------


def _when(us: int | None) -> str | None:
    return iso_us(us) if us is not None else None


def incident(world: World, record: Record, answer: Literal["read", "create", "update"] = "read") -> dict[str, Any]:
    """An IncidentResponseData, as the answer of a `read`, a `create` or an `update`. Reads name the users by
    `*_uuid`; the answers of writes also embed them (`created_by`, `commander`, `last_modified_by`,
    `declared_by`: `{data: user}` or null), and a create's `*_uuid` are null, as in Datadog's recorded answers."""
    fields = {
        **incidents.DEFAULT_FIELDS,
        "slug": {"type": "textbox", "value": f"IR-{record['public_id']}"},
        incidents.SEVERITY: {"type": "dropdown", "value": record["severity"]},
        incidents.STATE: {"type": "dropdown", "value": record["state"]},
        **record["fields"],
    }
    end = record["resolved"]
    attributes: dict[str, Any] = {
        "public_id": record["public_id"],
        "title": record["title"],
        "created": iso_us(record["created"]),
        "modified": iso_us(record["modified"]),
        "declared": iso_us(record["created"]),
        "detected": _when(record["detected"]),
        "resolved": _when(end),
        "customer_impacted": record["customer_impacted"],
        "customer_impact_scope": record["customer_impact_scope"],
        "customer_impact_start": _when(record["customer_impact_start"]),
        "customer_impact_end": _when(record["customer_impact_end"]),
        "customer_impact_duration": _seconds(record["customer_impact_start"], record["customer_impact_end"]),
        "time_to_detect": 0,
        "time_to_internal_response": 0,
        "time_to_repair": _seconds(record["created"], end),
        "time_to_resolve": _seconds(record["created"], end),
        "severity": record["severity"],
        "state": record["state"],
        "fields": fields,
        "field_analytics": None,
        "archived": None,
        "case_id": None,
        "is_test": False,
        "visibility": "organization",
        "notification_handles": None,
        "non_datadog_creator": None,
        "creation_idempotency_key": None,
        "incident_type_uuid": incident_type_id(world),
    }
    known = answer != "create"
    for name, user_id in (
        ("created_by", record["created_by"]),
        ("last_modified_by", record["last_modified_by"]),
        ("declared_by", record["created_by"]),
    ):
        attributes[f"{name}_uuid"] = user_id if known else None
    if answer != "read":
        for name, user_id in (
            ("created_by", record["created_by"]),
            ("commander", record["commander"]),
            ("last_modified_by", record["last_modified_by"]),
            ("declared_by", record["created_by"]),
        ):
            found = world[USERS].get(user_id) if user_id else None
            attributes[name] = {"data": incident_user(found)} if found is not None else None
    return {
        "type": "incidents",
        "id": record["id"],
        "attributes": attributes,
        "relationships": {
            "commander_user": {"data": _user_ref(record["commander"])},
            **_relationship("created_by_user", record["created_by"]),
            **_relationship("declared_by_user", record["created_by"]),
            **_relationship("last_modified_by_user", record["last_modified_by"]),
            "attachments": {"data": []},
            "integrations": {"data": []},
            "responders": {"data": []},
            "impacts": {"data": []},
            "user_defined_fields": {"data": []},
        },
    }


def _relationship(name: str, user_id: str | None) -> dict[str, Any]:
    # RelationshipToUser's data is not nullable: without a user the relationship is left out.
    return {name: {"data": _user_ref(user_id)}} if user_id else {}


def _seconds(start: int | None, end: int | None) -> int:
    return (end - start) // US if start is not None and end is not None else 0


def incident_included(world: World, incident_records: list[Record]) -> list[dict[str, Any]]:
    """The users the incidents name, once each, for `include=users`."""
    seen: dict[str, None] = {}
    for record in incident_records:
        for user_id in (record["commander"], record["created_by"], record["last_modified_by"]):
            if user_id:
                seen[user_id] = None
    found = (world[USERS].get(u) for u in seen)
    return [incident_user(user) for user in found if user is not None]
