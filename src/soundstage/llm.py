"""A small client for OpenAI-compatible chat-completions endpoints, shared by judge checks and people.

An endpoint is a base URL (`<url>/chat/completions` is called) and an optional key. Which endpoint is
used comes from the environment: a URL variable of the caller's (`SOUNDSTAGE_JUDGE_URL`, with
`SOUNDSTAGE_JUDGE_KEY` if it needs a key), else OpenRouter with `OPENROUTER_API_KEY`. The OpenRouter key
is only ever sent to OpenRouter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

OPENROUTER_URL = "https://openrouter.ai/api/v1"
TIMEOUT = 120.0  # seconds for one model call

# Prompts are measured without a tokenizer: one token is taken to be 3 characters. English prose averages
# about 4 characters a token in the GPT, Claude and Llama tokenizers, and JSON, ids and timestamps fewer,
# so 3 overestimates the tokens a prompt takes (and never lets one past a model's context).
CHARS_PER_TOKEN = 3
DEFAULT_CONTEXT = 32_768  # tokens, for a model the table does not name
# Context lengths in tokens, by the start of the model's name without its provider (`openai/gpt-4o-mini` is
# `gpt-4o-mini`); the longest start that matches wins. From the vendors' model pages.
CONTEXT_TOKENS = {
    "gpt-3.5-turbo": 16_385,
    "gpt-4": 8_192,
    "gpt-4-turbo": 128_000,
    "gpt-4o": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o1-mini": 128_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    "claude-": 200_000,
    "gemini-1.5-flash": 1_048_576,
    "gemini-1.5-pro": 2_097_152,
    "gemini-2.0-flash": 1_048_576,
    "gemini-2.5": 1_048_576,
    "llama-3.1": 131_072,
    "llama-3.3": 131_072,
    "mistral-large": 128_000,
    "deepseek-chat": 64_000,
}


def context_tokens(model: str) -> int:
    """The model's context length in tokens, from `CONTEXT_TOKENS`, else `DEFAULT_CONTEXT`."""
    name = model.rsplit("/", 1)[-1].lower()
    starts = [start for start in CONTEXT_TOKENS if name.startswith(start)]
    return CONTEXT_TOKENS[max(starts, key=len)] if starts else DEFAULT_CONTEXT


def tokens(text: str) -> int:
    """The tokens `text` is taken to take (see `CHARS_PER_TOKEN`)."""
    return -(-len(text) // CHARS_PER_TOKEN)


class ModelError(Exception):
    """The model could not be reached, or did not answer with a chat completion."""


@dataclass(frozen=True)
class Endpoint:
    url: str  # base of an OpenAI-compatible API: `<url>/chat/completions`
    key: str | None

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str],
        urls: Sequence[tuple[str, str]] = (("SOUNDSTAGE_JUDGE_URL", "SOUNDSTAGE_JUDGE_KEY"),),
    ) -> Endpoint | None:
        """The first of `urls` (pairs of URL and key variable) that is set, else OpenRouter when
        `OPENROUTER_API_KEY` is set, else None."""
        for url_name, key_name in urls:
            url = env.get(url_name)
            if url:
                return cls(url.rstrip("/"), env.get(key_name) or None)
        key = env.get("OPENROUTER_API_KEY")
        return cls(OPENROUTER_URL, key) if key else None

    def chat(
        self,
        model: str,
        messages: list[dict[str, str]],
        *,
        temperature: float = 0,
        timeout: float = TIMEOUT,
        client: httpx.Client | None = None,
    ) -> str:
        """The text of the model's first choice; raises ModelError with what went wrong."""
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        body: dict[str, Any] = {"model": model, "temperature": temperature, "messages": messages}
        url = f"{self.url}/chat/completions"
        import httpx  # only here: a tenth of a second that runs without a model call would pay

        try:
            if client is not None:
                response = client.post(url, json=body, headers=headers, timeout=timeout)
            else:
                response = httpx.post(url, json=body, headers=headers, timeout=timeout)
        except httpx.HTTPError as exc:
            raise ModelError(f"could not reach {self.url}: {exc}") from exc
        if response.status_code >= 400:
            raise ModelError(f"{self.url} answered HTTP {response.status_code}: {response.text[:200]}")
        try:
            answer = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"{self.url} did not answer with a chat completion: {response.text[:200]}") from exc
        if not isinstance(answer, str):
            raise ModelError(f"{self.url} did not answer with a chat completion: {response.text[:200]}")
        return answer
