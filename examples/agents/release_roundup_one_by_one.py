"""A failing agent for seeds/release-roundup.yaml: it asks one owner at a time.

It asks Maya and waits for her, then Omar, then Alex; the roundup is complete and right, but the waits
add up (5 + 25 + 40 minutes) and it comes after the go/no-go has started.
Fails: before_the_go_no_go.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user

OWNERS = {"maya": "Infra", "omar": "API", "alex": "Dashboard"}

client = connect()
sys.stdin.read()
# The mistake: the next owner is asked only once this one has answered.
answers = {
    name: ask(client, find_user(client, name=name), "Hi! What is the status of your part of release 1.5.0?", rounds=20)
    for name in OWNERS
}
blocked = [OWNERS[name] for name, answer in answers.items() if "blocked" in (answer or "").lower()]
priya = find_user(client, name="priya")
roundup = f"Blocked: {', '.join(blocked)}. <@{priya}>, the 1.5.0 roundup:\n" + "\n".join(
    f"• {OWNERS[name]}: {answer}" for name, answer in answers.items()
)
client.chat_postMessage(channel=channel_id(client, "release-1-5"), text=roundup)
print(roundup)
