"""Scripted agents for the imported Agent-Diff excerpt: `oracle.py TEST [wrong|rejoin]`.

Each test's agent does what its task asks, with slack_sdk against the world; `wrong` does a plausible
mistake instead, which the imported checks must catch; `rejoin` (test_50) only removes a member of
#project-alpha-dev and invites him back.
"""

import os
import sys

from slack_sdk import WebClient

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
sys.stdin.read()
test, wrong = sys.argv[1], sys.argv[2:] == ["wrong"]

GENERAL, RANDOM, GROWTH, ALPHA = "C01ABCD1234", "C02EFGH5678", "C04MNOP3456", "C05ALPHA"


def text(words: str, **style: bool) -> dict:
    return {"type": "text", "text": words, **({"style": style} if style else {})}


def cell(words: str) -> dict:
    return {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [text(words)]}]}


def dm(*users: str) -> str:
    return client.conversations_open(users=",".join(users))["channel"]["id"]


if test == "test_1":
    client.chat_postMessage(
        channel=GENERAL, text="Hello" if wrong else "hello"
    )  # the suite's contains is exact in case
elif test == "test_2":
    client.chat_postMessage(channel=dm("U02JOHNDOE1"), text="Can we sync later?")
elif test == "test_3":
    text = "Hey, I've took a look at the presentation and I have some questions. Can you help me?"
    client.chat_postMessage(channel=dm("U02ARTEM23", "U06HUBERT23"), text=text)
elif test == "test_5":
    client.conversations_invite(channel=RANDOM, users="U07MORGANFREE" if wrong else "U05MORGAN23")
elif test == "test_7":
    client.conversations_kick(channel=RANDOM, user="U02JOHNDOE1")
elif test == "test_8":
    client.conversations_archive(channel=GROWTH)
elif test == "test_9":
    client.chat_postMessage(channel=GENERAL, thread_ts="1706115500.000001", text="Next monday.")
elif test == "test_11":
    client.reactions_add(channel=RANDOM, timestamp="1699572000.000789", name="thumbsup")
    client.reactions_add(channel=RANDOM, timestamp="1706052665.000000", name="thumbsup")
    client.reactions_add(channel=RANDOM, timestamp="1706051755.000000", name="thumbsdown")
elif test == "test_12":
    client.reactions_add(
        channel=GENERAL, timestamp="1699564800.000123" if wrong else "1706115500.000001", name="thumbsup"
    )
elif test == "test_13":
    client.conversations_setTopic(
        channel=GENERAL, topic="weekly standup discussions" if wrong else "Weekly standup discussions"
    )
elif test == "test_14":
    text = "Hello everyone, we just shipped the new feature!"
    client.chat_update(channel=GENERAL, ts="1699564800.000123", text=text)
elif test == "test_17":
    client.chat_delete(channel=GENERAL, ts="1699564800.000123")
elif test == "test_23" and wrong:  # mrkdwn in text: Slack's own rich_text block has no style
    client.chat_postMessage(channel=GENERAL, text="*Attention* _check logs_")
elif test == "test_23":
    section = {
        "type": "rich_text_section",
        "elements": [text("Attention", bold=True), text(" "), text("check logs", italic=True)],
    }
    client.chat_postMessage(
        channel=GENERAL, text="Attention check logs", blocks=[{"type": "rich_text", "elements": [section]}]
    )
elif test == "test_27" and wrong:  # a table drawn in text
    client.chat_postMessage(channel=GROWTH, text="Metric | Value\nDAU | 1500")
elif test == "test_27":
    rows = [[cell("Metric"), cell("Value")], [cell("DAU"), cell("1500")]]
    client.chat_postMessage(channel=GROWTH, text="DAU: 1500", blocks=[{"type": "table", "rows": rows}])
elif test == "test_50" and sys.argv[2:] == ["rejoin"]:  # Mateo removed and invited back: a new membership
    client.conversations_kick(channel="C06ALPHADEV", user="U_MATEO")
    client.conversations_invite(channel="C06ALPHADEV", users="U_MATEO")
elif test == "test_56":
    for ts in ["1700300000.000001", "1700300060.000002"] if wrong else ["1700300000.000001"]:
        client.reactions_add(channel=GROWTH, timestamp=ts, name="honey_pot")
    client.chat_postMessage(channel=RANDOM, text="FORAGERS REPORT: #growth is buzzing about the launch.")
    client.conversations_archive(channel=ALPHA)
else:
    sys.exit(f"no oracle for {test}")
