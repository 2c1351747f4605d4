"""Run by tests/services/test_toy_service.py in a fresh interpreter where the toy service is installed:
uses it everywhere soundstage reads services (registry, world files, the agent's environment, api faults,
the interception proxy, checks, the judge's prompt and redaction, the coverage page, `soundstage list`)
and prints what it saw as JSON.

    python drive.py PROJECT    # PROJECT holds worlds/shelf.yaml and seeds/shelf.yaml
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import requests
from tests.services.recorded_coverage import measure, render

from soundstage.checks import score, score_custom
from soundstage.checks.judge import SYSTEM, redact
from soundstage.errors import SpecError
from soundstage.server import Server, proxy
from soundstage.services import SERVICES
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene_text

BAD_FAULTS = """
name: bad
world: shelf
task: Nothing.
api_faults:
  - {id: a, service: toy, kind: server_error, status: 418}
  - {id: b, service: toy, kind: rate_limit, github_limit: primary}
  - {id: c, service: slack, kind: server_error, shelf: back}
"""


def main(project: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {
        "registered": list(SERVICES),
        "proxied": [proxy.vendor("api.toy.test"), proxy.vendor("api.toy.test", "/boxes")],
    }
    with Server(proxy_port=0) as server:
        world = server.hub.add(server.hub.images.load(scene=str(project / "seeds" / "shelf.yaml")))
        env = {name: str(value) for name, value in server.hub.environment(world, server.url).items()}
        auth = {"Authorization": f"Bearer {env['TOY_TOKEN']}"}
        seen["env"] = sorted(name for name in env if name.startswith("TOY_"))
        seen["seeded"] = requests.get(f"{env['TOY_API_URL']}/items", headers=auth, timeout=30).json()
        vendor = requests.Session()  # the agent left at the vendor's own host, through the proxy
        vendor.trust_env = False
        vendor.proxies, vendor.verify = {"https": env["HTTPS_PROXY"]}, env["SSL_CERT_FILE"]
        answers = []
        for method, path, body in [
            ("POST", "/items", {"name": "Teapot"}),  # the api fault `busy`: its first call is refused
            ("POST", "/items", {"name": "Teapot"}),
            ("GET", "/items/i3", None),  # `down`: every call of it fails
        ]:
            answer = vendor.request(method, f"https://api.toy.test{path}", json=body, headers=auth, timeout=30)
            retry = answer.headers.get("retry-after")
            answers.append([answer.status_code, answer.json(), retry])
        # The box service: the same token, the toy host's `/boxes`, a box for the person with an address.
        boxes = vendor.get("https://api.toy.test/boxes", headers=auth, timeout=30)
        answers.append([boxes.status_code, boxes.json(), None])
        seen["answers"] = answers
        seen["trace"] = [[c.service, c.method, c.path, c.status, c.operation, c.injected] for c in world.log.calls()]
        seen["checks"] = {r.id: [r.passed, r.actual] for r in score(world).checks}
        custom = score_custom(world, [{"id": "spoon", "state": {"toy.item": {"name": "Spoon"}}}]).checks[0]
        seen["custom"] = [custom.passed, custom.actual]
        seen["redacted"] = redact(f"token {env['TOY_TOKEN']}", [])
    seen["judged"] = SYSTEM[SYSTEM.index("(its ") : SYSTEM.index(")") + 1]
    try:
        build_image(*read_scene_text(BAD_FAULTS, str(project / "seeds" / "bad.yaml")))
    except SpecError as exc:
        seen["errors"] = [[e.line, e.field, e.message] for e in exc.errors]  # type: ignore[attr-defined]
    seen["coverage"] = render([measure(None, "toy")])
    command = [sys.executable, "-m", "soundstage", "list", "--operations", "--json"]
    listed = subprocess.run(command, check=True, capture_output=True, text=True)
    seen["listed"] = json.loads(listed.stdout)["services"]["toy"]
    return seen


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
