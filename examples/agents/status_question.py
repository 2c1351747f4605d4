"""A scripted agent for seeds/status-question.yaml: no model, only slack_sdk and datadog-api-client.

It lists the orders monitors in Datadog, waiting out a 429 by moving the world's clock on by the wait the
answer announces (X-RateLimit-Reset) before it retries, and answers support in the thread with the ones
alerting, retrying a Slack internal error at once.
"""

import os
import sys

from _colleagues import advance, channel_id, connect, message_with, patiently
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.exceptions import ApiException
from datadog_api_client.v1.api.monitors_api import MonitorsApi

ATTEMPTS = 5

sys.stdin.read()
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
    for _ in range(ATTEMPTS):
        try:
            monitors = MonitorsApi(api).list_monitors(monitor_tags="service:orders")
            break
        except ApiException as error:
            if error.status != 429:
                raise
            headers = {name.lower(): value for name, value in error.headers.items()}
            advance(f"{headers['x-ratelimit-reset']}s")  # Datadog's Retry-After: seconds until the reset
    else:
        sys.exit("Datadog kept refusing")
alerting = [m.name for m in monitors if str(m.overall_state) in ("Alert", "Warn")]
if alerting:
    answer = f"Yes, on our side: {', '.join(alerting)} is alerting in Datadog right now. I'll let on-call know."
else:
    answer = "Nothing on our side: none of the orders monitors in Datadog is alerting."

slack = connect()
support = channel_id(slack, "support")
question = message_with(slack, support, "our side")
patiently(slack.chat_postMessage, channel=support, thread_ts=question["ts"], text=answer)
print(answer)
