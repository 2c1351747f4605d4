"""Git's wire formats, pure: pkt-lines, packfiles (version 2) and git's delta encoding.

A pack written here holds whole objects only (no deltas), which every git reads. A pack read here may
hold deltas against an object earlier in the pack (`OFS_DELTA`) or named by its id (`REF_DELTA`, whose
base may also be outside the pack: a thin pack); `read_pack` applies them. Reading is bounded: the
number of objects and the bytes they inflate to (the reader's limits, `PackTooLarge` past them), each
object's inflated size and the delta chain's depth, and anything malformed is a `PackError`, never a
crash. It takes time linear in the pack and what it inflates to.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

FLUSH = b"0000"
MAX_PKT = 65520  # the longest pkt-line, its 4-byte length included
SIDEBAND_DATA = MAX_PKT - 5  # a side-band-64k packet's payload, after the length and the band byte

# Pack object types (git's `enum object_type`).
COMMIT, TREE, BLOB, TAG, OFS_DELTA, REF_DELTA = 1, 2, 3, 4, 6, 7
KINDS = {COMMIT: "commit", TREE: "tree", BLOB: "blob", TAG: "tag"}
TYPES = {name: number for number, name in KINDS.items()}

MAX_OBJECT_SIZE = 32 * 1024 * 1024
MAX_DELTA_DEPTH = 64


class PackError(ValueError):
    """A pack, delta or pkt-line stream that is malformed or over a limit."""


class PackTooLarge(PackError):
    """A pack over the limits its reader gave: the message says which (`50000 objects`)."""


def mib(size: int) -> str:
    """A size as git writes one in its messages (`10.00 MiB`)."""
    return f"{size / 2**20:.2f} MiB"


# -- pkt-lines ---------------------------------------------------------------------------------------


def pkt(data: bytes | str) -> bytes:
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) + 4 > MAX_PKT:
        raise PackError("pkt-line too long")
    return b"%04x" % (len(raw) + 4) + raw


def read_pkts(data: bytes, at: int = 0) -> tuple[list[bytes | None], int]:
    """The pkt-lines of `data` from `at` up to and including the first flush (None), and where the rest
    begins; all of `data` when it has no flush."""
    lines: list[bytes | None] = []
    while at < len(data):
        head = data[at : at + 4]
        try:
            size = int(head, 16)
        except ValueError:
            raise PackError(f"bad pkt-line length {head!r}") from None
        if size == 0:
            return [*lines, None], at + 4
        if size < 4 or at + size > len(data):
            raise PackError("truncated pkt-line")
        lines.append(data[at + 4 : at + size])
        at += size
    return lines, at


def sideband(band: int, data: bytes) -> bytes:
    """`data` as side-band-64k packets of `band` (1: pack data, 2: progress, 3: fatal error)."""
    return b"".join(pkt(bytes([band]) + data[i : i + SIDEBAND_DATA]) for i in range(0, len(data), SIDEBAND_DATA))


# -- objects -----------------------------------------------------------------------------------------


def object_id(kind: str, payload: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(payload)}\0".encode() + payload).hexdigest()


@dataclass(frozen=True)
class PackObject:
    kind: str  # "commit", "tree", "blob" or "tag"
    payload: bytes

    @property
    def sha(self) -> str:
        return object_id(self.kind, self.payload)


# -- writing -----------------------------------------------------------------------------------------


def _header(kind: int, size: int) -> bytes:
    out = bytearray([(kind << 4) | (size & 0x0F)])
    size >>= 4
    while size:
        out[-1] |= 0x80
        out.append(size & 0x7F)
        size >>= 7
    return bytes(out)


def write_pack(objects: list[PackObject]) -> bytes:
    """A version 2 pack of whole objects, with its SHA-1 trailer."""
    digest = hashlib.sha1()
    parts = [b"PACK" + struct.pack(">II", 2, len(objects))]
    for obj in objects:
        parts.append(_header(TYPES[obj.kind], len(obj.payload)) + zlib.compress(obj.payload, 1))
    for part in parts:
        digest.update(part)
    return b"".join(parts) + digest.digest()


# -- deltas ------------------------------------------------------------------------------------------


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """A delta header's size (7 bits a byte, least significant first), and where it ends."""
    value = shift = 0
    while True:
        if at >= len(data):
            raise PackError("truncated delta header")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def apply_delta(base: bytes, delta: bytes) -> bytes:
    """The object `delta` makes of `base`: copies of base ranges and inserted bytes, as git encodes them."""
    size, at = _varint(delta, 0)
    if size != len(base):
        raise PackError("delta base size does not match")
    result_size, at = _varint(delta, at)
    if result_size > MAX_OBJECT_SIZE:
        raise PackError("delta result too large")
    out = bytearray()
    while at < len(delta):
        op = delta[at]
        at += 1
        if op & 0x80:  # copy: which of 4 offset and 3 size bytes follow is in the op's low bits
            offset = length = 0
            for i in range(4):
                if op & (1 << i):
                    offset |= _byte(delta, at) << (8 * i)
                    at += 1
            for i in range(3):
                if op & (0x10 << i):
                    length |= _byte(delta, at) << (8 * i)
                    at += 1
            length = length or 0x10000
            if offset + length > len(base):
                raise PackError("delta copies past its base")
            out += base[offset : offset + length]
        elif op:  # insert the next `op` bytes
            if at + op > len(delta):
                raise PackError("truncated delta insert")
            out += delta[at : at + op]
            at += op
        else:
            raise PackError("delta opcode 0 is reserved")
        if len(out) > result_size:
            raise PackError("delta result larger than announced")
    if len(out) != result_size:
        raise PackError("delta result size does not match")
    return bytes(out)


def _byte(data: bytes, at: int) -> int:
    if at >= len(data):
        raise PackError("truncated delta")
    return data[at]


# -- reading -----------------------------------------------------------------------------------------


@dataclass
class _Entry:
    kind: int
    data: bytes  # the object's payload, or its delta
    base: int | str | None = None  # OFS_DELTA: the base's offset; REF_DELTA: its id


def _entries(pack: bytes, inflated: int) -> Iterator[tuple[int, _Entry]]:
    """(offset, entry) of each object in a pack whose header and trailer were checked; `PackTooLarge` once the
    objects announce more than `inflated` bytes in all."""
    count = struct.unpack(">I", pack[8:12])[0]
    end = len(pack) - 20
    view = memoryview(pack)
    at = 12
    total = 0
    for _ in range(count):
        start = at
        if at >= end:
            raise PackError("pack has fewer objects than announced")
        byte = pack[at]
        kind, size, shift = (byte >> 4) & 7, byte & 0x0F, 4
        at += 1
        while byte & 0x80:
            if at >= end or shift > 35:
                raise PackError("bad object header")
            byte = pack[at]
            size |= (byte & 0x7F) << shift
            shift += 7
            at += 1
        if size > MAX_OBJECT_SIZE:
            raise PackError("object too large")
        total += size
        if total > inflated:
            raise PackTooLarge(f"{mib(inflated)} inflated")
        entry = _Entry(kind, b"")
        if kind == OFS_DELTA:
            byte = _byte(pack, at)
            distance = byte & 0x7F
            at += 1
            while byte & 0x80:
                byte = _byte(pack, at)
                distance = ((distance + 1) << 7) | (byte & 0x7F)
                at += 1
            if distance <= 0 or distance > start:
                raise PackError("delta base offset out of the pack")
            entry.base = start - distance
        elif kind == REF_DELTA:
            entry.base = pack[at : at + 20].hex()
            at += 20
        elif kind not in KINDS:
            raise PackError(f"unknown object type {kind}")
        entry.data, at = _inflate(view, at, end, size)
        yield start, entry
    if at != end:
        raise PackError("pack has trailing data")


def _inflate(pack: memoryview, at: int, end: int, size: int) -> tuple[bytes, int]:
    """The `size` bytes deflated at `at`, and where their deflated data ends. zlib keeps a copy of the input
    it was given past the end of the data: it is given a window about as long as `size` deflated can be
    (doubled while the data goes on), never the rest of the pack, so reading a pack copies about as much as
    its objects inflate to, not as much as the pack times its objects."""
    inflater = zlib.decompressobj()
    parts: list[bytes] = []
    got = 0
    window = size + size // 4 + 64
    while not inflater.eof:
        if at >= end:
            raise PackError("object size does not match its data")
        given = pack[at : min(end, at + window)]
        try:
            part = inflater.decompress(given, size + 1 - got)
        except zlib.error as exc:
            raise PackError(f"bad compressed data: {exc}") from None
        got += len(part)
        if got > size:
            raise PackError("object size does not match its data")
        parts.append(part)
        at += len(given) - len(inflater.unused_data if inflater.eof else inflater.unconsumed_tail)
        window *= 2
    if got != size:
        raise PackError("object size does not match its data")
    return b"".join(parts), at


class _Pack:
    """A pack's objects being resolved, deltas applied against their bases. An object of its own rather than a
    closure calling itself, which would be a cycle that a server's collector keeps, the pack's objects with it
    (collector.py)."""

    def __init__(self, entries: dict[int, _Entry], outside: Callable[[str], PackObject | None], inflated: int) -> None:
        self.entries = entries
        self.outside = outside
        self.inflated = inflated
        self.left = inflated - sum(len(entry.data) for entry in entries.values())  # what deltas may still make
        self.resolved: dict[int, PackObject] = {}
        self.by_sha: dict[str, PackObject] = {}
        self.after: dict[int, list[int]] = {}  # an object's offset -> the deltas against it waiting for it
        self.named: dict[str, list[int]] = {}  # an object's id -> the REF_DELTAs against it waiting for it

    def resolve(self, offset: int, depth: int) -> PackObject | None:
        """The object at `offset`; None while it is a delta against an object not known yet (then it waits)."""
        if offset in self.resolved:
            return self.resolved[offset]
        if depth > MAX_DELTA_DEPTH:
            raise PackError("delta chain too deep")
        entry = self.entries.get(offset)
        if entry is None:
            raise PackError("delta base is not an object of the pack")
        if entry.kind in KINDS:
            obj = PackObject(KINDS[entry.kind], entry.data)
        else:
            if isinstance(entry.base, int):
                base = self.resolve(entry.base, depth + 1)
                waits = self.after.setdefault(entry.base, [])
            else:
                base = self.by_sha.get(str(entry.base)) or self.outside(str(entry.base))
                waits = self.named.setdefault(str(entry.base), [])
            if base is None:
                waits.append(offset)
                return None
            obj = PackObject(base.kind, apply_delta(base.payload, entry.data))
            self.left -= len(obj.payload)
            if self.left < 0:
                raise PackTooLarge(f"{mib(self.inflated)} self.inflated")
        self.resolved[offset] = obj
        self.by_sha[obj.sha] = obj
        return obj


def read_pack(
    pack: bytes, outside: Callable[[str], PackObject | None], objects: int, inflated: int
) -> list[PackObject]:
    """Every object of a pack, deltas applied, in pack order. `outside(sha)` finds a `REF_DELTA` base the
    pack does not hold (a thin pack), or None. `PackTooLarge` when the pack holds more than `objects` objects
    (told by its header, before anything is read) or they come to more than `inflated` bytes."""
    if len(pack) < 32 or pack[:4] != b"PACK" or struct.unpack(">I", pack[4:8])[0] not in (2, 3):
        raise PackError("not a version 2 pack")
    if struct.unpack(">I", pack[8:12])[0] > objects:
        raise PackTooLarge(f"{objects} objects")
    if hashlib.sha1(pack[:-20]).digest() != pack[-20:]:
        raise PackError("pack checksum does not match")
    pending = _Pack(dict(_entries(pack, inflated)), outside, inflated)
    entries, resolved = pending.entries, pending.resolved
    # A REF_DELTA's base may come later in the pack: what waits for an object is resolved once it is.
    for first in entries:
        todo = [first]
        while todo:
            offset = todo.pop()
            obj = pending.resolve(offset, 0)
            if obj is not None:
                todo += pending.after.pop(offset, []) + pending.named.pop(obj.sha, [])
    if len(resolved) != len(entries):
        raise PackError("a delta base is missing")
    return [resolved[offset] for offset in entries]
