"""A failing agent for seeds/meeting-slot.yaml: it books before everyone has answered.

It asks all three, but once two have answered (Maya and Kenji) it books the earliest half hour those
two share, 22:30 UTC, and tells everyone; Omar, who answers later, is not free then.
Fails: heard_from_everyone, announced_the_shared_slot, no_wrong_slot, kenji_heard_it, maya_heard_it,
omar_heard_it, waited_for_everyone.
"""

import sys

from _colleagues import ask_all, channel_id, connect, find_user

client = connect()
sys.stdin.read()
users = {name: find_user(client, name=name) for name in ["kenji", "maya", "omar"]}
# The mistake: two answers out of three are taken as enough.
answers = ask_all(client, users, "When are you free tomorrow, in UTC?", rounds=12, enough=2)
mentions = " ".join(f"<@{user}>" for user in users.values())
client.chat_postMessage(
    channel=channel_id(client, "engineering"),
    text=(
        f"{mentions} The 1.5.0 review is booked for tomorrow at 22:30 UTC "
        f"(the earliest time {' and '.join(answers)} share)."
    ),
)
print("22:30 UTC")
