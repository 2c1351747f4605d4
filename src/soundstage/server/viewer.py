"""The web viewer (docs/viewer.md): a page at `/ui/` that reads the run routes of the control API.

The page is three files shipped in the package (ui/), read once and served from memory: nothing is built and
nothing is fetched from elsewhere. The page itself is open; every piece of data it shows comes from the
control API with the admin token, which the page is given in its address (`/ui/#token=...`): the part after
`#` never leaves the browser. What it shows was written by agents, so the page puts it in as text only, and
the content security policy forbids any script or style but its own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

UI = Path(__file__).with_name("ui")
TYPES = {
    "index.html": "text/html; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "viewer.css": "text/css; charset=utf-8",
}
HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
}


@cache
def _asset(name: str) -> bytes:
    return (UI / name).read_bytes()


async def page(request: Request) -> Response:
    name = request.path_params.get("name") or "index.html"
    if name not in TYPES:
        return Response(status_code=404, headers=HEADERS)
    return Response(_asset(name), media_type=TYPES[name], headers=HEADERS)


async def to_page(request: Request) -> Response:
    return RedirectResponse("/ui/", status_code=308)


def viewer_routes() -> list[Route]:
    return [
        Route("/ui", to_page, methods=["GET"]),
        Route("/ui/", page, methods=["GET"]),
        Route("/ui/{name}", page, methods=["GET"]),
    ]
