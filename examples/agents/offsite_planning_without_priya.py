"""A failing agent for seeds/offsite-planning.yaml: it leaves Priya off the invitation.

It does everything the passing agent does, but takes "the team" to be the people Priya manages: #engineering's
people but her, though she asked to be invited too.
Fails: invited_exactly_the_team.
"""

import sys

from _colleagues import connect
from _google import calendar_client, gmail_client
from _offsite import (
    ME,
    announce,
    announcement,
    answers,
    ask_maya,
    book,
    day_in,
    label_thread,
    send_draft,
    team,
    team_calendar,
    venue_thread,
)

slack, calendar, gmail = connect(), calendar_client(), gmail_client()
sys.stdin.read()
day = day_in(
    ask_maya(slack, "Hi Maya, the offsite thread says you will confirm the final date. Which date should I book?")
)
calendar_id = team_calendar(calendar)
event = book(calendar, calendar_id, day, [person for person in team(slack) if person != ME])
thread = venue_thread(gmail)
send_draft(gmail, thread, day)
label_thread(gmail, thread)
got = answers(calendar, calendar_id, event["id"])
if set(got.values()) != {"accepted"}:
    sys.exit(f"not everyone accepted: {got}")
announce(slack, announcement(day))
print(day.isoformat())
