"""Two builds of the same store, in different folders and at different times, are byte-identical:
the build takes its "now" from the data, never from the clock or the folder."""

from __future__ import annotations

from datetime import UTC, datetime

from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.conftest import make_pull
from tests.tiny_project import REPO, make, site_files, small_history, tiny_project


def test_data_time_is_the_latest_fetch_or_merge(tmp_path):
    store = Store(tmp_path)
    store.upsert(REPO, [make_pull(1, "2026-03-02T10:00:00Z"), make_pull(2, "2026-03-04T10:00:00Z")])
    assert store.data_time([REPO]) == datetime(
        2026, 3, 4, 10, tzinfo=UTC
    )  # no state: the last merge
    store.write_state(RepoState(REPO, "github", fetched_at=datetime(2026, 3, 5, tzinfo=UTC)))
    store.upsert("acme/other", [make_pull(3, "2026-03-01T10:00:00Z")])
    store.write_state(
        RepoState("acme/other", "import", fetched_at=datetime(2026, 3, 9, tzinfo=UTC))
    )
    assert store.data_time() == datetime(2026, 3, 9, tzinfo=UTC)
    assert store.data_time([REPO]) == datetime(2026, 3, 5, tzinfo=UTC)


def test_two_builds_in_different_folders_at_different_times_are_byte_identical(tmp_path):
    # the data's last week is still in progress at its fetch time: the clock must not end it
    state = RepoState(
        REPO,
        "github",
        fetched_at=datetime(2026, 3, 12, 9, tzinfo=UTC),
        complete_since=datetime(2026, 3, 2, tzinfo=UTC),
        watermark=datetime(2026, 3, 12, 9, tzinfo=UTC),
    )
    outputs = []
    for name in ("first place", "second"):
        project = tiny_project(tmp_path / name, small_history(), state)
        process = make(project, "html", "OUTPUTDIR=output")
        _, err = process.communicate()
        assert process.returncode == 0, err
        outputs.append(site_files(project / "output"))
    first, second = outputs
    differing = sorted(
        name for name in first.keys() | second.keys() if first.get(name) != second.get(name)
    )
    assert differing == []
    assert len(first) > 20
    page = first["acme/widget/2026-W11/index.html"].decode()
    assert "in progress" in page.lower()
