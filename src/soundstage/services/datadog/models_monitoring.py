"""The monitoring part of the `datadog:` section: monitors, metric series, hosts, downtimes.

Field names are those of Datadog's API objects (Monitor, MonitorOptions, Host, v2 Downtime attributes).
Times are given relative to the clock start (`ago: 3d` before it; `from: -2h` / `to: 10m` around it) or as
ISO-8601 instants; `seed_monitoring` turns them into epoch microseconds. Values naming other records
(`$orders_latency`) are refs, resolved when the image is built.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field

from ...clock import parse_duration, parse_time
from ...spec.fields import Duration, Spec
from ...spec.loader import describe


def parse_offset(text: str, start: int) -> int:
    """`-2h`, `10m` (relative to the clock start `start`) or an ISO-8601 instant, to epoch microseconds."""
    value = text.strip()
    sign = -1 if value.startswith("-") else 1
    try:
        return start + sign * parse_duration(value.lstrip("+-"))
    except ValueError:
        return parse_time(value)


def _offset(value: Any) -> Any:
    if isinstance(value, str):
        try:
            parse_offset(value, 0)
            return value
        except ValueError:
            pass
    raise ValueError(
        f"expected a time like -2h, 10m (from the clock start) or 2026-03-02T14:00:00Z, found {describe(value)}"
    )


Offset = Annotated[str, BeforeValidator(_offset)]
Number = int | float
MonitorType = Literal[
    "composite",
    "event alert",
    "log alert",
    "metric alert",
    "process alert",
    "query alert",
    "rum alert",
    "service check",
    "synthetics alert",
    "trace-analytics alert",
    "slo alert",
    "event-v2 alert",
    "audit alert",
    "ci-pipelines alert",
    "ci-tests alert",
    "error-tracking alert",
    "database-monitoring alert",
    "network-performance alert",
    "cost alert",
    "data-quality alert",
    "network-path alert",
    "data-jobs alert",
    "llm-observability alert",
]
MonitorState = Literal["OK", "Alert", "Warn", "No Data", "Ignored", "Skipped", "Unknown"]


def _tag(value: Any) -> Any:
    if isinstance(value, str) and value and not re.search(r"\s", value):
        return value
    raise ValueError(f"expected a tag like service:orders, found {describe(value)}")


Tag = Annotated[str, BeforeValidator(_tag)]


class Thresholds(Spec):
    critical: Number | None = None
    critical_recovery: Number | None = None
    warning: Number | None = None
    warning_recovery: Number | None = None
    ok: Number | None = None
    unknown: Number | None = None


class MonitorOptions(Spec):
    thresholds: Thresholds | None = None
    notify_no_data: bool = False
    no_data_timeframe: int | None = Field(default=None, ge=1)  # minutes
    renotify_interval: int | None = Field(default=None, ge=0)  # minutes
    renotify_statuses: list[Literal["alert", "warn", "no data"]] | None = None
    evaluation_delay: int | None = Field(default=None, ge=0)  # seconds
    new_group_delay: int | None = Field(default=None, ge=0)
    notify_audit: bool = False
    include_tags: bool = True
    require_full_window: bool | None = None
    timeout_h: int | None = Field(default=None, ge=0)
    escalation_message: str | None = None
    silenced: dict[str, int | None] | None = None  # legacy mutes: scope -> end (epoch seconds) or null


class Monitor(Spec):
    ref: str | None = None
    id: int | None = Field(default=None, ge=1)
    name: str
    type: MonitorType = "metric alert"
    query: str
    message: str = ""
    tags: list[Tag] = []
    priority: int | None = Field(default=None, ge=1, le=5)
    options: MonitorOptions = Field(default_factory=MonitorOptions)
    overall_state: MonitorState | None = None  # the state at the clock start; default: evaluated
    creator: str | None = None  # a user ref or id; default: the world's first Datadog user not a service account
    ago: Duration = "30d"  # created this long before the clock start


class Override(Spec):
    """A step the series shows in a window: `value` from `from` until `to` (open-ended without it)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    from_: Offset = Field(alias="from")
    to: Offset | None = None
    value: Number


class Series(Spec):
    """A metric series: `base` plus seeded noise and a daily swing, with overrides on top. Its values are
    computed when asked for, never stored per point."""

    ref: str | None = None
    metric: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_.]*$")]
    tags: list[Tag] = []
    type: Literal["gauge", "count", "rate"] = "gauge"
    unit: str | None = None
    base: Number = 0
    noise: Number | str = 0  # an absolute amplitude, or relative to `base` as "5%"
    daily: Number = 0  # amplitude of a daily swing (peak at 14:00 UTC)
    interval: int = Field(default=60, ge=1)  # seconds between points
    overrides: list[Override] = []


class Host(Spec):
    ref: str | None = None
    name: str
    aliases: list[str] = []
    apps: list[str] = []
    tags: list[Tag] | dict[str, list[Tag]] = []  # flat (source "Datadog") or by source
    up: bool = True
    last_reported: Duration | None = None  # how long before the clock start a down host last reported
    muted: bool = False
    mute_timeout: Offset | None = None
    platform: str = "linux"


class MonitorIdentifier(Spec):
    monitor_id: int | str | None = None  # a monitor id or $ref
    monitor_tags: list[Tag] | None = None


class Schedule(Spec):
    start: Offset | None = None  # default: the clock start
    end: Offset | None = None  # default: open-ended


class Downtime(Spec):
    ref: str | None = None
    scope: str = "*"
    monitor_identifier: MonitorIdentifier
    schedule: Schedule = Field(default_factory=Schedule)
    message: str | None = None
    mute_first_recovery_notification: bool = False
    notify_end_states: list[Literal["alert", "no data", "warn"]] = ["alert", "no data", "warn"]
    notify_end_types: list[Literal["canceled", "expired"]] = ["expired"]
    display_timezone: str = "UTC"
    ago: Duration = "0s"  # created this long before its start (or the clock start)


class MonitoringSection(Spec):
    monitors: list[Monitor] = []
    metrics: list[Series] = []
    hosts: list[Host] = []
    downtimes: list[Downtime] = []
