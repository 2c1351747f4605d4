from __future__ import annotations

from pathlib import Path

import pytest

from soundstage.spec.build import BuildContext
from soundstage.stage.image import build_image
from soundstage.stage.models import read_scene

ROOT = Path(__file__).resolve().parents[2]


def test_faker_made_when_first_used_draws_what_one_made_with_the_context_drew(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build context makes its Faker only when `generate:` asks for it; the acme world's generated records
    are those of a Faker made, as before, with the context."""
    scene = ROOT / "seeds" / "csv-export.yaml"
    lazily = build_image(*read_scene(scene))
    made = BuildContext.__init__

    def eager(self: BuildContext, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        assert self.faker is not None

    monkeypatch.setattr(BuildContext, "__init__", eager)
    eagerly = build_image(*read_scene(scene))

    assert lazily.refs == eagerly.refs
    assert {name: list(c) for name, c in lazily.collections.items()} == {
        name: list(c) for name, c in eagerly.collections.items()
    }
