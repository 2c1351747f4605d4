"""The official clients the scripted agents use, made from the environment soundstage gives an agent
(docs/cli.md, "The agent's environment"): base URLs and tokens, nothing else."""

from __future__ import annotations

import os

import pagerduty
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


def pagerduty_client() -> pagerduty.RestApiV2Client:
    """PagerDuty's REST client at the world's PagerDuty, acting as the agent's user."""
    return pagerduty.RestApiV2Client(
        os.environ["PAGERDUTY_TOKEN"], default_from=os.environ["PAGERDUTY_FROM"], base_url=os.environ["PAGERDUTY_API_URL"]
    )
