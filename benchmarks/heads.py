"""How long a request head of many fields holds a connection, on every port the server listens on.

    python benchmarks/heads.py [--fields 100,1000,5000,20000] [--runs 5]

A head of `--fields` fields (`x-field-<n>: v`) asking for `/healthz`, sent over a raw socket (so no client
library's own handling of many headers is measured; httpx's takes 0.8 to 1.7 s for 5,000 on its own), in
one write and in writes of 1 KiB: the status answered and the median wall time from the first byte sent to
the first byte of the answer, on the http port, the https port and through the interception proxy (a
CONNECT head, then a request head in the tunnel to api.github.com). A refused head answers 431.
"""

from __future__ import annotations

import argparse
import base64
import socket
import ssl
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from soundstage.server import Server


def head(first: bytes, fields: int) -> bytes:
    """`first` (a request line and fields) and more fields, `fields` in all, and the blank line."""
    given = first.count(b"\n") - 1
    return first + b"".join(b"x-field-%d: v\r\n" % n for n in range(fields - given)) + b"\r\n"


def exchange(connect: Callable[[], socket.socket], data: bytes, piece: int) -> tuple[str, float]:
    """Sends `data` in writes of `piece` bytes; answers the status line's code and the seconds to the answer."""
    with connect() as sock:
        started = time.perf_counter()
        try:
            for at in range(0, len(data), piece):
                sock.sendall(data[at : at + piece])
        except OSError:
            pass  # refused before the whole head was sent: the answer is waiting
        answer = sock.recv(64)
        elapsed = time.perf_counter() - started
    return (answer.split(b" ")[1].decode() if answer else "closed"), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", default="100,1000,5000,20000", help="fields per head, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="exchanges per figure (median)")
    args = parser.parse_args()
    with Server(proxy_port=0) as server:
        world = server.hub.add(server.hub.images.load("csv-export", named=True))
        token = next(t for t, p in world.tokens.items() if p.service == "soundstage")
        insecure = ssl.create_default_context()
        insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
        address = ("127.0.0.1", server.port)
        tls_address = ("127.0.0.1", int(str(server.tls_url).rsplit(":", 1)[1].split("/")[0]))
        proxy_address = ("127.0.0.1", server.hub.proxy.port)  # type: ignore[union-attr]
        credential = base64.b64encode(f"agent:{token}".encode())

        def tunnel() -> socket.socket:
            sock = socket.create_connection(proxy_address)
            sock.sendall(
                b"CONNECT api.github.com:443 HTTP/1.1\r\nproxy-authorization: Basic " + credential + b"\r\n\r\n"
            )
            assert sock.recv(1024).startswith(b"HTTP/1.1 200"), "the proxy refused the tunnel"
            return insecure.wrap_socket(sock, server_hostname="api.github.com")

        ports: dict[str, tuple[Callable[[], socket.socket], bytes]] = {
            "http": (lambda: socket.create_connection(address), b"GET /healthz HTTP/1.1\r\nhost: x\r\n"),
            "https": (
                lambda: insecure.wrap_socket(socket.create_connection(tls_address)),
                b"GET /healthz HTTP/1.1\r\nhost: x\r\n",
            ),
            "proxy CONNECT": (
                lambda: socket.create_connection(proxy_address),
                b"CONNECT api.github.com:443 HTTP/1.1\r\nproxy-authorization: Basic " + credential + b"\r\n",
            ),
            "proxy tunnel": (tunnel, b"GET /zen HTTP/1.1\r\nhost: api.github.com\r\n"),
        }
        for fields in (int(n) for n in args.fields.split(",")):
            for name, (connect, first) in ports.items():
                figures = []
                for piece in (1 << 30, 1024):
                    found = [exchange(connect, head(first, fields), piece) for _ in range(args.runs)]
                    statuses = "/".join(sorted({status for status, _ in found}))
                    figures.append(f"{statuses} {statistics.median(s for _, s in found) * 1000:7.1f} ms")
                print(f"{fields:6d} fields, {name:13s}: one write {figures[0]}, 1 KiB writes {figures[1]}")


if __name__ == "__main__":
    main()
