"""The interception proxy (docs/interception.md): clients left at the vendors' real hosts reach the world,
other hosts are tunnelled or refused, and every connection is logged in the world it came from."""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from soundstage.checks import score_custom
from soundstage.server import Server, proxy
from soundstage.server.hub import NODE_PRELOAD
from soundstage.world import World

from .test_control import SCENE

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


def live(server: Server, scene_yaml: str | None = None, scene: str | None = None) -> tuple[World, dict[str, str]]:
    image = server.hub.images.load(scene=scene, scene_yaml=scene_yaml)
    world = server.hub.add(image)
    return world, {k: str(v) for k, v in server.hub.environment(world, server.url).items()}


def python(env: dict[str, str], code: str) -> Any:
    """Runs `code` in a fresh interpreter with exactly the agent's environment; answers what it prints (JSON)."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def calls(world: World) -> list[tuple[str, str, str, int]]:
    return [(c.service, c.method, c.path, c.status) for c in world.log.calls()]


def test_the_agents_environment_goes_through_the_proxy(server: Server) -> None:
    _world, env = live(server, SCENE)
    token = env["SOUNDSTAGE_TOKEN"]
    proxy = f"http://agent:{token}@127.0.0.1:{server.hub.proxy.port}"  # type: ignore[union-attr]
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"):
        assert env[name] == proxy
    assert env["NO_PROXY"] == env["no_proxy"] == "127.0.0.1,localhost,::1"
    bundle = env["SSL_CERT_FILE"]
    assert env["REQUESTS_CA_BUNDLE"] == env["CURL_CA_BUNDLE"] == env["GIT_SSL_CAINFO"] == bundle
    assert env["NODE_EXTRA_CA_CERTS"].endswith("ca.pem")
    # Node: a release that reads the proxy variables when told so, else soundstage's preload, in the package.
    assert env["NODE_USE_ENV_PROXY"] == "1"
    assert env["NODE_OPTIONS"] == f'--require "{NODE_PRELOAD}"'
    assert NODE_PRELOAD.is_file()
    assert server.proxy_url == f"http://127.0.0.1:{server.hub.proxy.port}"  # type: ignore[union-attr]


def test_slack_sdk_at_slack_com(server: Server) -> None:
    world, env = live(server, SCENE)
    answered = python(
        env,
        "import json, os\n"
        "from slack_sdk import WebClient\n"
        "client = WebClient(token=os.environ['SLACK_BOT_TOKEN'])\n"  # the real base URL: https://slack.com/api/
        "general = client.conversations_list()['channels'][0]['id']\n"
        "posted = client.chat_postMessage(channel=general, text='hello through the proxy')\n"
        "print(json.dumps({'ok': posted['ok'], 'text': posted['message']['text']}))",
    )
    assert answered == {"ok": True, "text": "hello through the proxy"}
    assert calls(world) == [
        ("slack", "POST", "/api/conversations.list", 200),
        ("slack", "POST", "/api/chat.postMessage", 200),
    ]
    assert score_custom(world, [{"id": "s", "trace": {"not_called": ["outside:*"]}}]).passed


def test_pygithub_and_pagerduty_at_their_real_hosts(server: Server) -> None:
    world, env = live(server, scene="bad-deploy")
    answered = python(
        env,
        "import json, os\n"
        "import pagerduty\n"
        "from github import Auth, Github\n"
        "github = Github(auth=Auth.Token(os.environ['GITHUB_TOKEN']))\n"  # https://api.github.com
        "pulls = [p.number for p in github.get_repo('acme/orders').get_pulls()]\n"
        "pd = pagerduty.RestApiV2Client(os.environ['PAGERDUTY_TOKEN'], default_from=os.environ['PAGERDUTY_FROM'])\n"
        "incidents = [i['status'] for i in pd.list_all('incidents')]\n"
        "print(json.dumps({'pulls': pulls, 'incidents': incidents}))",
    )
    assert answered["pulls"] and answered["incidents"]
    services = {service for service, *_ in calls(world)}
    assert services == {"github", "pagerduty"}


@pytest.mark.skipif(shutil.which("curl") is None, reason="no curl on this machine")
def test_curl_with_slacks_documented_example(server: Server) -> None:
    world, env = live(server, SCENE)
    done = subprocess.run(
        [
            "curl",
            "-s",
            "-X",
            "POST",
            "https://slack.com/api/auth.test",
            "-H",
            f"Authorization: Bearer {env['SLACK_BOT_TOKEN']}",
        ],
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout)["ok"] is True, done.stderr
    assert calls(world) == [("slack", "POST", "/api/auth.test", 200)]


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "5")
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def connect(server: Server, target: str, token: str | None) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.hub.proxy.port), timeout=30)  # type: ignore[union-attr]
    auth = ""
    if token is not None:
        auth = "Proxy-Authorization: Basic " + base64.b64encode(f"agent:{token}".encode()).decode() + "\r\n"
    sock.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n{auth}\r\n".encode())
    return sock


def status_line(sock: socket.socket) -> str:
    return sock.recv(4096).decode().split("\r\n")[0]


def agent(options: str) -> str:
    """The test scene with more of `agent:`."""
    return SCENE.replace("agent: {slack_user: $bot}", "agent: {slack_user: $bot, " + options + "}")


@pytest.fixture
def hello() -> Iterator[int]:
    """The port of a local HTTP server that answers hello (HTTP/1.0: it closes after each answer)."""
    outside = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=outside.serve_forever, daemon=True).start()
    yield outside.server_address[1]
    outside.shutdown()
    outside.server_close()


def until_closed(sock: socket.socket) -> bytes:
    answer = b""
    while chunk := sock.recv(4096):
        answer += chunk
    return answer


def test_a_host_the_scene_allows_is_tunnelled_and_logged(server: Server, hello: int) -> None:
    world, env = live(server, agent(f"allow: ['127.0.0.1:{hello}']"))
    with connect(server, f"127.0.0.1:{hello}", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == "HTTP/1.1 200 Connection Established"
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)  # the agent's end of sending reaches the host; its answer still comes back
        answer = until_closed(sock)
        assert answer.startswith(b"HTTP/1.0 200 OK") and answer.endswith(b"hello")
    assert calls(world) == [("outside", "CONNECT", f"/127.0.0.1:{hello}", 200)]
    verdict = score_custom(world, [{"id": "stayed_inside", "trace": {"not_called": ["outside:*"]}}])
    assert verdict.passed is False


def test_an_offline_scene_refuses_other_hosts(server: Server) -> None:
    world, env = live(server, agent("network: offline"))
    with connect(server, "api.openai.com:443", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == "HTTP/1.1 403 Forbidden: this scene keeps the agent offline"
    assert calls(world) == [("outside", "CONNECT", "/api.openai.com:443", 403)]


def test_an_offline_scene_reaches_the_hosts_it_allows_alone(server: Server, hello: int) -> None:
    world, env = live(server, agent(f"network: offline, allow: ['LocalHost.:{hello}']"))
    assert world.agent["allow"] == [f"localhost:{hello}"]  # one spelling, as the proxy compares them
    with connect(server, f"localhost:{hello}", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == "HTTP/1.1 200 Connection Established"
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert until_closed(sock).endswith(b"hello")
    for target in (f"127.0.0.1:{hello}", f"localhost:{hello + 1}"):  # an entry names one host and one port
        with connect(server, target, env["SOUNDSTAGE_TOKEN"]) as sock:
            assert status_line(sock) == "HTTP/1.1 403 Forbidden: this scene keeps the agent offline"
    assert calls(world) == [
        ("outside", "CONNECT", f"/localhost:{hello}", 200),
        ("outside", "CONNECT", f"/127.0.0.1:{hello}", 403),
        ("outside", "CONNECT", f"/localhost:{hello + 1}", 403),
    ]


NOT_PUBLIC = "HTTP/1.1 403 Forbidden: not a public address (a scene may allow it: agent.allow)"


@pytest.mark.parametrize(
    "target",
    [
        "127.0.0.1:5432",  # the machine's PostgreSQL
        "control",  # the server's own control API: replaced by its port below
        "169.254.169.254:80",  # the clouds' metadata service
        "10.0.0.1:443",
        "172.16.0.1:443",
        "192.168.1.1:443",
        "100.64.0.1:443",  # carrier-grade NAT
        "0.0.0.0:80",
        "224.0.0.1:80",  # multicast
        "240.0.0.1:80",  # reserved
        "[::1]:5432",
        "[::]:80",
        "[fe80::1]:80",
        "[fc00::1]:443",
        "[::ffff:127.0.0.1]:5432",  # IPv4 inside IPv6
        "localhost:5432",  # a name that resolves to loopback
        "2130706433:5432",  # 127.0.0.1 written as one number, which the resolver reads
        "127.1:5432",
        "metadata.google.internal:80",  # refused by name, before any lookup
        "metadata:80",
        "instance-data:80",
        "db.internal:5432",
    ],
)
def test_a_host_off_the_public_internet_is_refused(server: Server, target: str) -> None:
    target = f"127.0.0.1:{server.port}" if target == "control" else target
    world, env = live(server, SCENE)
    with connect(server, target, env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == NOT_PUBLIC
    host, _, port = target.rpartition(":")
    assert calls(world) == [("outside", "CONNECT", f"/{host.strip('[]')}:{port}", 403)]


class Resolver:
    """The machine's resolver, but for the names given `answers`: each lookup of one takes its next answer
    (the last one repeats; none is no such name). `lookups` lists the names looked up so."""

    def __init__(self) -> None:
        self.answers: dict[str, list[list[str]]] = {}
        self.lookups: list[str] = []
        self.real = socket.getaddrinfo

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in self.answers:
            return self.real(host, port, *args, **kwargs)
        self.lookups.append(host)
        queue = self.answers[host]
        found = queue.pop(0) if len(queue) > 1 else queue[0]
        if not found:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, int(port))) for a in found
        ]


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    fake = Resolver()
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    return fake


@pytest.mark.parametrize("name", ["localtest.me", "foo.nip.io", "mixed.example"])
def test_a_name_is_judged_by_every_address_it_resolves_to(server: Server, resolver: Resolver, name: str) -> None:
    resolver.answers["localtest.me"] = [["127.0.0.1"]]
    resolver.answers["foo.nip.io"] = [["10.1.2.3"]]
    resolver.answers["mixed.example"] = [["93.184.215.14", "192.168.0.1"]]  # one public address, one private
    world, env = live(server, SCENE)
    with connect(server, f"{name}:443", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == NOT_PUBLIC
    assert calls(world) == [("outside", "CONNECT", f"/{name}:443", 403)]
    assert resolver.lookups == [name]


def test_the_tunnel_goes_to_the_address_that_was_checked(server: Server, resolver: Resolver, hello: int) -> None:
    """A name is looked up once: a second lookup could answer another address (DNS rebinding)."""
    resolver.answers["rebind.example"] = [["127.0.0.1"], ["127.0.0.2"]]  # nothing listens at the second
    world, env = live(server, agent(f"allow: ['rebind.example:{hello}']"))
    with connect(server, f"rebind.example:{hello}", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert status_line(sock) == "HTTP/1.1 200 Connection Established"
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert until_closed(sock).endswith(b"hello")
    assert resolver.lookups == ["rebind.example"]
    assert calls(world) == [("outside", "CONNECT", f"/rebind.example:{hello}", 200)]


def test_a_tunnel_that_cannot_be_made_is_logged_as_502(server: Server, resolver: Resolver) -> None:
    resolver.answers["nowhere.example"] = [[]]  # no such name
    world, env = live(server, SCENE)
    answers = []
    for target in ("nowhere.example:443", "api.example:443 and more", "no-port"):
        with connect(server, target, env["SOUNDSTAGE_TOKEN"]) as sock:
            answers.append(status_line(sock))
    assert calls(world) == [
        ("outside", "CONNECT", "/nowhere.example:443", 502),
        ("outside", "CONNECT", "/api.example:443 and more", 400),
        ("outside", "CONNECT", "/no-port", 400),
    ]
    assert answers == [
        "HTTP/1.1 502 Bad Gateway: the host name could not be resolved",
        "HTTP/1.1 400 Bad Request: CONNECT needs host:port",
        "HTTP/1.1 400 Bad Request: CONNECT needs host:port",
    ]


def test_a_host_that_cannot_be_reached_in_time_is_logged_as_502(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        closed = unused.getsockname()[1]
    world, env = live(server, agent(f"allow: ['127.0.0.1:{closed}', 'localhost:{closed}']"))
    answers = []
    with connect(server, f"127.0.0.1:{closed}", env["SOUNDSTAGE_TOKEN"]) as sock:  # refused
        answers.append(status_line(sock))
    monkeypatch.setattr(proxy, "CONNECT_TIMEOUT", 0)  # a connection that takes too long
    with connect(server, f"localhost:{closed}", env["SOUNDSTAGE_TOKEN"]) as sock:
        answers.append(status_line(sock))
    monkeypatch.setattr(proxy, "RESOLVE_TIMEOUT", 0)  # a lookup that takes too long
    with connect(server, f"localhost:{closed}", env["SOUNDSTAGE_TOKEN"]) as sock:
        answers.append(status_line(sock))
    assert calls(world) == [
        ("outside", "CONNECT", f"/127.0.0.1:{closed}", 502),
        ("outside", "CONNECT", f"/localhost:{closed}", 502),
        ("outside", "CONNECT", f"/localhost:{closed}", 502),
    ]
    assert answers == [
        "HTTP/1.1 502 Bad Gateway: the host could not be connected",
        "HTTP/1.1 502 Bad Gateway: the host could not be connected",
        "HTTP/1.1 502 Bad Gateway: the host name could not be resolved",
    ]


def test_a_client_that_does_not_send_its_request_head_in_time_is_closed(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proxy, "HEAD_TIMEOUT", 0.1)
    port = server.hub.proxy.port  # type: ignore[union-attr]
    timed_out = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    with (
        socket.create_connection(("127.0.0.1", port), timeout=30) as silent,
        socket.create_connection(("127.0.0.1", port), timeout=30) as partial,
    ):
        partial.sendall(b"CONNECT api.openai.com:443 HTTP/1.1\r\nHost: api.open")
        assert until_closed(silent) == until_closed(partial) == timed_out


def test_connections_still_sending_their_head_are_bounded(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past WAITING, the connection that has waited longest is closed: a flood of silent connections keeps
    no agent out, and holds no more than WAITING sockets."""
    monkeypatch.setattr(proxy, "WAITING", 2)
    port = server.hub.proxy.port  # type: ignore[union-attr]
    world, env = live(server, agent("network: offline"))
    silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(3)]
    try:
        assert silent[0].recv(4096) == b""  # the third closed the first
        with connect(server, "api.openai.com:443", env["SOUNDSTAGE_TOKEN"]) as sock:
            assert status_line(sock) == "HTTP/1.1 403 Forbidden: this scene keeps the agent offline"
        assert silent[1].recv(4096) == b""  # the agent's closed the second
    finally:
        for sock in silent:
            sock.close()
    assert calls(world) == [("outside", "CONNECT", "/api.openai.com:443", 403)]


def test_a_worlds_tunnels_are_bounded_and_one_that_ends_frees_its_place(
    server: Server, hello: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proxy, "TUNNELS", 1)
    world, env = live(server, agent(f"allow: ['127.0.0.1:{hello}']"))
    other, other_env = live(server, agent(f"allow: ['127.0.0.1:{hello}']"))
    target, token = f"127.0.0.1:{hello}", env["SOUNDSTAGE_TOKEN"]
    with connect(server, target, token) as first:
        assert status_line(first) == "HTTP/1.1 200 Connection Established"
        with connect(server, target, token) as second:
            assert status_line(second) == "HTTP/1.1 429 Too Many Requests: this world has all the tunnels it may"
        with connect(server, target, other_env["SOUNDSTAGE_TOKEN"]) as elsewhere:  # each world its own
            assert status_line(elsewhere) == "HTTP/1.1 200 Connection Established"
        first.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert until_closed(first).endswith(b"hello")  # the host closed: the tunnel has ended
    with connect(server, target, token) as third:
        assert status_line(third) == "HTTP/1.1 200 Connection Established"
    assert calls(world) == [
        ("outside", "CONNECT", f"/127.0.0.1:{hello}", 200),
        ("outside", "CONNECT", f"/127.0.0.1:{hello}", 429),
        ("outside", "CONNECT", f"/127.0.0.1:{hello}", 200),
    ]
    assert calls(other) == [("outside", "CONNECT", f"/127.0.0.1:{hello}", 200)]


def test_a_tunnel_with_nothing_moving_is_closed(server: Server, hello: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proxy, "IDLE", 0.1)
    world, env = live(server, agent(f"allow: ['127.0.0.1:{hello}']"))
    with connect(server, f"127.0.0.1:{hello}", env["SOUNDSTAGE_TOKEN"]) as sock:
        assert until_closed(sock) == b"HTTP/1.1 200 Connection Established\r\n\r\n"
    assert calls(world) == [("outside", "CONNECT", f"/127.0.0.1:{hello}", 200)]


@pytest.mark.parametrize("token", [None, "ss-not-a-world", "xoxb-1"])
def test_a_connection_without_a_worlds_credential_goes_nowhere(server: Server, token: str | None) -> None:
    with connect(server, "api.openai.com:443", token) as sock:
        assert status_line(sock) == "HTTP/1.1 407 Proxy Authentication Required"


def test_httpx_and_the_datadog_client_at_their_real_hosts(server: Server) -> None:
    """httpx reads the proxy from the environment; Datadog's client (urllib3) must be told it, credential
    apart (docs/interception.md)."""
    world, env = live(server, scene="bad-deploy")
    answered = python(
        env,
        "import json, os\n"
        "from urllib.parse import urlsplit\n"
        "import httpx, urllib3\n"
        "from datadog_api_client import ApiClient, Configuration\n"
        "from datadog_api_client.v1.api.monitors_api import MonitorsApi\n"
        "auth = {'authorization': 'Bearer ' + os.environ['GITHUB_TOKEN']}\n"
        "repo = httpx.get('https://api.github.com/repos/acme/orders', headers=auth).json()\n"
        "proxy = urlsplit(os.environ['HTTPS_PROXY'])\n"
        "configuration = Configuration()\n"  # its default host: https://api.datadoghq.com
        "configuration.proxy = f'http://{proxy.hostname}:{proxy.port}'\n"
        "configuration.proxy_headers = urllib3.make_headers(proxy_basic_auth=f'{proxy.username}:{proxy.password}')\n"
        "with ApiClient(configuration) as api:\n"
        "    monitors = MonitorsApi(api).list_monitors()\n"
        "print(json.dumps({'repo': repo['full_name'], 'url': repo['url'], 'monitors': len(monitors)}))",
    )
    assert answered["repo"] == "acme/orders"
    assert answered["url"] == "https://api.github.com/repos/acme/orders"  # links are the vendor's own URLs
    assert answered["monitors"] > 0
    assert calls(world) == [
        ("github", "GET", "/repos/acme/orders", 200),
        ("datadog", "GET", "/api/v1/monitor", 200),
    ]


GO_PROGRAM = """package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	request, _ := http.NewRequest("POST", "https://slack.com/api/auth.test", nil)
	request.Header.Set("Authorization", "Bearer "+os.Getenv("SLACK_BOT_TOKEN"))
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	body, _ := io.ReadAll(response.Body)
	fmt.Print(string(body))
}
"""


def test_a_go_program_with_the_standard_library(server: Server, tmp_path: Path) -> None:
    """Go's default transport reads the proxy variables and, on Linux, SSL_CERT_FILE."""
    if shutil.which("go") is None:
        if os.environ.get("SOUNDSTAGE_TEST_GO") == "required":
            pytest.fail("SOUNDSTAGE_TEST_GO=required, but there is no go on this machine")
        pytest.skip("no Go toolchain on this machine (Debian: apt-get install golang-go)")
    world, env = live(server, SCENE)
    (tmp_path / "main.go").write_text(GO_PROGRAM)
    done = subprocess.run(
        ["go", "run", "main.go"],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GOCACHE": str(tmp_path / "cache"), **env},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    assert calls(world) == [("slack", "POST", "/api/auth.test", 200)]


def test_pagerdutys_events_api_at_events_pagerduty_com(server: Server) -> None:
    """An event carries no token, only a routing key: the world is the one the proxy credential names."""
    world, env = live(server, scene="bad-deploy")
    [key] = [token for token, principal in world.tokens.items() if principal.token_type == "routing_key"][:1]
    answered = python(
        env,
        "import json, os, sys\n"
        "import pagerduty\n"
        f"events = pagerduty.EventsApiV2Client({key!r})\n"  # https://events.pagerduty.com
        "dedup = events.trigger('checkout is down', 'checkout-1')\n"
        "print(json.dumps({'dedup_key': dedup}))",
    )
    assert answered["dedup_key"]
    assert calls(world) == [("pagerduty", "POST", "/v2/enqueue", 202)]


def test_inside_a_worlds_tunnel_another_worlds_token_reaches_nothing(server: Server) -> None:
    world, env = live(server, SCENE)
    other, other_env = live(server, SCENE)
    answered = python(
        {**env, "SLACK_BOT_TOKEN": other_env["SLACK_BOT_TOKEN"]},
        "import json, os\n"
        "from slack_sdk import WebClient\n"
        "from slack_sdk.errors import SlackApiError\n"
        "try:\n"
        "    WebClient(token=os.environ['SLACK_BOT_TOKEN']).auth_test()\n"
        "except SlackApiError as exc:\n"
        "    print(json.dumps({'error': exc.response['error']}))",
    )
    assert answered == {"error": "invalid_auth"}
    assert calls(world) == [] and calls(other) == []
