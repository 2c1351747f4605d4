"""A failing agent for seeds/standup-digest.yaml: it reads whole channel histories, not what is new.

It covers the right channels and the p1 bugs, but without starting from yesterday's digest it repeats
news that digest already had, such as the 4.12 deploy.
Fails: no_stale_news.
"""

import sys

from _clients import github_client
from _colleagues import channel_id, connect, text_of

slack = connect()
sys.stdin.read()
lines = []
for source in ["engineering", "support", "incidents"]:
    history = slack.conversations_history(channel=channel_id(slack, source), limit=100)  # the mistake: no `oldest`
    for message in sorted(history["messages"], key=lambda m: float(m["ts"])):
        if message.get("subtype") is None:
            lines.append(f"• #{source}: {text_of(message)}")

github = github_client()
for issue in github.get_repo("acme/orders").get_issues(state="open", labels=["p1"]):
    lines.append(f"• p1 #{issue.number} {issue.title}")

digest = "Daily digest:\n" + "\n".join(lines)
slack.chat_postMessage(channel=channel_id(slack, "standup"), text=digest)
print(digest)
