"""A careless reviewer for seeds/merge-right-pr.yaml (PyGithub): it merges the pull request that turns
the totals cache off, because its title says it fixes the wrong totals, without reading the changes."""

import sys

from _clients import github_client

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/orders")
pulls = list(repo.get_pulls(state="open"))
chosen = next(p for p in pulls if "wrong totals" in p.title.lower())
chosen.merge(merge_method="merge")
for other in pulls:
    if other.number != chosen.number:
        other.create_issue_comment(f"Superseded by #{chosen.number}.")
print(f"Merged #{chosen.number}")
