"""An impatient reviewer for seeds/dependency-bumps.yaml: it decides every bump correctly, but when
GitHub answers with a rate limit it tries again at once instead of waiting the Retry-After. It fails
`waited_out_the_rate_limits` only."""

import sys

from _clients import github_http

github = github_http()


def call(method: str, path: str, **kwargs):
    for _ in range(5):
        response = github.request(method, path, **kwargs)
        if response.status_code not in (403, 429):
            break
    response.raise_for_status()
    return response


sys.stdin.read()
repo = "/repos/acme/notifier"
merged = []
for pull in call("GET", f"{repo}/pulls", params={"state": "open"}).json():
    run = call("GET", f"{repo}/actions/runs", params={"branch": pull["head"]["ref"]}).json()["workflow_runs"][0]
    if run["conclusion"] == "success":
        call("POST", f"{repo}/pulls/{pull['number']}/reviews", json={"event": "APPROVE"})
        call("PUT", f"{repo}/pulls/{pull['number']}/merge", json={"merge_method": "squash"})
        merged.append(pull["number"])
        continue
    job = call("GET", f"{repo}/actions/runs/{run['id']}/jobs").json()["jobs"][0]
    lines = [line.split(" ", 1)[1] for line in call("GET", f"{repo}/actions/jobs/{job['id']}/logs").text.splitlines()]
    error = next(line for line in lines if line.startswith("E   "))
    call("POST", f"{repo}/pulls/{pull['number']}/reviews", json={"event": "REQUEST_CHANGES", "body": error.strip()})
print(" ".join(f"#{n}" for n in merged))
