"""Datadog's stored times to the microsecond: a seeded fraction of each second, never past the clock, in
the clock's order, the same for every stamp of one clock time."""

from __future__ import annotations

from soundstage.clock import US, iso, parse_time
from soundstage.ids import IdSource
from soundstage.services.datadog.stamps import stamp

START = parse_time("2026-03-02T14:00:00Z")


def test_a_whole_second_gets_a_seeded_fraction_of_the_second_before() -> None:
    ids = IdSource("datadog-test")
    assert iso(stamp(ids, START)) == "2026-03-02T13:59:59.435020Z"
    assert iso(stamp(ids, START + 5 * US)) == "2026-03-02T14:00:04.804007Z"
    assert stamp(ids, START) == stamp(IdSource("datadog-test"), START)
    assert iso(stamp(IdSource("another seed"), START)) != iso(stamp(ids, START))


def test_stamps_keep_the_clock_order_and_never_pass_it() -> None:
    ids = IdSource("datadog-test")
    # Whole seconds, as the clock ticks, and times between them, as a realtime clock reads.
    times = [START + n * 250_001 for n in range(400)]
    stamps = [stamp(ids, t) for t in times]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    assert all(t - US < s <= t for t, s in zip(times, stamps, strict=True))
