"""A scripted on-call engineer for seeds/latency-incident.yaml: no model, only the official PagerDuty and
Datadog clients.

It acknowledges its page, reads p99 latency by host around the time the incident was triggered, reads the
worst host's error logs, notes the host and the commonest error on the incident, resolves it, and prints
the host.
"""

import os
import sys
from collections import Counter
from datetime import datetime, timedelta

from _clients import pagerduty_client
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.metrics_api import MetricsApi
from datadog_api_client.v2.api.logs_api import LogsApi
from datadog_api_client.v2.model.logs_list_request import LogsListRequest
from datadog_api_client.v2.model.logs_list_request_page import LogsListRequestPage
from datadog_api_client.v2.model.logs_query_filter import LogsQueryFilter
from datadog_api_client.v2.model.logs_sort import LogsSort

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
mine = pd.list_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]})
incident = next(i for i in mine if "latency" in i["title"].lower())
path = f"/incidents/{incident['id']}"
pd.rput(path, json={"incident": {"type": "incident_reference", "status": "acknowledged"}})

# The hour around the page, in the world's own time (the incident says when it was triggered).
triggered = datetime.fromisoformat(incident["created_at"])
since, until = triggered - timedelta(minutes=30), triggered + timedelta(minutes=30)
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
    latency = MetricsApi(api).query_metrics(
        _from=int(since.timestamp()),
        to=int(until.timestamp()),
        query="avg:orders.latency.p99{service:orders} by {host}",
    )
    # Each point is [epoch ms, value]; the SDK wraps it in a Point whose `value` is that pair.
    worst = max(latency.series, key=lambda s: max(p.value[1] for p in s.pointlist if p.value[1] is not None))
    host = next(tag.split(":", 1)[1] for tag in worst.tag_set if tag.startswith("host:"))
    logs = LogsApi(api).list_logs(
        body=LogsListRequest(
            filter=LogsQueryFilter(query=f"service:orders host:{host} status:error", _from="now-1h", to="now"),
            sort=LogsSort.TIMESTAMP_DESCENDING,
            page=LogsListRequestPage(limit=50),
        )
    )
    errors = Counter(log.attributes.message for log in logs.data)

cause, count = errors.most_common(1)[0]
pd.rpost(
    f"{path}/notes",
    json={"note": {"content": f'p99 latency comes from {host}: {count} errors in the last hour, mostly "{cause}".'}},
)
pd.rput(path, json={"incident": {"type": "incident_reference", "status": "resolved"}})
print(host)
