"""A failing on-call agent for seeds/escalate-owner.yaml: it escalates instead of finding the owner.

It acknowledges the page, then hands it to the policy's next level (Omar) with `escalation_level: 2`
and tells Omar in #incidents; it never asks who owns the exports.
Fails: learned_the_owner, reassigned_to_owner, asked_before_reassigning, note_names_the_owner,
owner_told_in_incidents.
"""

import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect, find_user

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
page = next(i for i in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}))
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})
# The mistake: the next level of the policy is whoever is on call there, not whoever owns the code.
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "escalation_level": 2}})
pd.rpost(f"/incidents/{page['id']}/notes", json={"note": {"content": "Not my area: escalated to level 2."}})

slack = connect()
omar = find_user(slack, name="omar")
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"), text=f"<@{omar}> escalated {page['title']} to you, not my area."
)
print(f"Escalated {page['id']} to level 2")
