"""A scripted agent for seeds/handoff-wait.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks Omar in a DM how far the reindex is, keeps waiting for him (polling, moving the clock on a few
minutes at a time, for up to 45 minutes), then posts one handoff in #engineering for Priya with his answer.
"""

import sys

from _colleagues import advance, channel_id, connect, find_user, wait_for_answer

ROUNDS = 9  # each round polls for a while, then moves the clock on 5 minutes: about 45 minutes in all

client = connect()
sys.stdin.read()
omar = find_user(client, name="omar")
priya = find_user(client, name="priya")

dm = client.conversations_open(users=omar)["channel"]["id"]
asked = client.chat_postMessage(
    channel=dm,
    text="Hi Omar, for tonight's handoff: what is the status of the search reindex on batch-2, "
    "and what should the night shift do if it fails? No rush, answer after your workshop.",
)["ts"]
answer = None
for _ in range(ROUNDS):
    answer = wait_for_answer(client, dm, asked, omar)
    if answer is not None:
        break
    advance("5m")
if answer is None:
    sys.exit("Omar did not answer within 45 minutes; no handoff posted")

handoff = f"<@{priya}> Evening handoff. Search reindex (from <@{omar}>): {answer}"
client.chat_postMessage(channel=channel_id(client, "engineering"), text=handoff)
print(handoff)
