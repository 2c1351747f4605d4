"""A failing agent for seeds/offsite-planning.yaml: it announces before the team has answered.

It asks Maya, books the right day for the right people, and posts the announcement in #engineering right after
booking, before anyone has accepted; then it sends Priya's draft, labels the venue's thread, and ends without
waiting for the answers.
Fails: announced_once_everyone_accepted.
"""

import sys

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
day = offsite.the_date(slack)
offsite.book(calendar, offsite.team_calendar(calendar), day, offsite.team(slack))
offsite.announce(slack, day)
offsite.confirm_with_venue(gmail, day)
print(day.isoformat())
