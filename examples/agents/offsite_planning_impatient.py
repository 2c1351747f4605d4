"""A failing agent for seeds/offsite-planning.yaml: it announces before the team has answered.

It asks Maya, books the right day for the right people, and posts the announcement in #engineering right after
booking, before anyone has accepted; then it sends Priya's draft and labels the venue's thread, and ends without
waiting for the answers.
Fails: announced_once_everyone_accepted.
"""

import sys

from _colleagues import connect
from _google import calendar_client, gmail_client
from _offsite import (
    announce,
    announcement,
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
book(calendar, team_calendar(calendar), day, team(slack))
announce(slack, announcement(day))
thread = venue_thread(gmail)
send_draft(gmail, thread, day)
label_thread(gmail, thread)
print(day.isoformat())
