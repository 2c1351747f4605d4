"""The `datadog:` section of world and scene files (docs/scenes.md, docs/services/datadog.md): the
monitoring records (monitors, metric series, hosts, downtimes; `models_monitoring`) and the other records
(events, logs, SLOs, dashboards, users, incidents; `models_records`). Field names are those of Datadog's API
objects."""

from __future__ import annotations

from .models_monitoring import MonitoringSection
from .models_records import RecordsSection


class DatadogSection(MonitoringSection, RecordsSection):
    pass
