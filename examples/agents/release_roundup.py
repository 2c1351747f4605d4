"""A scripted agent for seeds/release-roundup.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks the three owners at once, each in a DM, then waits for all of them together (polling each in
turn, moving the clock on between rounds), and posts one roundup for Priya, the blocker first.
"""

import sys

from _colleagues import advance, channel_id, connect, find_user, wait_for_answer

OWNERS = {"maya": "Infra", "omar": "API", "alex": "Dashboard"}
ROUNDS = 10  # rounds of polling everyone still silent, a few minutes each: under an hour in all

client = connect()
sys.stdin.read()
asked = {}
for name in OWNERS:
    user = find_user(client, name=name)
    dm = client.conversations_open(users=user)["channel"]["id"]
    ts = client.chat_postMessage(
        channel=dm, text="Hi! For the 15:00 go/no-go: what is the status of your part of release 1.5.0?"
    )["ts"]
    asked[name] = (user, dm, ts)

answers: dict[str, str] = {}
for _ in range(ROUNDS):
    for name, (user, dm, ts) in asked.items():
        if name not in answers and (answer := wait_for_answer(client, dm, ts, user)) is not None:
            answers[name] = answer
    if len(answers) == len(OWNERS):
        break
    advance("2m")
else:
    sys.exit(f"no answer from {', '.join(sorted(set(OWNERS) - set(answers)))}; no roundup posted")

blocked = [OWNERS[name] for name, answer in answers.items() if "blocked" in answer.lower()]
headline = f"Blocked: {', '.join(blocked)}." if blocked else "Nothing blocks the release."
lines = [f"• {OWNERS[name]} (<@{asked[name][0]}>): {answers[name]}" for name in OWNERS]
priya = find_user(client, name="priya")
roundup = f"{headline} <@{priya}>, here is the 1.5.0 roundup for the go/no-go:\n" + "\n".join(lines)
client.chat_postMessage(channel=channel_id(client, "release-1-5"), text=roundup)
print(roundup)
