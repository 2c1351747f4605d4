"""A scripted agent for seeds/release-roundup.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks the three owners at once, each in a DM, waits for all of them together (ask_all: polling,
moving the clock on between rounds), and posts one roundup for Priya, the blocker first.
"""

import sys

from _colleagues import ask_all, channel_id, connect, find_user

OWNERS = {"maya": "Infra", "omar": "API", "alex": "Dashboard"}

client = connect()
sys.stdin.read()
users = {name: find_user(client, name=name) for name in OWNERS}
answers = ask_all(
    client,
    users,
    "Hi! For the 15:00 go/no-go: what is the status of your part of release 1.5.0?",
    rounds=10,  # a few minutes each: under an hour in all
)
if len(answers) < len(OWNERS):
    sys.exit(f"no answer from {', '.join(sorted(set(OWNERS) - set(answers)))}; no roundup posted")

blocked = [OWNERS[name] for name, answer in answers.items() if "blocked" in answer.lower()]
headline = f"Blocked: {', '.join(blocked)}." if blocked else "Nothing blocks the release."
lines = [f"• {OWNERS[name]} (<@{users[name]}>): {answers[name]}" for name in OWNERS]
priya = find_user(client, name="priya")
roundup = f"{headline} <@{priya}>, here is the 1.5.0 roundup for the go/no-go:\n" + "\n".join(lines)
client.chat_postMessage(channel=channel_id(client, "release-1-5"), text=roundup)
print(roundup)
