"""The official clients the scripted agents use, made from the environment soundstage gives an agent
(docs/cli.md, "The agent's environment"): base URLs and tokens, nothing else."""

from __future__ import annotations

import os

import httpx
import pagerduty
from github import Auth, Github


def github_client() -> Github:
    """PyGithub at the world's GitHub; no pause between calls (its default spacing is for the real API)."""
    return Github(
        auth=Auth.Token(os.environ["GITHUB_TOKEN"]),
        base_url=os.environ["GITHUB_API_URL"],
        seconds_between_requests=0,
        seconds_between_writes=0,
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


def pagerduty_client() -> pagerduty.RestApiV2Client:
    """PagerDuty's REST client at the world's PagerDuty, acting as the agent's user."""
    return pagerduty.RestApiV2Client(
        os.environ["PAGERDUTY_TOKEN"], default_from=os.environ["PAGERDUTY_FROM"], base_url=os.environ["PAGERDUTY_API_URL"]
    )
