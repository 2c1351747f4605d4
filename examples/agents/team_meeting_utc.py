"""A failing agent for seeds/team-meeting.yaml: it reads everyone's working hours as UTC.

It consults free/busy and books an hour clear of every meeting, but takes "Maya 07:00-15:00" and the
others' hours as UTC: Monday 13:00 UTC fits that reading, and it is 06:00 in Los Angeles.
Fails: booked_the_slot.
"""

import sys

from _clients import calendar_http
from _meeting import PEOPLE, book, busy, earliest

calendar = calendar_http()
sys.stdin.read()
people = list(PEOPLE)
start = earliest(busy(calendar, people), dict.fromkeys(people, "UTC"))
book(calendar, start, people)
print(f"{start:%A %Y-%m-%d %H:%M} UTC")
