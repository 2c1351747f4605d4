"""A careless reviewer for seeds/dependency-bumps.yaml: it waits out GitHub's rate limits properly but
approves and merges every bump without looking at CI, so the urllib3 bump that breaks an import goes in
too. It fails `red_bump_not_merged`, `changes_requested_with_the_error` and `printed_the_merged_one`."""

import sys

from _clients import github_call, github_http

sys.stdin.read()
github = github_http()
merged = []
for pull in github_call(github, "GET", "/repos/acme/notifier/pulls", params={"state": "open"}).json():
    github_call(github, "POST", f"/repos/acme/notifier/pulls/{pull['number']}/reviews", json={"event": "APPROVE"})
    github_call(github, "PUT", f"/repos/acme/notifier/pulls/{pull['number']}/merge", json={"merge_method": "squash"})
    merged.append(pull["number"])
print(" ".join(f"#{n}" for n in merged))
