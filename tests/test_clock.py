import time

import pytest

from soundstage.clock import US, Clock, format_duration, http_date, iso, parse_duration, parse_rate, parse_time

START = parse_time("2026-03-02T14:00:00Z")


def test_durations():
    assert parse_duration("30s") == 30 * US
    assert parse_duration("5m") == 300 * US
    assert parse_duration("2h") == 7200 * US
    assert parse_duration("1d") == 86400 * US
    assert parse_duration("250ms") == 250_000
    assert parse_duration(1.5) == 1_500_000
    assert format_duration(300 * US) == "5m"
    assert format_duration(90 * US) == "90s"
    assert format_duration(1_500_000) == "1500ms"


@pytest.mark.parametrize("bad", ["5 minutes", "", "m5", "-3s", True])
def test_bad_durations(bad):
    with pytest.raises(ValueError):
        parse_duration(bad)


def test_times():
    assert START == 1772460000 * US
    assert iso(START) == "2026-03-02T14:00:00Z"
    assert iso(START + 1) == "2026-03-02T14:00:00.000001Z"
    assert parse_time("2026-03-02T15:00:00+01:00") == START
    assert parse_time("2026-03-02T14:00:00") == START
    assert http_date(START) == "Mon, 02 Mar 2026 14:00:00 GMT"
    with pytest.raises(ValueError):
        parse_time("yesterday")


def test_times_read_as_strftime_does_over_centuries():
    for seconds in [*range(-86400 * 3, 86400 * 3, 3599), *range(0, 2**34, 7_654_321), 951_782_400, 4_107_542_399]:
        stamp = time.gmtime(seconds)
        assert iso(seconds * US) == time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp)
        assert http_date(seconds * US + 999_999) == time.strftime("%a, %d %b %Y %H:%M:%S GMT", stamp)


def test_fixed_clock_ticks_and_advances():
    clock = Clock(START, tick_us=5 * US)
    assert clock.now() == START
    clock.tick()
    clock.advance(60 * US)
    assert clock.now() == START + 65 * US
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_realtime_clock_follows_the_given_wall_and_never_goes_back():
    wall = [1_000 * US]
    clock = Clock(START, realtime=True, speed=2.0, wall=lambda: wall[0])
    wall[0] += 3 * US
    assert clock.now() == START + 6 * US
    clock.tick()  # ticks do nothing in realtime mode
    assert clock.now() == START + 6 * US
    clock.advance(60 * US)
    assert clock.now() == START + 66 * US
    wall[0] -= 10 * US  # the machine clock jumps back
    assert clock.now() == START + 66 * US


def test_copy_is_independent():
    clock = Clock(START)
    clone = clock.copy()
    clone.advance(US)
    assert clock.now() == START
    assert clone.now() == START + US


def test_rates():
    assert parse_rate("5/1m") == (5, 60 * US)
    assert parse_rate(" 100 / 1h ") == (100, 3600 * US)
    with pytest.raises(
        ValueError, match=r"^not a rate limit: '5 per minute' \(expected a count and a duration, e.g. 5/1m\)$"
    ):
        parse_rate("5 per minute")
    with pytest.raises(ValueError, match="the duration must be longer than 0"):
        parse_rate("5/0s")
    with pytest.raises(ValueError):
        parse_rate("0/1m")


def test_times_remembered_read_as_the_first_time():
    # iso remembers the times it formatted: asked again, after others pushed them out too, the same text
    moments = [START + n * 1_234_567 for n in range(5000)]
    for _ in range(2):
        for us in moments:
            seconds, fraction = divmod(us, US)
            expected = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
            assert iso(us) == (f"{expected}.{fraction:06d}Z" if fraction else f"{expected}Z")


def test_times_second_by_second_across_minutes_days_and_years_read_as_strftime_does():
    # each minute's text is remembered: the seconds after it, and the minutes around it, still read right
    for start in (
        START // US - 130,
        parse_time("2026-12-31T23:58:00Z") // US,
        parse_time("2028-02-28T23:59:00Z") // US,
        -70,
    ):
        for seconds in range(start, start + 200):
            stamp = time.gmtime(seconds)
            assert iso(seconds * US) == time.strftime("%Y-%m-%dT%H:%M:%SZ", stamp)
            assert http_date(seconds * US) == time.strftime("%a, %d %b %Y %H:%M:%S GMT", stamp)
