"""A scripted on-call engineer for seeds/oncall-handoff.yaml: no model, only PagerDuty's client,
slack_sdk and the world's clock.

It asks Maya in a DM to take over its open incident, waits for her answer five simulated minutes at a
time, and once she agrees reassigns the incident to her, adds a handoff note carrying the earlier
notes, and tells #incidents. The incident stays open.
"""

import sys

from _clients import pagerduty_client
from _colleagues import advance, channel_id, connect, find_user, text_of

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
incident = next(
    pd.iter_all("incidents", params={"statuses": ["triggered", "acknowledged"], "user_ids": [me["id"]]})
)
known = " ".join(n["content"] for n in pd.rget(f"/incidents/{incident['id']}/notes"))

slack = connect()
maya = find_user(slack, name="maya")
dm = slack.conversations_open(users=maya)["channel"]["id"]
asked = slack.chat_postMessage(
    channel=dm,
    text=f"Hi Maya, my shift is ending. Can you take over incident #{incident['incident_number']} "
    f"({incident['title']})? So far: {known}",
)["ts"]
answer = None
for _ in range(12):
    replies = [m for m in slack.conversations_history(channel=dm, oldest=asked)["messages"] if m.get("user") == maya]
    if replies:
        answer = text_of(replies[0])
        break
    advance("5m")
if answer is None or "I'll take it" not in answer:
    sys.exit(f"Maya did not take the incident: {answer}")

maya_pd = next(u for u in pd.iter_all("users", params={"query": "maya@acme.test"}))
pd.rput(
    f"/incidents/{incident['id']}",
    json={"incident": {"type": "incident_reference", "assignments": [{"assignee": {"id": maya_pd["id"], "type": "user_reference"}}]}},
)
pd.rpost(f"/incidents/{incident['id']}/notes", json={"note": {"content": f"Handoff from Stage Bot to Maya Chen. Known so far: {known}"}})
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"),
    text=f"Handoff: <@{maya}> has incident #{incident['incident_number']} ({incident['title']}) now.",
)
print(incident["incident_number"])
