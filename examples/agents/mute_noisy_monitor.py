"""A scripted on-call engineer for seeds/mute-noisy-monitor.yaml: no model, only datadog-api-client.

It finds the batch disk monitor, learns the world's time from the `Date` header Datadog answers with, and
schedules a downtime for that monitor scoped to batch-1, from now for two hours, saying why. It prints
the downtime's id.
"""

import os
import sys
from datetime import timedelta
from email.utils import parsedate_to_datetime

from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.authentication_api import AuthenticationApi
from datadog_api_client.v1.api.monitors_api import MonitorsApi
from datadog_api_client.v2.api.downtimes_api import DowntimesApi
from datadog_api_client.v2.model.downtime_create_request import DowntimeCreateRequest
from datadog_api_client.v2.model.downtime_create_request_attributes import DowntimeCreateRequestAttributes
from datadog_api_client.v2.model.downtime_create_request_data import DowntimeCreateRequestData
from datadog_api_client.v2.model.downtime_monitor_identifier_id import DowntimeMonitorIdentifierId
from datadog_api_client.v2.model.downtime_resource_type import DowntimeResourceType
from datadog_api_client.v2.model.downtime_schedule_one_time_create_update_request import (
    DowntimeScheduleOneTimeCreateUpdateRequest,
)

sys.stdin.read()
config = Configuration(host=os.environ["DATADOG_API_URL"])  # keys from DD_API_KEY, DD_APP_KEY
with ApiClient(config) as api:
    config.return_http_data_only = False  # this once: the answer's headers say what time it is
    _, _, headers = AuthenticationApi(api).validate()
    config.return_http_data_only = True
    now = parsedate_to_datetime(headers["date"])  # the client gives header names in lower case

    monitor = next(m for m in MonitorsApi(api).list_monitors(name="Disk usage high") if "batch" in m.name)
    downtime = DowntimesApi(api).create_downtime(
        body=DowntimeCreateRequest(
            data=DowntimeCreateRequestData(
                type=DowntimeResourceType.DOWNTIME,
                attributes=DowntimeCreateRequestAttributes(
                    scope="host:batch-1",
                    monitor_identifier=DowntimeMonitorIdentifierId(monitor_id=monitor.id),
                    schedule=DowntimeScheduleOneTimeCreateUpdateRequest(start=now, end=now + timedelta(hours=2)),
                    message="Planned reindex on batch-1 fills its disk for two hours.",
                ),
            )
        )
    )
print(downtime.data.id)
