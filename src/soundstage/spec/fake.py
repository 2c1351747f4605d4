"""Faker's values for `generate:` at a fraction of their cost: the draws its methods make, from its own data and
its own seeded random source, with what each of its calls works out again (a weighted list's cumulative weights,
a copy of a word list, a company format's tokens) worked out once. A world of 100,000 generated Slack messages
spent nine tenths of its build inside Faker's calls. The same seed draws the same values as Faker's methods, and
leaves its random source where they would (tests/spec/test_fake.py), so what Faker itself draws after is the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded by the build context when a world generates data
    from faker import Faker

_TOKEN = re.compile(r"\{\{\s*(\w+)\s*\}\}")  # a company format's `{{last_name}}`, as Faker's parser reads it


class Fake:
    """The values of Faker's `bs`, `catch_phrase`, `company`, `word`, `sentence` and `first_name`, drawn from
    `faker`'s random source as those methods draw them."""

    __slots__ = ("_bs", "_catch_phrase", "_company", "_first_name", "_last_name", "_suffix", "_words", "random")

    def __init__(self, faker: Faker) -> None:
        self.random = faker.random
        company, person, lorem = (_provider(faker, name) for name in ("company", "person", "lorem"))
        self._words = tuple(lorem.word_list)
        self._bs = tuple(tuple(words) for words in company.bsWords)
        self._catch_phrase = tuple(tuple(words) for words in company.catch_phrase_words)
        self._suffix = self._element(company.company_suffixes, company)
        self._first_name = self._element(person.first_names, person)
        self._last_name = self._element(person.last_names, person)
        tokens = {"last_name": self._last_name, "company_suffix": self._suffix}
        self._company = self._element(tuple(_parts(pattern, tokens) for pattern in company.formats), company)

    def _element(self, elements: Sequence[Any] | Mapping[Any, float], provider: Any) -> Callable[[], Any]:
        """Faker's `random_element(elements)`: a weighted mapping by `random.choices` over its weights (as
        cumulative weights, which `choices` works out of the weights the same way), anything else by
        `random.choice`."""
        if isinstance(elements, Mapping) and provider.__use_weighting__:
            keys, cumulative = tuple(elements), list(accumulate(elements.values()))
            choices = self.random.choices
            return lambda: choices(keys, cum_weights=cumulative)[0]
        population = tuple(elements)
        choice = self.random.choice
        return lambda: choice(population)

    def bs(self) -> str:
        return " ".join([self.random.choice(words) for words in self._bs])

    def catch_phrase(self) -> str:
        return " ".join([self.random.choice(words) for words in self._catch_phrase])

    def company(self) -> str:
        return "".join([part if isinstance(part, str) else part() for part in self._company()])

    def word(self) -> str:
        return self.random.choice(self._words)

    def sentence(self, nb_words: int = 6) -> str:
        """Faker's `sentence()`: about `nb_words` words (60 to 140% of it), the first one title-cased."""
        count = max(int(nb_words * self.random.randint(60, 140) / 100), 1)
        words = [self.random.choice(self._words)] if count == 1 else self.random.choices(self._words, k=count)
        words[0] = words[0].title()
        return " ".join(words) + "."

    def first_name(self) -> str:
        return str(self._first_name())


def _provider(faker: Faker, name: str) -> Any:
    """`faker`'s provider of `faker.providers.<name>`, in the locale it was made for."""
    package = f"faker.providers.{name}"
    return next(p for p in faker.get_providers() if type(p).__module__.rpartition(".")[0] == package)


def _parts(pattern: str, tokens: Mapping[str, Callable[[], str]]) -> tuple[str | Callable[[], str], ...]:
    """A company format as its literal text and the draws of its tokens, in order."""
    parts: list[str | Callable[[], str]] = []
    position = 0
    for found in _TOKEN.finditer(pattern):
        parts += [pattern[position : found.start()], tokens[found.group(1)]]
        position = found.end()
    parts.append(pattern[position:])
    return tuple(part for part in parts if part != "")
