"""The store: plain JSON Lines files under DIGEST_DATA_PATH, one per repository and UTC month.

Layout (see DESIGN.md): `{root}/{owner}/{name}/{YYYY-MM}.jsonl`, one pull per line sorted by
number, and `{root}/{owner}/{name}/state.json`. Every write goes to a temporary file that is
fsynced and renamed over the old one, so a kill at any moment leaves the previous file whole.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC
from pathlib import Path

from .atomic import atomic_write
from .errors import DigestError
from .records import Pull
from .repo_state import SCHEMA_VERSION, RepoState
from .settings import check_repo_name

_MONTH_FILE = re.compile(r"^\d{4}-\d{2}\.jsonl$")


class Store:
    def __init__(self, root: Path | str):
        self.root = Path(root)

    def repo_dir(self, repo: str) -> Path:
        return self.root / check_repo_name(repo)

    def repos(self) -> list[str]:
        """Repositories that have a state file, as OWNER/NAME."""
        if not self.root.is_dir():
            return []
        return sorted(f"{p.parent.parent.name}/{p.parent.name}" for p in self.root.glob("*/*/state.json"))

    # -- pulls ------------------------------------------------------------------------------

    def read_pulls(self, repo: str) -> list[Pull]:
        """Every stored pull of a repository, sorted by merge time then number."""
        pulls = [pull for path in self._month_files(repo) for pull in _read_month(path)]
        return sorted(pulls, key=lambda p: (p.merged_at, p.number))

    def upsert(self, repo: str, pulls: Iterable[Pull]) -> int:
        """Add or replace pulls by number; returns how many records changed.

        A PR whose merged_at moved to another month (it never should, but GitHub data is GitHub
        data) is removed from its old month file.
        """
        by_month: dict[str, dict[int, Pull]] = defaultdict(dict)
        for pull in pulls:
            by_month[_month_of(pull)][pull.number] = pull
        if not by_month:
            return 0
        directory = self.repo_dir(repo)
        directory.mkdir(parents=True, exist_ok=True)
        incoming_numbers = {n for month in by_month.values() for n in month}
        changed = 0
        for path in self._month_files(repo):
            month = path.stem
            existing = {p.number: p for p in _read_month(path)}
            updated = dict(existing)
            for number in incoming_numbers & existing.keys():
                if number not in by_month.get(month, {}):
                    del updated[number]  # moved to another month
            for number, pull in by_month.pop(month, {}).items():
                updated[number] = pull
            changed += sum(1 for n, p in updated.items() if existing.get(n) != p)
            if updated != existing:
                _write_month(path, updated.values())
        for month, new in by_month.items():
            changed += len(new)
            _write_month(directory / f"{month}.jsonl", new.values())
        return changed

    def _month_files(self, repo: str) -> list[Path]:
        directory = self.repo_dir(repo)
        if not directory.is_dir():
            return []
        return sorted(p for p in directory.iterdir() if _MONTH_FILE.match(p.name))

    # -- state ------------------------------------------------------------------------------

    def read_state(self, repo: str) -> RepoState | None:
        path = self.repo_dir(repo) / "state.json"
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            state = RepoState.from_json(data)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise DigestError(f"{path} is not a valid state file ({error}); restore it from version control or delete it to refetch.") from None
        if state.schema > SCHEMA_VERSION:
            raise DigestError(f"{path} was written by a newer repo-digest (schema {state.schema}); upgrade repo-digest to read it.")
        return state

    def write_state(self, state: RepoState) -> None:
        directory = self.repo_dir(state.repo)
        directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(state.to_json(), indent=2, ensure_ascii=False) + "\n"
        atomic_write(directory / "state.json", text)


def _month_of(pull: Pull) -> str:
    return pull.merged_at.astimezone(UTC).strftime("%Y-%m")


def _read_month(path: Path) -> list[Pull]:
    pulls = []
    with path.open(encoding="utf-8") as lines:
        for line_number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                pulls.append(Pull.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError) as error:
                raise DigestError(
                    f"{path}, line {line_number}, is not a valid pull request record ({error}); "
                    "restore the file from version control or delete it and fetch again."
                ) from None
    return pulls


def _write_month(path: Path, pulls: Iterable[Pull]) -> None:
    lines = (json.dumps(p.to_json(), ensure_ascii=False, sort_keys=True) for p in sorted(pulls, key=lambda p: p.number))
    atomic_write(path, "".join(line + "\n" for line in lines))

