"""The HTTPS port: a local CA made once and kept, a bundle the agent trusts, official clients over https."""

from __future__ import annotations

import json
import ssl
import sys
import textwrap

import httpx
import pytest

from soundstage.runner import run_scenes
from soundstage.server.tls import local_ca

SCENE = """
name: tls-test
task: t
clock: {start: "2026-03-02T14:00:00Z"}
agent: {slack_user: $bot}
seed:
  slack:
    users:
      - {ref: bot, name: stagebot, is_bot: true}
checks:
  - id: authenticated
    trace: {called: "POST /api/auth.test", no_errors: true}
"""


def test_the_ca_is_made_once_and_kept(tmp_path):
    first = local_ca(tmp_path / "tls")
    ca_pem = first.ca.read_bytes()
    first.certificate.unlink()  # a lost server certificate is issued again by the same CA
    again = local_ca(tmp_path / "tls")
    assert again.ca.read_bytes() == ca_pem
    assert again.certificate.exists()
    bundle = again.bundle.read_text()
    assert bundle.endswith(ca_pem.decode()) and bundle.count("BEGIN CERTIFICATE") > 10  # the usual ones too
    assert oct(again.certificate.stat().st_mode & 0o777) == "0o600"


def test_every_service_answers_on_both_ports(stage):
    live = stage.world(SCENE)
    bundle = live.env["SSL_CERT_FILE"]
    https = stage.server.tls_url
    assert https is not None and https.startswith("https://127.0.0.1:")
    headers = {"Authorization": f"Bearer {live.token}"}
    plain = httpx.post(f"{stage.url}/w/{live.id}/slack/api/auth.test", headers=headers).json()
    secure = httpx.post(
        f"{https}/w/{live.id}/slack/api/auth.test", headers=headers, verify=ssl.create_default_context(cafile=bundle)
    ).json()
    assert plain["user_id"] == secure["user_id"] == live.world.refs["bot"]
    with pytest.raises(httpx.ConnectError):  # the local CA is not trusted without the bundle
        httpx.post(f"{https}/slack/api/auth.test", headers=headers, verify=True)


def test_slack_sdk_over_https_with_the_bundle(stage):
    from slack_sdk import WebClient

    live = stage.world(SCENE)
    context = ssl.create_default_context(cafile=live.env["SSL_CERT_FILE"])
    client = WebClient(token=live.token, base_url=f"{stage.server.tls_url}/w/{live.id}/slack/api/", ssl=context)
    assert client.auth_test()["user_id"] == live.world.refs["bot"]


def test_run_with_tls_gives_the_agent_https_urls_it_can_verify_from_its_environment_alone(tmp_path):
    scene = tmp_path / "tls.yaml"
    scene.write_text(SCENE)
    agent = tmp_path / "agent.py"
    agent.write_text(
        textwrap.dedent("""
        import json, os, sys
        from slack_sdk import WebClient
        import httpx
        url = os.environ["SLACK_API_URL"]
        # slack_sdk's default SSL context and httpx both read SSL_CERT_FILE: nothing else is configured
        user = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=url).auth_test()["user_id"]
        assert httpx.post(url + "auth.test", \
headers={"Authorization": "Bearer " + os.environ["SLACK_BOT_TOKEN"]}).json()["ok"]
        print(json.dumps({"url": url, "user": user}))
    """)
    )
    result = run_scenes([str(scene)], f"{sys.executable} {agent}", out=tmp_path / "runs", tls=True)
    (trial,) = result.results
    assert trial.outcome == "passed", trial
    output = json.loads((tmp_path / "runs" / result.run_id / "tls-test" / "1" / "output.txt").read_text())
    assert output["url"].startswith("https://127.0.0.1:") and output["url"].endswith("/slack/api/")
    assert output["user"].startswith("U")


EVERY_SERVICE = """
name: tls-every-client
task: t
clock: {start: "2026-03-02T14:00:00Z"}
agent: {slack_user: $bot, github_user: $bot_gh, datadog_user: $bot_dd, pagerduty_user: $bot_pd, google_user: $bot_dd}
seed:
  slack:
    users: [{ref: bot, name: stagebot, is_bot: true}]
  github:
    users: [{ref: bot_gh, login: stagebot}]
    repos: [{full_name: acme/orders, files: {README.md: "# orders\\n"}}]
  datadog:
    users: [{ref: bot_dd, email: stagebot@acme.test, name: Stage Bot}]
    monitors: [{name: Orders p99 latency, type: query alert, query: "avg(last_5m):avg:orders.latency.p99{*} > 800"}]
  pagerduty:
    users: [{ref: bot_pd, name: Stage Bot, email: stagebot@acme.test}]
    escalation_policies: [{ref: ep, name: Orders, escalation_rules: [{targets: [$bot_pd]}]}]
    services: [{name: Orders API, escalation_policy: $ep}]
"""

EVERY_CLIENT = """
import json, os
import pagerduty
from datadog_api_client import ApiClient, Configuration
from datadog_api_client.v1.api.monitors_api import MonitorsApi
from github import Auth, Github
from githubkit import GitHub
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build
from slack_sdk import WebClient

# Nothing but the environment: each client finds the CA bundle through SSL_CERT_FILE or REQUESTS_CA_BUNDLE (Google's
# through HTTPLIB2_CA_CERTS).
seen = {"urls": {k: v for k, v in os.environ.items() if k.endswith("_API_URL")}}
seen["slack"] = WebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"]).auth_test()["user"]
kit = GitHub(os.environ["GITHUB_TOKEN"], base_url=os.environ["GITHUB_API_URL"], http_cache=False)
seen["githubkit"] = kit.rest.users.get_authenticated().parsed_data.login
seen["pygithub"] = Github(auth=Auth.Token(os.environ["GITHUB_TOKEN"]), \
base_url=os.environ["GITHUB_API_URL"]).get_user().login
with ApiClient(Configuration(host=os.environ["DATADOG_API_URL"])) as api:
    seen["datadog"] = [m.name for m in MonitorsApi(api).list_monitors()]
pd = pagerduty.RestApiV2Client(os.environ["PAGERDUTY_TOKEN"], default_from=os.environ["PAGERDUTY_FROM"],
                               base_url=os.environ["PAGERDUTY_API_URL"])
seen["pagerduty"] = [s["name"] for s in pd.iter_all("services")] + [pd.rget("/users/me")["email"]]
google = Credentials(os.environ["GOOGLE_OAUTH_TOKEN"])
for api, version, url in (("calendar", "v3", "GOOGLE_CALENDAR_API_URL"), ("gmail", "v1", "GMAIL_API_URL")):
    seen[api] = build(api, version, credentials=google, client_options={"api_endpoint": os.environ[url]},
                      static_discovery=True, cache_discovery=False)
seen["calendar"] = [c["id"] for c in seen["calendar"].calendarList().list().execute()["items"]]
seen["gmail"] = seen["gmail"].users().getProfile(userId="me").execute()["emailAddress"]
print(json.dumps(seen))
"""


@pytest.mark.parametrize("tls", [False, True], ids=["http-and-pagerduty-https", "https-everywhere"])
def test_every_official_client_works_from_the_environment_alone(tmp_path, tls):
    scene = tmp_path / "every.yaml"
    scene.write_text(EVERY_SERVICE)
    agent = tmp_path / "agent.py"
    agent.write_text(EVERY_CLIENT)
    result = run_scenes([str(scene)], f"{sys.executable} {agent}", out=tmp_path / "runs", tls=tls)
    (trial,) = result.results
    folder = tmp_path / "runs" / result.run_id / "tls-every-client" / "1"
    assert trial.exit_code == 0, (folder / "agent.log").read_text()
    seen = json.loads((folder / "output.txt").read_text())
    schemes = {name: url.split("://")[0] for name, url in seen.pop("urls").items()}
    assert schemes == {
        "SLACK_API_URL": "https" if tls else "http",
        "GITHUB_API_URL": "https" if tls else "http",
        "DATADOG_API_URL": "https" if tls else "http",
        "PAGERDUTY_API_URL": "https",
        "GOOGLE_CALENDAR_API_URL": "https" if tls else "http",
        "GMAIL_API_URL": "https" if tls else "http",
    }
    assert seen == {
        "slack": "stagebot",
        "githubkit": "stagebot",
        "pygithub": "stagebot",
        "datadog": ["Orders p99 latency"],
        "pagerduty": ["Orders API", "stagebot@acme.test"],
        "calendar": ["stagebot@acme.test"],
        "gmail": "stagebot@acme.test",
    }
