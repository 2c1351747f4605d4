"""The `faults:` section of a scene (DESIGN 3.5), as written: a condition, the effects it has while it
holds, and how long the effects take to recover once it stops.

    - id: bad_deploy
      active_while: {github.file_at: {repo: acme/orders, ref: production, path: src/app.py, contains: "x"}}
      effects:
        - datadog.monitor: {monitor: $latency, state: Alert}
        - pagerduty.incident: {service: $orders_svc, title: "Orders p99 latency above 800ms", urgency: high}
        - metric: {name: orders.latency.p99, value: 2400, normal: 180}
      recover_after: 2m

Refs, the condition (a state check) and the records the effects name are checked when the image is built
(`build.build_faults`), where errors can name the file, line and field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ..spec.fields import Duration, Spec, matching


class MonitorEffect(Spec):
    """The monitor is held in `state` while the fault is active, whatever its metrics say."""

    monitor: str | int  # a ref or a monitor id
    state: Literal["Alert", "Warn", "No Data"]


class IncidentEffect(Spec):
    """An incident is triggered on `service` when the fault starts (the agent resolves it; recovery does not)."""

    service: str  # a ref or a PagerDuty service id
    title: str
    urgency: Literal["high", "low"] | None = None  # default: the service's urgency rule
    details: str | None = None


class MetricEffect(Spec):
    """Every series of metric `name` carrying all of `tags` reads `value` while the fault is active."""

    name: str
    value: float | int
    normal: float | int | None = None  # the usual level: the base of the series when none exists yet
    tags: list[str] = []


class Effect(Spec):
    """One effect: a mapping with exactly one of the keys below."""

    datadog_monitor: MonitorEffect | None = Field(None, alias="datadog.monitor")
    pagerduty_incident: IncidentEffect | None = Field(None, alias="pagerduty.incident")
    metric: MetricEffect | None = None

    @model_validator(mode="before")
    @classmethod
    def _one_key(cls, data: Any) -> Any:
        known = ("datadog.monitor", "pagerduty.incident", "metric")
        if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in known:
            keys = ", ".join(map(str, data)) if isinstance(data, dict) and data else "none"
            raise ValueError(f"an effect is a mapping with exactly one of: {', '.join(known)}; found {keys}")
        return data


FaultId = Annotated[str, matching(r"[A-Za-z_][A-Za-z0-9_.-]*", "an id of letters, digits, _ . and -")]


class Fault(Spec):
    id: FaultId
    active_while: dict[str, Any]  # a state predicate, e.g. {github.file_at: {...}}
    effects: list[Effect] = Field(min_length=1)
    recover_after: Duration = "0s"
