"""A failing release manager for seeds/release-notes.yaml: it takes closed for merged.

It lists the pull requests closed since v0.4.0 without asking whether they were merged, so the notes (and
the Slack post) announce the GraphQL experiment that was abandoned.
Fails: notes_skip_the_unmerged, announcement_skips_the_unmerged.
"""

import sys

from _clients import github_client
from _colleagues import channel_id, connect

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/invoicing")
previous = next(r for r in repo.get_releases() if r.tag_name == "v0.4.0").published_at
shipped = sorted(  # the mistake: closed_at, not merged
    (p for p in repo.get_pulls(state="closed") if p.closed_at > previous), key=lambda p: p.number
)
notes = "\n".join(f"- {p.title} (#{p.number})" for p in shipped)
release = repo.create_git_release("v0.5.0", name="0.5.0", message=notes, target_commitish="main")

slack = connect()
slack.chat_postMessage(channel=channel_id(slack, "engineering"), text=f"invoicing v0.5.0 is out:\n{notes}")
print(release.html_url)
