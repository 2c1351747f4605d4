"""People who read mail (`SCENE`, for the tests of people and Gmail), and a trial whose agent mails them, run as
`soundstage run` runs one, for the tests of what reads a trial folder (the transcript, the viewer, `soundstage
explain`): the agent (Maya's Gmail) asks Omar by mail, Priya in Cc; Omar answers with the workspace, Priya, who
is asked for it as written, sends the agent to him."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.services.google_world import SCENE as GOOGLE_SCENE

from soundstage.runner import run_scenes

# The agent is Maya. Omar answers in 10 minutes and owns the workspace id; Priya answers in an hour, owns the
# contract's value (confidential) and, asked for the workspace, sends the asker to Omar.
SCENE = (
    GOOGLE_SCENE
    + """      - {ref: priya, name: priya, real_name: Priya Raman, email: priya@acme.test}
people:
  - ref: omar
    slack_user: $omar
    reply_after: 10m
    facts:
      - id: workspace
        text: "Northwind is on workspace W-4821."
        match: ["W-4821"]
        ask: ["workspace"]
        referred_by: [$priya]
  - ref: priya
    slack_user: $priya
    reply_after: 1h
    facts:
      - {id: contract, text: "Northwind pays 180k a year.", match: ["180k"], ask: ["contract"], confidential: true}
      - {id: renewal, text: "They renew on June 30.", match: ["June 30"], ask: ["renewal"]}
"""
)

TRIAL = (
    SCENE.replace("name: google-test", "name: mail-test")
    + """checks:
  - id: learned
    revealed: [omar.workspace]
  # Priya never carries the workspace: she only names its owner.
  - id: priya_told_it
    message: {from: $priya, carries: [omar.workspace]}
"""
)


AGENT = """
import base64, json, os, sys, urllib.request
from email.message import EmailMessage


def call(url, body, token):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + token},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


sys.stdin.read()
message = EmailMessage()
message["To"] = "Omar Haddad <omar@acme.test>"
message["Cc"] = "priya@acme.test"
message["Subject"] = "Northwind"
message.set_content("Hi Omar,\\n\\nwhich workspace is Northwind on?\\n\\nMaya")
raw = base64.urlsafe_b64encode(message.as_bytes()).decode()
call(os.environ["GMAIL_API_URL"] + "gmail/v1/users/me/messages/send", {"raw": raw}, os.environ["GOOGLE_OAUTH_TOKEN"])
call(os.environ["SOUNDSTAGE_URL"] + "/clock", {"advance": "1h"}, os.environ["SOUNDSTAGE_TOKEN"])
print("asked")
"""


# Dana, Harbor Hall's events manager, is outside Slack: she only mails. The agent asks her for the deposit; she
# answers in two hours, by mail.
OUTSIDE = (
    TRIAL.replace("name: mail-test", "name: outside-test")
    .replace("revealed: [omar.workspace]", "revealed: [dana.deposit]")
    .replace(
        "people:\n",
        """people:
  - ref: dana
    email: events@harborhall.example
    name: Dana Wells
    reply_after: 2h
    facts:
      - {id: deposit, text: "A 30% deposit holds the date.", match: ["30% deposit"], ask: ["deposit"]}
""",
    )
)
OUTSIDE_AGENT = (
    AGENT.replace('"Omar Haddad <omar@acme.test>"', '"Dana Wells <events@harborhall.example>"')
    .replace('message["Cc"] = "priya@acme.test"\n', "")
    .replace("Hi Omar,\\n\\nwhich workspace is Northwind on?", "Hi Dana,\\n\\nwhat deposit do you need?")
    .replace('{"advance": "1h"}', '{"advance": "2h"}')
)


def mail_trial(folder: Path, trial: str = TRIAL, agent: str = AGENT) -> Path:
    """Runs the scene once with the agent under `folder`; the trial's folder."""
    (folder / "mail.yaml").write_text(trial)
    (folder / "mail_agent.py").write_text(agent)
    run = run_scenes([str(folder / "mail.yaml")], f"{sys.executable} {folder / 'mail_agent.py'}", out=folder / "runs")
    return Path(run.results[0].folder)
