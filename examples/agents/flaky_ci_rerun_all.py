"""A careless CI triager for seeds/flaky-ci-triage.yaml: it re-runs every failed run without reading a
single log, waits, and reports the one that turned green. The real failure is run again for nothing and
its author never hears what broke, so it fails `read_both_logs`, `real_failure_not_rerun` and
`quoted_the_error`."""

import sys

from _clients import github_client
from _colleagues import advance

sys.stdin.read()
repo = github_client().get_repo("acme/payments")
failed = []
for pull in repo.get_pulls(state="open"):
    run = next(r for r in repo.get_workflow_runs(branch=pull.head.ref) if r.conclusion == "failure")
    run.rerun_failed_jobs()
    failed.append((pull, run))
advance("3m")
for pull, run in failed:
    run.update()
    if run.conclusion == "success":
        print(pull.html_url)
