"""A scripted agent for seeds/customer-workspace.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It finds Sam's question in #support, asks the Customer Success lead (found by title in the user list) for
Northwind's workspace and hosting, and answers Sam in the thread with what she says.
"""

import sys

from _colleagues import ask, channel_id, connect, find_user, sentence_with

client = connect()
sys.stdin.read()

support = channel_id(client, "support")
question = next(
    m
    for m in client.conversations_history(channel=support, limit=50)["messages"]
    if "Northwind" in m["text"] and "workspace" in m["text"] and "?" in m["text"]
)
owner = find_user(client, title="Customer Success")

answer = ask(
    client, owner, "Hi! For Northwind's new IT admin: which workspace are they on, and where is their data hosted?"
)
detail = sentence_with(answer or "", "W-")
text = (
    f"Hi Sam: {detail}" if detail else "Hi Sam, I could not confirm Northwind's workspace yet; I will follow up here."
)
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Sam in #support: {text}")
