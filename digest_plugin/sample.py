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
the rest of each week is drawn from the vocabulary tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import PurePosixPath
from zoneinfo import ZoneInfo

from .errors import DigestError
from .records import Author, FileChange, Pull
from .repo_state import RepoState
from .store import Store
from .weeks import Week, week_of_date, weeks_between

SAMPLE_SEED = 20261122
SAMPLE_END = date(2026, 11, 22)  # a Sunday: the last sample week is 2026-W47
SAMPLE_WEEKS = 20
FETCHED_AT = datetime(2026, 11, 23, 6, 0, tzinfo=UTC)

# Merges cluster on working days and working hours of whoever merges, in their own timezone.
WEEKDAY_WEIGHTS = (1.0, 1.15, 1.2, 1.1, 0.8, 0.18, 0.12)
HOUR_WEIGHTS = (1, 1, 1, 1, 1, 1, 2, 4, 8, 12, 14, 14, 10, 12, 14, 14, 12, 10, 7, 5, 4, 4, 3, 2)
KIND_WEIGHTS = {"feat": 30, "fix": 34, "refactor": 8, "perf": 5, "test": 7, "chore": 9, "docs": 7}
CODE_KINDS = tuple(kind for kind in KIND_WEIGHTS if kind != "docs")
KIND_LABELS = {"feat": "enhancement", "fix": "bug", "perf": "performance", "docs": "documentation", "test": "tests", "refactor": "refactor"}

# Title phrasing per change type; {s} is one of an area's subjects.
PHRASES = {
    "feat": ("add {s}", "support {s}", "introduce {s}", "allow configuring {s}"),
    "fix": ("fix {s}", "fix a race in {s}", "handle empty input in {s}", "fix a regression in {s}"),
    "refactor": ("simplify {s}", "split {s} into smaller units", "remove dead code around {s}"),
    "perf": ("speed up {s}", "reduce allocations in {s}", "cache intermediate results in {s}"),
    "test": ("add tests for {s}", "cover edge cases in {s}", "deflake the tests for {s}"),
    "chore": ("tidy up {s}", "improve logging in {s}", "rename internals of {s}"),
    "docs": ("document {s}", "clarify {s}", "fix typos in {s}", "add examples to {s}"),
}
WHY = {
    "feat": ("It has been requested several times on the discussion board; the default behaviour is unchanged.",
             "It is behind a setting for now so that we can gather feedback before making it the default."),
    "fix": ("Previously this failed with a confusing traceback when the input was empty.",
            "The bug only showed up under load, when two workers raced for the same item.",
            "This is a regression from the last minor release, reported by a user."),
    "refactor": ("No behaviour change intended; it makes the follow-up feature PR much smaller.",
                 "The old structure made every bug fix here touch four files."),
    "perf": ("On the benchmark suite this cuts wall time by {pct}% ({before} s to {after} s).",),
    "test": ("The suite now covers the failure paths we hit in production last month.",),
    "chore": ("Housekeeping only; nothing user-visible.",),
    "docs": ("Several users asked about this in issues; the page was out of date.",),
}
DOCS_TESTED = "Built the docs locally and followed every link on the changed pages."

# PR templates: {t[i]} are the author's checklist ticks, {closes} and {breaking} optional paragraphs.
BRACKET_TEMPLATE = """<!-- Thank you for contributing to fernwheel! Keep the title as `[module] type: description`, with [BREAKING] first if it breaks an API. -->

## What does this PR do?

{summary} {why}{closes}

## How was it tested?

{tested}{breaking}

## Checklist

- [{t[0]}] The title follows `[module] type: description`
- [{t[1]}] Tests added or updated
- [{t[2]}] Docs under `docs/` updated if behaviour changed
- [{t[3]}] `CHANGELOG.md` entry added
"""
CONVENTIONAL_TEMPLATE = """## What does this PR do?

{summary} {why}{closes}

## Type of change

- [{t[0]}] Bug fix
- [{t[1]}] New feature
- [{t[2]}] Refactor, docs or tooling

## How to test

{tested}

## Checklist

- [{t[3]}] I added or updated tests
- [{t[4]}] I added a changeset (`pnpm changeset`)

<!-- Screenshots or a Storybook link help reviewers of visual changes. -->{breaking}
"""
BOT_BODIES = {
    "dependabot[bot]": "Bumps {package} from {old} to {new}.\n\n<details>\n<summary>Commits</summary>\n<ul>\n<li>Release {new}</li>\n"
                       "</ul>\n</details>\n<br />\n\nDependabot will resolve any conflicts with this PR as long as you don't alter it "
                       "yourself. You can also trigger a rebase manually by commenting `@dependabot rebase`.\n",
    "renovate[bot]": "This PR contains the following updates:\n\n| Package | Change |\n|---|---|\n| {package} | `{old}` -> `{new}` |\n\n"
                     "📅 **Schedule**: Branch creation - \"before 6am on Monday\" (UTC), Automerge - at any time.\n\n---\n\n"
                     "This PR was generated by Renovate Bot.\n",
    "pre-commit-ci[bot]": "<!--pre-commit.ci start-->\nupdates:\n- {package}: v{old} → v{new}\n<!--pre-commit.ci end-->\n",
}


@dataclass(frozen=True)
class Area:
    """A module (or scope) of a repository: its files and what its PR titles talk about."""

    files: tuple[str, ...]
    subjects: tuple[str, ...]
    kinds: tuple[str, ...] = CODE_KINDS

    @property
    def is_code(self) -> bool:  # source files with tests beside or under tests/, not CI, build or docs
        return self.kinds == CODE_KINDS

    @property
    def is_docs(self) -> bool:
        return self.kinds == ("docs",)


def area(directory: str, stems: str, suffix: str, *subjects: str) -> Area:
    return Area(tuple(f"{directory}/{stem}" + ("" if "." in stem else suffix) for stem in stems.split()), subjects)


@dataclass(frozen=True)
class Repo:
    name: str
    conventional: bool  # Conventional Commits titles, else `[module] type: ...`
    first_number: int
    weekly_prs: float
    people: tuple[tuple[str, str, str], ...]  # login, author association, timezone
    newcomers: tuple[tuple[str, str], ...]  # login, timezone: first PR to the repository in the sample
    areas: dict[str, Area]
    template: str
    tested: tuple[str, ...]
    bots: tuple[str, ...]
    packages: tuple[tuple[str, str, str, str | None], ...]  # what the bots bump: package, first version, manifest, lock file
    script: dict[int, tuple[str, ...]]  # week index -> the events of that week
    security: tuple[str, str, str]  # area, title text, what an attacker could do
    deprecation: tuple[str, str, str]  # area, old name, new name
    revert_reason: str
    # large refactors: title modules, text, areas whose every file changes (none: all), other files, breaking note
    refactors: dict[str, tuple[tuple[str, ...], str, tuple[str, ...], tuple[str, ...], str]]


FERNWHEEL = Repo(
    name="quillmoss/fernwheel", conventional=False, first_number=1812, weekly_prs=10,
    people=(("mirela-vasile", "MEMBER", "Europe/Bucharest"), ("tkoenig-dev", "MEMBER", "Europe/Berlin"),
            ("haruto-ob", "MEMBER", "Asia/Tokyo"), ("lwen42", "MEMBER", "Asia/Shanghai"),
            ("jpcastro", "CONTRIBUTOR", "America/Sao_Paulo"), ("okafor-s", "CONTRIBUTOR", "Africa/Lagos"),
            ("dnguyen-sf", "CONTRIBUTOR", "America/Los_Angeles"), ("priya-r", "CONTRIBUTOR", "Asia/Kolkata"),
            ("bethany-k", "CONTRIBUTOR", "America/New_York")),
    newcomers=(("tomasz-w", "Europe/Warsaw"), ("amara-dev", "Africa/Nairobi"), ("kj-lim", "Asia/Singapore"),
               ("rafa-mtz", "America/Mexico_City"), ("noor-h", "Asia/Dubai")),
    areas={
        "scheduler": area("fernwheel/scheduler", "planner cron triggers backfill leases queue", ".py", "cron trigger parsing",
                          "the backfill planner", "task lease renewal", "run queue priorities", "catch-up runs after downtime"),
        "executor": area("fernwheel/executor", "pool subprocess retries heartbeat sandbox timeouts", ".py", "the worker pool",
                         "task retries with backoff", "heartbeat timeouts", "subprocess log capture", "graceful worker shutdown"),
        "storage": area("fernwheel/storage", "sqlite postgres migrations snapshots locks serialize", ".py", "the Postgres state backend",
                        "schema migrations", "run history snapshots", "advisory locks", "result serialisation"),
        "api": area("fernwheel/api", "server routes tokens pagination schemas artifacts", ".py", "cursor pagination in the REST API",
                    "artifact downloads", "the runs endpoint", "API token scopes", "OpenAPI schema generation"),
        "cli": area("fernwheel/cli", "main run inspect logs config_cmd completion", ".py", "`fw run --watch`", "`fw logs --follow`",
                    "shell completion", "`fw inspect` output", "colour handling in the CLI"),
        "cfg": area("fernwheel/config", "loader schema env defaults validate profiles", ".py", "environment variable overrides",
                    "config profiles", "YAML config validation", "default retry settings", "config file discovery"),
        "metrics": area("fernwheel/metrics", "prometheus tracing events exporters", ".py", "Prometheus task metrics",
                        "OpenTelemetry tracing", "the event stream", "queue latency histograms"),
        "ci": Area((".github/workflows/ci.yml", ".github/workflows/release.yml", "noxfile.py", ".pre-commit-config.yaml"),
                   ("the test workflow", "the release workflow", "the nox sessions", "coverage upload"), ("chore", "fix")),
        "doc": Area(("docs/index.md", "docs/quickstart.md", "docs/concepts/flows.md", "docs/concepts/triggers.md", "docs/howto/retries.md",
                     "docs/howto/deploy-kubernetes.md", "docs/reference/cli.md", "docs/reference/config.md", "README.md", "CONTRIBUTING.md"),
                    ("the quickstart", "the Kubernetes deployment guide", "the retries how-to", "the CLI reference",
                     "the contributing guide", "the triggers concept page", "the config reference"), ("docs",)),
    },
    template=BRACKET_TEMPLATE,
    tested=("Added unit tests; `nox -s tests -- tests/{area}` passes locally.", "Ran the end-to-end suite against SQLite and Postgres 16.",
            "Checked by hand with `examples/nightly_etl.py` and a 200-task backfill."),
    bots=("dependabot[bot]", "dependabot[bot]", "pre-commit-ci[bot]"),
    packages=(("requests", "2.32.3", "requirements.txt", None), ("pydantic", "2.10.4", "requirements.txt", None),
              ("sqlalchemy", "2.0.36", "requirements.txt", None), ("httpx", "0.28.1", "requirements.txt", None),
              ("pytest", "8.3.4", "requirements-dev.txt", None), ("mypy", "1.14.1", "requirements-dev.txt", None),
              ("actions/setup-python", "5.3.0", ".github/workflows/ci.yml", None)),
    script={1: ("release",), 3: ("format_everything",), 4: ("newcomer",), 6: ("docs_only",), 8: ("feature_to_revert",),
            9: ("revert", "release"), 11: ("security", "newcomer"), 12: ("deprecation", "json_results"), 14: ("release",),
            16: ("newcomer",), 18: ("release",)},
    security=("api", "reject path traversal in artifact downloads",
              "A name like `../../etc/passwd` in `GET /api/v1/runs/{id}/artifacts/{name}` was joined to the artifact root unchecked."),
    deprecation=("cfg", "executor.legacy_pool", "executor.pool"),
    revert_reason="it doubled the scheduling latency on our staging cluster. We will reland it behind a setting.",
    refactors={
        "format_everything": (("misc", "ci"), "apply ruff format and enable the isort rules", (), ("pyproject.toml",), ""),
        "json_results": (("storage", "executor"), "replace pickled task results with JSON serialisation", ("storage", "executor"),
                         ("docs/reference/config.md",), "Task results must now be JSON-serialisable; run `fw migrate results` once after upgrading."),
    },
)

GLASSFINCH = Repo(
    name="brackenforge/glassfinch", conventional=True, first_number=604, weekly_prs=7,
    people=(("sofia-brandt", "OWNER", "Europe/Stockholm"), ("kaito-m", "MEMBER", "Asia/Tokyo"),
            ("ren-alvarez", "MEMBER", "America/Chicago"), ("olu-ade", "COLLABORATOR", "Europe/London"),
            ("mchen-ui", "CONTRIBUTOR", "America/Los_Angeles"), ("gabi-ferreira", "CONTRIBUTOR", "America/Sao_Paulo"),
            ("anh-tran", "CONTRIBUTOR", "Asia/Ho_Chi_Minh"), ("zoe-w", "CONTRIBUTOR", "Australia/Sydney")),
    newcomers=(("ines-p", "Europe/Lisbon"), ("devansh-k", "Asia/Kolkata"), ("maya-o", "America/Toronto"), ("hugo-b", "Europe/Brussels")),
    areas={
        "button": area("packages/ui/src/button", "Button ButtonGroup IconButton", ".tsx", "a loading state on Button",
                       "icon-only buttons", "the Button focus ring", "ButtonGroup spacing"),
        "table": area("packages/ui/src/table", "Table TableHeader useSorting.ts usePagination.ts", ".tsx", "column sorting in Table",
                      "sticky table headers", "row selection", "virtualised rows", "table pagination"),
        "tooltip": area("packages/ui/src/tooltip", "Tooltip usePosition.ts", ".tsx", "tooltip positioning near viewport edges",
                        "tooltip open delays", "Tooltip portals"),
        "select": area("packages/ui/src/select", "Select Option useListbox.ts", ".tsx", "keyboard navigation in Select",
                       "async option loading", "multi-select chips", "the Select clear button"),
        "dialog": area("packages/ui/src/dialog", "Dialog useFocusTrap.ts useScrollLock.ts", ".tsx", "the Dialog focus trap",
                       "nested dialogs", "Dialog scroll locking", "closing dialogs on Escape"),
        "datepicker": area("packages/ui/src/datepicker", "DatePicker Calendar parseDate.ts", ".tsx",
                           "locale-aware week start in DatePicker", "date range selection", "min and max dates", "typed date input"),
        "theme": area("packages/ui/src/theme", "tokens ThemeProvider.tsx colors spacing", ".ts", "dark mode tokens",
                      "CSS variable theming", "the spacing scale", "high-contrast colour tokens"),
        "build": Area(("vite.config.ts", "tsconfig.json", "packages/ui/package.json", "scripts/build-icons.mjs", ".github/workflows/ci.yml"),
                      ("the ESM build", "type declaration output", "icon tree-shaking", "source maps in the published bundle"),
                      ("chore", "fix", "perf", "refactor")),
        "docs": Area(("apps/docs/src/content/getting-started.mdx", "apps/docs/src/content/theming.mdx",
                      "apps/docs/src/content/components/table.mdx", "apps/docs/src/content/accessibility.mdx",
                      "README.md", "packages/ui/README.md", "CONTRIBUTING.md"),
                     ("the getting started guide", "the theming page", "the Table page", "the accessibility notes", "the README"), ("docs",)),
    },
    template=CONVENTIONAL_TEMPLATE,
    tested=("Added Vitest unit tests and a Storybook story.", "Checked in Storybook with the keyboard only and with VoiceOver.",
            "`pnpm test` and `pnpm typecheck` pass; visual snapshots are unchanged."),
    bots=("dependabot[bot]", "renovate[bot]"),
    packages=(("vitest", "2.1.8", "package.json", "pnpm-lock.yaml"), ("typescript", "5.7.2", "package.json", "pnpm-lock.yaml"),
              ("@floating-ui/dom", "1.6.12", "packages/ui/package.json", "pnpm-lock.yaml"), ("eslint", "9.17.0", "package.json", "pnpm-lock.yaml"),
              ("storybook", "8.4.7", "apps/docs/package.json", "pnpm-lock.yaml"), ("actions/checkout", "4.2.2", ".github/workflows/ci.yml", None)),
    script={2: ("release",), 3: ("newcomer",), 5: ("quiet",), 7: ("release", "feature_to_revert"), 8: ("revert",), 9: ("docs_only",),
            10: ("strict_mode",), 12: ("release", "newcomer"), 13: ("css_tokens", "deprecation"), 15: ("security",),
            17: ("release", "newcomer")},
    security=("tooltip", "sanitise HTML in tooltip content",
              "`content` strings were set with innerHTML, so a tooltip showing `<img src=x onerror=alert(1)>` ran script."),
    deprecation=("table", "sortable", "sorting"),
    revert_reason="it broke keyboard focus in Safari; we will reland it with a fix.",
    refactors={
        "strict_mode": (("ui",), "enable TypeScript strict mode across all components", (), ("tsconfig.json",), ""),
        "css_tokens": (("theme",), "move design tokens to CSS variables", (), ("apps/docs/src/content/theming.mdx",),
                       "the `theme` prop of `ThemeProvider` is removed; set the `--gf-*` CSS variables instead."),
    },
)

SAMPLE_REPOS = (FERNWHEEL, GLASSFINCH)
SAMPLE_REPO_NAMES = tuple(repo.name for repo in SAMPLE_REPOS)  # for DIGEST_REPOS in pelicanconf.py


def generate_sample(store: Store, seed: int = SAMPLE_SEED) -> list[str]:
    """Write the sample repositories into `store`, replacing earlier sample data; return their names.

    A repository of the same name that holds fetched or imported data is never overwritten.
    """
    for repo in SAMPLE_REPOS:
        state = store.read_state(repo.name)
        if state is not None and state.source != "sample":
            raise DigestError(f"{repo.name} in {store.root} holds {state.source} data, not the sample, so the sample was not written.")
    rng = random.Random(seed)
    last = first = week_of_date(SAMPLE_END)
    for _ in range(SAMPLE_WEEKS - 1):
        first = first.previous()
    weeks = weeks_between(first, last)
    for repo in SAMPLE_REPOS:
        pulls = History(repo, rng, weeks).pulls()
        directory = store.repo_dir(repo.name)
        for old in sorted(directory.glob("*.jsonl")):
            old.unlink()  # replaced whole, so that a changed seed leaves no stray PRs behind
        store.upsert(repo.name, pulls)
        store.write_state(RepoState(repo.name, source="sample", fetched_at=FETCHED_AT,
                                    complete_since=first.start(UTC), watermark=last.end(UTC)))
    return [repo.name for repo in SAMPLE_REPOS]


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
    body: Callable[[int, int, int | None], str]  # (its number, a recent issue, the reverted PR) -> text
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
    versions: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # dependencies, as the bots last left them
    to_revert: Draft | None = None
    edges: list[datetime] = field(default_factory=list)

    def pulls(self) -> list[Pull]:
        # No merge within 14 hours (the widest UTC offsets) of these week edges, so that the span,
        # the quiet week and the docs-only week stay exactly that in any DIGEST_TIMEZONE.
        special = [w for i, w in enumerate(self.weeks) if {"quiet", "docs_only"} & set(self.repo.script.get(i, ()))]
        self.edges = [self.weeks[0].start(UTC), self.weeks[-1].end(UTC)] + [e for w in special for e in (w.start(UTC), w.end(UTC))]
        for index, week in enumerate(self.weeks):
            events = self.repo.script.get(index, ())
            if "quiet" in events:
                continue
            for event in events:
                if event in self.repo.refactors:
                    self.big_refactor(week, event)
                else:
                    getattr(self, f"event_{event}")(week)
            if "docs_only" in events:
                continue
            summer = 0.7 if 3 <= index <= 7 else 1.0
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
        weights = [2 if association == "CONTRIBUTOR" else 3 for _, association, _ in self.repo.people]
        return self.rng.choices(self.repo.people, weights)[0]

    def merge_time(self, week: Week, tz: str, days: range) -> datetime:
        """A time in `week` (UTC), on a working day and hour of the merger's own timezone."""
        while True:
            day = self.rng.choices(days, [WEEKDAY_WEIGHTS[d] for d in days])[0]
            moment = time(self.rng.choices(range(24), HOUR_WEIGHTS)[0], self.rng.randrange(60), self.rng.randrange(60))
            merged = datetime.combine(week.monday + timedelta(days=day), moment, ZoneInfo(tz)).astimezone(UTC)
            in_week = week.start(UTC) <= merged < week.end(UTC)  # west of UTC a late Sunday is the next UTC week
            if in_week and all(abs(merged - edge) > timedelta(hours=14) for edge in self.edges):
                return merged

    def draft(self, week: Week, title: str, author: tuple[str, str, str], labels: list[str | None], files: list[FileChange],
              body: Callable[[int, int, int | None], str], hours=20.0, days=range(7), bot=False) -> Draft:
        """Record a pull by `author` (login, association, timezone), merged in `week` after about `hours`."""
        maintainers = [p for p in self.repo.people if p[1] != "CONTRIBUTOR" and p[0] != author[0]]
        reviewers = self.rng.sample(maintainers, 2 if not bot and self.rng.random() < 0.35 else 1)
        merged = self.merge_time(week, reviewers[0][2], days)
        waited = min(max(self.rng.lognormvariate(0, 0.9) * hours, 0.3), 24 * 12)
        lines = sum(f.additions + f.deletions for f in files)
        draft = Draft(
            title, author[0], author[1], [label for label in dict.fromkeys(labels) if label], files,
            merged, merged - timedelta(seconds=round(waited * 3600)), body,
            commits=1 if bot else self.rng.randint(1, 3 + min(lines // 150, 12)),
            comments=self.rng.randint(0, 1) if bot else int(self.rng.expovariate(1 / (1.5 + lines / 250))),
            reviews=1 if bot else len(reviewers) + self.rng.randint(0, 2 + (lines > 800)),
            reviewers=tuple(r[0] for r in reviewers),
        )
        self.drafts.append(draft)
        return draft

    # -- titles, files and bodies -------------------------------------------------------------

    def title(self, kind: str, modules: list[str] | tuple[str, ...], text: str, breaking=False) -> str:
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
            changes.append(FileChange(path, round(size * share_added), size - round(size * share_added)))
        return changes

    def code_files(self, name: str, kind: str) -> list[FileChange]:
        candidates = self.repo.areas[name].files
        paths = self.rng.sample(candidates, min(len(candidates), self.rng.choice((1, 1, 1, 2, 2, 3))))
        changes = self.changes(paths, kind, self.rng.choice((4, 8, 15, 30, 60)))
        if kind in ("feat", "fix", "test", "perf") and self.repo.areas[name].is_code and self.rng.random() < 0.75:
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

    def body(self, kind: str, text: str, name: str, association: str, breaking_note="", closes=True, why=""):
        pct, before = self.rng.randint(8, 45), round(self.rng.uniform(20, 90), 1)
        why = why or self.rng.choice(WHY[kind]).format(pct=pct, before=before, after=round(before * (100 - pct) / 100, 1))
        tick_chance = 0.4 if association == "FIRST_TIME_CONTRIBUTOR" else 0.8
        ticks = ["x" if self.rng.random() < tick_chance else " " for _ in range(5)]
        if self.repo.conventional:  # the "type of change" boxes follow the kind
            ticks[:3] = ["x" if kind == k or (k == "other" and kind not in ("fix", "feat")) else " " for k in ("fix", "feat", "other")]
            breaking = f"\n\nBREAKING CHANGE: {breaking_note}" if breaking_note else ""
        else:
            breaking = f"\n\n## Breaking changes\n\n{breaking_note}" if breaking_note else ""
        tested = DOCS_TESTED if kind == "docs" else self.rng.choice(self.repo.tested).format(area=name)
        fields = dict(summary=sentence(text), why=why, tested=tested, t=ticks, breaking=breaking)
        closes = closes and self.rng.random() < 0.6
        return lambda number, issue, reverted: self.repo.template.format(**fields, closes=f"\n\nCloses #{issue}" if closes else "")

    # -- ordinary weeks -----------------------------------------------------------------------

    def ordinary(self, week: Week, docs_only=False, newcomer=False) -> Draft:
        author = self.someone(1.0 if newcomer else 0.05)
        name = self.rng.choice([n for n, a in self.repo.areas.items() if not docs_only or a.is_docs])
        kinds = self.repo.areas[name].kinds
        kind = self.rng.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
        text = self.rng.choice(PHRASES[kind]).format(s=self.rng.choice(self.repo.areas[name].subjects))
        breaking = kind == "feat" and self.rng.random() < 0.03
        modules = list(dict.fromkeys([name] + ([self.rng.choice(list(self.repo.areas))] if self.rng.random() < 0.12 else [])))
        labels = [KIND_LABELS.get(kind), "breaking-change" if breaking else None]
        labels += [f"area/{name}"] if not self.repo.conventional and self.rng.random() < 0.5 else []
        labels += ["good first issue"] if author[1] == "FIRST_TIME_CONTRIBUTOR" and self.rng.random() < 0.5 else []
        note = "The old behaviour is gone; the changelog has a migration note." if breaking else ""
        body = self.body(kind, text, name, author[1], note) if self.rng.random() < 0.88 else static(sentence(text) + "\n")
        return self.draft(week, self.title(kind, modules, text, breaking), author, labels if self.rng.random() < 0.85 else [],
                          self.code_files(name, kind), body)

    def bump(self, week: Week) -> Draft:
        bot = self.rng.choice(self.repo.bots)
        package, first, manifest, lock = self.rng.choice(self.repo.packages)
        if bot == "pre-commit-ci[bot]":
            package, first, manifest, lock = "astral-sh/ruff-pre-commit", "0.8.4", ".pre-commit-config.yaml", None
        major, minor, patch = old = self.versions.get(package) or tuple(int(part) for part in first.split("."))
        new = self.versions[package] = (major, minor, patch + self.rng.randint(1, 3)) if self.rng.random() < 0.7 else (major, minor + 1, 0)
        old, new = ".".join(map(str, old)), ".".join(map(str, new))
        files = [FileChange(manifest, 1, 1)] + ([FileChange(lock, self.rng.randint(3, 240), self.rng.randint(3, 240))] if lock else [])
        if bot == "pre-commit-ci[bot]":
            title = "[pre-commit.ci] pre-commit autoupdate"
        elif bot == "renovate[bot]":
            what = f"{package} action" if manifest.startswith(".github") else f"dependency {package}"
            title = f"chore(deps): update {what} to v{new}"
        else:
            title = f"{'build(deps): bump' if self.repo.conventional else 'Bump'} {package} from {old} to {new}"
        ecosystem = "github_actions" if manifest.startswith(".github") else ("javascript" if self.repo.conventional else "python")
        return self.draft(week, title, (bot, "CONTRIBUTOR", ""), ["dependencies", ecosystem], files,
                          static(BOT_BODIES[bot].format(package=package, old=old, new=new)), hours=5, bot=True)

    # -- scripted events ----------------------------------------------------------------------

    def event_newcomer(self, week: Week) -> None:
        self.ordinary(week, newcomer=True)

    def event_docs_only(self, week: Week) -> None:
        for _ in range(self.rng.randint(4, 6)):
            self.ordinary(week, docs_only=True)

    def event_release(self, week: Week) -> None:
        version = f"{2 if self.repo.conventional else 0}.{8 + sum('release' in d.labels for d in self.drafts)}.0"
        if self.repo.conventional:  # Changesets opens the release PR from CI and deletes the consumed changesets
            files = [FileChange("packages/ui/CHANGELOG.md", self.rng.randint(12, 40), 0), FileChange("packages/ui/package.json", 1, 1)]
            files += [FileChange(f".changeset/{name}.md", 0, self.rng.randint(5, 9), "removed")
                      for name in self.rng.sample(["brave-otters-sing", "quiet-lamps-glow", "swift-pears-fly", "green-kites-nap"], 2)]
            text = ("This PR was opened by the Changesets release action. When you're ready to do a release, merge it and the "
                    f"packages will be published to npm.\n\n# Releases\n\n## @glassfinch/ui@{version}\n")
            self.draft(week, "chore(release): version packages", ("github-actions[bot]", "CONTRIBUTOR", ""), ["release"], files,
                       static(text), hours=30, bot=True)
        else:  # a release branch, merged with a merge commit rather than squashed
            files = [FileChange("CHANGELOG.md", self.rng.randint(15, 45), 2), FileChange("pyproject.toml", 1, 1),
                     FileChange("fernwheel/__init__.py", 1, 1)]
            text = (f"Merge `release/{version[:-2]}` into main: version bump and changelog for {version}.\n\n"
                    "Merged with a merge commit so that the tag keeps the release branch history.\n")
            self.draft(week, f"Release {version}", self.repo.people[0], ["release"], files, static(text), hours=8)

    def event_feature_to_revert(self, week: Week) -> None:
        name = next(n for n, a in self.repo.areas.items() if a.is_code)
        text = f"add {self.rng.choice(self.repo.areas[name].subjects)} (experimental)"
        self.to_revert = self.draft(week, self.title("feat", [name], text), self.repo.people[1], ["enhancement"],
                                    self.code_files(name, "feat"), self.body("feat", text, name, "MEMBER"), days=range(3))

    def event_revert(self, week: Week) -> None:
        original = self.to_revert  # merged Monday to Wednesday a week earlier, so the revert is opened after it
        swapped = {"added": "removed", "removed": "added"}
        files = [FileChange(f.path, f.deletions, f.additions, swapped.get(f.status, f.status)) for f in original.files]
        reason = self.repo.revert_reason
        revert = self.draft(week, f'Revert "{original.title}"', self.repo.people[0], ["revert"], files,
                            lambda number, issue, reverted: f"Reverts {self.repo.name}#{reverted}\n\nThis reverts #{reverted}: {reason}\n",
                            hours=3, days=range(3, 5))
        revert.reverts = original

    def event_security(self, week: Week) -> None:
        name, text, attack = self.repo.security
        body = static(f"{sentence(text)} {attack}\n\nReported privately through a security advisory; please upgrade.\n")
        self.draft(week, self.title("fix", [name], text), self.repo.people[0], ["security", "bug"], self.code_files(name, "fix"), body, hours=6)

    def event_deprecation(self, week: Week) -> None:
        name, old, new = self.repo.deprecation
        text = f"deprecate `{old}` in favour of `{new}`"
        why = f"`{old}` still works and logs a deprecation warning; it will be removed in the next major release."
        self.draft(week, self.title("chore", [name], text), self.repo.people[2], ["deprecation"],
                   self.code_files(name, "refactor"), self.body("refactor", text, name, "MEMBER", why=why))

    def big_refactor(self, week: Week, event: str) -> None:
        """A refactor that touches every file of some areas, and their tests: thousands of lines."""
        modules, text, names, extra, note = self.repo.refactors[event]
        areas = [a for n, a in self.repo.areas.items() if a.is_code and (n in names or not names)]
        paths = [q for a in areas for p in a.files for q in (p, tests_for(p))] + list(extra)
        author = self.repo.people[self.rng.randrange(4)]
        self.draft(week, self.title("refactor", modules, text, bool(note)), author, ["refactor", "breaking-change" if note else None],
                   self.changes(paths, "refactor", 48), self.body("refactor", text, modules[0], author[1], note, closes=False), hours=90)

    # -- numbering ----------------------------------------------------------------------------

    def numbered(self) -> list[Pull]:
        """Number the drafts in creation order, leaving the gaps issues took, then render them."""
        number, issues, seen = self.repo.first_number, list(range(self.repo.first_number - 30, self.repo.first_number)), set()
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
            number=draft.number, title=draft.title, url=f"https://github.com/{self.repo.name}/pull/{draft.number}",
            author=Author(draft.login, "Bot" if draft.login.endswith("[bot]") else "User", draft.association),
            merged_at=draft.merged_at, created_at=draft.created_at,
            body=draft.body(draft.number, draft.issue, draft.reverts.number if draft.reverts else None),
            labels=tuple(draft.labels), additions=sum(f.additions for f in draft.files),
            deletions=sum(f.deletions for f in draft.files), changed_files=len(draft.files), files=tuple(draft.files),
            comments=draft.comments, reviews=draft.reviews, commits=draft.commits, reviewers=draft.reviewers, source="sample",
        )
