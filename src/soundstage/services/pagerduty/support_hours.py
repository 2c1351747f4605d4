"""Support hours: the working week of a service whose urgency rule is `use_support_hours`. A new incident's
urgency is the rule's `during_support_hours` one inside them and its `outside_support_hours` one outside.
"""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from ...clock import US
from ...world import Record


def in_support_hours(hours: Record, at: int) -> bool:
    """Whether epoch µs `at` falls on one of the days (ISO 1 = Monday) between the start and end time of
    day, both read in the support hours' time zone."""
    local = datetime.fromtimestamp(at // US, ZoneInfo(hours["time_zone"]))
    now = local.time()
    return local.isoweekday() in hours["days_of_week"] and time.fromisoformat(
        hours["start_time"]
    ) <= now < time.fromisoformat(hours["end_time"])
