"""Optional model-backed understanding: a language model says which facts and decisions a question asks
for, on top of the rules of `understanding`, never in their place.

Off unless `SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL` names a model. The endpoint is the people's wording's,
and so the judge's when the people have none of their own: `SOUNDSTAGE_PEOPLE_URL` (key
`SOUNDSTAGE_PEOPLE_KEY`), else `SOUNDSTAGE_JUDGE_URL` (key `SOUNDSTAGE_JUDGE_KEY`), else OpenRouter with
`OPENROUTER_API_KEY`. The model sees the question and each fact's and decision's key and `ask` phrases,
never a fact's text. Its answer is cached by the question's text (with the model and those keys and
phrases) in a JSON-lines file, `SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE`, else
`people/understanding.jsonl` in soundstage's home, so a rerun hears each question as the first run did without
asking again. What the file holds decides what people reveal, so a run's sandbox hides it from the agent
(`runner.run_cover`). A failed call, or an answer that is not a list of keys, adds nothing
and is not cached.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..home import home
from ..llm import Endpoint, ModelError
from ..world import shared_by_forks
from .cast import Cast
from .wording import people_model

MODEL_ENV = "SOUNDSTAGE_PEOPLE_UNDERSTANDING_MODEL"
CACHE_ENV = "SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE"
TIMEOUT = 30.0  # seconds; a slow model only costs what the rules alone understand

SYSTEM = (
    "You read one Slack message sent to a colleague at work and say which of the listed topics it asks them "
    "about, in whatever words. Answer with a JSON list of the ids of those topics and nothing else; [] when "
    "it asks about none of them."
)
LIST = re.compile(r"\[.*?\]", re.DOTALL)


class Cache:
    """Answers by key, read from a JSON-lines file once and appended to as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.answers: dict[str, list[str]] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self.answers[str(entry["key"])] = [str(k) for k in entry["asks"]]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by a crash: asked again

    def get(self, key: str) -> list[str] | None:
        with self.lock:
            return self.answers.get(key)

    def put(self, key: str, asks: list[str]) -> None:
        with self.lock:
            self.answers[key] = asks
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as file:
                file.write(json.dumps({"key": key, "asks": asks}) + "\n")


@functools.cache
def cache_at(path: Path) -> Cache:
    """One cache per file in a process, shared by every live world that uses it."""
    return Cache(path)


@shared_by_forks
@dataclass(frozen=True)
class ModelUnderstanding:
    endpoint: Endpoint
    model: str
    cache: Cache

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ModelUnderstanding | None:
        found = people_model(env, MODEL_ENV)
        if found is None:
            return None
        return cls(*found, cache_at(cache_path(env).resolve()))

    def asked(self, question: str, cast: Cast) -> frozenset[str]:
        """The keys of the facts and decisions the model takes `question` to ask for."""
        topics = [(key, list(fact.ask.phrases)) for key, fact in cast.facts.items()]
        topics += [(key, list(d.ask.phrases)) for key, d in cast.decisions.items() if not d.invitation]
        if not topics:
            return frozenset()
        key = hashlib.sha256(json.dumps([self.model, question, topics]).encode()).hexdigest()
        asks = self.cache.get(key)
        if asks is None:
            listed = "\n".join(f"- {k}: asked as {', '.join(json.dumps(p) for p in phrases)}" for k, phrases in topics)
            messages = [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": f"Topics:\n{listed}\n\nMessage:\n{question}"},
            ]
            try:
                answer = self.endpoint.chat(self.model, messages, temperature=0, timeout=TIMEOUT)
            except ModelError:
                return frozenset()
            asks = keys_in(answer, [k for k, _ in topics])
            if asks is None:
                return frozenset()
            self.cache.put(key, asks)
        return frozenset(asks)


def cache_path(env: Mapping[str, str]) -> Path:
    """Where the answers are kept: `SOUNDSTAGE_PEOPLE_UNDERSTANDING_CACHE`, else in soundstage's home."""
    return Path(env.get(CACHE_ENV) or home(env) / "people" / "understanding.jsonl")


def keys_in(answer: str, known: list[str]) -> list[str] | None:
    """The known keys a model's answer lists, in the cast's order; None when it holds no JSON list."""
    found = LIST.search(answer)
    if found is None:
        return None
    try:
        listed = json.loads(found.group(0))
    except ValueError:
        return None
    if not isinstance(listed, list):
        return None
    return [key for key in known if key in listed]
