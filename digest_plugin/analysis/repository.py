"""Running the analysis over a repository: every week from its stored pulls, in order.

`analyse_repo` is the stage's entry point (see the package docstring); `repo_context` computes
once what every PR's analysis needs to know about the whole repository. A memo of earlier builds
(`Reuse`, build/cache.py) may hand back weeks whose inputs it has seen: the analysis says what
those inputs are, the memo keys them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from digest_plugin.analysis.classify import ModuleScheme, classify, module_scheme, parse_title
from digest_plugin.analysis.description import description_text, summary_of, template_lines
from digest_plugin.analysis.footprint import footprint
from digest_plugin.analysis.importance import by_importance, importance
from digest_plugin.analysis.model import AnalysedPull, Evidence, FetchInfo, Release, WeekAnalysis
from digest_plugin.analysis.options import AnalysisOptions
from digest_plugin.analysis.recommend import recommendations
from digest_plugin.analysis.risks import PullFacts, hotspots, kinds_of, pull_evidence, week_risks
from digest_plugin.analysis.rules import Rules, compile_rules
from digest_plugin.analysis.stats import first_time_pulls, week_stats
from digest_plugin.analysis.themes import theme_keys, week_themes
from digest_plugin.analysis.upgrades import own_release, upgrades
from digest_plugin.store.records import Pull, format_time
from digest_plugin.store.state import RepoState
from digest_plugin.weeks import Week, week_of, week_of_date, weeks_between


@dataclass(frozen=True)
class Conventions:
    """How a repository writes, learned from its whole history, read by every week's analysis: a
    memo of earlier builds hashes it whole (build/cache.py), so a field added here is keyed too."""

    template: frozenset[str]  # the repository's PR template lines (description.template_lines)
    scheme: ModuleScheme  # how the repository names its modules (classify.module_scheme)


@dataclass(frozen=True)
class RepoContext:
    """What analysing one PR needs to know about its whole repository, computed once. Besides the
    rules and the conventions, single facts about other PRs, which a week asks PR by PR: the memo
    of earlier builds recalls a week only while those answers are the same (`lookups`)."""

    rules: Rules
    conventions: Conventions
    first_time: frozenset[int]  # numbers of first-time contributors' PRs (stats.first_time_pulls)
    titles: dict[int, str]  # number -> title of every stored PR, to name what reverts undo (Evidence.detail)
    numbers_by_title: dict[str, list[tuple[datetime, int]]]  # title -> (merged_at, number), oldest first
    key_threshold: float

    @property
    def template(self) -> frozenset[str]:
        return self.conventions.template

    @property
    def scheme(self) -> ModuleScheme:
        return self.conventions.scheme

    def title_of(self, number: int) -> str | None:
        return self.titles.get(number)

    def last_titled(self, title: str, before: datetime) -> int | None:
        """The last PR of `title` merged before `before`: what a revert naming that title undoes
        (a re-landed change may share the title)."""
        earlier = [n for merged, n in self.numbers_by_title.get(_title_key(title), ()) if merged < before]
        return earlier[-1] if earlier else None


class Reuse(Protocol):
    """A memo of earlier builds' weeks (build/cache.py's WeekChain): told the repository's inputs
    `(repo, options, conventions)`, then every week in order, oldest first, by the week's inputs
    `(week, (in progress, complete), ((pull, first time), ...))`."""

    def repository(self, inputs: tuple) -> None:
        """The repository's inputs, which every week's analysis reads."""

    def earlier_week(self, inputs: tuple) -> None:
        """A week before the weeks analysed, whose inputs still count for the weeks after it."""

    def lookup(self, inputs: tuple) -> tuple[WeekAnalysis, tuple[Counter, int], tuple] | None:
        """(analysis, week_subjects, lookups) kept by an earlier build for these inputs, if any."""

    def keep(self, remembered: tuple[WeekAnalysis, tuple[Counter, int], tuple]) -> None:
        """The week just analysed (or looked up) from the inputs last given to `lookup`."""


def repo_context(repo: str, pulls: Sequence[Pull], options: AnalysisOptions) -> RepoContext:
    rules = compile_rules(options.rules, repo, options.bots)
    thresholds = rules.thresholds
    numbers_by_title: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
    for pull in sorted(pulls, key=lambda p: (p.merged_at, p.number)):
        numbers_by_title[_title_key(pull.title)].append((pull.merged_at, pull.number))
    conventions = Conventions(
        template=template_lines((p.body for p in pulls), thresholds.template_share, thresholds.template_min_pulls),
        scheme=module_scheme(pulls, rules),
    )
    return RepoContext(
        rules=rules,
        conventions=conventions,
        first_time=first_time_pulls(pulls, rules, options.timezone),
        titles={p.number: p.title for p in pulls},
        numbers_by_title=numbers_by_title,
        key_threshold=options.key_threshold,
    )


def analyse_pull(pull: Pull, context: RepoContext) -> AnalysedPull:
    """Classification, score, summary, footprint and risk evidence of one PR (hotspots and themes
    are added per week)."""
    rules = context.rules
    classification = classify(pull, rules, context.scheme)
    title = parse_title(pull.title, rules)
    if classification.is_revert and classification.reverts is None and title.reverted_title:
        reverted = context.last_titled(title.reverted_title, pull.merged_at)
        if reverted is not None:
            classification = replace(classification, reverts=reverted)
    description = description_text(pull.body, context.template)
    paths, kinds = rules.files_of(pull)
    facts = PullFacts(pull, classification, paths, kinds, description, footprint(pull, rules), upgrades(pull, classification, rules), rules)
    score = importance(pull, classification, rules, facts.upgrades, description)
    # a reverted PR is named by its title (quoted from GitHub), for it may lie outside the week
    evidence = tuple(replace(e, detail=context.title_of(e.pulls[0])) if e.fact == "reverted" and e.pulls else e for e in pull_evidence(facts))
    return AnalysedPull(
        pull=pull,
        classification=classification,
        score=score,
        key=score.value >= context.key_threshold,
        summary=summary_of(description, title.description or pull.title, rules.thresholds.summary_chars),
        risks=kinds_of(evidence),
        first_time=pull.number in context.first_time,
        footprint=facts.footprint,
        upgrades=facts.upgrades,
        evidence=evidence,
    )


def _title_key(title: str) -> str:
    return " ".join(title.split()).lower()


def analyse_week(repo: str, week: Week, pulls: Sequence[AnalysedPull], context: RepoContext, options: AnalysisOptions,
                 state: RepoState | None, now: datetime, previous: Sequence[tuple[int, int]] = (),
                 subjects: Sequence[tuple[Counter, int]] = ()) -> WeekAnalysis:
    """One week from its analysed pulls. `previous` is (merged, key) of the weeks before, oldest
    first, for the movement figures; `subjects` is `week_subjects` of the weeks before, for themes."""
    tz = options.timezone
    hot = hotspots([p.pull for p in pulls], context.rules)
    hot_numbers = {n for numbers in hot.values() for n in numbers}
    pulls = [replace(p, risks=kinds_of((*p.evidence, Evidence("hot-file", p.pull.number, kind="hotspot"))))
             if p.pull.number in hot_numbers else p for p in pulls]
    ordered = tuple(sorted(pulls, key=by_importance))
    themes = week_themes(ordered, {p.pull.number: theme_keys(p, context.rules) for p in ordered}, subjects, context.rules)
    ordered = tuple(replace(p, themes=tuple(t.name for t in themes if p.pull.number in t.pulls)) for p in ordered)
    in_progress, complete = progress_of(week, state, now, tz)
    risks, good_news = week_risks(ordered, hot)
    return WeekAnalysis(
        repo=repo,
        week=str(week),
        start=week.monday,
        end=week.sunday,
        timezone=str(options.timezone),
        complete=complete,
        in_progress=in_progress,
        pulls=ordered,
        stats=week_stats(ordered, context.rules, previous, options.trend_weeks),
        risks=risks,
        good_news=good_news,
        themes=themes,
        recommendations=recommendations(risks, good_news),
        releases=tuple(Release(p.pull.number, version) for p in sorted(ordered, key=lambda p: (p.pull.merged_at, p.pull.number))
                       if (version := own_release(p.pull, context.rules))),
        fetch=fetch_info(week, state, tz),
    )


def progress_of(week: Week, state: RepoState | None, now: datetime, tz) -> tuple[bool, bool]:
    """(in progress at `now`, fetched through its end and closed)."""
    start, end = week.start(tz), week.end(tz)
    in_progress = start <= now < end
    return in_progress, (state.is_complete(start, end) if state is not None else True) and not in_progress


def fetch_info(week: Week, state: RepoState | None, tz) -> FetchInfo:
    start, end = week.start(tz), week.end(tz)
    return FetchInfo(
        source=state.source if state is not None else "import",
        fetched_at=format_time(state.fetched_at) if state is not None else None,
        truncated=bool(state is not None and any(w.overlaps(start, end) for w in state.incomplete)),
        skipped=state.skipped(start, end) if state is not None else (),
    )


def analyse_repo(repo: str, pulls: Sequence[Pull], state: RepoState | None, options: AnalysisOptions,
                 now: datetime, reuse: Reuse | None = None) -> list[WeekAnalysis]:
    """Every week of a repository, chronological, quiet weeks included.

    From the week of the first stored PR (or of options.since, if later) to the week containing
    min(now, watermark) for GitHub-fetched stores, else the week of the last stored PR.
    With `reuse`, a memo of earlier builds, a week whose inputs it has seen is taken from it; the
    result is the same either way.
    """
    tz = options.timezone
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)  # a naive clock reading is taken as UTC, as records are
    weeks = week_range(pulls, state, options.since, now, tz)
    if not weeks:
        return []
    first = weeks[0]
    context = repo_context(repo, pulls, options)
    if reuse is not None:
        reuse.repository((repo, options, context.conventions))
    by_week: dict[Week, list[Pull]] = defaultdict(list)
    for pull in pulls:
        by_week[week_of(pull.merged_at, tz)].append(pull)

    def inputs(week: Week) -> tuple:
        week_pulls = by_week.get(week, ())
        return str(week), progress_of(week, state, now, tz), tuple((p, p.number in context.first_time) for p in week_pulls)

    # Weeks before `first` (DIGEST_SINCE) still feed the movement figures and the themes' baseline.
    history: list[tuple[int, int]] = []
    subjects: list[tuple[Counter, int]] = []
    earliest = first
    for _ in range(max(options.trend_weeks, context.rules.thresholds.theme_baseline_weeks)):
        earliest = earliest.previous()
    earliest = max(earliest, min(by_week, default=first))
    for week in weeks_between(earliest, first.previous()) if earliest < first else []:
        analysed = [analyse_pull(p, context) for p in by_week.get(week, ())]
        history.append((len(analysed), sum(1 for p in analysed if p.key)))
        subjects.append(week_subjects(analysed, context.rules))
        if reuse is not None:
            reuse.earlier_week(inputs(week))

    results = []
    for week in weeks:
        remembered = reuse.lookup(inputs(week)) if reuse is not None else None
        if remembered is not None and remembered[2] == (lookups := _history_lookups(remembered[0].pulls, context)):
            # the fetch time is no input (every refresh changes it): the week gets the current one
            analysis, week_subject = replace(remembered[0], fetch=fetch_info(week, state, tz)), remembered[1]
        else:
            analysed = [analyse_pull(p, context) for p in by_week.get(week, ())]
            analysis = analyse_week(repo, week, analysed, context, options, state, now, history, subjects)
            week_subject = week_subjects(analysed, context.rules)
            lookups = _history_lookups(analysis.pulls, context)
        if reuse is not None:
            reuse.keep((analysis, week_subject, lookups))
        results.append(analysis)
        history.append((analysis.stats.merged_count, analysis.stats.key_count))
        subjects.append(week_subject)
    return results


def _history_lookups(pulls: Sequence[AnalysedPull], context: RepoContext) -> tuple:
    """What the analysis of a week's reverts looked up in the rest of the history, as the context
    answers now: the title of each PR they undo, and which PR a reverted title names."""
    lookups = []
    for analysed in pulls:
        pull = analysed.pull
        reverted_title = parse_title(pull.title, context.rules).reverted_title if analysed.classification.is_revert else None
        if reverted_title:
            lookups.append((reverted_title, pull.merged_at, context.last_titled(reverted_title, pull.merged_at)))
        lookups.extend((number, context.title_of(number)) for e in analysed.evidence if e.fact == "reverted" for number in e.pulls[:1])
    return tuple(lookups)


def week_subjects(pulls: Sequence[AnalysedPull], rules) -> tuple[Counter, int]:
    """(how many of a week's people's PRs offer each theme subject, how many PRs that is)."""
    people = [p for p in pulls if not p.classification.bot]
    return Counter(name for p in people for name in theme_keys(p, rules)), len(people)


def week_range(pulls: Sequence[Pull], state: RepoState | None, since: date | None, now: datetime, tz) -> list[Week]:
    """The weeks analyse_repo covers (see its docstring); empty when there is nothing to show."""
    fetched = state is not None and state.source == "github"
    if pulls:
        first = min(week_of(p.merged_at, tz) for p in pulls)
    elif since is not None and fetched:
        first = week_of_date(since)
    elif fetched and state.complete_since is not None:
        first = week_of(state.complete_since, tz)  # fetched, and nothing merged: quiet weeks, not no weeks
    else:
        return []
    if since is not None:
        first = max(first, week_of_date(since))
    if fetched and state.watermark is not None:
        # the watermark is an exclusive end: a history complete up to Monday 00:00 ends the week before
        last = week_of(min(now, state.watermark - timedelta(microseconds=1)), tz)
    elif pulls:
        last = max(week_of(p.merged_at, tz) for p in pulls)
    else:
        return []
    return weeks_between(first, last) if first <= last else []
