"""The web viewer (docs/viewer.md): its page over HTTP, and what a person sees of it in a real browser.

The browser tests drive the system's Chromium, headless, with Playwright. Without Chromium or Playwright they
skip, saying why, unless SOUNDSTAGE_TEST_BROWSER=required (`.ci/run` sets it, so CI never skips them). Each
view's screenshot is kept in SOUNDSTAGE_TEST_ARTIFACTS (default: test-artifacts/ in the checkout).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from tests.people.mail_trial import mail_trial

from soundstage.results import FolderRuns
from soundstage.runner import run_scenes
from soundstage.server import Server

from .test_control import SCENE
from .test_runs import finish, say_hello

ROOT = Path(__file__).parents[2]
ARTIFACTS = Path(os.environ.get("SOUNDSTAGE_TEST_ARTIFACTS") or ROOT / "test-artifacts") / "viewer"


def test_the_page_is_served_with_a_strict_content_policy(stage: Any) -> None:
    bare = httpx.Client(base_url=stage.url)  # the page itself needs no token; its data does
    page = bare.get("/ui/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe-inline" not in policy
    assert '<script src="/ui/viewer.js" defer></script>' in page.text
    assert bare.get("/ui/viewer.js").headers["content-type"] == "text/javascript; charset=utf-8"
    assert bare.get("/ui/viewer.css").headers["content-type"] == "text/css; charset=utf-8"
    redirect = bare.get("/ui", follow_redirects=False)
    assert (redirect.status_code, redirect.headers["location"]) == (308, "/ui/")
    for path in ("/ui/../control.py", "/ui/index.htm", "/ui/..%2Fviewer.py"):
        assert bare.get(path).status_code == 404, path
    assert bare.get("/v1/runs").status_code == 401
    bare.close()


# ---- in a real browser ----


def chromium() -> str | None:
    return os.environ.get("SOUNDSTAGE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "Playwright is not installed (pip install -e '.[test]')"
    if reason is None and chromium() is None:
        reason = "no Chromium on this machine (Debian: apt-get install chromium)"
    if reason is not None:
        if os.environ.get("SOUNDSTAGE_TEST_BROWSER") == "required":
            pytest.fail(f"SOUNDSTAGE_TEST_BROWSER=required, but {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), headless=True)
        yield launched
        launched.close()


@pytest.fixture
def errors() -> list[str]:
    """What the page reported: script errors, and resources refused or failing."""
    return []


@pytest.fixture
def page(browser: Any, errors: list[str]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield opened
    context.close()
    assert errors == []  # no script error, nothing the content policy refused


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`soundstage view`, as a user starts it, over two runs of the CSV export scene (two trials each): by
    the example agent that passes it and by the careless one that does not."""
    root = tmp_path_factory.mktemp("viewer")
    scene = str(ROOT / "seeds" / "csv-export.yaml")
    runs = {}
    for name in ("csv_export", "careless_support"):
        agent = f"{sys.executable} {ROOT / 'examples' / 'agents' / name}.py"
        runs[name] = run_scenes([scene], agent, trials=2, out=root / "runs").run_id
    process = subprocess.Popen(
        [sys.executable, "-m", "soundstage", "view", "--out", str(root / "runs"), "--port", "0", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k not in ("SOUNDSTAGE_ADMIN_TOKEN", "SOUNDSTAGE_DB")},
    )
    assert process.stdout is not None
    started = json.loads(process.stdout.readline())
    yield {**started, "runs": runs}
    process.terminate()
    process.wait(timeout=10)


def test_the_runs_with_their_pass_rates_and_trends(page: Any, viewer: dict[str, Any]) -> None:
    page.goto(viewer["ui"])
    page.wait_for_selector("#runs")
    rows = page.locator("#runs tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-run") == viewer["runs"]["careless_support"]  # newest first
    assert "csv-export: pass@1 0%, pass^k 0%" in rows.nth(0).inner_text()
    assert "csv-export: pass@1 100%, pass^k 100%" in rows.nth(1).inner_text()
    trend = page.locator('#trends tr[data-scene="csv-export"]')
    assert trend.locator("rect").count() == 2  # one bar per run
    assert trend.locator("td").last.inner_text() == "0%"  # the latest run's pass@1
    screenshot(page, "runs")


def test_a_failed_checks_evidence_link_highlights_the_call_behind_it(page: Any, viewer: dict[str, Any]) -> None:
    careless = viewer["runs"]["careless_support"]
    page.goto(viewer["ui"])
    page.click(f"#runs a[href='#/run/{careless}']")
    page.wait_for_selector("#trials")
    meta = page.locator(".card[data-scene='csv-export'] .meta").first.inner_text()
    assert meta.count("0%") == 3
    # Partial credit: the careless agent's trials each get 4 of csv-export's 14 weighed checks (0.29).
    assert "mean score 0.29" in meta
    assert page.locator("#trials td.score").all_inner_texts() == ["0.29", "0.29"]
    estimates = page.locator(".card[data-scene='csv-export'] .estimates").inner_text()
    assert "pass@1 0% pass^1 0%" in estimates and "pass@2 0% pass^2 0%" in estimates
    screenshot(page, "run")
    page.click("#trials a:text('trial 1')")
    page.wait_for_selector("#timeline")
    assert page.inner_text("#score") == "score 0.29"
    check = page.locator(".check[data-check='answered_in_thread']")
    assert "failed" in check.get_attribute("class")
    assert check.locator(".weight").inner_text().strip() == "(weight 4)"
    assert "none of" in check.locator("dd").nth(1).inner_text()  # what was found instead
    assert page.locator(".entry.highlight").count() == 0
    check.locator("a.evidence-link").first.click()
    highlighted = page.locator(".entry.highlight")
    highlighted.wait_for()
    assert highlighted.count() == 1
    assert highlighted.get_attribute("data-seq") == check.locator("a.evidence-link").first.get_attribute("data-seq")
    assert "slack POST /api/chat.postMessage 200" in highlighted.inner_text()
    assert highlighted.is_visible()
    assert page.evaluate("location.hash").endswith("/" + highlighted.get_attribute("data-seq"))
    screenshot(page, "trial")
    # The state diff, per collection.
    messages = page.locator("#diff details[data-collection='slack.messages']")
    assert "1 added, 0 removed, 0 changed" in messages.locator("summary").inner_text()
    messages.locator("summary").click()
    assert "You can find the CSV export" in messages.locator("pre").first.inner_text()
    screenshot(page, "diff")


def test_two_runs_compared(page: Any, viewer: dict[str, Any]) -> None:
    good, careless = viewer["runs"]["csv_export"], viewer["runs"]["careless_support"]
    page.goto(viewer["ui"])
    page.wait_for_selector("#runs")
    page.check(f"input[data-run='{good}']")
    assert page.is_disabled("#compare")
    page.check(f"input[data-run='{careless}']")
    page.click("#compare")
    page.wait_for_selector("#verdict")
    assert page.evaluate("location.hash") == f"#/compare/{good}/{careless}"  # the older run is A
    assert "B regressed" in page.inner_text("#verdict")
    worse = page.locator("#worse tbody tr")
    assert "answered_in_thread" in worse.nth(1).inner_text()
    assert "regressed" in worse.nth(1).inner_text()
    [scores] = page.locator("#scores tbody tr").all_inner_texts()
    assert scores.split("\t")[:4] == ["csv-export", "1.00", "0.29", "-0.71"]
    screenshot(page, "compare")
    worse.nth(1).locator("a:text('trial 2')").click()
    page.wait_for_selector("#timeline")
    assert f"{careless} · csv-export · trial 2" in page.inner_text("h1")


def test_the_viewer_of_a_server_asks_for_the_admin_token(page: Any, errors: list[str]) -> None:
    """`/ui/` on `soundstage serve`: its runs over HTTP, once the page is given the admin token."""
    with Server(tls_port=None) as server, httpx.Client(base_url=server.url) as http:
        admin = {"authorization": f"Bearer {server.admin_token}"}
        run = http.post("/v1/runs", json={"scene_yaml": SCENE}, headers=admin).json()
        [world] = run["worlds"]
        say_hello(world, text="hello <img src=x onerror=alert(1)>")  # shown as text, never as markup
        finish(None, world)
        page.goto(f"{server.url}/ui/")
        page.wait_for_selector("#token")
        assert errors == ["Failed to load resource: the server responded with a status of 401 (Unauthorized)"]
        errors.clear()
        screenshot(page, "token")
        page.fill("#token", server.admin_token)
        page.click("button[type=submit]")
        page.wait_for_selector("#runs")
        page.click(f"a[href='#/run/{run['id']}']")
        page.click("#trials a:text('trial 1')")
        page.wait_for_selector("#timeline")
        posted = page.locator(".entry.call").nth(1)
        assert "hello <img src=x onerror=alert(1)>" in posted.inner_text()
        assert page.locator("#timeline img").count() == 0
        assert page.locator(".check.passed").count() == 2


def test_the_timeline_tells_people_faults_and_the_clock(page: Any, tmp_path: Path) -> None:
    """A trial of a scene with people (they reveal facts and decide) and one with a fault that the agent fixes."""
    out = tmp_path / "runs"
    for scene, agent in (("refund-approval", "refund_approval"), ("bad-deploy", "bad_deploy")):
        command = f"{sys.executable} {ROOT / 'examples' / 'agents' / agent}.py"
        run_scenes([str(ROOT / "seeds" / f"{scene}.yaml")], command, out=out)
    with Server(tls_port=None, libraries=[FolderRuns(out)]) as server:
        refund, deploy = sorted(folder.name for folder in out.iterdir())
        page.goto(f"{server.url}/ui/#token={server.admin_token}&go=%23%2Ftrial%2F{refund}%2Frefund-approval%2F1")
        page.wait_for_selector("#timeline")
        kinds = page.locator("#timeline .entry .kind").all_inner_texts()
        assert {"message", "revealed", "decided", "clock", "asked", "told"} <= set(kinds)
        revealed = page.locator(".entry.revealed").first.inner_text()
        assert "(@laura) revealed laura.invoice to U954GCKR0NM (@stagebot)" in revealed  # names beside ids
        asked_laura = page.locator(".entry.message").first.inner_text()
        assert "agent U954GCKR0NM (@stagebot) in D" in asked_laura and " (DM with @laura): Hi Laura" in asked_laura
        assert "decided priya.refund: approve the refund" in page.locator(".entry.decided").inner_text()
        assert "the clock moved 15s" in page.locator(".entry.clock").first.inner_text()
        assert page.locator(".entry.asked.quiet").count() > 0  # what people were asked is told in grey
        screenshot(page, "timeline-people")
        page.goto(f"{server.url}/ui/#/trial/{deploy}/bad-deploy/1")
        page.wait_for_selector("#timeline")
        assert page.locator(".entry.fault_started").inner_text().endswith("fault bad_deploy started")
        assert page.locator(".entry.fault_resolved").inner_text().endswith("fault bad_deploy resolved")
        assert "milestone reached:" in page.locator(".entry.milestone").first.inner_text()
        screenshot(page, "timeline-faults")


def opened_at(viewer: dict[str, Any], route: str) -> str:
    """The viewer's address, given its token, opening at `route`."""
    return viewer["ui"].split("&go=")[0] + "&go=" + quote(route, safe="")


def test_each_calls_answer_beside_it_with_the_names_of_the_ids_it_sends(page: Any, viewer: dict[str, Any]) -> None:
    careless = viewer["runs"]["careless_support"]
    page.goto(opened_at(viewer, f"#/trial/{careless}/csv-export/1"))
    page.wait_for_selector("#timeline")
    posted, edited = page.locator(".entry.call").nth(2), page.locator(".entry.call").nth(3)
    assert "slack POST /api/chat.postMessage 200" in posted.inner_text()
    # Its answer: the status and the start of the body, the whole body (as the trace has it) once opened.
    answer = posted.locator("details.response")
    assert answer.locator("summary").inner_text().startswith('response 200 {"ok":true,"channel":"C')
    assert not answer.locator("pre").is_visible()
    answer.locator("summary").click()
    assert '"text": "You can find the CSV export under Settings > Data."' in answer.locator("pre").inner_text()
    # Slack's failures are answered with 200: the call is an error by its body, and its answer is open.
    assert "error" in edited.get_attribute("class")
    assert edited.locator("details.response pre").is_visible()
    assert '"error": "cant_update_message"' in edited.locator("details.response pre").inner_text()
    # The channel it posted to, by name beside its id.
    assert posted.locator(".names").inner_text().endswith(" #support")
    screenshot(page, "trial-responses")


def test_a_trials_stderr(page: Any, viewer: dict[str, Any]) -> None:
    careless = viewer["runs"]["careless_support"]
    page.goto(opened_at(viewer, f"#/trial/{careless}/csv-export/2"))
    page.wait_for_selector("#timeline")
    assert page.inner_text("#stderr") == "could not edit the question: cant_update_message\n"
    assert page.inner_text("#output") == "Done.\n"
    screenshot(page, "trial-stderr")


def test_the_runs_filtered_by_scene_agent_and_day(page: Any, viewer: dict[str, Any]) -> None:
    good, careless = viewer["runs"]["csv_export"], viewer["runs"]["careless_support"]
    page.goto(viewer["ui"])
    page.wait_for_selector("#runs")
    assert page.inner_text("#shown") == "2 runs"
    agents = page.locator("#filter-agent option").all_inner_texts()
    careless_agent = next(agent for agent in agents if agent.endswith("careless_support.py"))
    page.select_option("#filter-agent", careless_agent)
    page.wait_for_selector("#unfilter")
    assert [row.get_attribute("data-run") for row in page.locator("#runs tbody tr").all()] == [careless]
    assert page.inner_text("#shown") == "1 of 2 runs"
    assert page.locator("#trends rect").count() == 1  # the trends of the runs shown
    screenshot(page, "runs-filtered")
    # The filters are in the address, so a filtered list can be shared; the page sends them to GET /v1/runs.
    address = page.url
    page.goto("about:blank")
    page.goto(address)
    page.wait_for_selector("#runs")
    assert page.input_value("#filter-agent") == careless_agent
    page.select_option("#filter-agent", "")
    page.locator("#shown:text-is('2 runs')").wait_for()
    page.select_option("#filter-scene", "csv-export")
    page.wait_for_selector("#unfilter")
    assert page.locator("#runs tbody tr").count() == 2
    created = page.locator(f"#runs tr[data-run='{good}'] td").nth(2).inner_text()[:10]
    page.fill("#filter-since", created)
    page.locator("#filter-since[value]").wait_for()
    assert (page.input_value("#filter-since"), page.inner_text("#shown")) == (created, "2 of 2 runs")
    later = (date.fromisoformat(created) + timedelta(days=1)).isoformat()
    page.fill("#filter-since", later)
    page.locator("#shown:text-is('0 of 2 runs')").wait_for()
    assert page.evaluate("location.hash") == f"#/runs?scene=csv-export&since={later}"
    page.click("#unfilter")
    page.locator("#shown:text-is('2 runs')").wait_for()
    assert page.evaluate("location.hash") == "#/runs"


HOSTILE_SCENE = """
name: hostile
task: "Say hello in #general."
clock: {start: "2026-03-02T14:00:00Z", tick: 5s}
agent: {slack_user: $bot, datadog_user: $bot_dd}
seed:
  slack:
    team: {name: Acme, domain: acme}
    users:
      - {ref: bot, name: stagebot, real_name: Stage Bot, is_bot: true}
    channels:
      - {ref: general, name: general, members: [$bot]}
  datadog:
    users:
      - {ref: bot_dd, handle: stagebot@acme.test, email: stagebot@acme.test, name: Stage Bot}
checks:
  - id: posted
    trace: {called: "POST /api/chat.postMessage"}
"""

HOSTILE_AGENT = """
import json, os, sys, urllib.request

MARKUP = "<img src=x onerror=document.title=1>"


def call(url, body=None, **headers):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json", **headers})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


sys.stdin.read()
dd = {"DD-API-KEY": os.environ["DD_API_KEY"], "DD-APPLICATION-KEY": os.environ["DD_APP_KEY"]}
query = "avg(last_5m):avg:orders.latency.p99{*} > 800"
monitor = {"name": MARKUP, "type": "metric alert", "query": query}
monitor = call(os.environ["DATADOG_API_URL"] + "/api/v1/monitor", monitor, **dd)
call(os.environ["DATADOG_API_URL"] + f"/api/v1/monitor/{monitor['id']}", **dd)
slack = {"authorization": "Bearer " + os.environ["SLACK_BOT_TOKEN"]}
channels = call(os.environ["SLACK_API_URL"] + "conversations.list", {}, **slack)["channels"]
message = {"channel": channels[0]["id"], "text": MARKUP + "x" * 30000}
call(os.environ["SLACK_API_URL"] + "chat.postMessage", message, **slack)
sys.stderr.write("<script>document.title = 'pwned'</script>\\n")
print("done")
"""


def test_what_the_agent_wrote_is_shown_as_text_and_bounded(page: Any, tmp_path: Path) -> None:
    """Its request and response bodies, a name it gave a record, and its stderr: text, never markup."""
    (tmp_path / "hostile.yaml").write_text(HOSTILE_SCENE)
    (tmp_path / "hostile.py").write_text(HOSTILE_AGENT)
    out = tmp_path / "runs"
    made = run_scenes([str(tmp_path / "hostile.yaml")], f"{sys.executable} {tmp_path / 'hostile.py'}", out=out)
    markup = "<img src=x onerror=document.title=1>"
    with Server(tls_port=None, libraries=[FolderRuns(out)]) as server:
        page.goto(f"{server.url}/ui/#token={server.admin_token}&go=%23%2Ftrial%2F{made.run_id}%2Fhostile%2F1")
        page.wait_for_selector("#timeline")
        read = page.locator(".entry.call").nth(1)
        assert "datadog GET /api/v1/monitor/" in read.inner_text()
        assert read.locator(".names b").inner_text() == markup  # the monitor's name beside its id
        posted = page.locator(".entry.call").nth(3)
        assert posted.locator(".preview").first.inner_text().startswith('{"channel":"C')
        assert markup in posted.locator(".preview").first.inner_text()  # the request's body, as sent
        posted.locator("details.response summary").click()
        body = posted.locator("details.response pre").inner_text()
        assert '"text": "&lt;img src=x onerror=' in body  # Slack's answer escapes <, > and & its own way
        assert len(body) < 21_000 and body.endswith(" more characters not shown")
        assert page.inner_text("#stderr") == "<script>document.title = 'pwned'</script>\n"
        assert page.locator("#main img, #main script").count() == 0
        assert page.title() == "soundstage"
        screenshot(page, "trial-hostile")


def test_mail_shows_as_mail_with_its_headers(page: Any, tmp_path: Path) -> None:
    """A trial whose agent mailed Omar, Priya in Cc, and both answered by mail in the thread."""
    trial = mail_trial(tmp_path)
    run = trial.parents[1].name
    with Server(tls_port=None, libraries=[FolderRuns(tmp_path / "runs")]) as server:
        data = httpx.get(
            f"{server.url}/v1/runs/{run}/trials/1?scene=mail-test",
            headers={"Authorization": f"Bearer {server.admin_token}"},
        ).json()
        said = [e for e in data["events"] if e["kind"] == "message"]
        assert [(e["service"], e["mail"]["sender"], e["mail"]["to"], e["mail"]["cc"]) for e in said] == [
            ("gmail", "maya@acme.test", ["omar@acme.test"], ["priya@acme.test"]),
            ("gmail", "omar@acme.test", ["maya@acme.test"], []),
            ("gmail", "priya@acme.test", ["maya@acme.test"], []),
        ]
        page.goto(f"{server.url}/ui/#token={server.admin_token}&go=%23%2Ftrial%2F{run}%2Fmail-test%2F1")
        page.wait_for_selector("#timeline")
        mails = page.locator(".entry.message.mail")
        assert mails.count() == 3
        assert mails.locator(".kind").all_inner_texts() == ["mail", "mail", "mail"]
        asked = mails.nth(0)
        assert asked.locator(".mail-service").inner_text() == "gmail"
        assert asked.locator(".what").inner_text().startswith(f"gmail agent {said[0]['user']}")
        assert "<maya@acme.test>" in asked.inner_text()
        assert asked.locator(".mail-to").inner_text() == "to: omar@acme.test"
        assert asked.locator(".mail-cc").inner_text() == "cc: priya@acme.test"
        assert asked.locator(".mail-bcc").count() == 0
        thread = said[0]["channel"]
        assert (
            asked.locator(".mail-subject").inner_text() == f"subject: Northwind · thread {thread} · id {said[0]['ts']}"
        )
        assert asked.locator("q").inner_text() == "Hi Omar,\n\nwhich workspace is Northwind on?\n\nMaya"
        answer = mails.nth(1)
        assert answer.locator(".mail-to").inner_text() == "to: maya@acme.test"
        assert answer.locator(".mail-subject").inner_text().startswith(f"subject: Re: Northwind · thread {thread} ·")
        assert answer.locator("q").inner_text() == "Northwind is on workspace W-4821."
        screenshot(page, "timeline-mail")
