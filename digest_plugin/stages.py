"""What the analysis's stages and what runs them share: a stage is a pure function of one input
and of a context, whose history it reads only by asking questions (`Recording`); a runner calls it
(`run_directly`, or build/cache.py's `Stages`, which keeps what it made) and says what it made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Made(Generic[T]):
    """A stage's output, with the key a cache knows it by ("" without a cache): an input that
    holds it is keyed by that, not by the whole output."""

    value: T
    key: str = ""


class Runner(Protocol):
    """Calls `stage(input, context)` under `name`, and says what it made."""

    def __call__(
        self, name: str, stage: Callable[[Any, Any], T], input: Any, context: Any
    ) -> Made[T]: ...


def run_directly(name: str, stage: Callable[[Any, Any], T], input: Any, context: Any) -> Made[T]:
    return Made(stage(input, context))


class Recording:
    """A repository's history (analysis.repository.History) as one run of a stage reads it: each
    question asked, with its answer, in `asked`. Nothing else of the history can be read."""

    def __init__(self, history: Any):
        self._history = history
        self.asked: list[tuple[str, tuple, Any]] = []

    def __getattr__(self, name: str) -> Callable:
        question = None if name.startswith("_") else getattr(self._history, name)
        if not callable(question):
            raise AttributeError(f"a stage asks the history questions; {name!r} is none")

        def ask(*args: Any) -> Any:
            answer = question(*args)
            self.asked.append((name, args, answer))
            return answer

        return ask
