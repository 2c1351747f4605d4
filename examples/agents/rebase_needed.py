"""A scripted maintainer for seeds/rebase-needed.yaml: no model, only PyGithub, slack_sdk and the
world's clock.

It finds the files both the pull request and main changed since they forked, asks the author in a DM
when he will rebase, waits for his answer five simulated minutes at a time, and comments the
conflicting file and his plan on the pull request. It never touches his branch.
"""

import sys

from _clients import github_client
from _colleagues import advance, connect, find_user, text_of

sys.stdin.read()
repo = github_client().get_repo("acme/search")
pull = repo.get_pull(1)
if pull.mergeable is not False:
    sys.exit(f"pull request #{pull.number} merges cleanly: nothing to rebase")
main_since_fork = repo.compare(pull.head.sha, pull.base.ref)  # what main has that the branch lacks
conflicts = sorted({f.filename for f in pull.get_files()} & {f.filename for f in main_since_fork.files})

slack = connect()
author = find_user(slack, name=pull.user.login)
dm = slack.conversations_open(users=author)["channel"]["id"]
asked = slack.chat_postMessage(
    channel=dm,
    text=f"Hi! Your pull request #{pull.number} ({pull.title}) conflicts with main in {', '.join(conflicts)}. "
    "When will you rebase it?",
)["ts"]
answer = None
for _ in range(12):  # up to an hour, five minutes at a time
    replies = [m for m in slack.conversations_history(channel=dm, oldest=asked)["messages"] if m.get("user") == author]
    if replies:
        answer = text_of(replies[0])
        break
    advance("5m")
if answer is None:
    sys.exit("no answer from the author")
pull.create_issue_comment(
    f'This conflicts with main in `{"`, `".join(conflicts)}`. @{pull.user.login} says: "{answer}"'
)
print(answer)
