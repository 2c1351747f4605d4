"""An on-call engineer for seeds/paging-storm.yaml who silences the storm by resolving the duplicates
instead of merging them: the pages stop, but their alerts are not gathered on the incident that is kept,
and incidents were resolved by hand while the problem goes on. It fails
`duplicates_merged_into_the_oldest`, `alerts_kept` and `nothing_resolved_by_hand`."""

import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect
from _oncall import paging_storm, set_status

sys.stdin.read()
pd = pagerduty_client()
kept, *duplicates = paging_storm(pd)
resolved = [{"id": i["id"], "type": "incident_reference", "status": "resolved"} for i in duplicates]
pd.rput("/incidents", json={"incidents": resolved})
set_status(pd, kept, "acknowledged")
pd.rpost(f"/incidents/{kept['id']}/notes", json={"note": {"content": f"Resolved {len(duplicates)} duplicate pages."}})
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"), text=f"Storm handled, keeping #{kept['incident_number']}."
)
print(kept["incident_number"])
