"""One repository with nothing remembered, its weeks cut into slices analysed in worker processes
(clean ones, which read the store themselves): the weeks and the memo that remembers them are those
of analysing it all here, and what the store says wrong is said once."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from digest_plugin.analysis import repository
from digest_plugin.analysis.repository import week_span
from digest_plugin.build.cache import Memo
from digest_plugin.publish import history
from digest_plugin.publish.history import analysis_options, made_weeks, week_slices
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from digest_plugin.store.jsonl_import import import_file
from digest_plugin.weeks import week_of
from tests.conftest import make_pull, real_data

NOW = datetime(2026, 11, 30, tzinfo=UTC)
REPO = "verl-project/verl"


@pytest.fixture
def sliced(monkeypatch):
    """Slices from the first PR on, as many PRs each: the slicing of a large repository, here
    on a smaller one."""
    monkeypatch.setattr(history, "SLICED_FROM", 0)
    monkeypatch.setattr(history, "HEAD_START", 0)


def analysed_here(monkeypatch) -> list[int]:
    """The PRs this process analyses (the workers, started cleanly, analyse theirs unseen)."""
    numbers: list[int] = []
    analyse_pull = repository.analyse_pull
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: numbers.append(pull.number) or analyse_pull(pull, *args),
    )
    return numbers


def test_a_repository_analysed_in_slices_is_the_one_analysed_here_and_remembered_alike(
    tmp_path, monkeypatch, sliced
):
    store = Store(tmp_path / "data")
    import_file(real_data("verl-project__verl.pulls.jsonl.gz"), REPO, store)
    options, pulls = analysis_options(DigestSettings()), store.read_pulls(REPO)
    here = Memo("salt")
    serial = made_weeks(store, REPO, options, NOW, here)

    numbers = analysed_here(monkeypatch)
    memo = Memo("salt")
    weeks = made_weeks(store, REPO, options, NOW, memo, slices=3)
    # the first slice here, every PR of it and none of the two others, which workers analysed
    weeks_shown = week_span(REPO, pulls, None, options, NOW)
    per_week = Counter(week_of(pull.merged_at, options.timezone) for pull in pulls)
    second = weeks_shown[week_slices([per_week[week] for week in weeks_shown], 3, 0)[0]]
    first_slice = [p.number for p in pulls if week_of(p.merged_at, options.timezone) < second]
    assert sorted(numbers) == sorted(first_slice) and 0 < len(first_slice) < len(pulls) / 2
    # each week, with the key what is made of it is kept by, in order; none lost, none twice
    assert [w.value.week for w in weeks] == [w.value.week for w in serial]
    assert weeks == serial
    assert list(memo.kept().items()) == list(here.kept().items())

    # a later build, in a week whose store changed nowhere, recalls every PR's analysis
    numbers.clear()
    later = made_weeks(store, REPO, options, NOW + timedelta(weeks=1), Memo("salt", memo.kept()))
    assert numbers == [] and [w.value for w in later] == [w.value for w in serial]


def test_a_bad_record_is_said_once_in_the_build_log_not_once_a_slice(
    tmp_path, monkeypatch, sliced, caplog, capfd
):
    store = Store(tmp_path / "data")
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    store.upsert(
        "acme/widget",
        [
            make_pull(n, start + timedelta(days=n), files=[(f"src/m{n % 4}.py", n, 1)])
            for n in range(1, 60)
        ],
    )
    path = sorted((tmp_path / "data" / "acme" / "widget").glob("*.jsonl"))[0]
    path.write_text(path.read_text() + "not a record\n")
    numbers = analysed_here(monkeypatch)
    with caplog.at_level(logging.WARNING):
        weeks = made_weeks(
            store, "acme/widget", analysis_options(DigestSettings()), NOW, Memo("salt"), slices=3
        )
    assert len(weeks) > 3 and 0 < len(numbers) < 59  # sliced
    said = [r.getMessage() for r in caplog.records if "is not a JSON object" in r.getMessage()]
    assert len(said) == 1 and str(path) in said[0]
    assert "is not a JSON object" not in capfd.readouterr().err  # nor printed by a worker


def test_weeks_are_cut_into_slices_of_about_as_many_prs_the_first_larger_by_its_head_start():
    counts = [10] * 30  # 300 PRs
    assert week_slices(counts, 3, 0) == [10, 20]
    assert week_slices(counts, 2, 100) == [20]  # 200 here, 100 in the worker
    assert week_slices([0, 0, 50, 0, 50, 0], 2, 0) == [3]  # a slice begins after a busy week
    assert week_slices(counts, 1, 0) == []
    assert week_slices(counts, 2, 300) == []  # nothing left to a worker
