"""A failing agent for seeds/offsite-planning.yaml: it writes Harbor Hall a new email instead of sending Priya's.

It asks Maya, books and labels the venue's thread as the passing agent does, but confirms the date in an email of
its own (messages.send, no thread): the venue gets it outside the thread it holds the dates in, and Priya's reply
stays in her drafts, ready to be sent a second time.
Fails: confirmed_in_the_venue_thread, no_draft_left.
"""

import base64
import sys
from email.message import EmailMessage

import _offsite as offsite

slack, calendar, gmail = offsite.clients()
sys.stdin.read()
day = offsite.the_date(slack)
calendar_id = offsite.team_calendar(calendar)
event = offsite.book(calendar, calendar_id, day, offsite.team(slack))
email = EmailMessage()
email["To"] = offsite.VENUE
email["Subject"] = "Engineering offsite booking"
email.set_content(f"Hi Dana,\n\nPlease book the Loft for us on {offsite.said(day)}.\n\nBest,\nPriya")
gmail.users().messages().send(userId="me", body={"raw": base64.urlsafe_b64encode(email.as_bytes()).decode()}).execute()
offsite.label_thread(gmail, offsite.venue_thread(gmail))
offsite.announce_once_accepted(slack, calendar, calendar_id, event, day)
print(day.isoformat())
