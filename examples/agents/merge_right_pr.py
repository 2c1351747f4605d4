"""A scripted reviewer for seeds/merge-right-pr.yaml: no model, only PyGithub.

It finds the open pull requests that claim to fix the totals issue, reads their changed files, merges the
one that fixes the cache key without turning the cache off, and says on the other why it was not merged.
"""

import sys

from _clients import github_client

sys.stdin.read()  # the task; this agent knows what to do
github = github_client()
repo = github.get_repo("acme/orders")
issue = next(i for i in repo.get_issues(state="open") if "wrong order totals" in i.title.lower())

candidates = [p for p in repo.get_pulls(state="open") if f"#{issue.number}" in (p.body or "")]
patches = {p.number: "\n".join(f.patch or "" for f in p.get_files()) for p in candidates}
right = next(
    p
    for p in candidates
    if 'cache.get(order["id"])' in patches[p.number] and "ENABLED = False" not in patches[p.number]
)

right.merge(merge_method="merge", commit_title=f"Merge pull request #{right.number}: {right.title}")
for other in candidates:
    if other.number != right.number:
        other.create_issue_comment(
            f"Not merging this one: it turns the totals cache off. #{right.number} fixes the cache key instead."
        )
print(f"Merged #{right.number}")
