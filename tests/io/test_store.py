"""The store: records survive a round trip, writes are atomic, corrupt files give one clear error."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Author, Pull
from digest_plugin.records.state import RepoState, Window
from digest_plugin.store.folder import Store
from tests.conftest import make_pull


def test_round_trip_keeps_every_field(tmp_path):
    pull = make_pull(
        7,
        "2026-05-19T10:00:00Z",
        title='[trainer] feat: 中文 title with <html> & "quotes"',
        author=Author("dependabot[bot]", "Bot", "NONE"),
        body="line one\nline two",
        labels=("dependencies", "a,b"),
        files=[("a/b.py", 3, 1, "modified"), ("c.md", None, None, "added")],
        comments=2,
        reviews=1,
        commits=3,
        reviewers=("bob",),
        files_truncated=True,
    )
    store = Store(tmp_path)
    assert store.upsert("acme/widget", [pull]) == 1
    assert store.read_pulls("acme/widget") == [pull]


def test_partitioned_by_utc_month_and_sorted_by_number(tmp_path):
    store = Store(tmp_path)
    store.upsert(
        "acme/widget",
        [
            make_pull(9, "2026-05-31T23:30:00Z"),
            make_pull(3, "2026-05-02T00:00:00Z"),
            make_pull(5, "2026-06-01T00:10:00Z"),
        ],
    )
    folder = tmp_path / "acme" / "widget"
    assert sorted(p.name for p in folder.iterdir()) == ["2026-05.jsonl", "2026-06.jsonl"]
    numbers = [
        json.loads(line)["number"] for line in (folder / "2026-05.jsonl").read_text().splitlines()
    ]
    assert numbers == [3, 9]


def test_upsert_replaces_by_number_and_counts_changes(tmp_path):
    store = Store(tmp_path)
    store.upsert(
        "acme/widget", [make_pull(1, "2026-05-02T00:00:00Z"), make_pull(2, "2026-05-03T00:00:00Z")]
    )
    relabelled = make_pull(2, "2026-05-03T00:00:00Z", labels=("bug",))
    assert store.upsert("acme/widget", [make_pull(1, "2026-05-02T00:00:00Z"), relabelled]) == 1
    assert [p.labels for p in store.read_pulls("acme/widget")] == [(), ("bug",)]


def test_a_pull_whose_merge_moved_month_is_not_kept_twice(tmp_path):
    store = Store(tmp_path)
    store.upsert("acme/widget", [make_pull(1, "2026-05-31T12:00:00Z")])
    store.upsert("acme/widget", [make_pull(1, "2026-06-01T12:00:00Z")])
    assert [p.merged_at.month for p in store.read_pulls("acme/widget")] == [6]


def test_a_corrupt_line_is_named_by_file_and_line_and_the_rest_is_read(tmp_path, caplog):
    store = Store(tmp_path)
    store.upsert(
        "acme/widget", [make_pull(1, "2026-05-02T00:00:00Z"), make_pull(2, "2026-05-03T00:00:00Z")]
    )
    path = tmp_path / "acme" / "widget" / "2026-05.jsonl"
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\n" + lines[1][:40] + "\n")
    assert [p.number for p in store.read_pulls("acme/widget")] == [1]
    assert f"{path}, line 2, is not a JSON object; it is skipped" in caplog.text
    store.upsert(
        "acme/widget", [make_pull(3, "2026-05-04T00:00:00Z")]
    )  # a later write keeps the damaged line
    assert path.read_text().splitlines()[-1] == lines[1][:40]


def test_a_month_file_read_before_is_not_parsed_again_and_reads_the_same(
    tmp_path, monkeypatch, caplog
):
    store = Store(tmp_path)
    store.upsert(
        "o/r", [make_pull(1, "2026-04-30T10:00:00Z"), make_pull(2, "2026-05-02T10:00:00Z")]
    )
    months: dict = {}
    first = store.read_pulls("o/r", months=months)
    parsed = []
    from_json = Pull.from_json
    monkeypatch.setattr(
        Pull, "from_json", lambda data: parsed.append(data["number"]) or from_json(data)
    )
    store.upsert(
        "o/r", [make_pull(3, "2026-05-04T10:00:00Z")]
    )  # a new week: May's file changes, April's does not
    parsed.clear()
    again = store.read_pulls("o/r", months=months)
    assert parsed == [2, 3] and again == store.read_pulls("o/r") == [*first, again[-1]]
    # a record outside the repository's life is refused whether its month was parsed now or before
    with caplog.at_level("WARNING"):
        within = store.read_pulls(
            "o/r",
            life=Window(datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)),
            months=months,
        )
    assert [p.number for p in within] == [2, 3]
    assert (
        "2026-04.jsonl, line 1, has a bad value in merged_at: 2026-04-30T10:00:00Z is before the repository was created"
        in caplog.text
    )


def test_failed_write_leaves_previous_file_whole(tmp_path, monkeypatch):
    store = Store(tmp_path)
    store.upsert("acme/widget", [make_pull(1, "2026-05-02T00:00:00Z")])
    path = tmp_path / "acme" / "widget" / "2026-05.jsonl"
    before = path.read_bytes()

    def crash(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        store.upsert("acme/widget", [make_pull(2, "2026-05-03T00:00:00Z")])
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["2026-05.jsonl"]  # no temporary left behind


def test_state_round_trip_and_completeness(tmp_path):
    store = Store(tmp_path)
    t = lambda day: datetime(2026, 5, day, tzinfo=UTC)  # noqa: E731
    state = RepoState(
        repo="acme/widget",
        source="github",
        fetched_at=t(30),
        complete_since=t(1),
        watermark=t(28),
        incomplete=(Window(t(10), t(12)),),
        progress={"cursor": "abc"},
    )
    store.write_state(state)
    assert store.read_state("acme/widget") == state
    assert store.repos() == ["acme/widget"]
    assert state.is_complete(t(4), t(10))
    assert not state.is_complete(t(9), t(11))  # overlaps the truncated window
    assert not state.is_complete(t(25), t(29))  # runs past the watermark
    assert json.loads((tmp_path / "acme/widget/state.json").read_text())["schema"] == 1


def test_newer_schema_is_refused(tmp_path):
    store = Store(tmp_path)
    store.write_state(RepoState(repo="acme/widget", source="import"))
    path = tmp_path / "acme/widget/state.json"
    path.write_text(path.read_text().replace('"schema": 1', '"schema": 99'))
    with pytest.raises(DigestError, match="newer repo-digest"):
        store.read_state("acme/widget")


@pytest.mark.parametrize("name", ["acme", "acme/widget/extra", "../etc/passwd", "acme/..", ""])
def test_bad_repository_names_are_refused(tmp_path, name):
    with pytest.raises(DigestError, match="is not a repository name"):
        Store(tmp_path).read_pulls(name)


def test_unknown_repository_reads_as_empty(tmp_path):
    assert Store(tmp_path).read_pulls("acme/nothing") == []
    assert Store(tmp_path / "absent").repos() == []


def test_record_is_frozen():
    pull = make_pull(1, "2026-05-02T00:00:00Z")
    with pytest.raises(AttributeError):
        pull.title = "changed"  # type: ignore[misc]
    assert isinstance(pull, Pull)
