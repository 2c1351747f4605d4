"""A scripted agent for seeds/offsite-planning.yaml: no model, slack_sdk and google-api-python-client (steps in
_offsite.py).

It asks Maya in a DM which date to book (and nothing else), books that Thursday all day on the Engineering team
calendar inviting #engineering's people, sends Priya's waiting draft in Harbor Hall's thread with the date filled
in, files that thread under an Offsite label, waits until every teammate has accepted, then announces the date and
the venue in #engineering.
"""

import sys

from _colleagues import connect
from _google import calendar_client, gmail_client
from _offsite import (
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
event = book(calendar, calendar_id, day, team(slack))
thread = venue_thread(gmail)
send_draft(gmail, thread, day)
label_thread(gmail, thread)
got = answers(calendar, calendar_id, event["id"])
if set(got.values()) != {"accepted"}:
    sys.exit(f"not everyone accepted: {got}")
announce(slack, announcement(day))
print(day.isoformat())
