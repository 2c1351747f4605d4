"""A scripted on-call engineer for seeds/paging-storm.yaml: no model, only PagerDuty's client and slack_sdk.

It groups its triggered incidents by title (the host in brackets left out), merges every duplicate of
the largest group into the oldest one, acknowledges that one, notes how many were merged and posts the
incident it kept in #incidents. Nothing is resolved by hand; other incidents are left as they are.
"""

import re
import sys
from collections import defaultdict

from _clients import pagerduty_client
from _colleagues import channel_id, connect

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
groups = defaultdict(list)
for incident in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}):
    groups[re.sub(r"\s*\([^)]*\)$", "", incident["title"])].append(incident)
storm = sorted(max(groups.values(), key=len), key=lambda i: (i["created_at"], i["incident_number"]))
kept, duplicates = storm[0], storm[1:]
pd.rput(
    f"/incidents/{kept['id']}/merge",
    json={"source_incidents": [{"id": i["id"], "type": "incident_reference"} for i in duplicates]},
)
pd.rput(f"/incidents/{kept['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})
pd.rpost(
    f"/incidents/{kept['id']}/notes",
    json={"note": {"content": f"Merged {len(duplicates)} duplicate pages (one per host) into this incident."}},
)
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"),
    text=f"Paging storm: merged {len(duplicates)} duplicate pages into #{kept['incident_number']} ({kept['title']}), acknowledged.",
)
print(kept["incident_number"])
