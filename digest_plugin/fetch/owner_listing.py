"""Which repositories `owner/*` means today: the owner's public, non-archived ones, asked of GitHub
at fetch time and recorded in the store (see `digest_plugin.store.owner_index` for the build's side)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import GitHubClient, RateLimitStop, Unreachable
from digest_plugin.fetch.sync import RepoReport
from digest_plugin.settings import is_repo_name
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import expand, record_owner

logger = logging.getLogger(__name__)

PER_PAGE = 100  # GitHub's largest page for repository listings


def public_repos(client: GitHubClient, owner: str) -> list[str]:
    """`GET /users/{owner}/repos` (users and organisations alike), every page, sorted by name.
    An item that names no repository of `owner` is left out with a warning."""
    names, page = [], 1
    while True:
        _, items = client.rest_get(
            f"/users/{owner}/repos",
            {"type": "owner", "sort": "full_name", "per_page": PER_PAGE, "page": page},
            f"{owner}/*",
        )
        items = items if isinstance(items, list) else []
        for position, item in enumerate(items, PER_PAGE * (page - 1) + 1):
            # the store can hold only a repository name of `owner`
            name = item.get("full_name") if isinstance(item, dict) else None
            if not is_repo_name(name) or name.split("/")[0].lower() != owner.lower():
                logger.warning(
                    "GitHub's list of %s's repositories has an item %d that names no repository of %s "
                    "(full_name %s); it is left out.",
                    owner,
                    position,
                    owner,
                    "missing" if name is None else repr(name)[:80],
                )
            elif not (item.get("private") or item.get("archived") or item.get("disabled")):
                names.append(name)
        if len(items) < PER_PAGE:
            break
        page += 1
    if not names:
        raise DigestError(
            f"GitHub lists no public, non-archived repository of {owner}, so {owner}/* matches nothing."
        )
    return sorted(names)


def resolve_owners(
    client: GitHubClient,
    store: Store,
    entries: Sequence[str],
    now: datetime,
    failed: list[RepoReport],
) -> list[str]:
    """DIGEST_REPOS with each `owner/*` replaced by the owner's repositories, once each, recorded.
    An owner whose list cannot be had is reported in `failed` (as `owner/*`) and matches nothing."""

    def asked(owner: str) -> list[str]:
        try:
            found = public_repos(client, owner)
        except (RateLimitStop, Unreachable):
            raise
        except DigestError as error:
            failed.append(RepoReport(f"{owner}/*", error=error))
            return []
        record_owner(store, owner, found, now)
        return found

    return expand(entries, asked)
