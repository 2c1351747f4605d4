"""The `pagerduty:` section of world and scene files (docs/scenes.md, docs/services/pagerduty.md): the
directory (users, teams, services, escalation policies, schedules, priorities, maintenance windows;
`models_directory`) and the incidents (with their alerts, notes, log entries and change events;
`models_incidents`). Field names are those of PagerDuty's API objects."""

from __future__ import annotations

from .models_directory import DirectorySection
from .models_incidents import IncidentsSection


class PagerdutySection(DirectorySection, IncidentsSection):
    pass
