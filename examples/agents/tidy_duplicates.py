"""A scripted agent for seeds/tidy-duplicates.yaml: no model, only slack_sdk (helpers in _colleagues.py).

It finds its own copies of the alert in #engineering, keeps the oldest (the one with Maya's thread) and
deletes the others; other people's messages are never candidates, whatever their text.
"""

import sys

from _colleagues import channel_id, connect, text_of

ALERT = "Disk usage high on batch-1 (91%)"

client = connect()
sys.stdin.read()
me = client.auth_test()["user_id"]
engineering = channel_id(client, "engineering")
mine = sorted(
    (
        m
        for m in client.conversations_history(channel=engineering, limit=200)["messages"]
        if m.get("user") == me and text_of(m) == ALERT
    ),
    key=lambda m: float(m["ts"]),
)
for copy in mine[1:]:
    client.chat_delete(channel=engineering, ts=copy["ts"])
print(f"Deleted {len(mine) - 1} duplicate alerts, kept the first ({mine[0]['ts']}).")
