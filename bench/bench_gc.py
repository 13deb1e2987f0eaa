"""Whether holding Python's full garbage collections during a build pays (build/gc_pause.py): warm
builds of one store, each in a fresh process, with the hold and without it, taking turns.

    .venv/bin/python bench/bench_gc.py [--repo ruff] [--sample 2x520x40] [--rounds 3] [--keep DIR]

The store is a real repository of ../shared/data (default ruff) or, with `--sample`, a synthetic one
(`repo-digest sample`). One cold build fills the cache (no PDFs); then each round builds once with
the hold (Pelican as it runs), once with `gc_pause`'s calls made to do nothing, and once held but
with nothing frozen at the exit. Printed: the build process's own CPU seconds and wall seconds
(exit included; the fastest of the rounds), and the share of CPU the hold saves.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench_build import (
    BIN,
    DATA,
    REPOS,
    Run,
    Site,
    fastest,
    read_export,
    run,
    sample_pulls,
    sample_size,
)

PELICAN = "import sys\nfrom pelican import main\nsys.argv[0] = 'pelican'\nmain()\n"
UNHELD = (
    "from digest_plugin.build import gc_pause\n"
    "gc_pause.start_build = gc_pause.end_build = lambda: None\n"
) + PELICAN
# the hold without freezing what is left at the interpreter's exit
UNFROZEN = (
    "import atexit, gc, sys\nfrom pelican import main\nsys.argv[0] = 'pelican'\n"
    "try:\n    main()\nfinally:\n    atexit.unregister(gc.freeze)\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", choices=sorted(REPOS), default="ruff", help="a real repository (default ruff)"
    )
    parser.add_argument(
        "--sample", type=sample_size, metavar="REPOSxWEEKSxPRS", help="a synthetic store instead"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="warm builds of each kind (default 3)"
    )
    parser.add_argument(
        "--keep", type=Path, help="work in this folder and keep it (default: a temporary one)"
    )
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-gc-"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    site = Site(work / "site", language="en", pdfs=False)
    if args.sample:
        for repo, pulls in sample_pulls(work / "sample", args.sample).items():
            site.import_pulls(repo, pulls)
        name = "x".join(map(str, args.sample))
    else:
        site.import_pulls(REPOS[args.repo][0], read_export(DATA / REPOS[args.repo][1]))
        name = args.repo
    build(PELICAN, site)  # cold: fills the cache
    kinds = {"held": PELICAN, "not held": UNHELD, "held, not frozen": UNFROZEN}
    runs: dict[str, list[Run]] = {kind: [] for kind in kinds}
    for _ in range(args.rounds):
        for kind, code in kinds.items():
            runs[kind].append(build(code, site))
    print(
        f"{name}: warm builds, fastest of {args.rounds}; load average {os.getloadavg()[0]:.1f}, "
        f"{len(os.sched_getaffinity(0))} cores"
    )
    print(f"{'full collections':20}{'CPU s':>8}{'wall s':>8}")
    for kind, measured in runs.items():
        cpu = min(r.cpu_seconds for r in measured)
        print(f"{kind:20}{cpu:8.2f}{fastest(measured).seconds:8.2f}")
    held, unheld = (min(r.cpu_seconds for r in runs[k]) for k in ("held", "not held"))
    print(f"the hold saves {100 * (unheld - held) / unheld:.0f}% of a warm build's CPU")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


def build(code: str, site: Site) -> Run:
    return run(
        [
            str(BIN / "python"),
            "-c",
            code,
            str(site.content),
            "-o",
            str(site.output),
            "-s",
            str(site.settings),
        ],
        site.folder,
    )


if __name__ == "__main__":
    sys.exit(main())
