"""A triager for seeds/duplicate-issue.yaml that closes the wrong one of the pair: it keeps the fresh
report and closes the ten-day-old original (with its discussion and assignee) as its duplicate. It fails
`newest_closed_as_duplicate`, `linked_to_the_original` and `original_still_open`."""

import sys

from _clients import github_client

sys.stdin.read()
repo = github_client().get_repo("acme/mobile")
issues = sorted(repo.get_issues(state="open"), key=lambda i: i.created_at)
newest, original = issues[-1], issues[0]
original.create_comment(f"Duplicate of #{newest.number}.")
original.edit(state="closed", state_reason="duplicate")
print(newest.number)
