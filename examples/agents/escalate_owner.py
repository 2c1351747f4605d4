"""A scripted on-call agent for seeds/escalate-owner.yaml: no model, only the official PagerDuty client and
slack_sdk (helpers in _colleagues.py).

It acknowledges its page, asks the Engineering Manager who owns the CSV exports, reassigns the incident
to that person in PagerDuty with a note, and tells them in #incidents.
"""

import re
import sys

from _clients import pagerduty_client
from _colleagues import ask, channel_id, connect, find_user

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
page = next(i for i in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}))
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})

slack = connect()
manager = find_user(slack, title="Engineering Manager")
answer = ask(slack, manager, f"Hi! I'm on call and got paged: {page['title']}. Who owns the CSV export code?")
named = re.search(r"([A-Z][a-z]+ [A-Z][a-z]+) owns", answer or "")
if named is None:
    sys.exit(f"no owner named: {answer!r}")
owner_name = named.group(1)

owner_pd = next(u for u in pd.iter_all("users", params={"query": owner_name}) if u["name"] == owner_name)
pd.rput(
    f"/incidents/{page['id']}",
    json={
        "incident": {
            "type": "incident_reference",
            "assignments": [{"assignee": {"id": owner_pd["id"], "type": "user_reference"}}],
        }
    },
)
pd.rpost(
    f"/incidents/{page['id']}/notes",
    json={"note": {"content": f"{owner_name} owns the CSV exports (per the Engineering Manager); reassigned to them."}},
)

owner_slack = find_user(slack, name=owner_name.split()[0].lower())
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"),
    text=f"<@{owner_slack}> {page['title']} is yours: I reassigned the PagerDuty incident to you "
    f"({page['html_url']}). Exports return 500 for every workspace.",
)
print(f"Reassigned {page['id']} to {owner_name}")
