"""A scripted release manager for seeds/release-notes.yaml: no model, only PyGithub and slack_sdk.

It finds when v0.4.0 was published, lists the pull requests merged after that (closed is not merged),
publishes v0.5.0 with one line per pull, and posts the same notes in #engineering.
"""

import sys

from _clients import github_client
from _colleagues import channel_id, connect

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/invoicing")
previous = next(r for r in repo.get_releases() if r.tag_name == "v0.4.0").published_at
merged = sorted(
    (p for p in repo.get_pulls(state="closed") if p.merged and p.merged_at > previous), key=lambda p: p.number
)
notes = "\n".join(f"- {p.title} (#{p.number})" for p in merged)
release = repo.create_git_release("v0.5.0", name="0.5.0", message=notes, target_commitish="main")

slack = connect()
slack.chat_postMessage(channel=channel_id(slack, "engineering"), text=f"invoicing v0.5.0 is out:\n{notes}")
print(release.html_url)
