"""Incidents (`datadog.incidents`, keyed by UUID): their records, made by the seed and by
`POST /api/v2/incidents`, and the public ids that number them.

A record has the v2 incident attributes `public_id` (1, 2, 3... per organisation), `title`,
`customer_impacted`, `customer_impact_scope`, `severity`, `state` and `fields` (the other incident fields,
as the API shows them); user UUIDs in `commander`, `created_by`, `last_modified_by`; and the times
`created`, `modified`, `detected`, `resolved`, `customer_impact_start`, `customer_impact_end` (epoch
microseconds). The API shows `severity` and `state` among the `fields` too, with the `DEFAULT_FIELDS`
a record does not set.
"""

from __future__ import annotations

from typing import Any

# Incident fields every incident has, besides the ones a world or a call adds.
SEVERITY = "severity"
STATE = "state"
STATES = ("active", "stable", "resolved")
SEVERITIES = ("UNKNOWN", "SEV-0", "SEV-1", "SEV-2", "SEV-3", "SEV-4", "SEV-5")
# The other default fields of an organisation's incidents, unset, as Datadog's recorded answers show them
# (besides `slug`, `IR-<public id>`); a record's `fields` override them.
DEFAULT_FIELDS: dict[str, dict[str, Any]] = {
    "detection_method": {"type": "dropdown", "value": "unknown"},
    "root_cause": {"type": "textbox", "value": None},
    "summary": {"type": "textbox", "value": None},
    "services": {"type": "autocomplete", "value": None},
    "teams": {"type": "autocomplete", "value": None},
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
