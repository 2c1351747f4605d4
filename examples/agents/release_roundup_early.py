"""A failing agent for seeds/release-roundup.yaml: it does not wait for everyone.

It asks all three at once, as it should, but posts the roundup after a single round of polling, with
Maya's answer only, marking the other two as "no answer yet".
Fails: heard_from_everyone, roundup_carries_all, priya_told_the_blocker, waited_for_everyone,
before_the_go_no_go, blocker_first.
"""

import sys

from _colleagues import ask_all, channel_id, connect, find_user

OWNERS = {"maya": "Infra", "omar": "API", "alex": "Dashboard"}

client = connect()
sys.stdin.read()
users = {name: find_user(client, name=name) for name in OWNERS}
answers = ask_all(client, users, "Status of your part of 1.5.0?", rounds=1)  # the mistake: one round
priya = find_user(client, name="priya")
roundup = f"<@{priya}>, the 1.5.0 roundup:\n" + "\n".join(
    f"• {OWNERS[name]}: {answers.get(name, 'no answer yet')}" for name in OWNERS
)
client.chat_postMessage(channel=channel_id(client, "release-1-5"), text=roundup)
print(roundup)
