from __future__ import annotations

from pathlib import Path

import pytest
from faker import Faker

from soundstage.spec.build import BuildContext
from soundstage.stage.image import WorldImage, build_image
from soundstage.stage.models import read_scene

ROOT = Path(__file__).resolve().parents[2]


def records(image: WorldImage) -> dict[str, list[dict[str, object]]]:
    return {name: list(collection) for name, collection in image.collections.items()}


def test_a_world_generates_with_faker_what_a_faker_of_all_its_providers_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build context makes its Faker when `generate:` first asks for it, of the providers the services draw
    from; the acme world's generated records (Slack messages, Datadog logs: every value the services draw) are
    those of a Faker of every provider, made as the context is."""
    scene = ROOT / "seeds" / "csv-export.yaml"
    image = build_image(*read_scene(scene))
    made = BuildContext.__init__

    def with_every_provider(self: BuildContext, ids, start, seed, documents=None) -> None:  # type: ignore[no-untyped-def]
        made(self, ids, start, seed, documents)
        self.faker = Faker()
        self.faker.seed_instance(seed)

    monkeypatch.setattr(BuildContext, "__init__", with_every_provider)
    reference = build_image(*read_scene(scene))

    assert image.refs == reference.refs
    assert records(image) == records(reference)
