"""The table of issue 30's robustness probes: tried, survived, tracebacks, wrong silently.

    .venv/bin/python bench/probe_robustness.py            # about five minutes on two cores
    .venv/bin/python bench/probe_robustness.py -n 1       # one process

The probes are the tests of tests/io/test_robustness.py (a user's command against the local GitHub or
the local model server, a real build); this runs them and sorts each outcome: passed is survived,
a traceback where a sentence is due (the test's TracebackSeen, or any exception but an assertion)
is a traceback, a failed assertion is a wrong result with no word of it. Run on an older commit
(with this file, the test module and tests/github_server copied in) to see what it did.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBES = ROOT / "tests" / "io" / "test_robustness.py"
KINDS = ("survived", "traceback", "wrong silently", "skipped")


class Sorter:
    """A pytest plugin that sorts each probe's outcome into KINDS."""

    def __init__(self):
        self.outcomes: dict[str, str] = {}

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.outcomes[report.nodeid.split("::", 1)[1]] = self.kind(report)

    @staticmethod
    def kind(report) -> str:
        if report.skipped:
            return "skipped"
        if report.passed:
            return "survived"
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash else str(report.longrepr)
        # pytest shows a failed `assert` as "assert ..." (or "AssertionError: ..."), anything else by its type
        assertion = message.startswith(("assert ", "AssertionError"))
        return "wrong silently" if assertion and report.when == "call" else "traceback"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", default="2", help="pytest-xdist processes (default 2)")
    args = parser.parse_args(argv)
    sorter = Sorter()
    xdist = ["-n", args.n] if args.n != "1" else []
    pytest.main(
        [
            str(PROBES),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--no-header",
            "-rN",
            *xdist,
        ],
        plugins=[sorter],
    )
    counts = Counter(sorter.outcomes.values())
    width = max(map(len, sorter.outcomes), default=10)
    print()
    for probe, kind in sorted(sorter.outcomes.items()):
        print(f"  {probe:<{width}}  {kind}")
    tried = sum(counts[kind] for kind in KINDS[:3])
    print()
    print("| probes tried | survived | tracebacks | wrong silently | skipped |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| {tried} | {counts['survived']} | {counts['traceback']} | {counts['wrong silently']} | {counts['skipped']} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
