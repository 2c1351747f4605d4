"""Git's wire formats in pure Python: pkt-lines, packs written and read back, git's delta encoding; then
packs checked against the real `git` both ways (it indexes ours, we read its deltified ones)."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from soundstage.services.github.git_pack import (
    FLUSH,
    OFS_DELTA,
    REF_DELTA,
    PackError,
    PackObject,
    apply_delta,
    pkt,
    read_pack,
    read_pkts,
    sideband,
    write_pack,
)

BASE = b"0123456789abcdefghij"


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
    assert read_pack(pack, lambda sha: None) == _objects()
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
    objects = read_pack(_pack(whole, ofs, ref), lambda sha: None)
    assert [o.payload for o in objects] == [BASE, b"abcdXY", b"abcdXY"]
    # a REF_DELTA before its base in the pack, and one whose base is outside it (a thin pack)
    assert [o.payload for o in read_pack(_pack(ref, whole), lambda sha: None)] == [b"abcdXY", BASE]
    thin = read_pack(_pack(ref), lambda sha: base if sha == base.sha else None)
    assert thin == [PackObject("blob", b"abcdXY")]
    with pytest.raises(PackError, match="a delta base is missing"):
        read_pack(_pack(ref), lambda sha: None)


def test_a_bad_pack_is_refused():
    pack = write_pack(_objects())
    with pytest.raises(PackError, match="checksum"):
        read_pack(pack[:-1] + bytes([pack[-1] ^ 1]), lambda sha: None)
    with pytest.raises(PackError, match="not a version 2 pack"):
        read_pack(b"PACK" + b"\0" * 40, lambda sha: None)
    with pytest.raises(PackError, match="fewer objects"):
        body = b"PACK" + struct.pack(">II", 2, 2) + _entry(3, 1, b"", b"a")
        read_pack(body + hashlib.sha1(body).digest(), lambda sha: None)
    with pytest.raises(PackError, match="size does not match"):
        read_pack(_pack(_entry(3, 2, b"", b"a")), lambda sha: None)
    with pytest.raises(PackError, match="unknown object type 5"):
        read_pack(_pack(_entry(5, 1, b"", b"a")), lambda sha: None)
    with pytest.raises(PackError, match="trailing data"):
        body = b"PACK" + struct.pack(">II", 2, 1) + _entry(3, 1, b"", b"a") + b"junk"
        read_pack(body + hashlib.sha1(body).digest(), lambda sha: None)


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
    objects = read_pack(pack, lambda sha: None)
    assert sorted(o.sha for o in objects) == sorted(shas)
    for obj in objects:
        assert obj.payload == _git(repo, "cat-file", "blob", obj.sha)
