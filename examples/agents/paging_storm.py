"""A scripted on-call engineer for seeds/paging-storm.yaml: no model, only PagerDuty's client and slack_sdk.

It takes the paging storm (its triggered incidents sharing a title but for the host), merges every
duplicate into the oldest one, acknowledges that one, notes how many were merged and posts the incident
it kept in #incidents. Nothing is resolved by hand; other incidents are left as they are.
"""

import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect
from _oncall import paging_storm, set_status

sys.stdin.read()
pd = pagerduty_client()
kept, *duplicates = paging_storm(pd)
sources = [{"id": i["id"], "type": "incident_reference"} for i in duplicates]
pd.rput(f"/incidents/{kept['id']}/merge", json={"source_incidents": sources})
set_status(pd, kept, "acknowledged")
note = f"Merged {len(duplicates)} duplicate pages (one per host) into this incident."
pd.rpost(f"/incidents/{kept['id']}/notes", json={"note": {"content": note}})
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"),
    text=f"Paging storm: merged {len(duplicates)} duplicate pages into #{kept['incident_number']} ({kept['title']}).",
)
print(kept["incident_number"])
