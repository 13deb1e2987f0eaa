"""Each claim rule's precision and recall on its labelled corpus (tests/corpora), per class.

    .venv/bin/python bench/measure_precision.py                        # the table
    .venv/bin/python bench/measure_precision.py --wrong revert.         # and the wrong claims of rules starting so
    .venv/bin/python bench/measure_precision.py --misses tests.         # and the positives they did not claim
    .venv/bin/python bench/measure_precision.py --save before.json      # keep the table
    .venv/bin/python bench/measure_precision.py --against main          # before (the code of main) and after, side by side
    .venv/bin/python bench/measure_precision.py --against before.json   # the same, against a saved table

Analyses every week of verl, ruff and pelican in ../shared/data as a build does, and runs the judges
of tests/precision.py over the labelled PRs. A rule of digest_plugin/analysis/claims.py speaks only
at PRECISION_BAR or above. "held out" is the third of each corpus rules are not tuned on. With
`--against REV` the same judges and corpora measure the code of REV (checked out in a scratch
worktree under /tmp), so that before and after are measured alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _judges(code: Path):
    """tests/precision.py of this checkout, judging the digest_plugin of `code`."""
    sys.path.insert(0, str(code.resolve()))
    spec = importlib.util.spec_from_file_location(
        "precision_judges", ROOT / "tests" / "precision.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["precision_judges"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def measured(code: Path, corpora: Path) -> dict:
    """{"rules": {rule: {class, all: figures, held_out: figures}}, "wrong": [...], "misses": [...]}"""
    judges = _judges(code)
    labels = {name: judges.load_corpus(name, corpora) for name in judges.CLASSES}
    repos = {label["repo"] for corpus in labels.values() for label in corpus}
    index = judges.analysed_index(sorted(repos)) if repos else {}
    rules, wrong, misses = {}, [], []
    for name in judges.CLASSES:
        verdicts = judges.judge(name, labels[name], index)
        every, held = judges.measure(verdicts), judges.measure(verdicts, lambda v: v.held_out)
        for rule in judges.JUDGES[name]:
            rules[rule] = {
                "class": name,
                "all": _figures(every.get(rule)),
                "held_out": _figures(held.get(rule)),
            }
        for v in verdicts:
            row = {"rule": v.rule, "pull": f"{v.repo}#{v.number}", "said": v.said, "why": v.why}
            if v.claimed and not v.right:
                wrong.append(row)
            elif v.positive and not (v.claimed and v.right):
                misses.append(row)
    return {"code": str(code.resolve()), "rules": rules, "wrong": wrong, "misses": misses}


def _figures(figures) -> dict:
    if figures is None:
        return {"labels": 0, "positives": 0, "claims": 0, "right": 0, "found": 0}
    return {
        "labels": figures.labels,
        "positives": figures.positives,
        "claims": figures.claims,
        "right": figures.right,
        "found": figures.found,
    }


def precision(figures: dict) -> float | None:
    return figures["right"] / figures["claims"] if figures["claims"] else None


def recall(figures: dict) -> float | None:
    return figures["found"] / figures["positives"] if figures["positives"] else None


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _row(figures: dict) -> str:
    return (
        f"{figures['claims']:>6} {_percent(precision(figures)):>7} {_percent(recall(figures)):>7}"
    )


def print_table(after: dict, before: dict | None = None) -> None:
    spoken = _spoken()
    head = f"{'rule':32} {'labels':>6} {'pos':>5} " + (
        f"{'BEFORE claims':>13} {'prec':>7} {'recall':>7} {'held':>6} | " if before else ""
    )
    head += f"{'claims':>6} {'prec':>7} {'recall':>7} | {'held-out':>8} {'prec':>7} | speaks"
    current = None
    for rule, row in after["rules"].items():
        if row["class"] != current:
            current = row["class"]
            print(f"\n{current}\n{head}")
        figures, held = row["all"], row["held_out"]
        line = f"{rule:32} {figures['labels']:>6} {figures['positives']:>5} "
        if before:
            old, old_held = (
                before["rules"].get(rule, {}).get("all"),
                before["rules"].get(rule, {}).get("held_out"),
            )
            line += (
                f"{old['claims']:>13} {_percent(precision(old)):>7} {_percent(recall(old)):>7} {_percent(precision(old_held)):>6} | "
                if old
                else f"{'(no rule)':>36} | "
            )
        line += f"{_row(figures)} | {held['claims']:>8} {_percent(precision(held)):>7} | {spoken.get(rule, '?')}"
        print(line)


def _spoken() -> dict[str, str]:
    try:
        from digest_plugin.analysis.claims import CLAIMS
    except ImportError:  # a checkout before claims.py: every rule spoke
        return {}
    return {rule: "yes" if speaks else "no" for rule, speaks in CLAIMS.items()}


def _against(rev: str, corpora: Path) -> dict:
    """The table of a saved JSON file, or of the code of git revision `rev`."""
    if rev.endswith(".json") and Path(rev).exists():
        return json.loads(Path(rev).read_text(encoding="utf-8"))
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if commit.returncode:
        sys.exit(f"--against {rev}: neither a saved table (.json) nor a git revision of {ROOT}.")
    with tempfile.TemporaryDirectory(prefix="precision-") as folder:
        tree = Path(folder) / "code"
        subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "worktree",
                "add",
                "--detach",
                "--quiet",
                str(tree),
                commit.stdout.strip(),
            ],
            check=True,
        )
        try:
            saved = Path(folder) / "table.json"
            subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--code",
                    str(tree),
                    "--corpora",
                    str(corpora),
                    "--save",
                    str(saved),
                    "--quiet",
                ],
                check=True,
            )
            return json.loads(saved.read_text(encoding="utf-8"))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="the checkout whose digest_plugin is measured (default: this one)",
    )
    parser.add_argument(
        "--corpora",
        type=Path,
        default=ROOT / "tests" / "corpora",
        help="the folder of the labelled corpora",
    )
    parser.add_argument(
        "--against",
        metavar="REV|FILE.json",
        help="print this revision's (or saved) table beside the current one",
    )
    parser.add_argument("--save", type=Path, metavar="FILE", help="write the table as JSON")
    parser.add_argument(
        "--wrong",
        metavar="PREFIX",
        help="list the wrong claims of the rules whose name starts with PREFIX",
    )
    parser.add_argument(
        "--misses",
        metavar="PREFIX",
        help="list the positives that rules whose name starts with PREFIX did not claim",
    )
    parser.add_argument("--quiet", action="store_true", help="print nothing (with --save)")
    args = parser.parse_args()
    if not (ROOT.parent / "shared" / "data").exists():
        sys.exit(f"The real data is absent: {ROOT.parent / 'shared' / 'data'}.")
    before = _against(args.against, args.corpora) if args.against else None
    after = measured(args.code, args.corpora)
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(after, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.quiet:
        return
    print(f"code measured: {after['code']}" + (f"; before: {before['code']}" if before else ""))
    print_table(after, before)
    for flag, key in ((args.wrong, "wrong"), (args.misses, "misses")):
        if flag is not None:
            rows = [r for r in after[key] if r["rule"].startswith(flag)]
            print(
                f"\n{len(rows)} {'wrong claims' if key == 'wrong' else 'misses'} of rules starting with {flag!r}:"
            )
            for r in rows:
                print(
                    f"  {r['rule']:28} {r['pull']:28} said: {r['said'][:60]!r}\n      label: {r['why'][:300]}"
                )


if __name__ == "__main__":
    main()
