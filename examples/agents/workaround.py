"""A scripted agent for seeds/workaround.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It finds Jonas's question in #support and, in #engineering, who is working on the error; it asks that
engineer (Omar) for a workaround and the fix's ETA, follows his referral to whoever knows the ETA (Maya),
and answers Jonas in the thread with both.
"""

import re
import sys

from _colleagues import ask, channel_id, connect, mentioned_users, sentence_with

client = connect()
sys.stdin.read()

support = channel_id(client, "support")
engineering = channel_id(client, "engineering")
question = next(m for m in client.conversations_history(channel=support, limit=50)["messages"] if "E413" in m["text"])
note = next(m for m in client.conversations_history(channel=engineering, limit=100)["messages"] if "E413" in m["text"])
engineer = note["user"]

answer = ask(
    client,
    engineer,
    "Hi, Globex's bulk order import fails with error E413 on files over 10k rows. "
    "Is there a workaround they can use today? And when will it be fixed?",
)
if answer is None:
    sys.exit("no answer from the engineer on the E413 errors")
workaround = sentence_with(answer, "workaround")
if workaround:
    workaround = re.sub(r"(?i)^workaround:\s*", "", workaround)
eta = sentence_with(answer, "ship", "release")

if eta is None:  # not their part: follow whoever they point to
    for colleague in mentioned_users(answer):
        if colleague == engineer:
            continue
        reply = ask(client, colleague, "Hi, I was sent to you: when will the fix for the E413 bulk import errors ship?")
        eta = sentence_with(reply or "", "ship", "release")
        if eta:
            break

parts = [f"For Globex, until the fix is out: {workaround}" if workaround else "No workaround yet, sorry."]
parts.append(eta or "No ETA for the fix yet.")
text = " ".join(parts)
client.chat_postMessage(channel=support, thread_ts=question["ts"], text=text)
print(f"Answered Jonas in #support: {text}")
