"""A failing agent for seeds/announce-maintenance.yaml: it announces in every channel it is in.

It gets the window from Maya as it should, but posts the announcement in each channel it belongs to, so
#support, #engineering and #incidents get it too.
Fails: nowhere_else, three_announcements.
"""

import sys

from _colleagues import ask, connect, find_user, sentence_with

client = connect()
sys.stdin.read()

answer = ask(client, find_user(client, name="maya"), "Hi Maya, what is the window for tomorrow's database maintenance?")
window = sentence_with(answer or "", "UTC")
if window is None:
    sys.exit(f"Maya gave no window: {answer!r}")

posted = []
for page in client.conversations_list(types="public_channel,private_channel", exclude_archived=True, limit=200):
    for channel in page["channels"]:
        if channel.get("is_member"):  # the mistake: every channel, not the ones the task names
            client.chat_postMessage(channel=channel["id"], text=f"Planned maintenance of the orders API. {window}")
            posted.append(channel["name"])
print("Announced in " + ", ".join("#" + name for name in posted))
