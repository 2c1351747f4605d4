"""A failing agent for seeds/offsite-planning.yaml: it writes Harbor Hall a new email instead of sending Priya's.

It asks Maya, books and labels the venue's thread as the passing agent does, but confirms the date in an email of
its own (messages.send, no thread): the venue gets it outside the thread it holds the dates in, and Priya's reply
stays in her drafts, ready to be sent a second time.
Fails: confirmed_in_the_venue_thread, no_draft_left.
"""

import base64
import sys
from email.message import EmailMessage

from _colleagues import connect
from _google import calendar_client, gmail_client
from _offsite import (
    VENUE,
    announce,
    announcement,
    answers,
    ask_maya,
    book,
    day_in,
    label_thread,
    said,
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
email = EmailMessage()
email["To"] = VENUE
email["Subject"] = "Engineering offsite booking"
email.set_content(f"Hi Dana,\n\nPlease book the Loft for us on {said(day)}.\n\nBest,\nPriya")
raw = base64.urlsafe_b64encode(email.as_bytes()).decode()
gmail.users().messages().send(userId="me", body={"raw": raw}).execute()
label_thread(gmail, venue_thread(gmail))
got = answers(calendar, calendar_id, event["id"])
if set(got.values()) != {"accepted"}:
    sys.exit(f"not everyone accepted: {got}")
announce(slack, announcement(day))
print(day.isoformat())
