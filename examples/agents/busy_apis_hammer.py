"""An impatient agent for seeds/busy-apis.yaml: it retries a Slack 429 at once, ignoring Retry-After."""

import sys

from _clients import github_client
from _colleagues import channel_id, connect
from slack_sdk.errors import SlackApiError

sys.stdin.read()
pulls = list(github_client().get_repo("acme/orders").get_pulls(state="open"))
text = "Status: open pull requests on acme/orders: " + ", ".join(f"#{p.number} {p.title}" for p in pulls)

slack = connect()
channel = channel_id(slack, "incidents")
for _ in range(5):
    try:
        slack.chat_postMessage(channel=channel, text=text)
        break
    except SlackApiError as error:
        if error.response.status_code != 429:
            raise
print(text)
