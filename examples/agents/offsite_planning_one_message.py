"""A failing agent for seeds/offsite-planning.yaml: it labels one message, not the thread.

It does everything the passing agent does, but files only Harbor Hall's quote under Offsite (messages.modify on
that message): Priya's inquiry, the start of the thread, is left out of the label.
Fails: labelled_the_venue_thread.
"""

import sys

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
day = offsite.the_date(slack)
calendar_id = offsite.team_calendar(calendar)
event = offsite.book(calendar, calendar_id, day, offsite.team(slack))
offsite.send_draft(gmail, offsite.venue_thread(gmail), day)
quote = gmail.users().messages().list(userId="me", q=f"from:{offsite.VENUE}").execute()["messages"][0]
label = {"addLabelIds": [offsite.offsite_label(gmail)]}
gmail.users().messages().modify(userId="me", id=quote["id"], body=label).execute()
offsite.announce_once_accepted(slack, calendar, calendar_id, event, day)
print(day.isoformat())
