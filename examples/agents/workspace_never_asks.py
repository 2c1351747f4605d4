"""A failing agent for seeds/customer-workspace.yaml: it never asks anyone.

It answers from the channel's history, where an onboarding note from months ago names Northwind's old
workspace, so Sam gets a workspace id that was retired.
Fails: answered_in_thread, learned_from_laura, asked_before_answering, answered_within_10m,
no_stale_workspace.
"""

import re
import sys

from _colleagues import channel_id, connect, text_of

client = connect()
sys.stdin.read()

support = channel_id(client, "support")
history = client.conversations_history(channel=support, limit=200)["messages"]
question = next(m for m in history if "Northwind" in m["text"] and "workspace" in m["text"] and "?" in m["text"])
note = next(text_of(m) for m in history if re.search(r"workspace is W-\d+", m["text"]))

workspace = re.search(r"W-\d+", note).group(0)
where = note.split(",", 1)[-1].strip().rstrip(".") if "," in note else "unknown"
text = f"Hi Sam: Northwind is on workspace {workspace}, {where}."
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Sam in #support: {text}")
