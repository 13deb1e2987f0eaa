"""What the store's history knows of a repository's files: which lock files it kept at a given
time, and when a source file was added, by which PR and whether with tests.

Built once per repository (RepoContext.file_history) and asked by two findings that recommend
something: a dependency raised in a manifest whose lock file the PR left as it was
(risks._dependency_upgrade), and a new file that many PRs of a week changed and no test covers
(analysis.repository, the week's hot files). Only what the store saw is known: a lock file or a
source file older than the store's first PR is not in it, so these findings stay silent about them.
"""

from __future__ import annotations

import bisect
import posixpath
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.records.pull import Pull

# manifest -> the lock files that pin what it declares
LOCKS_OF = {
    "Cargo.toml": ("Cargo.lock",),
    "pyproject.toml": ("uv.lock", "poetry.lock", "pdm.lock"),
    "package.json": ("package-lock.json", "pnpm-lock.yaml", "yarn.lock"),
    "go.mod": ("go.sum",),
    "Gemfile": ("Gemfile.lock",),
    "composer.json": ("composer.lock",),
}
LOCK_NAMES = frozenset(name for names in LOCKS_OF.values() for name in names)
# a lock file that also covers the manifests in the folders below it
WORKSPACE_LOCKS = frozenset({"Cargo.lock"})


@dataclass(frozen=True)
class Added:
    """A source file's addition: when, by which PR, and whether that PR changed any test."""

    merged_at: datetime
    pull: int
    tested: bool


@dataclass(frozen=True)
class FileHistory:
    # lock file -> (when, whether it exists after) of each PR touching it
    locks: dict[str, tuple[tuple[datetime, bool], ...]]
    added: dict[str, tuple[Added, ...]]  # source file -> its additions, oldest first

    def locks_before(self, when: datetime) -> frozenset[str]:
        """The lock files that existed just before `when`, as far as the store saw them."""
        return frozenset(
            path
            for path, events in self.locks.items()
            if (index := bisect.bisect_left(events, (when, False))) and events[index - 1][1]
        )

    def added_since(self, path: str, since: datetime, until: datetime) -> Added | None:
        """The last addition of `path` merged in [since, until), or None."""
        found = [a for a in self.added.get(path, ()) if since <= a.merged_at < until]
        return found[-1] if found else None


def file_history(pulls: Sequence[Pull], rules: Rules) -> FileHistory:
    """Built from the files of every PR; only added files have their kinds worked out, so that a
    repository's whole history costs little more than reading it."""
    locks: dict[str, list[tuple[datetime, bool]]] = defaultdict(list)
    added: dict[str, list[Added]] = defaultdict(list)
    for pull in sorted(pulls, key=lambda p: (p.merged_at, p.number)):
        tested: bool | None = None  # worked out only for a PR that adds source
        for change in pull.files:
            path = change.path.strip('"')
            if posixpath.basename(path) in LOCK_NAMES:
                locks[path].append((pull.merged_at, change.status != "removed"))
            elif change.status == "added":
                kinds = rules.path_kinds_of(path)
                if "source" in kinds and not kinds & PERIPHERAL_KINDS:
                    if tested is None:
                        tested = any(
                            "tests" in rules.path_kinds_of(f.path.strip('"')) for f in pull.files
                        )
                    added[path].append(Added(pull.merged_at, pull.number, tested))
    return FileHistory(
        {path: tuple(events) for path, events in locks.items()},
        {path: tuple(a) for path, a in added.items()},
    )


def lock_for(manifest: str, locks: frozenset[str]) -> str | None:
    """The lock file that pins `manifest`'s dependencies: one in its folder, or a workspace's
    (Cargo.lock) in a folder above it; None when the repository keeps none for it."""
    folder, names = posixpath.dirname(manifest), LOCKS_OF.get(posixpath.basename(manifest), ())
    for lock in sorted(locks, key=len, reverse=True):
        lock_folder, name = posixpath.split(lock)
        if name in names and (
            lock_folder == folder
            or (
                name in WORKSPACE_LOCKS
                and (not lock_folder or folder.startswith(lock_folder + "/"))
            )
        ):
            return lock
    return None
