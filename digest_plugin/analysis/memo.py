"""Results of earlier builds by the hash of everything they were made from, so a rebuild redoes
only what changed: a week whose pulls, history, settings and code are those of a build before is
not analysed (or narrated) again.

Pure: the caller loads a `Memo` from disk before the build and saves `memo.kept()` after it
(publish/analysis_cache.py), which drops whatever this build did not use. Every key starts with
`salt`, the hash of what the keys cannot see: the code, its catalogues and the rules file.

    memo = Memo(salt, entries)
    key = memo.key("week", str(week), inputs)
    value = memo.get(key)          # None when absent
    memo.put(key, value)
    memo.tag(value, key)           # later: memo.tag_of(value) == key, to key what is made from it
"""

from __future__ import annotations

import hashlib


class Memo:
    def __init__(self, salt: str, entries: dict[str, object] | None = None):
        self.salt = salt
        self._entries = dict(entries or {})
        self._used: dict[str, object] = {}
        self._changed = False
        self._tags: dict[int, tuple[object, str]] = {}  # id -> (the object, kept so the id stays its, its key)

    def key(self, *parts: object) -> str:
        """A hash of `parts` (by their repr: strings, numbers, tuples of them, frozen records)."""
        return hashlib.sha256(repr((self.salt, parts)).encode("utf-8")).hexdigest()

    def get(self, key: str) -> object | None:
        value = self._used.get(key, self._entries.get(key))
        if value is not None:
            self._used[key] = value
        return value

    def put(self, key: str, value: object) -> None:
        self._used[key] = value
        self._changed = self._changed or self._entries.get(key) is not value

    def tag(self, value: object, key: str) -> None:
        """Say that `value` was made from the inputs `key` hashes, so results made from it can be keyed by it."""
        self._tags[id(value)] = (value, key)

    def tag_of(self, value: object) -> str | None:
        tagged = self._tags.get(id(value))
        return tagged[1] if tagged is not None and tagged[0] is value else None

    def kept(self) -> dict[str, object]:
        """The entries this build used or made: the next build's memo."""
        return dict(self._used)

    @property
    def changed(self) -> bool:
        """Whether `kept()` differs from the entries it was given (else there is nothing to save)."""
        return self._changed or self._used.keys() != self._entries.keys()

    def __getstate__(self) -> dict:
        """Picklable, tags included: a tag is kept by its object's id, which another process's copy does not share."""
        state = dict(self.__dict__)
        state["_tags"] = list(self._tags.values())
        return state

    def __setstate__(self, state: dict) -> None:
        tags = state.pop("_tags")
        self.__dict__.update(state)
        self._tags = {id(value): (value, key) for value, key in tags}

    @property
    def hits(self) -> int:
        return sum(1 for key in self._used if key in self._entries)
