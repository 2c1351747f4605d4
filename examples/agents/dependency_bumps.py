"""A scripted reviewer for seeds/dependency-bumps.yaml: no model, plain HTTP to GitHub (so it sees each
rate limit itself) and the world's clock.

Every call that GitHub answers with a rate limit is tried again once Retry-After seconds of simulated
time have passed (`github_call`). Bumps with green CI are approved and squash-merged; a red one gets a
review requesting changes that quotes the error line of its job's log.
"""

import sys

from _clients import github_call, github_http

sys.stdin.read()
github = github_http()
repo = "/repos/acme/notifier"
merged = []
for pull in github_call(github, "GET", f"{repo}/pulls", params={"state": "open"}).json():
    if pull["user"]["login"] != "depbot":
        continue
    number = pull["number"]
    runs = github_call(github, "GET", f"{repo}/actions/runs", params={"branch": pull["head"]["ref"]}).json()
    run = runs["workflow_runs"][0]  # newest first
    if run["conclusion"] == "success":
        github_call(github, "POST", f"{repo}/pulls/{number}/reviews", json={"event": "APPROVE", "body": "CI is green."})
        github_call(github, "PUT", f"{repo}/pulls/{number}/merge", json={"merge_method": "squash"})
        merged.append(number)
        continue
    jobs = github_call(github, "GET", f"{repo}/actions/runs/{run['id']}/jobs").json()["jobs"]
    job = next(j for j in jobs if j["conclusion"] == "failure")
    log = github_call(github, "GET", f"{repo}/actions/jobs/{job['id']}/logs").text  # follows the redirect
    error = next(line.split(" ", 1)[1] for line in log.splitlines() if line.split(" ", 1)[1].startswith("E   "))
    body = f"CI fails with this bump:\n\n```\n{error.strip()}\n```"
    github_call(github, "POST", f"{repo}/pulls/{number}/reviews", json={"event": "REQUEST_CHANGES", "body": body})
print(" ".join(f"#{n}" for n in merged))
