"""The requests a week is written in, each sized to fit the endpoint's caps with a margin.

Pure. Without a cap (`max_input_tokens` 0) a week is one request, as it always was. With one (GitHub
Models' free tier takes 8,000 tokens in and 4,000 out), the whole week is one request when it fits;
otherwise it is written in parts: the summary and the themes; the key PRs, in batches; the risks
and the recommendations. A part's document holds only what that part is about, and is trimmed
(shorter bodies, fewer files, fewer PRs) until it fits; a part that cannot fit even so is left to
the built-in writer, and said.

Tokens are counted conservatively: four characters of ASCII, or one of anything else (a Chinese
character is one token or less), per token, over the whole request (the messages and the answer's
schema), and only `INPUT_SHARE` of the cap is used.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from digest_plugin.narrate.llm.answer import SECTIONS
from digest_plugin.narrate.llm.prompt import GENERAL, MAX_RECOMMENDATIONS, answer_schema, messages

INPUT_SHARE = 0.7  # of max_input_tokens: the margin for a tokenizer denser than our count
OUTPUT_SHARE = 0.75  # of max_output_tokens
TOKENS_PER_SENTENCE = 90  # an answer's sentence with its JSON (a Chinese one included)
MESSAGE_OVERHEAD = 8  # tokens each message costs besides its text
# Trimming, step by step: (characters of a body, files of a PR, PRs in the document, review comments of a PR,
# characters of a key PR's diff excerpt)
TRIMS = (
    (1000, 20, 60, 3, 1500),
    (600, 10, 40, 2, 800),
    (300, 5, 25, 1, 400),
    (120, 3, 15, 0, 0),
    (0, 1, 8, 0, 0),
    (0, 0, 4, 0, 0),
)
WHOLE_WEEK = "week"  # the part that is the whole week


@dataclass(frozen=True)
class Part:
    name: str  # "week", "overview", "key changes #1 #2", "risks"
    sections: tuple[str, ...]  # of the answer
    document: dict

    def messages(self) -> list[dict]:
        return messages(self.document, self.sections)

    def schema(self) -> dict:
        return answer_schema(self.sections)


@dataclass(frozen=True)
class Plan:
    parts: tuple[Part, ...]
    left_out: tuple[str, ...] = ()  # parts that fit in no request, by name


def estimate_tokens(text: str) -> int:
    """At least as many tokens as `text` takes: 4 ASCII characters, or 1 other character, a token."""
    ascii_count = sum(1 for c in text if c < "\x80")
    return math.ceil(ascii_count / 4) + (len(text) - ascii_count)


def request_tokens(part: Part) -> int:
    """What the whole request of `part` counts as: its messages and its answer's schema."""
    sent = part.messages()
    return sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD for m in sent) + estimate_tokens(
        json.dumps(part.schema())
    )


def answer_tokens(part: Part) -> int:
    """What its answer may take: the sentences it asks for, at their longest."""
    document = part.document
    counts = {
        "summary": 4,
        "themes": len(document.get("themes", ())),
        "key_changes": 2 * len(document.get("key_pulls", ())),
        "risks": 2 * len(document.get("risks", ())),
        "recommendations": MAX_RECOMMENDATIONS,
    }
    sentences = sum(counts[section] for section in part.sections)
    return TOKENS_PER_SENTENCE * sentences + 20


def plan(document: dict, max_input_tokens: int = 0, max_output_tokens: int = 0) -> Plan:
    """The week's requests: `document` (prompt.week_document) whole when there is no cap or it fits,
    else in parts that each fit."""
    whole = Part(WHOLE_WEEK, SECTIONS, document)
    if not max_input_tokens or _fits(whole, max_input_tokens, max_output_tokens):
        return Plan((whole,))
    parts, left_out = [], []
    for name, sections, content in _pieces(
        document, key_batches(document, max_input_tokens, max_output_tokens)
    ):
        fitted = _fitted(name, sections, content, max_input_tokens, max_output_tokens)
        if fitted is not None:
            parts.append(fitted)
        else:
            left_out.append(name)
    return Plan(tuple(parts), tuple(left_out))


def _pieces(document: dict, batches: list[list[int]]):
    """(name, sections, document) of each part, before trimming."""
    pulls = {p["number"]: p for p in document["pull_requests"]}
    risky = [n for risk in document["risks"] for n in risk["pulls"]]
    overview = {
        **document,
        "pull_requests": [_without_body(p) for p in document["pull_requests"]],
        "figures": _figures(
            document["figures"],
            document["key_pulls"],
            "theme:",
            "type:",
            "module:",
            "label:",
            "risk:",
        ),
    }
    yield "overview", ("summary", "themes"), overview
    for batch in batches:
        yield _batch_name(batch), ("key_changes",), _key_document(document, batch, pulls)
    numbers = list(dict.fromkeys([*risky, *document["key_pulls"]]))
    risks = {
        **_head(document),
        "figures": _figures(document["figures"], numbers, "risk:"),
        "key_pulls": document["key_pulls"],
        "risks": document["risks"],
        "hot_files": document["hot_files"],
        "pull_requests": [pulls[n] for n in numbers if n in pulls],
        "more_pull_requests": 0,
    }
    yield "risks", ("risks", "recommendations"), risks


def _fitted(
    name: str, sections: tuple[str, ...], content: dict, max_input: int, max_output: int
) -> Part | None:
    """The part with as much of `content` as fits; None when even the leanest does not."""
    for trim in TRIMS:
        part = Part(name, sections, _trimmed(content, *trim))
        if _fits(part, max_input, max_output):
            return part
    return None


def _fits(part: Part, max_input: int, max_output: int) -> bool:
    if max_output and answer_tokens(part) > max_output * OUTPUT_SHARE:
        return False
    return request_tokens(part) <= max_input * INPUT_SHARE


def key_batches(document: dict, max_input_tokens: int, max_output_tokens: int) -> list[list[int]]:
    """The key PRs in as few batches as fit, in their order (most important first)."""
    pulls = {p["number"]: p for p in document["pull_requests"]}
    batches: list[list[int]] = []
    for number in document["key_pulls"]:
        if batches:
            wider = batches[-1] + [number]
            content = _key_document(document, wider, pulls)
            if _fits(
                Part(_batch_name(wider), ("key_changes",), _trimmed(content, *TRIMS[1])),
                max_input_tokens,
                max_output_tokens,
            ):
                batches[-1] = wider
                continue
        batches.append([number])
    return batches


def _key_document(document: dict, batch: Sequence[int], pulls: dict) -> dict:
    return {
        **_head(document),
        "figures": _figures(document["figures"], batch),
        "key_pulls": list(batch),
        "pull_requests": [pulls[n] for n in batch if n in pulls],
        "more_pull_requests": 0,
    }


def _batch_name(batch: Sequence[int]) -> str:
    return "key changes " + " ".join(f"#{n}" for n in batch)


def _head(document: dict) -> dict:
    return {key: document[key] for key in ("language", "repository", "week")}


def _figures(figures: dict, pulls: Sequence[int], *prefixes: str) -> dict:
    """The week's general figures, those starting with `prefixes`, and those of `pulls`."""
    starts = ("previous:", *prefixes, *(f"pull:{n}:" for n in pulls))
    return {
        name: value for name, value in figures.items() if name in GENERAL or name.startswith(starts)
    }


def _without_body(pull: dict) -> dict:
    """A PR without what its author and reviewers wrote, nor its diff: the overview needs only what it is."""
    return {
        key: value for key, value in pull.items() if key not in ("body", "review_comments", "diff")
    }


def _trimmed(content: dict, body: int, files: int, pulls: int, comments: int, diff: int) -> dict:
    """`content` with bodies cut to `body` characters, diffs to `diff`, `files` files and `comments`
    review comments a PR, and its first `pulls` PRs. The verdicts stay: a few logins, and a risk may
    rest on them."""
    shown = content["pull_requests"][:pulls]
    trimmed = []
    for pull in shown:
        pull = {
            **pull,
            "files": pull["files"][:files],
            "more_files": pull["more_files"] + max(0, len(pull["files"]) - files),
        }
        for field, kept in (
            ("body", pull.get("body", "")[:body]),
            ("review_comments", pull.get("review_comments", [])[:comments]),
            ("diff", pull.get("diff", "")[:diff]),
        ):
            if kept:
                pull[field] = kept
            else:
                pull.pop(field, None)
        trimmed.append(pull)
    more = content.get("more_pull_requests", 0) + len(content["pull_requests"]) - len(shown)
    return {**content, "pull_requests": trimmed, "more_pull_requests": more}
