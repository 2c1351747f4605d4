"""A scripted agent for seeds/team-meeting.yaml: no model, only plain HTTP to Calendar and the standard
library's time zones (helpers in _meeting.py).

It asks free/busy for the four calendars at once, then walks the week half an hour at a time and takes the
first hour inside everyone's working hours, each read in their own zone (so Los Angeles and New York are
already on daylight time), that no busy period touches; it books that hour once, inviting all four.
"""

import sys

from _clients import calendar_http
from _meeting import PEOPLE, book, busy, earliest

calendar = calendar_http()
sys.stdin.read()
people = list(PEOPLE)
start = earliest(busy(calendar, people), {person: zone for person, (zone, _, _) in PEOPLE.items()})
book(calendar, start, people)
print(f"{start:%A %Y-%m-%d %H:%M} UTC")
