"""A small client for OpenAI-compatible chat-completions endpoints, shared by judge checks and people.

An endpoint is a base URL (`<url>/chat/completions` is called) and an optional key. Which endpoint is
used comes from the environment: a URL variable of the caller's (`SOUNDSTAGE_JUDGE_URL`, with
`SOUNDSTAGE_JUDGE_KEY` if it needs a key), else OpenRouter with `OPENROUTER_API_KEY`. The OpenRouter key
is only ever sent to OpenRouter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import httpx

OPENROUTER_URL = "https://openrouter.ai/api/v1"
TIMEOUT = 120.0  # seconds for one model call


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
