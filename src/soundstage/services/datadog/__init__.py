"""The Datadog API (v1 and v2) over the world's monitors, metrics, downtimes, hosts, events, logs, SLOs,
dashboards, users and incidents."""

from .service import DatadogService, service

__all__ = ["DatadogService", "service"]
