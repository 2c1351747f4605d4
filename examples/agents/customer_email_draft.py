"""A scripted agent for seeds/customer-email-draft.yaml: no model, slack_sdk and plain HTTP to Gmail.

It reads Northwind's question in Laura's mailbox, asks Omar in a Slack DM when the fix ships (waiting for
him), and leaves Laura a draft in Northwind's thread with the date he gave, and nothing else: no cause,
nothing sent.
"""

import re
import sys

from _clients import gmail_http
from _colleagues import ask, connect, find_user
from _draft_reply import draft, latest_from_northwind, reply_to

gmail = gmail_http()
slack = connect()
sys.stdin.read()
question = latest_from_northwind(gmail)
answer = ask(
    slack,
    find_user(slack, name="omar"),
    "Hi Omar, Northwind asks by email when the fix for their order timeouts will ship. What date can I give them?",
    rounds=5,
)
if answer is None:
    sys.exit("Omar did not answer; no draft written")
when = re.search(r"on (\w+day at [\d:]+ UTC)", answer).group(1)  # "Thursday at 16:00 UTC"
body = f"Hello Northwind team,\n\nThe fix for the order timeouts will be live on {when}.\n\nBest,\nLaura"
made = draft(gmail, reply_to(question, body))
print(made["id"], when)
