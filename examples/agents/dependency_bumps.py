"""A scripted reviewer for seeds/dependency-bumps.yaml: no model, plain HTTP to GitHub (so it sees each
rate limit itself) and the world's clock.

Every call that GitHub answers with a rate limit is tried again once Retry-After seconds of simulated
time have passed. Bumps with green CI are approved and squash-merged; a red one gets a review requesting
changes that quotes the error line of its job's log.
"""

import sys

from _clients import github_http
from _colleagues import advance

github = github_http()


def call(method: str, path: str, **kwargs):
    """The answer to one GitHub call, waiting out any rate limit first."""
    while True:
        response = github.request(method, path, **kwargs)
        if response.status_code in (403, 429) and "Retry-After" in response.headers:
            advance(f"{response.headers['Retry-After']}s")
            continue
        response.raise_for_status()
        return response


sys.stdin.read()
repo = "/repos/acme/notifier"
merged = []
for pull in call("GET", f"{repo}/pulls", params={"state": "open"}).json():
    if pull["user"]["login"] != "depbot":
        continue
    runs = call("GET", f"{repo}/actions/runs", params={"branch": pull["head"]["ref"]}).json()["workflow_runs"]
    run = runs[0]  # newest first
    if run["conclusion"] == "success":
        call("POST", f"{repo}/pulls/{pull['number']}/reviews", json={"event": "APPROVE", "body": "CI is green."})
        call("PUT", f"{repo}/pulls/{pull['number']}/merge", json={"merge_method": "squash"})
        merged.append(pull["number"])
        continue
    job = next(j for j in call("GET", f"{repo}/actions/runs/{run['id']}/jobs").json()["jobs"] if j["conclusion"] == "failure")
    log = call("GET", f"{repo}/actions/jobs/{job['id']}/logs").text
    error = next(line.split(" ", 1)[1] for line in log.splitlines() if line.split(" ", 1)[1].startswith("E   "))
    call(
        "POST",
        f"{repo}/pulls/{pull['number']}/reviews",
        json={"event": "REQUEST_CHANGES", "body": f"CI fails with this bump:\n\n```\n{error.strip()}\n```"},
    )
print(" ".join(f"#{n}" for n in merged))
