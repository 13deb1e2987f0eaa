"""The memo a build keeps of a week's stages (build/cache.py's Stages): a kept week is taken only
while every question it asked of the repository's history answers the same, whatever the question."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from digest_plugin.analysis import repository
from digest_plugin.analysis.repository import History, analyse_repo
from digest_plugin.build.cache import Memo, Stages
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings
from digest_plugin.stages import Recording
from tests.conftest import make_pull

MONDAY = datetime(2026, 3, 2, 9, tzinfo=UTC)  # 2026-W10
NOW = datetime(2026, 6, 1, tzinfo=UTC)
OPTIONS = analysis_options(DigestSettings())


class HistoryWithMentions(History):
    """A history with one question more than the product's: which later PRs name a PR by number."""

    def __init__(self, pulls, *args):
        super().__init__(pulls, *args)
        self._mentioning = {
            p.number: [q.number for q in pulls if f"#{p.number}" in q.title] for p in pulls
        }

    def mentioned_by(self, number: int) -> tuple[int, ...]:
        return tuple(self._mentioning.get(number, ()))


def test_a_question_added_to_the_history_is_asked_again_by_the_next_build(monkeypatch):
    """No list of lookups to keep up to date: a PR's analysis that reads a new fact of the
    history through its context is analysed again when only that fact changed."""
    analysed, analyse_pull = [], repository.analyse_pull

    def analyse_with_mentions(pull, context, *args):
        analysed.append(pull.number)
        made = analyse_pull(pull, context, *args)
        return replace(made, summary=f"named by {list(context.history.mentioned_by(pull.number))}")

    monkeypatch.setattr(repository, "History", HistoryWithMentions)
    monkeypatch.setattr(repository, "analyse_pull", analyse_with_mentions)
    early = [
        make_pull(1, MONDAY, "feat: fold block headers", files=[("src/fold.py", 40, 2)]),
        make_pull(2, MONDAY + timedelta(days=1), "fix: a typo", files=[("src/typo.py", 1, 1)]),
    ]
    later = make_pull(
        3, MONDAY + timedelta(weeks=2), "fix: a crash left by #1", files=[("src/fold.py", 3, 1)]
    )
    memo = Memo("salt")
    first = analyse_repo("acme/widget", early, None, OPTIONS, NOW, Stages(memo))
    assert [p.summary for p in first[0].pulls] == ["named by []", "named by []"]

    analysed.clear()  # the week of #1 and #2 is the same; what the history says of #1 is not
    memo = Memo("salt", memo.kept())
    again = analyse_repo("acme/widget", [*early, later], None, OPTIONS, NOW, Stages(memo))
    assert sorted(analysed) == [1, 2, 3]
    assert sorted(p.summary for p in again[0].pulls) == ["named by [3]", "named by []"]
    assert again == analyse_repo("acme/widget", [*early, later], None, OPTIONS, NOW)

    analysed.clear()  # nothing asked answers otherwise now: nothing is analysed again
    assert (
        analyse_repo(
            "acme/widget", [*early, later], None, OPTIONS, NOW, Stages(Memo("salt", memo.kept()))
        )
        == again
    )
    assert analysed == []


def test_a_stage_reads_the_history_only_by_asking():
    pull = make_pull(1, MONDAY, "feat: fold block headers")
    recording = Recording(
        History([pull], repository.compile_rules(OPTIONS.rules, "acme/widget", ()), UTC)
    )
    assert recording.title_of(1) == "feat: fold block headers"
    assert recording.asked == [("title_of", (1,), "feat: fold block headers")]
    with pytest.raises(AttributeError, match="asks the history questions"):
        recording._titles  # noqa: B018 (what a stage that went around the questions would read)
