"""A failing triager for seeds/issue-triage.yaml: it never reads CODEOWNERS.

It labels each issue correctly and clears needs-triage, but assigns each one back to whoever filed it,
as if the reporter owned the fix.
Fails: billing_bug_to_omar, dark_mode_enhancement_to_alex, staging_bug_to_maya.
"""

import sys

from _clients import github_client

BROKEN = ("wrong", "fails", "errors", "broken", "crash")

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/platform")
for issue in repo.get_issues(state="open", labels=["needs-triage"]):
    kind = "bug" if any(word in f"{issue.title}\n{issue.body}".lower() for word in BROKEN) else "enhancement"
    issue.edit(labels=[kind], assignees=[issue.user.login])  # the mistake: the reporter is not the owner
    print(f"#{issue.number} {kind} -> {issue.user.login}")
