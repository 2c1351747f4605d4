"""A failing agent for seeds/rate-limit-exception.yaml: it asks for the exception without its grounds.

It goes straight to Kenji with Globex's request, never asking Sam what their plan allows, so Kenji has
nothing to approve it on and declines; the agent passes the refusal on to Hugo.
Fails: learned_the_plan, told_kenji_the_plan, exception_approved, answered_in_thread.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user, text_of

client = connect()
sys.stdin.read()

shared = channel_id(client, "ext-globex")
request = next(
    m for m in client.conversations_history(channel=shared, limit=20)["messages"] if "rate limit" in text_of(m)
)
kenji = find_user(client, name="kenji")
decision = ask(
    client,
    kenji,
    "Hi Kenji, Globex asks for a rate limit exception for their sale this weekend. Do you approve?",
)
if decision is None:
    sys.exit("Kenji did not answer")

reply = "Hi Hugo, sorry: we cannot raise your limit for this weekend."
if "approve 1,200" in decision.lower():
    reply = "Hi Hugo, your higher limit is approved for the weekend."
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
