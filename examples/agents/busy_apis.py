"""A patient agent for seeds/busy-apis.yaml: PyGithub retries the 502 itself; a Slack 429 is waited out
by moving the world's clock on by its Retry-After (through SOUNDSTAGE_URL/clock) before the retry."""

import sys

from _clients import github_client
from _colleagues import advance, channel_id, connect
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
        advance(f"{error.response.headers['retry-after']}s")
print(text)
