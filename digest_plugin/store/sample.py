"""The bundled sample: a realistic, reproducible store for two fictional repositories.

A source for the store, like the fetcher and the importer. `generate_sample(store)` writes 20 ISO
weeks of merged pull requests, ending Sunday 2026-11-22, for

- quillmoss/fernwheel, a Python workflow scheduler titled `[module] type: ...` (`[BREAKING]`
  first when an API breaks), bumped by dependabot and pre-commit.ci;
- brackenforge/glassfinch, a TypeScript UI kit titled with Conventional Commits
  (`type(scope)!: ...`) and some plain titles, bumped by dependabot and renovate.

Everything is drawn from one `random.Random(seed)` and fixed dates, never from the clock, so a
seed always gives byte-identical files. Each repository's story (a quiet week, a docs-only week,
large refactors, a revert, a security fix, a deprecation, releases, newcomers) is its `script`;
the rest of each week is drawn from the vocabulary in sample.yaml, beside this file.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from importlib import resources
from pathlib import PurePosixPath
from zoneinfo import ZoneInfo

import yaml

from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Author, FileChange, Pull
from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from digest_plugin.weeks import Week, week_of_date, weeks_between

SAMPLE_SEED = 20261122
SAMPLE_END = date(2026, 11, 22)  # a Sunday: the last sample week is 2026-W47
SAMPLE_WEEKS = 20
FETCHED_AT = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)

# The vocabulary, from sample.yaml beside this file.
_WORDS = yaml.safe_load(
    resources.files(__package__).joinpath("sample.yaml").read_text(encoding="utf-8")
)
# Merges cluster on working days and working hours of whoever merges, in their own timezone.
WEEKDAY_WEIGHTS = tuple(_WORDS["weekday_weights"])
HOUR_WEIGHTS = tuple(_WORDS["hour_weights"])
KIND_WEIGHTS = _WORDS["kind_weights"]
CODE_KINDS = tuple(kind for kind in KIND_WEIGHTS if kind != "docs")
KIND_LABELS = _WORDS["kind_labels"]
# {s}: one of an area's subjects
PHRASES = {kind: tuple(phrases) for kind, phrases in _WORDS["phrases"].items()}
WHY = {kind: tuple(reasons) for kind, reasons in _WORDS["why"].items()}
DOCS_TESTED = _WORDS["docs_tested"]
# {t[i]}: the author's checklist ticks; {closes}, {breaking}: optional paragraphs
TEMPLATES = _WORDS["templates"]
BOT_BODIES = _WORDS["bot_bodies"]
# who opens a Changesets release PR: login, author association, timezone
RELEASE_BOT = ("github-actions[bot]", "CONTRIBUTOR", "")
# what pre-commit.ci bumps: package, first version, manifest, lock file
PRE_COMMIT_HOOKS = ("astral-sh/ruff-pre-commit", "0.8.4", ".pre-commit-config.yaml", None)


@dataclass(frozen=True)
class Area:
    """A module (or scope) of a repository: its files and what its PR titles talk about."""

    files: tuple[str, ...]
    subjects: tuple[str, ...]
    kinds: tuple[str, ...] = CODE_KINDS

    @property
    def is_code(self) -> bool:
        # source files with tests beside or under tests/, not CI, build or docs
        return self.kinds == CODE_KINDS

    @property
    def is_docs(self) -> bool:
        return self.kinds == ("docs",)


@dataclass(frozen=True)
class Repo:
    name: str
    conventional: bool  # Conventional Commits titles, else `[module] type: ...`
    first_number: int
    weekly_prs: float
    people: tuple[tuple[str, str, str], ...]  # login, author association, timezone
    # login, timezone: first PR to the repository in the sample
    newcomers: tuple[tuple[str, str], ...]
    areas: dict[str, Area]
    template: str
    tested: tuple[str, ...]
    bots: tuple[str, ...]
    # what the bots bump: package, first version, manifest, lock file
    packages: tuple[tuple[str, str, str, str | None], ...]
    script: dict[int, tuple[str, ...]]  # week index -> the events of that week
    security: tuple[str, str, str]  # area, title text, what an attacker could do
    deprecation: tuple[str, str, str]  # area, old name, new name
    revert_reason: str
    # large refactors: title modules, text, areas whose every file changes (none: all), other files, breaking note
    refactors: dict[str, tuple[tuple[str, ...], str, tuple[str, ...], tuple[str, ...], str]]


def _repo(data: dict) -> Repo:
    areas = {
        name: Area(tuple(a["files"]), tuple(a["subjects"]), tuple(a.get("kinds", CODE_KINDS)))
        for name, a in data["areas"].items()
    }
    refactors = {
        event: (tuple(r["modules"]), r["text"], tuple(r["areas"]), tuple(r["extra"]), r["breaking"])
        for event, r in data["refactors"].items()
    }
    security, deprecation = data["security"], data["deprecation"]
    return Repo(
        name=data["name"],
        conventional=data["conventional"],
        first_number=data["first_number"],
        weekly_prs=data["weekly_prs"],
        people=tuple(map(tuple, data["people"])),
        newcomers=tuple(map(tuple, data["newcomers"])),
        areas=areas,
        template=TEMPLATES[data["template"]],
        tested=tuple(data["tested"]),
        bots=tuple(data["bots"]),
        packages=tuple(map(tuple, data["packages"])),
        script={week: tuple(events) for week, events in data["script"].items()},
        security=(security["area"], security["title"], security["attack"]),
        deprecation=(deprecation["area"], deprecation["old"], deprecation["new"]),
        revert_reason=data["revert_reason"],
        refactors=refactors,
    )


SAMPLE_REPOS = tuple(_repo(repo) for repo in _WORDS["repos"])
SAMPLE_REPO_NAMES = tuple(repo.name for repo in SAMPLE_REPOS)  # for DIGEST_REPOS in pelicanconf.py


@dataclass(frozen=True)
class SampleSize:
    """How much sample to write. The default is the bundled sample; larger ones (`repo-digest sample
    --repos 10 --weeks 260 --prs-per-week 80`) are for measuring builds at scale: the two
    repositories repeat as `owner/name-2`, `owner/name-3`, ..., and their 20-week stories repeat."""

    repos: int = len(SAMPLE_REPOS)
    weeks: int = SAMPLE_WEEKS
    prs_per_week: float | None = None  # None: each repository's own pace (sample.yaml)

    def sample_repos(self) -> list[Repo]:
        repos = []
        for index in range(self.repos):
            repo = SAMPLE_REPOS[index % len(SAMPLE_REPOS)]
            if index >= len(SAMPLE_REPOS):
                repo = replace(repo, name=f"{repo.name}-{index // len(SAMPLE_REPOS) + 1}")
            repos.append(
                repo if self.prs_per_week is None else replace(repo, weekly_prs=self.prs_per_week)
            )
        return repos


def generate_sample(
    store: Store, seed: int = SAMPLE_SEED, size: SampleSize = SampleSize()
) -> list[str]:
    """Write the sample repositories into `store`, replacing earlier sample data; return their names.

    A repository of the same name that holds fetched or imported data is never overwritten.
    """
    repos = size.sample_repos()
    for repo in repos:
        state = store.read_state(repo.name)
        if state is not None and state.source != "sample":
            raise DigestError(
                f"{repo.name} in {store.root} holds {state.source} data, not the sample, so the sample was not written."
            )
    rng = random.Random(seed)
    last = first = week_of_date(SAMPLE_END)
    for _ in range(size.weeks - 1):
        first = first.previous()
    weeks = weeks_between(first, last)
    for repo in repos:
        pulls = History(repo, rng, weeks).pulls()
        directory = store.repo_dir(repo.name)
        for old in sorted(directory.glob("*.jsonl")):
            old.unlink()  # replaced whole, so that a changed seed leaves no stray PRs behind
        store.upsert(repo.name, pulls)
        store.write_state(
            RepoState(
                repo.name,
                source="sample",
                fetched_at=FETCHED_AT,
                complete_since=first.start(UTC),
                watermark=last.end(UTC),
            )
        )
    return [repo.name for repo in repos]


def tests_for(path: str) -> str:
    """Where a source file's tests live: tests/<area>/test_<stem>.py, or <Name>.test.tsx beside it."""
    source = PurePosixPath(path)
    if source.suffix == ".py":
        return f"tests/{source.parent.name}/test_{source.stem}.py"
    return str(source.with_name(f"{source.stem}.test{source.suffix}"))


def sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def static(text: str) -> Callable[[int, int, int | None], str]:
    return lambda number, issue, reverted: text


@dataclass
class Draft:
    """A pull before numbering: numbers follow creation order, so they are given once all exist."""

    title: str
    login: str
    association: str
    labels: list[str]
    files: list[FileChange]
    merged_at: datetime
    created_at: datetime
    # (its number, a recent issue, the reverted PR) -> text
    body: Callable[[int, int, int | None], str]
    commits: int
    comments: int
    reviews: int
    reviewers: tuple[str, ...]
    reverts: Draft | None = None
    number: int = 0
    issue: int = 0


@dataclass
class History:
    """One repository's pulls, drafted week by week from the shared random source."""

    repo: Repo
    rng: random.Random
    weeks: list[Week]
    drafts: list[Draft] = field(default_factory=list)
    # dependencies, as the bots last left them
    versions: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    to_revert: Draft | None = None
    edges: list[datetime] = field(default_factory=list)

    def pulls(self) -> list[Pull]:
        # No merge within 14 hours (the widest UTC offsets) of these week edges, so that the span,
        # the quiet week and the docs-only week stay exactly that in any DIGEST_TIMEZONE.
        # A longer sample (SampleSize) repeats the 20-week story.
        special = [
            w
            for i, w in enumerate(self.weeks)
            if {"quiet", "docs_only"} & set(self.repo.script.get(i % SAMPLE_WEEKS, ()))
        ]
        self.edges = [self.weeks[0].start(UTC), self.weeks[-1].end(UTC)] + [
            e for w in special for e in (w.start(UTC), w.end(UTC))
        ]
        for index, week in enumerate(self.weeks):
            events = self.repo.script.get(index % SAMPLE_WEEKS, ())
            if "quiet" in events:
                continue
            for event in events:
                if event in self.repo.refactors:
                    self.big_refactor(week, event)
                else:
                    getattr(self, f"event_{event}")(week)
            if "docs_only" in events:
                continue
            summer = 0.7 if 3 <= index % SAMPLE_WEEKS <= 7 else 1.0
            for _ in range(max(1, round(self.rng.gauss(self.repo.weekly_prs, 2.5) * summer))):
                self.ordinary(week)
            for _ in range(self.rng.choice((0, 1, 1, 2))):
                self.bump(week)
        return self.numbered()

    # -- people and time ----------------------------------------------------------------------

    def someone(self, newcomer_chance: float) -> tuple[str, str, str]:
        """(login, association, timezone); a newcomer's later PRs are relabelled in numbered()."""
        if self.rng.random() < newcomer_chance:
            login, tz = self.rng.choice(self.repo.newcomers)
            return login, "FIRST_TIME_CONTRIBUTOR", tz
        weights = [
            2 if association == "CONTRIBUTOR" else 3 for _, association, _ in self.repo.people
        ]
        return self.rng.choices(self.repo.people, weights)[0]

    def merge_time(self, week: Week, tz: str, days: range) -> datetime:
        """A time in `week` (UTC), on a working day and hour of the merger's own timezone."""
        while True:
            day = self.rng.choices(days, [WEEKDAY_WEIGHTS[d] for d in days])[0]
            hour = self.rng.choices(range(24), HOUR_WEIGHTS)[0]
            moment = time(hour, self.rng.randrange(60), self.rng.randrange(60))
            merged = datetime.combine(
                week.monday + timedelta(days=day), moment, ZoneInfo(tz)
            ).astimezone(UTC)
            # west of UTC a late Sunday is the next UTC week
            in_week = week.start(UTC) <= merged < week.end(UTC)
            if in_week and all(abs(merged - edge) > timedelta(hours=14) for edge in self.edges):
                return merged

    def draft(
        self,
        week: Week,
        title: str,
        author: tuple[str, str, str],
        labels: list[str | None],
        files: list[FileChange],
        body: Callable[[int, int, int | None], str],
        hours=20.0,
        days=range(7),
        bot=False,
    ) -> Draft:
        """Record a pull by `author` (login, association, timezone), merged in `week` after about `hours`."""
        maintainers = [p for p in self.repo.people if p[1] != "CONTRIBUTOR" and p[0] != author[0]]
        reviewers = self.rng.sample(maintainers, 2 if not bot and self.rng.random() < 0.35 else 1)
        merged = self.merge_time(week, reviewers[0][2], days)
        waited = min(max(self.rng.lognormvariate(0, 0.9) * hours, 0.3), 24 * 12)
        lines = sum((f.additions or 0) + (f.deletions or 0) for f in files)
        draft = Draft(
            title,
            author[0],
            author[1],
            [label for label in dict.fromkeys(labels) if label],
            files,
            merged,
            merged - timedelta(seconds=round(waited * 3600)),
            body,
            commits=1 if bot else self.rng.randint(1, 3 + min(lines // 150, 12)),
            comments=self.rng.randint(0, 1)
            if bot
            else int(self.rng.expovariate(1 / (1.5 + lines / 250))),
            reviews=1 if bot else len(reviewers) + self.rng.randint(0, 2 + (lines > 800)),
            reviewers=tuple(r[0] for r in reviewers),
        )
        self.drafts.append(draft)
        return draft

    # -- titles, files and bodies -------------------------------------------------------------

    def title(
        self, kind: str, modules: list[str] | tuple[str, ...], text: str, breaking=False
    ) -> str:
        if not self.repo.conventional:
            return f"{'[BREAKING]' if breaking else ''}[{', '.join(modules)}] {kind}: {text}"
        style = self.rng.random()
        if breaking or style < 0.78:
            scope = "" if modules[0] == kind else f"({modules[0]})"
            return f"{kind}{scope}{'!' if breaking else ''}: {text}"
        return f"{kind}: {text}" if style < 0.88 else sentence(text)[:-1]

    def changes(self, paths: list[str], kind: str, scale: int) -> list[FileChange]:
        share_added = {"feat": 0.8, "test": 0.85, "docs": 0.7, "refactor": 0.45}.get(kind, 0.6)
        changes = []
        for path in dict.fromkeys(paths):
            size = max(1, min(int(self.rng.paretovariate(1.6) * scale), scale * 30))
            added = round(size * share_added)
            changes.append(FileChange(path, added, size - added))
        return changes

    def code_files(self, name: str, kind: str) -> list[FileChange]:
        candidates = self.repo.areas[name].files
        paths = self.rng.sample(
            candidates, min(len(candidates), self.rng.choice((1, 1, 1, 2, 2, 3)))
        )
        changes = self.changes(paths, kind, self.rng.choice((4, 8, 15, 30, 60)))
        tested = kind in ("feat", "fix", "test", "perf") and self.repo.areas[name].is_code
        if tested and self.rng.random() < 0.75:
            test = tests_for(paths[0])
            if self.rng.random() < 0.3:
                test = test.replace(".py", "_regression.py").replace(".test.", ".regression.test.")
                changes.append(FileChange(test, self.rng.randint(15, 140), 0, "added"))
            else:
                changes += self.changes([test], "test", 10)
        if kind == "feat" and self.rng.random() < 0.3:
            docs = next(a for a in self.repo.areas.values() if a.is_docs)
            changes += self.changes([self.rng.choice(docs.files)], "docs", 12)
        return changes

    def body(
        self,
        kind: str,
        text: str,
        name: str,
        association: str,
        breaking_note="",
        closes=True,
        why="",
    ):
        pct, before = self.rng.randint(8, 45), round(self.rng.uniform(20, 90), 1)
        why = why or self.rng.choice(WHY[kind]).format(
            pct=pct, before=before, after=round(before * (100 - pct) / 100, 1)
        )
        tick_chance = 0.4 if association == "FIRST_TIME_CONTRIBUTOR" else 0.8
        ticks = ["x" if self.rng.random() < tick_chance else " " for _ in range(5)]
        if self.repo.conventional:  # the "type of change" boxes follow the kind
            ticks[:3] = [
                "x" if kind == k or (k == "other" and kind not in ("fix", "feat")) else " "
                for k in ("fix", "feat", "other")
            ]
            breaking = f"\n\nBREAKING CHANGE: {breaking_note}" if breaking_note else ""
        else:
            breaking = f"\n\n## Breaking changes\n\n{breaking_note}" if breaking_note else ""
        tested = (
            DOCS_TESTED if kind == "docs" else self.rng.choice(self.repo.tested).format(area=name)
        )
        fields = dict(summary=sentence(text), why=why, tested=tested, t=ticks, breaking=breaking)
        closes = closes and self.rng.random() < 0.6
        return lambda number, issue, reverted: self.repo.template.format(
            **fields, closes=f"\n\nCloses #{issue}" if closes else ""
        )

    # -- ordinary weeks -----------------------------------------------------------------------

    def ordinary(self, week: Week, docs_only=False, newcomer=False) -> Draft:
        author = self.someone(1.0 if newcomer else 0.05)
        name = self.rng.choice(
            [n for n, a in self.repo.areas.items() if not docs_only or a.is_docs]
        )
        kinds = self.repo.areas[name].kinds
        kind = self.rng.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
        text = self.rng.choice(PHRASES[kind]).format(
            s=self.rng.choice(self.repo.areas[name].subjects)
        )
        breaking = kind == "feat" and self.rng.random() < 0.03
        modules = [name]
        if self.rng.random() < 0.12:
            modules = list(dict.fromkeys([name, self.rng.choice(list(self.repo.areas))]))
        labels = [KIND_LABELS.get(kind), "breaking-change" if breaking else None]
        labels += [f"area/{name}"] if not self.repo.conventional and self.rng.random() < 0.5 else []
        if author[1] == "FIRST_TIME_CONTRIBUTOR" and self.rng.random() < 0.5:
            labels.append("good first issue")
        note = "The old behaviour is gone; the changelog has a migration note." if breaking else ""
        body = (
            self.body(kind, text, name, author[1], note)
            if self.rng.random() < 0.88
            else static(sentence(text) + "\n")
        )
        return self.draft(
            week,
            self.title(kind, modules, text, breaking),
            author,
            labels if self.rng.random() < 0.85 else [],
            self.code_files(name, kind),
            body,
        )

    def bump(self, week: Week) -> Draft:
        bot = self.rng.choice(self.repo.bots)
        package, first, manifest, lock = self.rng.choice(self.repo.packages)
        if bot == "pre-commit-ci[bot]":
            package, first, manifest, lock = PRE_COMMIT_HOOKS
        major, minor, patch = old_parts = self.versions.get(package) or tuple(
            int(part) for part in first.split(".")
        )
        new_parts = self.versions[package] = (
            (major, minor, patch + self.rng.randint(1, 3))
            if self.rng.random() < 0.7
            else (major, minor + 1, 0)
        )
        old, new = ".".join(map(str, old_parts)), ".".join(map(str, new_parts))
        files = [FileChange(manifest, 1, 1)] + (
            [FileChange(lock, self.rng.randint(3, 240), self.rng.randint(3, 240))] if lock else []
        )
        if bot == "pre-commit-ci[bot]":
            title = "[pre-commit.ci] pre-commit autoupdate"
        elif bot == "renovate[bot]":
            what = (
                f"{package} action" if manifest.startswith(".github") else f"dependency {package}"
            )
            title = f"chore(deps): update {what} to v{new}"
        else:
            title = f"{'build(deps): bump' if self.repo.conventional else 'Bump'} {package} from {old} to {new}"
        ecosystem = "javascript" if self.repo.conventional else "python"
        if manifest.startswith(".github"):
            ecosystem = "github_actions"
        return self.draft(
            week,
            title,
            (bot, "CONTRIBUTOR", ""),
            ["dependencies", ecosystem],
            files,
            static(BOT_BODIES[bot].format(package=package, old=old, new=new)),
            hours=5,
            bot=True,
        )

    # -- scripted events ----------------------------------------------------------------------

    def event_newcomer(self, week: Week) -> None:
        self.ordinary(week, newcomer=True)

    def event_docs_only(self, week: Week) -> None:
        for _ in range(self.rng.randint(4, 6)):
            self.ordinary(week, docs_only=True)

    def event_release(self, week: Week) -> None:
        version = f"{2 if self.repo.conventional else 0}.{8 + sum('release' in d.labels for d in self.drafts)}.0"
        # Changesets opens the release PR from CI and deletes the consumed changesets
        if self.repo.conventional:
            files = [
                FileChange("packages/ui/CHANGELOG.md", self.rng.randint(12, 40), 0),
                FileChange("packages/ui/package.json", 1, 1),
            ]
            files += [
                FileChange(f".changeset/{name}.md", 0, self.rng.randint(5, 9), "removed")
                for name in self.rng.sample(
                    ["brave-otters-sing", "quiet-lamps-glow", "swift-pears-fly", "green-kites-nap"],
                    2,
                )
            ]
            text = (
                "This PR was opened by the Changesets release action. When you're ready to do a release, merge it and the "
                f"packages will be published to npm.\n\n# Releases\n\n## @glassfinch/ui@{version}\n"
            )
            title, author, hours = "chore(release): version packages", RELEASE_BOT, 30
        else:  # a release branch, merged with a merge commit rather than squashed
            files = [
                FileChange("CHANGELOG.md", self.rng.randint(15, 45), 2),
                FileChange("pyproject.toml", 1, 1),
                FileChange("fernwheel/__init__.py", 1, 1),
            ]
            text = (
                f"Merge `release/{version[:-2]}` into main: version bump and changelog for {version}.\n\n"
                "Merged with a merge commit so that the tag keeps the release branch history.\n"
            )
            title, author, hours = f"Release {version}", self.repo.people[0], 8
        bot = author == RELEASE_BOT
        self.draft(week, title, author, ["release"], files, static(text), hours=hours, bot=bot)

    def event_feature_to_revert(self, week: Week) -> None:
        name = next(n for n, a in self.repo.areas.items() if a.is_code)
        text = f"add {self.rng.choice(self.repo.areas[name].subjects)} (experimental)"
        self.to_revert = self.draft(
            week,
            self.title("feat", [name], text),
            self.repo.people[1],
            ["enhancement"],
            self.code_files(name, "feat"),
            self.body("feat", text, name, "MEMBER"),
            days=range(3),
        )

    def event_revert(self, week: Week) -> None:
        # merged Monday to Wednesday a week earlier, so the revert is opened after it
        original = self.to_revert
        assert original is not None  # event_feature_to_revert comes first in the script
        swapped = {"added": "removed", "removed": "added"}
        files = [
            FileChange(f.path, f.deletions, f.additions, swapped.get(f.status, f.status))
            for f in original.files
        ]
        reason = self.repo.revert_reason
        revert = self.draft(
            week,
            f'Revert "{original.title}"',
            self.repo.people[0],
            ["revert"],
            files,
            lambda number, issue, reverted: (
                f"Reverts {self.repo.name}#{reverted}\n\nThis reverts #{reverted}: {reason}\n"
            ),
            hours=3,
            days=range(3, 5),
        )
        revert.reverts = original

    def event_security(self, week: Week) -> None:
        name, text, attack = self.repo.security
        body = static(
            f"{sentence(text)} {attack}\n\nReported privately through a security advisory; please upgrade.\n"
        )
        self.draft(
            week,
            self.title("fix", [name], text),
            self.repo.people[0],
            ["security", "bug"],
            self.code_files(name, "fix"),
            body,
            hours=6,
        )

    def event_deprecation(self, week: Week) -> None:
        name, old, new = self.repo.deprecation
        text = f"deprecate `{old}` in favour of `{new}`"
        why = f"`{old}` still works and logs a deprecation warning; it will be removed in the next major release."
        self.draft(
            week,
            self.title("chore", [name], text),
            self.repo.people[2],
            ["deprecation"],
            self.code_files(name, "refactor"),
            self.body("refactor", text, name, "MEMBER", why=why),
        )

    def big_refactor(self, week: Week, event: str) -> None:
        """A refactor that touches every file of some areas, and their tests: thousands of lines."""
        modules, text, names, extra, note = self.repo.refactors[event]
        areas = [a for n, a in self.repo.areas.items() if a.is_code and (n in names or not names)]
        paths = [q for a in areas for p in a.files for q in (p, tests_for(p))] + list(extra)
        author = self.repo.people[self.rng.randrange(4)]
        self.draft(
            week,
            self.title("refactor", modules, text, bool(note)),
            author,
            ["refactor", "breaking-change" if note else None],
            self.changes(paths, "refactor", 48),
            self.body("refactor", text, modules[0], author[1], note, closes=False),
            hours=90,
        )

    # -- numbering ----------------------------------------------------------------------------

    def numbered(self) -> list[Pull]:
        """Number the drafts in creation order, leaving the gaps issues took, then render them."""
        number, seen = self.repo.first_number, set()
        issues = list(range(number - 30, number))
        for draft in sorted(self.drafts, key=lambda d: (d.created_at, d.title)):
            gap = self.rng.choice((0, 0, 1, 1, 2, 3))
            issues += range(number, number + gap)
            draft.number, draft.issue = number + gap, self.rng.choice(issues[-30:])
            number = draft.number + 1
            if draft.association == "FIRST_TIME_CONTRIBUTOR" and draft.login in seen:
                draft.association = "CONTRIBUTOR"
            seen.add(draft.login)
        return [self.pull(d) for d in sorted(self.drafts, key=lambda d: d.number)]

    def pull(self, draft: Draft) -> Pull:
        return Pull(
            number=draft.number,
            title=draft.title,
            url=f"https://github.com/{self.repo.name}/pull/{draft.number}",
            author=Author(
                draft.login, "Bot" if draft.login.endswith("[bot]") else "User", draft.association
            ),
            merged_at=draft.merged_at,
            created_at=draft.created_at,
            body=draft.body(
                draft.number, draft.issue, draft.reverts.number if draft.reverts else None
            ),
            labels=tuple(draft.labels),
            additions=sum(f.additions or 0 for f in draft.files),
            deletions=sum(f.deletions or 0 for f in draft.files),
            changed_files=len(draft.files),
            files=tuple(draft.files),
            comments=draft.comments,
            reviews=draft.reviews,
            commits=draft.commits,
            reviewers=draft.reviewers,
            source="sample",
        )
