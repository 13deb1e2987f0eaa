"""Fetch stage: telling the user how far a fetch has got.

A rich progress bar on a terminal (repositories, windows, PRs, requests, rate limit left); plain
lines when output is not a terminal, as in CI logs. `make_progress(None)` picks by stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from digest_plugin.records.pull import format_time
from digest_plugin.records.state import Window


class Progress:
    """Silent progress; the base of the two visible kinds."""

    def repo_started(self, repo: str, index: int, total: int) -> None: ...

    def windows_planned(self, count: int) -> None: ...

    def window_done(self, window: Window, pulls: int) -> None: ...

    def request_done(self, requests: int, rate_remaining: int | None) -> None: ...

    def note(self, text: str) -> None: ...

    def close(self) -> None: ...


class LineProgress(Progress):
    """One line per repository, per fetched window and per note."""

    def __init__(self, write: Callable[[str], None]):
        self._write = write
        self._repo = ""
        self._requests = 0
        self._remaining: int | None = None
        self._windows = self._done = self._pulls = 0

    def repo_started(self, repo: str, index: int, total: int) -> None:
        self._repo, self._windows, self._done, self._pulls = repo, 0, 0, 0
        self._write(f"fetch: {repo} ({index} of {total})")

    def windows_planned(self, count: int) -> None:
        self._windows += count

    def window_done(self, window: Window, pulls: int) -> None:
        self._done += 1
        self._pulls += pulls
        left = "" if self._remaining is None else f", rate limit left {self._remaining}"
        self._write(
            f"fetch: {self._repo} window {self._done}/{max(self._windows, self._done)} "
            f"{format_time(window.start)}..{format_time(window.end)}: {pulls} PRs "
            f"({self._pulls} so far, {self._requests} requests{left})"
        )

    def request_done(self, requests: int, rate_remaining: int | None) -> None:
        self._requests, self._remaining = requests, rate_remaining

    def note(self, text: str) -> None:
        self._write(f"fetch: {text}")


class BarProgress(Progress):
    """A rich progress bar on stderr."""

    def __init__(self, stream: TextIO | None = None):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        self._console = Console(file=stream or sys.stderr)
        self._bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            console=self._console,
            transient=False,
        )
        self._bar.start()
        self._repos = self._bar.add_task("repositories", total=None, detail="")
        self._windows = self._bar.add_task("windows", total=0, detail="")
        self._pulls = 0
        self._requests = 0
        self._remaining: int | None = None

    def repo_started(self, repo: str, index: int, total: int) -> None:
        self._bar.update(self._repos, total=total, completed=index - 1, detail=repo)
        self._bar.reset(self._windows, total=0, detail="")
        self._pulls = 0

    def windows_planned(self, count: int) -> None:
        task = self._bar.tasks[self._windows]
        self._bar.update(self._windows, total=(task.total or 0) + count)

    def window_done(self, window: Window, pulls: int) -> None:
        self._pulls += pulls
        self._bar.advance(self._windows)
        self._refresh_detail()

    def request_done(self, requests: int, rate_remaining: int | None) -> None:
        self._requests, self._remaining = requests, rate_remaining
        self._refresh_detail()

    def note(self, text: str) -> None:
        self._console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        tasks = self._bar.tasks
        self._bar.update(self._repos, completed=tasks[self._repos].total or 0)
        self._bar.stop()

    def _refresh_detail(self) -> None:
        left = "" if self._remaining is None else f", limit left {self._remaining}"
        self._bar.update(
            self._windows, detail=f"{self._pulls} PRs, {self._requests} requests{left}"
        )


def make_progress(show_bar: bool | None) -> Progress:
    """A bar when asked (True) or, by default (None), when stderr is a terminal; else plain lines."""
    if show_bar or (show_bar is None and sys.stderr.isatty()):
        return BarProgress()
    return LineProgress(lambda line: print(line, file=sys.stderr, flush=True))
