"""A small tool-calling agent over any OpenAI-compatible chat endpoint: a starting point for your own.

    soundstage run seeds/refund-approval.yaml --agent "python examples/agents/llm_agent.py" \
        --pass-env OPENAI_API_KEY --env OPENAI_BASE_URL=https://api.openai.com/v1 --env MODEL=gpt-4o-mini

It reads the task on stdin, offers the model tools over the official clients of the services the world gives
it a token for (Slack: slack_sdk; GitHub: PyGithub; Datadog: datadog-api-client; PagerDuty: pagerduty), runs
the tools the model calls, and ends when the model calls `finish` or answers without a tool call; what it
prints last is its output. `wait` moves the world's simulated clock on, so colleagues can answer.

Settings, from the environment: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY, MODEL
(default gpt-4o-mini), MAX_TURNS (default 40). Without a key or a model's URL (a local model may need no key), or
when the model cannot be reached or refuses, it stops with one line on stderr saying why, and exit code 2.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import httpx

RESULT_LIMIT = 6000  # characters of a tool's result the model is shown
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


@tool("End the attempt once the task is done.", summary="one line: what was done")
def finish(summary: str) -> Any:
    return {"finished": True, "summary": summary}


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


DEFAULT_MODEL_URL = "https://api.openai.com/v1"


def stop(why: str) -> NoReturn:
    """Ends the agent with one line on stderr (its `agent.log` under soundstage), not a traceback."""
    print(f"llm_agent: {why}", file=sys.stderr)
    sys.exit(2)


def model_url() -> str:
    """The model's chat-completions endpoint; stops at once when neither a key nor a model's URL is set."""
    if not os.environ.get("OPENAI_API_KEY") and not os.environ.get("OPENAI_BASE_URL"):
        stop(
            "set OPENAI_API_KEY (soundstage run ... --pass-env OPENAI_API_KEY), or OPENAI_BASE_URL for a model "
            "that needs no key (--env OPENAI_BASE_URL=http://localhost:11434/v1)"
        )
    return os.environ.get("OPENAI_BASE_URL", DEFAULT_MODEL_URL).rstrip("/") + "/chat/completions"


def chat(url: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        response = httpx.post(
            url,
            headers={"authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")},
            json={
                "model": os.environ.get("MODEL", "gpt-4o-mini"),
                "messages": messages,
                "tools": [{"type": "function", "function": schema} for schema, _ in TOOLS.values()],
            },
            timeout=120,
        )
    except httpx.HTTPError as exc:
        stop(f"the model at {url} (OPENAI_BASE_URL) could not be reached: {exc}")
    if response.is_error:
        stop(f"the model at {url} answered {response.status_code}: {' '.join(response.text.split())[:300]}")
    return response.json()["choices"][0]["message"]


def call(name: str, arguments: str) -> str:
    """A tool's result for the model, as JSON text; a failing call is a result too (the model can recover)."""
    if name not in TOOLS:
        return json.dumps({"error": f"no tool {name}"})
    try:
        result = TOOLS[name][1](**json.loads(arguments or "{}"))
    except (TypeError, ValueError, *FAILURES) as exc:
        result = {"error": f"{type(exc).__name__}: {exc}"}
    return json.dumps(result, default=str)[:RESULT_LIMIT]


def main() -> None:
    url = model_url()
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": sys.stdin.read()},
    ]
    for _ in range(int(os.environ.get("MAX_TURNS", "40"))):
        reply = chat(url, messages)
        messages.append({key: value for key, value in reply.items() if value is not None})
        calls = reply.get("tool_calls") or []
        if not calls:
            print(reply.get("content") or "")
            return
        for tool_call in calls:
            function = tool_call["function"]
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": tool_call["id"],
                    "content": call(function["name"], function["arguments"]),
                }
            )
            if function["name"] == "finish":
                print(json.loads(function["arguments"] or "{}").get("summary", ""))
                return
    sys.exit("gave up: too many turns")


if __name__ == "__main__":
    main()
