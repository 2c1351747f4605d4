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
        headers={
            "content-type": "application/json; charset=utf-8",
            "authorization": "Bearer " + os.environ["SLACK_BOT_TOKEN"],
        },
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def slack(method, **args):
    return call(os.environ["SLACK_API_URL"] + method, args)


def ident(pid):
    """A process as the tests know it: its pid and start time (a pid may be used again once it is free)."""
    with open(f"/proc/{pid}/stat") as stat:
        text = stat.read()
    return [pid, text[text.rindex(")") + 2 :].split()[19]]


def leave_a_daemon(pids_file):
    """Starts a process in a session of its own (out of the agent's process group) that holds the agent's stdout
    and stderr open, and writes `<pids_file>.survived` if it is still alive 20 seconds later; writes the agent's
    and the daemon's pids and start times to pids_file, where it can."""
    import subprocess

    code = "import sys, time; time.sleep(20); open(sys.argv[1], 'w').write('survived')"
    daemon = subprocess.Popen([sys.executable, "-c", code, pids_file + ".survived"], start_new_session=True)
    try:
        with open(pids_file + ".tmp", "w") as pids:
            json.dump([ident(os.getpid()), ident(daemon.pid)], pids)
        os.replace(pids_file + ".tmp", pids_file)  # whole or not at all: the test polls for it
    except FileNotFoundError:  # sandboxed: the test's folder is not there, it finds the processes by their marker
        pass


task = sys.stdin.read()
mode = sys.argv[1]
if mode == "hello":  # what it was given goes to its stderr (agent.log): a sandboxed agent writes no file of the test's
    sys.stderr.write(json.dumps({"env": dict(os.environ), "stdin": task}) + "\n")
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
elif mode == "late":  # finishes, then does what the checks want: too late, it counts for nothing
    call(os.environ["SOUNDSTAGE_URL"] + "/finish", {"output": "finished first"})
    channels = slack("conversations.list")
    answered = slack("chat.postMessage", channel="C0", text="hello from the agent")
    print(json.dumps([channels, answered]))
elif mode == "exit":
    print("giving up")
    sys.stderr.write("no idea\n")
    sys.exit(int(sys.argv[2]))
elif mode == "daemon":  # exits at once, leaving the daemon behind
    leave_a_daemon(sys.argv[2])
    print("left a daemon", flush=True)
elif mode == "daemon-hang":  # (a minute: longer than the tests wait, short should it be left behind)
    leave_a_daemon(sys.argv[2])
    print("waiting", flush=True)
    time.sleep(60)
elif mode == "hello-hang":  # says hello, then neither exits nor finishes
    channels = slack("conversations.list")["channels"]
    general = next(channel["id"] for channel in channels if channel["name"] == "general")
    slack("chat.postMessage", channel=general, text="hello from the agent")
    leave_a_daemon(sys.argv[2])
    time.sleep(60)
elif mode == "signal":  # dies of a signal, as a crash would
    import resource
    import signal

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
    sys.stderr.write("about to crash\n")
    sys.stderr.flush()
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
elif mode == "busy":  # adds, changes and removes records
    channels = slack("conversations.list")["channels"]
    general = next(channel["id"] for channel in channels if channel["name"] == "general")
    first = slack("chat.postMessage", channel=general, text="hello from the agent")["ts"]
    second = slack("chat.postMessage", channel=general, text="a second thought")["ts"]
    slack("chat.update", channel=general, ts=first, text="hello again from the agent")
    slack("reactions.add", channel=general, timestamp=first, name="wave")
    slack("chat.delete", channel=general, ts=second)
    print("busy")
elif mode == "print-env":  # prints the variables named, to stdout and to stderr
    for name in sys.argv[2:]:
        print(f"{name}={os.environ.get(name)}")
        sys.stderr.write(f"debug: {name} is {os.environ.get(name)}\n")
elif mode == "lost":
    slack("chat.postMessage", channel="C0NOSUCH", text="hello?")
