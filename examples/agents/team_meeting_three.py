"""A failing agent for seeds/team-meeting.yaml: it finds the right hour but invites only three.

Free/busy and the time zones are read as the passing agent reads them, and the hour is right; the invitation
leaves Aarav out (the evening in Kolkata, it assumes, is his own time).
Fails: everyone_invited.
"""

import sys

from _clients import calendar_http
from _meeting import PEOPLE, book, busy, earliest

calendar = calendar_http()
sys.stdin.read()
people = list(PEOPLE)
start = earliest(busy(calendar, people), {person: zone for person, (zone, _, _) in PEOPLE.items()})
book(calendar, start, [person for person in people if person != "aarav@acme.test"])
print(f"{start:%A %Y-%m-%d %H:%M} UTC")
