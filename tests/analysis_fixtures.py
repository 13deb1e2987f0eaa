"""Helpers of the analysis tests: the real repositories, loaded once per test session."""

from __future__ import annotations

import functools
from collections import defaultdict
from pathlib import Path

import pytest

from digest_plugin.analysis.description import SUMMARY_CHARS, description_text, summary_of
from digest_plugin.analysis.rules import Rules, compile_rules
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Pull
from digest_plugin.settings import DigestSettings
from digest_plugin.settings import check_timezone as zone
from digest_plugin.store.jsonl_import import read_export
from digest_plugin.weeks import Week, week_of

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "github"
REPOS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}


def real_pulls(repo: str) -> list[Pull]:
    """Every merged PR of one real repository, oldest first; skips when ../shared is absent."""
    path = DATA / REPOS[repo]
    if not path.exists():
        pytest.skip(f"real data {path} is absent (it lives in ../shared/data, beside the checkout)")
    return list(_load(path))


@functools.cache
def _load(path: Path) -> tuple[Pull, ...]:
    return tuple(sorted(read_export(path), key=lambda p: (p.merged_at, p.number)))


def by_week(pulls: list[Pull]) -> dict[Week, list[Pull]]:
    weeks: dict[Week, list[Pull]] = defaultdict(list)
    for pull in pulls:
        weeks[week_of(pull.merged_at, zone("UTC"))].append(pull)
    return weeks


@functools.cache
def real_weeks(repo: str) -> tuple:
    """Every week of one real repository, analysed as a build does (no state file, a fixed now)."""
    from datetime import UTC, datetime

    from digest_plugin.analysis import analyse_repo

    return tuple(
        analyse_repo(
            repo,
            real_pulls(repo),
            None,
            analysis_options(DigestSettings()),
            datetime(2026, 11, 30, tzinfo=UTC),
        )
    )


def real_week(repo: str, week: str):
    return next(w for w in real_weeks(repo) if w.week == week)


def load_rules(
    rules: dict | str | Path | None = None,
    base_path: Path | str = ".",
    repo: str | None = None,
    bots: tuple[str, ...] = (),
) -> Rules:
    """The compiled rules of a site whose DIGEST_RULES is `rules` (a dict or a YAML file under
    `base_path`), read and checked as a build does, for `repo`."""
    settings = DigestSettings.from_pelican(
        {"DIGEST_RULES": rules, "DIGEST_BOTS": list(bots)}, base_path
    )
    return compile_rules(analysis_options(settings).rules, repo, settings.bots)


def summarise(
    body: str,
    title: str,
    template: frozenset[str] = frozenset(),
    limit: int = SUMMARY_CHARS,
    repo: str = "",
) -> str:
    """A PR's summary as analyse_pull makes it: one or two sentences from the description, else
    the title; plain text, at most `limit` characters."""
    return summary_of(description_text(body, template, repo), title, limit)
