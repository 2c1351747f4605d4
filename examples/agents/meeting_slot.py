"""A scripted agent for seeds/meeting-slot.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks the three people at once, waits for all of them (ask_all), reads each one's free ranges ("HH:MM
to HH:MM UTC", a range past midnight running into the next day), finds the earliest 30 minutes inside a
range of everyone's, and announces it in #engineering, mentioning all three.
"""

import re
import sys

from _colleagues import ask_all, channel_id, connect, find_user

PEOPLE = ["kenji", "maya", "omar"]
LENGTH = 30  # minutes


def ranges(text: str) -> list[tuple[int, int]]:
    """Free ranges in minutes after midnight UTC; an end at or before its start is on the next day."""
    found = []
    for start, end in re.findall(r"(\d\d:\d\d) to (\d\d:\d\d) UTC", text):
        a, b = (int(t[:2]) * 60 + int(t[3:]) for t in (start, end))
        found.append((a, b if b > a else b + 24 * 60))
    return found


client = connect()
sys.stdin.read()
users = {name: find_user(client, name=name) for name in PEOPLE}
answers = ask_all(
    client, users, "Hi! When are you free tomorrow (March 3) for a 30-minute 1.5.0 review? In UTC, please.", rounds=12
)
if len(answers) < len(PEOPLE):
    sys.exit(f"no answer from {', '.join(sorted(set(PEOPLE) - set(answers)))}")

free = {name: ranges(text) for name, text in answers.items()}
starts = sorted(a for spans in free.values() for a, _ in spans)
slot = next(
    (s for s in starts if all(any(a <= s and s + LENGTH <= b for a, b in spans) for spans in free.values())), None
)
if slot is None:
    sys.exit(f"no 30 minutes shared by everyone: {free}")
when = f"{slot // 60 % 24:02d}:{slot % 60:02d}"
mentions = " ".join(f"<@{user}>" for user in users.values())
client.chat_postMessage(
    channel=channel_id(client, "engineering"),
    text=(
        f"{mentions} The 1.5.0 review is booked for tomorrow at {when} UTC, for 30 minutes: the one slot you all share."
    ),
)
print(f"{when} UTC")
