"""The records part of the `datadog:` section: users, events, logs, SLOs, dashboards, incidents.

Field names are those of Datadog's API objects (v2 User attributes, v1 Event, v2 log attributes, v1
ServiceLevelObjective, v1 Dashboard, v2 incident attributes). Values naming other records are refs
(`$maya_dd`, `$latency`) or plain ids, resolved when the image is built. Times are given as `ago` (how
long before the clock start) or `at` (an ISO-8601 instant). `generate: {datadog.logs: {...}}` takes
`GenerateLogs`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ...spec.fields import Duration, Spec, Time, matching

Uuid = Annotated[
    str,
    matching(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "a lower-case UUID like 3f2b8c1e-5d4a-4e2b-9c1d-0a1b2c3d4e5f",
    ),
]
SloId = Annotated[str, matching(r"[0-9a-f]{32}", "an SLO id of 32 lower-case hex digits")]
DashboardId = Annotated[str, matching(r"[a-z0-9]{3}-[a-z0-9]{3}-[a-z0-9]{3}", "a dashboard id like abc-def-ghi")]
# Datadog's log statuses, as its status remapper names them.
LogStatus = Literal["emergency", "alert", "critical", "error", "warn", "notice", "info", "debug", "ok"]


class Timed(Spec):
    ago: Duration | None = None  # how long before the clock start
    at: Time | None = None  # or when, exactly


class User(Spec):
    ref: str | None = None
    id: Uuid | None = None  # default: a UUID from the world's seed
    handle: str | None = None  # default: the email
    email: str
    name: str | None = None
    title: str | None = None
    status: Literal["Active", "Pending", "Disabled"] | None = None  # default: Disabled if disabled, else Active
    disabled: bool = False
    verified: bool = True
    service_account: bool = False
    mfa_enabled: bool = False
    ago: Duration | None = None  # created how long before the clock start; default 400 days


class Event(Timed):
    ref: str | None = None
    id: int | None = None  # default: a large int64 from the world's seed
    title: str
    text: str = ""
    tags: list[str] = []
    alert_type: Literal["error", "warning", "info", "success", "user_update", "recommendation", "snapshot"] = "info"
    priority: Literal["normal", "low"] = "normal"
    source_type_name: str | None = None
    host: str | None = None
    device_name: str | None = None
    aggregation_key: str | None = None


class Log(Timed):
    ref: str | None = None
    message: str
    service: str | None = None
    host: str | None = None
    status: LogStatus = "info"
    tags: list[str] = []
    attributes: dict[str, Any] = {}  # free-form, searched as `@name:value`


class GenerateLogs(Spec):
    """Options of `generate: {datadog.logs: {...}}`: realistic noise, seeded."""

    count: int = Field(200, ge=1, le=100_000)
    services: list[str] = Field(["web"], min_length=1)
    hosts: list[str] = Field(["web-1"], min_length=1)
    # status -> weight; default mostly info, some warn, few errors
    statuses: dict[LogStatus, float] = {"info": 0.85, "warn": 0.1, "error": 0.05}
    span: Duration = "1h"  # spread over this long before the clock start
    tags: list[str] = []  # added to every log (e.g. env:prod)


class Threshold(Spec):
    timeframe: Literal["7d", "30d", "90d"]
    target: float
    warning: float | None = None


class SloQuery(Spec):
    numerator: str
    denominator: str


class Slo(Spec):
    ref: str | None = None
    id: SloId | None = None  # default: 32 hex digits from the world's seed
    name: str
    type: Literal["metric", "monitor"]
    description: str | None = None
    tags: list[str] = []
    thresholds: list[Threshold] = Field(min_length=1)
    monitor_ids: list[str | int] = []  # monitor refs or ids (type monitor)
    query: SloQuery | None = None  # type metric
    groups: list[str] = []
    creator: str | None = None  # a user ref or id
    ago: Duration | None = None  # created how long before the clock start; default 90 days


class Dashboard(Spec):
    ref: str | None = None
    id: DashboardId | None = None  # default: abc-def-ghi from the seed
    title: str
    description: str | None = None
    layout_type: Literal["ordered", "free"] = "ordered"
    widgets: list[dict[str, Any]] = []  # widget definitions, as the API takes them
    tags: list[str] = []
    template_variables: list[dict[str, Any]] = []
    author: str | None = None  # a user ref or id; default: none
    ago: Duration | None = None  # created how long before the clock start; default 30 days


class Incident(Timed):
    ref: str | None = None
    id: Uuid | None = None  # default: a UUID from the world's seed
    public_id: int | None = Field(None, ge=1)  # default: 1, 2, 3... in file order
    title: str
    customer_impacted: bool = False
    customer_impact_scope: str | None = None
    severity: Literal["UNKNOWN", "SEV-0", "SEV-1", "SEV-2", "SEV-3", "SEV-4", "SEV-5"] = "UNKNOWN"
    state: Literal["active", "stable", "resolved"] = "active"
    commander: str | None = None  # a user ref or id
    created_by: str | None = None  # a user ref or id; default: the commander
    fields: dict[str, Any] = {}  # further incident fields ({"services": {"type": "autocomplete", ...}})
    resolved_after: Duration | None = None  # for a resolved incident: how long after it was declared


class RecordsSection(Spec):
    users: list[User] = []
    events: list[Event] = []
    logs: list[Log] = []
    slos: list[Slo] = []
    dashboards: list[Dashboard] = []
    incidents: list[Incident] = []
