"""A maintainer for seeds/stale-pulls.yaml who takes age for staleness: it pings and labels every open
pull request opened more than 30 days ago, so the one opened 40 days ago but worked on this week gets
nagged too. It fails `labeled_the_stale_ones`, `active_pulls_left_alone` and `printed_the_stale_ones`."""

import sys
from datetime import timedelta

from _clients import github_client, world_now

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/dashboard")
now = world_now(github)
old = [p for p in repo.get_pulls(state="open") if now - p.created_at > timedelta(days=30)]
for pull in old:
    pull.create_issue_comment(f"@{pull.user.login} this pull request is over 30 days old. Still planning to finish it?")
    pull.add_to_labels("stale")
print(" ".join(f"#{p.number}" for p in old))
