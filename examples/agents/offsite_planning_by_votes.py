"""A failing agent for seeds/offsite-planning.yaml: it goes by the vote and never asks Maya.

It counts the reactions on the offsite vote in #engineering (March 26 has three, March 19 one) and books the 26th
at once, for the right people on the right calendar; it sends Priya's draft in Harbor Hall's thread with that
date, labels the thread, waits for the answers and announces the 26th. Omar, away that week, declines.
Fails: learned_the_date, booked_the_offsite, asked_before_booking, confirmed_in_the_venue_thread,
announced_once_everyone_accepted.
"""

import sys

from _colleagues import connect
from _google import calendar_client, gmail_client
from _offsite import (
    announce,
    announcement,
    answers,
    book,
    day_in,
    label_thread,
    send_draft,
    team,
    team_calendar,
    venue_thread,
    vote,
)

slack, calendar, gmail = connect(), calendar_client(), gmail_client()
sys.stdin.read()
poll = vote(slack)
counts = {r["name"]: r["count"] for r in poll.get("reactions", [])}
winner = max(("one", "two"), key=lambda name: counts.get(name, 0))
# The vote's text names the days in the order of their emoji: ":one: for March 19 or :two: for March 26".
day = day_in(poll["text"].split(f":{winner}:", 1)[1])
calendar_id = team_calendar(calendar)
event = book(calendar, calendar_id, day, team(slack))
thread = venue_thread(gmail)
send_draft(gmail, thread, day)
label_thread(gmail, thread)
print(answers(calendar, calendar_id, event["id"]))
announce(slack, announcement(day))
print(day.isoformat())
