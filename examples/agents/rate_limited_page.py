"""A scripted on-call engineer for seeds/rate-limited-page.yaml: no model, plain HTTP to PagerDuty (so it
sees each 429 and 500 itself), slack_sdk and the world's clock.

A 429 is tried again once its `ratelimit-reset` seconds of simulated time have passed; a 500 is tried
again at once, up to five times.
"""

import os
import sys

import httpx
from _colleagues import advance, channel_id, connect

pd = httpx.Client(
    base_url=os.environ["PAGERDUTY_API_URL"],
    headers={
        "Authorization": f"Token token={os.environ['PAGERDUTY_TOKEN']}",
        "Accept": "application/vnd.pagerduty+json;version=2",
        "From": os.environ["PAGERDUTY_FROM"],
    },
    timeout=30,
)


def call(method: str, path: str, **kwargs) -> dict:
    for _ in range(5):
        response = pd.request(method, path, **kwargs)
        if response.status_code == 429:
            advance(f"{response.headers['ratelimit-reset']}s")
        elif response.status_code < 500:
            break
    return response.raise_for_status().json()


sys.stdin.read()
me = call("GET", "/users/me")["user"]
page = call("GET", "/incidents", params={"statuses[]": "triggered", "user_ids[]": me["id"]})["incidents"][0]
call("PUT", f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})
note = {"note": {"content": "Looking at the orders-web deploy from this morning."}}
call("POST", f"/incidents/{page['id']}/notes", json=note)
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"), text=f"I'm on #{page['incident_number']} ({page['title']})."
)
print(page["incident_number"])
