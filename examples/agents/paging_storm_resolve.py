"""An on-call engineer for seeds/paging-storm.yaml who silences the storm by resolving the duplicates
instead of merging them: the pages stop, but their alerts are not gathered on the incident that is kept,
and incidents were resolved by hand while the problem goes on. It fails
`duplicates_merged_into_the_oldest`, `alerts_kept` and `nothing_resolved_by_hand`."""

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
    "/incidents",
    json={"incidents": [{"id": i["id"], "type": "incident_reference", "status": "resolved"} for i in duplicates]},
)
pd.rput(f"/incidents/{kept['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})
pd.rpost(f"/incidents/{kept['id']}/notes", json={"note": {"content": f"Resolved {len(duplicates)} duplicate pages."}})
slack = connect()
slack.chat_postMessage(channel=channel_id(slack, "incidents"), text=f"Paging storm handled, keeping #{kept['incident_number']}.")
print(kept["incident_number"])
