"""What a PR's files show: files added and removed, lines, workflows and configuration touched.

The facts narrate needs to say what a PR does when its body does not ("removes two files and 600
lines", "changes 8 workflows"), and that risks cite as evidence.
"""

from __future__ import annotations

from digest_plugin.analysis.model import Footprint
from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.store.records import Pull

LISTED_PATHS = 5  # paths kept per list: enough to name the main ones


def footprint(pull: Pull, rules: Rules) -> Footprint:
    paths, kinds = rules.files_of(pull)
    removed: list[tuple[int, str]] = []
    added: list[str] = []
    counts = {"core_lines": 0, "test_files": 0, "doc_files": 0, "generated_files": 0, "generated_lines": 0}
    workflows: list[str] = []
    config: list[str] = []
    for path, path_kinds, change in zip(paths, kinds, pull.files, strict=True):
        core = not path_kinds & PERIPHERAL_KINDS
        if change.status == "removed":
            removed.append((change.deletions or 0, path))
        elif change.status == "added" and core:
            added.append(path)
        _count(counts, path_kinds, (change.additions or 0) + (change.deletions or 0), core)
        if "ci" in path_kinds:
            workflows.append(path)
        if "config" in path_kinds and not path_kinds & {"tests", "docs", "generated"}:
            config.append(path)
    if pull.files_truncated:
        kept = sum((change.additions or 0) + (change.deletions or 0) for change in pull.files)
        counts["generated_lines"] = beyond_kept(pull, counts["generated_lines"], kept)
    removed.sort(key=lambda item: (-item[0], item[1]))
    return Footprint(
        added_files=tuple(added[:LISTED_PATHS]),
        added_count=len(added),
        removed_files=tuple(path for _, path in removed[:LISTED_PATHS]),
        removed_count=len(removed),
        removed_lines=sum(lines for lines, _ in removed),
        workflows=tuple(workflows),
        config_files=tuple(config),
        **counts,
    )


def _count(counts: dict[str, int], kinds: frozenset[str], lines: int, core: bool) -> None:
    """Adds one file to the footprint's counts: its lines where they are core or generated."""
    counts["core_lines"] += lines if core else 0
    counts["test_files"] += "tests" in kinds
    counts["doc_files"] += "docs" in kinds and "tests" not in kinds
    counts["generated_files"] += "generated" in kinds
    # snapshots are generated too, but they are the tests' expected output: counted as tests
    counts["generated_lines"] += lines if "generated" in kinds and "tests" not in kinds else 0


def beyond_kept(pull: Pull, lines: int, kept: int) -> int:
    """`lines` of one kind among the `kept` lines of the files the record kept, scaled to all of the
    PR's changed lines: the dropped files are taken to split by kind as the kept ones do."""
    if not pull.files_truncated or not kept:
        return lines
    return round(lines * max(kept, pull.additions + pull.deletions) / kept)


def mostly_generated(pull: Pull, footprint: Footprint) -> bool:
    """Most of the PR's changed lines are generated or vendored files (lock files, third-party
    code, generated sources; snapshots count as tests): its size is not the size of the change a
    person made."""
    return footprint.generated_lines * 2 > pull.additions + pull.deletions
