"""Listening: the app on a plain port and on a TLS port, both served by uvicorn in one event loop.

One loop for both ports keeps every call of every world on one thread, as with a single port. `Server`
runs that loop in a background thread (for `soundstage run` and the tests); `soundstage serve` runs it in
the foreground.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from types import FrameType
from typing import Any, Self

import uvicorn

from .. import collector
from ..errors import InfrastructureError
from ..results import ResultsSink, RunLibrary
from .app import create_app
from .heads import HEAD_LIMIT
from .hub import Hub, ProxyPort, TLSPort
from .proxy import Proxy
from .stack import Stack
from .tls import local_ca

SWEEP_SECONDS = 30.0
BACKLOG = 2048  # uvicorn's own


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, bound before anything is printed, so a taken port is an error (exit 3)."""
    # IPPROTO_TCP, not 0: asyncio turns Nagle off only on sockets that say they are TCP, and with Nagle on
    # every small response waits for the client's delayed ACK (40 ms).
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # Listening from now on: a client told the address (it is printed next) is queued, not refused, until
        # the server's loop starts accepting.
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise InfrastructureError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class _Listener(uvicorn.Server):
    """uvicorn's server, ended as soon as it is told (`exit`): its main loop sleeps until then rather than
    looking every 0.1 s, and with no connection open it closes without the 0.1 s uvicorn gives open ones to
    finish. Each `soundstage run` stops a server, so this is time off every run."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._told = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def exit(self) -> None:
        """From any thread, or a signal handler."""
        self.should_exit = True
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: it has ended already
                self._loop.call_soon_threadsafe(self._told.set)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self.exit()

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.on_tick(0)  # the default headers; with no date header, nothing later changes them
        while not self.should_exit:
            await self._told.wait()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.server_state.connections:  # let what is in flight finish, as uvicorn does
            await super().shutdown(sockets)
            return
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for server in self.servers:
            await server.wait_closed()
        await self.lifespan.shutdown()


class Server:
    """The app over `hub` on `host:port` and, with TLS, on `host:tls_port` (port 0: a free one); runs over
    HTTP are written to `results` too, when given, and the runs of `libraries` are listed with its own."""

    def __init__(
        self,
        hub: Hub | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        tls_port: int | None = 0,
        tls_everywhere: bool = False,
        admin_token: str | None = None,
        log_config: dict[str, Any] | None = None,
        access_log: bool = False,
        results: ResultsSink | None = None,
        libraries: list[RunLibrary] | None = None,
        proxy_port: int | None = None,
        public_url: str | None = None,
        public_tls_url: str | None = None,
        stack: Stack | None = None,
    ) -> None:
        self.hub = hub or Hub()
        self.stack = stack or Stack.choose()
        self.host = host
        self.public_url = public_url
        self.app = create_app(
            self.hub, admin_token=admin_token, results=results, libraries=libraries, public_url=public_url
        )
        self._sockets = [bind(host, port)]
        if tls_port is not None:
            self._sockets.append(bind(host, tls_port))
            self.hub.tls = TLSPort(self._sockets[1].getsockname()[1], local_ca(), tls_everywhere, public_tls_url)
        self._proxy: tuple[Proxy, socket.socket] | None = None
        if proxy_port is not None:
            sock = bind(host, proxy_port)
            self.hub.proxy = ProxyPort(sock.getsockname()[1], local_ca())
            self._proxy = (Proxy(self.app, self.hub, self.hub.proxy.ca), sock)
        self.port = self._sockets[0].getsockname()[1]
        common: dict[str, Any] = {
            "log_level": "warning",
            "access_log": False,
            "lifespan": "off",
            "date_header": False,
            "server_header": False,  # the services send a simulated Date of their own
            **self.stack.options(),
        }
        if log_config is not None:
            common.update(log_config=log_config, log_level=None, access_log=access_log)
        self._servers = [_Listener(uvicorn.Config(self.app, **common))]
        if self.hub.tls is not None:
            certificate = str(self.hub.tls.ca.certificate)
            config = uvicorn.Config(self.app, ssl_certfile=certificate, **common)
            self._servers.append(_Listener(config))
        self._thread: threading.Thread | None = None

    @property
    def admin_token(self) -> str:
        """What the control API asks for: the one given, or the random one made when none was."""
        return str(self.app.state.admin_token)

    @property
    def url(self) -> str:
        """Where clients reach the server: the public URL when it is mapped elsewhere (a container's port)."""
        return self.public_url or f"http://{url_host(self.host)}:{self.port}"

    @property
    def proxy_url(self) -> str | None:
        """The interception proxy's address (without a credential: each agent's carries its world's)."""
        return f"http://{url_host(self.host)}:{self.hub.proxy.port}" if self.hub.proxy is not None else None

    @property
    def tls_url(self) -> str | None:
        return self.hub.tls.base(self.url) if self.hub.tls is not None else None

    async def serve(self) -> None:
        """Serves both ports until `stop` (or an interrupt, in the foreground)."""
        tasks = [asyncio.ensure_future(s.serve(sockets=[sock])) for s, sock in zip(self._servers, self._sockets)]
        sweeper = asyncio.ensure_future(self._sweep())
        proxy = None
        if self._proxy is not None:
            handler, sock = self._proxy
            proxy = await asyncio.start_server(handler.serve, sock=sock, limit=HEAD_LIMIT)
        # An interrupt reaches one of the servers only (each installs its own handler): when one ends, end all.
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for server in self._servers:
            server.exit()
        sweeper.cancel()
        if proxy is not None:
            proxy.close()
        await asyncio.gather(*tasks)

    async def _sweep(self) -> None:
        """Drops expired worlds now and then, so a server nobody asks for new worlds frees them too."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.hub.expire()

    def run(self) -> None:
        """In the foreground, until interrupted. The process is the server's: it keeps the garbage
        collector's pauses short as the worlds' logs grow (collector.py)."""
        with collector.serving():
            self._loop()

    def _loop(self) -> None:
        self.stack.run(self.serve)

    def start(self, timeout: float = 10.0) -> Self:
        self._thread = threading.Thread(target=self._loop, name="soundstage-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not all(s.started for s in self._servers):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise InfrastructureError(f"the server could not start on {self.host}:{self.port}")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        for server in self._servers:
            server.exit()
        if self._thread is not None:
            self._thread.join(timeout=10)
        for sock in self._sockets:
            sock.close()
        if self._proxy is not None:
            self._proxy[1].close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
