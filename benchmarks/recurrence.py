"""What a recurring event's rule costs when no day meets it (docs/services/calendar.md, "Time").

    python benchmarks/recurrence.py [--runs 3]

Each rule is checked as events.insert checks it (`recurrence.check`), a series whose EXRULE excludes every
instance is read as events.list reads it (`recurrence.starts`), and so are fifty rare series (a Friday the 13th
of February) in one request, as one events.list reads a calendar of them (`recurrence.one_request`). dateutil
looks for such a rule's next instance period by period; soundstage stops it after a fixed number of periods.
Median CPU milliseconds (the process's CPU time: the machine may be shared) and what the call answered.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.services.calendar import recurrence
from soundstage.services.calendar.zones import to_us
from soundstage.services.google.errors import GoogleError

ZONE = "UTC"
MONDAY = to_us(datetime(2026, 3, 2, 9, tzinfo=ZoneInfo(ZONE)))
RULES = {
    "DAILY;BYMONTH=2;BYMONTHDAY=30": ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"],
    "DAILY;INTERVAL=7;BYDAY=TU": ["RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU"],
    "DAILY;BYSETPOS=5": ["RRULE:FREQ=DAILY;BYSETPOS=5"],
    "WEEKLY;BYMONTH=2;BYMONTHDAY=30": ["RRULE:FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=30"],
    "MONTHLY;BYMONTH=2;BYMONTHDAY=30": ["RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30"],
    "DAILY, EXRULE DAILY": ["RRULE:FREQ=DAILY", "EXRULE:FREQ=DAILY"],
}


def insert(lines: list[str]) -> str:
    try:
        recurrence.check(lines, MONDAY, ZONE)
    except GoogleError as exc:
        return f"{exc.status} {exc.reason}"
    return "accepted"


def read(lines: list[str]) -> str:
    return f"{len(list(recurrence.starts(lines, MONDAY, ZONE, None, None)))} instances"


RARE = ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=13;BYDAY=FR"]


def read_many(lines: list[str]) -> str:
    with recurrence.one_request():
        found = sum(len(list(recurrence.starts(lines, MONDAY, ZONE, None, None))) for _ in range(50))
    return f"{found} instances"


def measure(call: Callable[[list[str]], str], lines: list[str], runs: int) -> tuple[float, str]:
    times = []
    for _ in range(runs):
        began = time.process_time()
        answer = call(lines)
        times.append((time.process_time() - began) * 1000)
    return statistics.median(times), answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for name, lines in RULES.items():
        ms, answer = measure(insert, lines, runs)
        print(f"insert {name:34} {ms:9.1f} ms CPU  {answer}")
    ms, answer = measure(read, RULES["DAILY, EXRULE DAILY"], runs)
    print(f"read   {'DAILY, EXRULE DAILY':34} {ms:9.1f} ms CPU  {answer}")
    ms, answer = measure(read_many, RARE, runs)
    print(f"read   {'50 rare series in one request':34} {ms:9.1f} ms CPU  {answer}")


if __name__ == "__main__":
    main()
