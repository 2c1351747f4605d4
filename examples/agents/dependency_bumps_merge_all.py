"""A careless reviewer for seeds/dependency-bumps.yaml: it waits out GitHub's rate limits properly but
approves and merges every bump without looking at CI, so the urllib3 bump that breaks an import goes in
too. It fails `red_bump_not_merged`, `changes_requested_with_the_error` and `printed_the_merged_one`."""

import sys

from _clients import github_http
from _colleagues import advance

github = github_http()


def call(method: str, path: str, **kwargs):
    while True:
        response = github.request(method, path, **kwargs)
        if response.status_code in (403, 429) and "Retry-After" in response.headers:
            advance(f"{response.headers['Retry-After']}s")
            continue
        response.raise_for_status()
        return response


sys.stdin.read()
merged = []
for pull in call("GET", "/repos/acme/notifier/pulls", params={"state": "open"}).json():
    call("POST", f"/repos/acme/notifier/pulls/{pull['number']}/reviews", json={"event": "APPROVE"})
    call("PUT", f"/repos/acme/notifier/pulls/{pull['number']}/merge", json={"merge_method": "squash"})
    merged.append(pull["number"])
print(" ".join(f"#{n}" for n in merged))
