"""Deterministic ids in each vendor's format.

Every id comes from a counter per namespace and a hash of the world's seed, so the same scene always
gives the same ids, and a live world (a copy of the image, counters included) goes on where the image
stopped.
"""

from __future__ import annotations

import hashlib

_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O, like Slack's ids


class IdSource:
    __slots__ = ("_counters", "seed")

    def __init__(self, seed: str, counters: dict[str, int] | None = None) -> None:
        self.seed = seed
        self._counters = dict(counters or {})

    def next(self, namespace: str) -> int:
        """1, 2, 3... per namespace."""
        value = self._counters.get(namespace, 0) + 1
        self._counters[namespace] = value
        return value

    def digest(self, namespace: str, n: int | None = None) -> bytes:
        n = self.next(namespace) if n is None else n
        return hashlib.sha256(f"{self.seed}\x00{namespace}\x00{n}".encode()).digest()

    def code(self, namespace: str, length: int) -> str:
        """`length` characters of upper-case letters and digits."""
        number = int.from_bytes(self.digest(namespace), "big")
        chars = []
        for _ in range(length):
            number, rest = divmod(number, len(_ALPHABET))
            chars.append(_ALPHABET[rest])
        return "".join(chars)

    def slack(self, prefix: str) -> str:
        """A Slack id: `T`, `U`, `C`, `D`, `G`, `B`, `S`, `F`... and 10 more characters."""
        return prefix + self.code(f"slack:{prefix}", 10)

    def pagerduty(self, prefix: str = "P", length: int = 7) -> str:
        """A PagerDuty id: `P` and 6 more characters for most objects, `Q` and 13 for alerts and log entries."""
        return prefix + self.code(f"pagerduty:{prefix}", length - 1)

    def hex(self, namespace: str, length: int = 40) -> str:
        return self.digest(namespace).hex()[:length]

    def uuid(self, namespace: str) -> str:
        """A version-4-shaped UUID string made from the seed."""
        raw = bytearray(self.digest(namespace)[:16])
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        h = raw.hex()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def copy(self) -> IdSource:
        return IdSource(self.seed, self._counters)
