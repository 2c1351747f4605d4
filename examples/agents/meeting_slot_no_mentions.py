"""A failing agent for seeds/meeting-slot.yaml: it announces the right slot to nobody in particular.

It waits for everyone and books the right half hour, but posts it in #engineering without mentioning
anyone: Kenji is not even in the channel, and the others are not notified.
Fails: kenji_heard_it, maya_heard_it, omar_heard_it.
"""

import sys

from _colleagues import ask_all, channel_id, connect, find_user

client = connect()
sys.stdin.read()
users = {name: find_user(client, name=name) for name in ["kenji", "maya", "omar"]}
answers = ask_all(client, users, "When are you free tomorrow, in UTC?", rounds=12)
if len(answers) < len(users):
    sys.exit("not everyone answered")
# 23:00 is the one slot in all three answers; the slip is in how it is announced.
client.chat_postMessage(
    channel=channel_id(client, "engineering"),
    text="The 1.5.0 review is booked for tomorrow at 23:00 UTC, for 30 minutes.",
)
print("23:00 UTC")
