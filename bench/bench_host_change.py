"""What a change to a host site's own settings costs the digest: one command, three figures.

    .venv/bin/python bench/bench_host_change.py [--data DIR]

Builds the project's site from a store (default: the bundled sample, data/) with PDFs, in a
scratch folder, with real `pelican` runs in fresh processes: cold, then warm with nothing changed,
then warm after a LINKS entry and another plugin's setting were added to the settings file, a
change the digest's pages, report texts and PDFs do not show. The last should cost what the
warm build costs; it prints the seconds of each and how many PDFs each drew.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PELICAN = Path(sys.executable).parent / "pelican"
SETTINGS = """\
import sys
sys.path.insert(0, {root!r})
from pelicanconf import *  # the project's own site settings
CACHE_PATH = {cache!r}
DIGEST_DATA_PATH = {data!r}
DIGEST_FETCH = "never"
DIGEST_PDF = True
"""
HOST_CHANGE = 'LINKS = (("Pelican", "https://getpelican.com/"),)\nSITEMAP = {"format": "xml"}\n'


def build(folder: Path) -> tuple[float, int]:
    """Seconds of one build, and how many PDFs it drew (from its debug log)."""
    start = time.perf_counter()
    done = subprocess.run(
        [
            str(PELICAN),
            str(ROOT / "content"),
            "-o",
            str(folder / "output"),
            "-s",
            str(folder / "settings.py"),
            "-t",
            str(ROOT / "theme"),
            "--debug",
        ],
        capture_output=True,
        text=True,
        env={"COLUMNS": "1000", "PATH": ""},
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(done.stdout[-2000:] + done.stderr[-2000:])
    drawn = [line for line in done.stdout.splitlines() if "PDFs drawn" in line]
    return seconds, int(drawn[0].split("repo-digest: ")[1].split()[0]) if drawn else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT / "data",
        help="the store to build (default: the bundled sample)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        shutil.copytree(args.data, folder / "data")
        settings = SETTINGS.format(
            root=str(ROOT), cache=str(folder / "cache"), data=str(folder / "data")
        )
        (folder / "settings.py").write_text(settings)
        rows = [("cold", *build(folder)), ("warm, nothing changed", *build(folder))]
        (folder / "settings.py").write_text(settings + HOST_CHANGE)
        rows.append(("warm, a LINKS entry and another plugin's setting added", *build(folder)))
    print(f"{'build':<56} {'seconds':>8} {'PDFs drawn':>11}")
    for name, seconds, drawn in rows:
        print(f"{name:<56} {seconds:>8.1f} {drawn:>11}")


if __name__ == "__main__":
    main()
