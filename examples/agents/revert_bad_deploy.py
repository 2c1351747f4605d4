"""A scripted on-call engineer for seeds/revert-bad-deploy.yaml: no model, only the official PagerDuty,
GitHub (PyGithub), Datadog and Slack clients, and the world's clock.

It acknowledges its page, finds the pull request merged last into main, says in #incidents that it is
reverting it, reverts it through a new pull request (each file back as it was before the merge) and
merges that, waits for the error monitor to be OK and resolves the incident.
"""

import sys

from _clients import github_client, pagerduty_client
from _colleagues import channel_id, connect
from _oncall import my_incident, set_status, wait_for_monitor

sys.stdin.read()
pd = pagerduty_client()
page = my_incident(pd, "triggered")
set_status(pd, page, "acknowledged")

repo = github_client().get_repo("acme/checkout")
bad = max((p for p in repo.get_pulls(state="closed", base="main") if p.merged), key=lambda p: p.merged_at)
slack = connect()
slack.chat_postMessage(
    channel=channel_id(slack, "incidents"),
    text=f"Checkout is failing since #{bad.number} ({bad.title}) was deployed. Reverting #{bad.number} now.",
)

before = repo.get_commit(bad.merge_commit_sha).parents[0].sha
branch = f"revert-{bad.number}"
repo.create_git_ref(f"refs/heads/{branch}", repo.get_branch("main").commit.sha)
for changed in bad.get_files():
    current = repo.get_contents(changed.filename, ref=branch)
    old = repo.get_contents(changed.filename, ref=before).decoded_content.decode()
    repo.update_file(
        changed.filename, f"Revert {changed.filename} to before #{bad.number}", old, current.sha, branch=branch
    )
revert = repo.create_pull(
    title=f'Revert "{bad.title}"',
    body=f"Reverts #{bad.number}: checkout fails since it was deployed.",
    head=branch,
    base="main",
)
revert.merge(merge_method="merge")

if not wait_for_monitor("Orders error count"):
    sys.exit("the error monitor did not recover")

pd.rpost(f"/incidents/{page['id']}/notes", json={"note": {"content": f"Reverted #{bad.number} with #{revert.number}."}})
set_status(pd, page, "resolved")
print(revert.number)
