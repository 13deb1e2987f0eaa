"""Fetch stage: bringing one repository's stored history up to date with GitHub.

The store's state says which span of merge times is complete: [complete_since, watermark).
A fetch extends that span at both ends and never leaves a hole in it:

- forward, oldest window first, from `watermark - lookback` (late label edits) up to now; the
  watermark moves to the end of each window once its PRs are saved;
- backward, newest window first, down to `since`; complete_since moves to the start of each
  window once its PRs are saved. The `since` being worked towards is kept in `state.progress`,
  so a fetch that was interrupted resumes there, with or without --since.

Each window is one search under GitHub's 1,000-result cap (see windows.py). A window that cannot
be fetched completely is recorded in `state.incomplete`, never passed off as complete, and is
fetched again by every later fetch until it is complete.

One PR that GitHub will not serve in a readable form (an error on its node that REST cannot make up
for, a value the record's gate refuses) is set aside with a warning naming it, never the whole
fetch; its window stays incomplete. A PR that fails the same way in two fetches is recorded as
skipped (`state.failed_pulls`): its window completes without it, and its week's page names it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import (
    GitHubClient,
    NotFound,
    Refused,
    TokenRejected,
    Unreachable,
    item_of,
    redact,
)
from digest_plugin.fetch.progress import Progress
from digest_plugin.fetch.queries import (
    COUNTS_PER_QUERY,
    MERGED_NUMBERS,
    MERGED_PULLS,
    PAGE_SIZE,
    merged_count_query,
    needs_rest_files,
    pull_from_node,
    rest_file_item,
    search_text,
)
from digest_plugin.fetch.windows import SEARCH_CAP, can_split, pack, parts_needed, split, steps
from digest_plugin.records.pull import FILES_LIMIT, Pull, RecordError, format_time, parse_time
from digest_plugin.records.state import PullFailure, RepoState, Window
from digest_plugin.store.folder import Store
from digest_plugin.store.jsonl_import import pull_from_rest

# GitHub's search index trails merges; newer ones wait for the next fetch
SEARCH_LAG = timedelta(minutes=5)
PLAN_STEP = timedelta(days=7)  # long spans are counted week by week before fetching
COUNT_FIRST_SPAN = timedelta(days=35)  # shorter spans are fetched straight away
MIN_PAGE_SIZE = 10
NODES = ("search", "nodes")  # where in an answer of MERGED_PULLS one PR's node is


@dataclass
class RepoReport:
    """What one repository's fetch did."""

    repo: str
    skipped: str | None = None  # a sentence saying why the repository was not fetched
    pulls: int = 0  # PR records received from GitHub
    changed: int = 0  # records added to or changed in the store
    windows: int = 0  # searches completed
    requests: int = 0
    fetched: set[int] = field(default_factory=set)  # the numbers of the PRs received
    diffs: int = 0  # diff excerpts of key PRs stored (fetch/diffs.py)
    incomplete: list[Window] = field(default_factory=list)  # windows found incomplete in this fetch
    # PRs that could not be read in this fetch
    set_aside: dict[int, PullFailure] = field(default_factory=dict)
    complete_since: datetime | None = None
    watermark: datetime | None = None
    error: DigestError | None = None  # why the fetch of this repository failed, if it did


class RepoSync:
    """One repository's fetch; holds the state as it advances window by window."""

    def __init__(
        self,
        store: Store,
        client: GitHubClient,
        repo: str,
        progress: Progress,
        page_size: int = PAGE_SIZE,
    ):
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
        self.earlier_failures: dict[int, PullFailure] = {}  # the PRs earlier fetches could not read

    def run(self, since: datetime, until: datetime, lookback: timedelta) -> RepoReport:
        """Fetch what the complete history [since, until) lacks, saving window by window."""
        state = self.store.read_state(self.repo)
        if state is not None and state.source == "sample":
            self.report.skipped = (
                f"{self.repo} holds the bundled sample, which is never fetched from GitHub."
            )
            return self.report
        first_requests = self.client.requests
        previous = state
        if state is not None:
            state = self._in_the_present(state)
        state, forward, backward = _plan(self.repo, state, since, until, lookback)
        if state.fetched_at is None:
            # the store's own "now" (Store.data_time) from the start: a first fetch that stops part-way
            # must not leave its newest merge as "now", which would show that week as in progress for good
            state = replace(state, fetched_at=self._now())
        self.state = state
        self.earlier_failures = dict(state.failed_pulls)
        # The target and what is already done are on disk before the first request, so that a
        # fetch killed at any point resumes towards the same target, and a store whose first
        # fetch never finished reads as incomplete rather than as complete.
        self.store.write_state(self.state)
        try:
            for window in _retried(self.state, forward, backward):
                self._fetch_span(window, newest_first=False)
            if forward is not None:
                self._fetch_span(forward, newest_first=False)
            if backward is not None:
                self._fetch_span(backward, newest_first=True)
                self.state = replace(self.state, progress=_without(self.state.progress, "since"))
            self.state = replace(self.state, fetched_at=self._now())
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

    # -- GitHub's time ----------------------------------------------------------------------

    def _now(self) -> datetime:
        """GitHub's time where an answer gave it, else this machine's: a clock that runs ahead must
        not date the data, nor move the watermark past what GitHub has."""
        return (self.client.github_now() or datetime.now(UTC)).replace(microsecond=0)

    def _in_the_present(self, state: RepoState) -> RepoState:
        """`state` with a watermark ahead of the present (a clock that ran ahead, a hand edit) set
        back to the newest merge stored before it, with one warning: else every later fetch would
        take the merges in between as fetched."""
        present = self._now() - SEARCH_LAG
        if state.watermark is None or state.watermark <= present:
            return state
        merges = [p.merged_at for p in self._stored_pulls().values() if p.merged_at <= present]
        floor = state.complete_since or present
        watermark = (
            min(present, max([floor, *merges])) if state.complete_since is not None else None
        )
        self.progress.note(
            f"{self.store.repo_dir(self.repo) / 'state.json'}: the watermark {format_time(state.watermark)} is ahead of the present "
            f"({format_time(present)}); it is set back to {format_time(watermark) or 'nothing'}, and the fetch goes on from there."
        )
        return replace(
            state, watermark=watermark, fetched_at=min(state.fetched_at or present, present)
        )

    # -- planning ---------------------------------------------------------------------------

    def _fetch_span(self, span: Window, newest_first: bool) -> None:
        plan: Sequence[tuple[Window, int | None]]
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
            data, _ = self.client.graphql(merged_count_query(len(batch)), variables, self.repo)
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
        assert self.state is not None  # run() sets it before any window is fetched
        found: dict[int, Pull] = {}
        total = 0
        for _ in range(2):  # search occasionally delivers fewer than it counted: try once more
            found, total, unread = self._search_pages(window)
            if total > SEARCH_CAP and can_split(window):
                return pack(self._counted(split(window, parts_needed(total))))
            if len(found) + len(unread) >= min(total, SEARCH_CAP):
                break  # what is missing is known by number: searching again would not bring it
        # fetched before: that record stands
        kept = {n for n in unread if n in self._stored_pulls()}
        for number in sorted(kept):
            self.progress.note(
                f"{self.repo}: PR #{number} could not be read again ({unread[number][0]}); the record fetched before is kept."
            )
        skipped = sum(
            1
            for number, (reason, merged_at) in unread.items()
            if number not in kept and self._set_aside(number, reason, merged_at).skipped
        )
        if len(found) + len(kept) + skipped < total:
            self.report.incomplete.append(window)
            incomplete = sorted({*self.state.incomplete, window}, key=lambda w: (w.start, w.end))
            self.state = replace(self.state, incomplete=tuple(incomplete))
            self.progress.note(
                f"{self.repo}: only {len(found)} of {total} PRs merged {window.start:%Y-%m-%d %H:%M:%S} to "
                f"{window.end:%Y-%m-%d %H:%M:%S} UTC could be fetched; that span is marked incomplete, and the next fetch tries it again."
            )
        return None

    def _search_pages(
        self, window: Window
    ) -> tuple[dict[int, Pull], int, dict[int, tuple[str, datetime | None]]]:
        """The window's PRs, GitHub's count of them, and the PRs that could not be read (number ->
        (why, when merged)); a PR whose number GitHub's answer did not give is simply not found."""
        found: dict[int, Pull] = {}
        unread: dict[int, tuple[str, datetime | None]] = {}
        after, total = None, 0
        query = search_text(self.repo, window)
        assert self.state is not None  # run() sets it before any window is fetched
        while True:
            variables = {"owner": self.owner, "name": self.name, "search": query, "after": after}
            asked: dict = {}

            def page(failures: int, variables=variables, asked=asked) -> dict:
                asked.update(variables, first=self._page_size(failures))
                return dict(asked)

            data, errors = self.client.graphql(MERGED_PULLS, page, self.repo, NODES)
            self._check_repository(data)
            # the fault has passed: grow back
            self.page_size = min(self.full_page_size, self.page_size * 2)
            search = data["search"]
            total = int(search["issueCount"])
            if total > SEARCH_CAP and can_split(window):
                return found, total, unread  # not worth paging: the window will be split
            nodes = search["nodes"]
            failed = {item_of(error, NODES): self._said(error) for error in errors}
            nulled = any(not nodes[i] for i in failed if i is not None and i < len(nodes))
            identified = self._numbers(asked) if nulled else {}
            for index, node in enumerate(nodes):
                number, merged_at = identified.get(index) or _identity(node)
                try:
                    pull = self._read(node, failed.get(index), number)
                except Unreadable as unreadable:
                    if number is not None:
                        unread[number] = (unreadable.reason, merged_at)
                    continue
                if pull is None:
                    continue  # not a merged pull request (the union can hold issues)
                found[pull.number] = pull
                unread.pop(pull.number, None)
                self._pending[pull.number] = pull  # saved even if a later page fails
                if pull.number in self.state.failed_pulls:  # GitHub serves it again
                    self.state = replace(
                        self.state, failed_pulls=_without(self.state.failed_pulls, pull.number)
                    )
            if not search["pageInfo"]["hasNextPage"]:
                return found, total, unread
            after = search["pageInfo"]["endCursor"]

    def _read(self, node, error: str | None, number: int | None) -> Pull | None:
        """The record of one node of a page; Unreadable saying why there is none. A node GitHub
        answered with an error is read through REST instead, where GitHub serves it apart."""
        if error is not None:
            if number is None:
                raise Unreadable(error)
            with _unreadable(f"{error}; through REST, "):
                _, data = self.client.rest_get(f"/repos/{self.repo}/pulls/{number}", {}, self.repo)
                if not isinstance(data, dict):
                    raise RecordError("record", "expected a pull request object")
                changed = data.get("changed_files")
                wanted = FILES_LIMIT
                if isinstance(changed, int) and changed >= 0:
                    wanted = min(changed, FILES_LIMIT)
                return pull_from_rest(
                    {**data, "files": self._rest_file_pages(number, 100, 1, wanted)},
                    source="github",
                )
        if not node or not node.get("mergedAt"):
            return None
        with _unreadable(""):
            if number is None:
                raise RecordError("number", "is missing or not a whole number")
            return pull_from_node(
                node, self._rest_files(node, number) if needs_rest_files(node) else None
            )

    def _numbers(self, asked: dict) -> dict[int, tuple[int | None, datetime | None]]:
        """The number and merge time of each PR on the page asked with `asked`, by position: what
        to name a PR by whose node GitHub's answer nulled."""
        data, _ = self.client.graphql(MERGED_NUMBERS, asked, self.repo)
        nodes = (data.get("search") or {}).get("nodes") or []
        return {index: _identity(node) for index, node in enumerate(nodes)}

    def _said(self, error: dict) -> str:
        """What GitHub's error on one PR says, short, as a reason that can be compared from one fetch to the next."""
        said = str(error.get("message") or error.get("type") or "an error")
        message = redact(" ".join(said.split())[:160], self.client.endpoint.token)
        return f"GitHub's answer gave an error for it ({message})"

    def _set_aside(self, number: int, reason: str, merged_at: datetime | None) -> PullFailure:
        """Record that `number` could not be read in this fetch, counted against what earlier fetches saw."""
        if number in self.report.set_aside:
            return self.report.set_aside[number]
        earlier = self.earlier_failures.get(number)
        failure = (
            earlier.again(reason, merged_at)
            if earlier is not None
            else PullFailure(reason, 1, merged_at)
        )
        self.report.set_aside[number] = failure
        assert self.state is not None  # run() sets it before any window is fetched
        self.state = replace(self.state, failed_pulls={**self.state.failed_pulls, number: failure})
        then = (
            "it failed the same way in the fetch before, so it is skipped and its week is complete without it"
            if failure.skipped
            else "it is set aside, and the next fetch tries it again"
        )
        self.progress.note(f"{self.repo}: PR #{number} could not be read: {reason}; {then}.")
        return failure

    def _page_size(self, failures: int) -> int:
        """Half the page after each failed try: a page of 100 PRs with their files can time out on
        GitHub's side. Each answered page doubles it again, up to the full size, so that one
        passing fault does not slow the rest of the fetch."""
        if failures:
            self.page_size = max(MIN_PAGE_SIZE, self.page_size // 2)
        return self.page_size

    def _rest_files(self, node: dict, number: int) -> list[dict]:
        """All files of a PR with more than GraphQL's page of them (up to the store's cap), as REST items.

        GraphQL brought the first 100; REST pages 2, 3, ... bring the rest. Should the two orders
        ever disagree (a path twice, or too few paths), REST is asked from page 1 instead.
        """
        if not isinstance(node.get("files"), dict):  # null: GitHub would not list a diff that large
            return self._rest_file_pages(number, 100, 1, FILES_LIMIT)
        total = int(node["files"]["totalCount"])
        wanted = min(total, FILES_LIMIT)
        first = [rest_file_item(f) for f in node["files"]["nodes"]]
        kept = self._stored_files(number, total, first)
        if kept is not None:
            return kept
        per_page = len(first)
        rest = self._rest_file_pages(number, per_page, 2, wanted)
        if per_page == 100:
            if None in first:
                raise TypeError("a file that is not an object")  # a node not in the shape asked for
            files = [f for f in first if f is not None] + rest
            if len({f["filename"] for f in files}) == len(files) >= wanted:
                return files
        return self._rest_file_pages(number, 100, 1, wanted)

    def _stored_files(self, number: int, total: int, first: list[dict | None]) -> list[dict] | None:
        """The files already stored for a merged PR (a look-back refetch): they cannot have changed."""
        stored = self._stored_pulls().get(number)
        if stored is None or stored.source != "github" or stored.changed_files != total:
            return None
        files = [
            dict(filename=f.path, additions=f.additions, deletions=f.deletions, status=f.status)
            for f in stored.files
        ]
        if len(files) != min(total, FILES_LIMIT) or files[: len(first)] != first:
            return None
        return files

    def _stored_pulls(self) -> dict[int, Pull]:
        if self._stored is None:
            self._stored = {p.number: p for p in self.store.read_pulls(self.repo)}
        return self._stored

    def _rest_file_pages(self, number: int, per_page: int, page: int, wanted: int) -> list[dict]:
        files: list[dict] = []
        while per_page * (page - 1) < wanted:
            _, items = self.client.rest_get(
                f"/repos/{self.repo}/pulls/{number}/files",
                {"per_page": per_page, "page": page},
                self.repo,
            )
            page_items = items or []
            if not isinstance(page_items, Collection):  # as extend() would: not the shape asked for
                raise TypeError("a page of files that is not a collection")
            files.extend(page_items)
            if len(page_items) < per_page:
                break
            page += 1
        return files

    def _check_repository(self, data: dict) -> None:
        """Raise NotFound for an unknown repository; note when it was created (saved with the state)."""
        assert self.state is not None  # run() sets it before any request
        repository = data.get("repository")
        if repository is None:
            raise NotFound(
                f"GitHub has no repository {self.repo}, or the token cannot see it; check the name and the token's access."
            )
        spelled = repository.get("nameWithOwner")
        if (
            isinstance(spelled, str)
            and spelled != self.repo
            and spelled.lower() == self.repo.lower()
        ):
            # GitHub's names ignore case: the store keeps GitHub's own spelling, whichever the user typed
            self.store.respell(self.repo, spelled)
            self.repo = spelled
            self.state = replace(self.state, repo=spelled)
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
            self.report.fetched.update(self._pending)
            self._pending = {}

    def _window_saved(self, window: Window, newest_first: bool) -> None:
        pulls = len(self._pending)
        self._save_pending()
        state = self.state
        assert state is not None  # run() sets it before any window is fetched
        # how far the window's search is complete: never past GitHub's own present
        end = min(window.end, self._now() - SEARCH_LAG)
        if newest_first:
            state = replace(state, complete_since=window.start, watermark=state.watermark or end)
        else:
            state = replace(state, watermark=max(state.watermark or end, end))
            if state.complete_since is None:
                state = replace(state, complete_since=window.start)
        if window not in self.report.incomplete:
            # a window fetched in full heals what earlier fetches marked incomplete inside it
            healed = tuple(w for w in state.incomplete if not window.holds(w))
            state = replace(state, incomplete=healed)
        self.state = replace(state, fetched_at=self._now())
        self.store.write_state(self.state)
        self.report.windows += 1
        self.progress.window_done(window, pulls)


def _plan(
    repo: str, state: RepoState | None, since: datetime, until: datetime, lookback: timedelta
) -> tuple[RepoState, Window | None, Window | None]:
    """The state to start from, and the spans to fetch forward and backward from it.

    The backfill's target goes into the state's progress, so that it is saved before anything else.
    """
    if (
        state is None
        or state.source != "github"
        or state.watermark is None
        or state.complete_since is None
    ):
        # An import or a never-finished first fetch promises nothing about GitHub's history.
        state = RepoState(
            repo,
            "github",
            incomplete=state.incomplete if state else (),
            failed_pulls=state.failed_pulls if state else {},
        )
        forward, backward = None, Window(since, until) if since < until else None
    else:
        start = max(state.complete_since, state.watermark - lookback)
        forward = Window(start, until) if state.watermark < until else None
        backward = Window(since, state.complete_since) if since < state.complete_since else None
    if backward is not None:
        state = replace(state, progress={**state.progress, "since": format_time(since)})
    elif "since" in state.progress:  # an earlier backfill that has since been completed
        state = replace(state, progress=_without(state.progress, "since"))
    return state, forward, backward


def _without(mapping: dict, key) -> dict:
    return {k: v for k, v in mapping.items() if k != key}


class Unreadable(Exception):
    """One PR that GitHub's answers do not let the fetch read; `reason` says why, in a few words."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _identity(node) -> tuple[int | None, datetime | None]:
    """(number, merge time) of a node, where it gives them readably."""
    if not isinstance(node, dict):
        return None, None
    number = node.get("number")
    try:
        merged_at = (
            parse_time(node.get("mergedAt")) if isinstance(node.get("mergedAt"), str) else None
        )
    except ValueError:
        merged_at = None
    return (number if isinstance(number, int) and not isinstance(number, bool) else None), merged_at


def _retried(state: RepoState, forward: Window | None, backward: Window | None) -> list[Window]:
    """The windows earlier fetches left incomplete, oldest first, but for those the spans to fetch hold."""
    if state.complete_since is None:
        return []  # a first fetch that never finished: its backward span is the whole history
    inside = [span for span in (forward, backward) if span is not None]
    return [w for w in state.incomplete if not any(s.holds(w) for s in inside)]


@contextmanager
def _unreadable(before: str) -> Iterator[None]:
    """Reading one PR: what fails for that PR alone (the record's gate refuses it, GitHub refuses a
    REST request about it) as Unreadable, with `before` in front of the reason. The rest stops the
    fetch as before, saving what it has: a rejected token, a spent rate limit, GitHub failing for
    good after its retries (which the next fetch may not meet)."""
    try:
        yield
    except TokenRejected:
        raise
    except RecordError as refused:
        raise Unreadable(f"{before}its {refused.field} cannot be read: {refused.problem}") from None
    except Refused as refusal:
        raise Unreadable(f"{before}GitHub refused it ({refusal.detail})") from None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as odd:
        # a node not in the shape asked for
        raise Unreadable(
            f"{before}GitHub's answer for it is not in the shape asked for ({type(odd).__name__})"
        ) from None
