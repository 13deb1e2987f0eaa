"""Shared test fixtures: small hand-made records and the location of the real data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import settings

from digest_plugin.records.pull import Author, FileChange, Pull

# Property tests check what is true, never how fast: on a shared machine an example can take a
# second, and hypothesis's default deadline (200 ms) would fail a correct test.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data" / "github"


def real_data(name: str) -> Path:
    """A file of ../shared/data/github, or skip: the real data is not part of the project."""
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"real data {path} is absent (it lives in ../shared, beside the checkout)")
    return path


def make_pull(number: int, merged_at: datetime | str, title: str = "", **fields) -> Pull:
    if isinstance(merged_at, str):
        merged_at = datetime.fromisoformat(merged_at.replace("Z", "+00:00"))
    files = tuple(FileChange(*f) if isinstance(f, tuple) else f for f in fields.pop("files", ()))
    author = fields.pop("author", "alice")
    return Pull(
        number=number,
        title=title or f"Change number {number}",
        url=fields.pop("url", f"https://github.com/acme/widget/pull/{number}"),
        author=author if isinstance(author, Author) else Author(author),
        merged_at=merged_at,
        created_at=fields.pop("created_at", merged_at - timedelta(hours=5)),
        files=files,
        additions=fields.pop("additions", sum(f.additions or 0 for f in files)),
        deletions=fields.pop("deletions", sum(f.deletions or 0 for f in files)),
        changed_files=fields.pop("changed_files", len(files)),
        **fields,
    )


@pytest.fixture(autouse=True)
def pelican_says_each_message_again():
    """Pelican's loggers say a message once a process (pelican.log.LimitFilter); each test is a
    run of its own, so a warning another test of the same worker logged is logged again."""
    from pelican.log import LimitFilter

    LimitFilter._raised_messages.clear()
    LimitFilter._group_count.clear()
    yield


@pytest.fixture
def utc_now() -> datetime:
    return datetime(2026, 11, 30, 12, tzinfo=UTC)
