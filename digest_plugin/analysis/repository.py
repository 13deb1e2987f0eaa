"""Running the analysis over a repository: every week from its stored pulls, in order.

`analyse_repo` is the stage's entry point (see the package docstring); `repo_context` computes
once what every PR's analysis needs to know about the whole repository.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from digest_plugin.analysis.classify import ModuleScheme, classify, module_scheme, parse_title
from digest_plugin.analysis.description import description_text, summary_of, template_lines
from digest_plugin.analysis.footprint import footprint
from digest_plugin.analysis.importance import by_importance, importance
from digest_plugin.analysis.memo import Memo
from digest_plugin.analysis.model import AnalysedPull, Evidence, FetchInfo, Release, WeekAnalysis
from digest_plugin.analysis.recommend import recommendations
from digest_plugin.analysis.risks import PullFacts, hotspots, kinds_of, pull_evidence, week_risks
from digest_plugin.analysis.rules import Rules, load_rules
from digest_plugin.analysis.stats import first_time_pulls, week_stats
from digest_plugin.analysis.themes import theme_keys, week_themes
from digest_plugin.analysis.upgrades import own_release, upgrades
from digest_plugin.settings import DigestSettings
from digest_plugin.store.records import Pull, format_time
from digest_plugin.store.state import RepoState
from digest_plugin.weeks import Week, week_of, week_of_date, weeks_between


@dataclass(frozen=True)
class RepoContext:
    """What analysing one PR needs to know about its whole repository, computed once. The memo of
    earlier builds keys weeks by it (`_context_inputs`): a field added here belongs there too."""

    rules: Rules
    template: frozenset[str]  # the repository's PR template lines (summary.template_lines)
    first_time: frozenset[int]  # numbers of first-time contributors' PRs (stats.first_time_pulls)
    titles: dict[int, str]  # number -> title of every stored PR, to name what reverts undo (Evidence.detail)
    numbers_by_title: dict[str, list[tuple[datetime, int]]]  # title -> (merged_at, number), oldest first
    key_threshold: float
    scheme: ModuleScheme  # how the repository names its modules (classify.module_scheme)

    def title_of(self, number: int) -> str | None:
        return self.titles.get(number)

    def last_titled(self, title: str, before: datetime) -> int | None:
        """The last PR of `title` merged before `before`: what a revert naming that title undoes
        (a re-landed change may share the title)."""
        earlier = [n for merged, n in self.numbers_by_title.get(_title_key(title), ()) if merged < before]
        return earlier[-1] if earlier else None


def repo_context(repo: str, pulls: Sequence[Pull], settings: DigestSettings) -> RepoContext:
    rules = load_rules(settings.rules, settings.base_path, repo, settings.bots)
    thresholds = rules.thresholds
    numbers_by_title: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
    for pull in sorted(pulls, key=lambda p: (p.merged_at, p.number)):
        numbers_by_title[_title_key(pull.title)].append((pull.merged_at, pull.number))
    return RepoContext(
        rules=rules,
        template=template_lines((p.body for p in pulls), thresholds.template_share, thresholds.template_min_pulls),
        first_time=first_time_pulls(pulls, rules, settings.timezone),
        titles={p.number: p.title for p in pulls},
        numbers_by_title=numbers_by_title,
        key_threshold=settings.key_threshold,
        scheme=module_scheme(pulls, rules),
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


def analyse_week(repo: str, week: Week, pulls: Sequence[AnalysedPull], context: RepoContext, settings: DigestSettings,
                 state: RepoState | None, now: datetime, previous: Sequence[tuple[int, int]] = (),
                 subjects: Sequence[tuple[Counter, int]] = ()) -> WeekAnalysis:
    """One week from its analysed pulls. `previous` is (merged, key) of the weeks before, oldest
    first, for the movement figures; `subjects` is `week_subjects` of the weeks before, for themes."""
    tz = settings.timezone
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
        timezone=settings.timezone.key,
        complete=complete,
        in_progress=in_progress,
        pulls=ordered,
        stats=week_stats(ordered, context.rules, previous, settings.trend_weeks),
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
    )


def analyse_repo(repo: str, pulls: Sequence[Pull], state: RepoState | None, settings: DigestSettings,
                 now: datetime, memo: Memo | None = None) -> list[WeekAnalysis]:
    """Every week of a repository, chronological, quiet weeks included.

    From the week of the first stored PR (or of settings.since, if later) to the week containing
    min(now, watermark) for GitHub-fetched stores, else the week of the last stored PR.
    With a `memo` of earlier builds, a week whose inputs are unchanged is taken from it (see
    `_WeekKeys`); the result is the same either way.
    """
    tz = settings.timezone
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)  # a naive clock reading is taken as UTC, as records are
    weeks = week_range(pulls, state, settings.since, now, tz)
    if not weeks:
        return []
    first = weeks[0]
    context = repo_context(repo, pulls, settings)
    keys = _WeekKeys(memo, repo, context, settings) if memo is not None else None
    by_week: dict[Week, list[Pull]] = defaultdict(list)
    for pull in pulls:
        by_week[week_of(pull.merged_at, tz)].append(pull)

    # Weeks before `first` (DIGEST_SINCE) still feed the movement figures and the themes' baseline.
    history: list[tuple[int, int]] = []
    subjects: list[tuple[Counter, int]] = []
    earliest = first
    for _ in range(max(settings.trend_weeks, context.rules.thresholds.theme_baseline_weeks)):
        earliest = earliest.previous()
    earliest = max(earliest, min(by_week, default=first))
    for week in weeks_between(earliest, first.previous()) if earliest < first else []:
        analysed = [analyse_pull(p, context) for p in by_week.get(week, ())]
        history.append((len(analysed), sum(1 for p in analysed if p.key)))
        subjects.append(week_subjects(analysed, context.rules))
        if keys is not None:
            keys.follow(week, by_week.get(week, ()), state, now)

    results = []
    for week in weeks:
        week_pulls = by_week.get(week, ())
        remembered = keys.recall(week, week_pulls, state, now) if keys is not None else None
        if remembered is not None:
            analysis, week_subject = remembered
        else:
            analysed = [analyse_pull(p, context) for p in week_pulls]
            analysis = analyse_week(repo, week, analysed, context, settings, state, now, history, subjects)
            week_subject = week_subjects(analysed, context.rules)
            if keys is not None:
                keys.remember(analysis, week_subject)
        results.append(analysis)
        history.append((analysis.stats.merged_count, analysis.stats.key_count))
        subjects.append(week_subject)
    return results


class _WeekKeys:
    """The memo keys of a repository's weeks, oldest first. A week's key hashes its pulls (each with
    whether it is its author's first), whether it is in progress or complete, and the key of the
    week before, which hashes the repository's context and settings: a change anywhere in the
    history changes the keys of the weeks after it, not before. The fetch time is not hashed (every
    refresh changes it): a remembered week gets the current one. A week with a revert looks up
    PRs from anywhere in the history (`RepoContext.title_of`, `last_titled`), so it is remembered
    with what those lookups gave, and recalled only while they give the same."""

    def __init__(self, memo: Memo, repo: str, context: RepoContext, settings: DigestSettings):
        self.memo, self.context, self.tz = memo, context, settings.timezone
        self.key = memo.key("repo", repo, _settings_inputs(settings), _context_inputs(context))

    def follow(self, week: Week, pulls: Sequence[Pull], state: RepoState | None, now: datetime) -> None:
        first_time = self.context.first_time
        self.key = self.memo.key("week", self.key, str(week), progress_of(week, state, now, self.tz),
                                 tuple((_pull_hash(p), p.number in first_time) for p in pulls))

    def recall(self, week: Week, pulls: Sequence[Pull], state: RepoState | None, now: datetime) -> tuple[WeekAnalysis, tuple[Counter, int]] | None:
        self.follow(week, pulls, state, now)
        remembered = self.memo.get(self.key)
        if remembered is None:
            return None
        analysis, subjects, lookups = remembered
        if lookups != _history_lookups(analysis.pulls, self.context):
            return None
        analysis = replace(analysis, fetch=fetch_info(week, state, self.tz))
        self.memo.put(self.key, (analysis, subjects, lookups))
        self.memo.tag(analysis, self.key)
        return analysis, subjects

    def remember(self, analysis: WeekAnalysis, subjects: tuple[Counter, int]) -> None:
        self.memo.put(self.key, (analysis, subjects, _history_lookups(analysis.pulls, self.context)))
        self.memo.tag(analysis, self.key)


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


def repo_key(memo: Memo, repo: str, data_hash: str, settings: DigestSettings, now: datetime) -> str:
    """The memo key of a repository's whole analysis, from the hash of its stored files (the
    caller's, who reads them), the settings, and the week `now` falls in (all that `now` decides)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return memo.key("repo", repo, data_hash, _settings_inputs(settings), str(week_of(now, settings.timezone)))


def remembered_weeks(memo: Memo, keys: Sequence[str]) -> list[WeekAnalysis] | None:
    """The weeks `analyse_repo` made under `keys` (`memo.tag_of` each), or None if any is gone."""
    weeks = []
    for key in keys:
        remembered = memo.get(key)
        if remembered is None:
            return None
        weeks.append(remembered[0])
        memo.tag(remembered[0], key)
    return weeks


def _pull_hash(pull: Pull) -> str:
    return hashlib.sha1(repr(pull).encode("utf-8")).hexdigest()


def _settings_inputs(settings: DigestSettings) -> tuple:
    """The settings the analysis reads (DIGEST_RULES as read: the rules file's content)."""
    return (settings.timezone.key, settings.since, settings.trend_weeks, settings.key_threshold,
            settings.rules, settings.bots, str(settings.base_path))


def _context_inputs(context: RepoContext) -> tuple:
    """What of the context a week's analysis reads, but for what reverts look up (see _WeekKeys)
    and `first_time` (hashed per pull). A field added to RepoContext belongs here too."""
    return (sorted(context.template), context.scheme.kind, sorted(context.scheme.scopes), context.key_threshold)


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
