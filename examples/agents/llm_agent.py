"""A small tool-calling agent over any OpenAI-compatible chat endpoint: a starting point for your own.

    soundstage run seeds/refund-approval.yaml --agent "python examples/agents/llm_agent.py" \
        --pass-env OPENAI_API_KEY --env OPENAI_BASE_URL=https://api.openai.com/v1 --env MODEL=gpt-4o-mini

It reads the task on stdin, offers the model tools over the official clients of the services the world gives
it a token for (Slack: slack_sdk; GitHub: PyGithub; Datadog: datadog-api-client; PagerDuty: pagerduty), runs
the tools the model calls, and ends when the model calls `finish` or answers without a tool call; what it
prints last is its output. `wait` moves the world's simulated clock on, so colleagues can answer.

The model's settings and the conversation are _model.py's, shared with mcp_agent.py: OPENAI_BASE_URL, OPENAI_API_KEY,
MODEL, MAX_TURNS. Without a key or a model's URL, or when the model cannot be reached or refuses, it stops with
one line on stderr saying why, and exit code 2.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import httpx
from _model import Stopped, converse, model_url, stop

SYSTEM = (
    "You act in a company's Slack, GitHub, Datadog and PagerDuty through the tools given. Look before you act, "
    "ask colleagues when you lack a fact or an approval (they answer after a while: call `wait`, then read the "
    "conversation again), never share internal information in channels shared with customers, and call "
    "`finish` with a one-line summary when the task is done."
)

TOOLS: dict[str, tuple[dict[str, Any], Callable[..., Any]]] = {}


def tool(description: str, **parameters: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a function as a tool; each parameter is a string described by its keyword (optional when
    the description starts with `optional`)."""

    def register(function: Callable[..., Any]) -> Callable[..., Any]:
        schema = {
            "type": "object",
            "properties": {name: {"type": "string", "description": text} for name, text in parameters.items()},
            "required": [name for name, text in parameters.items() if not text.startswith("optional")],
        }
        TOOLS[function.__name__] = (
            {"name": function.__name__, "description": description, "parameters": schema},
            function,
        )
        return function

    return register


# ---- the world's control API: the clock, and the end of the attempt ----


@tool("Let simulated time pass, so that colleagues can answer.", duration="how long, such as 30s, 2m or 1h")
def wait(duration: str) -> Any:
    response = httpx.post(
        os.environ["SOUNDSTAGE_URL"] + "/clock",
        json={"advance": duration},
        headers={"authorization": "Bearer " + os.environ["SOUNDSTAGE_TOKEN"]},
        timeout=30,
    )
    return response.json()


# ---- the services whose token the world gives ----

if "SLACK_BOT_TOKEN" in os.environ:
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError

    slack = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])

    @tool("List the Slack channels you can see.")
    def slack_channels() -> Any:
        pages = slack.conversations_list(types="public_channel,private_channel", limit=200)
        return [{"id": c["id"], "name": c["name"], "is_private": c["is_private"]} for p in pages for c in p["channels"]]

    @tool("List the people of the Slack workspace.")
    def slack_people() -> Any:
        pages = slack.users_list(limit=200)
        return [
            {
                "id": u["id"],
                "name": u["name"],
                "real_name": u.get("real_name"),
                "title": u.get("profile", {}).get("title"),
            }
            for p in pages
            for u in p["members"]
            if not u.get("deleted") and not u.get("is_bot")
        ]

    @tool("Read a channel's latest messages, oldest first.", channel="the channel's id")
    def slack_read(channel: str) -> Any:
        messages = slack.conversations_history(channel=channel, limit=30)["messages"]
        return [_message(m) for m in reversed(messages)]

    @tool("Read a thread.", channel="the channel's id", ts="the ts of the thread's first message")
    def slack_thread(channel: str, ts: str) -> Any:
        return [_message(m) for m in slack.conversations_replies(channel=channel, ts=ts)["messages"]]

    @tool("Open a direct message with a person; answers its channel id.", user="the person's user id")
    def slack_open_dm(user: str) -> Any:
        return {"channel": slack.conversations_open(users=user)["channel"]["id"]}

    @tool(
        "Post a message.",
        channel="the channel's id",
        text="the message",
        thread_ts="optional: the ts of the thread to answer in",
    )
    def slack_post(channel: str, text: str, thread_ts: str | None = None) -> Any:
        posted = slack.chat_postMessage(channel=channel, text=text, thread_ts=thread_ts)
        return {"ok": True, "ts": posted["ts"]}

    @tool("Add a reaction to a message.", channel="the channel's id", ts="the message's ts", name="the emoji name")
    def slack_react(channel: str, ts: str, name: str) -> Any:
        slack.reactions_add(channel=channel, timestamp=ts, name=name)
        return {"ok": True}

    def _message(message: dict[str, Any]) -> dict[str, Any]:
        keys = ("ts", "user", "text", "thread_ts", "reply_count")
        return {key: message[key] for key in keys if key in message}

    FAILURES: tuple[type[Exception], ...] = (SlackApiError,)
else:
    FAILURES = ()

if "GITHUB_TOKEN" in os.environ:
    from github import Auth, Github, GithubException

    github = Github(auth=Auth.Token(os.environ["GITHUB_TOKEN"]), base_url=os.environ["GITHUB_API_URL"])
    FAILURES += (GithubException,)

    @tool("List a repository's open issues and pull requests.", repo="owner/name")
    def github_issues(repo: str) -> Any:
        return [
            {
                "number": i.number,
                "title": i.title,
                "pull_request": i.pull_request is not None,
                "labels": [x.name for x in i.labels],
            }
            for i in github.get_repo(repo).get_issues(state="open")
        ]

    @tool("Read an issue or pull request with its comments.", repo="owner/name", number="its number")
    def github_read(repo: str, number: str) -> Any:
        issue = github.get_repo(repo).get_issue(int(number))
        comments = [{"user": c.user.login, "body": c.body} for c in issue.get_comments()]
        return {"title": issue.title, "state": issue.state, "body": issue.body, "comments": comments}

    @tool("Comment on an issue or pull request.", repo="owner/name", number="its number", body="the comment")
    def github_comment(repo: str, number: str, body: str) -> Any:
        return {"id": github.get_repo(repo).get_issue(int(number)).create_comment(body).id}

    @tool("Merge a pull request.", repo="owner/name", number="its number")
    def github_merge(repo: str, number: str) -> Any:
        merged = github.get_repo(repo).get_pull(int(number)).merge()
        return {"merged": merged.merged, "sha": merged.sha}


if "DD_API_KEY" in os.environ:
    from datadog_api_client import ApiClient, Configuration
    from datadog_api_client.exceptions import ApiException
    from datadog_api_client.v1.api.monitors_api import MonitorsApi

    datadog = ApiClient(Configuration(host=os.environ["DATADOG_API_URL"]))  # keys from DD_API_KEY, DD_APP_KEY
    FAILURES += (ApiException,)

    @tool("List Datadog monitors with their state.")
    def datadog_monitors() -> Any:
        return [
            {"id": m.id, "name": m.name, "state": str(m.overall_state), "query": m.query}
            for m in MonitorsApi(datadog).list_monitors()
        ]


if "PAGERDUTY_TOKEN" in os.environ:
    import pagerduty

    pd = pagerduty.RestApiV2Client(
        os.environ["PAGERDUTY_TOKEN"],
        default_from=os.environ.get("PAGERDUTY_FROM"),
        base_url=os.environ["PAGERDUTY_API_URL"],
    )
    FAILURES += (pagerduty.Error,)

    @tool("List PagerDuty's open incidents.")
    def pagerduty_incidents() -> Any:
        found = pd.list_all("incidents", params={"statuses[]": ["triggered", "acknowledged"]})
        return [{"id": i["id"], "title": i["title"], "status": i["status"], "urgency": i["urgency"]} for i in found]

    @tool("Acknowledge or resolve an incident.", incident="its id", status="acknowledged or resolved")
    def pagerduty_set_status(incident: str, status: str) -> Any:
        body = {"incident": {"type": "incident_reference", "status": status}}
        return {"status": pd.rput(f"incidents/{incident}", json=body)["status"]}


# ---- the loop ----


def run(name: str, arguments: dict[str, Any]) -> Any:
    """A tool's result for the model; a failing call is a result too (the model can recover)."""
    if name not in TOOLS:
        return {"error": f"no tool {name}"}
    try:
        return TOOLS[name][1](**arguments)
    except (TypeError, ValueError, *FAILURES) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}


def main() -> None:
    try:
        url = model_url()
        print(converse(url, SYSTEM, sys.stdin.read(), [schema for schema, _ in TOOLS.values()], run))
    except Stopped as why:
        stop(why)


if __name__ == "__main__":
    main()
