"""Whole-site build time against vanilla Pelican, on real repositories: one command, one table.

    .venv/bin/python bench/bench_build.py [--repo ruff] [--repo verl] [--sample 10x260x80] [--no-double] [--targets-only] [--keep DIR]

For each repository of ../shared/data it imports the store into a scratch folder (or, with
`--sample REPOSxWEEKSxPRS`, writes a synthetic store with `repo-digest sample`) and times real
`pelican` runs of the project's settings and theme, each in a fresh process:

- cold: empty output and cache folders, then the search index (Pagefind), as `make html` builds
  a site (once more with DIGEST_PDF off and no index, since PDFs are most of it); a synthetic
  store is built without PDFs throughout (2,600 weeks of them would take most of an hour);
- warm: the same build again, nothing changed (the fastest of three, taking turns with the
  baseline's three);
- new week: the store without its last week, built, then the last week imported and built again;
- note: an editor's note added to the last complete week (where the plugin reads notes);
- language: DIGEST_LANGUAGE switched to zh, a change that touches every page;
- half: the first half of the history, cold and warm, to show how time grows with the data.

The baseline, in the same run: vanilla Pelican (no plugin, its default theme, the same feeds)
building one Markdown article per week from that week's own `digest.md`, so our overhead is a
ratio rather than a time that drifts with the machine. Peak RSS is the build process's own. The
biggest label and author pages are measured after the cold build. Last, each figure that has a
target (TARGETS) is printed beside it, met or not.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "github"
BIN = Path(sys.executable).parent
REPOS = {
    "ruff": ("astral-sh/ruff", "astral-sh__ruff.pulls.jsonl.gz"),
    "verl": ("verl-project/verl", "verl-project__verl.pulls.jsonl.gz"),
    "pelican": ("getpelican/pelican", "getpelican__pelican.pulls.jsonl.gz"),
}
# What the project holds its builds to, by kind of store: (build or page, measure, at most). The
# ratios are to vanilla Pelican's warm build in the same run.
TARGETS = {
    "real": [
        ("cold, search index too", "ratio", 10),
        ("cold, without PDFs", "ratio", 3),
        ("warm, nothing changed", "ratio", 1),
        ("biggest label page", "KB", 200),
    ],
    "synthetic": [
        ("warm, nothing changed", "ratio", 0.25),
        ("one new week", "ratio", 0.25),
        ("cold, without PDFs", "seconds", 240),
        ("cold, without PDFs", "peak MiB", 1024),
        ("biggest label page", "KB", 200),
        ("biggest author page", "KB", 200),
    ],
}
WEEK_FOLDER = re.compile(r"\d{4}-W\d{2}$")
PROFILE_TIME = re.compile(r"^[\s│├└─]*(\d+\.\d+) ")  # a frame's seconds in pyinstrument's text tree

SITE_SETTINGS = """\
import sys
sys.path.insert(0, {root!r})
from pelicanconf import *  # the project's own site settings
PATH = {content!r}
THEME = {theme!r}
CACHE_PATH = {cache!r}
DIGEST_DATA_PATH = {data!r}
DIGEST_FETCH = "never"
DIGEST_LANGUAGE = {language!r}
"""

VANILLA_SETTINGS = """\
SITENAME = "Vanilla baseline"
PLUGINS = []  # not even the plugins Pelican would find installed (this one is, as pelican.plugins.repo_digest)
PATH = {content!r}
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
RELATIVE_URLS = True
FEED_ALL_ATOM = "feeds/all.atom.xml"
FEED_ALL_RSS = "feeds/all.rss.xml"
CATEGORY_FEED_ATOM = "feeds/{{slug}}.atom.xml"
CATEGORY_FEED_RSS = "feeds/{{slug}}.rss.xml"
FEED_MAX_ITEMS = 20
DEFAULT_PAGINATION = 10
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", action="append", choices=sorted(REPOS), help="repositories (default: ruff)"
    )
    parser.add_argument(
        "--sample",
        action="append",
        type=sample_size,
        default=[],
        metavar="REPOSxWEEKSxPRS",
        help="a synthetic store of that size (repo-digest sample), e.g. 10x260x80",
    )
    parser.add_argument("--no-double", action="store_true", help="skip the half-history builds")
    parser.add_argument(
        "--targets-only",
        action="store_true",
        help="only the builds that have a target: no note, language or half-history builds",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also profile a warm build (pyinstrument) and print where its time goes",
    )
    parser.add_argument(
        "--keep", type=Path, help="work in this folder and keep it (default: a temporary one)"
    )
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is absent: the benchmark needs ../shared/data beside the checkout.")

    rows: list[Row] = []
    stores = [(key, REPOS[key][1], None) for key in args.repo or ([] if args.sample else ["ruff"])]
    stores += [("x".join(map(str, size)), None, size) for size in args.sample]
    for key, filename, size in stores:
        work = args.keep / key if args.keep else Path(tempfile.mkdtemp(prefix=f"bench-{key}-"))
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        pulls = read_export(DATA / filename) if filename else sample_pulls(work / "sample", size)
        rows += bench_store(
            key,
            pulls,
            work,
            double=not (args.no_double or args.targets_only),
            profile=args.profile,
            others=not args.targets_only,
        )
        print_table(rows)  # so far: a long run shows its figures as they come
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print_table(rows)
    print_targets(rows)


def sample_size(text: str) -> tuple[int, int, int]:
    repos, weeks, prs = (int(part) for part in text.lower().split("x"))
    return repos, weeks, prs


def sample_pulls(folder: Path, size: tuple[int, int, int]) -> dict[str, list[dict]]:
    """A synthetic store (`repo-digest sample --repos --weeks --prs-per-week`) as export records by repository."""
    folder.mkdir(parents=True)
    (folder / "settings.py").write_text('DIGEST_DATA_PATH = "data"\n')
    repos, weeks, prs = size
    run(
        [
            str(BIN / "repo-digest"),
            "sample",
            "--settings",
            "settings.py",
            "--repos",
            str(repos),
            "--weeks",
            str(weeks),
            "--prs-per-week",
            str(prs),
        ],
        folder,
    )
    sys.path.insert(0, str(ROOT))
    from digest_plugin.store.folder import Store

    store = Store(folder / "data")
    return {repo: [export_record(p) for p in store.read_pulls(repo)] for repo in store.repos()}


def export_record(pull) -> dict:
    """A stored pull as the GitHub REST pull object `repo-digest import` reads."""
    return {
        "number": pull.number,
        "title": pull.title,
        "body": pull.body,
        "html_url": pull.url,
        "user": {"login": pull.author.login, "type": pull.author.type},
        "author_association": pull.author.association,
        "labels": [{"name": name} for name in pull.labels],
        "created_at": iso(pull.created_at),
        "merged_at": iso(pull.merged_at),
        "additions": pull.additions,
        "deletions": pull.deletions,
        "changed_files": pull.changed_files,
        "comments": pull.comments,
        "commits": pull.commits,
        "files": [
            {
                "filename": f.path,
                "additions": f.additions,
                "deletions": f.deletions,
                "status": f.status,
            }
            for f in pull.files
        ],
    }


def iso(moment) -> str | None:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def bench_store(
    key: str,
    pulls: list[dict] | dict[str, list[dict]],
    work: Path,
    double: bool,
    profile: bool = False,
    others: bool = True,
) -> list[Row]:
    """The builds of one store: `pulls` are export records, of one repository (`key`'s) or by repository."""
    by_repo = pulls if isinstance(pulls, dict) else {REPOS[key][0]: pulls}
    last_week = max(week_of(p) for repo_pulls in by_repo.values() for p in repo_pulls)
    first_repo = next(iter(by_repo))
    pdfs = key in REPOS  # a synthetic store is built without PDFs
    rows = []

    site = Site(work / "site", language="en", pdfs=pdfs)
    for repo, repo_pulls in by_repo.items():  # the new week: in the first repository only
        site.import_pulls(
            repo, [p for p in repo_pulls if week_of(p) != last_week or repo != first_repo]
        )
    site.build()  # the store without its last week, built once: the "new week" starts from here
    site.import_pulls(first_repo, by_repo[first_repo])
    new_week = site.build()
    site.clean()
    cold_without_pdfs = site.build("DIGEST_PDF=false")
    if pdfs:
        site.clean()
        cold = site.build().then(
            site.index()
        )  # as `make html` builds a site: the search index included
    else:
        cold = cold_without_pdfs.then(site.index())
    weeks = site.week_count()
    label, author = biggest_page(site.output / "labels"), biggest_page(site.output / "authors")
    if profile:
        print(
            f"Where a warm build of {key} spends its time (pyinstrument; frames from 3% of the total):"
        )
        print(site.profile())
    # Warm and vanilla builds take turns, so that a slower spell of a shared machine slows both.
    vanilla = Vanilla(site.output, work / "vanilla")
    warm_runs, vanilla_runs = [], []
    for _ in range(3):
        warm_runs.append(site.build())
        vanilla_runs.append(vanilla.build())
    baseline, warm = fastest(vanilla_runs), fastest(warm_runs)
    rows += [
        Row(key, "vanilla Pelican (baseline)", baseline, baseline, weeks),
        Row(
            key,
            "cold, search index too" if pdfs else "cold, search index too, no PDFs",
            cold,
            baseline,
            weeks,
        ),
        Row(key, "cold, without PDFs", cold_without_pdfs, baseline, weeks),
        Row(key, "warm, nothing changed", warm, baseline, weeks),
        Row(key, "one new week", new_week, baseline, weeks),
        Row(key, "biggest label page", Run(0, 0, 0), baseline, weeks, size=label[1], note=label[0]),
        Row(
            key,
            "biggest author page",
            Run(0, 0, 0),
            baseline,
            weeks,
            size=author[1],
            note=author[0],
        ),
    ]
    note = site.add_note(first_repo) if others else None
    if note is not None:
        rows.append(Row(key, "editor's note added", note, baseline, weeks))
    if others:
        site.set_language("zh")
        rows.append(Row(key, "language changed to zh", site.build(), baseline, weeks))
    rows.append(
        Row(key, "output", Run(0, 0, 0), baseline, weeks, note=f"{du(site.output) / 2**20:.0f} MiB")
    )

    if double:
        half = Site(work / "half", language="en", pdfs=pdfs)
        for repo, repo_pulls in by_repo.items():
            weeks_sorted = sorted({week_of(p) for p in repo_pulls})
            first_half = set(weeks_sorted[: len(weeks_sorted) // 2])
            half.import_pulls(repo, [p for p in repo_pulls if week_of(p) in first_half])
        half_cold = half.build()
        half_weeks = half.week_count()
        half_warm = fastest([half.build() for _ in range(3)])
        # Here the ratio is the full history's time over the half's: about 2 when growth is linear.
        rows.append(
            Row(key, "half the history, cold", half_cold, half_cold, half_weeks, growth_of=cold)
        )
        rows.append(
            Row(key, "half the history, warm", half_warm, half_warm, half_weeks, growth_of=warm)
        )
    return rows


@dataclass
class Row:
    repo: str
    what: str
    run: Run
    against: Run
    weeks: int
    growth_of: Run | None = None
    size: int = 0  # bytes, for a row that measures a page rather than a build
    note: str = ""

    def ratios(self) -> tuple[float, float]:
        """(wall, CPU) over the baseline, or the full history's over this half's."""
        top, bottom = (self.growth_of, self.run) if self.growth_of else (self.run, self.against)
        return top.seconds / bottom.seconds, top.cpu_seconds / max(bottom.cpu_seconds, 1e-9)


@dataclass
class Run:
    seconds: float
    # the build process's own CPU, steadier than wall time on a busy machine; the workers that draw
    # charts and PDFs come from a fork server and are not counted: a build that draws is read by its wall time
    cpu_seconds: float
    rss_kib: int

    @property
    def rss_mib(self) -> float:
        return self.rss_kib / 1024

    def then(self, other: Run) -> Run:
        """This run followed by `other`, as one."""
        return Run(
            self.seconds + other.seconds,
            self.cpu_seconds + other.cpu_seconds,
            max(self.rss_kib, other.rss_kib),
        )


def run(command: list[str], cwd: Path) -> Run:
    """Run one build in a fresh process; its wall time and its own peak RSS."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed:\n{output.decode(errors='replace')[-3000:]}")
    measured = Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
    print(
        f"  {Path(command[0]).name} {command[1] if len(command) > 1 else ''}: {measured}",
        file=sys.stderr,
        flush=True,
    )
    return measured


class Site:
    """A scratch copy of the project's site: its own store, content, cache and output folders."""

    def __init__(self, folder: Path, language: str, pdfs: bool = True):
        self.folder = folder
        self.pdfs = pdfs
        self.content = folder / "content"
        self.output = folder / "output"
        self.cache = folder / "cache"
        self.data = folder / "data"
        shutil.copytree(ROOT / "content", self.content, ignore=shutil.ignore_patterns("notes"))
        self.set_language(language)

    def set_language(self, language: str) -> None:
        self.settings = self.folder / "settings.py"
        self.settings.write_text(
            SITE_SETTINGS.format(
                root=str(ROOT),
                content=str(self.content),
                theme=str(ROOT / "theme"),
                cache=str(self.cache),
                data=str(self.data),
                language=language,
            )
            + ("" if self.pdfs else "DIGEST_PDF = False\n")
        )

    def import_pulls(self, repo: str, pulls: list[dict]) -> None:
        export = self.folder / "export.jsonl"
        export.write_text("".join(json.dumps(p) + "\n" for p in pulls))
        run(
            [
                str(BIN / "repo-digest"),
                "import",
                str(export),
                "--repo",
                repo,
                "--settings",
                str(self.settings),
            ],
            self.folder,
        )

    def build(self, *settings: str) -> Run:
        """One `pelican` run; `settings` as its -e takes them ("DIGEST_PDF=false")."""
        extra = ["-e", *settings] if settings else []
        return run(
            [
                str(BIN / "pelican"),
                str(self.content),
                "-o",
                str(self.output),
                "-s",
                str(self.settings),
                *extra,
            ],
            self.folder,
        )

    def index(self) -> Run:
        """The search index over the built site (Pagefind, with the project's pagefind.yml), as `make html` runs it."""
        return run(
            [str(BIN / "python"), "-m", "pagefind", "--quiet", "--site", str(self.output)], ROOT
        )

    def profile(self, share: float = 0.03) -> str:
        """A warm build under pyinstrument: its call tree, cut to the frames that take `share` of the time or more."""
        report = self.folder / "profile.txt"
        run(
            [
                str(BIN / "pyinstrument"),
                "-r",
                "text",
                "-o",
                str(report),
                str(BIN / "pelican"),
                str(self.content),
                "-o",
                str(self.output),
                "-s",
                str(self.settings),
            ],
            self.folder,
        )
        lines = report.read_text().splitlines()
        total = next(float(m[1]) for line in lines if (m := PROFILE_TIME.search(line)))
        return "\n".join(
            line
            for line in lines
            if (m := PROFILE_TIME.search(line)) and float(m[1]) >= share * total
        )

    def clean(self) -> None:
        shutil.rmtree(self.output, ignore_errors=True)
        shutil.rmtree(self.cache, ignore_errors=True)

    def week_count(self) -> int:
        return sum(
            1
            for path in self.output.glob("*/*/*")
            if path.is_dir() and WEEK_FOLDER.match(path.name)
        )

    def add_note(self, repo: str) -> Run | None:
        """An editor's note on the last complete week, where the plugin supports notes."""
        if not (ROOT / "content" / "notes").exists():
            return None
        weeks = sorted(
            path.name for path in (self.output / repo).iterdir() if WEEK_FOLDER.match(path.name)
        )
        note = self.content / "notes" / repo / f"{weeks[-2]}.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text(f"Title: Editor's note\n\nA word from the maintainers about {weeks[-2]}.\n")
        return self.build()


class Vanilla:
    """Vanilla Pelican building one article per week from that week's digest.md."""

    def __init__(self, site_output: Path, folder: Path):
        content = folder / "content"
        content.mkdir(parents=True)
        for index, markdown in enumerate(sorted(site_output.glob("*/*/*/digest.md"))):
            repo = f"{markdown.parts[-4]}/{markdown.parts[-3]}"
            date = datetime(2000, 1, 1, tzinfo=UTC) + timedelta(days=7 * index)
            body = markdown.read_text()
            (content / f"{index:05d}.md").write_text(
                f"Title: {repo} {markdown.parts[-2]}\nDate: {date:%Y-%m-%d}\nCategory: {repo.replace('/', '-')}\n\n{body}"
            )
        settings = folder / "settings.py"
        settings.write_text(VANILLA_SETTINGS.format(content=str(content)))
        self.folder = folder
        self.command = [
            str(BIN / "pelican"),
            str(content),
            "-o",
            str(folder / "output"),
            "-s",
            str(settings),
        ]

    def build(self) -> Run:
        return run(self.command, self.folder)


def biggest_page(folder: Path) -> tuple[str, int]:
    """The largest page of one label or author under `folder` (not the list of them all), as (its path, its size)."""
    sizes = [
        (path.relative_to(folder.parent).as_posix(), path.stat().st_size)
        for path in folder.glob("*/index*.html")
    ]
    return max(sizes, key=lambda item: item[1], default=("none", 0))


def fastest(runs: list[Run]) -> Run:
    """The run least slowed by the rest of a shared machine."""
    return min(runs, key=lambda r: r.seconds)


def du(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def read_export(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def week_of(pull: dict) -> str:
    year, week, _ = datetime.fromisoformat(pull["merged_at"].replace("Z", "+00:00")).isocalendar()
    return f"{year}-W{week:02d}"


def print_table(rows: list[Row]) -> None:
    print(
        f"{'store':8} {'build':28} {'wall s':>7} {'main CPU':>8} {'ratio wall':>10} {'ratio CPU':>9} {'weeks':>6} {'weeks/s':>8} {'peak RSS MiB':>12}"
    )
    for row in rows:
        if not row.run.seconds:  # a measure, not a build
            print(
                f"{row.repo:8} {row.what}: "
                + (f"{row.size / 1000:.0f} KB, {row.note}" if row.size else row.note)
            )
            continue
        wall, cpu = row.ratios()
        print(
            f"{row.repo:8} {row.what:28} {row.run.seconds:7.1f} {row.run.cpu_seconds:8.1f} {wall:9.2f}x {cpu:8.2f}x"
            f" {row.weeks:6d} {row.weeks / row.run.seconds:8.1f} {row.run.rss_mib:12.0f}"
        )
    print(
        "ratio: to the vanilla baseline; on the half-history rows, the full history's time over the half's (linear: about 2)."
    )
    print(
        "main CPU: the build process alone; charts and PDFs are drawn in worker processes it does not count."
    )


def print_targets(rows: list[Row]) -> None:
    """Each figure that has a target, beside it."""
    print(f"{'store':8} {'target':44} {'figure':>9} {'':7}")
    for row in rows:
        for what, measure, limit in TARGETS["real" if row.repo in REPOS else "synthetic"]:
            if row.what != what or row.growth_of:
                continue
            figure = {
                "ratio": row.ratios()[0] if row.run.seconds else 0,
                "seconds": row.run.seconds,
                "peak MiB": row.run.rss_mib,
                "KB": row.size / 1000,
            }[measure]
            text = f"{what}, {measure} at most {limit:g}"
            print(f"{row.repo:8} {text:44} {figure:9.2f} {'met' if figure <= limit else 'NOT MET'}")


if __name__ == "__main__":
    main()
