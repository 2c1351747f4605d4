"""How long a model's context is and how many tokens a prompt is taken to take."""

from __future__ import annotations

import pytest

from soundstage.llm import DEFAULT_CONTEXT, context_tokens, tokens


@pytest.mark.parametrize(
    ("model", "context"),
    [
        ("gpt-4o", 128_000),
        ("openai/gpt-4o-mini", 128_000),  # OpenRouter's name: the provider is left out
        ("gpt-4", 8_192),
        ("gpt-4-turbo-2024-04-09", 128_000),  # the longest start that matches
        ("openai/gpt-4.1-mini", 1_047_576),
        ("o1-mini", 128_000),
        ("anthropic/claude-3.5-sonnet", 200_000),
        ("Claude-Sonnet-4", 200_000),
        ("google/gemini-2.0-flash-001", 1_048_576),
        ("meta-llama/llama-3.1-70b-instruct", 131_072),
        ("qwen2.5:7b", DEFAULT_CONTEXT),
        ("", DEFAULT_CONTEXT),
    ],
)
def test_context_lengths(model, context):
    assert context_tokens(model) == context


def test_three_characters_a_token_rounded_up():
    assert [tokens(""), tokens("abc"), tokens("abcd"), tokens("é" * 7)] == [0, 1, 2, 3]
    assert DEFAULT_CONTEXT == 32_768
