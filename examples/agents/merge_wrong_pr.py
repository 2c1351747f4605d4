"""A careless reviewer for seeds/merge-right-pr.yaml (PyGithub): it merges the pull request that turns
the totals cache off, because its title says it fixes the wrong totals, without reading the changes."""

import os
import sys

from github import Auth, Github

sys.stdin.read()
github = Github(
    auth=Auth.Token(os.environ["GITHUB_TOKEN"]),
    base_url=os.environ["GITHUB_API_URL"],
    seconds_between_requests=0,
    seconds_between_writes=0,
)
repo = github.get_repo("acme/orders")
pulls = list(repo.get_pulls(state="open"))
chosen = next(p for p in pulls if "wrong totals" in p.title.lower())
chosen.merge(merge_method="merge")
for other in pulls:
    if other.number != chosen.number:
        other.create_issue_comment(f"Superseded by #{chosen.number}.")
print(f"Merged #{chosen.number}")
