"""Benchmark of the analysis stage: every week of the three real repositories in one process.

    .venv/bin/python bench/bench_analysis.py                 # weeks per second and peak memory
    .venv/bin/python bench/bench_analysis.py --calibration   # the tables of docs/calibration.md

Reads ../shared/data (outside the project); loading the exports is timed apart from analysing.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.analysis import analyse_repo  # noqa: E402
from digest_plugin.analysis.model import GOOD_NEWS_KINDS, RISK_KINDS  # noqa: E402
from digest_plugin.analysis.rules import compile_rules  # noqa: E402
from digest_plugin.publish.history import analysis_options  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.jsonl_import import read_export  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "github"
REPOS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def load() -> dict:
    missing = [name for name in REPOS.values() if not (DATA / name).exists()]
    if missing:
        sys.exit(f"The real data is absent: {DATA} should hold {', '.join(missing)}.")
    return {repo: list(read_export(DATA / name)) for repo, name in REPOS.items()}


def bench(pulls_by_repo: dict, rounds: int) -> None:
    settings = analysis_options(DigestSettings())
    # CPU time of this process, best of `rounds`: other work on the machine does not inflate it
    print(
        f"{'repository':22} {'PRs':>6} {'weeks':>6} {'CPU s':>8} {'wall s':>8} {'weeks/s':>8} {'PRs/s':>8}"
    )
    total_weeks = total_seconds = total_wall = 0.0
    for repo, pulls in pulls_by_repo.items():
        best = best_wall = float("inf")
        for _ in range(rounds):
            started, started_wall = time.process_time(), time.perf_counter()
            weeks = analyse_repo(repo, pulls, None, settings, NOW)
            best = min(best, time.process_time() - started)
            best_wall = min(best_wall, time.perf_counter() - started_wall)
        total_weeks += len(weeks)
        total_seconds += best
        total_wall += best_wall
        print(
            f"{repo:22} {len(pulls):6} {len(weeks):6} {best:8.2f} {best_wall:8.2f} {len(weeks) / best:8.0f} {len(pulls) / best:8.0f}"
        )
    print(
        f"{'all three':22} {sum(map(len, pulls_by_repo.values())):6} {int(total_weeks):6} {total_seconds:8.2f} {total_wall:8.2f} {total_weeks / total_seconds:8.0f}"
    )

    tracemalloc.start()
    for repo, pulls in pulls_by_repo.items():
        analyse_repo(repo, pulls, None, settings, NOW)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"peak memory allocated while analysing all three (tracemalloc, records excluded): {peak / 2**20:.1f} MiB"
    )


def adversarial() -> None:
    """Untrusted text built to make regular expressions backtrack: time per 10,000-character body."""
    from tests.analysis_fixtures import summarise

    bodies = {
        "unclosed brackets": "[" * 10_000,
        "unclosed links": "[a](" * 2_500,
        "unclosed bold": "**a " * 2_500,
        "unclosed tags": "<a" * 5_000,
        "bare URLs in parentheses": "(http://" * 1_250,
        "unclosed comments": "<!--" * 2_500,
    }
    worst = 0.0
    for body in bodies.values():
        started = time.process_time()
        summarise(body, "title")
        worst = max(worst, time.process_time() - started)
    titles = {"repeated verbs": "update to " * 1_000, "unclosed brackets": "[" * 10_000}
    from digest_plugin.analysis.classify import classify
    from digest_plugin.records.pull import Author, FileChange, Pull

    rules = compile_rules(analysis_options(DigestSettings()).rules)
    for title in titles.values():
        pull = Pull(1, title, "", Author("x"), NOW, files=(FileChange("a.py", 1, 1),))
        started = time.process_time()
        classify(pull, rules)
        worst = max(worst, time.process_time() - started)
    print(
        f"slowest adversarial body or title ({len(bodies) + len(titles)} tried): {worst * 1000:.1f} ms CPU"
    )


def calibration(pulls_by_repo: dict) -> None:
    """Markdown tables: score distribution, key PRs per week, factor usage, type shares."""
    settings = analysis_options(DigestSettings())
    bins = [(0, 2), (2, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 10.01)]
    print(
        "| repository | PRs | weeks | "
        + " | ".join(f"{lo:g}-{min(hi, 10):g}" for lo, hi in bins)
        + " | key share |"
    )
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in bins) + " | ---: |")
    per_week = {}
    factors = {}
    types = {}
    all_weeks = {}
    for repo, pulls in pulls_by_repo.items():
        weeks = all_weeks[repo] = analyse_repo(repo, pulls, None, settings, NOW)
        scores = [p.score.value for w in weeks for p in w.pulls]
        counts = [sum(1 for s in scores if lo <= s < hi) for lo, hi in bins]
        key = sum(1 for w in weeks for p in w.pulls if p.key)
        print(
            f"| {repo} | {len(scores)} | {len(weeks)} | "
            + " | ".join(f"{100 * c / len(scores):.0f}%" for c in counts)
            + f" | {100 * key / len(scores):.0f}% |"
        )
        active = [w for w in weeks if w.stats.merged_count]
        per_week[repo] = [(w.stats.merged_count, w.stats.key_count) for w in active]
        factors[repo] = Counter(name for w in weeks for p in w.pulls for name, _ in p.score.factors)
        types[repo] = Counter(p.classification.type or "none" for w in weeks for p in w.pulls)

    print(
        "\n| repository | weeks with PRs | merged per week (median) | key per week: median | p90 | max | weeks with no key PR |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for repo, rows in per_week.items():
        keys = sorted(k for _, k in rows)
        p90 = keys[max(0, int(0.9 * len(keys)) - 1)]
        print(
            f"| {repo} | {len(rows)} | {statistics.median(m for m, _ in rows):g} | {statistics.median(keys):g} | {p90} | {keys[-1]} | {sum(1 for k in keys if k == 0)} |"
        )

    print("\n| repository | key per week (median) at threshold 5.0 | 5.5 | 6.0 | 6.5 | 7.0 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for repo, weeks in all_weeks.items():
        active = [w for w in weeks if w.stats.merged_count]
        medians = [
            statistics.median(sum(1 for p in w.pulls if p.score.value >= t) for w in active)
            for t in (5.0, 5.5, 6.0, 6.5, 7.0)
        ]
        print(f"| {repo} | " + " | ".join(f"{m:g}" for m in medians) + " |")

    print("\n| factor | " + " | ".join(REPOS) + " |")
    print("| --- | " + " | ".join("---:" for _ in REPOS) + " |")
    names = sorted(
        {n for c in factors.values() for n in c}, key=lambda n: -sum(c[n] for c in factors.values())
    )
    for name in names:
        print(
            f"| {name} | "
            + " | ".join(f"{100 * factors[r][name] / sum(types[r].values()):.0f}%" for r in REPOS)
            + " |"
        )

    print("\n| type | " + " | ".join(REPOS) + " |")
    print("| --- | " + " | ".join("---:" for _ in REPOS) + " |")
    for name in sorted(
        {n for c in types.values() for n in c}, key=lambda n: -sum(c[n] for c in types.values())
    ):
        print(
            f"| {name} | "
            + " | ".join(f"{100 * types[r][name] / sum(types[r].values()):.1f}%" for r in REPOS)
            + " |"
        )

    print(
        "\n| risk kind | "
        + " | ".join(f"{r}: PRs | weeks | high | medium | low" for r in REPOS)
        + " |"
    )
    print("| --- | " + " | ".join("---: | ---: | ---: | ---: | ---:" for _ in REPOS) + " |")
    for kind in (*RISK_KINDS, *GOOD_NEWS_KINDS):
        cells = []
        for repo, weeks in all_weeks.items():
            prs = sum(
                1
                for w in weeks
                for p in w.pulls
                if kind in p.risks or any(e.kind == kind for e in p.evidence)
            )
            active = [w for w in weeks if w.pulls]
            shown = [r for w in active for r in (*w.risks, *w.good_news) if r.kind == kind]
            impacts = Counter(r.impact for r in shown)
            cells.append(
                f"{100 * prs / sum(types[repo].values()):.1f}% | {100 * len(shown) / len(active):.0f}% | "
                + " | ".join(str(impacts[i]) for i in ("high", "medium", "low"))
            )
        print(f"| {kind} | " + " | ".join(cells) + " |")
    spread(all_weeks)

    weights = compile_rules(analysis_options(DigestSettings()).rules).weights
    print(
        "\nweights:",
        {f.name: getattr(weights, f.name) for f in dataclasses.fields(weights) if f.name != "type"},
        "type:",
        dict(weights.type),
    )


def spread(all_weeks: dict) -> None:
    """How far a week's standouts stand above the rest, over weeks of 10 PRs or more (medians)."""
    print(
        "\n| repository | weeks of 10+ PRs | score s.d. in a week | top 1 minus top 5 | top 3 mean minus week median | weeks with equal scores in the top 5 |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for repo, weeks in all_weeks.items():
        busy = [[p.score.value for p in w.pulls] for w in weeks if len(w.pulls) >= 10]
        if not busy:
            continue
        sd = statistics.median(statistics.pstdev(s) for s in busy)
        gap = statistics.median(s[0] - s[4] for s in busy)
        lead = statistics.median(statistics.mean(s[:3]) - statistics.median(s) for s in busy)
        ties = sum(1 for s in busy if len(set(s[:5])) < 5) / len(busy)
        print(f"| {repo} | {len(busy)} | {sd:.2f} | {gap:.1f} | {lead:.2f} | {100 * ties:.0f}% |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--calibration", action="store_true", help="print the calibration tables instead"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="timed rounds per repository (the best is kept)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    pulls_by_repo = load()
    print(
        f"loaded {sum(map(len, pulls_by_repo.values()))} PRs in {time.perf_counter() - started:.2f} s (not counted below)"
    )
    if args.calibration:
        calibration(pulls_by_repo)
    else:
        bench(pulls_by_repo, args.rounds)
        adversarial()


if __name__ == "__main__":
    main()
