"""Fetch stage: a capped diff excerpt for each key PR of the weeks a fetch just brought, stored with
its record so that a rebuild needs no network, and never asked for twice.

Which PRs are key, and which of their files they are about, is the analysis' to say, and this stage
sits below it: the orchestrator (`repo-digest fetch`, a build's DIGEST_FETCH) asks it once the PRs
are fetched (publish/history.diff_targets) and hands the answer over as data (fetch_key_diffs).
Each target costs one REST request, the first page of `/pulls/N/files` (what PyGithub's
`PullRequest.get_files()` asks first), whose items carry each file's `patch`; only the hunks of the
PR's main files are kept, shared fairly between them, up to DIFF_LIMIT characters. A PR whose diff
GitHub will not show (422: too large to generate) gets an empty excerpt, so it is not asked again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from digest_plugin.fetch.client import GitHubClient, Refused, TokenRejected
from digest_plugin.records.pull import DIFF_LIMIT, Pull
from digest_plugin.store.folder import Store

CUT = "…"


def fetch_diffs(
    client: GitHubClient, store: Store, repo: str, targets: Mapping[int, tuple[str, ...]]
) -> int:
    """Store an excerpt for each target that has none yet; returns how many were stored. What was
    fetched is saved even when a later request fails (a spent rate limit stops the rest)."""
    wanted = [
        p
        for p in store.read_pulls(repo)
        if p.number in targets and p.diff is None and p.source == "github"
    ]
    done: list[Pull] = []
    try:
        for pull in wanted:
            try:
                _, files = client.rest_get(
                    f"/repos/{repo}/pulls/{pull.number}/files", {"per_page": 100}, repo
                )
            except TokenRejected:
                raise
            except Refused:
                files = []  # GitHub will not show this diff: nothing to excerpt, now or later
            excerpt = diff_excerpt(files if isinstance(files, list) else [], targets[pull.number])
            done.append(replace(pull, diff=excerpt))
    finally:
        store.upsert(repo, done)
    return len(done)


def diff_excerpt(files: Sequence[dict], paths: Sequence[str], limit: int = DIFF_LIMIT) -> str:
    """The patches of `paths` (in that order) among REST's changed-file items, at most `limit`
    characters: the cap shared fairly (a file that needs less than its share leaves the rest to the
    others), whole hunks while they fit, then the next one cut at a line ("…"); "" when none of them
    has a text patch (a binary file, or one GitHub would not diff)."""
    patches = {f.get("filename"): f.get("patch") for f in files if isinstance(f, dict)}
    shown = [
        (f"diff --git a/{path} b/{path}", text)
        for path in dict.fromkeys(paths)
        if isinstance(text := patches.get(path), str) and text.strip()
    ]
    # with the line breaks around it
    needs = [len(header) + len(patch) + 2 for header, patch in shown]
    shares, left = [0] * len(shown), limit
    for rank, index in enumerate(sorted(range(len(shown)), key=lambda i: needs[i])):
        shares[index] = min(needs[index], left // (len(shown) - rank))
        left -= shares[index]
    out = []
    for (header, patch), share in zip(shown, shares, strict=True):
        kept = _within(patch, share - len(header) - 2)
        if kept:
            out += [header, kept]
    return "\n".join(out)


def _within(patch: str, room: int) -> str:
    """`patch` in at most `room` characters: whole hunks while they fit, then the lines of the next
    that fit and "…" for the rest."""
    if len(patch) <= room:
        return patch
    lines, size = [], 0
    for line in patch.splitlines():
        if size + len(line) + 1 > room - len(CUT):
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join([*lines, CUT]) if lines else ""
