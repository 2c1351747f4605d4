"""spec/fake.py: Faker's values without its calls' cost, the same as its methods draw."""

from __future__ import annotations

import pytest
from faker import Faker

from soundstage.spec.build import FAKER_PROVIDERS
from soundstage.spec.fake import Fake


def seeded(seed: str) -> Faker:
    """A Faker as the build context makes one."""
    faker = Faker(providers=list(FAKER_PROVIDERS))
    faker.seed_instance(seed)
    return faker


# Each method, and a sentence of one word (drawn by `choice`, not `choices`) and of many.
CALLS = ["bs", "catch_phrase", "company", "word", "sentence", ("sentence", 1), ("sentence", 12), "first_name"]


def draws(source: Faker | Fake, order: list[str | tuple[str, int]]) -> list[str]:
    made = []
    for call in order:
        name, args = (call, ()) if isinstance(call, str) else (call[0], call[1:])
        made.append(getattr(source, name)(*args))
    return made


@pytest.mark.parametrize("seed", ["acme", "another world"])
def test_fake_draws_what_fakers_methods_draw_and_leaves_its_random_source_as_they_do(seed: str) -> None:
    order = [CALLS[(i * 7 + i // len(CALLS)) % len(CALLS)] for i in range(2000)]  # every call after every other
    faker, reference = seeded(seed), seeded(seed)
    made = draws(Fake(faker), order)
    assert made == draws(reference, order)
    companies = [value for call, value in zip(order, made, strict=True) if call == "company"]
    assert {"," in c for c in companies} == {"-" in c for c in companies} == {True, False}  # each format drawn
    assert faker.random.getstate() == reference.random.getstate()
    assert faker.user_name() == reference.user_name()  # what Faker draws after is the same too
