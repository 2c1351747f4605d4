"""A failing agent for seeds/feature-request.yaml: it files the request again.

It never looks for an existing issue and files a new one; everything it tells the customer is right
(it asks Kenji and waits for him), but the feedback tracker now has two Excel requests, and the
existing one never hears of Globex.
Fails: no_duplicate_issue, commented_with_the_use_case, comment_names_globex.
"""

import sys

from _clients import github_client
from _colleagues import ask, channel_id, connect, find_user, message_with

client = connect()
sys.stdin.read()
shared = channel_id(client, "ext-globex")
request = message_with(client, shared, "support")
github_client().get_repo("acme/product-feedback").create_issue(
    title="Excel export of orders", body="Globex wants it for their monthly reconciliation.", labels=["feature-request"]
)
answer = ask(
    client,
    find_user(client, name="kenji"),
    "Hi Kenji, Globex asks for Excel export. What can we tell the customer?",
    rounds=5,
)
reply = f"Hi Hugo, thanks! {answer}"
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
