"""From the store to analysed weeks for one repository: the step shared by the build and `show`."""

from __future__ import annotations

from datetime import datetime

from ..analysis import analyse_repo
from ..analysis.memo import Memo
from ..analysis.model import WeekAnalysis
from ..analysis.repository import remembered_weeks, repo_key
from ..errors import DigestError
from ..repo_state import RepoState, repo_life
from ..settings import DigestSettings
from ..store import Store


def load_weeks(store: Store, repo: str, settings: DigestSettings, now: datetime, memo: Memo | None = None) -> list[WeekAnalysis]:
    """Every week of `repo` in the store, analysed; one clear error when the store lacks it.

    With a `memo` of earlier builds, a store unchanged since one of them is not even read again."""
    if not store.root.is_dir():
        raise DigestError(f"The data folder {store.root} does not exist; run 'repo-digest fetch' or 'repo-digest sample' first.")
    key = repo_key(memo, repo, store.content_hash(repo), settings, now) if memo is not None else None
    if key is not None and (week_keys := memo.get(key)) is not None and (weeks := remembered_weeks(memo, week_keys)) is not None:
        return weeks
    state = store.read_state(repo)
    pulls = store.read_pulls(repo, repo_life(state, now))
    if state is None and not pulls:
        known = ", ".join(store.repos()) or "none"
        raise DigestError(f"{repo} is not in the store at {store.root} (it holds: {known}); fetch or import it first.")
    if state is None:
        # pulls without a state file: nothing says the history is whole, so no week is shown as complete
        state = RepoState(repo, "github")
    weeks = analyse_repo(repo, pulls, state, settings, now, memo)
    if key is not None:
        memo.put(key, tuple(memo.tag_of(week) for week in weeks))
    return weeks
