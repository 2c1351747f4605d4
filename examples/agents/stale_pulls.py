"""A scripted maintainer for seeds/stale-pulls.yaml: no model, only PyGithub.

An open pull request is stale when it was last updated more than 30 days before now (the world's time,
read from GitHub's own `Date` header): it gets a comment mentioning its author and the `stale` label.
Nothing is closed.
"""

import sys
from datetime import timedelta

from _clients import github_client, world_now

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/dashboard")
now = world_now(github)
stale = [p for p in repo.get_pulls(state="open") if now - p.updated_at > timedelta(days=30)]
for pull in stale:
    pull.create_issue_comment(
        f"@{pull.user.login} this pull request has had no activity for over 30 days. "
        "Do you still plan to finish it? If not, feel free to close it."
    )
    pull.add_to_labels("stale")
print(" ".join(f"#{p.number}" for p in stale))
