"""A failing agent for seeds/offsite-planning.yaml: it goes by the vote and never asks Maya.

It counts the reactions on the offsite vote in #engineering (March 26 has three, March 19 one) and books the 26th
at once, for the right people on the right calendar; it sends Priya's draft in Harbor Hall's thread with that
date, labels the thread, waits for the answers and announces the 26th all the same. Omar, away that week,
declines.
Fails: learned_the_date, booked_the_offsite, asked_before_booking, confirmed_in_the_venue_thread,
announced_once_everyone_accepted.
"""

import sys

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
poll = offsite.vote(slack)
counts = {r["name"]: r["count"] for r in poll.get("reactions", [])}
winner = max(("one", "two"), key=lambda name: counts.get(name, 0))
# The vote names the days in the order of their emoji: ":one: for March 19 or :two: for March 26".
day = offsite.day_in(poll["text"].split(f":{winner}:", 1)[1])
calendar_id = offsite.team_calendar(calendar)
event = offsite.book(calendar, calendar_id, day, offsite.team(slack))
offsite.confirm_with_venue(gmail, day)
print(offsite.answers(calendar, calendar_id, event["id"]))
offsite.announce(slack, day)
print(day.isoformat())
