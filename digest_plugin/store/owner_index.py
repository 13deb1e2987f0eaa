"""`owner/*` in DIGEST_REPOS: every public, non-archived repository of an owner.

The fetch asks GitHub which repositories match (`fetch.owners`) and records the answer in the
store as `{owner}/owner.json`; the build publishes what the last fetch recorded, or, for a store
that was never fetched, every repository of that owner the store holds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from digest_plugin.atomic import atomic_write
from digest_plugin.errors import DigestError
from digest_plugin.records.pull import format_time
from digest_plugin.settings import is_owner_pattern, is_repo_name
from digest_plugin.store.folder import Store


def owner_of(entry: str) -> str | None:
    """The owner of an `owner/*` entry; None for a single repository."""
    return entry.split("/")[0] if is_owner_pattern(entry) else None


def record_owner(store: Store, owner: str, repos: Sequence[str], resolved_at: datetime) -> None:
    path = store.root / owner / "owner.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "pattern": f"{owner}/*",
        "resolved_at": format_time(resolved_at),
        "repos": sorted(repos),
    }
    atomic_write(path, json.dumps(record, indent=2) + "\n")


def recorded_repos(store: Store, owner: str) -> list[str] | None:
    path = store.root / owner / "owner.json"
    if not path.is_file():
        return None
    try:
        return [
            repo
            for repo in json.loads(path.read_text(encoding="utf-8"))["repos"]
            if is_repo_name(repo)
        ]
    except (ValueError, KeyError, TypeError):
        raise DigestError(
            f"{path} is not a record of {owner}'s repositories; delete it and fetch again."
        ) from None


def expand(entries: Iterable[str], repos_of: Callable[[str], Sequence[str]]) -> list[str]:
    """DIGEST_REPOS with each `owner/*` replaced by `repos_of(owner)`, in order, once each."""
    repos: list[str] = []
    for entry in entries:
        owner = owner_of(entry)
        repos.extend([entry] if owner is None else repos_of(owner))
    return list(dict.fromkeys(repos))


def expand_repos(entries: Iterable[str], store: Store) -> list[str]:
    """The build's expansion: what the last fetch recorded, else the owner's repositories in the store."""

    def stored(owner: str) -> list[str]:
        found = recorded_repos(store, owner)
        return (
            found if found is not None else [r for r in store.repos() if r.split("/")[0] == owner]
        )

    return expand(entries, stored)


def by_owner(names: Iterable[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name.split("/")[0], []).append(name)
    return groups
