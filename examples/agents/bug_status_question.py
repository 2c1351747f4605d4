"""A scripted agent for seeds/bug-status-question.yaml: no model, only slack_sdk and PyGithub.

It looks the bug up in acme/orders' issues with PyGithub's own retries off: a rate-limit answer (403 or
429 with Retry-After) is waited out by moving the world's clock on by that many seconds before the retry.
The answer to support is posted the same way (helpers in _colleagues.py).
"""

import sys

from _clients import github_client
from _colleagues import advance, channel_id, connect, message_with, patiently
from github import GithubException

ATTEMPTS = 5

sys.stdin.read()
github = github_client(retry=False)
for _ in range(ATTEMPTS):
    try:
        issues = [i for i in github.get_repo("acme/orders").get_issues(state="all") if i.pull_request is None]
        break
    except GithubException as error:
        headers = {name.lower(): value for name, value in (error.headers or {}).items()}
        if error.status not in (403, 429) or "retry-after" not in headers:
            raise
        advance(f"{headers['retry-after']}s")
else:
    sys.exit("GitHub kept refusing")
bug = next(i for i in issues if "search" in i.title.lower() and "case" in i.title.lower())
status = "still open: it is not fixed yet" if bug.state == "open" else "closed: it has been fixed"

slack = connect()
support = channel_id(slack, "support")
question = message_with(slack, support, "search bug")
answer = f'I checked GitHub: the search bug is #{bug.number} "{bug.title}" in acme/orders, and it is {status}.'
patiently(slack.chat_postMessage, channel=support, thread_ts=question["ts"], text=answer)
print(answer)
