"""docker/: the image's command, run outside Docker as the container runs it (no Docker engine runs on these
machines), and the compose file checked by Docker Compose itself."""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from tests.ports import free_port

ROOT = Path(__file__).parent.parent
DOCKER = ROOT / "docker"


def image_command() -> list[str]:
    """The Dockerfile's CMD, and the variables its ENV sets."""
    text = (DOCKER / "Dockerfile").read_text()
    match = re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)
    assert match is not None
    return json.loads(match.group(1))


def with_ports(command: list[str], http: int, tls: int) -> list[str]:
    """The same command on free ports (the machine's own 8750 may be taken); nothing else changes."""
    swapped = {"8750": str(http), "8751": str(tls)}
    return [
        swapped.get(word, word) if i and command[i - 1] in ("--port", "--tls-port") else word
        for i, word in enumerate(command)
    ]


def image_tree(into: Path) -> Path:
    """The image's /soundstage: exactly what the Dockerfile's COPY lines put there, so a folder the image
    forgets (a scene's check library, say) fails here as it would in the container."""
    tree = into / "soundstage"
    tree.mkdir()
    for line in (DOCKER / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, target = line.split()[1:]
            for source in sources:
                copied = tree / target / Path(source).name if target.endswith("/") else tree / target
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, copied)
                else:
                    copied.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(ROOT / source, copied)
    return tree


def start(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "soundstage", *command[1:]],
        cwd=env["SOUNDSTAGE_PATH"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def container_env(tmp_path: Path) -> dict[str, str]:
    """The image's environment, with a copy of the image's files where the image has /soundstage."""
    return {
        "PATH": os.environ["PATH"],
        "SOUNDSTAGE_PATH": str(image_tree(tmp_path)),
        "SOUNDSTAGE_HOME": str(tmp_path / "home"),
    }


def test_the_image_command_needs_the_admin_token(tmp_path: Path) -> None:
    command = image_command()
    assert command[:5] == ["soundstage", "serve", "--host", "0.0.0.0", "--port"]
    server = start(with_ports(command, free_port(), free_port()), container_env(tmp_path))
    _, stderr = server.communicate(timeout=60)
    assert server.returncode == 2
    assert "0.0.0.0 is reachable from other machines: set SOUNDSTAGE_ADMIN_TOKEN" in stderr


def test_the_image_command_serves_behind_mapped_ports(tmp_path: Path) -> None:
    http, tls = free_port(), free_port()
    env = {
        **container_env(tmp_path),
        "SOUNDSTAGE_ADMIN_TOKEN": "container-secret",
        # The host maps its ports 18750 and 18751 to the container's: the URLs handed out must be those.
        "SOUNDSTAGE_PUBLIC_URL": "http://localhost:18750",
        "SOUNDSTAGE_PUBLIC_TLS_URL": "https://localhost:18751",
    }
    server = start(with_ports(image_command(), http, tls), env)
    try:
        base = f"http://127.0.0.1:{http}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, server.stderr.read() if server.stderr else ""
            time.sleep(0.2)
        ca = httpx.get(f"{base}/v1/ca.pem", timeout=5)
        assert ca.text.startswith("-----BEGIN CERTIFICATE-----")
        assert ca.text == (tmp_path / "home" / "tls" / "ca.pem").read_text()
        admin = {"authorization": "Bearer container-secret"}
        # Every scene the image carries builds there (its worlds and check libraries came along).
        scenes = httpx.get(f"{base}/v1/scenes", headers=admin, timeout=30).json()
        assert len(scenes) == len(list((ROOT / "seeds").glob("*.yaml")))
        for scene in scenes:
            built = httpx.post(f"{base}/v1/worlds", json={"scene": scene["name"]}, headers=admin, timeout=30)
            assert built.status_code == 201, built.text
        world = httpx.post(f"{base}/v1/worlds", json={"scene": "bad-deploy"}, headers=admin, timeout=30).json()
        assert world["env"]["SOUNDSTAGE_URL"] == f"http://localhost:18750/v1/worlds/{world['id']}"
        assert world["urls"]["slack"] == f"http://localhost:18750/w/{world['id']}/slack"
        assert world["urls"]["pagerduty"] == f"https://localhost:18751/w/{world['id']}/pagerduty"
        # The https port answers with a certificate the published CA signs.
        trust = ssl.create_default_context(cafile=str(tmp_path / "home" / "tls" / "ca.pem"))
        with httpx.Client(verify=trust) as secure:
            assert secure.get(f"https://localhost:{tls}/healthz", timeout=10).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def compose() -> list[str] | None:
    if (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True, check=False).returncode == 0
    ):
        return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


def test_the_compose_file_is_valid_and_asks_for_the_admin_token() -> None:
    found = compose()
    if found is None:
        if os.environ.get("SOUNDSTAGE_TEST_DOCKER") == "required":
            pytest.fail("SOUNDSTAGE_TEST_DOCKER=required, but neither `docker compose` nor docker-compose is here")
        pytest.skip("no Docker Compose on this machine (Debian: apt-get install docker-compose)")
    file = str(DOCKER / "compose.yaml")
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}
    done = subprocess.run(
        [*found, "-f", file, "config"],
        env={**env, "SOUNDSTAGE_ADMIN_TOKEN": "x"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "SOUNDSTAGE_DB: postgresql://soundstage@store:5432/soundstage" in done.stdout
    refused = subprocess.run([*found, "-f", file, "config"], env=env, capture_output=True, text=True, check=False)
    assert refused.returncode != 0
    assert "set SOUNDSTAGE_ADMIN_TOKEN, the control API's secret" in refused.stderr
