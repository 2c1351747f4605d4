"""The control API (docs/http.md): worlds, their logs, state, clock and checks. JSON in, JSON out.

Errors are `{"error": {"code", "message"}}` with a 4xx status (a 5xx only for a fault of soundstage's
own, in the same envelope); a scene that does not validate answers 422 with every error's file, line and
field.

Who may call what (docs/security.md): `/healthz` is open; a world's own agent tokens may `finish` it and,
where the scene allows, move its clock; everything else, and above all whatever reveals or changes
grading, needs the admin token.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..checks import CheckSpecError, score, score_custom, watch_state_milestones
from ..clock import iso, parse_duration
from ..errors import NotFound, SpecError
from ..results import RunFilter
from ..services.base import LoneSurrogate, loads_json
from ..spec.discovery import is_name, list_scenes
from ..stage import WorldImage
from ..world import World
from . import snapshot as snapshots
from .hub import Hub, TooManyWorlds
from .library import Shelf, own_trial, stored_trial
from .mcp import UnknownTool, call_tool, every_service, function_schemas, offered
from .runs import RunRecord, Runs, run_checks, world_log

Endpoint = Callable[[Request], Awaitable[Response]]
log = logging.getLogger("soundstage.server")

MAX_ADVANCE = parse_duration("7d")

# Who may call a route: anyone, a world's agent or the admin, or the admin only.
PUBLIC, AGENT, ADMIN = "public", "agent", "admin"


class ControlError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


class _ASCIIJSON(JSONResponse):
    """JSON with every non-ASCII character escaped: an error may quote what it was given, and that may be
    text no UTF-8 encoder takes (half a surrogate pair)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":")).encode("ascii")


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return _ASCIIJSON({"error": {"code": code, "message": message, **extra}}, status_code=status)


def endpoint(handler: Callable[[Request], Awaitable[Any]], status: int = 200, allow: str = ADMIN) -> Endpoint:
    """Wraps a handler that returns JSON-able data: checks who calls, turns every error into the JSON
    error envelope (engine errors into 4xx, anything unforeseen into a 500 that is also logged)."""

    async def run(request: Request) -> Response:
        try:
            _authorize(request, allow)
            data = await handler(request)
            if not isinstance(data, Response):
                data = JSONResponse(data, status_code=status)  # rendered here: a failure is a 500 in the envelope
        except ControlError as exc:
            return error_response(exc.status, exc.code, exc.message, **exc.extra)
        except NotFound as exc:
            return error_response(404, "not_found", str(exc))
        except CheckSpecError as exc:  # before SpecError, its base
            return error_response(422, "invalid_checks", str(exc), path=list(exc.path))
        except SpecError as exc:
            errors = getattr(exc, "errors", None) or [exc]
            return error_response(422, "invalid_scene", str(exc), errors=[e.to_dict() for e in errors])
        except TooManyWorlds as exc:
            return error_response(429, "too_many_worlds", str(exc))
        except ClientDisconnect:
            return Response(status_code=400)
        except Exception:
            log.exception("control API %s %s failed", request.method, request.url.path[:200])
            return error_response(500, "internal_error", "soundstage failed on this request; the server log says why")
        return data

    return run


def _authorize(request: Request, allow: str) -> None:
    """Raises 401 without a credential this route accepts, 403 for an agent's token on an admin route.
    Marks `request.state.agent` when the caller is the world's agent."""
    request.state.agent = False
    if allow == PUBLIC:
        return
    header = request.headers.get("authorization", "")
    given = header[7:].strip() if header[:7].lower() == "bearer " else ""
    if given and secrets.compare_digest(given.encode(), request.app.state.admin_token.encode()):
        return
    hub = _hub(request)
    world = hub.worlds.get(request.path_params.get("world", ""))
    # Only the credentials handed to the agent: not what a service keeps in `world.tokens` for its own
    # purposes (an upload ticket, an integration's routing key).
    if allow == AGENT and world is not None and hub.by_token(given) is world:
        request.state.agent = True
        return
    if hub.by_token(given) is not None:
        raise ControlError(
            403,
            "forbidden",
            "an agent's token may only finish its own world and move its clock where the scene allows; "
            "this call needs the admin token",
        )
    raise ControlError(
        401, "unauthorized", "this call needs the admin token: `authorization: Bearer $SOUNDSTAGE_ADMIN_TOKEN`"
    )


async def _body(request: Request) -> bytes:
    """The body, read up to the server's limit."""
    limit = _hub(request).max_body
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ControlError(413, "too_large", f"the body is over the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request, lone_surrogates: bool = False) -> dict[str, Any]:
    """The body, a JSON object. A string holding half a surrogate pair is refused, unless `lone_surrogates`
    (a scene's text, whose loader names the line and field of one)."""
    raw = await _body(request)
    if not raw.strip():
        return {}
    try:
        data = loads_json(raw)  # as the services read JSON: bounded in depth, only text that can be written out
    except LoneSurrogate:
        if not lone_surrogates:
            raise ControlError(
                400, "invalid_json", "the body is not valid JSON: a string holds half a character"
            ) from None
        data = json.loads(raw)  # its depth is known to be fine; what reads the text says where the half is
    except ValueError as exc:
        raise ControlError(400, "invalid_json", f"the body is not valid JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict):
        raise ControlError(400, "invalid_json", "the body must be a JSON object")
    return data


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def _world(request: Request) -> World:
    world = _hub(request).get(request.path_params["world"])
    _hub(request).touch(world)  # a world someone still reads is not idle
    return world


def _base(request: Request) -> str:
    """The base of the URLs handed out: the server's public URL, else the address the request was sent to."""
    return request.app.state.public_url or f"{request.url.scheme}://{request.url.netloc}"


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
        raise ControlError(400, "invalid_after", f"after must be a whole number (a seq), got {raw[:40]!r}") from exc


def _scene_image_args(body: dict[str, Any], fields: set[str]) -> tuple[str | None, str | None]:
    """The scene a body names: `scene` (a known scene's name) or `scene_yaml` (text); `fields` are the
    others it may have. Raises 400 for anything else."""
    scene, text = body.get("scene"), body.get("scene_yaml")
    unknown = sorted(set(body) - {"scene", "scene_yaml"} - fields)
    if unknown:
        known = ", ".join(f'"{name}"' for name in sorted({"scene", "scene_yaml"} | fields))
        raise ControlError(400, "invalid_request", f"unknown field {unknown[0][:40]!r}: the fields are {known}")
    if (scene is None) == (text is None) or not isinstance(scene or text, str):
        raise ControlError(
            400, "invalid_request", 'give exactly one of "scene" (a known scene\'s name) or "scene_yaml" (text)'
        )
    if scene is not None and not is_name(scene):
        # Over HTTP a scene is a name, never a path: the server reads no file a caller points it at.
        raise ControlError(
            400,
            "invalid_request",
            '"scene" must be the name of a known scene (GET /v1/scenes lists them), not a path; '
            'send a scene of your own as "scene_yaml"',
        )
    return scene, text


async def _image(request: Request, scene: str | None, text: str | None) -> WorldImage:
    # Building an image is the one long piece of control work (a scene near its size bounds takes seconds
    # to parse): off the event loop, so every world's calls go on meanwhile.
    return await run_in_threadpool(_hub(request).images.load, scene=scene, scene_yaml=text, named=True)


async def create_world(request: Request) -> Any:
    body = await _json(request, lone_surrogates=True)
    if "snapshot" in body:  # a saved world, loaded again (snapshot.py)
        if len(body) > 1:
            raise ControlError(400, "invalid_request", 'a body with "snapshot" has no other field')
        try:
            world = await run_in_threadpool(snapshots.load, _hub(request), body["snapshot"])
        except snapshots.SnapshotError as exc:
            raise ControlError(400, "invalid_snapshot", str(exc)) from None
        return describe(_hub(request), world, _base(request))
    image = await _image(request, *_scene_image_args(body, set()))
    hub = _hub(request)
    world = hub.add(image)
    return describe(hub, world, _base(request))


async def snapshot(request: Request) -> Any:
    """The world saved (snapshot.py): the file `POST /v1/worlds` with `{"snapshot": ...}` loads again."""
    world = _world(request)
    try:
        data = await run_in_threadpool(snapshots.save, _hub(request), world)
    except snapshots.SnapshotError as exc:
        raise ControlError(409, "not_saveable", str(exc)) from None
    return Response(snapshots.dumps(data), media_type="application/json")


async def fork_world(request: Request) -> Any:
    """A new live world in the state of this one (`Hub.fork`), with tokens of its own."""
    hub = _hub(request)
    world = _world(request)
    if world.finished:
        raise ControlError(409, "already_finished", f"world {world.id} has finished: fork a world before it finishes")
    if world.log.broken is not None:  # what it did since the log broke was never written down
        raise ControlError(503, "unavailable", f"world {world.id} serves no more calls: {world.log.broken}")
    try:
        fork = hub.fork(world.id)
    except ValueError as exc:  # it finished meanwhile
        raise ControlError(409, "already_finished", str(exc)) from None
    return describe(hub, fork, _base(request))


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
    if request.state.agent and not world.agent.get("may_advance_clock", True):
        raise ControlError(
            403, "forbidden", "this scene does not let the agent move the clock (agent.may_advance_clock)"
        )
    if world.finished:
        raise ControlError(409, "already_finished", f"world {world.id} has finished; its clock no longer moves")
    if world.log.broken is not None:  # what falls due could not be written down: it does not happen
        raise ControlError(503, "unavailable", f"world {world.id} serves no more calls: {world.log.broken}")
    advance = body.get("advance")
    if advance is None:
        raise ControlError(400, "invalid_request", 'give "advance", a duration such as "5m"')
    try:
        us = parse_duration(advance)
    except ValueError as exc:
        raise ControlError(400, "invalid_duration", str(exc)[:200]) from exc
    if us > MAX_ADVANCE:  # what falls due on the way runs now, on the one event loop every world shares
        raise ControlError(400, "invalid_duration", "the clock moves at most 7d per call; call again to go further")
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
    # Even a world whose log can no longer be written finishes (in memory): the attempt is over all the same,
    # and whoever runs the trial learns it as usual, and then why the trial cannot be judged.
    if not world.finish(output):
        raise ControlError(409, "already_finished", f"world {world.id} has already finished")
    _hub(request).touch(world)  # a finished world lives `finished_ttl` from now
    # A run's trial is scored now, once (a judge check may ask a model: off the event loop).
    evaluation = await run_in_threadpool(_runs(request).finished, world)
    if request.state.agent:  # the attempt is over, but its grades are still not the agent's to read
        return {"finished": True, "now": iso(world.now()), "last_seq": world.log.last_seq}
    return (evaluation or score(world)).model_dump(mode="json")


async def tools(request: Request) -> Any:
    """The tools of the world's MCP endpoint of every service, as OpenAI function schemas (docs/environment.md)."""
    world = _world(request)
    return function_schemas(offered(every_service(_hub(request), world, _base(request))))


async def step(request: Request) -> Any:
    """One tool call on the world, exactly as its MCP endpoint of every service runs it (`call_tool`): a trainer
    driving the world in its agent's place (docs/environment.md)."""
    body = await _json(request)
    name, arguments = body.get("tool"), body.get("arguments", {})
    unknown = sorted(set(body) - {"tool", "arguments"})
    if unknown or not isinstance(name, str) or not isinstance(arguments, dict):
        raise ControlError(
            400, "invalid_request", 'give "tool", a tool\'s name, and "arguments", an object (the fields are no other)'
        )
    world = _world(request)
    if world.finished:
        raise ControlError(409, "already_finished", f"world {world.id} has finished: start another episode")
    try:
        result = call_tool(every_service(_hub(request), world, _base(request)), name, arguments)
    except UnknownTool as exc:
        return {"content": [str(exc)], "is_error": True, "seq": exc.seq}
    if result.real_delay_ms:  # a slow api fault, held outside the world's lock as on the REST side
        await asyncio.sleep(result.real_delay_ms / 1000)
    return {"content": result.texts, "is_error": result.is_error, "seq": result.seq}


async def scenes(request: Request) -> Any:
    return [{"name": name, "path": str(path), "description": text} for name, path, text in list_scenes()]


async def ca_certificate(request: Request) -> Any:
    """The local CA's certificate, for clients outside the server's machine (or container) to trust its
    https port: a certificate is public; its key never leaves the server."""
    hub = _hub(request)
    if hub.tls is None:
        raise NotFound("this server has no https port, so no certificate authority to trust")
    return Response(hub.tls.ca.ca.read_bytes(), media_type="application/x-pem-file")


async def healthz(request: Request) -> Any:
    return {"ok": True, "worlds": len(_hub(request).worlds)}


def _runs(request: Request) -> Runs:
    return request.app.state.runs


RUN_FIELDS = {"checks", "replace_template_checks", "trials", "metadata"}


async def create_run(request: Request) -> Any:
    body = await _json(request, lone_surrogates=True)
    scene, text = _scene_image_args(body, RUN_FIELDS)
    trials = body.get("trials", 1)
    replace = body.get("replace_template_checks", False)
    metadata = body.get("metadata", {})
    hub = _hub(request)
    hub.expire()  # expired worlds free their slots first
    free = hub.max_worlds - len(hub.worlds)
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
        raise ControlError(400, "invalid_request", '"trials" must be a whole number, at least 1')
    if trials > free:
        raise ControlError(
            400, "invalid_request", f'"trials" is {trials}, more than the {free} live worlds this server can add now'
        )
    if not isinstance(replace, bool):
        raise ControlError(400, "invalid_request", '"replace_template_checks" must be true or false')
    if not isinstance(metadata, dict):
        raise ControlError(400, "invalid_request", '"metadata" must be a JSON object')
    image = await _image(request, scene, text)
    checks, pass_ids, custom = run_checks(image, body.get("checks"), replace)  # before any world is made
    worlds: list[World] = []
    try:
        for _ in range(trials):
            world = hub.add(image)
            world.checks, world.pass_ids = checks, pass_ids
            watch_state_milestones(world, custom)
            worlds.append(world)
    except TooManyWorlds:  # another caller took the slots meanwhile: no run, no world left behind
        for world in worlds:
            hub.drop(world.id)
        raise
    run = _runs(request).start(image.name, image.source, metadata, worlds)
    base = _base(request)
    return {
        "id": run.id,
        "status": run.status,
        "worlds": [
            {"id": w.id, "trial": n, "env": hub.environment(w, base), "urls": hub.urls(w, base)}
            for n, w in enumerate(worlds, 1)
        ],
    }


def _shelf(request: Request) -> Shelf:
    return request.app.state.shelf


async def list_runs(request: Request) -> Any:
    selection = _run_filter(request)
    await run_in_threadpool(_runs(request).settle, _hub(request).worlds)
    return await run_in_threadpool(_shelf(request).list, selection)


RUN_FILTERS = ("scene", "agent", "since", "until")


def _run_filter(request: Request) -> RunFilter:
    """The runs `?scene=NAME&agent=COMMAND&since=YYYY-MM-DD&until=YYYY-MM-DD` select; 400 for any other
    parameter, a parameter given twice or empty, or a day that is no date."""
    query = request.query_params
    known = ", ".join(RUN_FILTERS)
    for name in query:
        if name not in RUN_FILTERS:
            raise ControlError(400, "invalid_request", f"unknown parameter {name[:40]!r}: the parameters are {known}")
        if len(query.getlist(name)) > 1 or not query[name]:
            raise ControlError(400, "invalid_request", f"give {name} once, not empty")
    return RunFilter(
        query.get("scene"), query.get("agent"), _day(query.get("since"), "since"), _day(query.get("until"), "until")
    )


def _day(raw: str | None, name: str) -> date | None:
    if raw is None:
        return None
    try:
        if len(raw) == len("YYYY-MM-DD"):  # fromisoformat takes other forms too (20261201)
            return date.fromisoformat(raw)
    except ValueError:
        pass
    raise ControlError(400, "invalid_request", f"{name} must be a day as YYYY-MM-DD, got {raw[:40]!r}")


async def get_run(request: Request) -> Any:
    await run_in_threadpool(_runs(request).settle, _hub(request).worlds)
    return await run_in_threadpool(_shelf(request).describe, request.path_params["run"])


async def get_trial(request: Request) -> Any:
    await run_in_threadpool(_runs(request).settle, _hub(request).worlds)
    found = await run_in_threadpool(_shelf(request).find, request.path_params["run"])
    raw = request.path_params["trial"]
    if not raw.isdigit():
        raise NotFound(f"no trial {raw[:40]!r}: a trial is a number, from 1")
    scene = request.query_params.get("scene")
    if isinstance(found, RunRecord):
        return _own_trial(request, found, int(raw), scene)
    scenes = list(dict.fromkeys(trial.scene for trial in found.results))
    if scene is None and len(scenes) > 1:
        raise ControlError(
            400,
            "invalid_request",
            f"run {found.run_id} has several scenes: add ?scene=NAME, one of {', '.join(scenes)}",
        )
    return await run_in_threadpool(stored_trial, found, scene or (scenes[0] if scenes else ""), int(raw))


def _own_trial(request: Request, run: RunRecord, number: int, scene: str | None) -> Any:
    trial = next((t for t in run.trials if t.number == number and scene in (None, run.scene)), None)
    if trial is None:
        raise NotFound(f"run {run.id} has no trial {number} (its trials are 1 to {len(run.trials)} of {run.scene})")
    if trial.result is not None:
        return own_trial(run, trial, None)
    # Still running: the world as it is now; its output comes with the end.
    return own_trial(run, trial, world_log(_hub(request).get(trial.world_id), None))


async def compare(request: Request) -> Any:
    a, b = request.query_params.get("a"), request.query_params.get("b")
    if not a or not b:
        raise ControlError(400, "invalid_request", "give the two runs: ?a=RUN&b=RUN (B is compared against A)")
    await run_in_threadpool(_runs(request).settle, _hub(request).worlds)
    return await run_in_threadpool(_shelf(request).compare, a, b)
