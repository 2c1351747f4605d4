"""A scripted triager for seeds/duplicate-issue.yaml: no model, only PyGithub.

It takes the newest open issue, finds an older open issue with the same label whose text shares the
most words with it (here: crash, order, lines/items...), links the older one from the newest, and closes
the newest as a duplicate. The older issue is left as it is.
"""

import re
import sys

from _clients import github_client

WORDS = re.compile(r"[a-z]+")
COMMON = {"the", "a", "an", "on", "in", "it", "of", "with", "no", "and", "when", "is", "that", "app", "to", "at", "by"}


def words(issue) -> set[str]:
    return set(WORDS.findall(f"{issue.title} {issue.body}".lower())) - COMMON


sys.stdin.read()
repo = github_client().get_repo("acme/mobile")
issues = sorted(repo.get_issues(state="open"), key=lambda i: i.created_at)
newest, older = issues[-1], issues[:-1]
labels = {label.name for label in newest.labels}
candidates = [i for i in older if labels & {label.name for label in i.labels}]
original = max(candidates, key=lambda i: len(words(i) & words(newest)))
newest.create_comment(
    f"Duplicate of #{original.number}: the same crash on orders without lines. Please follow it there."
)
newest.edit(state="closed", state_reason="duplicate")
print(original.number)
