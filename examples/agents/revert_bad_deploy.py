"""A scripted on-call engineer for seeds/revert-bad-deploy.yaml: no model, only the official PagerDuty,
GitHub (PyGithub), Datadog and Slack clients, and the world's clock.

It acknowledges its page, finds the pull request merged last into main, says in #incidents that it is
reverting it, reverts it through a new pull request (each file back as it was before the merge) and
merges that, waits for the error monitor to be OK and resolves the incident.
"""

import os
import sys

from _clients import github_client, pagerduty_client
from _colleagues import advance, channel_id, connect
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi

sys.stdin.read()
pd = pagerduty_client()
me = pd.rget("/users/me")
page = next(i for i in pd.iter_all("incidents", params={"statuses": ["triggered"], "user_ids": [me["id"]]}))
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "acknowledged"}})

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
    repo.update_file(changed.filename, f"Revert {changed.filename} to before #{bad.number}", old, current.sha, branch=branch)
revert = repo.create_pull(
    title=f'Revert "{bad.title}"', body=f"Reverts #{bad.number}: checkout fails since it was deployed.", head=branch, base="main"
)
revert.merge(merge_method="merge")

with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:  # keys from DD_API_KEY, DD_APP_KEY
    monitors = MonitorsApi(api)
    errors = next(m for m in monitors.list_monitors(name="Orders error count"))
    for _ in range(15):
        if str(monitors.get_monitor(errors.id).overall_state) == "OK":
            break
        advance("1m")
    else:
        sys.exit("the error monitor did not recover")

pd.rpost(f"/incidents/{page['id']}/notes", json={"note": {"content": f"Reverted #{bad.number} with #{revert.number}."}})
pd.rput(f"/incidents/{page['id']}", json={"incident": {"type": "incident_reference", "status": "resolved"}})
print(revert.number)
