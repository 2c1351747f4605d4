"""The times Datadog stamps on what it stores (a monitor's or a downtime's `created` and `modified`, an
incident's `resolved`...): to the microsecond, as Datadog keeps them, where the simulated clock moves in
whole seconds (5 s a call unless a scene says otherwise).

`stamp` gives each second `(s - 1, s]` a fraction `f` from the world's seed and maps it onto
`(s - 1, s - f]`: a stamp is never later than the clock, stays in the second the clock was in, and stamps
keep the order of the times they were made at (everything stamped at one clock time shares a fraction, so
a record made in one call has `created` equal to `modified`, as Datadog's answers do). Times a caller gives
(a downtime's `start`) are kept as given; times Datadog shows to the second (`overall_state_modified`,
events, SLOs, v1 downtimes) are not stamped.
"""

from __future__ import annotations

from ...clock import US
from ...ids import IdSource


def stamp(ids: IdSource, us: int) -> int:
    """The time Datadog records for something done at `us` (epoch µs) in the world of `ids`."""
    second = -(-us // US)  # the whole second at or after `us`
    fraction = int.from_bytes(ids.digest("datadog:stamp", second)[:8], "big") % US
    floor = (second - 1) * US
    return floor + (us - floor) * (US - fraction) // US
