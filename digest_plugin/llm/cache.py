"""The language model's answers, kept in the store so that every later build (in CI, offline) reuses them.

Layout: `{DIGEST_DATA_PATH}/.llm-cache/{owner}/{name}/{week}-{key[:20]}.json`, where the key hashes
the model, the prompt version and the week's document (`prompt.answer_key`). One file per week:
writing a new answer for a week removes the older ones, so the store holds what the site shows.
Files hold the answer as the model gave it (never the key), written atomically.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from digest_plugin.store.atomic import atomic_write

log = logging.getLogger(__name__)
FOLDER = ".llm-cache"


class AnswerCache:
    def __init__(self, data_path: Path):
        self.root = Path(data_path) / FOLDER

    def _path(self, repo: str, week: str, key: str) -> Path:
        return self.root / repo / f"{week}-{key[:20]}.json"

    def get(self, repo: str, week: str, key: str) -> dict | None:
        path = self._path(repo, week, key)
        if not path.exists():
            return None
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            if stored.get("key") == key and isinstance(stored.get("answer"), dict):
                return stored["answer"]
        except (OSError, ValueError, AttributeError):
            pass
        log.warning("%s is not a readable cached answer; the week will be asked for again.", path)
        return None

    def put(self, repo: str, week: str, key: str, model: str, answer: dict) -> None:
        path = self._path(repo, week, key)
        for older in path.parent.glob(f"{week}-*.json"):
            if older != path:
                older.unlink(missing_ok=True)
        record = {"repo": repo, "week": week, "model": model, "key": key, "answer": answer}
        atomic_write(path, json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
