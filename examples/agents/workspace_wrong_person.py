"""A failing agent for seeds/customer-workspace.yaml: it asks the wrong person.

It asks the support engineer (Jonas) instead of Customer Success; he does not know, and the agent tells
Sam it could not confirm the workspace.
Fails: answered_in_thread, learned_from_laura, asked_before_answering, answered_within_10m.
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
colleague = find_user(client, title="Support Engineer")

answer = ask(
    client, colleague, "Hi! For Northwind's new IT admin: which workspace are they on, and where is their data hosted?"
)
detail = sentence_with(answer or "", "W-")
text = (
    f"Hi Sam: {detail}" if detail else "Hi Sam, I could not confirm Northwind's workspace yet; I will follow up here."
)
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Sam in #support: {text}")
