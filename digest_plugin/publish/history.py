"""From the store to analysed weeks for one repository: the step shared by the build and `show`."""

from __future__ import annotations

from datetime import datetime

from ..analysis import analyse_repo
from ..analysis.model import WeekAnalysis
from ..errors import DigestError
from ..repo_state import RepoState, repo_life
from ..settings import DigestSettings
from ..store import Store


def load_weeks(store: Store, repo: str, settings: DigestSettings, now: datetime) -> list[WeekAnalysis]:
    """Every week of `repo` in the store, analysed; one clear error when the store lacks it."""
    if not store.root.is_dir():
        raise DigestError(f"The data folder {store.root} does not exist; run 'repo-digest fetch' or 'repo-digest sample' first.")
    state = store.read_state(repo)
    pulls = store.read_pulls(repo, repo_life(state, now))
    if state is None and not pulls:
        known = ", ".join(store.repos()) or "none"
        raise DigestError(f"{repo} is not in the store at {store.root} (it holds: {known}); fetch or import it first.")
    if state is None:
        # pulls without a state file: nothing says the history is whole, so no week is shown as complete
        state = RepoState(repo, "github")
    return analyse_repo(repo, pulls, state, settings, now)
