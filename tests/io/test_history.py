"""Analysed weeks for a whole site: repositories with nothing remembered are analysed in worker
processes, and what comes back is what analysing them here gives, remembered the same way, with
the store's warnings said in the build's own log."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from digest_plugin.build.cache import AnalysisMemos, Memo
from digest_plugin.publish import history
from digest_plugin.publish.history import analysis_options, load_weeks, stream_histories
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.conftest import make_pull

NOW = datetime(2026, 6, 1, tzinfo=UTC)
REPOS = ("acme/widget", "acme/gadget", "other/thing")


def site_store(folder) -> Store:
    store = Store(folder / "data")
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    for offset, repo in enumerate(REPOS):
        store.upsert(
            repo,
            [
                make_pull(
                    n,
                    start + timedelta(days=3 * n + offset),
                    f"feat: part {n} of {repo}",
                    files=[(f"src/{repo}/m{n % 4}.py", 10 * n, n)],
                    author=f"dev{n % 3}",
                )
                for n in range(1, 25)
            ],
        )
    return store


def test_repositories_analysed_in_workers_are_those_analysed_here_and_remembered_alike(
    tmp_path, monkeypatch
):
    store, settings = site_store(tmp_path), analysis_options(DigestSettings())
    here = {repo: load_weeks(store, repo, settings, NOW, Memo("salt")) for repo in REPOS}
    in_workers: list[str] = []
    monkeypatch.setattr(history, "parallel_stream", _recording(history.parallel_stream, in_workers))
    monkeypatch.setattr(
        history, "cores", lambda: 2
    )  # as on the two cores of CI, whatever this machine has
    memos = AnalysisMemos(tmp_path / "cache", "salt")
    histories = {}
    for repo, weeks, memo in stream_histories(store, REPOS, settings, NOW, memos):
        histories[repo] = [week.value for week in weeks]
        # each week with its key, which what is made of it (its narrative) is kept by, although it crossed processes
        assert all(week.key for week in weeks)
        memos.save(repo, memo)
    assert in_workers == list(REPOS)
    assert list(histories) == list(REPOS)
    for repo in REPOS:
        assert histories[repo] == here[repo] and len(histories[repo]) > 1
    # remembered: the next build finds every week in the memo and analyses nothing in workers
    in_workers.clear()
    again = {
        repo: [week.value for week in weeks]
        for repo, weeks, _memo in stream_histories(store, REPOS, settings, NOW, memos)
    }
    assert in_workers == [] and again == histories


def test_repositories_come_one_at_a_time_in_the_order_given(tmp_path, monkeypatch):
    """Each repository's analyses are handed over before the next one's are loaded (or, from the
    workers, taken in): a site of many repositories never holds all their memos at once."""
    store, memos = site_store(tmp_path), AnalysisMemos(tmp_path / "cache", "salt")
    monkeypatch.setattr(history, "cores", lambda: 2)
    loaded: list[str] = []
    monkeypatch.setattr(AnalysisMemos, "load", _recording_loads(AnalysisMemos.load, loaded))
    for repo, _weeks, memo in stream_histories(
        store, REPOS, analysis_options(DigestSettings()), NOW, memos
    ):
        memos.save(repo, memo)
    loaded.clear()
    for repo, _weeks, _memo in stream_histories(
        store, REPOS, analysis_options(DigestSettings()), NOW, memos
    ):
        assert loaded[-1] == repo  # the next one is not loaded yet
    assert loaded == list(REPOS)


def test_a_warning_in_a_worker_is_logged_by_the_build(tmp_path, caplog):
    store = site_store(tmp_path)
    path = next((tmp_path / "data" / "acme" / "gadget").glob("*.jsonl"))
    path.write_text(path.read_text() + "not a record\n")
    line = len(path.read_text().splitlines())
    with caplog.at_level(logging.WARNING):
        histories = {
            repo: weeks
            for repo, weeks, _memo in stream_histories(
                store, REPOS, analysis_options(DigestSettings()), NOW, None
            )
        }
    assert all(histories.values())
    assert f"{path}, line {line}, is not a JSON object; it is skipped" in caplog.text
    assert [r.name for r in caplog.records if "is not a JSON object" in r.getMessage()] == [
        "digest_plugin.store.folder"
    ]


def _recording_loads(load, names: list[str]):
    def recorded(folder, repo):
        names.append(repo)
        return load(folder, repo)

    return recorded


def _recording(parallel_stream, names: list[str]):
    def recorded(function, jobs, count, **options):
        jobs = list(jobs)
        names.extend(job[1] for job in jobs)
        return parallel_stream(function, jobs, count, **options)

    return recorded
