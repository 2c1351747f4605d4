"""A hasty developer for seeds/fix-bug-pr.yaml (githubkit): it commits the fix straight to main, with
no branch and no pull request, and tells the issue so."""

import base64
import os
import sys

from githubkit import GitHub

sys.stdin.read()
OWNER, REPO, PATH = "acme", "orders", "src/app.py"
github = GitHub(os.environ["GITHUB_TOKEN"], base_url=os.environ["GITHUB_API_URL"], http_cache=False)

issues = github.rest.issues.list_for_repo(OWNER, REPO, state="open", labels="bug").parsed_data
issue = next(i for i in issues if "case-sensitive" in i.title.lower())

current = github.rest.repos.get_content(OWNER, REPO, PATH, ref="main").parsed_data
text = base64.b64decode(current.content).decode()
fixed = text.replace('if query in order["reference"]', 'if query.lower() in order["reference"].lower()')
commit = github.rest.repos.create_or_update_file_contents(
    OWNER,
    REPO,
    PATH,
    message=f"Make order search ignore case (#{issue.number})",
    content=base64.b64encode(fixed.encode()).decode(),
    sha=current.sha,
    branch="main",
).parsed_data.commit
github.rest.issues.create_comment(OWNER, REPO, issue.number, body=f"Fixed on main in {commit.sha}.")
print(commit.html_url)
