"""Field types the file models share: strict models that forbid unknown keys, times, durations, rates,
host:port."""

from __future__ import annotations

import contextlib
import ipaddress
import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

from ..clock import parse_duration, parse_rate, parse_time
from .loader import describe


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


def _checked(parse: Callable[[str], Any], expected: str) -> BeforeValidator:
    """Accepts a string that `parse` reads; anything else is an error saying what was expected."""

    def check(value: Any) -> Any:
        try:
            if isinstance(value, str):
                parse(value)
                return value
        except ValueError:
            pass
        raise ValueError(f"expected {expected}, found {describe(value)}")

    return BeforeValidator(check)


def matching(pattern: str, expected: str) -> AfterValidator:
    """Accepts a string that `pattern` matches whole; anything else is an error saying what was expected."""
    compiled = re.compile(pattern)

    def check(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(f"expected {expected}, found {value!r}")
        return value

    return AfterValidator(check)


def _time(text: str) -> None:
    if text != "now":
        parse_time(text)


Time = Annotated[str, _checked(_time, "now or an ISO-8601 time like 2026-03-02T14:00:00Z")]
Duration = Annotated[str, _checked(parse_duration, "a duration like 30s, 5m or 2h")]
Rate = Annotated[str, _checked(parse_rate, "a rate like 5/1m (calls per duration)")]


def env_name(name: str) -> str:
    """`name` when it may name a variable of the agent's environment given from outside; ValueError saying why not."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"expected an environment variable name like OPENROUTER_API_KEY, found {describe(name)}")
    if name == "SOUNDSTAGE_ADMIN_TOKEN":  # with it, the agent could read its own grades
        raise ValueError("the admin token is never the agent's: SOUNDSTAGE_ADMIN_TOKEN cannot be passed to it")
    return name


_HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*")


def host_port(text: str) -> str:
    """`host:port` in one spelling (a name in lower case, an IPv6 address in brackets and compressed), so a
    scene's `agent.allow` and a proxy's CONNECT target compare as text; ValueError saying what was expected."""
    host, _, port = text.rpartition(":")
    if port.isascii() and port.isdigit() and 1 <= int(port) <= 65535:
        if host.startswith("[") and host.endswith("]"):
            with contextlib.suppress(ValueError):
                return f"[{ipaddress.IPv6Address(host[1:-1]).compressed}]:{int(port)}"
        else:
            with contextlib.suppress(ValueError):
                return f"{ipaddress.IPv4Address(host)}:{int(port)}"
            name = host.lower().removesuffix(".")
            if _HOST_NAME.fullmatch(name):
                return f"{name}:{int(port)}"
    raise ValueError(f"expected host:port like 127.0.0.1:11434, localhost:8080 or [::1]:8080, found {describe(text)}")
