"""Running the analysis over a repository: every week from its stored pulls, in order.

`analyse_repo` is the stage's entry point (see the package docstring). A week is analysed in
stages, each a pure function of one input (`PullsInput`, `WeekInput`, `ThemeInput`) and of the
repository's context, which the runner given to `analysed_weeks` calls as it likes: directly, or
through a cache (build/cache.py's `Stages`), which a worker process may have filled with the pulls
of a slice of weeks (`analyse_pulls`). What a stage knows of the repository beyond its input it
asks of `RepoContext.history` (`History`): a cache records the questions and their answers
(`Recording`) and trusts a kept output only while every question it asked answers the same.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, tzinfo

from digest_plugin.analysis.classify import ModuleScheme, classify, module_scheme, parse_title
from digest_plugin.analysis.consequences import (
    consequences_of,
    introduced_names,
    mitigation_of,
    shipped_name,
    what_breaks,
)
from digest_plugin.analysis.description import description_text, summary_of, template_lines
from digest_plugin.analysis.file_history import Added, FileHistory, file_history
from digest_plugin.analysis.footprint import footprint
from digest_plugin.analysis.importance import by_importance, importance
from digest_plugin.analysis.key import KEY_WEEKS, key_cutoff, least_key_score
from digest_plugin.analysis.model import (
    AnalysedPull,
    Consequence,
    Evidence,
    FetchInfo,
    Release,
    Theme,
    WeekAnalysis,
)
from digest_plugin.analysis.options import AnalysisOptions
from digest_plugin.analysis.recommend import recommendations
from digest_plugin.analysis.remarks import without_draft_remarks
from digest_plugin.analysis.reverts import FollowUps
from digest_plugin.analysis.reviews import review_outcome
from digest_plugin.analysis.risks import (
    PullFacts,
    consequence_evidence,
    hotspots,
    kinds_of,
    pull_evidence,
    untested_new_files,
    week_risks,
)
from digest_plugin.analysis.rules import Rules, compile_rules
from digest_plugin.analysis.stats import first_time_pulls, week_stats
from digest_plugin.analysis.themes import (
    BASELINE_MAX_WEEKS,
    Vocabulary,
    WeekNames,
    baseline_weeks,
    vocabulary,
    week_names,
    week_themes,
)
from digest_plugin.analysis.upgrades import own_release, upgrades
from digest_plugin.records.pull import Pull, format_time
from digest_plugin.records.state import RepoState
from digest_plugin.stages import Made, Recording, Runner, run_directly
from digest_plugin.weeks import Week, week_of, week_of_date, weeks_between

NEW_FILE_WEEKS = 12  # a file added this recently is new: untested and busy, it calls for tests


@dataclass(frozen=True)
class Conventions:
    """How a repository writes, learned from its whole history, read by every week's analysis."""

    template: frozenset[str]  # the repository's PR template lines (description.template_lines)
    scheme: ModuleScheme  # how the repository names its modules (classify.module_scheme)


class History:
    """What the rest of a repository's history says, as questions a stage asks about single facts
    (their answers change as the history grows). Its methods are the only way in: `Recording`
    keeps every question asked, so a question added here is one a cache asks again."""

    def __init__(self, pulls: Sequence[Pull], rules: Rules, timezone: tzinfo):
        self._numbers_by_title: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
        for pull in sorted(pulls, key=lambda p: (p.merged_at, p.number)):
            self._numbers_by_title[_title_key(pull.title)].append((pull.merged_at, pull.number))
        self._titles = {p.number: p.title for p in pulls}
        self._first_time = first_time_pulls(pulls, rules, timezone)
        self._follow_ups = FollowUps(pulls)
        self._file_history: FileHistory = file_history(pulls, rules)
        # made when first asked: half the history's making, which analysing pulls never asks
        self._vocabulary = functools.cache(functools.partial(vocabulary, pulls, rules))
        self._releases = sorted(p.merged_at for p in pulls if own_release(p, rules))
        self._introductions = sorted(
            (p.merged_at, p.number, names)
            for p in pulls
            if (names := introduced_names(parse_title(p.title, rules).description, p.body))
        )

    def vocabulary(self) -> Vocabulary:
        """The names of its strands of work, and its generic words (themes.vocabulary): what the
        themes' context holds, keyed whole."""
        return self._vocabulary()

    def first_time(self, number: int) -> bool:
        """Whether PR `number` is its author's first merged PR (stats.first_time_pulls)."""
        return number in self._first_time

    def title_of(self, number: int) -> str | None:
        """The title of stored PR `number` (what a revert undoes: Evidence.detail)."""
        return self._titles.get(number)

    def last_titled(self, title: str, before: datetime) -> int | None:
        """The last PR of `title` merged before `before`: what a revert naming that title undoes
        (a re-landed change may share the title)."""
        earlier = [
            n for merged, n in self._numbers_by_title.get(_title_key(title), ()) if merged < before
        ]
        return earlier[-1] if earlier else None

    def follow_up(self, revert: Pull, reverted: int | None) -> tuple[str | None, int | None]:
        """What later PRs did after a revert (reverts.FollowUps.after)."""
        return self._follow_ups.after(revert, reverted)

    def locks_before(self, when: datetime) -> tuple[str, ...]:
        """The lock files kept just before `when`, sorted."""
        return tuple(sorted(self._file_history.locks_before(when)))

    def introduced_unreleased(self, name: str, before: datetime) -> int | None:
        """The PR that first brought `name` in (consequences.introduced_names), where it came after
        the repository's last release before `before`: a name no release has shipped. None where a
        release came between, or where the history holds no release to tell by."""
        released = [merged for merged in self._releases if merged < before]
        first = next(
            ((merged, n) for merged, n, names in self._introductions if name in names), None
        )
        if not released or first is None or not released[-1] < first[0] < before:
            return None
        return first[1]

    def added_since(self, path: str, since: datetime, until: datetime) -> Added | None:
        """The last addition of `path` merged in [since, until), or None."""
        return self._file_history.added_since(path, since, until)


@dataclass(frozen=True)
class RepoContext:
    """What analysing one PR or week needs to know about its repository, computed once. A cache
    keys `inputs` whole (the rules are compiled from the options) and asks `history` again. The
    themes' context (`theme_context`) has the vocabulary instead of the history."""

    repo: str
    options: AnalysisOptions
    rules: Rules
    conventions: Conventions
    history: History | Recording | None
    vocabulary: Vocabulary | None = None

    @property
    def inputs(self) -> tuple:
        return self.repo, self.options, self.conventions, self.vocabulary


def repo_context(repo: str, pulls: Sequence[Pull], options: AnalysisOptions) -> RepoContext:
    rules = compile_rules(options.rules, repo, options.bots)
    thresholds = rules.thresholds
    conventions = Conventions(
        template=template_lines(
            (p.body for p in pulls), thresholds.template_share, thresholds.template_min_pulls
        ),
        scheme=module_scheme(pulls, rules),
    )
    return RepoContext(repo, options, rules, conventions, History(pulls, rules, options.timezone))


def theme_context(context: RepoContext) -> RepoContext:
    assert context.history is not None  # a repository's context (repo_context)
    return replace(context, history=None, vocabulary=context.history.vocabulary())


def analyse_pull(pull: Pull, context: RepoContext, first_time: bool | None = None) -> AnalysedPull:
    """Classification, score, summary, footprint and risk evidence of one PR (hotspots and themes
    are added per week). `first_time`, where the caller knows it, is not asked of the history."""
    rules, history, template = context.rules, context.history, context.conventions.template
    assert history is not None  # a repository's context: only the themes' has no history
    classification = classify(pull, rules, context.conventions.scheme)
    title = parse_title(pull.title, rules)
    if classification.is_revert and classification.reverts is None and title.reverted_title:
        reverted = history.last_titled(title.reverted_title, pull.merged_at)
        if reverted is not None:
            classification = replace(classification, reverts=reverted)
    repo = _repo_of(pull.url)
    description = description_text(pull.body, template, repo)
    paths, kinds = rules.files_of(pull)
    moved = upgrades(pull, classification, rules, description)
    locks = frozenset(history.locks_before(pull.merged_at)) if moved else frozenset()
    facts = PullFacts(
        pull,
        classification,
        paths,
        kinds,
        description,
        footprint(pull, rules),
        moved,
        rules,
        review_outcome(pull),
        locks,
    )
    score = importance(pull, classification, rules, facts.upgrades, description)
    evidence = tuple(
        _reverted(e, pull, history) if e.fact == "reverted" else e for e in pull_evidence(facts)
    )
    headline = title.description or pull.title  # the title without its prefixes
    said = _for_users(consequences_of(pull, headline, kinds, template, repo), pull, history)
    breaks = what_breaks(pull, headline, said, template, repo)
    evidence = tuple(  # a marker says what breaks only in the PR's own words
        replace(e, reason=breaks or None) if e.fact == "breaking-marker" else e for e in evidence
    )
    advice = mitigation_of(pull, template, repo)
    evidence = (*evidence, *consequence_evidence(pull.number, said, advice))
    return AnalysedPull(
        pull=pull,
        classification=classification,
        score=score,
        # narrowed by its week (analyse_week)
        key=score.value >= least_key_score(context.options.key_threshold),
        summary=summary_of(
            without_draft_remarks(description), headline, rules.thresholds.summary_chars
        ),
        risks=kinds_of(evidence),
        first_time=history.first_time(pull.number) if first_time is None else first_time,
        footprint=facts.footprint,
        upgrades=facts.upgrades,
        evidence=evidence,
        review=facts.review,
        consequences=said,
        mitigation=advice,
    )


def _for_users(
    said: tuple[Consequence, ...], pull: Pull, history: History | Recording
) -> tuple[Consequence, ...]:
    """The consequences but those of a name renamed or removed before any release shipped it:
    that takes nothing from users (ruff #23847 renamed TID254 a day after #23777 added it)."""
    return tuple(
        c
        for c in said
        if not ((name := shipped_name(c)) and history.introduced_unreleased(name, pull.merged_at))
    )


def _reverted(evidence: Evidence, pull: Pull, history: History | Recording) -> Evidence:
    """A revert's evidence with what the history knows: the reverted PR named by its title (quoted
    from GitHub, for it may lie outside the week), and what happened next, when the revert needed
    a follow-up at all."""
    reverted = evidence.pulls[0] if evidence.pulls else None
    if reverted is not None:
        evidence = replace(evidence, detail=history.title_of(reverted))
    if evidence.outcome is None:  # neither accidental nor peripheral
        outcome, by = history.follow_up(pull, reverted)
        evidence = replace(evidence, outcome=outcome, by=by)
    return evidence


def _repo_of(url: str) -> str:
    """ "owner/name" from a PR's address (https://github.com/owner/name/pull/12); "" otherwise."""
    parts = url.split("/")
    return f"{parts[3]}/{parts[4]}" if len(parts) > 5 and parts[5] == "pull" else ""


def _title_key(title: str) -> str:
    return " ".join(title.split()).lower()


# -- a week's stages -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PullsInput:
    """A week's pulls, each with whether it is its author's first: what `pulls_stage` analyses
    one by one, of no other week (the week names them, and lets a slice of weeks be told apart)."""

    week: Week
    pulls: tuple[tuple[Pull, bool], ...]


@dataclass(frozen=True)
class WeekInput:
    """What a week's analysis reads besides the history: its pulls analysed (`pulls_stage`);
    whether it is in progress, and complete; its fetch, without the time (which every fetch
    changes: `analysed_weeks` sets it); and of the weeks before it, oldest first, the (merged, key)
    counts its movement figures compare with and the scores its key bar is set by."""

    week: Week
    pulls: Made[tuple[AnalysedPull, ...]]
    progress: tuple[bool, bool]
    fetch: FetchInfo
    previous: tuple[tuple[int, int], ...] = ()
    earlier_scores: tuple[tuple[float, ...], ...] = ()


@dataclass(frozen=True)
class AnalysedWeek:
    analysis: WeekAnalysis  # without themes (`theme_week`)
    names: WeekNames  # what its themes, and later weeks' baselines, are made of (themes.week_names)


@dataclass(frozen=True)
class ThemeInput:
    week: Made[AnalysedWeek]
    # the weeks its themes compare with (themes.baseline_weeks), oldest first
    baseline: tuple[Made[AnalysedWeek], ...]


def pulls_stage(input: PullsInput, context: RepoContext) -> tuple[AnalysedPull, ...]:
    """A week's pulls analysed (`analyse_pull`): most of a week's work, and none of it depends
    on the weeks before, so slices of weeks can be analysed apart (`analyse_pulls`)."""
    return tuple(analyse_pull(pull, context, first) for pull, first in input.pulls)


def week_stage(input: WeekInput, context: RepoContext) -> AnalysedWeek:
    """A week's analysis but its themes, from its analysed pulls."""
    tz, rules = context.options.timezone, context.rules
    pulls = _keyed(input.pulls.value, input.earlier_scores, context)
    hot = hotspots([p.pull for p in pulls], rules)
    hot_numbers = {n for numbers in hot.values() for n in numbers}
    pulls = [
        replace(
            p, risks=kinds_of((*p.evidence, Evidence("hot-file", p.pull.number, kind="hotspot")))
        )
        if p.pull.number in hot_numbers
        else p
        for p in pulls
    ]
    ordered = tuple(sorted(pulls, key=by_importance))
    assert context.history is not None  # a repository's context (repo_context)
    untested = untested_new_files(
        hot, ordered, functools.partial(_added_lately, context.history, input.week, tz), rules
    )
    in_progress, complete = input.progress
    risks, good_news = week_risks(ordered, hot, untested)
    analysis = WeekAnalysis(
        repo=context.repo,
        week=str(input.week),
        start=input.week.monday,
        end=input.week.sunday,
        timezone=str(tz),
        complete=complete,
        in_progress=in_progress,
        pulls=ordered,
        stats=week_stats(ordered, rules, input.previous, context.options.trend_weeks),
        risks=risks,
        good_news=good_news,
        recommendations=recommendations(risks, good_news),
        releases=tuple(
            Release(p.pull.number, version)
            for p in sorted(ordered, key=lambda p: (p.pull.merged_at, p.pull.number))
            if (version := own_release(p.pull, rules))
        ),
        fetch=input.fetch,
    )
    return AnalysedWeek(analysis, week_names(analysis.pulls, context.rules))


def theme_week(input: ThemeInput, context: RepoContext) -> tuple[Theme, ...]:
    analysed = input.week.value
    baseline = [week.value.names for week in input.baseline]
    assert context.vocabulary is not None  # the themes' context (theme_context)
    return week_themes(
        analysed.analysis.pulls, analysed.names, baseline, context.rules, context.vocabulary
    )


def with_themes(
    input: tuple[Made[AnalysedWeek], Made[tuple[Theme, ...]]], context: None = None
) -> WeekAnalysis:
    """The week's analysis, and each of its pulls, with the week's themes."""
    week, themes = input[0].value.analysis, input[1].value
    pulls = tuple(
        replace(p, themes=named)
        if (named := tuple(t.name for t in themes if p.pull.number in t.pulls))
        else p
        for p in week.pulls
    )
    return replace(week, themes=themes, pulls=pulls)


def analyse_week(
    week: Week,
    pulls: Sequence[AnalysedPull],
    context: RepoContext,
    state: RepoState | None,
    now: datetime,
) -> WeekAnalysis:
    """One week from its analysed pulls, themes included, in one call, with no weeks before it
    (for the movement figures, the key bar and the themes' baseline)."""
    tz = context.options.timezone
    inputs = WeekInput(
        week, Made(tuple(pulls)), progress_of(week, state, now, tz), fetch_info(week, state, tz)
    )
    analysed = Made(week_stage(inputs, context))
    themes = theme_week(ThemeInput(analysed, ()), theme_context(context))
    return with_themes((analysed, Made(themes)))


def _keyed(
    pulls: Sequence[AnalysedPull], earlier_scores: Sequence[Sequence[float]], context: RepoContext
) -> list[AnalysedPull]:
    """The week's pulls, each key when its score clears the week's bar (key.key_cutoff)."""
    cutoff = key_cutoff(
        [p.score.value for p in pulls], earlier_scores, context.options.key_threshold
    )
    return [p if p.key == (p.score.value >= cutoff) else replace(p, key=not p.key) for p in pulls]


def _added_lately(history: History | Recording, week: Week, tz, path: str) -> Added | None:
    """The addition of `path` in the NEW_FILE_WEEKS up to the week's end, if the store saw one."""
    end = week.end(tz)
    return history.added_since(path, end - timedelta(weeks=NEW_FILE_WEEKS), end)


def progress_of(week: Week, state: RepoState | None, now: datetime, tz) -> tuple[bool, bool]:
    """(in progress at `now`, fetched through its end and closed)."""
    start, end = week.start(tz), week.end(tz)
    in_progress = start <= now < end
    return in_progress, (
        state.is_complete(start, end) if state is not None else True
    ) and not in_progress


def fetch_info(week: Week, state: RepoState | None, tz) -> FetchInfo:
    start, end = week.start(tz), week.end(tz)
    return FetchInfo(
        source=state.source if state is not None else "import",
        fetched_at=format_time(state.fetched_at) if state is not None else None,
        truncated=bool(state is not None and any(w.overlaps(start, end) for w in state.incomplete)),
        skipped=state.skipped(start, end) if state is not None else (),
    )


DIFF_PULLS_PER_WEEK = 10


def diff_pulls(week: WeekAnalysis) -> list[AnalysedPull]:
    """The key PRs of a week whose diff excerpt the model writer's request shows (narrate/llm/prompt.py),
    and so the only ones a fetch asks GitHub for: the DIFF_PULLS_PER_WEEK most important that have core
    lines (a docs or CI change has none to excerpt). Its PRs are in importance order."""
    return [p for p in week.pulls if p.key and p.footprint.main_files][:DIFF_PULLS_PER_WEEK]


def key_pull_files(
    weeks: Sequence[WeekAnalysis], numbers: Collection[int]
) -> dict[int, tuple[str, ...]]:
    """The PRs whose diff the model reads (`diff_pulls`) of the weeks that hold any of `numbers` (the PRs
    a fetch just brought), each with the files a diff excerpt of it should show."""
    wanted = set(numbers)
    return {
        p.pull.number: p.footprint.main_files
        for week in weeks
        if any(p.pull.number in wanted for p in week.pulls)
        for p in diff_pulls(week)
    }


# -- a repository ----------------------------------------------------------------------------------


def analyse_repo(
    repo: str,
    pulls: Sequence[Pull],
    state: RepoState | None,
    options: AnalysisOptions,
    now: datetime,
    run: Runner = run_directly,
) -> list[WeekAnalysis]:
    """Every week of a repository, chronological, quiet weeks included (`analysed_weeks`)."""
    return [made.value for made in analysed_weeks(repo, pulls, state, options, now, run)]


def analysed_weeks(
    repo: str,
    pulls: Sequence[Pull],
    state: RepoState | None,
    options: AnalysisOptions,
    now: datetime,
    run: Runner = run_directly,
) -> list[Made[WeekAnalysis]]:
    """Every week of a repository, chronological, quiet weeks included, each as `run` made it.

    From the week of the first stored PR (or of options.since, if later) to the week containing
    min(now, watermark) for GitHub-fetched stores, else the week of the last stored PR. Each week
    goes through `pulls_stage`, `week_stage`, `theme_week` and `with_themes`, called by `run`. A
    week's key leaves out the time of its fetch, which is set last.
    """
    tz = options.timezone
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)  # a naive clock reading is taken as UTC, as records are
    weeks = week_range(pulls, state, options.since, now, tz)
    if not weeks:
        return []
    first = weeks[0]
    context = repo_context(repo, pulls, options)
    themes = theme_context(context)
    by_week = _by_week(pulls, tz)
    made: list[Made[AnalysedWeek]] = []
    results = []
    for week in _span(weeks, by_week, options, context.rules):
        fetch = fetch_info(week, state, tz)
        inputs = WeekInput(
            week,
            run("pulls", pulls_stage, _pulls_input(week, by_week, context), context),
            progress_of(week, state, now, tz),
            replace(fetch, fetched_at=None),
            tuple(
                (m.value.analysis.stats.merged_count, m.value.analysis.stats.key_count)
                for m in made[-options.trend_weeks :]
            ),
            tuple(
                tuple(p.score.value for p in m.value.analysis.pulls)
                for m in made[-(KEY_WEEKS - 1) :]
            ),
        )
        analysed = run("week", week_stage, inputs, context)
        if week >= first:
            window = made[-BASELINE_MAX_WEEKS:]
            chosen = len(baseline_weeks([m.value.names for m in window], context.rules))
            themed = run(
                "themes",
                theme_week,
                ThemeInput(analysed, tuple(window[len(window) - chosen :])),
                themes,
            )
            week_made = run("themed week", with_themes, (analysed, themed), None)
            if week_made.value.fetch != fetch:
                week_made = Made(replace(week_made.value, fetch=fetch), week_made.key)
            results.append(week_made)
        made.append(analysed)
    return results


def week_span(
    repo: str,
    pulls: Sequence[Pull],
    state: RepoState | None,
    options: AnalysisOptions,
    now: datetime,
) -> list[Week]:
    """Every week `analysed_weeks` analyses, oldest first: those it shows (`week_range`), and
    before them those that feed their figures (DIGEST_SINCE)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    weeks = week_range(pulls, state, options.since, now, options.timezone)
    rules = compile_rules(options.rules, repo, options.bots)
    return _span(weeks, _by_week(pulls, options.timezone), options, rules) if weeks else []


def analyse_pulls(
    repo: str, pulls: Sequence[Pull], options: AnalysisOptions, run: Runner, weeks: Sequence[Week]
) -> None:
    """`pulls_stage` of each of `weeks` (a slice of `week_span`), run by `run` as `analysed_weeks`
    runs it: a cache's runner (build/cache.py's `Stages`) keeps what a later `analysed_weeks`,
    through the same cache, recalls rather than makes."""
    context = repo_context(repo, pulls, options)
    by_week = _by_week(pulls, options.timezone)
    for week in weeks:
        run("pulls", pulls_stage, _pulls_input(week, by_week, context), context)


def _by_week(pulls: Sequence[Pull], tz: tzinfo) -> dict[Week, list[Pull]]:
    by_week: dict[Week, list[Pull]] = defaultdict(list)
    for pull in pulls:
        by_week[week_of(pull.merged_at, tz)].append(pull)
    return by_week


def _span(
    weeks: Sequence[Week], by_week: dict[Week, list[Pull]], options: AnalysisOptions, rules: Rules
) -> list[Week]:
    # Weeks before the first shown (DIGEST_SINCE) still feed the movement figures, the key bar and
    # the themes' baseline.
    first = earliest = weeks[0]
    for _ in range(max(options.trend_weeks, rules.thresholds.theme_baseline_weeks, KEY_WEEKS - 1)):
        earliest = earliest.previous()
    return weeks_between(max(earliest, min(by_week, default=first)), weeks[-1])


def _pulls_input(week: Week, by_week: dict[Week, list[Pull]], context: RepoContext) -> PullsInput:
    assert context.history is not None  # a repository's context (repo_context)
    return PullsInput(
        week, tuple((p, context.history.first_time(p.number)) for p in by_week.get(week, ()))
    )


def week_range(
    pulls: Sequence[Pull], state: RepoState | None, since: date | None, now: datetime, tz
) -> list[Week]:
    """The weeks analyse_repo covers (see its docstring); empty when there is nothing to show."""
    fetched = state is not None and state.source == "github"
    if pulls:
        first = min(week_of(p.merged_at, tz) for p in pulls)
    elif since is not None and fetched:
        first = week_of_date(since)
    elif fetched and state is not None and state.complete_since is not None:
        # fetched, and nothing merged: quiet weeks, not no weeks
        first = week_of(state.complete_since, tz)
    else:
        return []
    if since is not None:
        first = max(first, week_of_date(since))
    if fetched and state is not None and state.watermark is not None:
        # the watermark is an exclusive end: a history complete up to Monday 00:00 ends the week before
        last = week_of(min(now, state.watermark - timedelta(microseconds=1)), tz)
    elif pulls:
        last = max(week_of(p.merged_at, tz) for p in pulls)
    else:
        return []
    return weeks_between(first, last) if first <= last else []
