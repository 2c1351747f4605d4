"""A scripted developer for seeds/backport-fix.yaml: no model, only githubkit.

It finds the fix commit on main, branches from release-2.3, and applies the commit's change file by file
(only where the release's file is what the fix started from, as a clean cherry-pick would), then opens a
pull request into release-2.3 with the `cherry-pick -x` trailer.
"""

import base64
import os
import sys

from githubkit import GitHub

sys.stdin.read()
OWNER, REPO, RELEASE, BRANCH = "acme", "billing", "release-2.3", "backport-rounding"
github = GitHub(os.environ["GITHUB_TOKEN"], base_url=os.environ["GITHUB_API_URL"], http_cache=False)


def content(path, ref):
    found = github.rest.repos.get_content(OWNER, REPO, path, ref=ref).parsed_data
    return base64.b64decode(found.content).decode(), found.sha


commits = github.rest.repos.list_commits(OWNER, REPO, sha="main", per_page=50).parsed_data
fix = next(c for c in commits if c.commit.message.startswith("Round invoice totals half-up"))
detail = github.rest.repos.get_commit(OWNER, REPO, fix.sha).parsed_data
parent = detail.parents[0].sha

release = github.rest.git.get_ref(OWNER, REPO, f"heads/{RELEASE}").parsed_data
github.rest.git.create_ref(OWNER, REPO, ref=f"refs/heads/{BRANCH}", sha=release.object_.sha)
for changed in detail.files:
    before, _ = content(changed.filename, parent)
    on_release, blob = content(changed.filename, BRANCH)
    if on_release != before:
        sys.exit(f"{changed.filename} differs on {RELEASE}: not a clean cherry-pick")
    after, _ = content(changed.filename, fix.sha)
    github.rest.repos.create_or_update_file_contents(
        OWNER,
        REPO,
        changed.filename,
        message=f"{fix.commit.message.splitlines()[0]}\n\n(cherry picked from commit {fix.sha})",
        content=base64.b64encode(after.encode()).decode(),
        sha=blob,
        branch=BRANCH,
    )

pull = github.rest.pulls.create(
    OWNER,
    REPO,
    title="[2.3] Round invoice totals half-up",
    head=BRANCH,
    base=RELEASE,
    body=f"Backport of {fix.sha[:7]} to the 2.3 line: invoice totals round half-up.\n\n"
    f"(cherry picked from commit {fix.sha})",
).parsed_data
print(pull.html_url)
