"""A failing agent for seeds/meeting-slot.yaml: it books before everyone has answered.

It asks all three, but after two answers (Maya's and Kenji's) it books the earliest half hour those two
share, 22:30 UTC, and tells everyone; Omar, who answers later, is not free then.
Fails: heard_from_everyone, announced_the_shared_slot, no_wrong_slot, kenji_heard_it, maya_heard_it,
omar_heard_it, waited_for_everyone.
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
    if len(answers) >= 2:  # the mistake: two out of three is taken as enough
        break
    advance("2m")

mentions = " ".join(f"<@{user}>" for user, _, _ in asked.values())
client.chat_postMessage(
    channel=channel_id(client, "engineering"),
    text=f"{mentions} The 1.5.0 review is booked for tomorrow at 22:30 UTC (the earliest time {' and '.join(answers)} share).",
)
print("22:30 UTC")
