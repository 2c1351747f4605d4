"""A disk that fills up, without root: the files opened through `os.open` (as the event log opens its mirror
file) at a path ending with the one given get `room` bytes more, then a write is cut short and the next one
fails with ENOSPC, as on a full disk. Every other file is written as usual."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest


class FullDisk:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path, room: int | None = None) -> None:
        self.path = str(path)
        self.room = room  # None: no limit yet
        self.fds: set[int] = set()
        self._open, self._write, self._close = os.open, os.write, os.close
        monkeypatch.setattr(os, "open", self.open)
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "close", self.close)

    def open(self, path: str | os.PathLike[str], flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        fd = self._open(path, flags, mode, dir_fd=dir_fd)
        if os.fspath(path).endswith(self.path):
            self.fds.add(fd)
        return fd

    def close(self, fd: int) -> None:
        self.fds.discard(fd)  # its number may be another file's next
        self._close(fd)

    def write(self, fd: int, data: bytes) -> int:
        if fd not in self.fds or self.room is None:
            return self._write(fd, data)
        if self.room == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = self._write(fd, bytes(data[: self.room]))
        self.room -= written
        return written
