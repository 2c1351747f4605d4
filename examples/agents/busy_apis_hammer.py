"""An impatient agent for seeds/busy-apis.yaml: it retries a Slack 429 at once, ignoring Retry-After."""

import os
import sys

from github import Auth, Github
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

sys.stdin.read()
github = Github(auth=Auth.Token(os.environ["GITHUB_TOKEN"]), base_url=os.environ["GITHUB_API_URL"])
pulls = list(github.get_repo("acme/orders").get_pulls(state="open"))
text = "Status: open pull requests on acme/orders: " + ", ".join(f"#{p.number} {p.title}" for p in pulls)

slack = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
channel = next(c["id"] for c in slack.conversations_list(limit=200)["channels"] if c["name"] == "incidents")
for _ in range(5):
    try:
        slack.chat_postMessage(channel=channel, text=text)
        break
    except SlackApiError as error:
        if error.response.status_code != 429:
            raise
print(text)
