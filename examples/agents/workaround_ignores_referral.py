"""A failing agent for seeds/workaround.yaml: it asks the right engineer but ignores his referral.

Omar gives the workaround and says to ask Maya about the ETA; this agent answers Jonas with the
workaround and "no ETA yet" instead of asking Maya.
Fails: followed_the_referral, answered_with_eta.
"""

import re
import sys

from _colleagues import ask, channel_id, connect, sentence_with

client = connect()
sys.stdin.read()

support = channel_id(client, "support")
engineering = channel_id(client, "engineering")
question = next(m for m in client.conversations_history(channel=support, limit=50)["messages"] if "E413" in m["text"])
note = next(m for m in client.conversations_history(channel=engineering, limit=100)["messages"] if "E413" in m["text"])

answer = ask(
    client,
    note["user"],
    "Hi, Globex's bulk order import fails with error E413 on files over 10k rows. "
    "Is there a workaround they can use today? And when will it be fixed?",
)
workaround = re.sub(r"(?i)^workaround:\s*", "", sentence_with(answer or "", "workaround") or "")
text = f"For Globex, until the fix is out: {workaround} There is no ETA for the fix yet."
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Jonas in #support: {text}")
