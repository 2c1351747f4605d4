"""Incidents (v2, JSON:API): list, create, get and update.

`GET /api/v2/incidents` lists the newest first, paged by `page[size]` and `page[offset]`; `include=users`
adds the users the incidents name. An incident's `severity` and `state` are set through `fields`
(`{"state": {"type": "dropdown", "value": "resolved"}}`); resolving stamps `resolved`, reopening clears
it. The creator and last modifier are the user the application key belongs to, when there is one.
"""

from __future__ import annotations

from typing import Any

from ...world import Record
from ..base import Reply
from . import incidents, views_records
from .calls import Call, boolean_field, incident_of, ops, string_field, time_field
from .errors import bad_request
from .store import INCIDENTS, USERS

INCLUDES = ("users", "attachments")
MAX_PAGE = 100
_IMPACT_TIMES = ("customer_impact_start", "customer_impact_end", "detected")
_ATTRIBUTES = "data.attributes."  # where a 400 says the attributes are


def _body(call: Call, records_shown: list[Record], data: Any, includes: list[str]) -> dict[str, Any]:
    body: dict[str, Any] = {"data": data}
    if "users" in includes:
        body["included"] = views_records.incident_included(call.world, records_shown)
    elif includes:
        body["included"] = []
    return body


@ops("GET /api/v2/incidents")
def list_incidents(call: Call) -> dict[str, Any]:
    size = call.page_size("page[size]", 10, MAX_PAGE)
    offset = call.integer("page[offset]", 0, minimum=0)
    includes = call.names("include", INCLUDES)
    found = sorted(call.world[INCIDENTS], key=lambda r: (r["created"], r["public_id"]), reverse=True)
    page = found[offset : offset + size]
    body = _body(call, page, [views_records.incident(call.world, r) for r in page], includes)
    body["meta"] = {"pagination": {"offset": offset, "next_offset": offset + size, "size": size}}
    return body


@ops("GET /api/v2/incidents/{incident_id}")
def get_incident(call: Call) -> dict[str, Any]:
    includes = call.names("include", INCLUDES)
    record = incident_of(call)
    return _body(call, [record], views_records.incident(call.world, record), includes)


def _data(call: Call) -> dict[str, Any]:
    data = call.fields.get("data")
    if not isinstance(data, dict):
        raise bad_request("Missing required field 'data'")
    if data.get("type") != "incidents":
        raise bad_request(f"Invalid 'data.type': expected incidents, found {data.get('type')!r}")
    for name in ("attributes", "relationships"):
        if not isinstance(data.get(name, {}), dict):
            raise bad_request(f"Invalid 'data.{name}': expected an object")
    return data


def _fields(value: Any) -> dict[str, dict[str, Any]]:
    """`fields` checked: each a {type, value} object; severity and state one of Datadog's values."""
    if not isinstance(value, dict):
        raise bad_request("Invalid 'data.attributes.fields': expected an object")
    for name, field in value.items():
        if not isinstance(field, dict) or "value" not in field:
            raise bad_request(f"Invalid 'data.attributes.fields.{name}': expected an object with a value")
        allowed = {incidents.SEVERITY: incidents.SEVERITIES, incidents.STATE: incidents.STATES}.get(name)
        if allowed is not None and field["value"] not in allowed:
            raise bad_request(
                f"Invalid value {field['value']!r} for field '{name}': expected one of {', '.join(allowed)}"
            )
        types = ("dropdown", "multiselect", "textbox", "textarray", "metrictag", "autocomplete")
        if field.get("type", "dropdown") not in types:
            raise bad_request(f"Invalid 'data.attributes.fields.{name}.type': {field.get('type')!r}")
    return value


def _commander(call: Call, relationships: dict[str, Any]) -> tuple[bool, str | None]:
    """Whether the request names a commander, and whom (None to clear it)."""
    if "commander_user" not in relationships:
        return False, None
    relation = relationships["commander_user"]
    data = relation.get("data") if isinstance(relation, dict) else "missing"
    if data is None:
        return True, None
    if not isinstance(data, dict) or data.get("type") != "users" or not isinstance(data.get("id"), str):
        raise bad_request("Invalid 'data.relationships.commander_user': expected {data: {type: users, id}}")
    if data["id"] not in call.world[USERS]:
        raise bad_request(f"Invalid 'data.relationships.commander_user': no user with id {data['id']}")
    return True, data["id"]


def _split_fields(fields: dict[str, Any]) -> tuple[str | None, str | None, dict[str, Any]]:
    severity = fields.get(incidents.SEVERITY, {}).get("value")
    state = fields.get(incidents.STATE, {}).get("value")
    rest = {k: v for k, v in fields.items() if k not in (incidents.SEVERITY, incidents.STATE)}
    return severity, state, rest


@ops("POST /api/v2/incidents")
def create_incident(call: Call) -> Reply:
    includes = call.names("include", INCLUDES)
    data = _data(call)
    attributes = data.get("attributes", {})
    title = string_field(attributes, "title", _ATTRIBUTES)
    if not title:
        raise bad_request("Missing required field 'data.attributes.title'")
    impacted = boolean_field(attributes, "customer_impacted", _ATTRIBUTES)
    if impacted is None:
        raise bad_request("Missing required field 'data.attributes.customer_impacted'")
    scope = string_field(attributes, "customer_impact_scope", _ATTRIBUTES)
    if impacted and not scope:
        raise bad_request("'customer_impact_scope' is required when 'customer_impacted' is true")
    severity, state, rest = _split_fields(_fields(attributes.get("fields", {})))
    _, commander = _commander(call, data.get("relationships", {}))
    collection = call.world[INCIDENTS]
    now = call.stamp()
    record = incidents.incident(
        call.world.ids.uuid("datadog:incident"),
        incidents.next_public_id(collection),
        title,
        now,
        customer_impacted=impacted,
        customer_impact_scope=scope,
        severity=severity or "UNKNOWN",
        state=state or "active",
        commander=commander,
        created_by=call.key_user(),
        fields=rest,
        resolved=now if state == "resolved" else None,
    )
    collection.add(record["id"], record)
    return Reply(201, _body(call, [record], views_records.incident(call.world, record, "create"), includes))


@ops("PATCH /api/v2/incidents/{incident_id}")
def update_incident(call: Call) -> dict[str, Any]:
    includes = call.names("include", INCLUDES)
    record = incident_of(call)
    data = _data(call)
    if data.get("id", record["id"]) != record["id"]:
        raise bad_request(f"Invalid 'data.id': {data.get('id')!r} is not the incident in the path")
    attributes = data.get("attributes", {})
    now = call.stamp()
    changes: dict[str, Any] = {}
    title = string_field(attributes, "title", _ATTRIBUTES)
    if title is not None:
        if not title:
            raise bad_request("Invalid 'data.attributes.title': cannot be empty")
        changes["title"] = title
    scope = string_field(attributes, "customer_impact_scope", _ATTRIBUTES)
    if scope is not None:
        changes["customer_impact_scope"] = scope
    impacted = boolean_field(attributes, "customer_impacted", _ATTRIBUTES)
    if impacted is not None and impacted != record["customer_impacted"]:
        changes["customer_impacted"] = impacted
        changes["customer_impact_start" if impacted else "customer_impact_end"] = now
        if impacted:
            changes["customer_impact_end"] = None
    for name in _IMPACT_TIMES:
        if name in attributes:
            changes[name] = time_field(attributes, name, _ATTRIBUTES)
    if "fields" in attributes:
        severity, state, rest = _split_fields(_fields(attributes["fields"]))
        if severity is not None:
            changes["severity"] = severity
        if state is not None and state != record["state"]:
            changes["state"] = state
            changes["resolved"] = now if state == "resolved" else None
        if rest:
            changes["fields"] = {**record["fields"], **rest}
    named, commander = _commander(call, data.get("relationships", {}))
    if named:
        changes["commander"] = commander
    changes = {k: v for k, v in changes.items() if record.get(k) != v}
    if changes:
        record = call.world[INCIDENTS].change(
            record["id"], **changes, modified=now, last_modified_by=call.key_user() or record["last_modified_by"]
        )
    return _body(call, [record], views_records.incident(call.world, record, "update"), includes)
