"""A failing agent for seeds/team-meeting.yaml: it books without looking at anyone's calendar.

The time zones and working hours are right, but it never asks free/busy: the first hour within everyone's
working hours, Monday 14:00 UTC, is taken by Jordan's daily customer calls.
Fails: booked_the_slot, looked_before_booking.
"""

import sys

from _clients import calendar_http
from _meeting import PEOPLE, book, earliest

calendar = calendar_http()
sys.stdin.read()
people = list(PEOPLE)
start = earliest([], {person: zone for person, (zone, _, _) in PEOPLE.items()})
book(calendar, start, people)
print(f"{start:%A %Y-%m-%d %H:%M} UTC")
