"""A scripted on-call engineer for seeds/oncall-handoff.yaml: no model, only PagerDuty's client,
slack_sdk and the world's clock.

It asks Maya in a DM to take over its open incident, waits for her answer five simulated minutes at a
time, and once she agrees reassigns the incident to her, adds a handoff note carrying the earlier
notes, and tells #incidents. The incident stays open.
"""

import sys

from _clients import pagerduty_client
from _colleagues import advance, channel_id, connect, find_user, text_of
from _oncall import my_incident, reassign

sys.stdin.read()
pd = pagerduty_client()
incident = my_incident(pd, "triggered", "acknowledged")
number = incident["incident_number"]
known = " ".join(n["content"] for n in pd.rget(f"/incidents/{incident['id']}/notes"))

slack = connect()
maya = find_user(slack, name="maya")
dm = slack.conversations_open(users=maya)["channel"]["id"]
question = f"Hi Maya, my shift is ending. Can you take over incident #{number} ({incident['title']})? So far: {known}"
asked = slack.chat_postMessage(channel=dm, text=question)["ts"]
answer = None
for _ in range(12):
    replies = [m for m in slack.conversations_history(channel=dm, oldest=asked)["messages"] if m.get("user") == maya]
    if replies:
        answer = text_of(replies[0])
        break
    advance("5m")
if answer is None or "I'll take it" not in answer:
    sys.exit(f"Maya did not take the incident: {answer}")

reassign(pd, incident, "maya@acme.test")
note = f"Handoff from Stage Bot to Maya Chen. Known so far: {known}"
pd.rpost(f"/incidents/{incident['id']}/notes", json={"note": {"content": note}})
slack.chat_postMessage(channel=channel_id(slack, "incidents"), text=f"Handoff: <@{maya}> has incident #{number} now.")
print(number)
