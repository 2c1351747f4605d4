"""A failing agent for seeds/release-roundup.yaml: it does not wait for everyone.

It asks all three at once, as it should, but posts the roundup as soon as the first answer is in,
marking the other two as "no answer yet".
Fails: heard_from_everyone, roundup_carries_all, priya_told_the_blocker, waited_for_everyone,
before_the_go_no_go, blocker_first.
"""

import sys

from _colleagues import channel_id, connect, find_user, wait_for_answer

OWNERS = {"maya": "Infra", "omar": "API", "alex": "Dashboard"}

client = connect()
sys.stdin.read()
asked = {}
for name in OWNERS:
    user = find_user(client, name=name)
    dm = client.conversations_open(users=user)["channel"]["id"]
    asked[name] = (user, dm, client.chat_postMessage(channel=dm, text="Status of your part of 1.5.0?")["ts"])

# Only the first round of polling: Maya answers in it, the others are still busy.
answers = {name: wait_for_answer(client, dm, ts, user) for name, (user, dm, ts) in asked.items()}
priya = find_user(client, name="priya")
roundup = f"<@{priya}>, the 1.5.0 roundup:\n" + "\n".join(
    f"• {OWNERS[name]}: {answer or 'no answer yet'}" for name, answer in answers.items()
)
client.chat_postMessage(channel=channel_id(client, "release-1-5"), text=roundup)
print(roundup)
