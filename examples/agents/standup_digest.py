"""A scripted agent for seeds/standup-digest.yaml: no model, only slack_sdk and PyGithub.

It finds its own last digest in #standup, reads what #engineering, #support and #incidents said since then,
lists the open p1 issues of acme/orders, and posts one digest.
"""

import sys

from _clients import github_client
from _colleagues import channel_id, connect, text_of

SOURCES = ["engineering", "support", "incidents"]

slack = connect()
sys.stdin.read()
me = slack.auth_test()["user_id"]
standup = channel_id(slack, "standup")
mine = [m for m in slack.conversations_history(channel=standup, limit=100)["messages"] if m.get("user") == me]
since = max((m["ts"] for m in mine), key=float, default="0")  # yesterday's digest
names = {}
for page in slack.users_list(limit=200):
    names.update({u["id"]: u.get("real_name") or u["name"] for u in page["members"]})

lines = []
for source in SOURCES:
    recent = slack.conversations_history(channel=channel_id(slack, source), oldest=since, limit=100)
    for message in sorted(recent["messages"], key=lambda m: float(m["ts"])):
        if message.get("subtype") is None:  # written messages, not joins or topic changes
            lines.append(f"• #{source}, {names.get(message.get('user'), 'someone')}: {text_of(message)}")

github = github_client()
for issue in github.get_repo("acme/orders").get_issues(state="open", labels=["p1"]):
    owner = ", ".join(a.login for a in issue.assignees) or "unassigned"
    lines.append(f"• p1 #{issue.number} {issue.title} ({owner})")

digest = "Daily digest, since yesterday's:\n" + "\n".join(lines)
slack.chat_postMessage(channel=standup, text=digest)
print(digest)
