"""Git's smart HTTP protocol against a world, driven by the real `git`: clones (through the interception
proxy at github.com, under the world's URL and at the server's root as on GitHub Enterprise), fetches
that negotiate, shallow clones, pushes written into the world as the REST API writes them, and GitHub's
refusals and credentials."""

from __future__ import annotations

import base64
import gzip
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from soundstage.checks import score_custom
from soundstage.server import Server
from soundstage.services.github import commits, git, git_http, git_objects
from soundstage.services.github.git_pack import FLUSH, PackObject, pkt, sideband, write_pack
from soundstage.services.github.records import Records
from soundstage.services.github.store import REFS
from soundstage.world import World

ZERO = "0" * 40


def _git_program() -> str:
    found = shutil.which("git")
    if found is None:
        pytest.skip("git is not installed")
    return found


class Git:
    """The real `git`, with the agent's environment, a home of its own and UTC dates, as in a container."""

    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.program = _git_program()
        self.home = home
        self.env = {
            **env,
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "TZ": "UTC",
            "GIT_AUTHOR_NAME": "Stage Bot",
            "GIT_AUTHOR_EMAIL": "bot@acme.test",
            "GIT_COMMITTER_NAME": "Stage Bot",
            "GIT_COMMITTER_EMAIL": "bot@acme.test",
            "GIT_AUTHOR_DATE": "2026-03-02T15:00:00+0000",
            "GIT_COMMITTER_DATE": "2026-03-02T15:00:00+0000",
        }

    def run(self, *args: str, cwd: str = ".") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.program, *args],
            cwd=self.home / cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def __call__(self, *args: str, cwd: str = ".") -> str:
        done = self.run(*args, cwd=cwd)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def commit(self, cwd: str, files: dict[str, str], message: str) -> str:
        for path, text in files.items():
            (self.home / cwd / path).parent.mkdir(parents=True, exist_ok=True)
            (self.home / cwd / path).write_text(text)
        self("add", "-A", cwd=cwd)
        self("commit", "-q", "-m", message, cwd=cwd)
        return self("rev-parse", "HEAD", cwd=cwd).strip()


def _calls(world: World, after: int = 0) -> list[tuple[str, str, str | None, int, str | None]]:
    return [(c.method, c.path, c.operation, c.status, c.actor) for c in world.log.calls()[after:]]


def _history(world: World, sha: str) -> list[str]:
    return [c["sha"] for c in commits.history(Records.live(world).objects, sha)]


# -- through the interception proxy, at github.com ----------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(proxy_port=0) as running:
        yield running


@pytest.fixture
def proxied(server: Server, tmp_path: Path) -> tuple[World, Git]:
    world = server.hub.add(server.hub.images.load(scene="merge-right-pr"))
    env = {k: str(v) for k, v in server.hub.environment(world, server.url).items()}
    return world, Git(tmp_path, env)


def test_clone_from_github_com_through_the_proxy(proxied):
    world, run = proxied
    run("clone", "-q", "https://github.com/acme/orders.git")
    main = world[REFS].get("acme/orders:refs/heads/main")["sha"]
    assert run("log", "--format=%H", cwd="orders").split() == _history(world, main)
    assert run("branch", "-r", cwd="orders").split() == [
        "origin/HEAD",
        "->",
        "origin/main",
        "origin/cache-off",
        "origin/fix-totals-cache",
        "origin/main",
    ]
    assert run("cat-file", "-p", "HEAD:README.md", cwd="orders").startswith("# orders")
    assert run("fsck", "--strict", cwd="orders") == ""
    # A public repository needs no credential: git sent none.
    assert _calls(world) == [
        ("GET", "/acme/orders.git/info/refs", "git-upload-pack", 200, None),
        ("POST", "/acme/orders.git/git-upload-pack", "git-upload-pack", 200, None),
    ]
    wanted = world.log.calls()[1].body
    assert (wanted["done"], wanted["have"], wanted["depth"]) == (True, [], None)
    assert set(wanted["want"]) == {r["sha"] for r in world[REFS].by("repository", "acme/orders")}


def test_the_url_without_git_and_a_pull_requests_head(proxied):
    world, run = proxied
    run("clone", "-q", "--single-branch", "--branch", "main", "https://github.com/acme/orders", "orders")
    refs = run("ls-remote", "origin", cwd="orders")
    pull = world[REFS].get("acme/orders:refs/heads/fix-totals-cache")["sha"]
    assert f"{pull}\trefs/pull/4/head\n" in refs
    assert refs.startswith(f"{world[REFS].get('acme/orders:refs/heads/main')['sha']}\tHEAD\n")
    run("fetch", "-q", "origin", "pull/4/head", cwd="orders")
    assert run("rev-parse", "FETCH_HEAD", cwd="orders").strip() == pull
    # The fetch told what it had (main, and the tag it followed), and got only what they lack.
    fetch = world.log.calls()[-1].body
    had = [world[REFS].get(f"acme/orders:refs/{name}")["sha"] for name in ("heads/main", "tags/v1.3.0")]
    assert (fetch["want"], fetch["have"], fetch["done"]) == ([pull], had, True)


def test_a_shallow_clone(proxied):
    world, run = proxied
    run("clone", "-q", "--depth", "1", "https://github.com/acme/orders.git")
    main = world[REFS].get("acme/orders:refs/heads/main")["sha"]
    assert run("log", "--format=%H", cwd="orders").split() == [main]
    assert (run.home / "orders/.git/shallow").read_text() == f"{main}\n"
    assert [c.body["depth"] for c in world.log.calls()[1:]] == [1, 1]
    run("fetch", "-q", "--depth", "3", cwd="orders")
    assert run("log", "--format=%H", cwd="orders").split() == _history(world, main)[:3]
    assert (run.home / "orders/.git/shallow").read_text() == f"{_history(world, main)[2]}\n"
    run("fetch", "-q", "--unshallow", cwd="orders")
    assert run("log", "--format=%H", cwd="orders").split() == _history(world, main)
    assert not (run.home / "orders/.git/shallow").exists()
    assert run("fsck", "--strict", cwd="orders") == ""


# -- under the world's own URL and at the root -------------------------------------------------------


@pytest.fixture
def local(gh, tmp_path: Path) -> Git:
    return Git(tmp_path, {})


def _authed(url: str, token: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://x-access-token:{token}@{rest}"


def test_clone_under_the_worlds_url_and_at_the_root(gh, local):
    local("clone", "-q", gh.url + "/acme/orders.git", "prefixed")
    root = gh.live.stage.url
    local("clone", "-q", _authed(root, gh.token) + "/acme/orders.git", "rooted")
    head = local("rev-parse", "HEAD", cwd="prefixed")
    assert local("rev-parse", "HEAD", cwd="rooted") == head
    assert head.strip() == gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    calls = _calls(gh.live.world)
    # At the root the world is known by its token only: git's first, anonymous, request never reached it.
    assert calls == [
        ("GET", "/acme/orders.git/info/refs", "git-upload-pack", 200, None),
        ("POST", "/acme/orders.git/git-upload-pack", "git-upload-pack", 200, None),
        ("GET", "/acme/orders.git/info/refs", "git-upload-pack", 200, "stagebot"),
        ("POST", "/acme/orders.git/git-upload-pack", "git-upload-pack", 200, "stagebot"),
    ]


def test_a_private_repository_asks_for_credentials(gh, local):
    done = local.run("clone", gh.url + "/acme/empty.git")
    assert done.returncode == 128
    assert "could not read Username" in done.stderr
    assert _calls(gh.live.world) == [("GET", "/acme/empty.git/info/refs", "git-upload-pack", 401, None)]
    done = local.run("clone", _authed(gh.url, gh.token) + "/acme/empty.git")
    assert done.returncode == 0, done.stderr
    assert "You appear to have cloned an empty repository." in done.stderr


def test_a_wrong_token_is_refused(gh, local):
    local("clone", "-q", gh.url + "/acme/orders.git")
    done = local.run("push", _authed(gh.url, "ghp_wrong") + "/acme/orders.git", "HEAD:refs/heads/x", cwd="orders")
    assert done.returncode == 128
    assert done.stderr.endswith(
        "remote: Invalid username or token. Password authentication is not supported for Git operations.\n"
        f"fatal: Authentication failed for '{gh.url}/acme/orders.git/'\n"
    )
    r = gh.live.http.get(gh.url + "/acme/orders.git/info/refs", params={"service": "git-receive-pack"})
    assert (r.status_code, r.headers["www-authenticate"]) == (401, 'Basic realm="GitHub"')
    assert "acme/orders:refs/heads/x" not in gh.state(REFS)


# -- pushing -----------------------------------------------------------------------------------------


@pytest.fixture
def clone(gh, local) -> Git:
    local("clone", "-q", _authed(gh.url, gh.token) + "/acme/orders.git")
    return local


def test_push_a_new_branch(gh, clone):
    sha = clone.commit("orders", {"NOTES.md": "notes\n", "src/util/rates.py": "RATE = 2\n"}, "Add rates")
    done = clone.run("push", "origin", "HEAD:refs/heads/rates", cwd="orders")
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith(" * [new branch]      HEAD -> rates\n")
    branch = gh.raw("GET", "/repos/acme/orders/branches/rates").json()
    assert branch["commit"]["sha"] == sha
    commit = gh.raw("GET", f"/repos/acme/orders/git/commits/{sha}").json()
    assert (commit["message"], commit["author"]["name"], commit["author"]["date"]) == (
        "Add rates",
        "Stage Bot",
        "2026-03-02T15:00:00Z",
    )
    assert commit["tree"]["sha"] == clone("rev-parse", "HEAD^{tree}", cwd="orders").strip()
    content = gh.raw("GET", "/repos/acme/orders/contents/src/util/rates.py", params={"ref": "rates"}).json()
    assert content["content"] == base64.b64encode(b"RATE = 2\n").decode() + "\n"
    push = [c for c in gh.live.world.log.calls() if c.operation == "git-receive-pack"][-1]
    assert (push.method, push.operation, push.status, push.actor) == ("POST", "git-receive-pack", 200, "stagebot")
    main = gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    assert push.body == {
        "commands": [{"ref": "refs/heads/rates", "before": ZERO, "after": sha, "result": "ok"}],
        "objects": 6,  # the commit, three trees (the root, src, src/util) and two blobs
    }
    assert [c["sha"] for c in gh.raw("GET", "/repos/acme/orders/commits", params={"sha": "rates"}).json()][:2] == [
        sha,
        main,
    ]
    pushed = {"id": "pushed", "trace": {"called": "github:POST /acme/orders*/git-receive-pack"}}
    rates = {"repo": "acme/orders", "ref": "rates", "path": "src/util/rates.py", "equals": "RATE = 2\n"}
    verdict = score_custom(gh.live.world, [pushed, {"id": "file", "state": {"github.file_at": rates}}])
    assert [(c.id, c.passed) for c in verdict.checks] == [("pushed", True), ("file", True)]


def test_push_through_the_proxy(proxied):
    world, run = proxied
    token = run.env["GITHUB_TOKEN"]
    run("clone", "-q", f"https://x-access-token:{token}@github.com/acme/orders.git")
    sha = run.commit("orders", {"CHANGES.md": "Keyed the cache by order id\n"}, "Note the fix")
    run("push", "-q", "origin", "HEAD:refs/heads/notes", cwd="orders")
    assert world[REFS].get("acme/orders:refs/heads/notes")["sha"] == sha
    assert _calls(world)[2:] == [
        ("GET", "/acme/orders.git/info/refs", "git-receive-pack", 200, "stagebot"),
        ("POST", "/acme/orders.git/git-receive-pack", "git-receive-pack", 200, "stagebot"),
    ]


def test_push_onto_a_branch_in_deltas(gh, clone):
    lines = "".join(f"line {n} of a file long enough for git to send a change to it as a delta\n" for n in range(200))
    first = clone.commit("orders", {"long.txt": lines}, "Add a long file")
    clone("push", "-q", "origin", "HEAD:main", cwd="orders")
    second = clone.commit("orders", {"long.txt": lines.replace("line 100 ", "line one hundred ")}, "Edit one line")
    clone("push", "-q", "origin", "HEAD:main", cwd="orders")
    assert gh.state(REFS)["acme/orders:refs/heads/main"]["sha"] == second
    assert _history(gh.live.world, second)[:2] == [second, first]
    text = gh.raw("GET", "/repos/acme/orders/contents/long.txt").json()["content"]
    assert base64.b64decode(text).decode() == lines.replace("line 100 ", "line one hundred ")


def test_a_push_that_is_not_a_fast_forward_is_rejected(gh, clone):
    main = gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    clone("reset", "-q", "--hard", "HEAD~1", cwd="orders")
    behind = clone.commit("orders", {"other.txt": "other\n"}, "Diverge")
    done = clone.run("push", "origin", "HEAD:main", cwd="orders")
    assert done.returncode == 1
    assert " ! [rejected]        HEAD -> main (non-fast-forward)\n" in done.stderr
    assert gh.state(REFS)["acme/orders:refs/heads/main"]["sha"] == main
    # Force is the client's choice, as on any branch GitHub does not protect (the world protects none).
    clone("push", "-q", "--force", "origin", "HEAD:main", cwd="orders")
    assert gh.state(REFS)["acme/orders:refs/heads/main"]["sha"] == behind


def _receive(gh, commands: list[str]) -> Any:
    body = b"".join(pkt(line) for line in commands) + FLUSH
    return gh.live.http.post(
        gh.url + "/acme/orders.git/git-receive-pack",
        content=body,
        headers={"Authorization": "Basic " + base64.b64encode(f"x:{gh.token}".encode()).decode()},
    )


def test_the_server_refuses_a_stale_update_and_deleting_the_default_branch(gh):
    main = gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    feature = gh.state(REFS)["acme/orders:refs/heads/feature"]["sha"]
    r = _receive(gh, [f"{feature} {main} refs/heads/main\0report-status", f"{main} {ZERO} refs/heads/main"])
    assert r.headers["content-type"] == "application/x-git-receive-pack-result"
    assert r.content == (
        pkt("unpack ok\n")
        + pkt("ng refs/heads/main failed to update ref\n")
        + pkt("ng refs/heads/main deletion of the current branch prohibited\n")
        + FLUSH
    )
    r = _receive(gh, [f"{feature} {ZERO} refs/heads/feature\0report-status", f"{ZERO} {main} refs/pull/9/head"])
    assert r.content == (
        pkt("unpack ok\n")
        + pkt("ok refs/heads/feature\n")
        + pkt("ng refs/pull/9/head deny updating a hidden ref\n")
        + FLUSH
    )
    assert "acme/orders:refs/heads/feature" not in gh.state(REFS)
    assert gh.state(REFS)["acme/orders:refs/heads/main"]["sha"] == main


def test_what_github_accepts_lands_as_git_wrote_it(gh, clone):
    """A commit dated outside UTC, an executable file and an annotated tag: GitHub takes each, and so does the
    world, with the same ids; REST then answers what GitHub answers for them."""
    clone.env["GIT_AUTHOR_DATE"] = "2026-03-02T17:00:00+0200"
    clone.env["GIT_COMMITTER_DATE"] = "2026-03-02T09:30:00-0530"
    (clone.home / "orders/run.sh").write_text("echo hi\n")
    os.chmod(clone.home / "orders/run.sh", 0o755)
    sha = clone.commit("orders", {}, "A script, from two time zones")
    clone("tag", "-a", "v9", "-m", "Version 9", cwd="orders")
    tag = clone("rev-parse", "v9", cwd="orders").strip()
    done = clone.run("push", "origin", "HEAD:main", "HEAD:refs/heads/script", "v9", cwd="orders")
    assert done.returncode == 0, done.stderr
    assert " * [new tag]         v9 -> v9\n" in done.stderr
    commit = gh.raw("GET", f"/repos/acme/orders/git/commits/{sha}").json()
    assert (commit["author"]["date"], commit["committer"]["date"]) == ("2026-03-02T15:00:00Z", "2026-03-02T15:00:00Z")
    tree = gh.raw("GET", f"/repos/acme/orders/git/trees/{commit['tree']['sha']}").json()["tree"]
    assert [(e["path"], e["mode"]) for e in tree if e["path"] == "run.sh"] == [("run.sh", "100755")]
    assert gh.raw("GET", "/repos/acme/orders/git/ref/tags/v9").json()["object"] == {
        "sha": tag,
        "type": "tag",
        "url": f"{gh.url}/repos/acme/orders/git/tags/{tag}",
    }
    assert gh.raw("GET", f"/repos/acme/orders/git/tags/{tag}").json() == {
        "node_id": base64.b64encode(f"03:Tag{int(tag[:12], 16)}".encode()).decode(),
        "sha": tag,
        "url": f"{gh.url}/repos/acme/orders/git/tags/{tag}",
        "tagger": {"name": "Stage Bot", "email": "bot@acme.test", "date": "2026-03-02T15:00:00Z"},
        "object": {"sha": sha, "type": "commit", "url": f"{gh.url}/repos/acme/orders/git/commits/{sha}"},
        "tag": "v9",
        "message": "Version 9\n",
        "verification": {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
            "verified_at": None,
        },
    }
    assert {t["name"]: t["commit"]["sha"] for t in gh.raw("GET", "/repos/acme/orders/tags").json()}["v9"] == sha
    assert gh.raw("GET", "/repos/acme/orders/commits/v9").json()["sha"] == sha
    query = '{ repository(owner: "acme", name: "orders") { defaultBranchRef { target { author { date } '
    query += "committer { date } committedDate } } } }"
    graph = gh.raw("POST", "/graphql", json={"query": query}).json()["data"]["repository"]["defaultBranchRef"]
    assert graph["target"] == {  # GitHub's GitTimestamp keeps the zone git wrote; DateTime is UTC
        "author": {"date": "2026-03-02T17:00:00+02:00"},
        "committer": {"date": "2026-03-02T09:30:00-05:30"},
        "committedDate": "2026-03-02T15:00:00Z",
    }
    patch = gh.raw("GET", f"/repos/acme/orders/commits/{sha}", headers={"Accept": "application/vnd.github.patch"})
    assert "\nDate: Mon, 2 Mar 2026 17:00:00 +0200\n" in patch.text
    assert " create mode 100755 run.sh\n" in patch.text and "\nnew file mode 100755\n" in patch.text
    # A fresh clone has every object with its own id: the tag, the commit as dated, the executable.
    clone("clone", "-q", _authed(gh.url, gh.token) + "/acme/orders.git", "again")
    clone("checkout", "-q", "v9", cwd="again")
    assert clone("cat-file", "-p", "v9", cwd="again") == clone("cat-file", "-p", "v9", cwd="orders")
    assert clone("rev-parse", "v9^{commit}", cwd="again").strip() == sha
    assert os.access(clone.home / "again/run.sh", os.X_OK)
    clone("fsck", "--strict", cwd="again")
    # A REST commit on top keeps the file executable, as GitHub keeps a file's mode when it changes it.
    put = gh.raw(
        "PUT",
        "/repos/acme/orders/contents/run.sh",
        json={
            "message": "Say hello",
            "content": base64.b64encode(b"echo hello\n").decode(),
            "branch": "script",
            "sha": git.blob_sha("echo hi\n"),
        },
    )
    assert put.status_code == 200, put.text
    clone("fetch", "-q", "origin", cwd="orders")
    hello = git.blob_sha("echo hello\n")
    assert clone("ls-tree", "origin/script", "run.sh", cwd="orders") == f"100755 blob {hello}\trun.sh\n"


def test_what_the_world_cannot_store_is_refused_whole(gh, clone):
    (clone.home / "orders/link").symlink_to("README.md")
    clone.commit("orders", {}, "A symlink")
    done = clone.run("push", "origin", "HEAD:refs/heads/link", cwd="orders")
    assert done.returncode == 1
    assert "(tree " in done.stderr and "holds an entry of mode 120000 (only files and directories))" in done.stderr
    assert "acme/orders:refs/heads/link" not in gh.state(REFS)
    clone("reset", "-q", "--hard", "HEAD~1", cwd="orders")
    clone("tag", "-a", "t9", "-m", "A tag of a tree", "HEAD^{tree}", cwd="orders")
    done = clone.run("push", "origin", "t9", cwd="orders")
    tag = clone("rev-parse", "t9", cwd="orders").strip()
    assert f" ! [remote rejected] t9 -> t9 (tag {tag} tags a tree; the world tags commits only)\n" in done.stderr
    assert "acme/orders:refs/tags/t9" not in gh.state(REFS)


def _stored(gh) -> list[dict[str, Any]]:
    return [gh.state(name) for name in ("github.blobs", "github.trees", "github.commits", REFS, "github.repos")]


def test_a_push_over_the_limits_is_refused_as_github_refuses_it(gh, clone, monkeypatch):
    monkeypatch.setattr(git_http, "PUSH_OBJECTS", 4)
    clone.commit("orders", {"a/1.txt": "1\n", "a/2.txt": "2\n"}, "Five objects: two blobs, two trees, a commit")
    before = _stored(gh)
    done = clone.run("push", "origin", "HEAD:refs/heads/big", "HEAD:refs/heads/twin", cwd="orders")
    assert done.returncode == 1
    assert "remote: fatal: pack exceeds maximum allowed size (4 objects)" in done.stderr
    assert "error: remote unpack failed: index-pack abnormal exit" in done.stderr
    assert " ! [remote rejected] HEAD -> big (failed)\n ! [remote rejected] HEAD -> twin (failed)\n" in done.stderr
    assert _stored(gh) == before
    push = [c for c in gh.live.world.log.calls() if c.operation == "git-receive-pack"][-1]
    assert [c["result"] for c in push.body["commands"]] == ["failed", "failed"] and push.body["objects"] == 0


def _push_body(gh, pack: bytes, ref: str = "refs/heads/big") -> bytes:
    main = gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    return pkt(f"{ZERO} {main} {ref}\0report-status side-band-64k\n") + FLUSH + pack


def _refusal(limit: str, ref: str = "refs/heads/big") -> bytes:
    """GitHub's answer to a pack over its limits, on side-band-64k."""
    report = pkt("unpack index-pack abnormal exit\n") + pkt(f"ng {ref} failed\n") + FLUSH
    said = f"fatal: pack exceeds maximum allowed size ({limit})\n".encode()
    return sideband(2, said) + sideband(1, report) + FLUSH


def test_a_pack_over_the_byte_limits_is_refused_before_it_is_read(gh, monkeypatch):
    auth = {"Authorization": "Basic " + base64.b64encode(f"x:{gh.token}".encode()).decode()}
    url = gh.url + "/acme/orders.git/git-receive-pack"
    read = []
    monkeypatch.setattr(git_http, "read_pack", lambda *args: read.append(args) or [])
    monkeypatch.setattr(git_http, "PUSH_BYTES", 2 * 2**20)
    before = _stored(gh)
    noise = PackObject("blob", random.Random(5).randbytes(2 * 2**20 + 1))  # as big deflated
    r = gh.live.http.post(url, content=_push_body(gh, write_pack([noise])), headers=auth)
    assert (r.status_code, r.content, read) == (200, _refusal("2.00 MiB"), [])
    monkeypatch.undo()
    monkeypatch.setattr(git_http, "PUSH_INFLATED", 2**20)
    bomb = PackObject("blob", b"\0" * (2**20 + 1))  # a kilobyte deflated
    r = gh.live.http.post(url, content=_push_body(gh, write_pack([bomb])), headers=auth)
    assert (r.status_code, r.content) == (200, _refusal("1.00 MiB inflated"))
    # A body over the server's limit never reaches the handler whole: refused alike.
    monkeypatch.setattr(gh.live.stage.server.hub, "max_body", 1000)
    r = gh.live.http.post(url, content=_push_body(gh, write_pack([noise])), headers=auth)
    assert (r.status_code, r.content) == (200, _refusal("10.00 MiB"))
    assert _stored(gh) == before


def test_a_long_push_reads_and_writes_each_object_once(gh, clone, monkeypatch):
    # 40 commits, each adding a file to one directory: the commits share every tree but their newest. Writing
    # each commit's files and trees again from the whole repository, as each REST commit does, took time
    # growing with the square of the history.
    for n in range(40):
        (clone.home / "orders" / "log").mkdir(exist_ok=True)
        (clone.home / "orders" / "log" / f"{n}.txt").write_text(f"entry {n}\n")
        clone("add", "-A", cwd="orders")
        clone("commit", "-q", "-m", f"Entry {n}", cwd="orders")
    counted = {"trees read": 0, "blobs written": 0, "trees built": 0}
    originals = (git_objects._tree_entries, git.write_blob, git.write_tree)

    def counting(name: str, original: Any) -> Any:
        def counted_call(*args: Any) -> Any:
            counted[name] += 1
            return original(*args)

        return counted_call

    monkeypatch.setattr(git_objects, "_tree_entries", counting("trees read", originals[0]))
    monkeypatch.setattr(git, "write_blob", counting("blobs written", originals[1]))
    monkeypatch.setattr(git, "write_tree", counting("trees built", originals[2]))
    done = clone.run("push", "origin", "HEAD:refs/heads/log", cwd="orders")
    assert done.returncode == 0, done.stderr
    # 40 new root trees and 40 of log/, each read once; 40 new blobs; no tree built again from files.
    assert counted == {"trees read": 80, "blobs written": 40, "trees built": 0}
    assert len(_history(gh.live.world, clone("rev-parse", "HEAD", cwd="orders").strip())) >= 40


def test_requests_git_would_never_send_get_gits_errors(gh):
    auth = {"Authorization": "Basic " + base64.b64encode(f"x:{gh.token}".encode()).decode()}
    url = gh.url + "/acme/orders.git"
    r = gh.live.http.get(url + "/info/refs", headers=auth)  # the old "dumb" protocol
    assert (r.status_code, r.text) == (403, "Please upgrade your git client.\n")
    assert gh.live.http.get(url + "/git-upload-pack", headers=auth).status_code == 405
    missing = gh.live.http.get(gh.url + "/acme/nope.git/info/refs", params={"service": "git-upload-pack"}, headers=auth)
    assert missing.status_code == 404
    r = gh.live.http.post(url + "/git-upload-pack", content=b"zzzz", headers=auth)
    assert (r.status_code, r.text) == (400, "protocol error: bad pkt-line length b'zzzz'\n")
    unknown = pkt(f"want {'1' * 40}\n") + FLUSH + pkt("done\n")
    r = gh.live.http.post(url + "/git-upload-pack", content=unknown, headers=auth)
    assert r.content == pkt(f"ERR upload-pack: not our ref {'1' * 40}\n")
    main = gh.state(REFS)["acme/orders:refs/heads/main"]["sha"]
    compressed = gzip.compress(pkt(f"want {main} side-band-64k\n") + FLUSH + pkt("done\n"))
    r = gh.live.http.post(url + "/git-upload-pack", content=compressed, headers={**auth, "Content-Encoding": "gzip"})
    assert (r.content[:8], r.content[12:21], r.content[-4:]) == (pkt("NAK\n"), b"\x01PACK\x00\x00\x00\x02", FLUSH)
    body = pkt(f"{ZERO} {main} refs/heads/copy\0report-status\n") + FLUSH + b"PACK\0\0\0\2\0\0\0\0" + b"\0" * 20
    r = gh.live.http.post(url + "/git-receive-pack", content=body, headers=auth)
    assert r.content == (
        pkt("unpack pack checksum does not match\n") + pkt("ng refs/heads/copy unpacker error\n") + FLUSH
    )
    assert "acme/orders:refs/heads/copy" not in gh.state(REFS)
