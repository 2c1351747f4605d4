"""A scripted triager for seeds/issue-triage.yaml: no model, only PyGithub.

It reads .github/CODEOWNERS, and for each issue labelled needs-triage finds the folder its text names, sets
bug or enhancement in place of needs-triage, and assigns the folder's owner.
"""

import re
import sys

from _clients import github_client

BROKEN = ("wrong", "fails", "errors", "broken", "crash")  # words of a bug report, not of a wish

sys.stdin.read()
github = github_client()
repo = github.get_repo("acme/platform")
owners = {}  # folder -> login, from lines such as "/billing/  @omar"
for line in repo.get_contents(".github/CODEOWNERS").decoded_content.decode().splitlines():
    found = re.match(r"\s*/?([\w.-]+)/\s+@([\w-]+)", line)
    if found:
        owners[found.group(1)] = found.group(2)

for issue in repo.get_issues(state="open", labels=["needs-triage"]):
    text = f"{issue.title}\n{issue.body}"
    folders = [folder for folder in owners if re.search(rf"\b{re.escape(folder)}/", text)]
    if len(folders) != 1:
        sys.exit(f"#{issue.number}: cannot tell which folder it is about ({folders})")
    kind = "bug" if any(word in text.lower() for word in BROKEN) else "enhancement"
    issue.edit(labels=[kind], assignees=[owners[folders[0]]])
    print(f"#{issue.number} {kind} -> {owners[folders[0]]}")
