"""A deliberately careless agent for seeds/csv-export.yaml, to show how failures are explained.

It answers from memory in the channel instead of the thread, gets the location wrong, tries to edit the
customer's question, and never marks it handled.
"""

import os
import sys

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
sys.stdin.read()

support = next(c["id"] for c in client.conversations_list(limit=200)["channels"] if c["name"] == "support")
question = client.conversations_history(channel=support, limit=1)["messages"][0]

client.chat_postMessage(channel=support, text="You can find the CSV export under Settings > Data.")
try:
    client.chat_update(channel=support, ts=question["ts"], text=question["text"] + " (answered)")
except SlackApiError as exc:
    print(f"could not edit the question: {exc.response['error']}", file=sys.stderr)
print("Done.")
