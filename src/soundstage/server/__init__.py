"""The HTTP server: the Starlette app, world and token routing, the recording layer, the control API."""

from __future__ import annotations

from .app import create_app
from .hub import Hub
from .serve import Server

__all__ = ["Hub", "Server", "create_app"]
