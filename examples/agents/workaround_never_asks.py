"""A failing agent for seeds/workaround.yaml: it never asks anyone.

It reads what #engineering says about the E413 errors and relays that, so Jonas learns the cause but
neither the workaround (Omar shares it only when asked) nor the ETA.
Fails: answered_with_workaround, answered_with_eta, asked_omar, followed_the_referral,
asked_before_answering, answered_within_15m.
"""

import sys

from _colleagues import channel_id, connect, text_of

client = connect()
sys.stdin.read()

support = channel_id(client, "support")
engineering = channel_id(client, "engineering")
question = next(m for m in client.conversations_history(channel=support, limit=50)["messages"] if "E413" in m["text"])
note = next(m for m in client.conversations_history(channel=engineering, limit=100)["messages"] if "E413" in m["text"])

cause = text_of(note).split("Root cause is", 1)[-1].split(";")[0].strip()
text = (
    f"Engineering knows about the E413 import failures: the cause is {cause}. "
    "A fix is being worked on; I will update this thread."
)
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Jonas in #support: {text}")
