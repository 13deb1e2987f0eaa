"""Which repositories `owner/*` means today: the owner's public, non-archived ones, asked of GitHub
at fetch time and recorded in the store (see `digest_plugin.store.owner_index` for the build's side)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import GitHubClient
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import expand, record_owner

PER_PAGE = 100  # GitHub's largest page for repository listings


def public_repos(client: GitHubClient, owner: str) -> list[str]:
    """`GET /users/{owner}/repos` (users and organisations alike), every page, sorted by name."""
    names, page = [], 1
    while True:
        _, items = client.rest_get(f"/users/{owner}/repos", {"type": "owner", "sort": "full_name", "per_page": PER_PAGE, "page": page}, f"{owner}/*")
        items = items if isinstance(items, list) else []
        names += [r["full_name"] for r in items if not (r.get("private") or r.get("archived") or r.get("disabled"))]
        if len(items) < PER_PAGE:
            break
        page += 1
    if not names:
        raise DigestError(f"GitHub lists no public, non-archived repository of {owner}, so {owner}/* matches nothing.")
    return sorted(names)


def resolve_owners(client: GitHubClient, store: Store, entries: Sequence[str], now: datetime) -> list[str]:
    """DIGEST_REPOS with each `owner/*` replaced by the owner's repositories, once each, recorded."""

    def asked(owner: str) -> list[str]:
        found = public_repos(client, owner)
        record_owner(store, owner, found, now)
        return found

    return expand(entries, asked)
