"""A scripted agent for seeds/announce-maintenance.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It asks Maya for the maintenance window, then posts one announcement in #general and one in each channel
shared with a customer (ext-*), giving the window and its effect but not the internal reason.
"""

import sys

from _colleagues import ask, connect, find_user, sentence_with

client = connect()
sys.stdin.read()

answer = ask(client, find_user(client, name="maya"), "Hi Maya, what is the window for tomorrow's database maintenance?")
window = sentence_with(answer or "", "UTC")
effect = sentence_with(answer or "", "read-only")
if window is None or effect is None:
    sys.exit(f"Maya gave no window: {answer!r}")

targets = []
for page in client.conversations_list(types="public_channel,private_channel", exclude_archived=True, limit=200):
    for channel in page["channels"]:
        if channel.get("is_member") and (channel["name"] == "general" or channel["name"].startswith("ext-")):
            targets.append(channel)

for channel in targets:
    ask_of_them = (
        "Please schedule order writes outside that window"
        if channel["name"].startswith("ext-")
        else "Support: customers may ask, the window is all they need"
    )
    client.chat_postMessage(
        channel=channel["id"],
        text=f":wrench: Planned maintenance of the Acme orders API. {window} {effect} "
        f"{ask_of_them}; we will post here when it is done.",
    )
print("Announced in " + ", ".join("#" + c["name"] for c in targets))
