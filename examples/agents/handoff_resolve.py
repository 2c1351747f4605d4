"""An on-call engineer for seeds/oncall-handoff.yaml who closes its shift the wrong way: it resolves the
still-open incident with a note instead of handing it over, and never asks Maya. It fails `asked_maya`,
`maya_agreed`, `agreed_before_reassigning`, `reassigned_to_maya`, `not_resolved` and `told_incidents`."""

import sys

from _clients import pagerduty_client
from _oncall import my_incident, set_status

sys.stdin.read()
pd = pagerduty_client()
incident = my_incident(pd, "triggered", "acknowledged")
known = " ".join(n["content"] for n in pd.rget(f"/incidents/{incident['id']}/notes"))
pd.rpost(f"/incidents/{incident['id']}/notes", json={"note": {"content": f"End of shift. Known so far: {known}"}})
set_status(pd, incident, "resolved")
print(incident["incident_number"])
