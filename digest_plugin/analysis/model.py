"""The results of analysing a week: plain frozen dataclasses, consumed by narrative, charts and pages.

The contract with `narrate/`: analysis says FACTS, narrate says WORDS. No field below holds a
generated sentence; every result carries kinds (short fixed codes listed here), PR numbers, paths,
versions, figures and an impact level, and narrate words them in the build's language. The only
free text is quoted from GitHub (titles, and `AnalysedPull.summary`, which is cut from the PR body),
untrusted and verbatim.

Field names follow the JSON of `repo-digest show --format json` (docs/architecture.md), which is assembled
from these by `digest_plugin.report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from digest_plugin.records.frozen import frozen_record
from digest_plugin.records.pull import Pull

TYPES = ("feat", "fix", "refactor", "perf", "docs", "test", "ci", "build", "chore", "revert")
IMPACTS = ("high", "medium", "low")  # most severe first: the one impact order
RISK_KINDS = (
    "missing-tests",
    "breaking-change",
    "dependency-upgrade",
    "security",
    "revert",
    "deprecation",
    "large-change",
    "config-change",
    "ci-change",
    "hotspot",
    "unresolved-review",
)
# What happened after a revert (Evidence.outcome), as the later PRs of the store show it
REVERT_OUTCOMES = (
    "relanded",  # a later PR brought the change back (its title, or it says so)
    "replaced",  # a later PR took its place (it cites the revert or the reverted PR, or touches the same files on the same subject)
    "accidental",  # the revert says the reverted edit was accidental: nothing to land again
    "pending",  # nothing has followed yet, and the store ends before the revert's follow-up window does
    "none",  # nothing followed within REVERT_FOLLOW_UP_DAYS
)
REVERT_FOLLOW_UP_DAYS = 28  # "the same or the following weeks"
# Good news that still asks for work: a fixed vulnerability may need an advisory and a release.
# Kept apart from risks (WeekAnalysis.good_news), never counted as one.
GOOD_NEWS_KINDS = ("security-fix",)

# What an Evidence says, by its `fact` code (the fields each one fills are listed):
EVIDENCE_FACTS = (
    "untested-code",  # missing-tests: lines = source lines added, files = source files, paths = the largest ones
    "breaking-marker",  # breaking-change: how the PR says so: detail = "title" | "label" | "footer";
    #   missing = "migration-notes" when neither its description nor its files tell users what to change;
    #   reason = the PR's own words on what breaks (consequences.what_breaks), None for a marker alone
    "version",  # dependency-upgrade: package, old (may be None), new, major, core (a core runtime: framework, CUDA, toolchain),
    #   detail = the move (UPGRADE_MOVES), reason = why, for a pin or a downgrade, paths = dependency
    #   files (the first few), files = how many; where no version is named (detail FILES_ONLY),
    #   lines = the changed lines of all its dependency files and manifests;
    #   missing = "lock-file" when it raises a version in a manifest whose lock file it leaves as it was
    "routine-bumps",  # dependency-upgrade: bot bumps grouped: pulls = all of them, count, packages = names
    "vulnerability",  # security / security-fix: detail = the advisory id (CVE-…, GHSA-…) or the word found
    "reverted",  # revert: pulls = the reverted PR(s) when known, detail = its title, outcome = what happened
    #   next (REVERT_OUTCOMES), by = the PR that re-landed or replaced it, reason = why, as the revert says
    "deprecated",  # deprecation: paths = files touched, lines = lines changed (a few-line warning is small), detail = "deprecates" | "removes"
    "files-removed",  # large-change: paths = removed files (largest first), files = how many, lines = lines deleted
    "size",  # large-change: lines = core lines changed, files = core files, modules = core modules;
    #   detail = "whole" when the file list was cut: lines and files are then all of the PR's;
    #   "removes" when its core lines were all taken out
    "default-changed",  # config-change: paths = config files edited, detail = the setting named in the title, if any
    "config-files",  # config-change: paths, lines
    "workflows",  # ci-change: paths = workflow files, files = how many
    "hot-file",  # hotspot: paths = (the file,), pulls = every PR of the week that touched it, authors = theirs;
    #   missing = "tests" for a file added lately without tests that none of them tested, by = the PR that added it
    "consequence",  # breaking-change: what the PR says it changes for users (model.Consequence): detail = its kind
    #   (CONSEQUENCE_KINDS, or "stated" for the author's breaking or migration section), package = what,
    #   old, new = a rename's names or a default's new value, reason = the author's words
    "changes-requested",  # unresolved-review: authors = the reviewers whose change request no approval followed before the merge
)


@frozen_record
class Classification:
    type: str | None  # one of TYPES; None when nothing says what kind of change it is
    modules: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()  # keyword topics, e.g. "npu"
    breaking: bool = False
    bot: bool = False
    reverts: int | None = None  # the PR number a revert reverts, where it can be told
    is_revert: bool = False  # the title says it reverts something (whatever its type)
    # the modules are scopes its title wrote (`[1/n]` too), not labels or paths
    modules_from_title: bool = False
    # where the author said the type, when it came from there: ("title", "fix:"), ("label", "bug")
    type_mark: tuple[str, str] | None = None

    @property
    def author_typed(self) -> bool:
        """Whether its author gave the type: a label, a title prefix, a revert's title."""
        return self.type_mark is not None or self.type == "revert"


@frozen_record
class Score:
    value: float  # 0..10, rounded to one decimal
    factors: tuple[tuple[str, float], ...]  # (factor name, points), in the order they were applied


@frozen_record
class Evidence:
    """One fact behind a risk, about one PR (or, for `routine-bumps`, a group): see EVIDENCE_FACTS
    for which fields each `fact` fills; the others keep their empty defaults."""

    fact: str  # one of EVIDENCE_FACTS
    pull: int  # the PR it is about (the first, for a group)
    paths: tuple[str, ...] = ()
    lines: int = 0
    files: int = 0
    modules: int = 0
    package: str | None = None
    old: str | None = None
    new: str | None = None
    major: bool = False
    core: bool = False
    detail: str | None = None  # a short code or name quoted from the PR (an advisory id, a setting)
    # the PR's own sentence saying why (a pin back, a revert), quoted from its description
    reason: str | None = None
    outcome: str | None = None  # reverted: what happened next, one of REVERT_OUTCOMES
    # reverted: the later PR that re-landed or replaced the change (maybe of a later week); hot-file: the PR that added it
    by: int | None = None
    # what the PR lacks that its kind calls for (see EVIDENCE_FACTS): a finding to act on
    missing: str | None = None
    # other PRs it involves (the reverted PR, the others on a hot file, a group)
    pulls: tuple[int, ...] = ()
    authors: tuple[str, ...] = ()  # logins involved (a hot file's authors)
    packages: tuple[str, ...] = ()  # routine-bumps: the packages bumped
    kind: str = ""  # the risk (or good-news) kind it supports
    # consequence: the PR's own words on what users do about it (AnalysedPull.mitigation), quoted
    advice: str | None = None
    titled: bool = False  # consequence: `reason` is the PR's own title (a Chinese page shows it once, in its row)


UPGRADE_MOVES = (  # how a PR moves a dependency (Upgrade.move), as its versions and words say
    "major",
    "minor",
    "patch",  # to a newer version, this far (the versions compared)
    "up",  # to a newer version, how far unknown (only the new one is said)
    "down",  # to an older version: a downgrade, or a revert of an upgrade
    "pin-back",  # pinned to an older version than one out (the description names a newer one, or says "previous")
    "pin",  # pinned to a version, whether newer or older unknown
    "cap",  # held below a version ("pin transformers under 4.53")
)
# moves that hold a dependency back rather than forward
BACK_MOVES = frozenset({"down", "pin-back", "pin", "cap"})


@frozen_record
class Upgrade:
    """A dependency or toolchain moved by a PR, as its title, body or manifests say."""

    package: str  # "torch", "cuda", "vllm", "rust", "msrv", "actions/checkout"; "" when only files say so
    old: str | None  # "2.6.0"; None when only the new version is said
    new: str | None
    major: bool  # to a newer major version (or a 0.x minor step, which semver lets break)
    core: bool  # a core runtime the project is built on (rules.yaml `core_dependencies`, `toolchains`)
    move: str | None = None  # one of UPGRADE_MOVES; None when nothing says which way
    # for a pin or a downgrade, the description's sentence saying why (quoted, untrusted)
    reason: str | None = None
    # the dependency and manifest files it changes (none for a version checked in code)
    files: tuple[str, ...] = ()


CONSEQUENCE_KINDS = ("default-flip", "removal", "rename", "new-dependency", "format-change")


@frozen_record
class Consequence:
    """What a PR changes for its users, as its title or its own "Breaking changes" / "Migration"
    section says it (analysis/consequences.py). Quoted from GitHub: untrusted, verbatim."""

    # one of CONSEQUENCE_KINDS; None when the author's section says it without a kind to tell
    kind: str | None
    source: str  # "title" or "body": where it is said
    what: str | None = None  # the setting, option or thing (a title's words), when named
    old: str | None = None  # a rename's old name, a default's old value, when said
    new: str | None = None  # a rename's new name, a default's new value, when said
    quote: str = ""  # the author's sentence (the title, or the section's first sentences)


@frozen_record
class Footprint:
    """What the files of a PR show, for saying what it does when its body does not."""

    # core files added (not tests, docs, generated), the first five
    added_files: tuple[str, ...] = ()
    added_count: int = 0  # how many core files were added
    removed_files: tuple[str, ...] = ()  # files removed, largest first, the first five
    removed_count: int = 0
    removed_lines: int = 0  # lines of the removed files
    core_lines: int = 0  # lines changed in core paths
    test_files: int = 0
    # lines its test files gained, less those they lost: below 1, tests were only trimmed or
    # adjusted (ruff #18960 deleted five lines of two tests), which shows nothing of the change
    test_lines_gained: int = 0
    test_lines: int = 0  # lines changed in test files
    workflows: tuple[str, ...] = ()  # CI files changed (.github/workflows/…), all of them
    config_files: tuple[str, ...] = ()  # configuration files edited, all of them
    generated_files: int = 0  # lock files, snapshots, generated and vendored code
    generated_lines: int = 0  # changed lines of those that are not tests (snapshots are); for a cut file list estimated (footprint.beyond_kept)
    # where the core lines are: a file or folder holding two thirds of them, or up to three folders that do
    places: tuple[str, ...] = ()
    # core files whose tests may sit inside them (Rust): no file list says they are untested
    inline_test_files: int = 0
    # the core files it changes most, up to footprint.MAIN_FILES: what a diff excerpt shows
    main_files: tuple[str, ...] = ()


@frozen_record
class ReviewOutcome:
    """A PR's review verdicts as they stood when it merged (analysis/reviews.py); empty where the
    store has none. Logins are quoted from GitHub, untrusted."""

    # reviewers whose verdict is an approval, in the order they approved
    approved_by: tuple[str, ...] = ()
    settled: tuple[str, ...] = ()  # reviewers who requested changes before the last approval
    outstanding: tuple[str, ...] = ()  # reviewers whose change request no approval followed

    def __bool__(self) -> bool:
        return bool(self.approved_by or self.outstanding)


@frozen_record
class AnalysedPull:
    pull: Pull
    classification: Classification
    score: Score
    key: bool
    summary: str  # quoted from the PR body: whole sentences, plain text, untrusted; "" when the body says nothing
    risks: tuple[str, ...] = ()  # risk kinds this PR shows
    first_time: bool = False  # the author's first merged PR in the store's history
    footprint: Footprint = Footprint()
    upgrades: tuple[Upgrade, ...] = ()  # what it upgrades, when it does
    themes: tuple[str, ...] = ()  # names of the week's themes it belongs to (set per week)
    # the facts behind its risk kinds (and good news), `kind` set
    evidence: tuple[Evidence, ...] = ()
    review: ReviewOutcome = ReviewOutcome()  # its reviewers' verdicts, where the store has them
    # what it breaks or changes for users, as it says (analysis/consequences.py)
    consequences: tuple[Consequence, ...] = ()
    mitigation: str = ""  # the body's own sentence telling users what to do (a migration step, a flag, a script); untrusted


@dataclass(frozen=True)
class AuthorCount:
    login: str
    count: int
    first_time: bool = False
    bot: bool = False


@dataclass(frozen=True)
class PathCount:
    path: str
    count: int  # how many PRs of the week touched it
    pulls: tuple[int, ...] = ()


@dataclass(frozen=True)
class Risk:
    """One risk kind of the week, with the PRs that show it and the evidence, most telling first.

    `impact` is what a reviewer would defend: high (users or the release are affected: a breaking
    change, a core runtime moved across a major version, a large untested change of a key PR),
    medium, or low (routine: bot bumps, CI edits, a small deprecation)."""

    kind: str  # one of RISK_KINDS, or GOOD_NEWS_KINDS in WeekAnalysis.good_news
    pulls: tuple[int, ...]  # most telling first
    impact: str = "medium"  # one of IMPACTS
    evidence: tuple[Evidence, ...] = ()  # at most a few per PR, in the order of `pulls`
    paths: tuple[str, ...] = ()  # the files it is about, where that matters (hotspot)


@dataclass(frozen=True)
class Theme:
    """A strand of the week's work: PRs sharing a subsystem, platform, model family or tool, under
    the name the repository's maintainers use for it (see analysis/themes.py).

    Chosen because it is a large share of the week, or stands out against the repository's recent
    weeks: `share` of this week's PRs against `baseline_share` of the previous weeks'."""

    name: str  # stable and readable: "npu", "vllm", "ty", "flake8-bugbear", "ci"; a DIGEST_RULES topic's own name
    source: str  # where it was seen: "scope" (title), "label", "path", "topic" (keywords)
    pulls: tuple[int, ...]  # importance order
    key_pulls: tuple[int, ...]  # those that are key
    share: float  # of this week's PRs, 0..1
    baseline_share: float  # of the previous weeks' PRs (0 when new)
    baseline_weeks: int  # how many previous weeks the baseline covers
    authors: int  # distinct people (bots excluded)
    additions: int
    deletions: int
    types: dict[str, int]  # change types of its PRs
    line_share: float = 0.0  # of the core lines this week's PRs changed (generated and vendored files left out), 0..1
    trend: str = "continued"  # against the recent weeks: "new" (none there), "rising" (clearly more), "continued" (as usual)
    series: tuple[int, ...] = ()  # most of its PRs, of one title but for the rules it names


@dataclass(frozen=True)
class Recommendation:
    """A follow-up, ranked: traceable to the risk (`risk`) it comes from and the finding (`evidence`)
    that calls for it, naming its subject."""

    action: str  # RECOMMENDATION_ACTIONS
    pulls: tuple[int, ...]  # at most MAX_RECOMMENDATION_PULLS, most telling first
    risk: str | None = None  # the risk (or good-news) kind it comes from
    path: str | None = None  # the file it names (a new untested file, a manifest)
    package: str | None = None  # the dependency it names, with old/new
    old: str | None = None
    new: str | None = None
    # how many PRs the subject covers in all (may exceed len(pulls)), or the untested lines
    count: int = 0
    # the advisory id, the setting whose default changed, the reverted title, the lock file
    detail: str | None = None
    impact: str = "medium"  # of the risk it comes from
    evidence: Evidence | None = None  # the finding, when it is one piece of evidence


RECOMMENDATION_ACTIONS = (  # in the order they rank among recommendations of the same impact; each from a finding
    "release-advisory",  # security-fix: an advisory (detail: its id) and a release for the fix
    "migration-notes",  # breaking-change without migration notes in its description or files: write them before the release
    "release-notes",  # breaking-change a PR states (a removal, a rename, its Breaking section): tell users, with the step
    #   its author gives (evidence: the consequence; detail: the author's step, when there is one)
    "security-review",  # security: code that runs or loads untrusted input (detail: what), for a security review
    "re-land-or-drop",  # revert that nothing re-landed or replaced (detail: the reverted title): decide its fate
    "lock-file",  # dependency-upgrade raised in a manifest (path) whose lock file (detail) it left as it was
    "add-tests",  # missing-tests or hotspot: a new or large file (path) that no test covers
    "check-defaults",  # config-change: a default changed (detail: the setting): tell the users who rely on it
)
MAX_RECOMMENDATIONS = 5
MAX_RECOMMENDATION_PULLS = 5


@dataclass(frozen=True)
class Movement:
    """A figure this week against the previous week and the trailing average."""

    current: float
    previous: float | None
    trailing_average: float | None


@dataclass(frozen=True)
class WeekStats:
    merged_count: int
    key_count: int
    average_importance: float
    additions: int
    deletions: int
    types: dict[str, int]
    modules: dict[str, int]
    labels: dict[str, int]
    authors: tuple[AuthorCount, ...]  # people, most PRs first
    bots: tuple[AuthorCount, ...]
    reviewers: dict[str, int] = field(default_factory=dict)
    hot_files: tuple[PathCount, ...] = ()  # source and config files only
    hot_dirs: tuple[PathCount, ...] = ()
    # kept apart from hot files and modules, and said so: tooling folders (.github, .claude, …) and
    # generated files (lock files, snapshots, _generated_*) changed by the week's PRs
    tooling_files: tuple[PathCount, ...] = ()
    generated_files: tuple[PathCount, ...] = ()
    merge_hours_median: float | None = None  # only where created_at comes from GitHub
    merge_hours_p90: float | None = None
    merged_movement: Movement | None = None
    key_movement: Movement | None = None


@dataclass(frozen=True)
class Release:
    """The project's own release, as a PR of the week says it ("Bump version to 0.15.19")."""

    pull: int
    version: str  # as the title writes it: "0.15.19", "v0.4.2"


@dataclass(frozen=True)
class FetchInfo:
    source: str  # "github", "import", "sample"
    fetched_at: str | None
    truncated: bool
    # PRs of the week GitHub would not serve readably, left out for good (RepoState.skipped)
    skipped: tuple[int, ...] = ()


@dataclass(frozen=True)
class WeekAnalysis:
    repo: str
    week: str  # "2026-W21"
    start: date  # Monday
    end: date  # Sunday
    timezone: str
    complete: bool
    in_progress: bool
    pulls: tuple[AnalysedPull, ...]  # highest importance first
    stats: WeekStats
    risks: tuple[Risk, ...]  # most severe first
    fetch: FetchInfo
    themes: tuple[Theme, ...] = ()  # most standing-out first
    good_news: tuple[Risk, ...] = ()  # GOOD_NEWS_KINDS
    recommendations: tuple[Recommendation, ...] = ()  # at most MAX_RECOMMENDATIONS, ranked
    releases: tuple[Release, ...] = ()  # the project's own, in the order they merged
