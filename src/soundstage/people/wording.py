"""Optional model wording of people's replies.

When `SOUNDSTAGE_PEOPLE_MODEL` names a model, a reply the engine has decided may be phrased by it, through
an OpenAI-compatible endpoint: `SOUNDSTAGE_PEOPLE_URL` (key `SOUNDSTAGE_PEOPLE_KEY`), else
`SOUNDSTAGE_JUDGE_URL` (key `SOUNDSTAGE_JUDGE_KEY`), else OpenRouter with `OPENROUTER_API_KEY`. The model
gets the person's name and persona, the message they answer and only what the engine chose to say. Its
text is kept only if it contains every revealed fact's text, every option and every `<@owner>` of a
referral verbatim, and carries no fact (by its `match` phrases) that the template reply does not carry;
otherwise, and whenever the call fails, the template reply is used. The engine's decisions and events
never depend on the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..llm import Endpoint, ModelError
from ..world import shared_by_forks
from .cast import Cast
from .replies import Part, merge

MODEL_ENV = "SOUNDSTAGE_PEOPLE_MODEL"
URLS = (("SOUNDSTAGE_PEOPLE_URL", "SOUNDSTAGE_PEOPLE_KEY"), ("SOUNDSTAGE_JUDGE_URL", "SOUNDSTAGE_JUDGE_KEY"))
TIMEOUT = 30.0  # seconds; a slow model only costs the template
MAX_CHARS = 2000

SYSTEM = (
    "You are {name}, a person at work, answering a colleague's Slack message. {persona}\n"
    "Write only your reply: one short Slack message in your own voice. Say exactly what the list below "
    "says and nothing more. Copy every quoted text word for word. Do not add any facts, numbers, names, "
    "ids or promises of your own."
)


def instruction(part: Part) -> str:
    if part.kind in ("reveal", "pass"):
        return f'Share this, word for word: "{part.text}"'
    if part.kind == "decide":
        return f'Give your decision, naming the option word for word: "{part.option}"'
    if part.kind == "refer":
        return f'Say you don\'t know and that they should ask "<@{part.owner}>" (write it exactly so)'
    if part.kind == "refuse":
        return "Politely decline to share what they asked for, without saying anything about it"
    if part.kind == "unknown":
        return "Say you don't know"
    if part.kind == "clarify":
        return "Ask what exactly they need to know, without saying anything you know"
    return "Acknowledge the message briefly"


def people_model(env: Mapping[str, str], model_env: str) -> tuple[Endpoint, str] | None:
    """The people's endpoint and the model `model_env` names, when both are set."""
    model = env.get(model_env)
    endpoint = Endpoint.from_env(env, URLS) if model else None
    return (endpoint, model) if endpoint is not None and model else None


@shared_by_forks
@dataclass(frozen=True)
class Wording:
    endpoint: Endpoint
    model: str

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Wording | None:
        found = people_model(env, MODEL_ENV)
        return cls(*found) if found is not None else None

    def phrase(self, name: str, persona: str, question: str, parts: list[Part], template: str, cast: Cast) -> str:
        """The model's wording of a reply if it says what `parts` say and nothing more, else `template`."""
        said = merge(parts)
        system = SYSTEM.format(name=name, persona=persona.strip()).strip()
        todo = "\n".join(f"- {instruction(part)}" for part in said)
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": f"Their message:\n{question}\n\nWhat your reply must say:\n{todo}"},
        ]
        try:
            text = self.endpoint.chat(self.model, messages, temperature=0, timeout=TIMEOUT).strip()
        except ModelError:
            return template
        return text if acceptable(text, said, template, cast) else template


def acceptable(text: str, parts: list[Part], template: str, cast: Cast) -> bool:
    """Whether a model's reply says everything the parts say verbatim and carries no other fact."""
    if not text or len(text) > MAX_CHARS:
        return False
    for part in parts:
        needed = {"reveal": part.text, "pass": part.text, "decide": part.option, "refer": f"<@{part.owner}>"}.get(
            part.kind
        )
        if needed and needed not in text:
            return False
    return set(cast.carried(text)) <= set(cast.carried(template))
