"""`@frozen_record`: a frozen dataclass with slots that pickles quickly, for the records a build
holds by the hundred thousand and remembers between builds (a PR, its analysis, its week's
narrative: analysis/memo.py).

A frozen dataclass with slots pickles through `dataclasses.fields()`, asked again for every
object, both ways: for a repository of 20,000 PRs that was two thirds of the time its memo took
to save or load. Here the field names are looked up once, when the class is made; the pickled
state is the same, the fields' values in order.

A record holds no set: a set of strings pickles in an order that changes with the process's hash
seed, and build/cache.py keys what a record says by its pickled bytes.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, fields
from itertools import repeat
from operator import attrgetter
from typing import Any, dataclass_transform

_SET = re.compile(r"\b(frozen)?set\b|\b(Abstract)?Set\[")


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[Any]) -> type[Any]:
    cls = dataclass(frozen=True, slots=True)(cls)
    sets = [field.name for field in fields(cls) if _SET.search(str(field.type))]
    if sets:
        raise TypeError(
            f"{cls.__qualname__}.{sets[0]} is a set; a record holds tuples (sorted where the order is not its own)"
        )
    cls.__frozen_record__ = True
    names = tuple(field.name for field in fields(cls))
    if not names:
        return cls
    values = attrgetter(*names)
    one = len(names) == 1

    def __getstate__(self) -> tuple:
        return (values(self),) if one else values(self)

    def __setstate__(self, state) -> None:
        if len(state) != len(names):
            raise ValueError(f"{cls.__qualname__} has {len(names)} fields, not {len(state)}")
        # The loop in C (map, drained by a deque of length 0): a memo restores 200,000 records.
        deque(map(object.__setattr__, repeat(self), names, state), 0)

    # Functions set on the class, where they become its methods.
    cls.__getstate__, cls.__setstate__ = __getstate__, __setstate__  # type: ignore[assignment]
    return cls


def is_frozen_record(cls: type) -> bool:
    return getattr(cls, "__frozen_record__", False)
