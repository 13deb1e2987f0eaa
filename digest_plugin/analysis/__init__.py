"""Analysis stage: pure functions from stored pulls to a week's results. No network, no Pelican.

    weeks = analyse_repo("owner/name", store.read_pulls(repo), store.read_state(repo), settings, now)

gives one `WeekAnalysis` per week (model.py), chronological, quiet weeks included. The steps,
one module each: `rules` (defaults + DIGEST_RULES), `classify`, `upgrades`, `importance`, `summary`,
`risks`, `stats`. The only file read is a DIGEST_RULES YAML file, once per call.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from ..records import Pull, format_time
from ..repo_state import RepoState
from ..settings import DigestSettings
from ..weeks import Week, week_of, week_of_date, weeks_between
from .classify import classify, parse_title
from .importance import importance
from .model import AnalysedPull, FetchInfo, WeekAnalysis
from .risks import hotspots, pull_risks, week_risks
from .rules import Rules, load_rules
from .stats import first_time_pulls, week_stats
from .summary import description_text, summarise, summary_of, template_lines

__all__ = ["RepoContext", "analyse_pull", "analyse_repo", "analyse_week", "classify", "importance", "load_rules", "repo_context", "summarise"]


@dataclass(frozen=True)
class RepoContext:
    """What analysing one PR needs to know about its whole repository, computed once."""

    rules: Rules
    template: frozenset[str]  # the repository's PR template lines (summary.template_lines)
    first_time: frozenset[int]  # numbers of first-time contributors' PRs (stats.first_time_pulls)
    titles: dict[int, str]  # number -> title of every stored PR, to name what reverts undo
    numbers_by_title: dict[str, list[tuple[datetime, int]]]  # title -> (merged_at, number), oldest first
    key_threshold: float


def repo_context(repo: str, pulls: Sequence[Pull], settings: DigestSettings) -> RepoContext:
    rules = load_rules(settings.rules, settings.base_path, repo, settings.bots)
    thresholds = rules.thresholds
    numbers_by_title: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
    for pull in sorted(pulls, key=lambda p: (p.merged_at, p.number)):
        numbers_by_title[_title_key(pull.title)].append((pull.merged_at, pull.number))
    return RepoContext(
        rules=rules,
        template=template_lines((p.body for p in pulls), thresholds["template_share"], thresholds["template_min_pulls"]),
        first_time=first_time_pulls(pulls, rules, settings.timezone),
        titles={p.number: p.title for p in pulls},
        numbers_by_title=numbers_by_title,
        key_threshold=settings.key_threshold,
    )


def analyse_pull(pull: Pull, context: RepoContext) -> AnalysedPull:
    """Classification, score, summary and risk kinds of one PR (hotspots are added per week)."""
    rules = context.rules
    classification = classify(pull, rules)
    title = parse_title(pull.title, rules)
    if classification.is_revert and classification.reverts is None and title.reverted_title:
        # the last PR of that title merged before the revert: a re-landed change may share it
        earlier = [n for merged, n in context.numbers_by_title.get(_title_key(title.reverted_title), ()) if merged < pull.merged_at]
        if earlier:
            classification = replace(classification, reverts=earlier[-1])
    score = importance(pull, classification, rules)
    description = description_text(pull.body, context.template)
    return AnalysedPull(
        pull=pull,
        classification=classification,
        score=score,
        key=score.value >= context.key_threshold,
        summary=summary_of(description, title.description or pull.title, rules.thresholds["summary_chars"]),
        risks=pull_risks(pull, classification, rules, description),
        first_time=pull.number in context.first_time,
    )


def _title_key(title: str) -> str:
    return " ".join(title.split()).lower()


def analyse_week(repo: str, week: Week, pulls: Sequence[AnalysedPull], context: RepoContext, settings: DigestSettings,
                 state: RepoState | None, now: datetime, previous: Sequence[tuple[int, int]] = ()) -> WeekAnalysis:
    """One week from its analysed pulls. `previous` is (merged, key) of the weeks before, oldest
    first, for the movement figures."""
    tz = settings.timezone
    start, end = week.start(tz), week.end(tz)
    hot = hotspots([p.pull for p in pulls], context.rules)
    hot_numbers = {n for numbers in hot.values() for n in numbers}
    pulls = [replace(p, risks=(*p.risks, "hotspot")) if p.pull.number in hot_numbers else p for p in pulls]
    ordered = tuple(sorted(pulls, key=lambda p: (-p.score.value, p.pull.number)))
    in_progress = start <= now < end
    complete = (state.is_complete(start, end) if state is not None else True) and not in_progress
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
        risks=week_risks(ordered, hot, context.titles),
        fetch=FetchInfo(
            source=state.source if state is not None else "import",
            fetched_at=format_time(state.fetched_at) if state is not None else None,
            truncated=bool(state is not None and any(w.overlaps(start, end) for w in state.incomplete)),
        ),
    )


def analyse_repo(repo: str, pulls: Sequence[Pull], state: RepoState | None, settings: DigestSettings,
                 now: datetime) -> list[WeekAnalysis]:
    """Every week of a repository, chronological, quiet weeks included.

    From the week of the first stored PR (or of settings.since, if later) to the week containing
    min(now, watermark) for GitHub-fetched stores, else the week of the last stored PR.
    """
    tz = settings.timezone
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)  # a naive clock reading is taken as UTC, as records are
    weeks = week_range(pulls, state, settings.since, now, tz)
    if not weeks:
        return []
    first = weeks[0]
    context = repo_context(repo, pulls, settings)
    by_week: dict[Week, list[Pull]] = defaultdict(list)
    for pull in pulls:
        by_week[week_of(pull.merged_at, tz)].append(pull)

    # Weeks before `first` (DIGEST_SINCE) still feed the movement figures of the first weeks.
    history: list[tuple[int, int]] = []
    earliest = first
    for _ in range(settings.trend_weeks):
        earliest = earliest.previous()
    earliest = max(earliest, min(by_week, default=first))
    for week in weeks_between(earliest, first.previous()) if earliest < first else []:
        analysed = [analyse_pull(p, context) for p in by_week.get(week, ())]
        history.append((len(analysed), sum(1 for p in analysed if p.key)))

    results = []
    for week in weeks:
        analysed = [analyse_pull(p, context) for p in by_week.get(week, ())]
        results.append(analyse_week(repo, week, analysed, context, settings, state, now, history))
        history.append((results[-1].stats.merged_count, results[-1].stats.key_count))
    return results


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
