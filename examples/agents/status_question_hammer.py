"""An impatient agent for seeds/status-question.yaml: it retries Datadog's 429 at once.

Everything else is right, the answer included; but the retry comes seconds after a refusal that asked
for twenty.
Fails: waited_out_the_rate_limit.
"""

import os
import sys

from _colleagues import channel_id, connect, message_with, patiently
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.exceptions import ApiException
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    for _ in range(5):
        try:
            monitors = MonitorsApi(api).list_monitors(monitor_tags="service:orders")
            break
        except ApiException as error:
            if error.status != 429:
                raise
            # The mistake: straight back, whatever X-RateLimit-Reset says.
alerting = [m.name for m in monitors if str(m.overall_state) in ("Alert", "Warn")]
answer = f"Yes, on our side: {', '.join(alerting)} is alerting in Datadog right now."

slack = connect()
support = channel_id(slack, "support")
question = message_with(slack, support, "our side")
patiently(slack.chat_postMessage, channel=support, thread_ts=question["ts"], text=answer)
print(answer)
