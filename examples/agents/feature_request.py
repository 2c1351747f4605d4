"""A scripted agent for seeds/feature-request.yaml: no model, only slack_sdk and PyGithub.

It reads the customer's request, finds the feature's issue in acme/product-feedback and comments there
with the customer and their use case (filing an issue only when there is none), asks Kenji what the
customer may be told, waiting for him, and answers with that alone.
"""

import re
import sys

from _clients import github_client
from _colleagues import ask, channel_id, connect, find_user, message_with, sentence_with, text_of

client = connect()
sys.stdin.read()
shared = channel_id(client, "ext-globex")
request = message_with(client, shared, "support")
text = text_of(request)
feature = re.search(r"exporting orders to (\w+)", text).group(1)  # "Excel"
use = sentence_with(text, "use it for") or text

repo = github_client().get_repo("acme/product-feedback")
issue = next((i for i in repo.get_issues(state="open") if feature.lower() in i.title.lower()), None)
if issue is None:
    issue = repo.create_issue(
        title=f"Export orders as {feature}", body=f"Asked by Globex. {use}", labels=["feature-request"]
    )
else:
    issue.create_comment(f"Globex (Hugo Brandt) asks for this too. {use}")

answer = ask(
    client,
    find_user(client, name="kenji"),
    f"Hi Kenji, Globex asks for {feature} export of orders (I added them to acme/product-feedback#{issue.number}). "
    "What can we tell the customer about it?",
    rounds=5,
)
if answer is None:
    sys.exit("Kenji did not answer; nothing told to the customer")
line = re.sub(r"^You can tell them\s*", "", answer)
reply = f"Hi Hugo, thanks for the request! {line[0].upper()}{line[1:]}"
client.chat_postMessage(channel=shared, thread_ts=request["ts"], text=reply)
print(reply)
