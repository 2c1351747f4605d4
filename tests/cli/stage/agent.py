"""A scripted agent for the runner and CLI tests; its first argument says how it behaves."""

import json
import os
import sys
import time


def call(url, body):
    import urllib.request  # here, so that the hanging agent prints soon after it starts (its timeout is short)

    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json; charset=utf-8", "authorization": "Bearer " + os.environ["SLACK_BOT_TOKEN"]},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def slack(method, **args):
    return call(os.environ["SLACK_API_URL"] + method, args)


task = sys.stdin.read()
mode = sys.argv[1]
if mode == "hello":
    with open(sys.argv[2], "w") as seen:
        json.dump({"env": dict(os.environ), "stdin": task}, seen)
    channels = slack("conversations.list")["channels"]
    general = next(channel["id"] for channel in channels if channel["name"] == "general")
    slack("chat.postMessage", channel=general, text="hello from the agent")
    print("said hello")
elif mode == "unknown":
    slack("auth.test")
    slack("foo.bar")
    print("tried")
elif mode == "hang":
    print("waiting", flush=True)
    time.sleep(600)
elif mode == "finish":
    call(os.environ["SOUNDSTAGE_URL"] + "/finish", {"output": "done through finish"})
    time.sleep(600)
elif mode == "exit":
    print("giving up")
    sys.stderr.write("no idea\n")
    sys.exit(int(sys.argv[2]))
elif mode == "lost":
    slack("chat.postMessage", channel="C0NOSUCH", text="hello?")
