"""A scripted agent for seeds/page-or-not.yaml: no model, only slack_sdk, datadog-api-client and the
PagerDuty client.

It reads the orders monitors, matches each report in #support to the monitor that would confirm it
(slowness: latency; HTTP 500s: errors), pages once for each report whose monitor alerts, and answers each
report in its thread.
"""

import os
import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect, text_of
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

CONFIRMED_BY = {"slow": "latency", "500": "error"}  # a word of the report -> a word of the monitor's name

sys.stdin.read()
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    monitors = MonitorsApi(api).list_monitors(monitor_tags="service:orders")

slack = connect()
support = channel_id(slack, "support")
pd = pagerduty_client()
service = next(s for s in pd.iter_all("services", params={"query": "Orders API"}) if s["name"] == "Orders API")
for report in slack.conversations_history(channel=support, limit=50)["messages"]:
    text = text_of(report)
    if "page on-call" not in text:
        continue
    word = next(w for w in CONFIRMED_BY if w in text)
    monitor = next(m for m in monitors if CONFIRMED_BY[word] in m.name.lower())
    state = str(monitor.overall_state)
    if state in ("Alert", "Warn"):
        incident = pd.rpost(
            "/incidents",
            json={
                "incident": {
                    "type": "incident",
                    "title": f"{monitor.name} alerting: customers report HTTP 500s creating orders",
                    "service": {"id": service["id"], "type": "service_reference"},
                    "urgency": "high",
                }
            },
        )
        answer = (
            f"{monitor.name} is in {state} in Datadog, so I paged on-call (PagerDuty #{incident['incident_number']})."
        )
    else:
        answer = f"{monitor.name} is {state} in Datadog and no orders monitor confirms it, so I did not page anyone."
    slack.chat_postMessage(channel=support, thread_ts=report["ts"], text=answer)
    print(answer)
