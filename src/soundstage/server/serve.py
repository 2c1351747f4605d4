"""Running the app on uvicorn in a background thread (for `soundstage run` and the tests)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from ..errors import InfrastructureError
from .app import create_app
from .hub import Hub


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class Server:
    """The app over `hub`, listening on `host:port` (port 0: a free one) until `stop`."""

    def __init__(self, hub: Hub | None = None, host: str = "127.0.0.1", port: int = 0, admin_token: str | None = None) -> None:
        self.hub = hub or Hub()
        self.host = host
        self.port = port or free_port(host)
        self.app = create_app(self.hub, admin_token=admin_token)
        config = uvicorn.Config(
            self.app, host=host, port=self.port, log_level="warning", access_log=False, lifespan="off",
            date_header=False, server_header=False,  # the services send a simulated Date of their own
        )
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> Server:
        self._thread = threading.Thread(target=self._server.run, name="soundstage-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise InfrastructureError(f"the server could not start on {self.host}:{self.port}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
