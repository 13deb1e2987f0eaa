"""Running the analysis over a repository: every week from its stored pulls, in order.

`analyse_repo` is the stage's entry point (see the package docstring); `repo_context` computes
once what every PR's analysis needs to know about the whole repository. A memo of earlier builds
(`Reuse`, build/cache.py) may hand back weeks whose inputs it has seen: the analysis says what
those inputs are, the memo keys them.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from digest_plugin.analysis.classify import ModuleScheme, classify, module_scheme, parse_title
from digest_plugin.analysis.consequences import consequences_of, mitigation_of
from digest_plugin.analysis.description import description_text, summary_of, template_lines
from digest_plugin.analysis.file_history import Added, FileHistory, file_history
from digest_plugin.analysis.footprint import footprint
from digest_plugin.analysis.importance import by_importance, importance
from digest_plugin.analysis.key import KEY_WEEKS, key_cutoff, least_key_score
from digest_plugin.analysis.model import AnalysedPull, Evidence, FetchInfo, Release, Theme, WeekAnalysis
from digest_plugin.analysis.options import AnalysisOptions
from digest_plugin.analysis.recommend import recommendations
from digest_plugin.analysis.remarks import without_draft_remarks
from digest_plugin.analysis.reverts import FollowUps, follow_ups
from digest_plugin.analysis.reviews import review_outcome
from digest_plugin.analysis.risks import PullFacts, consequence_evidence, hotspots, kinds_of, pull_evidence, untested_new_files, week_risks
from digest_plugin.analysis.rules import Rules, compile_rules
from digest_plugin.analysis.stats import first_time_pulls, week_stats
from digest_plugin.analysis.themes import Vocabulary, WeekNames, baseline_weeks, vocabulary, vocabulary_used, week_names, week_themes
from digest_plugin.analysis.upgrades import own_release, upgrades
from digest_plugin.store.records import Pull, format_time
from digest_plugin.store.state import RepoState
from digest_plugin.weeks import Week, week_of, week_of_date, weeks_between

NEW_FILE_WEEKS = 12  # a file added this recently is new: untested and busy, it calls for tests


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
    key_threshold: float | None  # DIGEST_KEY_THRESHOLD; None: relative to the weeks before (key.py)
    follow_ups: FollowUps  # what later PRs did after a revert (reverts.follow_ups)
    file_history: FileHistory  # lock files kept and source files added, over time (file_history.file_history)
    vocabulary: Vocabulary  # the names of its strands of work, and its generic words (themes.vocabulary)

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

    def lookup(self, inputs: tuple) -> tuple[WeekAnalysis, WeekNames, tuple[str, tuple]] | None:
        """(analysis, week_names, lookups) kept by an earlier build for these inputs, if any."""

    def keep(self, remembered: tuple[WeekAnalysis, WeekNames, tuple[str, tuple]], made_of: tuple) -> None:
        """The week just analysed (or looked up) from the inputs last given to `lookup`; what is
        made from the analysis (its narrative) depends on `made_of` too, not only on the inputs:
        the answers of its lookups and the themes the vocabulary gave it."""


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
        follow_ups=follow_ups(pulls),
        file_history=file_history(pulls, rules),
        vocabulary=vocabulary(pulls, rules),
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
    description = description_text(pull.body, context.template, _repo_of(pull.url))
    paths, kinds = rules.files_of(pull)
    moved = upgrades(pull, classification, rules, description)
    locks = context.file_history.locks_before(pull.merged_at) if moved else frozenset()
    facts = PullFacts(pull, classification, paths, kinds, description, footprint(pull, rules), moved, rules, review_outcome(pull), locks)
    score = importance(pull, classification, rules, facts.upgrades, description)
    evidence = tuple(_reverted(e, pull, context) if e.fact == "reverted" else e for e in pull_evidence(facts))
    said = consequences_of(pull, title.description or pull.title, kinds, context.template, _repo_of(pull.url))
    advice = mitigation_of(pull, context.template, _repo_of(pull.url))
    evidence = (*evidence, *consequence_evidence(pull.number, said, advice))
    return AnalysedPull(
        pull=pull,
        classification=classification,
        score=score,
        key=score.value >= least_key_score(context.key_threshold),  # narrowed by its week (analyse_week)
        summary=summary_of(without_draft_remarks(description), title.description or pull.title, rules.thresholds.summary_chars),
        risks=kinds_of(evidence),
        first_time=pull.number in context.first_time,
        footprint=facts.footprint,
        upgrades=facts.upgrades,
        evidence=evidence,
        review=facts.review,
        consequences=said,
        mitigation=advice,
    )


def _reverted(evidence: Evidence, pull: Pull, context: RepoContext) -> Evidence:
    """A revert's evidence with what the history knows: the reverted PR named by its title (quoted
    from GitHub, for it may lie outside the week), and what happened next, when the revert needed
    a follow-up at all."""
    reverted = evidence.pulls[0] if evidence.pulls else None
    if reverted is not None:
        evidence = replace(evidence, detail=context.title_of(reverted))
    if evidence.outcome is None:  # neither accidental nor peripheral
        outcome, by = context.follow_ups.after(pull, reverted)
        evidence = replace(evidence, outcome=outcome, by=by)
    return evidence
def _repo_of(url: str) -> str:
    """ "owner/name" from a PR's address (https://github.com/owner/name/pull/12); "" otherwise."""
    parts = url.split("/")
    return f"{parts[3]}/{parts[4]}" if len(parts) > 5 and parts[5] == "pull" else ""


def _title_key(title: str) -> str:
    return " ".join(title.split()).lower()


def analyse_week(repo: str, week: Week, pulls: Sequence[AnalysedPull], context: RepoContext, options: AnalysisOptions,
                 state: RepoState | None, now: datetime, previous: Sequence[tuple[int, int]] = (),
                 subjects: Sequence[WeekNames] = (), names: WeekNames | None = None,
                 earlier_scores: Sequence[Sequence[float]] = ()) -> WeekAnalysis:
    """One week from its analysed pulls. `previous` is (merged, key) of the weeks before, oldest
    first, for the movement figures; `subjects` is `week_names` of the weeks before, and `names`
    the week's own (worked out when not given), for themes; `earlier_scores` the importance of
    the PRs of the weeks before, oldest first, which the bar for key PRs is relative to."""
    tz = options.timezone
    pulls = _keyed(pulls, earlier_scores, context)
    hot = hotspots([p.pull for p in pulls], context.rules)
    hot_numbers = {n for numbers in hot.values() for n in numbers}
    pulls = [replace(p, risks=kinds_of((*p.evidence, Evidence("hot-file", p.pull.number, kind="hotspot"))))
             if p.pull.number in hot_numbers else p for p in pulls]
    ordered = tuple(sorted(pulls, key=by_importance))
    untested = untested_new_files(hot, ordered, functools.partial(_added_lately, context, week, tz), context.rules)
    themes, ordered = _themed(ordered, week_names(ordered, context.rules) if names is None else names, subjects, context)
    in_progress, complete = progress_of(week, state, now, tz)
    risks, good_news = week_risks(ordered, hot, untested)
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


def _keyed(pulls: Sequence[AnalysedPull], earlier_scores: Sequence[Sequence[float]], context: RepoContext) -> list[AnalysedPull]:
    """The week's pulls, each key when its score clears the week's bar (key.key_cutoff)."""
    cutoff = key_cutoff([p.score.value for p in pulls], earlier_scores, context.key_threshold)
    return [p if p.key == (p.score.value >= cutoff) else replace(p, key=not p.key) for p in pulls]


def _scores(pulls: Sequence[AnalysedPull]) -> tuple[float, ...]:
    return tuple(p.score.value for p in pulls)


def _themed(pulls: tuple[AnalysedPull, ...], names: WeekNames, before: Sequence[WeekNames],
            context: RepoContext) -> tuple[tuple[Theme, ...], tuple[AnalysedPull, ...]]:
    """The week's themes, and its pulls each with the themes it belongs to."""
    themes = week_themes(pulls, names, baseline_weeks(before, context.rules), context.rules, context.vocabulary)
    return themes, tuple(replace(p, themes=tuple(t.name for t in themes if p.pull.number in t.pulls)) for p in pulls)


def _rethemed(analysis: WeekAnalysis, names: WeekNames, before: Sequence[WeekNames], context: RepoContext) -> WeekAnalysis:
    """A remembered week with its themes made again: all it needs when only the vocabulary changed."""
    themes, pulls = _themed(analysis.pulls, names, before, context)
    return replace(analysis, themes=themes, pulls=pulls)


def _added_lately(context: RepoContext, week: Week, tz, path: str) -> Added | None:
    """The addition of `path` in the NEW_FILE_WEEKS up to the week's end, if the store saw one."""
    end = week.end(tz)
    return context.file_history.added_since(path, end - timedelta(weeks=NEW_FILE_WEEKS), end)


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


DIFF_PULLS_PER_WEEK = 10


def diff_pulls(week: WeekAnalysis) -> list[AnalysedPull]:
    """The key PRs of a week whose diff excerpt the model writer's request shows (narrate/llm/prompt.py),
    and so the only ones a fetch asks GitHub for: the DIFF_PULLS_PER_WEEK most important that have core
    lines (a docs or CI change has none to excerpt). Its PRs are in importance order."""
    return [p for p in week.pulls if p.key and p.footprint.main_files][:DIFF_PULLS_PER_WEEK]


def key_pull_files(weeks: Sequence[WeekAnalysis], numbers: Collection[int]) -> dict[int, tuple[str, ...]]:
    """The PRs whose diff the model reads (`diff_pulls`) of the weeks that hold any of `numbers` (the PRs
    a fetch just brought), each with the files a diff excerpt of it should show."""
    wanted = set(numbers)
    return {p.pull.number: p.footprint.main_files for week in weeks if any(p.pull.number in wanted for p in week.pulls)
            for p in diff_pulls(week)}


Spread = Callable[[Callable[[Pull], AnalysedPull], Sequence[Pull]], list[AnalysedPull]]


def analyse_repo(repo: str, pulls: Sequence[Pull], state: RepoState | None, options: AnalysisOptions,
                 now: datetime, reuse: Reuse | None = None, spread: Spread | None = None) -> list[WeekAnalysis]:
    """Every week of a repository, chronological, quiet weeks included.

    From the week of the first stored PR (or of options.since, if later) to the week containing
    min(now, watermark) for GitHub-fetched stores, else the week of the last stored PR.
    With `reuse`, a memo of earlier builds, a week whose inputs it has seen is taken from it; the
    result is the same either way. `spread(function, pulls)`, which the caller gives when nothing
    is remembered, maps `function` over every PR at once, spread over the cores as it likes.
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
    subjects: list[WeekNames] = []
    scores: list[tuple[float, ...]] = []  # each week's PRs' importance, for the bar of key PRs
    earliest = first
    for _ in range(max(options.trend_weeks, context.rules.thresholds.theme_baseline_weeks, KEY_WEEKS - 1)):
        earliest = earliest.previous()
    earliest = max(earliest, min(by_week, default=first))
    ahead = _analysed_ahead([week for week in by_week if earliest <= week <= weeks[-1]], by_week, context, spread) if spread else {}

    def analysed_pulls(week: Week) -> list[AnalysedPull]:
        return [ahead.pop(p.number, None) or analyse_pull(p, context) for p in by_week.get(week, ())]

    for week in weeks_between(earliest, first.previous()) if earliest < first else []:
        analysed = _keyed(analysed_pulls(week), scores, context)
        history.append((len(analysed), sum(1 for p in analysed if p.key)))
        subjects.append(week_names(analysed, context.rules))
        scores.append(_scores(analysed))
        if reuse is not None:
            reuse.earlier_week(inputs(week))

    results = []
    for week in weeks:
        remembered = reuse.lookup(inputs(week)) if reuse is not None else None
        recalled = _recalled(remembered, week, state, subjects, scores, context, tz) if remembered is not None else None
        if recalled is not None:
            analysis, names, lookups = recalled
        else:
            analysed = analysed_pulls(week)
            names = week_names(analysed, context.rules)
            analysis = analyse_week(repo, week, analysed, context, options, state, now, history, subjects, names, scores)
            lookups = _history_lookups(analysis, names, subjects, scores, context, tz)
        if reuse is not None:
            # Not the vocabulary's digest: a new week changes what it says of some name of nearly
            # every week, and most weeks' themes come out the same (ruff: 84 of 85 weeks).
            reuse.keep((analysis, names, lookups), made_of=(lookups[1], analysis.themes))
        results.append(analysis)
        history.append((analysis.stats.merged_count, analysis.stats.key_count))
        subjects.append(names)
        scores.append(_scores(analysis.pulls))
    return results


def _analysed_ahead(weeks: Collection[Week], by_week: dict[Week, list[Pull]], context: RepoContext, spread: Spread) -> dict[int, AnalysedPull]:
    """Every PR of `weeks` analysed by `spread`, by number. Each comes back without its record,
    which `spread` then need not carry: it is put back here."""
    pulls = [pull for week in sorted(weeks) for pull in by_week[week]]
    lean = spread(functools.partial(_analysed_without_record, context=context), pulls)
    return {pull.number: replace(analysed, pull=pull) for pull, analysed in zip(pulls, lean, strict=True)}


def _analysed_without_record(pull: Pull, context: RepoContext) -> AnalysedPull:
    return replace(analyse_pull(pull, context), pull=None)


def _recalled(remembered: tuple[WeekAnalysis, WeekNames, tuple[str, tuple]], week: Week, state: RepoState | None,
              before: Sequence[WeekNames], earlier_scores: Sequence[Sequence[float]], context: RepoContext, tz) -> tuple[WeekAnalysis, WeekNames, tuple[str, tuple]] | None:
    """A week an earlier build analysed, as `analyse_repo` keeps it (analysis, names, lookups), if
    what it looked up in the history still gives the same; `before` is `week_names` of the weeks
    before it, `earlier_scores` their PRs' importance. When only the vocabulary says something else of its names (a new week changes it a
    little), it is given its themes again, which costs a fraction of analysing it again. The fetch
    time is no input (every refresh changes it): the week gets the current one."""
    analysis, names, (vocabulary_then, lookups_then) = remembered
    lookups = _history_lookups(analysis, names, before, earlier_scores, context, tz)
    if lookups[1] != lookups_then:
        return None
    analysis = replace(analysis, fetch=fetch_info(week, state, tz))
    if lookups[0] != vocabulary_then:
        analysis = _rethemed(analysis, names, before, context)
    return analysis, names, lookups


def _history_lookups(analysis: WeekAnalysis, names: WeekNames, before: Sequence[WeekNames], earlier_scores: Sequence[Sequence[float]],
                     context: RepoContext, tz) -> tuple[str, tuple]:
    """What the analysis of a week looked up in the rest of the history, as the context answers
    now: (what the vocabulary makes of the names of its PRs, `names`, and of the weeks its themes
    compare with, of `before`; the rest:) for its reverts, the title of each PR they undo, which PR
    a reverted title names, and what later PRs did after each (the weeks after it may have grown
    since); the lock files kept when its upgrades merged; when its hot files were added; the bar
    its key PRs cleared, which the scores of the weeks before it set."""
    week = Week.parse(analysis.week)
    lookups: list = [("key cutoff", key_cutoff(_scores(analysis.pulls), earlier_scores, context.key_threshold))]
    lookups += [(path, _added_lately(context, week, tz, path)) for risk in analysis.risks for path in risk.paths]
    for analysed in analysis.pulls:
        if analysed.upgrades:
            lookups.append((analysed.pull.number, tuple(sorted(context.file_history.locks_before(analysed.pull.merged_at)))))
        pull = analysed.pull
        reverted_title = parse_title(pull.title, context.rules).reverted_title if analysed.classification.is_revert else None
        if reverted_title:
            lookups.append((reverted_title, pull.merged_at, context.last_titled(reverted_title, pull.merged_at)))
        for evidence in analysed.evidence:
            if evidence.fact == "reverted":
                reverted = evidence.pulls[0] if evidence.pulls else None
                lookups.append((reverted, context.title_of(reverted) if reverted is not None else None))
                if evidence.outcome not in ("accidental", "peripheral"):  # what later PRs did: the history after the week
                    lookups.append((pull.number, context.follow_ups.after(pull, reverted)))
    return vocabulary_used((names, *baseline_weeks(before, context.rules)), context.vocabulary), tuple(lookups)


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
