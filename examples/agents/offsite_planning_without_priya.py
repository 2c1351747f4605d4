"""A failing agent for seeds/offsite-planning.yaml: it leaves Priya off the invitation.

It does everything the passing agent does, but takes "the team" to be the people Priya manages: #engineering's
people but her, though she asked to be invited too.
Fails: invited_exactly_the_team.
"""

import sys

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
day = offsite.the_date(slack)
calendar_id = offsite.team_calendar(calendar)
reports = [person for person in offsite.team(slack) if person != offsite.ME]
event = offsite.book(calendar, calendar_id, day, reports)
offsite.confirm_with_venue(gmail, day)
offsite.announce_once_accepted(slack, calendar, calendar_id, event, day)
print(day.isoformat())
