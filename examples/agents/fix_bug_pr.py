"""A scripted developer for seeds/fix-bug-pr.yaml: no model, only githubkit.

It finds the open bug about case-sensitive search, branches from main, commits the fix to src/app.py on
the branch, opens a pull request that closes the issue, and links the pull request from the issue.
"""

import base64
import os
import sys

from githubkit import GitHub

sys.stdin.read()
OWNER, REPO, BRANCH, PATH = "acme", "orders", "fix-search-case", "src/app.py"
github = GitHub(os.environ["GITHUB_TOKEN"], base_url=os.environ["GITHUB_API_URL"], http_cache=False)

issues = github.rest.issues.list_for_repo(OWNER, REPO, state="open", labels="bug").parsed_data
issue = next(i for i in issues if "case-sensitive" in i.title.lower())

main = github.rest.git.get_ref(OWNER, REPO, "heads/main").parsed_data
github.rest.git.create_ref(OWNER, REPO, ref=f"refs/heads/{BRANCH}", sha=main.object_.sha)

current = github.rest.repos.get_content(OWNER, REPO, PATH, ref=BRANCH).parsed_data
text = base64.b64decode(current.content).decode()
fixed = text.replace('if query in order["reference"]', 'if query.lower() in order["reference"].lower()')
github.rest.repos.create_or_update_file_contents(
    OWNER,
    REPO,
    PATH,
    message=f"Make order search ignore case (#{issue.number})",
    content=base64.b64encode(fixed.encode()).decode(),
    sha=current.sha,
    branch=BRANCH,
)

pull = github.rest.pulls.create(
    OWNER,
    REPO,
    title="Make order search ignore case",
    head=BRANCH,
    base="main",
    body=f"Fixes #{issue.number}. Search compares references in lower case on both sides.",
).parsed_data
github.rest.issues.create_comment(OWNER, REPO, issue.number, body=f"A fix is up for review: {pull.html_url}")
print(pull.html_url)
