"""A failing agent for seeds/offsite-planning.yaml: it labels one message, not the thread.

It does everything the passing agent does, but files only Harbor Hall's quote under Offsite (messages.modify on
that message): Priya's inquiry, the start of the thread, is left out of the label.
Fails: labelled_the_venue_thread.
"""

import sys

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
    offsite_label,
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
send_draft(gmail, venue_thread(gmail), day)
quote = gmail.users().messages().list(userId="me", q=f"from:{VENUE}").execute()["messages"][0]
gmail.users().messages().modify(userId="me", id=quote["id"], body={"addLabelIds": [offsite_label(gmail)]}).execute()
got = answers(calendar, calendar_id, event["id"])
if set(got.values()) != {"accepted"}:
    sys.exit(f"not everyone accepted: {got}")
announce(slack, announcement(day))
print(day.isoformat())
