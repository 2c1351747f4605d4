"""The Events API v2, `POST /v2/enqueue` (events.pagerduty.com's path, served under the PagerDuty prefix):
what monitoring tools and agents send to open, acknowledge and resolve incidents.

The routing key in the body is the `integration_key` of a service's Events API v2 integration; it is the
call's credential (`routing_key`, which `service.token` reads), registered as the world's token by
`attach`, so an event reaches only the world whose URL it is sent to. A `trigger` opens an incident on the
service with one alert, keyed by `dedup_key` (32 hex characters from the seed when none is given); a
trigger whose key names an open incident of the service is deduplicated into it (no new alert, as
PagerDuty merges it into the open alert); `acknowledge` and `resolve` act on the open incident with that
key, through the service, and an event for no open incident is accepted and does nothing. While the
service is in a maintenance window a trigger is accepted and opens nothing. Answers: 202 `{"status":
"success", "message": "Event processed", "dedup_key"}`, or 400 `InvalidEvent` naming what is wrong.
"""

from __future__ import annotations

from typing import Any

from ...world import Principal, Record, World
from ..base import Reply, ServiceRequest, loads_json
from .calls import Call, ops
from .errors import InvalidEvent
from .incidents import Incidents, default_urgency
from .log_entries import service_agent
from .maintenance import in_maintenance
from .store import SERVICES, service_with_key
from .timers import arm

PATH = "/v2/enqueue"
ROUTING_KEY = "routing_key"  # the token type of a routing key
ACTIONS = ("trigger", "acknowledge", "resolve")
SEVERITIES = ("critical", "error", "warning", "info")
_LONGEST_KEY = 255  # characters of a `dedup_key`


def _event(request: ServiceRequest) -> Any:
    try:
        return loads_json(request.body)
    except ValueError:  # whatever does not parse (bad bytes, too deep) is no event
        return None


def routing_key(request: ServiceRequest) -> str | None:
    """The routing key of an event, or None."""
    event = _event(request) if request.method == "POST" and request.path == PATH else None
    key = event.get("routing_key") if isinstance(event, dict) else None
    return key if isinstance(key, str) and key else None


def refused(request: ServiceRequest) -> InvalidEvent:
    """The answer to an event whose routing key is no service's in the world: what is wrong with it."""
    event = _event(request)
    if not isinstance(event, dict):
        return InvalidEvent("Event object must be a JSON object")
    key = event.get("routing_key")
    if not isinstance(key, str) or not key:
        return InvalidEvent("'routing_key' is missing or blank")
    errors = []
    if len(key) != 32:  # PagerDuty's own sentences for a malformed key
        errors.append("Length of 'routing_key' is incorrect (should be 32 characters)")
    if not (key.isascii() and key.isalnum()):
        errors.append("'routing_key' cannot contain non-alphanumeric characters.")
    return InvalidEvent(*(errors or ["Invalid routing key"]))


def register(world: World) -> None:
    """Makes every service's routing key a credential of the world (called when a live world starts)."""
    for service in world[SERVICES]:
        for integration in service["integrations"]:
            world.tokens[integration["integration_key"]] = Principal("pagerduty", "", ROUTING_KEY)


def _text(value: Any, name: str, errors: list[str], required: bool = True) -> str | None:
    if value is None or value == "":
        if required:
            errors.append(f"'{name}' is missing or blank")
        return None
    if not isinstance(value, str):
        errors.append(f"'{name}' must be a string")
        return None
    return value


def _checked(event: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    """The action, the dedup key and the trigger's payload fields, or InvalidEvent naming every problem."""
    errors: list[str] = []
    action = event.get("event_action")
    if action not in ACTIONS:
        errors.append("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')")
    key = _text(event.get("dedup_key"), "dedup_key", errors, required=action in ("acknowledge", "resolve"))
    if key is not None and len(key) > _LONGEST_KEY:
        errors.append(f"'dedup_key' is too long (at most {_LONGEST_KEY} characters)")
    payload: dict[str, Any] = {}
    if action == "trigger":
        given = event.get("payload")
        if not isinstance(given, dict):
            errors.append("'payload' is missing or is not an object")
        else:
            payload["summary"] = _text(given.get("summary"), "payload.summary", errors)
            payload["source"] = _text(given.get("source"), "payload.source", errors)
            severity = given.get("severity")
            if severity not in SEVERITIES:
                errors.append(
                    "'payload.severity' is invalid (must be one of the following: "
                    "'critical', 'warning', 'error' or 'info')"
                )
            payload["severity"] = severity
            details = given.get("custom_details")
            if details is not None and not isinstance(details, dict):  # an alert's details are an object
                details = {"details": details}
            payload["details"] = details or {}
    if errors:
        raise InvalidEvent(*errors)
    return str(action), key, payload


@ops("POST /v2/enqueue")
def enqueue(call: Call) -> Reply:
    if call.principal.token_type != ROUTING_KEY:  # a REST token in the body is no routing key
        raise refused(call.request)
    service = service_with_key(call.world[SERVICES], call.fields["routing_key"])
    if service is None:
        raise refused(call.request)
    action, key, payload = _checked(call.fields)
    incidents = Incidents.of(call.world)
    now = call.now()
    open_incident = incidents.open_with_key(service["id"], key) if key else None
    if action == "trigger":
        key = key or incidents.ids.hex("pagerduty:incident_key", 32)
        if open_incident is None and not in_maintenance(call.world, service["id"], now):
            _open(call, service, key, payload, incidents)
    elif open_incident is not None and action == "acknowledge" and open_incident["status"] == "triggered":
        arm(call.world, incidents.acknowledge_by_service(open_incident, now))
    elif open_incident is not None and action == "resolve":
        incidents.resolve(open_incident, service_agent(service["id"]), now, channel="api")
    return Reply(202, {"status": "success", "message": "Event processed", "dedup_key": key})


def _open(call: Call, service: Record, key: str, payload: dict[str, Any], incidents: Incidents) -> None:
    now = call.now()
    incident = incidents.trigger(
        service=service,
        title=payload["summary"],
        at=now,
        agent=service_agent(service["id"]),
        urgency=default_urgency(service, now),
        incident_key=key,
    )
    incidents.add_alert(
        incident,
        summary=payload["summary"],
        at=now,
        severity=payload["severity"],
        source=payload["source"],
        details=payload["details"],
        alert_key=key,
    )
    arm(call.world, incident)
