"""A failing agent for seeds/meeting-slot.yaml: it announces the right slot to nobody in particular.

It waits for everyone and finds the right half hour, but posts it in #engineering without mentioning
anyone: Kenji is not even in the channel, and the others are not notified.
Fails: kenji_heard_it, maya_heard_it, omar_heard_it.
"""

import sys

from _colleagues import advance, channel_id, connect, find_user, wait_for_answer

client = connect()
sys.stdin.read()
asked = {}
for name in ["kenji", "maya", "omar"]:
    user = find_user(client, name=name)
    dm = client.conversations_open(users=user)["channel"]["id"]
    asked[name] = (user, dm, client.chat_postMessage(channel=dm, text="When are you free tomorrow, in UTC?")["ts"])

answers = {}
for _ in range(12):
    for name, (user, dm, ts) in asked.items():
        if name not in answers and (answer := wait_for_answer(client, dm, ts, user)) is not None:
            answers[name] = answer
    if len(answers) == len(asked):
        break
    advance("2m")

# 23:00 is the one slot in all three answers; the slip is in how it is announced.
client.chat_postMessage(
    channel=channel_id(client, "engineering"), text="The 1.5.0 review is booked for tomorrow at 23:00 UTC, for 30 minutes."
)
print("23:00 UTC")
