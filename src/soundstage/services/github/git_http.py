"""Git's smart HTTP protocol (version 0, stateless) for a world's repositories, as github.com serves it:
`GET /{owner}/{repo}.git/info/refs?service=...` advertises the refs (branches, tags, `HEAD`, and each
pull request's `refs/pull/N/head`), `POST .../git-upload-pack` negotiates and sends a pack (a clone, a
fetch with haves, a shallow `--depth` one), `POST .../git-receive-pack` takes a push. The `.git` may be
left out, as GitHub allows. A client asking for protocol version 2 (git's default) gets version 0, as
from any server that does not offer 2, and goes on with it.

Credentials are GitHub's for git: HTTP Basic with the token as the password (any user name). A public
repository is read by anyone; everything else answers 401 with `WWW-Authenticate`, so git asks its
credential helper and tries again. Each request is one call in the trace, its operation the git
service's name (`git-upload-pack`, `git-receive-pack`), its body what the client asked for.
"""

from __future__ import annotations

import re
import zlib
from functools import partial
from typing import Any

from ...world import Principal, Record, World
from ..base import Reply, ServiceRequest
from . import git, git_objects, pulls, repos
from .git_objects import ZERO, Pushed, Unstorable
from .git_pack import FLUSH, PackError, PackTooLarge, mib, pkt, read_pack, read_pkts, sideband, write_pack
from .records import Records
from .store import HEADS, PULLS, REFS, REPOS, USERS, ref_key

UPLOAD, RECEIVE = "git-upload-pack", "git-receive-pack"
_PATH = re.compile(r"/(?P<owner>[^/]+)/(?P<repo>[^/]+?)(?:\.git)?/(?P<tail>info/refs|git-upload-pack|git-receive-pack)")
_TAILS = ("/info/refs", "/" + UPLOAD, "/" + RECEIVE)
_AGENT = "agent=git/github-soundstage"
_UPLOAD_CAPS = (
    "multi_ack_detailed side-band-64k ofs-delta shallow no-progress include-tag "
    "allow-tip-sha1-in-want allow-reachable-sha1-in-want"
)
_RECEIVE_CAPS = "report-status delete-refs side-band-64k ofs-delta"
MAX_REQUEST = 64 * 1024 * 1024  # the most a gzipped request body inflates to
# What one push may bring. GitHub takes 2 GiB and files of up to 100 MB; a world is held in memory, each
# pushed object a record and a write in its log, so a push here is smaller: a pack of at most the server's
# body limit (hub.MAX_BODY; a bigger body never reaches the handler whole, and `too_large` refuses it alike),
# at most `PUSH_OBJECTS` objects, inflating to at most `PUSH_INFLATED` bytes in all.
PUSH_BYTES = 10 * 1024 * 1024
PUSH_OBJECTS = 50_000
PUSH_INFLATED = 64 * 1024 * 1024
_REFNAME = re.compile(r"refs/(?:[^/\x00-\x20\x7f~^:?*\[\\]+/)*[^/\x00-\x20\x7f~^:?*\[\\]+")


def git_path(path: str) -> bool:
    """Whether `path` is one of git's smart HTTP paths (rather than a REST one)."""
    # Asked of every call: the ending rules out a REST path before the pattern is tried.
    return path.endswith(_TAILS) and _PATH.fullmatch(path) is not None


def _service(request: ServiceRequest) -> str | None:
    match = _PATH.fullmatch(request.path)
    if match is None:
        return None
    tail = match["tail"]
    return request.query.get("service") if tail == "info/refs" else tail


def anonymous(request: ServiceRequest) -> bool:
    """A fetch with no credential at all may read a public repository; a push never."""
    return "authorization" not in request.headers and _service(request) == UPLOAD


def unauthorized(request: ServiceRequest) -> Reply:
    """GitHub's 401 to git: git then asks its credential helper and retries with Basic credentials."""
    refused = "Invalid username or token. Password authentication is not supported for Git operations.\n"
    text = refused if "authorization" in request.headers else ""
    return _text(401, text, _service(request), {"WWW-Authenticate": 'Basic realm="GitHub"'})


def _text(status: int, text: str, operation: str | None, headers: dict[str, str] | None = None) -> Reply:
    return Reply(
        status,
        text,
        headers={"Content-Type": "text/plain; charset=utf-8", **(headers or {})},
        operation=operation,
        error=status >= 400,
    )


def serve(world: World, principal: Principal | None, request: ServiceRequest) -> Reply:
    """Answers one git request against `world` (`principal` None: no credential of this world)."""
    match = _PATH.fullmatch(request.path)
    assert match is not None  # the service routes only git's paths here
    service = _service(request)
    if service not in (UPLOAD, RECEIVE):  # the old "dumb" protocol GitHub no longer serves
        return _text(403, "Please upgrade your git client.\n", "git")
    expected = "GET" if match["tail"] == "info/refs" else "POST"
    if request.method != expected:
        return _text(405, "Method Not Allowed\n", service)
    user = world[USERS].get(principal.user) if principal is not None else None
    full = f"{match['owner']}/{match['repo']}"
    repo = world[REPOS].get(full)
    if user is None and (repo is None or repo["private"] or service == RECEIVE):
        return unauthorized(request)
    if repo is None:
        return _text(404, "Repository not found.\n", service)
    records = Records.live(world)
    if request.method == "GET":
        return _advertise(records, repo, service)
    try:
        body = _body(request)
    except (PackError, zlib.error) as exc:
        return _text(400, f"protocol error: {exc}\n", service)
    if service == UPLOAD:
        return _upload(records, repo, body)
    assert user is not None
    return _receive(world, records, repo, body)


def _body(request: ServiceRequest) -> bytes:
    """The request body, inflated when git sent it gzipped (it does for a long list of haves)."""
    if request.headers.get("content-encoding", "").lower() not in ("gzip", "x-gzip"):
        return request.body
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    data = inflater.decompress(request.body, MAX_REQUEST)
    if inflater.unconsumed_tail:
        raise PackError("request body too large once inflated")
    return data


def _reply(kind: str, content: bytes, operation: str, trace: Any = None) -> Reply:
    return Reply(
        200,
        content,
        headers={"Content-Type": f"application/x-{kind}", "Cache-Control": "no-cache, max-age=0, must-revalidate"},
        operation=operation,
        trace_body=trace,
    )


# -- refs --------------------------------------------------------------------------------------------


def advertised(records: Records, repo: Record) -> list[tuple[str, str]]:
    """(name, sha) of every ref git sees: `HEAD` first, then refs by name, pull requests' heads included."""
    full = repo["full_name"]
    refs = {r["ref"]: r["sha"] for r in repos.refs(records, full)}
    for pull in records[PULLS].by("repository", full):
        head = pulls.head_sha(records, pull)
        if head is not None:
            refs[f"refs/pull/{pull['number']}/head"] = head
    head = refs.get(HEADS + repo["default_branch"])
    return ([("HEAD", head)] if head else []) + sorted(refs.items())


def _advertise(records: Records, repo: Record, service: str) -> Reply:
    refs = advertised(records, repo)
    if service == UPLOAD:  # each annotated tag is followed by the commit it names, as `<tag>^{}`
        objects = records.objects
        refs = [
            line
            for name, sha in refs
            for line in [(name, sha)]
            + ([(name + "^{}", git_objects.peeled(objects, sha))] if sha in objects.tags else [])
        ]
    caps = _UPLOAD_CAPS if service == UPLOAD else _RECEIVE_CAPS
    if service == UPLOAD and refs and refs[0][0] == "HEAD":
        caps += f" symref=HEAD:{HEADS}{repo['default_branch']}"
    if service == RECEIVE:  # git pushes to refs, not to HEAD
        refs = [(name, sha) for name, sha in refs if name != "HEAD" and not name.startswith("refs/pull/")]
    caps += f" {_AGENT}"
    # The capabilities ride on the first ref; a repository with none advertises them on a placeholder.
    name, sha = refs[0] if refs else ("capabilities^{}", ZERO)
    lines = [pkt(f"{sha} {name}\0{caps}\n")] + [pkt(f"{sha} {name}\n") for name, sha in refs[1:]]
    content = pkt(f"# service={service}\n") + FLUSH + b"".join(lines) + FLUSH
    return _reply(f"{service}-advertisement", content, service)


# -- fetching ----------------------------------------------------------------------------------------


def _all_pkts(data: bytes) -> list[bytes | None]:
    lines: list[bytes | None] = []
    at = 0
    while at < len(data):
        more, at = read_pkts(data, at)
        lines += more
    return lines


def _upload(records: Records, repo: Record, body: bytes) -> Reply:
    """One stateless round of fetch negotiation: ACK the haves the world has; after `done`, the pack."""
    try:
        lines = [line.decode("utf-8").rstrip("\n") if line is not None else None for line in _all_pkts(body)]
    except (PackError, UnicodeDecodeError) as exc:
        return _text(400, f"protocol error: {exc}\n", UPLOAD)
    wants: list[str] = []
    haves: list[str] = []
    cut: set[str] = set()  # the client's own shallow commits
    caps: set[str] = set()
    depth: int | None = None
    done = False
    for line in lines:
        word, _, rest = (line or "").partition(" ")
        if word == "want":
            sha, _, more = rest.partition(" ")
            wants.append(sha)
            caps |= set(more.split())
        elif word == "have":
            haves.append(rest)
        elif word == "shallow":
            cut.add(rest)
        elif word == "deepen" and rest.isdigit() and int(rest) > 0:
            depth = int(rest)
        elif word == "done":
            done = True
    trace = {"want": wants, "have": haves, "done": done, "depth": depth}
    objects = records.objects
    unknown = [sha for sha in wants if sha not in objects.commits and sha not in objects.tags]
    if not wants or unknown:
        refused = pkt(f"ERR upload-pack: not our ref {(unknown or ['none'])[0]}\n")
        return _reply(f"{UPLOAD}-result", refused, UPLOAD, trace)
    common = [sha for sha in haves if sha in objects.commits]
    fetch = git_objects.plan(objects, [git_objects.peeled(objects, sha) for sha in wants], common, depth, cut)
    out = b""
    if depth is not None:  # every round of a shallow fetch starts with where its history is cut
        out += b"".join(pkt(f"shallow {sha}\n") for sha in fetch.shallow)
        out += b"".join(pkt(f"unshallow {sha}\n") for sha in fetch.unshallow) + FLUSH
    if None not in lines[:-1]:  # the wants alone (a shallow fetch's first round): the shallow list is the answer
        return _reply(f"{UPLOAD}-result", out, UPLOAD, trace)
    out += b"".join(pkt(f"ACK {sha} common\n") for sha in common)
    if not done:
        return _reply(f"{UPLOAD}-result", out + pkt("NAK\n"), UPLOAD, trace)
    out += pkt(f"ACK {common[-1]}\n") if common else pkt("NAK\n")
    try:
        pack = write_pack(git_objects.fetch_objects(objects, fetch) + _tags(records, repo, wants, fetch, caps))
    except Unstorable as exc:
        return _reply(f"{UPLOAD}-result", out + pkt(f"ERR {exc}\n"), UPLOAD, trace)
    out += sideband(1, pack) + FLUSH if "side-band-64k" in caps else pack
    return _reply(f"{UPLOAD}-result", out, UPLOAD, trace)


def _tags(records: Records, repo: Record, wants: list[str], fetch: git_objects.Fetch, caps: set[str]) -> list[Any]:
    """The annotated tags a fetch sends: those it wants, and with `include-tag` those of the repo naming a
    commit it sends (git then keeps them, as it follows tags)."""
    objects = records.objects
    sent = set(fetch.commits)
    named = [r["sha"] for r in repos.refs(records, repo["full_name"], "tags/") if r["sha"] in objects.tags]
    found = dict.fromkeys(
        [sha for sha in wants if sha in objects.tags]
        + ([sha for sha in named if git_objects.peeled(objects, sha) in sent] if "include-tag" in caps else [])
    )
    return [git_objects.pack_object(objects, sha) for sha in found]


# -- pushing -----------------------------------------------------------------------------------------


def _receive(world: World, records: Records, repo: Record, body: bytes) -> Reply:
    """A push: the ref updates, then the pack; each ref updated or refused on its own, as git reports. A pack
    over the push limits is refused whole, as GitHub refuses it: by its size or by the count its header gives,
    before anything is read from it; by what its objects inflate to, as soon as that passes the limit."""
    try:
        commands, caps, at = _commands(body)
    except (PackError, UnicodeDecodeError, ValueError) as exc:
        return _text(400, f"protocol error: {exc}\n", RECEIVE)
    trace: dict[str, Any] = {"commands": [{"ref": r, "before": b, "after": a} for b, a, r in commands]}
    objects = records.objects
    try:
        if len(body) - at > PUSH_BYTES:
            raise PackTooLarge(mib(PUSH_BYTES))
        bases = partial(git_objects.pack_object, objects)  # a thin pack's, from the world
        pack = read_pack(body[at:], bases, PUSH_OBJECTS, PUSH_INFLATED) if len(body) > at else []
        pushed = Pushed(objects, pack)
        unpack = "ok"
    except PackTooLarge as exc:
        return _too_large(commands, caps, str(exc), trace)
    except PackError as exc:
        pushed, unpack = Pushed(objects, []), str(exc)
    trace["objects"] = len(pushed.pack)
    results = []
    for (before, after, ref), entry in zip(commands, trace["commands"]):
        reason = _update(records, repo, pushed, ref, before, after) if unpack == "ok" else "unpacker error"
        entry["result"] = reason or "ok"
        results.append(pkt(f"ok {ref}\n") if reason is None else pkt(f"ng {ref} {reason}\n"))
    if any(entry["result"] == "ok" for entry in trace["commands"]):
        world[REPOS].change(repo["full_name"], pushed_at=world.now(), updated_at=world.now())
    report = pkt(f"unpack {unpack}\n") + b"".join(results) + FLUSH
    return _reply(f"{RECEIVE}-result", _banded(caps, report), RECEIVE, trace)


def too_large(request: ServiceRequest) -> Reply | None:
    """A push whose body is over the server's limit, refused as one over `PUSH_BYTES`; None for any other git
    request (the 413 of GitHub's front end), or one whose commands cannot be read."""
    if _service(request) != RECEIVE:
        return None
    try:
        commands, caps, _ = _commands(request.body)
    except (PackError, UnicodeDecodeError, ValueError):
        return None
    trace: dict[str, Any] = {"commands": [{"ref": r, "before": b, "after": a} for b, a, r in commands]}
    return _too_large(commands, caps, mib(PUSH_BYTES), trace)


def _commands(body: bytes) -> tuple[list[tuple[str, str, str]], set[str], int]:
    """A push's ref updates (`old new ref`), what the client asked for (after the first one's NUL) and where
    the pack begins."""
    lines, at = read_pkts(body)
    commands = [_command(line) for line in lines if line is not None and not line.startswith(b"shallow ")]
    first = lines[0] if lines else None
    caps = set(first.partition(b"\0")[2].decode("utf-8", "replace").split()) if first else set()
    return commands, caps, at


def _too_large(commands: list[tuple[str, str, str]], caps: set[str], limit: str, trace: dict[str, Any]) -> Reply:
    """GitHub's refusal of a pack over its limits, as git shows it: `remote: fatal: pack exceeds maximum allowed
    size (<limit>)`, `error: remote unpack failed: index-pack abnormal exit`, every ref `(failed)`; nothing is
    written."""
    for entry in trace["commands"]:
        entry["result"] = "failed"
    trace["objects"] = 0
    report = (
        pkt("unpack index-pack abnormal exit\n") + b"".join(pkt(f"ng {r} failed\n") for _, _, r in commands) + FLUSH
    )
    said = f"fatal: pack exceeds maximum allowed size ({limit})\n"
    return _reply(f"{RECEIVE}-result", _banded(caps, report, said), RECEIVE, trace)


def _banded(caps: set[str], report: bytes, said: str = "") -> bytes:
    """The report, in band 1 when the client asked for side-band-64k, after what the server `said` in band 2
    (git shows it as `remote: ...`); the report alone otherwise."""
    if "side-band-64k" not in caps:
        return report
    return (sideband(2, said.encode()) if said else b"") + sideband(1, report) + FLUSH


def _command(line: bytes) -> tuple[str, str, str]:
    """`old new ref` (the first one followed by NUL and the client's capabilities)."""
    before, after, ref = line.split(b"\0")[0].decode("utf-8").rstrip("\n").split(" ")
    if not re.fullmatch("[0-9a-f]{40}", before) or not re.fullmatch("[0-9a-f]{40}", after):
        raise ValueError("bad object id in a command")
    return before, after, ref


def _update(records: Records, repo: Record, pushed: Pushed, ref: str, before: str, after: str) -> str | None:
    """Moves, creates or deletes one ref, writing the commits it needs first; None, or why not."""
    full = repo["full_name"]
    if not _REFNAME.fullmatch(ref) or ".." in ref or ref.endswith((".lock", ".")) or "@{" in ref:
        return "funny refname"
    if ref.startswith("refs/pull/"):
        return "deny updating a hidden ref"
    current = repos.ref(records, full, ref)
    if (current["sha"] if current else ZERO) != before:
        return "failed to update ref"
    if after == ZERO:
        if current is None:
            return "failed to delete"
        if ref == HEADS + repo["default_branch"]:
            return "deletion of the current branch prohibited"
        records[REFS].remove(ref_key(full, ref))
        return None
    try:
        tag = pushed.tag(after, full)  # an annotated tag: its commit is stored, then the tag
        commits = pushed.new_commits(tag["object"] if tag else after)
        pushed.store(full, commits)
    except Unstorable as exc:
        return str(exc)
    if tag is not None:
        git.write_tag(records.objects, tag)
    repos.set_ref(records, full, ref, after)
    return None
