"""A scripted support agent for seeds/csv-export.yaml: no model, only slack_sdk.

It reads the task on stdin, finds the open question in #support, looks for the answer in the channels it
can read, answers in the question's thread, and marks the question handled with a reaction.
"""

import html
import os
import sys

from slack_sdk import WebClient

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
task = sys.stdin.read()
me = client.auth_test()["user_id"]

channels = {}
for page in client.conversations_list(types="public_channel", exclude_archived=True, limit=100):
    for channel in page["channels"]:
        channels[channel["name"]] = channel

support = channels["support"]["id"]
history = client.conversations_history(channel=support, limit=50)["messages"]
question = next(m for m in history if m.get("user") != me and "?" in m["text"] and "export" in m["text"].lower())

# Look for what colleagues already said about the CSV export, in every channel the bot belongs to.
answer = None
for channel in channels.values():
    if not channel.get("is_member") or channel["id"] == support:
        continue
    for page in client.conversations_history(channel=channel["id"], limit=200):
        for message in page["messages"]:
            text = html.unescape(message["text"])  # Slack escapes <, > and & in message text
            if "csv export" in text.lower() and "lives under" in text:
                answer = text
                break
        if answer:
            break
    if answer:
        break

if answer is None:
    reply = "I could not find where the CSV export lives yet; I have asked the team and will follow up."
else:
    where = answer.split("lives under", 1)[-1].split(".")[0].strip()
    rest = answer.split(".", 1)[-1].strip()
    reply = f"The CSV export is under {where}. {rest}"

client.chat_postMessage(channel=support, thread_ts=question["ts"], text=reply)
client.reactions_add(channel=support, timestamp=question["ts"], name="white_check_mark")
print(f"Answered {question['ts']} in #support: {reply}")
