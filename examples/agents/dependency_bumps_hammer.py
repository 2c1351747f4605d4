"""An impatient reviewer for seeds/dependency-bumps.yaml: it decides every bump by its CI, but when
GitHub answers with a rate limit it tries again at once instead of waiting the Retry-After. It fails
`waited_out_the_rate_limits` only."""

import sys

from _clients import github_call, github_http

sys.stdin.read()
github = github_http()
repo = "/repos/acme/notifier"
merged = []
for pull in github_call(github, "GET", f"{repo}/pulls", patient=False, params={"state": "open"}).json():
    branch, number = pull["head"]["ref"], pull["number"]
    run = github_call(github, "GET", f"{repo}/actions/runs", params={"branch": branch}).json()["workflow_runs"][0]
    if run["conclusion"] != "success":
        job = github_call(github, "GET", f"{repo}/actions/runs/{run['id']}/jobs").json()["jobs"][0]
        lines = github_call(github, "GET", f"{repo}/actions/jobs/{job['id']}/logs").text.splitlines()
        error = next(line.split(" ", 1)[1] for line in lines if line.split(" ", 1)[1].startswith("E   "))
        github_call(github, "POST", f"{repo}/pulls/{number}/reviews", json={"event": "REQUEST_CHANGES", "body": error})
        continue
    github_call(github, "POST", f"{repo}/pulls/{number}/reviews", json={"event": "APPROVE"})
    github_call(github, "PUT", f"{repo}/pulls/{number}/merge", patient=False, json={"merge_method": "squash"})
    merged.append(number)
print(" ".join(f"#{n}" for n in merged))
