"""A failing agent for seeds/page-or-not.yaml: it never pages.

It reads the monitors and answers both reports with what they show, but pages nobody, not even for the
HTTP 500s the error count monitor confirms.
Fails: looked_before_paging, paged_for_the_errors, one_page.
"""

import os
import sys

from _colleagues import channel_id, connect, text_of
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    monitors = MonitorsApi(api).list_monitors(monitor_tags="service:orders")
states = ", ".join(f"{m.name}: {m.overall_state}" for m in monitors)

slack = connect()
support = channel_id(slack, "support")
for report in slack.conversations_history(channel=support, limit=50)["messages"]:
    if "page on-call" in text_of(report):
        # The mistake: the evidence is read and reported, but nobody is paged for it.
        slack.chat_postMessage(
            channel=support, thread_ts=report["ts"], text=f"Datadog shows {states}. I did not page anyone."
        )
print(states)
