"""From the store to analysed weeks: for one repository (the step shared by the build and `show`),
or for all of a site's, one after another, those with nothing remembered analysed in worker processes."""

from __future__ import annotations

import logging
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from logging.handlers import BufferingHandler
from pathlib import Path
from typing import cast

from digest_plugin.analysis import AnalysisOptions, analyse_repo, checked_rules
from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.analysis.repository import analysed_weeks, key_pull_files
from digest_plugin.build.cache import AnalysisMemos, Memo, Stages
from digest_plugin.build.workers import WORKER_PRELOAD, cores, parallel_stream
from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Pull
from digest_plugin.records.state import RepoState, Window, repo_life
from digest_plugin.settings import DigestSettings, default_rules
from digest_plugin.stages import Made, run_directly
from digest_plugin.store.folder import MonthFile, Store
from digest_plugin.weeks import week_of

logger = logging.getLogger(__name__)
PARALLEL_FROM = 2  # repositories to analyse afresh before worker processes pay for their start-up


def analysis_options(settings: DigestSettings) -> AnalysisOptions:
    """What the analysis reads of the settings, DIGEST_RULES merged over the bundled rules and
    checked: a misspelt rule fails here, once a build, before anything is analysed."""
    user = settings.rules
    data, origin = (user.data, user.origin) if user else (None, None)
    rules = checked_rules(default_rules(), data, origin)
    return AnalysisOptions(
        rules,
        settings.timezone,
        settings.since,
        settings.trend_weeks,
        settings.key_threshold,
        settings.bots,
    )


def diff_targets(
    store: Store, settings: DigestSettings, fetched: Mapping[str, Collection[int]]
) -> dict[str, dict[int, tuple[str, ...]]]:
    """What the orchestrator (`repo-digest fetch`, a build's DIGEST_FETCH) hands fetch's diff step
    (fetch.fetch_key_diffs) once the PRs are fetched, by repository: the PRs of the weeks holding
    those `fetched` whose excerpt a model request shows (analysis.repository.diff_pulls), with the
    files each is about. Nothing for the built-in writer, which shows no diff."""
    if settings.writer == "builtin":
        return {}
    options = analysis_options(settings)
    now = datetime.now(UTC)
    targets = {}
    for repo, numbers in fetched.items():
        if numbers:
            weeks = analyse_repo(repo, store.read_pulls(repo), None, options, now)
            targets[repo] = key_pull_files(weeks, numbers)
    return targets


def load_weeks(
    store: Store, repo: str, options: AnalysisOptions, now: datetime, memo: Memo | None = None
) -> list[WeekAnalysis]:
    """Every week of `repo` in the store, analysed (`made_weeks`)."""
    return [made.value for made in made_weeks(store, repo, options, now, memo)]


def made_weeks(
    store: Store, repo: str, options: AnalysisOptions, now: datetime, memo: Memo | None = None
) -> list[Made[WeekAnalysis]]:
    """Every week of `repo` in the store, analysed, each with its key; one clear error when the
    store lacks it.

    A build of a moment before the data was fetched (SOURCE_DATE_EPOCH, a reproducible rebuild)
    shows the repository as it was then: the PRs merged later are left out, with one line saying
    how many. With a `memo` of earlier builds, each stage of a week is run through it (`Stages`),
    and a store unchanged since one of them is not even read again."""
    store.check_folder("run 'repo-digest fetch' or 'repo-digest sample' first.")
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    state = store.read_state(repo)
    past = state is not None and state.fetched_at is not None and now < state.fetched_at
    # the data as this build sees it: all of the store, or what had merged by a past moment
    seen = store.content_hash(repo) + (f" until {now.isoformat()}" if past else "")
    week = str(week_of(now, options.timezone))
    key = memo.key("repo", repo, seen, options, week) if memo is not None else None
    if memo is not None and key is not None and (remembered := memo.get(key)) is not None:
        # as put below: (weeks, the memo's keys they used, how many PRs were left out)
        kept, used, left_out = cast(
            "tuple[tuple[Made[WeekAnalysis], ...], tuple[str, ...], int]", remembered
        )
        for entry in used:  # kept for the next build, which may analyse some weeks again
            memo.get(entry)
        _say_left_out(repo, left_out, now)
        return list(kept)
    pulls = _read_pulls(store, repo, repo_life(state, now), memo)
    if state is None and not pulls:
        known = ", ".join(store.repos()) or "none"
        raise DigestError(
            f"{repo} is not in the store at {store.root} (it holds: {known}); fetch or import it first."
        )
    if state is None:
        # pulls without a state file: nothing says the history is whole, so no week is shown as complete
        state = RepoState(repo, "github")
    shown = [pull for pull in pulls if pull.merged_at <= now] if past else pulls
    _say_left_out(repo, len(pulls) - len(shown), now)
    runner = Stages(memo) if memo is not None else run_directly
    weeks = analysed_weeks(repo, shown, state, options, now, runner)
    if memo is not None and key is not None:
        memo.put(key, (tuple(weeks), memo.used_keys(), len(pulls) - len(shown)))
    return weeks


def _read_pulls(store: Store, repo: str, life: Window, memo: Memo | None) -> list[Pull]:
    """The repository's stored pulls; the month files an earlier build read (the memo's) are not
    parsed again where they are the same."""
    if memo is None:
        return store.read_pulls(repo, life)
    read = cast("dict[str, tuple[str, MonthFile]] | None", memo.get(memo.key("months", repo)))
    months = dict(read or {})
    pulls = store.read_pulls(repo, life, months)
    memo.put(memo.key("months", repo), months)  # as read now: the next build's
    return pulls


def _say_left_out(repo: str, count: int, now: datetime) -> None:
    if count:
        logger.warning(
            "%s: %d pull requests merged after %s UTC, the moment this build shows, are left out of it.",
            repo,
            count,
            f"{now.astimezone(UTC):%Y-%m-%d %H:%M}",
        )


def stream_histories(
    store: Store,
    names: Sequence[str],
    options: AnalysisOptions,
    now: datetime,
    memos: AnalysisMemos | None,
) -> Iterator[tuple[str, list[Made[WeekAnalysis]], Memo | None]]:
    """`made_weeks` for each repository, by name in the order given, one at a time, with the memo
    it used (where the build keeps memos, in `memos`), which the caller saves when it is done with
    it: a large site's analyses, bodies and files included, need not all be in memory at once.

    A repository with nothing remembered (a first build, a new one, or the first after an upgrade)
    takes seconds a thousand PRs, so when there are several they are analysed in worker processes,
    one a core, while the rest, mostly recalled, are loaded here (build/workers.py says why one
    alone is analysed here)."""
    fresh = [name for name in names if memos is None or not memos.remembers(name)]
    if len(fresh) < PARALLEL_FROM or cores() < 2:
        fresh = []
    salt = memos.salt if memos is not None else None
    jobs = ((store.root, name, options, now, salt) for name in fresh)
    # One job more than the workers: each has the next at hand while the caller takes in the last,
    # and no more than that wait in memory for the caller.
    analysed = parallel_stream(
        _analyse_afresh,
        jobs,
        len(fresh),
        preload=WORKER_PRELOAD,
        parallel_from=PARALLEL_FROM,
        window=cores() + 1,
    )
    for name in names:
        if name in fresh:  # the workers hand repositories back in the order they were given them
            weeks, memo, warnings = next(analysed)
            # said as if here, where the build's log shows them
            for logger_name, level, message in warnings:
                logging.getLogger(logger_name).log(level, "%s", message)
        else:
            memo = memos.load(name) if memos is not None else None
            weeks = made_weeks(store, name, options, now, memo)
        yield name, weeks, memo
        del weeks, memo  # before the next repository's are loaded


def _analyse_afresh(
    root: Path, repo: str, options: AnalysisOptions, now: datetime, salt: str | None
) -> tuple[list[Made[WeekAnalysis]], Memo | None, list[tuple[str, int, str]]]:
    """In a worker: the repository's weeks, the memo that remembers them (None without a salt: the
    build keeps none), and the warnings logged on the way, kept rather than printed by the worker."""
    memo = Memo(salt) if salt is not None else None
    kept = BufferingHandler(capacity=sys.maxsize)  # never full, so never flushed: it only keeps
    kept.setLevel(logging.WARNING)
    logging.getLogger().addHandler(kept)
    try:
        weeks = made_weeks(Store(root), repo, options, now, memo)
    finally:
        logging.getLogger().removeHandler(kept)
    warnings = [(record.name, record.levelno, record.getMessage()) for record in kept.buffer]
    return weeks, memo, warnings
