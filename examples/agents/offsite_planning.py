"""A scripted agent for seeds/offsite-planning.yaml: no model, slack_sdk and google-api-python-client (steps in
_offsite.py).

It asks Maya in a DM which date to book (and nothing else), books that Thursday all day on the Engineering team
calendar inviting #engineering's people, sends Priya's waiting draft in Harbor Hall's thread with the date filled
in, files that thread under an Offsite label, waits until every teammate has accepted, then announces the date and
the venue in #engineering.
"""

import sys

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
day = offsite.the_date(slack)
calendar_id = offsite.team_calendar(calendar)
event = offsite.book(calendar, calendar_id, day, offsite.team(slack))
offsite.confirm_with_venue(gmail, day)
offsite.announce_once_accepted(slack, calendar, calendar_id, event, day)
print(day.isoformat())
