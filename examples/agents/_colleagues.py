"""What the people-scene agents share: finding channels and colleagues, asking someone in a DM, and
waiting for their answer. Plain slack_sdk plus one control call; no model, no network, no sleeping.

Colleagues answer after a while of *simulated* time, so waiting means polling Slack (each call moves the
world's clock on by the scene's tick) and, between polls, moving the clock on by hand through
`POST $SOUNDSTAGE_URL/clock`. Every wait gives up after a fixed number of attempts.
"""

from __future__ import annotations

import html
import json
import os
import re
import urllib.request
from collections.abc import Callable

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

ATTEMPTS = 12  # polls before giving up on an answer
STEP = "15s"  # simulated time moved on between two polls


def connect() -> WebClient:
    return WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])


def advance(duration: str) -> None:
    """Moves the world's simulated clock on (the agent's control token, SOUNDSTAGE_TOKEN, allows it)."""
    request = urllib.request.Request(
        os.environ["SOUNDSTAGE_URL"] + "/clock",
        data=json.dumps({"advance": duration}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + os.environ["SOUNDSTAGE_TOKEN"]},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()


def patiently(method: Callable[..., SlackResponse], **args: object) -> SlackResponse:
    """A Slack call (`client.chat_postMessage`, `client.conversations_history`...), retried the way Slack
    asks: a 429 after its Retry-After (moving the clock on by it), an internal error at once. Gives up after
    ATTEMPTS tries."""
    for _ in range(ATTEMPTS):
        try:
            return method(**args)
        except SlackApiError as error:
            if error.response.status_code == 429:
                advance(f"{error.response.headers['retry-after']}s")
            elif error.response["error"] != "internal_error":
                raise
    raise SystemExit("Slack kept refusing")


def channel_id(client: WebClient, name: str) -> str:
    for page in client.conversations_list(types="public_channel,private_channel", limit=200):
        for channel in page["channels"]:
            if channel["name"] == name:
                return channel["id"]
    raise SystemExit(f"no channel #{name}")


_people: list[dict] = []  # the workspace's active people, read once


def find_user(client: WebClient, *, name: str | None = None, title: str | None = None) -> str:
    """The id of the first active person whose user name is `name`, or whose title contains `title`."""
    if not _people:
        for page in client.users_list(limit=200):
            _people.extend(u for u in page["members"] if not u.get("deleted") and not u.get("is_bot"))
    for user in _people:
        if name is not None and user["name"] == name:
            return user["id"]
        if title is not None and title.lower() in user.get("profile", {}).get("title", "").lower():
            return user["id"]
    raise SystemExit(f"nobody with {'name ' + name if name else 'title ' + str(title)}")


def text_of(message: dict) -> str:
    return html.unescape(message.get("text", ""))  # Slack escapes <, > and & in message text


def ask(client: WebClient, user: str, question: str, *, rounds: int = 1) -> str | None:
    """Asks `user` in a DM and waits for their answer: `rounds` rounds of polling (as ask_all does), for
    someone who answers late; None when no answer came."""
    return ask_all(client, {user: user}, question, rounds=rounds).get(user)


def ask_all(
    client: WebClient, people: dict[str, str], question: str, *, rounds: int, enough: int | None = None
) -> dict[str, str]:
    """Asks each of `people` (a name: their user id) the same question in a DM, all at once, then waits for
    them together: rounds of polling everyone still silent (wait_for_answer), the clock moved on 2 minutes
    between two, until `enough` of them (default: all) have answered. Their answers by name; whoever
    stayed silent is missing."""
    asked = {}
    for name, user in people.items():
        dm = client.conversations_open(users=user)["channel"]["id"]
        asked[name] = (user, dm, client.chat_postMessage(channel=dm, text=question)["ts"])
    answers: dict[str, str] = {}
    for done in range(rounds):
        if done:
            advance("2m")
        for name, (user, dm, ts) in asked.items():
            if name not in answers and (answer := wait_for_answer(client, dm, ts, user)) is not None:
                answers[name] = answer
        if len(answers) >= (len(people) if enough is None else enough):
            break
    return answers


def message_with(client: WebClient, channel: str, words: str) -> dict:
    """The latest message of `channel` whose text contains `words` (its recent history)."""
    for message in patiently(client.conversations_history, channel=channel, limit=100)["messages"]:
        if words in text_of(message):
            return message
    raise SystemExit(f"no message with {words!r}")


def wait_for_answer(client: WebClient, channel: str, asked: str, user: str) -> str | None:
    """The text of what `user` wrote after message `asked` in `channel`: in the channel itself (a DM) or in
    the thread of `asked`. Polls, moving the clock on between polls, at most ATTEMPTS times; a poll that is
    rate limited waits its Retry-After."""
    for _ in range(ATTEMPTS):
        found = [
            m
            for m in patiently(client.conversations_history, channel=channel, oldest=asked, limit=50)["messages"]
            if m.get("user") == user
        ]
        if not found:
            found = [
                m
                for m in patiently(client.conversations_replies, channel=channel, ts=asked, limit=50)["messages"]
                if m.get("user") == user and float(m["ts"]) > float(asked)
            ]
        if found:
            return "\n".join(text_of(m) for m in sorted(found, key=lambda m: float(m["ts"])))
        advance(STEP)
    return None


def mentioned_users(text: str) -> list[str]:
    """The user ids mentioned in a message (`<@U…>`), in order."""
    return re.findall(r"<@(U[A-Z0-9]+)(?:\|[^>]*)?>", text)


def sentence_with(text: str, *words: str) -> str | None:
    """The first sentence (or line) of `text` that contains one of `words`, any case."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        if any(word.lower() in sentence.lower() for word in words):
            return sentence.strip()
    return None
