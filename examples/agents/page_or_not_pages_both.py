"""A failing agent for seeds/page-or-not.yaml: it pages for every report, to be safe.

It reads the monitors and answers both reports, but it pages on-call for the slow dashboard too, which no
monitor confirms: an engineer is woken for nothing.
Fails: one_page, no_page_for_slowness, told_jonas_no_page.
"""

import os
import sys

from _clients import pagerduty_client
from _colleagues import channel_id, connect, text_of
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    alerting = [
        m.name for m in MonitorsApi(api).list_monitors(monitor_tags="service:orders") if str(m.overall_state) == "Alert"
    ]

slack = connect()
support = channel_id(slack, "support")
pd = pagerduty_client()
service = next(s for s in pd.iter_all("services", params={"query": "Orders API"}) if s["name"] == "Orders API")
for report in slack.conversations_history(channel=support, limit=50)["messages"]:
    text = text_of(report)
    if "page on-call" not in text:
        continue
    # The mistake: paging is the default, whatever the monitors say.
    title = (
        "Orders error count alerting: HTTP 500s creating orders"
        if "500" in text
        else "Orders dashboard slow for Globex"
    )
    pd.rpost(
        "/incidents",
        json={
            "incident": {
                "type": "incident",
                "title": title,
                "service": {"id": service["id"], "type": "service_reference"},
            }
        },
    )
    answer = f"Paged on-call to be safe. Alerting in Datadog: {', '.join(alerting)}."
    slack.chat_postMessage(channel=support, thread_ts=report["ts"], text=answer)
print("Paged for both reports.")
