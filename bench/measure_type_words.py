"""How often the report calls a PR a feature, fix or refactor, against how often it may.

    .venv/bin/python bench/measure_type_words.py

Analyses every week of verl, ruff and pelican in ../shared/data as a build does (as
bench/measure_precision.py does) and counts, per repository, the PRs whose row in the table of every
PR (and key-change line) names a kind: by the type as analysed (what the column said before the type
claims were gated), and by `publish.week_view.kind_name` (what it says now: the kind only where its
claim speaks, analysis/claims.py; else the author's own prefix or label, "titled fix:", or nothing).
The type corpus (tests/corpora/types.jsonl) then says how often the author's own word agrees with
the labelled kind: why the word is shown as the author's and not as the digest's.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.analysis.claims import TYPE_CLAIMS  # noqa: E402
from digest_plugin.publish.week_view import kind_name  # noqa: E402
from tests.precision import DATA, analysed_index, load_corpus  # noqa: E402

LABELLED = {"feat": "feature", "fix": "fix", "refactor": "refactor"}


def main() -> None:
    if not DATA.exists():
        sys.exit(f"The real data is absent: {DATA}.")
    index = analysed_index()
    rows: dict[str, Counter] = {}
    for (repo, _number), (analysed, _week) in index.items():
        count = rows.setdefault(repo, Counter())
        kind = analysed.classification
        count["prs"] += 1
        count["kind said before"] += kind.type in TYPE_CLAIMS
        shown = kind_name(analysed, str)
        count["kind said now"] += shown in ("feature", "fix", "refactor")
        count["author word now"] += shown.startswith(("titled ", "labelled "))
    print(
        f"{'repository':24} {'PRs':>6} {'feature/fix/refactor before':>28} {'now':>5} "
        f"{'author word now':>16}"
    )
    for repo, count in sorted(rows.items()):
        print(
            f"{repo:24} {count['prs']:>6} {count['kind said before']:>28} {count['kind said now']:>5} "
            f"{count['author word now']:>16}"
        )
    agree, marked = Counter(), Counter()
    for label in load_corpus("types"):
        found = index.get((label["repo"], label["number"]))
        kind = found[0].classification if found else None
        if kind is None or kind.type_mark is None or kind.type not in LABELLED:
            continue
        kind = kind.type
        marked[kind] += 1
        agree[kind] += label["type"] == LABELLED[kind]
    print("\nThe author's own word against the type corpus (PRs typed by their prefix or label):")
    for kind in LABELLED:
        if marked[kind]:
            share = 100 * agree[kind] / marked[kind]
            print(
                f"  {kind:9} {agree[kind]:>3}/{marked[kind]:<3} {share:5.1f}% of them are labelled {LABELLED[kind]}"
            )


if __name__ == "__main__":
    main()
