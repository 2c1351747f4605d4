"""A scripted agent for seeds/rate-limit-exception.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks Sam what Globex's plan allows, takes that justification to Kenji with the request, and answers Hugo
in his thread with Kenji's decision once he has made it.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user, sentence_with, text_of

client = connect()
sys.stdin.read()

shared = channel_id(client, "ext-globex")
request = next(
    m for m in client.conversations_history(channel=shared, limit=20)["messages"] if "rate limit" in text_of(m)
)
sam = find_user(client, name="sam")
kenji = find_user(client, name="kenji")

answer = ask(client, sam, "Hi Sam, Globex asks for a temporary burst in API traffic. What does their plan allow?")
plan = sentence_with(answer or "", "plan")
if plan is None:
    sys.exit(f"Sam did not say what the plan allows: {answer!r}")

decision = ask(
    client,
    kenji,
    "Hi Kenji, Globex asks for a rate limit exception: 1,200 instead of 600 requests a minute, Friday to "
    f"Sunday, for a sale (they asked more than 24 hours ahead). Sam says: {plan} Do you approve?",
)
if decision is None or "approve 1,200" not in decision.lower():
    sys.exit(f"Kenji did not approve: {decision!r}")

reply = (
    "Hi Hugo, good news: we have approved your rate limit of 1,200 requests a minute from Friday to Sunday. "
    "It goes back to 600 on Monday. Good luck with the sale!"
)
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
