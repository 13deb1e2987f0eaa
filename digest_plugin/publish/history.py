"""From the store to analysed weeks: for one repository (the step shared by the build and `show`),
or for all of a site's, one after another, those with nothing remembered analysed in worker
processes: several, one a worker; one alone, in slices of its weeks, one a core."""

from __future__ import annotations

import io
import logging
import pickle
import sys
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import pairwise
from logging.handlers import BufferingHandler
from pathlib import Path
from typing import Any, TypeVar, cast

from digest_plugin.analysis import AnalysisOptions, analyse_repo, checked_rules
from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.analysis.repository import (
    analyse_pulls,
    analysed_weeks,
    key_pull_files,
    week_span,
)
from digest_plugin.build.cache import AnalysisMemos, Memo, Stages
from digest_plugin.build.workers import WORKER_PRELOAD, cores, parallel_stream, started
from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Pull
from digest_plugin.records.state import RepoState, Window, repo_life
from digest_plugin.settings import DigestSettings, default_rules
from digest_plugin.stages import Made, Runner, run_directly
from digest_plugin.store.folder import MonthFile, Store
from digest_plugin.weeks import Week, week_of

logger = logging.getLogger(__name__)
PARALLEL_FROM = 2  # repositories to analyse afresh before worker processes pay for their start-up
# One repository analysed afresh is cut into slices of weeks, one a core, from this many PRs: a
# worker first starts (0.7 s), reads the store and makes the repository's context (0.2 ms a PR),
# which a smaller share of fewer PRs (about 1 ms each) does not pay for.
SLICED_FROM = 2000
# That start-up, in PRs the build's own process analyses meanwhile: its slice, the first, is larger
# (for ruff, 1,000 came out best of 500, 1,000 and 1,500).
HEAD_START = 1000
T = TypeVar("T")


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
    store: Store,
    repo: str,
    options: AnalysisOptions,
    now: datetime,
    memo: Memo | None = None,
    slices: int = 1,
) -> list[Made[WeekAnalysis]]:
    """Every week of `repo` in the store, analysed, each with its key; one clear error when the
    store lacks it. With a `memo`, its weeks may be cut into `slices` (a build gives a repository
    with nothing remembered one a core), all but the first analysed in worker processes meanwhile
    (`_stages`): the weeks come out the same.

    A build of a moment before the data was fetched (SOURCE_DATE_EPOCH, a reproducible rebuild)
    shows the repository as it was then: the PRs merged later are left out, with one line saying
    how many. With a `memo` of earlier builds, each stage of a week is run through it (`Stages`),
    and a store unchanged since one of them is not even read again."""
    store.check_folder("run 'repo-digest fetch' or 'repo-digest sample' first.")
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    state = store.read_state(repo)
    # the data as this build sees it: all of the store, or what had merged by a past moment
    seen = store.content_hash(repo) + (f" until {now.isoformat()}" if _past(state, now) else "")
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
    shown = _shown(pulls, state, now)
    _say_left_out(repo, len(pulls) - len(shown), now)
    if memo is None or key is None:
        return analysed_weeks(repo, shown, state, options, now, run_directly)
    with _stages(store.root, repo, shown, state, options, now, memo, slices) as runner:
        weeks = analysed_weeks(repo, shown, state, options, now, runner)
    memo.put(key, (tuple(weeks), tuple(memo.kept()), len(pulls) - len(shown)))
    return weeks


def _past(state: RepoState | None, now: datetime) -> bool:
    """Whether the build shows a moment before the store's fetch (SOURCE_DATE_EPOCH)."""
    return state is not None and state.fetched_at is not None and now < state.fetched_at


def _shown(pulls: list[Pull], state: RepoState | None, now: datetime) -> list[Pull]:
    """The pulls a build of moment `now` shows: those merged by then."""
    return [pull for pull in pulls if pull.merged_at <= now] if _past(state, now) else pulls


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


@contextmanager
def _stages(
    root: Path,
    repo: str,
    pulls: list[Pull],
    state: RepoState,
    options: AnalysisOptions,
    now: datetime,
    memo: Memo,
    slices: int,
) -> Iterator[Runner]:
    """The memo as the analysis's runner (`Stages`). In `slices`, from SLICED_FROM PRs: the weeks
    cut into slices of about as many PRs (`week_slices`); while this process analyses the first,
    each worker analyses the pulls of another (`_analyse_slice`), whose memo entries join this
    one's as the analysis reaches its weeks (`_Joining`), and are recalled there."""
    stages = Stages(memo)
    parts = slices if len(pulls) >= SLICED_FROM else 1
    weeks = week_span(repo, pulls, state, options, now) if parts > 1 else []
    counts = Counter(week_of(pull.merged_at, options.timezone) for pull in pulls)
    starts = week_slices([counts[week] for week in weeks], parts, HEAD_START)
    if not starts:
        yield stages
        return
    theirs = [weeks[start:end] for start, end in pairwise([*starts, len(weeks)])]
    jobs = [(root, repo, options, now, memo.salt, part) for part in theirs]
    with started(_analyse_slice, jobs, preload=WORKER_PRELOAD) as results:
        by_number = {pull.number: pull for pull in pulls}
        yield _Joining(stages, [part[0] for part in theirs], results, by_number)


def week_slices(counts: Sequence[int], parts: int, head_start: int) -> list[int]:
    """Where each slice of weeks but the first starts (an index into `counts`, the PRs of each
    week) when the weeks are cut into at most `parts` contiguous slices of about as many PRs, the
    first `head_start` more than the others; none when there is not enough for two."""
    share = (sum(counts) - head_start) / parts
    starts: list[int] = []
    seen, bound = 0, share + head_start
    for index, count in enumerate(counts):
        if seen >= bound and len(starts) < parts - 1 and share > 0:
            starts.append(index)
            bound += share
        seen += count
    return starts


class _Joining:
    """`Stages`, with the memo entries of each worker's slice of weeks joining its memo when the
    analysis reaches the slice's first week: the workers hand them back in the order of their
    slices, and the analysis goes through the weeks in order."""

    def __init__(
        self,
        stages: Stages,
        starts: Sequence[Week],
        results: Iterator,
        pulls: Mapping[int, Pull],
    ):
        self._stages, self._starts, self._results = stages, deque(starts), results
        self._pulls = pulls

    def __call__(
        self, name: str, stage: Callable[[Any, Any], T], input: Any, context: Any
    ) -> Made[T]:
        while name == "pulls" and self._starts and input.week >= self._starts[0]:
            self._starts.popleft()
            entries, warnings = next(self._results)
            _say(warnings)
            self._stages.memo.learn(_with_pulls(entries, self._pulls))
        return self._stages(name, stage, input, context)


def _analyse_slice(
    root: Path, repo: str, options: AnalysisOptions, now: datetime, salt: str, weeks: list[Week]
) -> tuple[bytes, list[tuple[str, int, str]]]:
    """In a worker: the pulls of `weeks` analysed (analysis.repository.analyse_pulls) into a memo
    salted as the build's, whose entries it hands back pickled without their pulls (`_PullsApart`),
    with the warnings logged on the way."""
    with _warnings_kept():  # the build's process read the same store, and said what it found
        store = Store(root)
        state = store.read_state(repo)
        pulls = _shown(store.read_pulls(repo, repo_life(state, now)), state, now)
    memo = Memo(salt)
    with _warnings_kept() as warnings:
        analyse_pulls(repo, pulls, options, Stages(memo), weeks)
    kept = io.BytesIO()
    _PullsApart(kept, protocol=pickle.HIGHEST_PROTOCOL).dump(memo.kept())
    return kept.getvalue(), warnings


class _PullsApart(pickle.Pickler):
    """Pickles a worker's analyses with each pull by its number: the build's process has them
    all, read from the same store, so its analyses hold one copy of each (`_with_pulls`)."""

    def persistent_id(self, obj: object) -> int | None:
        return obj.number if type(obj) is Pull else None


class _PullsJoined(pickle.Unpickler):
    def __init__(self, data: bytes, pulls: Mapping[int, Pull]):
        super().__init__(io.BytesIO(data))
        self._pulls = pulls

    def persistent_load(self, pid: int) -> Pull:
        return self._pulls[pid]


def _with_pulls(data: bytes, pulls: Mapping[int, Pull]) -> dict[str, object]:
    """A worker's memo entries (`_PullsApart`) with this process's pulls; none when it saw a pull
    this one has not. Either way, where the store changed in between, the entries are keyed by what
    the worker read, so none is recalled for a week this process reads otherwise: it analyses those
    weeks itself."""
    try:
        return cast("dict[str, object]", _PullsJoined(data, pulls).load())
    except KeyError:
        return {}


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
    one a core, while the rest, mostly recalled, are loaded here; one alone is analysed here, its
    weeks in slices, one a core (`made_weeks`; build/workers.py has the figures)."""
    fresh = [name for name in names if memos is None or not memos.remembers(name)]
    in_workers = fresh if len(fresh) >= PARALLEL_FROM and cores() >= 2 else []
    salt = memos.salt if memos is not None else None
    jobs = ((store.root, name, options, now, salt) for name in in_workers)
    # One job more than the workers: each has the next at hand while the caller takes in the last,
    # and no more than that wait in memory for the caller.
    analysed = parallel_stream(
        _analyse_afresh,
        jobs,
        len(in_workers),
        preload=WORKER_PRELOAD,
        parallel_from=PARALLEL_FROM,
        window=cores() + 1,
    )
    for name in names:
        if name in in_workers:  # the workers hand repositories back in the order given them
            weeks, memo, warnings = next(analysed)
            _say(warnings)
        else:
            memo = memos.load(name) if memos is not None else None
            # one alone afresh: its weeks are spread over the cores instead
            weeks = made_weeks(store, name, options, now, memo, cores() if name in fresh else 1)
        yield name, weeks, memo
        del weeks, memo  # before the next repository's are loaded


def _analyse_afresh(
    root: Path, repo: str, options: AnalysisOptions, now: datetime, salt: str | None
) -> tuple[list[Made[WeekAnalysis]], Memo | None, list[tuple[str, int, str]]]:
    """In a worker: the repository's weeks, the memo that remembers them (None without a salt: the
    build keeps none), and the warnings logged on the way, kept rather than printed by the worker."""
    memo = Memo(salt) if salt is not None else None
    with _warnings_kept() as warnings:
        weeks = made_weeks(Store(root), repo, options, now, memo)
    return weeks, memo, warnings


@contextmanager
def _warnings_kept() -> Iterator[list[tuple[str, int, str]]]:
    """The warnings logged within, as (logger, level, message), kept rather than printed: a
    worker has no log of its own to show them in (`_say` says them in the build's)."""
    kept = BufferingHandler(capacity=sys.maxsize)  # never full, so never flushed: it only keeps
    kept.setLevel(logging.WARNING)
    said: list[tuple[str, int, str]] = []
    logging.getLogger().addHandler(kept)
    try:
        yield said
    finally:
        logging.getLogger().removeHandler(kept)
        said.extend((record.name, record.levelno, record.getMessage()) for record in kept.buffer)


def _say(warnings: list[tuple[str, int, str]]) -> None:
    """A worker's warnings, said as if here, where the build's log shows them."""
    for logger_name, level, message in warnings:
        logging.getLogger(logger_name).log(level, "%s", message)
