"""Steps the scripted agents of seeds/offsite-planning.yaml share: the team by #engineering's members, the date
in Maya's answer, the all-day booking on the team calendar, Priya's waiting reply to Harbor Hall sent in its
thread, the thread labelled, the teammates' answers awaited, the announcement. slack_sdk for Slack,
google-api-python-client for Calendar and Gmail; waiting moves the simulated clock on."""

from __future__ import annotations

import base64
import re
from datetime import date, timedelta
from email import policy
from email.parser import BytesParser
from typing import Any

from _colleagues import advance, ask, channel_id, connect, find_user, patiently, text_of
from _google import calendar_client, gmail_client
from slack_sdk import WebClient

VENUE = "events@harborhall.example"
ME = "priya@acme.test"
ROUNDS = 12  # polls of the invitation's answers, 5 simulated minutes apart


def clients() -> tuple[WebClient, Any, Any]:
    """Slack as the bot; Calendar and Gmail as Priya."""
    return connect(), calendar_client(), gmail_client()


def ask_maya(slack: WebClient, question: str) -> str:
    answer = ask(slack, find_user(slack, name="maya"), question, rounds=5)
    if answer is None:
        raise SystemExit("Maya did not answer; nothing booked")
    return answer


def the_date(slack: WebClient) -> date:
    """The day Maya gives, asked for it alone."""
    return day_in(ask_maya(slack, "Hi Maya, the offsite thread says you will confirm the final date. Which date?"))


def day_in(text: str) -> date:
    """The first day of March 2026 a text names ("Thursday, March 19")."""
    found = re.search(r"March (\d{1,2})\b", text)
    if found is None:
        raise SystemExit(f"no date in {text!r}")
    return date(2026, 3, int(found.group(1)))


def said(day: date) -> str:
    return f"{day:%A}, {day:%B} {day.day}"  # Thursday, March 19


def team(slack: WebClient, channel: str = "engineering") -> list[str]:
    """The addresses of a channel's people (its bots have none): #engineering's are the team."""
    members = patiently(slack.conversations_members, channel=channel_id(slack, channel), limit=200)
    found = []
    for member in members["members"]:
        user = slack.users_info(user=member)["user"]
        if not user.get("is_bot") and not user.get("deleted") and user["profile"].get("email"):
            found.append(user["profile"]["email"])
    return found


def vote(slack: WebClient) -> dict[str, Any]:
    """The offsite vote in #engineering, with its reactions."""
    history = patiently(slack.conversations_history, channel=channel_id(slack, "engineering"), limit=200)
    return next(m for m in history["messages"] if "offsite vote" in text_of(m).lower())


def team_calendar(calendar: Any) -> str:
    """The id of the "Engineering team" calendar on Priya's list, which she may write."""
    for entry in calendar.calendarList().list(minAccessRole="writer").execute()["items"]:
        if entry["summary"] == "Engineering team":
            return str(entry["id"])
    raise SystemExit("no Engineering team calendar to write")


def book(calendar: Any, calendar_id: str, day: date, people: list[str]) -> dict[str, Any]:
    """The offsite as an all-day event (the end day is exclusive), inviting `people`."""
    body = {
        "summary": "Engineering offsite",
        "location": "Harbor Hall, the Loft",
        "start": {"date": day.isoformat()},
        "end": {"date": (day + timedelta(days=1)).isoformat()},
        "attendees": [{"email": person} for person in people],
    }
    return dict(calendar.events().insert(calendarId=calendar_id, body=body).execute())


def answers(calendar: Any, calendar_id: str, event_id: str) -> dict[str, str]:
    """Each teammate's answer to the event (Priya's own left out): polled until none is still to come."""
    for done in range(ROUNDS):
        if done:
            advance("5m")
        event = calendar.events().get(calendarId=calendar_id, eventId=event_id).execute()
        got = {a["email"]: a["responseStatus"] for a in event.get("attendees", []) if a["email"] != ME}
        if "needsAction" not in got.values():
            return got
    raise SystemExit("the team did not answer the invitation")


def venue_thread(gmail: Any) -> str:
    """The thread of Harbor Hall's quote in Priya's mailbox."""
    found = gmail.users().messages().list(userId="me", q=f"from:{VENUE}").execute()
    return str(found["messages"][0]["threadId"])


def send_draft(gmail: Any, thread_id: str, day: date) -> dict[str, Any]:
    """Priya's draft in the thread, its [DATE] filled in, sent (drafts.send with the message updated)."""
    for listed in gmail.users().drafts().list(userId="me").execute().get("drafts", []):
        draft = gmail.users().drafts().get(userId="me", id=listed["id"], format="raw").execute()
        if draft["message"]["threadId"] == thread_id:
            break
    else:
        raise SystemExit("no draft in Harbor Hall's thread")
    message = BytesParser(policy=policy.default).parsebytes(base64.urlsafe_b64decode(draft["message"]["raw"]))
    message.set_content(message.get_content().replace("[DATE]", said(day)))
    raw = base64.urlsafe_b64encode(message.as_bytes()).decode()
    body = {"id": draft["id"], "message": {"raw": raw, "threadId": thread_id}}
    return dict(gmail.users().drafts().send(userId="me", body=body).execute())


def label_thread(gmail: Any, thread_id: str) -> None:
    """The thread's messages under the user label Offsite."""
    body = {"addLabelIds": [offsite_label(gmail)]}
    gmail.users().threads().modify(userId="me", id=thread_id, body=body).execute()


def offsite_label(gmail: Any) -> str:
    """The id of Priya's label Offsite, made if she has none."""
    labels = gmail.users().labels().list(userId="me").execute()["labels"]
    label = next((x for x in labels if x["name"].lower() == "offsite"), None)
    if label is None:
        label = gmail.users().labels().create(userId="me", body={"name": "Offsite"}).execute()
    return str(label["id"])


def confirm_with_venue(gmail: Any, day: date) -> None:
    """Priya's reply sent in Harbor Hall's thread with the day, and the thread labelled."""
    thread = venue_thread(gmail)
    send_draft(gmail, thread, day)
    label_thread(gmail, thread)


def announce(slack: WebClient, day: date, more: str = "") -> None:
    """The date and the venue in #engineering, and `more`."""
    text = (
        f"The engineering offsite is on {said(day)}, all day at Harbor Hall (the Loft). It is on the Engineering "
        f"team calendar. See you there!{more}"
    )
    patiently(slack.chat_postMessage, channel=channel_id(slack, "engineering"), text=text)


def announce_once_accepted(
    slack: WebClient, calendar: Any, calendar_id: str, event: dict[str, Any], day: date, more: str = ""
) -> None:
    """The announcement, once every teammate has accepted the event (none if anyone has not)."""
    got = answers(calendar, calendar_id, event["id"])
    if set(got.values()) != {"accepted"}:
        raise SystemExit(f"not everyone accepted: {got}")
    announce(slack, day, more)
