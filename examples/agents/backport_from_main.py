"""A failing developer for seeds/backport-fix.yaml: it branches from main, not from the release.

Its pull request into release-2.3 looks right (title, trailer, the fix is in), but the branch was cut
from main, so it carries the unreleased credit notes feature into the release line too.
Fails: feature_not_backported.
"""

import os
import sys

from githubkit import GitHub

sys.stdin.read()
OWNER, REPO = "acme", "billing"
github = GitHub(os.environ["GITHUB_TOKEN"], base_url=os.environ["GITHUB_API_URL"], http_cache=False)

commits = github.rest.repos.list_commits(OWNER, REPO, sha="main", per_page=50).parsed_data
fix = next(c for c in commits if c.commit.message.startswith("Round invoice totals half-up"))
# The mistake: main already has the fix, so branching from it "applies" it, with everything else on main.
github.rest.git.create_ref(OWNER, REPO, ref="refs/heads/backport-rounding", sha=fix.sha)
pull = github.rest.pulls.create(
    OWNER,
    REPO,
    title="[2.3] Round invoice totals half-up",
    head="backport-rounding",
    base="release-2.3",
    body=f"Backport of {fix.sha[:7]} to the 2.3 line.\n\n(cherry picked from commit {fix.sha})",
).parsed_data
print(pull.html_url)
