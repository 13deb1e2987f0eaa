"""How many PRs are key, per repository: with the fixed bar of before (importance 6.0) and with the
bar relative to the repository's own weeks (the default, analysis/key.py).

    .venv/bin/python bench/measure_key_changes.py                 # imports ../shared/data into a temporary store
    .venv/bin/python bench/measure_key_changes.py --store DATA    # an existing store (DIGEST_DATA_PATH)

For each repository: its PRs, the share of them that are key, its busiest week (the most PRs
merged) and that week's key PRs, and the most key PRs of any week.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure_words import REPOS, import_store  # noqa: E402  (the three exports, imported by the command line)

from digest_plugin.analysis.key import KEY_FLOOR  # noqa: E402
from digest_plugin.publish.history import analysis_options, load_weeks  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.folder import Store  # noqa: E402


def measure(store: Store, repo: str, threshold: float | None) -> tuple[int, int, str, int, int]:
    """(PRs, key PRs, the busiest week, its key PRs, the most key PRs of a week)."""
    weeks = load_weeks(
        store,
        repo,
        analysis_options(DigestSettings(data_path=store.root, key_threshold=threshold)),
        store.data_time([repo]),
    )
    busiest = max(weeks, key=lambda w: (w.stats.merged_count, w.week))
    return (
        sum(w.stats.merged_count for w in weeks),
        sum(w.stats.key_count for w in weeks),
        busiest.week,
        busiest.stats.key_count,
        max(w.stats.key_count for w in weeks),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store",
        type=Path,
        help="a store holding the three repositories (default: import ../shared/data)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="measure-key-") as folder:
        store = Store(args.store if args.store else import_store(Path(folder)).parent / "data")
        print(
            f"| repository | PRs | key, fixed {KEY_FLOOR:g} | key, relative | busiest week | its key PRs, fixed → relative | most key PRs of a week |"
        )
        print("| --- | ---: | ---: | ---: | --- | ---: | ---: |")
        for repo in REPOS:
            count, fixed, busiest, fixed_busiest, fixed_most = measure(store, repo, KEY_FLOOR)
            _, relative, _, relative_busiest, relative_most = measure(store, repo, None)
            print(
                f"| {repo} | {count:,} | {fixed:,} ({fixed / count:.1%}) | {relative:,} ({relative / count:.1%}) | {busiest} | "
                f"{fixed_busiest} → {relative_busiest} | {fixed_most} → {relative_most} |"
            )
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
