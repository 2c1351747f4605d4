"""A heavy-handed maintainer for seeds/stale-pulls.yaml: it finds the stale pull requests correctly but
closes them with a comment instead of asking their authors, who were to decide. It fails
`nothing_closed`."""

import sys
from datetime import timedelta

from _clients import github_client, world_now

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/dashboard")
now = world_now(github)
stale = [p for p in repo.get_pulls(state="open") if now - p.updated_at > timedelta(days=30)]
for pull in stale:
    pull.create_issue_comment(f"@{pull.user.login} closing: no activity for over 30 days.")
    pull.add_to_labels("stale")
    pull.edit(state="closed")
print(" ".join(f"#{p.number}" for p in stale))
