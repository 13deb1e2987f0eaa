"""The model's answer, read defensively: JSON (with or without a code fence) in the schema of `prompt.py`.

Pure. Anything that is not what the schema asks for is an `AnswerError` naming what is wrong, so the
writer can fall back and say why.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from digest_plugin.narrate.model import Figure

# Some servers in JSON mode (vLLM, Ollama) wrap the object in a Markdown fence anyway.
_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.DOTALL)
SECTIONS = ("summary", "themes", "key_changes", "risks", "recommendations")


class AnswerError(ValueError):
    """The answer cannot be used at all; the message says why, in a few words."""


class ModelFault(Exception):
    """No answer came (a timeout, an error, a refusal); `reason` says why in a few words, without the
    key. A `fatal` fault (a refused key, an unknown model, an exhausted quota) stops the build's requests."""

    def __init__(self, reason: str, fatal: bool = False):
        super().__init__(reason)
        self.reason, self.fatal = reason, fatal


class BudgetSpent(ModelFault):
    """The build's `max_requests` are used up."""

    def __init__(self, reason: str):
        super().__init__(reason, fatal=True)


@dataclass(frozen=True)
class Sentence:
    text: str
    pulls: tuple[int, ...]
    # each number the text states, with which figure of the document it is
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class Answer:
    language: str
    summary: tuple[Sentence, ...]
    themes: dict[str, tuple[Sentence, ...]]
    key_changes: dict[int, tuple[Sentence, ...]]
    risks: dict[str, tuple[Sentence, ...]]
    recommendations: tuple[Sentence, ...]


def parse_answer(content: str) -> dict:
    """The answer's JSON object; an AnswerError when it is not one."""
    fenced = _FENCE.match(content)
    try:
        data = json.loads(fenced[1] if fenced else content)
    except ValueError as error:
        raise AnswerError(f"the answer is not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise AnswerError("the answer is not a JSON object")
    return data


def read_answer(data: dict) -> Answer:
    """The answer in typed form; a missing section is empty (the built-in writer's text stays)."""
    if not any(key in data for key in SECTIONS):
        raise AnswerError(f"the answer has none of the sections {', '.join(SECTIONS)}")
    language = data.get("language")
    return Answer(
        language=language if isinstance(language, str) else "",
        summary=_sentences(data.get("summary", []), "summary"),
        themes=_entries(data.get("themes", []), "name", str, "themes"),
        key_changes=_entries(data.get("key_changes", []), "pull", int, "key_changes"),
        risks=_entries(data.get("risks", []), "kind", str, "risks"),
        recommendations=_sentences(data.get("recommendations", []), "recommendations"),
    )


def _entries(value, key: str, kind: type, where: str) -> dict:
    if not isinstance(value, list):
        raise AnswerError(f"{where} is not a list")
    entries = {}
    for entry in value:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get(key), kind)
            or isinstance(entry.get(key), bool)
        ):
            raise AnswerError(f"an entry of {where} has no {key}")
        entries[entry[key]] = _sentences(entry.get("sentences", []), f"{where}[{entry[key]}]")
    return entries


def _sentences(value, where: str) -> tuple[Sentence, ...]:
    if not isinstance(value, list):
        raise AnswerError(f"{where} is not a list of sentences")
    return tuple(_sentence(item, where) for item in value)


def _sentence(item, where: str) -> Sentence:
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise AnswerError(f"a sentence of {where} has no text")
    pulls = item.get("pulls", [])
    if not isinstance(pulls, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in pulls
    ):
        raise AnswerError(f"a sentence of {where} lists its pull requests wrongly")
    figures = item.get("figures", [])
    if not isinstance(figures, list):
        raise AnswerError(f"a sentence of {where} lists its figures wrongly")
    read = []
    for figure in figures:
        value = figure.get("value") if isinstance(figure, dict) else None
        if (
            not isinstance(figure, dict)
            or not isinstance(figure.get("name"), str)
            or isinstance(value, bool)
            or not isinstance(value, int | float)
        ):
            raise AnswerError(f"a figure of {where} has no name or no numeric value")
        read.append(Figure(figure["name"], float(value)))
    return Sentence(item["text"].strip(), tuple(pulls), tuple(read))
