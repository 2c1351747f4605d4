"""A scripted incident agent for seeds/incident-channel.yaml: no model, only slack_sdk."""

import os
import sys

from slack_sdk import WebClient

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
sys.stdin.read()

groups = client.usergroups_list(include_users=True)["usergroups"]
oncall = next(g for g in groups if g["handle"] == "oncall")

created = client.conversations_create(name="inc-globex-search", is_private=False)["channel"]
channel = created["id"]
client.conversations_invite(channel=channel, users=",".join(oncall["users"]))
client.conversations_setTopic(channel=channel, topic="Globex: slow order search")
client.chat_postMessage(
    channel=channel,
    text="Incident declared: Globex sees slow order search since this morning (reported by Jonas in #support).",
)

incidents = next(
    c["id"]
    for page in client.conversations_list(types="public_channel", limit=100)
    for c in page["channels"]
    if c["name"] == "incidents"
)
client.chat_postMessage(
    channel=incidents, text=f"New incident: Globex slow order search. Follow along in <#{channel}>."
)
print(channel)
