"""Git's wire formats in pure Python: pkt-lines, packs written and read back, git's delta encoding; then
packs checked against the real `git` both ways (it indexes ours, we read its deltified ones)."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from soundstage.services.github import git_pack
from soundstage.services.github.git_pack import (
    FLUSH,
    OFS_DELTA,
    REF_DELTA,
    PackError,
    PackObject,
    PackTooLarge,
    apply_delta,
    pkt,
    read_pack,
    read_pkts,
    sideband,
    write_pack,
)

BASE = b"0123456789abcdefghij"


def _read(pack: bytes, outside: Callable[[str], PackObject | None] = lambda sha: None) -> list[PackObject]:
    return read_pack(pack, outside, objects=1000, inflated=2**20)


def _size(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def test_pkt_lines():
    assert pkt("want x\n") == b"000bwant x\n"
    lines, at = read_pkts(pkt("a\n") + pkt(b"b") + FLUSH + b"PACK")
    assert (lines, at) == ([b"a\n", b"b", None], 15)
    with pytest.raises(PackError, match="truncated"):
        read_pkts(b"0010abc")
    with pytest.raises(PackError, match="bad pkt-line length"):
        read_pkts(b"zzzz")
    assert sideband(1, b"x" * 70000) == pkt(b"\x01" + b"x" * 65515) + pkt(b"\x01" + b"x" * 4485)


def test_apply_delta_copies_and_inserts():
    # copy 4 bytes from offset 10 ("abcd"), insert "XY", copy 3 bytes from offset 0 ("012")
    delta = _size(20) + _size(9) + bytes([0x91, 10, 4]) + b"\x02XY" + bytes([0x90, 3])
    assert apply_delta(BASE, delta) == b"abcdXY012"
    # a copy with no size bytes copies 0x10000 bytes
    big = bytes(range(256)) * 256
    assert apply_delta(big, _size(len(big)) + _size(0x10000) + b"\x80") == big


@pytest.mark.parametrize(
    ("delta", "problem"),
    [
        (_size(19) + _size(1) + b"\x01a", "base size"),
        (_size(20) + _size(1) + b"\x00", "reserved"),
        (_size(20) + _size(5) + bytes([0x91, 18, 5]), "past its base"),
        (_size(20) + _size(2) + b"\x01a", "size does not match"),
        (_size(20) + _size(1) + b"\x03ab", "truncated"),
        (_size(20), "truncated delta header"),
    ],
    ids=lambda value: value if isinstance(value, str) else "delta",
)
def test_a_bad_delta_is_refused(delta, problem):
    with pytest.raises(PackError, match=problem):
        apply_delta(BASE, delta)


def _objects() -> list[PackObject]:
    return [PackObject("blob", b"hello\n"), PackObject("blob", b"x" * 5000), PackObject("tree", b"")]


def test_a_written_pack_reads_back():
    pack = write_pack(_objects())
    assert pack[:12] == b"PACK" + struct.pack(">II", 2, 3)
    assert pack[-20:] == hashlib.sha1(pack[:-20]).digest()
    assert _read(pack) == _objects()
    assert PackObject("blob", b"hello\n").sha == "ce013625030ba8dba906f756967f9e9ca394464a"  # `git hash-object`


def _entry(kind: int, size: int, extra: bytes, data: bytes) -> bytes:
    header = bytearray([(kind << 4) | (size & 0x0F)])
    size >>= 4
    while size:
        header[-1] |= 0x80
        header.append(size & 0x7F)
        size >>= 7
    return bytes(header) + extra + zlib.compress(data)


def _pack(*entries: bytes) -> bytes:
    body = b"PACK" + struct.pack(">II", 2, len(entries)) + b"".join(entries)
    return body + hashlib.sha1(body).digest()


def test_deltas_in_a_pack_resolve():
    base = PackObject("blob", BASE)
    delta = _size(20) + _size(6) + bytes([0x91, 10, 4]) + b"\x02XY"
    whole = _entry(3, 20, b"", BASE)
    ofs = _entry(OFS_DELTA, len(delta), bytes([len(whole)]), delta)  # its base is `whole` bytes before it
    ref = _entry(REF_DELTA, len(delta), bytes.fromhex(base.sha), delta)
    objects = _read(_pack(whole, ofs, ref))
    assert [o.payload for o in objects] == [BASE, b"abcdXY", b"abcdXY"]
    # a REF_DELTA before its base in the pack, and one whose base is outside it (a thin pack)
    assert [o.payload for o in _read(_pack(ref, whole))] == [b"abcdXY", BASE]
    thin = _read(_pack(ref), lambda sha: base if sha == base.sha else None)
    assert thin == [PackObject("blob", b"abcdXY")]
    with pytest.raises(PackError, match="a delta base is missing"):
        _read(_pack(ref))


def test_a_bad_pack_is_refused():
    pack = write_pack(_objects())
    with pytest.raises(PackError, match="checksum"):
        _read(pack[:-1] + bytes([pack[-1] ^ 1]))
    with pytest.raises(PackError, match="not a version 2 pack"):
        _read(b"PACK" + b"\0" * 40)
    with pytest.raises(PackError, match="fewer objects"):
        body = b"PACK" + struct.pack(">II", 2, 2) + _entry(3, 1, b"", b"a")
        _read(body + hashlib.sha1(body).digest())
    with pytest.raises(PackError, match="size does not match"):
        _read(_pack(_entry(3, 2, b"", b"a")))
    with pytest.raises(PackError, match="unknown object type 5"):
        _read(_pack(_entry(5, 1, b"", b"a")))
    with pytest.raises(PackError, match="trailing data"):
        body = b"PACK" + struct.pack(">II", 2, 1) + _entry(3, 1, b"", b"a") + b"junk"
        _read(body + hashlib.sha1(body).digest())


# -- against the real git ----------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def _git(repo: Path, *args: str, data: bytes = b"") -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True, check=True).stdout


def test_git_indexes_a_pack_written_here(repo):
    pack = repo / "test.pack"
    pack.write_bytes(write_pack(_objects()))
    _git(repo, "index-pack", str(pack))
    listed = _git(repo, "verify-pack", "-v", str(pack)).decode()
    assert {line.split()[0] for line in listed.splitlines()[:3]} == {o.sha for o in _objects()}


@pytest.mark.parametrize("offsets", [True, False])
def test_a_deltified_pack_from_git_reads_here(repo, offsets):
    text = "".join(f"line {n} long enough to make a delta worth it\n" for n in range(300))
    shas = []
    for version in range(3):
        path = repo / "f.txt"
        path.write_text(text.replace("line 7 ", f"line seven, version {version} "))
        shas.append(_git(repo, "hash-object", "-w", str(path)).decode().strip())
    flag = ["--delta-base-offset"] if offsets else []
    # With offsets git writes OFS_DELTA entries, without them REF_DELTA ones.
    pack = _git(repo, "pack-objects", "--stdout", "--window=10", *flag, data="\n".join(shas).encode() + b"\n")
    path = repo / "from-git.pack"
    path.write_bytes(pack)
    _git(repo, "index-pack", str(path))
    assert "chain length = 1: 2 objects" in _git(repo, "verify-pack", "-v", str(path)).decode()
    objects = _read(pack)
    assert sorted(o.sha for o in objects) == sorted(shas)
    for obj in objects:
        assert obj.payload == _git(repo, "cat-file", "blob", obj.sha)


def test_a_pack_over_its_readers_limits_is_refused():
    pack = write_pack(_objects())  # three objects
    broken = pack[:-1] + bytes([pack[-1] ^ 1])
    with pytest.raises(PackTooLarge, match=r"^2 objects$"):  # told by the header, before anything is read
        read_pack(broken, lambda sha: None, objects=2, inflated=2**20)
    sizes = sum(len(obj.payload) for obj in _objects())
    assert read_pack(pack, lambda sha: None, objects=3, inflated=sizes) == _objects()
    with pytest.raises(PackTooLarge, match=r"^0.00 MiB inflated$"):
        read_pack(pack, lambda sha: None, objects=3, inflated=sizes - 1)
    # What deltas make counts too: a kilobyte, and a delta copying it whole (a few bytes) ten times over.
    whole = PackObject("blob", bytes(range(256)) * 4)
    delta = _copying(1024)
    ref = _entry(REF_DELTA, len(delta), bytes.fromhex(whole.sha), delta)
    deltas = _pack(_entry(3, 1024, b"", whole.payload), *[ref] * 10)
    assert len(read_pack(deltas, lambda sha: None, objects=11, inflated=11 * 1024 + 10 * len(delta))) == 11
    with pytest.raises(PackTooLarge, match="inflated"):
        read_pack(deltas, lambda sha: None, objects=11, inflated=4 * 1024 + 10 * len(delta))


def test_reading_a_pack_gives_zlib_each_object_s_data_and_little_more(monkeypatch):
    # zlib keeps a copy of the input it was given past an object's data: given the rest of the pack for each
    # object, reading n objects copied half of the pack n times over.
    given = []
    original = zlib.decompressobj

    class Counted:
        def __init__(self) -> None:
            self.inflater = original()

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inflater, name)

        def decompress(self, data: Any, most: int) -> bytes:
            given.append(len(data))
            return self.inflater.decompress(data, most)

    monkeypatch.setattr(git_pack.zlib, "decompressobj", Counted)
    objects = [PackObject("blob", b"line %d of a file\n" % n * (n % 7 + 1)) for n in range(2000)]
    pack = write_pack(objects)
    assert _read_many(pack) == objects
    inflated = sum(len(obj.payload) for obj in objects)
    assert len(given) == 2000 and sum(given) <= inflated + inflated // 4 + 64 * len(objects)


def test_deltas_waiting_for_a_later_base_are_each_tried_once():
    # Each REF_DELTA's base is the object after it, and the whole object comes last: resolved one a round,
    # each round asked the world (`outside`) for every delta still waiting.
    objects = [PackObject("blob", BASE)]
    entries = [_entry(3, len(BASE), b"", BASE)]
    for _ in range(200):
        base = objects[0]
        delta = _copying(len(base.payload), b"x")
        objects.insert(0, PackObject("blob", base.payload + b"x"))
        entries.insert(0, _entry(REF_DELTA, len(delta), bytes.fromhex(base.sha), delta))
    asked = []
    found = _read_many(_pack(*entries), lambda sha: asked.append(sha))
    assert found == objects and len(asked) == 200


def _copying(size: int, extra: bytes = b"") -> bytes:
    """A delta copying the whole of a base of `size` bytes (at most 0xFFFFFF), then inserting `extra`."""
    op, lengths = 0x80, b""
    for i in range(3):
        if (size >> (8 * i)) & 0xFF:
            op |= 0x10 << i
            lengths += bytes([(size >> (8 * i)) & 0xFF])
    insert = bytes([len(extra)]) + extra if extra else b""
    return _size(size) + _size(size + len(extra)) + bytes([op]) + lengths + insert


def _read_many(pack: bytes, outside: Callable[[str], PackObject | None] = lambda sha: None) -> list[PackObject]:
    return read_pack(pack, outside, objects=10_000, inflated=2**24)
