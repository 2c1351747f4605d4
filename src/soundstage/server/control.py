"""The control API (docs/http.md): worlds, their logs, state, clock and checks. JSON in, JSON out.

Errors are `{"error": {"code", "message"}}` with a 4xx status; a scene that does not validate answers
422 with every error's file, line and field.
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..checks import CheckSpecError, score, score_custom
from ..clock import iso, parse_duration
from ..errors import NotFound, SpecError
from ..spec.discovery import list_scenes
from ..world import World
from .hub import Hub

Endpoint = Callable[[Request], Awaitable[Response]]


class ControlError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def endpoint(handler: Callable[[Request], Awaitable[Any]], status: int = 200, public: bool = False) -> Endpoint:
    """Wraps a handler that returns JSON-able data; turns engine errors into 4xx JSON."""

    async def run(request: Request) -> Response:
        admin = request.app.state.admin_token
        if admin and not public and not _authorized(request, admin):
            return error_response(401, "unauthorized", "the control API needs the admin token (SOUNDSTAGE_ADMIN_TOKEN)")
        try:
            data = await handler(request)
        except ControlError as exc:
            return error_response(exc.status, exc.code, exc.message, **exc.extra)
        except NotFound as exc:
            return error_response(404, "not_found", str(exc))
        except CheckSpecError as exc:  # before SpecError, its base
            return error_response(422, "invalid_checks", str(exc), path=list(exc.path))
        except SpecError as exc:
            errors = getattr(exc, "errors", None) or [exc]
            return error_response(422, "invalid_scene", str(exc), errors=[e.to_dict() for e in errors])
        if isinstance(data, Response):
            return data
        return JSONResponse(data, status_code=status)

    return run


def _authorized(request: Request, admin: str) -> bool:
    """The admin token, or (for one world's own routes) any token of that world: agents may `finish`."""
    given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if given == admin:
        return True
    world_id = request.path_params.get("world")
    world = request.app.state.hub.worlds.get(world_id) if world_id else None
    return world is not None and given in world.tokens


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ControlError(400, "invalid_json", f"the body is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ControlError(400, "invalid_json", "the body must be a JSON object")
    return data


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def _world(request: Request) -> World:
    return _hub(request).get(request.path_params["world"])


def _base(request: Request) -> str:
    return f"{request.url.scheme}://{request.url.netloc}"


def describe(hub: Hub, world: World, base: str) -> dict[str, Any]:
    return {
        "id": world.id,
        "scene": world.scene,
        "world": world.scene_record.get("world"),
        "task": world.task,
        "now": iso(world.now()),
        "last_seq": world.log.last_seq,
        "finished": world.finished,
        "urls": hub.urls(world, base),
        "env": hub.environment(world, base),
    }


def _after(request: Request) -> int:
    raw = request.query_params.get("after", "0")
    try:
        return int(raw)
    except ValueError as exc:
        raise ControlError(400, "invalid_after", f"after must be a whole number (a seq), got {raw!r}") from exc


async def create_world(request: Request) -> Any:
    body = await _json(request)
    scene, text = body.get("scene"), body.get("scene_yaml")
    if (scene is None) == (text is None) or not isinstance(scene or text, str):
        raise ControlError(
            400, "invalid_request", 'give exactly one of "scene" (a name or path) or "scene_yaml" (text)'
        )
    world = _hub(request).create_world(scene=scene, scene_yaml=text)
    return describe(_hub(request), world, _base(request))


async def list_worlds(request: Request) -> Any:
    hub = _hub(request)
    return [
        {"id": w.id, "scene": w.scene, "last_seq": w.log.last_seq, "finished": w.finished} for w in hub.worlds.values()
    ]


async def get_world(request: Request) -> Any:
    return describe(_hub(request), _world(request), _base(request))


async def delete_world(request: Request) -> Any:
    world = _world(request)
    _hub(request).drop(world.id)
    return {"deleted": world.id}


async def trace(request: Request) -> Any:
    after = _after(request)
    return [e.model_dump(mode="json") for e in _world(request).log.after(after, kind="call")]


async def events(request: Request) -> Any:
    return [e.model_dump(mode="json") for e in _world(request).log.after(_after(request))]


async def state(request: Request) -> Any:
    return _world(request).state()


async def diff(request: Request) -> Any:
    return _world(request).diff()


async def clock(request: Request) -> Any:
    body = await _json(request)
    world = _world(request)
    advance = body.get("advance")
    if advance is None:
        raise ControlError(400, "invalid_request", 'give "advance", a duration such as "5m"')
    try:
        us = parse_duration(advance)
    except ValueError as exc:
        raise ControlError(400, "invalid_duration", str(exc)) from exc
    world.advance(us)
    return {"now": iso(world.now()), "advanced": advance, "last_seq": world.log.last_seq}


async def checks(request: Request) -> Any:
    return score(_world(request)).model_dump(mode="json")


async def custom_checks(request: Request) -> Any:
    body = await _json(request)
    raw = body.get("checks")
    if not isinstance(raw, list):
        raise ControlError(400, "invalid_request", 'give "checks", a list of checks')
    return score_custom(_world(request), raw).model_dump(mode="json")


async def finish(request: Request) -> Any:
    body = await _json(request)
    output = body.get("output", "")
    if not isinstance(output, str):
        raise ControlError(400, "invalid_request", '"output" must be a string')
    world = _world(request)
    if not world.finish(output):
        raise ControlError(409, "already_finished", f"world {world.id} has already finished")
    return score(world).model_dump(mode="json")


async def scenes(request: Request) -> Any:
    return [{"name": name, "path": str(path), "description": text} for name, path, text in list_scenes()]


async def healthz(request: Request) -> Any:
    return {"ok": True, "worlds": len(_hub(request).worlds)}
