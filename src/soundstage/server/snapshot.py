"""Saving a live world to a file and loading it again (docs/http.md, "Snapshots").

A world's pending work (people's replies, fault recoveries, scheduled posts, timers) is held as actions in its
due queue, which no file can hold safely. The engine is deterministic, so a snapshot is the scene and the
inputs that made the world (`World.note`: every call as it arrived, clock move and finish), and loading replays
them, through the same paths, on a fresh world of that scene's image, then checks the world made equals the one
saved (its log's last seq and a digest of its state, log and clock): else the load is refused and the world
dropped. Nothing in the file decides anything by itself: a loaded world is what its inputs make it.

The agent's tokens never enter the file: each is written as a placeholder naming its principal, and a replayed
call carries the loaded world's own token of that principal. A world that cannot be replayed exactly (people
worded or understood by a model, a clock on real time, a CONNECT to a host outside) is refused at save.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import orjson

from ..clock import iso
from ..errors import NotFound, SpecError
from ..events import AfterFinishEvent
from ..people.engine import State as PeopleState
from ..services import SERVICES
from ..services.base import ServiceRequest
from ..world import Principal, World
from .hub import Hub
from .mcp import EVERY
from .recording import MCP_PATH, record, record_refused_tool

__version__ = version("soundstage")
FORMAT = "soundstage-snapshot"
VERSION = 1
_PLACEHOLDER = "ss-snapshot-token-{}"


class SnapshotError(ValueError):
    """A world that cannot be saved exactly, or a snapshot that cannot be loaded; the message says why."""


def save(hub: Hub, world: World) -> dict[str, Any]:
    """The snapshot of `world` as it is now, between calls. Raises SnapshotError when it cannot be replayed
    exactly."""
    with world.lock:
        _saveable(world)
        assert world.inputs is not None and world.image is not None  # _saveable says so
        image = world.image
        principals = sorted({_key(principal) for principal in world.handed.values()})
        secrets = {
            token: _PLACEHOLDER.format(principals.index(_key(principal))) for token, principal in world.handed.items()
        }
        inputs = [_written(entry, secrets) for entry in world.inputs]
        digest = world_digest(world)
        data = {
            "format": FORMAT,
            "version": VERSION,
            "soundstage": __version__,
            "scene": {"name": image.name, "source": image.source, "yaml": image.yaml, "digest": image.digest},
            "principals": [list(p) for p in principals],
            "inputs": inputs,
            "world": {"last_seq": world.log.last_seq, "now": world.now(), "digest": digest},
        }
    text = dumps(data)
    leaked = [token for token in world.handed if token.encode() in text]
    if leaked:  # a token in a form the placeholders do not reach (inside an encoded body)
        raise SnapshotError(
            f"world {world.id} cannot be saved: a call carried the agent's credential where a snapshot cannot "
            "leave it out, and a snapshot never holds one"
        )
    return data


def dumps(data: dict[str, Any]) -> bytes:
    """The file's bytes: the same for the same world (keys sorted, two-space indents)."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def world_digest(world: World) -> str:
    """sha256 of the world's state, log and clock: what a load must make again."""
    # Empty collections left out: reading a collection makes it (the agent's environment reads some).
    state = {name: records for name, records in world.state().items() if records}
    whole = [state, [event.model_dump(mode="json") for event in world.log.events], world.now()]
    try:
        text = orjson.dumps(whole, option=orjson.OPT_SORT_KEYS, default=_plain)
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise SnapshotError(f"world {world.id} cannot be saved: its state holds a value no file can: {exc}") from None
    if any(token.encode() in text for token in world.handed):
        raise SnapshotError(
            f"world {world.id} cannot be saved: the agent's credential is in its records or log (it sent its token "
            "as content), and a snapshot never holds one"
        )
    return hashlib.sha256(text).hexdigest()


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _saveable(world: World) -> None:
    why = world.unsaveable
    if why is None and world.log.broken is not None:
        why = f"its log broke ({world.log.broken}), so what it did since was never written down"
    if why is None and world.image is None:
        why = "it was not made from a scene's image"
    if why is None and world.image.digest == "":
        why = "its image was not built by a hub's image cache, so what it was built from is unknown"
    if why is None and world.image.clock.start == "now":
        why = "its clock starts `now`, the wall clock's time when it was made, which a load cannot make again"
    if why is None and world.clock.realtime:
        why = "its clock follows real time, which a replay cannot follow again"
    if why is None and world.checks is not world.image.checks:
        why = "it is graded by checks given when it was made (POST /v1/runs), which a snapshot does not carry"
    people = world._parts.get(PeopleState)
    if why is None and people is not None and (people.wording is not None or people.understanding is not None):
        why = "its people's words come from a model, which may answer otherwise when replayed"
    if why is not None:
        raise SnapshotError(f"world {world.id} cannot be saved: {why}")


def _key(principal: Principal) -> tuple[str, str, str]:
    return (principal.service, principal.user, principal.token_type)


def _principal(principal: Principal | None) -> list[str] | None:
    return None if principal is None else list(_key(principal))


def _written(entry: tuple[Any, ...], secrets: dict[str, str]) -> dict[str, Any]:
    kind = entry[0]
    if kind == "call":
        _, service, principal, call, size, mcp = entry
        body = _hide(call.body, secrets)
        written: dict[str, Any] = {
            "kind": kind,
            "service": service,
            "principal": _principal(principal),
            "method": call.method,
            "path": call.path,
            "query": _swap(call.query, secrets),
            "headers": {name: _swap_header(value, secrets) for name, value in call.headers.items()},
            "base_url": call.base_url,
            "size": size,
            "mcp": mcp,
        }
        try:
            written["body"] = body.decode("utf-8")
        except UnicodeDecodeError:
            written["body_base64"] = base64.b64encode(body).decode()
        return written
    if kind == "advance":
        return {"kind": kind, "us": entry[1]}
    if kind == "finish":
        return {"kind": kind, "output": entry[1], "reason": entry[2]}
    if kind == "refused_tool":
        _, service, principal, mcp, status, message = entry
        return {
            "kind": kind,
            "service": service,
            "principal": _principal(principal),
            "mcp": mcp,
            "status": status,
            "message": message,
        }
    return {"kind": kind, "service": entry[1], "method": entry[2]}  # after_finish


def _hide(body: bytes, secrets: dict[str, str]) -> bytes:
    for token, placeholder in secrets.items():
        if token.encode() in body:
            body = body.replace(token.encode(), placeholder.encode())
    return body


def _swap(value: Any, swaps: dict[str, str]) -> Any:
    """`value` (a string, or a list or dict of them) with each key of `swaps` in it replaced by its value."""
    if isinstance(value, str):
        for old, new in swaps.items():
            if old in value:
                value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_swap(item, swaps) for item in value]
    if isinstance(value, dict):
        return {key: _swap(item, swaps) for key, item in value.items()}
    return value


def _swap_header(value: str, swaps: dict[str, str]) -> str:
    """A header's value with the tokens swapped, inside the base64 of `Basic` credentials (git's) too."""
    scheme, _, encoded = value.partition(" ")
    if scheme.lower() == "basic" and encoded:
        try:
            decoded = base64.b64decode(encoded.strip(), validate=True).decode("latin-1")
        except (binascii.Error, ValueError):
            return _swap(value, swaps)
        return f"{scheme} {base64.b64encode(_swap(decoded, swaps).encode('latin-1')).decode()}"
    return _swap(value, swaps)


def read(path: str | Path) -> dict[str, Any]:
    """A snapshot file's contents; SnapshotError when it is no JSON object."""
    try:
        data = orjson.loads(Path(path).read_bytes())
    except orjson.JSONDecodeError as exc:
        raise SnapshotError(f"{path} is not a snapshot: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise SnapshotError(f"{path} is not a snapshot: not a JSON object")
    return data


def load(hub: Hub, data: Any, named: bool = True) -> World:
    """A new live world on `hub` made by replaying snapshot `data`, with tokens of its own. The scene is rebuilt
    from its text, or by its name (`named`; else the path it was built from first); it must be built from the
    same words as when saved. Raises SnapshotError (nothing left in the hub) or TooManyWorlds."""
    scene, inputs, expected = _checked(data)
    image = _image(hub, scene, named)
    world = hub.add(image)
    try:
        with world.lock:
            _replay(world, data["principals"], inputs)
            digest = world_digest(world)
        if world.log.last_seq != expected["last_seq"] or digest != expected["digest"]:
            engine = "" if data["soundstage"] == __version__ else f" (saved by soundstage {data['soundstage']})"
            raise SnapshotError(
                f"the snapshot does not make the world it was saved from{engine}: replaying it gave last seq "
                f"{world.log.last_seq} and digest {digest[:12]}, the file says {expected['last_seq']} and "
                f"{str(expected['digest'])[:12]}; it was changed, or the engine answers otherwise"
            )
    except BaseException:
        hub.drop(world.id)
        raise
    return world


def _checked(data: Any) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError(f'not a snapshot: its "format" must be "{FORMAT}"')
    if data.get("version") != VERSION:
        raise SnapshotError(
            f"a snapshot of version {str(data.get('version'))[:20]}: this soundstage ({__version__}) loads version "
            f"{VERSION}"
        )
    scene, inputs, expected = data.get("scene"), data.get("inputs"), data.get("world")
    if (
        not isinstance(scene, dict)
        or not isinstance(scene.get("name"), str)
        or not isinstance(scene.get("digest"), str)
        or not isinstance(scene.get("yaml"), (str, type(None)))
        or not isinstance(inputs, list)
        or not all(isinstance(entry, dict) for entry in inputs)
        or not isinstance(expected, dict)
        or not isinstance(data.get("principals"), list)
        or not isinstance(data.get("soundstage"), str)
    ):
        raise SnapshotError(
            'a snapshot needs "scene" (name, yaml, digest), "principals", "inputs" (a list of objects), "world" '
            'and "soundstage", as GET /v1/worlds/{id}/snapshot writes them'
        )
    return scene, inputs, expected


def _image(hub: Hub, scene: dict[str, Any], named: bool) -> Any:
    try:
        if scene["yaml"] is not None:
            image = hub.images.load(scene_yaml=scene["yaml"])
        elif not named and isinstance(scene.get("source"), str) and Path(scene["source"]).is_file():
            image = hub.images.load(scene=scene["source"])
        else:
            image = hub.images.load(scene=scene["name"], named=True)
    except (NotFound, SpecError) as exc:
        raise SnapshotError(f"the snapshot's scene {scene['name'][:80]!r} cannot be built here: {exc}") from None
    if image.digest != scene["digest"]:
        raise SnapshotError(
            f"the scene {scene['name'][:80]!r} here is not the one the snapshot was saved from: it or its world "
            "file has changed since"
        )
    return image


def _replay(world: World, principals: list[Any], inputs: list[dict[str, Any]]) -> None:
    """Each input again, through the paths it first took, the placeholders of `principals`' tokens standing for
    this world's own. A malformed entry is a SnapshotError."""
    mine = {_key(principal): token for token, principal in world.handed.items()}
    placeholders = {}
    for n, raw in enumerate(principals):
        try:
            found = _from(raw)
        except (TypeError, ValueError):
            raise SnapshotError(f"the snapshot's principal {n} is not [service, user, token type]") from None
        if found is not None and _key(found) in mine:
            placeholders[_PLACEHOLDER.format(n)] = mine[_key(found)]
    for n, entry in enumerate(inputs, 1):
        try:
            _again(world, entry, placeholders)
        except (KeyError, TypeError, ValueError, AttributeError, binascii.Error) as exc:
            raise SnapshotError(f"the snapshot's input {n} cannot be replayed: {type(exc).__name__} {exc}") from None


def _again(world: World, entry: dict[str, Any], placeholders: dict[str, str]) -> None:
    kind = entry["kind"]
    if kind == "call":
        body = (
            base64.b64decode(entry["body_base64"], validate=True)
            if "body_base64" in entry
            else entry["body"].encode("utf-8")
        )
        call = ServiceRequest(
            method=str(entry["method"]),
            path=str(entry["path"]),
            query=_swap(dict(entry["query"]), placeholders),
            headers={str(k): _swap_header(str(v), placeholders) for k, v in dict(entry["headers"]).items()},
            body=_hide(body, placeholders),
            base_url=str(entry["base_url"]),
        )
        record(world, SERVICES[entry["service"]], _from(entry["principal"]), call, int(entry["size"]), entry["mcp"])
    elif kind == "advance":
        world.advance(int(entry["us"]))
    elif kind == "finish":
        world.finish(entry["output"], str(entry["reason"]))
    elif kind == "refused_tool":
        principal, status = _from(entry["principal"]), int(entry["status"])
        record_refused_tool(world, str(entry["service"]), principal, entry["mcp"], status, str(entry["message"]))
    elif kind == "after_finish":
        service = str(entry["service"])
        if service != EVERY and service not in SERVICES:
            raise ValueError(f"no service {service[:40]!r}")
        method = str(entry["method"])
        world.note(("after_finish", service, method))
        world.log.emit(AfterFinishEvent, t=iso(world.now()), service=service, method=method, path=MCP_PATH, status=401)
    else:
        raise ValueError(f"no input of kind {str(kind)[:40]!r}")


def _from(raw: Any) -> Principal | None:
    if raw is None:
        return None
    service, user, token_type = raw
    return Principal(str(service), str(user), str(token_type))
