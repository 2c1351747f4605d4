"""Listening sockets."""

from __future__ import annotations

import socket

import pytest

from soundstage.errors import InfrastructureError
from soundstage.server.serve import bind


def test_listening_sockets_say_they_are_tcp_so_nagle_is_turned_off_per_connection():
    sock = bind("127.0.0.1", 0)
    try:
        assert (sock.family, sock.type, sock.proto) == (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    finally:
        sock.close()


def test_a_taken_port_is_an_infrastructure_error():
    sock = bind("127.0.0.1", 0)
    sock.listen()
    try:
        with pytest.raises(InfrastructureError, match="cannot listen on 127.0.0.1:"):
            bind("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()
