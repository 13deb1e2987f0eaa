"""What a PR's files show: files added and removed, lines, workflows and configuration touched.

The facts narrate needs to say what a PR does when its body does not ("removes two files and 600
lines", "changes 8 workflows"), and that risks cite as evidence.
"""

from __future__ import annotations

from ..records import Pull
from .model import Footprint
from .rules import PERIPHERAL_KINDS, Rules

LISTED_PATHS = 5  # paths kept per list: enough to name the main ones


def footprint(pull: Pull, rules: Rules) -> Footprint:
    paths, kinds = rules.files_of(pull)
    changes = list(zip(paths, kinds, pull.files, strict=True))
    removed = sorted((c for c in changes if c[2].status == "removed"), key=lambda c: (-(c[2].deletions or 0), c[0]))
    added = [path for path, k, change in changes if change.status == "added" and not k & PERIPHERAL_KINDS]
    return Footprint(
        added_files=tuple(added[:LISTED_PATHS]),
        added_count=len(added),
        removed_files=tuple(path for path, _, _ in removed[:LISTED_PATHS]),
        removed_count=len(removed),
        removed_lines=sum(change.deletions or 0 for _, _, change in removed),
        core_lines=sum((c.additions or 0) + (c.deletions or 0) for _, k, c in changes if not k & PERIPHERAL_KINDS),
        test_files=sum(1 for _, k, _ in changes if "tests" in k),
        doc_files=sum(1 for _, k, _ in changes if "docs" in k and "tests" not in k),
        workflows=tuple(path for path, k, _ in changes if "ci" in k),
        config_files=tuple(path for path, k, _ in changes if "config" in k and not k & {"tests", "docs", "generated"}),
        generated_files=sum(1 for _, k, _ in changes if "generated" in k),
    )
