"""An impatient agent for seeds/bug-status-question.yaml: it retries GitHub's rate limit at once.

It finds the right issue and answers correctly (waiting out Slack's 429 through the shared helper), but
it calls GitHub again seconds after being told to wait a minute.
Fails: waited_out_the_rate_limits.
"""

import sys

from _clients import github_client
from _colleagues import channel_id, connect, message_with, patiently
from github import GithubException

sys.stdin.read()
github = github_client(retry=False)
for _ in range(5):
    try:
        issues = [i for i in github.get_repo("acme/orders").get_issues(state="all") if i.pull_request is None]
        break
    except GithubException as error:
        if error.status not in (403, 429):
            raise
        # The mistake: straight back, whatever Retry-After says.
bug = next(i for i in issues if "search" in i.title.lower() and "case" in i.title.lower())

slack = connect()
support = channel_id(slack, "support")
question = message_with(slack, support, "search bug")
answer = f'The search bug is #{bug.number} "{bug.title}", still {bug.state}.'
patiently(slack.chat_postMessage, channel=support, thread_ts=question["ts"], text=answer)
print(answer)
