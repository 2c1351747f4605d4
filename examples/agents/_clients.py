"""The official clients the scripted agents use, made from the environment soundstage gives an agent
(docs/cli.md, "The agent's environment"): base URLs and tokens, nothing else."""

from __future__ import annotations

import os
from datetime import datetime
from email.utils import parsedate_to_datetime

import httpx
import pagerduty
from _colleagues import advance
from github import Auth, Github


def github_client(*, retry: bool = True) -> Github:
    """PyGithub at the world's GitHub; no pause between calls (its default spacing is for the real API).
    `retry=False` turns off PyGithub's own retries, which sleep out rate limits in real time: an agent
    that waits in simulated time handles the 403 or 429 itself."""
    return Github(
        auth=Auth.Token(os.environ["GITHUB_TOKEN"]),
        base_url=os.environ["GITHUB_API_URL"],
        seconds_between_requests=0,
        seconds_between_writes=0,
        **({} if retry else {"retry": None}),
    )


def github_http() -> httpx.Client:
    """Plain HTTP to the world's GitHub, for agents that handle its answers themselves (rate limits,
    redirects): the token, the API version and a User-Agent on every call."""
    return httpx.Client(
        base_url=os.environ["GITHUB_API_URL"],
        headers={
            "Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "stagebot-example",
        },
        follow_redirects=True,
        timeout=30,
    )


def github_call(github: httpx.Client, method: str, path: str, patient: bool = True, **kwargs) -> httpx.Response:
    """One GitHub call that raises on an error. A rate limit (403 or 429 with Retry-After) is tried again:
    `patient`, once Retry-After seconds of simulated time have passed; otherwise at once, up to 5 times."""
    for _ in range(5):
        response = github.request(method, path, **kwargs)
        if response.status_code not in (403, 429) or "Retry-After" not in response.headers:
            break
        if patient:
            advance(f"{response.headers['Retry-After']}s")
    return response.raise_for_status()


def world_now(github: Github) -> datetime:
    """The world's time, from the `Date` header of a GitHub answer (the agent's machine clock is not it)."""
    headers, _ = github.requester.requestJsonAndCheck("GET", "/rate_limit")
    return parsedate_to_datetime(headers["date"])


def pagerduty_client() -> pagerduty.RestApiV2Client:
    """PagerDuty's REST client at the world's PagerDuty, acting as the agent's user."""
    return pagerduty.RestApiV2Client(
        os.environ["PAGERDUTY_TOKEN"],
        default_from=os.environ["PAGERDUTY_FROM"],
        base_url=os.environ["PAGERDUTY_API_URL"],
    )


def calendar_http() -> httpx.Client:
    """Plain HTTP to the world's Google Calendar, paths relative to the API's root (`freeBusy`,
    `calendars/primary/events`), with the account's OAuth token on every call."""
    return httpx.Client(
        base_url=os.environ["GOOGLE_CALENDAR_API_URL"],
        headers={"Authorization": f"Bearer {os.environ['GOOGLE_OAUTH_TOKEN']}"},
        timeout=30,
    )


def gmail_http() -> httpx.Client:
    """Plain HTTP to the world's Gmail, paths relative to GMAIL_API_URL (`gmail/v1/users/me/messages`),
    with the account's OAuth token on every call."""
    return httpx.Client(
        base_url=os.environ["GMAIL_API_URL"],
        headers={"Authorization": f"Bearer {os.environ['GOOGLE_OAUTH_TOKEN']}"},
        timeout=30,
    )
