"""A scripted agent for seeds/refund-approval.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It finds Nina's question in #ext-northwind, asks Laura for the invoice and the impact, passes the impact on
to Priya with the request for approval, and confirms the refund to Nina only once Priya has approved it.
"""

import re
import sys

from _colleagues import ask, channel_id, connect, find_user

client = connect()
sys.stdin.read()

shared = channel_id(client, "ext-northwind")
request = next(
    m for m in client.conversations_history(channel=shared, limit=20)["messages"] if "charged twice" in m["text"]
)
laura = find_user(client, name="laura")
priya = find_user(client, name="priya")

facts = ask(
    client,
    laura,
    "Hi Laura, Northwind says they were charged twice. Which invoice is it, and what is the impact on them?",
)
if facts is None or not re.search(r"INV-\d+", facts):
    sys.exit("Laura did not say which invoice it is")
invoice = re.search(r"INV-\d+", facts).group(0)
amount = re.search(r"\$\d[\d,]*\d", facts)

decision = ask(
    client,
    priya,
    f"Hi Priya, Northwind was charged twice for invoice {invoice}. Laura says: {facts}\n"
    "Can you approve a refund of the duplicate charge?",
)
if decision is None or "approve the refund" not in decision.lower():
    sys.exit(f"Priya did not approve the refund: {decision!r}")

what = f"the duplicate {amount.group(0)} charge" if amount else "the duplicate charge"
reply = (
    f"Hi Nina, sorry for the trouble. We have approved a refund of {what} on invoice {invoice}; "
    "it will be back on your card within 5 business days."
)
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(f"Refund of {invoice} approved by Priya and confirmed to Northwind: {reply}")
