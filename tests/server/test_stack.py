"""Which parser and loop serve: the fastest installed, or the one asked for by option or variable."""

from __future__ import annotations

import importlib.util

import pytest

from soundstage.errors import UsageError
from soundstage.server.heads import H11Heads
from soundstage.server.llhttp_heads import HttpToolsHeads
from soundstage.server.stack import Stack


def test_the_fastest_installed_is_chosen_unless_one_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_HTTP", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_LOOP", raising=False)
    assert Stack.choose() == Stack("httptools", "uvloop")
    assert Stack.choose("h11", "asyncio") == Stack("h11", "asyncio")
    monkeypatch.setenv("SOUNDSTAGE_HTTP", "h11")
    assert Stack.choose() == Stack("h11", "uvloop")
    assert Stack.choose("auto") == Stack("httptools", "uvloop")  # asked for: the fastest, whatever the variable
    assert str(Stack.choose(loop="asyncio")) == "h11 on asyncio"


def test_without_httptools_and_uvloop_h11_and_asyncio_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOUNDSTAGE_HTTP", raising=False)
    monkeypatch.delenv("SOUNDSTAGE_LOOP", raising=False)
    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name in ("httptools", "uvloop") else find(name)
    )
    assert Stack.choose() == Stack("h11", "asyncio")
    with pytest.raises(UsageError, match="the HTTP parser httptools is not installed here: pip install httptools"):
        Stack.choose("httptools")


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(UsageError, match=r"the event loop must be auto, uvloop, asyncio, not 'trio'"):
        Stack.choose(loop="trio")


def test_each_parser_has_its_heads_bounded() -> None:
    assert Stack("h11", "asyncio").options()["http"] is H11Heads
    assert Stack("httptools", "asyncio").options() == {"http": HttpToolsHeads}
