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
from pathlib import Path
from typing import Any

import httpx
import pytest

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
    assert page.locator(".card[data-scene='csv-export'] .meta").first.inner_text().count("0%") == 3
    estimates = page.locator(".card[data-scene='csv-export'] .estimates").inner_text()
    assert "pass@1 0% pass^1 0%" in estimates and "pass@2 0% pass^2 0%" in estimates
    screenshot(page, "run")
    page.click("#trials a:text('trial 1')")
    page.wait_for_selector("#timeline")
    check = page.locator(".check[data-check='answered_in_thread']")
    assert "failed" in check.get_attribute("class")
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
        assert "revealed laura.invoice to" in revealed
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
