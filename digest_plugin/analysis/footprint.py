"""What a PR's files show: files added and removed, lines, workflows and configuration touched.

The facts narrate needs to say what a PR does when its body does not ("removes two files and 600
lines", "changes 8 workflows"), and that risks cite as evidence.
"""

from __future__ import annotations

from digest_plugin.analysis.model import Footprint
from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.records.pull import FileChange, Pull

LISTED_PATHS = 5  # paths kept per list: enough to name the main ones
PLACE_SHARE = 2 / 3  # of a PR's core lines, in one file or folder for it to be where the PR works
PLACE_DEPTH = 2  # a folder that names a place is at least two deep ("verl/trainer", "crates/ty"): one level is the whole project
MAX_PLACES = 3  # folders named together as where a PR works
MAIN_FILES = 3  # the files a PR is about: those a diff excerpt of it shows (fetch/diffs.py)


def _runs_in_ci(path: str) -> bool:
    """Whether a file of CI's is configuration CI runs: not a README beside the workflows, nor a
    workflow parked in a dot-folder (verl's `.github/workflows/.deprecate/`), which GitHub never runs."""
    parts = path.split("/")
    return not parts[-1].lower().endswith((".md", ".rst", ".txt")) and not any(
        part.startswith(".") for part in parts[1:-1]
    )


def footprint(pull: Pull, rules: Rules) -> Footprint:
    paths, kinds = rules.files_of(pull)
    removed: list[tuple[int, str]] = []
    added: list[str] = []
    counts = {
        "core_lines": 0,
        "test_files": 0,
        "generated_files": 0,
        "generated_lines": 0,
        "inline_test_files": 0,
        "test_lines_gained": 0,
        "test_lines": 0,
    }
    core_files: list[tuple[str, int]] = []
    for path, path_kinds, change in zip(paths, kinds, pull.files, strict=True):
        core = not path_kinds & PERIPHERAL_KINDS
        if core:
            core_files.append((path, (change.additions or 0) + (change.deletions or 0)))
            counts["inline_test_files"] += "inline_tests" in path_kinds
        if change.status == "removed":
            removed.append((change.deletions or 0, path))
        elif change.status == "added" and core:
            added.append(path)
        _count(counts, path_kinds, change, core)
    if pull.files_truncated:
        kept = sum((change.additions or 0) + (change.deletions or 0) for change in pull.files)
        counts["generated_lines"] = beyond_kept(pull, counts["generated_lines"], kept)
    removed.sort(key=lambda item: (-item[0], item[1]))
    workflows, config = _workflows_and_config(paths, kinds)
    return Footprint(
        added_files=tuple(added[:LISTED_PATHS]),
        added_count=len(added),
        removed_files=tuple(path for _, path in removed[:LISTED_PATHS]),
        removed_count=len(removed),
        removed_lines=sum(lines for lines, _ in removed),
        workflows=workflows,
        config_files=config,
        places=main_places(core_files),
        main_files=tuple(
            path
            for path, lines in sorted(core_files, key=lambda f: (-f[1], f[0]))[:MAIN_FILES]
            if lines
        ),
        **counts,
    )


def _workflows_and_config(
    paths: tuple[str, ...], kinds: tuple[frozenset[str], ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The CI workflows a PR changes (files CI runs, not a README beside them), and its
    configuration files outside tests, docs and generated code."""
    workflows = tuple(
        path
        for path, path_kinds in zip(paths, kinds, strict=True)
        if "ci" in path_kinds and _runs_in_ci(path)
    )
    config = tuple(
        path
        for path, path_kinds in zip(paths, kinds, strict=True)
        if "config" in path_kinds and not path_kinds & {"tests", "docs", "generated"}
    )
    return workflows, config


def main_places(files: list[tuple[str, int]]) -> tuple[str, ...]:
    """Where a PR works: the file that holds PLACE_SHARE of its changed core lines, else the
    deepest folder (PLACE_DEPTH deep or more) that does, else the fewest folders PLACE_DEPTH deep
    (at most MAX_PLACES) that do together; () when the lines are spread wider."""
    total = sum(lines for _, lines in files)
    if not total:
        return ()
    path, lines = max(files, key=lambda f: (f[1], f[0]))
    if lines >= PLACE_SHARE * total:
        return (path,)
    folders: dict[str, int] = {}
    for path, lines in files:
        parts = path.split("/")[:-1]
        for depth in range(PLACE_DEPTH, len(parts) + 1):
            folder = "/".join(parts[:depth])
            folders[folder] = folders.get(folder, 0) + lines
    if held := [folder for folder, lines in folders.items() if lines >= PLACE_SHARE * total]:
        return (max(held, key=lambda folder: (folder.count("/"), folders[folder], folder)),)
    tops = sorted(
        (folder for folder in folders if folder.count("/") == PLACE_DEPTH - 1),
        key=lambda folder: (-folders[folder], folder),
    )
    for count in range(2, MAX_PLACES + 1):
        if sum(folders[folder] for folder in tops[:count]) >= PLACE_SHARE * total:
            return tuple(sorted(tops[:count]))
    return ()


def _count(counts: dict[str, int], kinds: frozenset[str], change: FileChange, core: bool) -> None:
    """Adds one file to the footprint's counts: its lines where they are core, tests or generated."""
    added, deleted = change.additions or 0, change.deletions or 0
    lines = added + deleted
    counts["core_lines"] += lines if core else 0
    counts["test_files"] += "tests" in kinds
    if "tests" in kinds:
        counts["test_lines"] += lines
        # an end-to-end job's trigger is no test written (verl #1157, "enable push tests")
        counts["test_lines_gained"] += (added - deleted) if "ci" not in kinds else 0
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
