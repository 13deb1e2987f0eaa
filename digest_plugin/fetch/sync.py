"""Fetch stage: bringing one repository's stored history up to date with GitHub.

The store's state says which span of merge times is complete: [complete_since, watermark).
A fetch extends that span at both ends and never leaves a hole in it:

- forward, oldest window first, from `watermark - lookback` (late label edits) up to now; the
  watermark moves to the end of each window once its PRs are saved;
- backward, newest window first, down to `since`; complete_since moves to the start of each
  window once its PRs are saved. The `since` being worked towards is kept in `state.progress`,
  so a fetch that was interrupted resumes there, with or without --since.

Each window is one search under GitHub's 1,000-result cap (see windows.py). A window that cannot
be fetched completely is recorded in `state.incomplete`, never passed off as complete.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from digest_plugin.fetch.client import GitHubClient, NotFound, Refused, Unreachable
from digest_plugin.fetch.progress import Progress
from digest_plugin.fetch.queries import (
    COUNTS_PER_QUERY,
    MERGED_PULLS,
    PAGE_SIZE,
    merged_count_query,
    needs_rest_files,
    pull_from_node,
    rest_file_item,
    search_text,
)
from digest_plugin.fetch.windows import SEARCH_CAP, can_split, pack, parts_needed, split, steps
from digest_plugin.store.folder import Store
from digest_plugin.store.records import FILES_LIMIT, Pull, format_time, parse_time
from digest_plugin.store.state import RepoState, Window

PLAN_STEP = timedelta(days=7)  # long spans are counted week by week before fetching
COUNT_FIRST_SPAN = timedelta(days=35)  # shorter spans are fetched straight away
MIN_PAGE_SIZE = 10


@dataclass
class RepoReport:
    """What one repository's fetch did."""

    repo: str
    skipped: str | None = None  # a sentence saying why the repository was not fetched
    pulls: int = 0  # PR records received from GitHub
    changed: int = 0  # records added to or changed in the store
    windows: int = 0  # searches completed
    requests: int = 0
    incomplete: list[Window] = field(default_factory=list)  # windows found incomplete in this fetch
    complete_since: datetime | None = None
    watermark: datetime | None = None


class RepoSync:
    """One repository's fetch; holds the state as it advances window by window."""

    def __init__(self, store: Store, client: GitHubClient, repo: str, progress: Progress, page_size: int = PAGE_SIZE):
        self.store = store
        self.client = client
        self.repo = repo
        self.owner, self.name = repo.split("/")
        self.progress = progress
        self.page_size = page_size
        self.full_page_size = page_size
        self.report = RepoReport(repo)
        self.state: RepoState | None = None
        self._pending: dict[int, Pull] = {}  # pulls of the window in progress, saved on any failure
        self._stored: dict[int, Pull] | None = None  # the store's pulls, read when first needed

    def run(self, since: datetime, until: datetime, lookback: timedelta) -> RepoReport:
        """Fetch what the complete history [since, until) lacks, saving window by window."""
        state = self.store.read_state(self.repo)
        if state is not None and state.source == "sample":
            self.report.skipped = f"{self.repo} holds the bundled sample, which is never fetched from GitHub."
            return self.report
        first_requests = self.client.requests
        previous = state
        state, forward, backward = _plan(self.repo, state, since, until, lookback)
        self.state = state
        # The target and what is already done are on disk before the first request, so that a
        # fetch killed at any point resumes towards the same target, and a store whose first
        # fetch never finished reads as incomplete rather than as complete.
        self.store.write_state(self.state)
        try:
            if forward is not None:
                self._fetch_span(forward, newest_first=False)
            if backward is not None:
                self._fetch_span(backward, newest_first=True)
                self.state = replace(self.state, progress={k: v for k, v in self.state.progress.items() if k != "since"})
            self.state = replace(self.state, fetched_at=datetime.now(UTC))
            self.store.write_state(self.state)
        except (Refused, Unreachable):
            if not self._pending and not self.report.windows:
                self._restore(previous)  # a wrong name, token or address: leave the store as it was
            raise
        finally:
            self._save_pending()
            self.report.requests = self.client.requests - first_requests
            self.report.complete_since = self.state.complete_since
            self.report.watermark = self.state.watermark
        return self.report

    # -- planning ---------------------------------------------------------------------------

    def _fetch_span(self, span: Window, newest_first: bool) -> None:
        if newest_first and span.end - span.start > COUNT_FIRST_SPAN:
            plan = pack(self._counted(steps(span, PLAN_STEP)))
        else:
            plan = [(span, None)]  # the first page's issueCount tells whether it fits
        queue = deque(reversed(plan) if newest_first else plan)
        self.progress.windows_planned(len(queue))
        while queue:
            window, count = queue.popleft()
            parts = self._fetch_window(window, count)
            if parts is None:
                self._window_saved(window, newest_first)
                continue
            self.progress.windows_planned(len(parts) - 1)
            queue.extendleft(parts if newest_first else reversed(parts))

    def _counted(self, windows: list[Window]) -> list[tuple[Window, int]]:
        """Each window with its count, windows over the cap split until they fit (or cannot be split)."""
        counted: list[tuple[Window, int]] = []
        for batch_start in range(0, len(windows), COUNTS_PER_QUERY):
            batch = windows[batch_start : batch_start + COUNTS_PER_QUERY]
            variables = {"owner": self.owner, "name": self.name}
            variables.update({f"q{i}": search_text(self.repo, w) for i, w in enumerate(batch)})
            data = self.client.graphql(merged_count_query(len(batch)), variables, self.repo)
            self._check_repository(data)
            for i, window in enumerate(batch):
                count = int(data[f"w{i}"]["issueCount"])
                if count > SEARCH_CAP and can_split(window):
                    counted.extend(self._counted(split(window, parts_needed(count))))
                else:
                    counted.append((window, count))
        return counted

    # -- fetching ---------------------------------------------------------------------------

    def _fetch_window(self, window: Window, count: int | None) -> list[tuple[Window, int]] | None:
        """Fetch one window into the pending pulls; or, when it is over the cap, the parts to fetch instead."""
        if count == 0:
            return None
        found: dict[int, Pull] = {}
        total = None
        for _ in range(2):  # search occasionally delivers fewer than it counted: try once more
            found, total = self._search_pages(window)
            if total > SEARCH_CAP and can_split(window):
                return pack(self._counted(split(window, parts_needed(total))))
            if len(found) >= min(total, SEARCH_CAP):
                break
        if len(found) < total:
            self.report.incomplete.append(window)
            self.state = replace(self.state, incomplete=_merge_windows(self.state.incomplete, window))
            self.progress.note(
                f"{self.repo}: only {len(found)} of {total} PRs merged {window.start:%Y-%m-%d %H:%M:%S} to "
                f"{window.end:%Y-%m-%d %H:%M:%S} UTC could be fetched; that span is marked incomplete."
            )
        return None

    def _search_pages(self, window: Window) -> tuple[dict[int, Pull], int]:
        found: dict[int, Pull] = {}
        after, total = None, 0
        query = search_text(self.repo, window)
        while True:
            variables = {"owner": self.owner, "name": self.name, "search": query, "after": after}
            data = self.client.graphql(MERGED_PULLS, lambda failures, variables=variables: {**variables, "first": self._page_size(failures)}, self.repo)
            self._check_repository(data)
            self.page_size = min(self.full_page_size, self.page_size * 2)  # the fault has passed: grow back
            search = data["search"]
            total = int(search["issueCount"])
            if total > SEARCH_CAP and can_split(window):
                return found, total  # not worth paging: the window will be split
            for node in search["nodes"]:
                if not node or not node.get("mergedAt"):
                    continue  # not a merged pull request (the union can hold issues)
                rest_files = self._rest_files(node) if needs_rest_files(node) else None
                pull = pull_from_node(node, rest_files)
                found[pull.number] = pull
                self._pending[pull.number] = pull  # saved even if a later page fails
            if not search["pageInfo"]["hasNextPage"]:
                return found, total
            after = search["pageInfo"]["endCursor"]

    def _page_size(self, failures: int) -> int:
        """Half the page after each failed try: a page of 100 PRs with their files can time out on
        GitHub's side. Each answered page doubles it again, up to the full size, so that one
        passing fault does not slow the rest of the fetch."""
        if failures:
            self.page_size = max(MIN_PAGE_SIZE, self.page_size // 2)
        return self.page_size

    def _rest_files(self, node: dict) -> list[dict]:
        """All files of a PR with more than GraphQL's page of them (up to the store's cap), as REST items.

        GraphQL brought the first 100; REST pages 2, 3, ... bring the rest. Should the two orders
        ever disagree (a path twice, or too few paths), REST is asked from page 1 instead.
        """
        total = int(node["files"]["totalCount"])
        wanted = min(total, FILES_LIMIT)
        first = [rest_file_item(f) for f in node["files"]["nodes"]]
        kept = self._stored_files(int(node["number"]), total, first)
        if kept is not None:
            return kept
        per_page = len(first)
        rest = self._rest_file_pages(int(node["number"]), per_page, 2, wanted)
        files = first + rest
        if per_page == 100 and len({f["filename"] for f in files}) == len(files) >= wanted:
            return files
        return self._rest_file_pages(int(node["number"]), 100, 1, wanted)

    def _stored_files(self, number: int, total: int, first: list[dict]) -> list[dict] | None:
        """The files already stored for a merged PR (a look-back refetch): they cannot have changed."""
        if self._stored is None:
            self._stored = {p.number: p for p in self.store.read_pulls(self.repo)}
        stored = self._stored.get(number)
        if stored is None or stored.source != "github" or stored.changed_files != total:
            return None
        files = [{"filename": f.path, "additions": f.additions, "deletions": f.deletions, "status": f.status} for f in stored.files]
        if len(files) != min(total, FILES_LIMIT) or files[: len(first)] != first:
            return None
        return files

    def _rest_file_pages(self, number: int, per_page: int, page: int, wanted: int) -> list[dict]:
        files: list[dict] = []
        while per_page * (page - 1) < wanted:
            _, items = self.client.rest_get(
                f"/repos/{self.repo}/pulls/{number}/files", {"per_page": per_page, "page": page}, self.repo
            )
            files.extend(items or [])
            if len(items or []) < per_page:
                break
            page += 1
        return files

    def _check_repository(self, data: dict) -> None:
        """Raise NotFound for an unknown repository; note when it was created (saved with the state)."""
        repository = data.get("repository")
        if repository is None:
            raise NotFound(
                f"GitHub has no repository {self.repo}, or the token cannot see it; check the name and the token's access."
            )
        created = repository.get("createdAt")
        try:
            created_at = parse_time(created) if isinstance(created, str) else None
        except ValueError:
            created_at = None  # not worth stopping a fetch for: the gate's own range still holds
        if created_at is not None and created_at != self.state.created_at:
            self.state = replace(self.state, created_at=created_at)

    # -- saving -----------------------------------------------------------------------------

    def _restore(self, previous: RepoState | None) -> None:
        if previous is not None:
            self.store.write_state(previous)
        else:
            self.store.forget(self.repo)

    def _save_pending(self) -> None:
        if self._pending:
            self.report.changed += self.store.upsert(self.repo, self._pending.values())
            self.report.pulls += len(self._pending)
            self._pending = {}

    def _window_saved(self, window: Window, newest_first: bool) -> None:
        pulls = len(self._pending)
        self._save_pending()
        state = self.state
        if newest_first:
            state = replace(state, complete_since=window.start, watermark=state.watermark or window.end)
        else:
            state = replace(state, watermark=max(state.watermark or window.end, window.end))
            if state.complete_since is None:
                state = replace(state, complete_since=window.start)
        if window not in self.report.incomplete:
            # a window fetched in full heals what earlier fetches marked incomplete inside it
            state = replace(state, incomplete=tuple(w for w in state.incomplete if not (window.start <= w.start and w.end <= window.end)))
        self.state = replace(state, fetched_at=datetime.now(UTC))
        self.store.write_state(self.state)
        self.report.windows += 1
        self.progress.window_done(window, pulls)


def _plan(repo: str, state: RepoState | None, since: datetime, until: datetime,
          lookback: timedelta) -> tuple[RepoState, Window | None, Window | None]:
    """The state to start from, and the spans to fetch forward and backward from it.

    The backfill's target goes into the state's progress, so that it is saved before anything else.
    """
    if state is None or state.source != "github" or state.watermark is None or state.complete_since is None:
        # An import or a never-finished first fetch promises nothing about GitHub's history.
        state = RepoState(repo, "github", incomplete=state.incomplete if state else ())
        forward, backward = None, Window(since, until) if since < until else None
    else:
        start = max(state.complete_since, state.watermark - lookback)
        forward = Window(start, until) if state.watermark < until else None
        backward = Window(since, state.complete_since) if since < state.complete_since else None
    if backward is not None:
        state = replace(state, progress={**state.progress, "since": format_time(since)})
    elif "since" in state.progress:  # an earlier backfill that has since been completed
        state = replace(state, progress={k: v for k, v in state.progress.items() if k != "since"})
    return state, forward, backward


def _merge_windows(windows: tuple[Window, ...], new: Window) -> tuple[Window, ...]:
    return tuple(sorted({*windows, new}, key=lambda w: (w.start, w.end)))
