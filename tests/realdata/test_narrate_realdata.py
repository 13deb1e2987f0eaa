"""The narrative of every week of the three real repositories (../shared/data), in both languages.

How it is measured: each repository's whole history is analysed once, every week is narrated in
English and in Chinese with the four weeks before it (as `narrate` does), and then
- the grounding check finds nothing (every #N of the week, every number the figure it claims),
- every key PR has a one-line summary that is not its title again and ends as a sentence ends,
- no week has more than five recommendations, none naming more than five PRs.
"""

from __future__ import annotations

import re
import statistics
from datetime import UTC, datetime

import pytest

from digest_plugin.narrate import BuiltinWriter, check_grounding, narrate
from digest_plugin.narrate.overview import SUMMARY_THEMES
from digest_plugin.narrate.titles import chinese_title, display_title
from digest_plugin.narrate.wording import Language
from digest_plugin.narrate.writers import RECENT_WEEKS
from digest_plugin.publish.history import analysis_options
from digest_plugin.publish.week_view import week_view
from tests.chinese_share import chinese_share, narrative_texts
from tests.narrate_fixtures import REAL_WEEKS, english_left, real_week

EN, ZH = Language.of("en"), Language.of("zh")
pytestmark = pytest.mark.realdata
REPOSITORIES = {
    "verl": ("verl-project/verl", "verl-project__verl.pulls.jsonl.gz"),
    "ruff": ("astral-sh/ruff", "astral-sh__ruff.pulls.jsonl.gz"),
    "pelican": ("getpelican/pelican", "getpelican__pelican.pulls.jsonl.gz"),
}
SENTENCE_END = re.compile(r"[.!?。！？][”\")）]?$")
_NARRATED: dict = {}


def narrated(name: str):
    """[(week, previous, {language: narrative})] of every week of a repository, built once."""
    if name not in _NARRATED:
        from digest_plugin.analysis import analyse_repo
        from digest_plugin.settings import DigestSettings
        from digest_plugin.store.jsonl_import import read_export
        from tests.conftest import real_data

        repo, file_name = REPOSITORIES[name]
        weeks = analyse_repo(
            repo,
            list(read_export(real_data(file_name))),
            None,
            analysis_options(DigestSettings()),
            datetime(2026, 11, 30, tzinfo=UTC),
        )
        writer = BuiltinWriter()
        _NARRATED[name] = [
            (
                week,
                weeks[max(0, i - RECENT_WEEKS) : i],
                {
                    language: writer.write(
                        week, weeks[max(0, i - RECENT_WEEKS) : i], Language.of(language)
                    )
                    for language in ("en", "zh")
                },
            )
            for i, week in enumerate(weeks)
        ]
    return _NARRATED[name]


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_every_week_in_both_languages_passes_the_grounding_check(name):
    problems = [
        f"{week.week} {language}: {problem}"
        for week, previous, narratives in narrated(name)
        for language, narrative in narratives.items()
        for problem in check_grounding(week, narrative, previous)
    ]
    assert problems == []


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_no_key_pull_is_summarised_by_its_title_or_half_a_sentence(name):
    bad, counted = [], 0
    for week, _previous, narratives in narrated(name):
        titles = {p.pull.number: p.pull.title for p in week.pulls}
        for language, narrative in narratives.items():
            assert [c.number for c in narrative.key_changes] == [
                p.pull.number for p in week.pulls if p.key
            ]
            for change in narrative.key_changes:
                counted += 1
                title = titles[change.number]
                said_again = change.summary.rstrip(".。").casefold() in {
                    t.casefold() for t in (title, display_title(title), chinese_title(title))
                }
                # a lead ("作者的说明：") before the author's words, quoted apart, or a whole sentence
                whole = (
                    SENTENCE_END.search(change.quote) and change.summary.endswith("：")
                    if change.quote
                    else SENTENCE_END.search(change.summary)
                )
                if not change.summary or said_again or not whole:
                    bad.append(
                        f"{week.week} {language} #{change.number}: {change.summary!r} {change.quote!r}"
                    )
    assert counted and bad == []


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_no_week_recommends_more_than_five_things_nor_names_more_than_five_pulls(name):
    for week, _previous, narratives in narrated(name):
        for language, narrative in narratives.items():
            assert len(narrative.recommendations) <= 5, (week.week, language)
            for recommendation in narrative.recommendations:
                named = set(re.findall(r"#\d+", recommendation.text))
                assert len(recommendation.pulls) <= 5 and len(named) <= 5, (
                    week.week,
                    language,
                    recommendation.text,
                )


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_summaries_lead_with_the_weeks_moves_and_end_with_its_figures(name):
    for week, _previous, narratives in narrated(name):
        people = [p for p in week.pulls if not p.classification.bot]
        if not people:
            continue
        english = narratives["en"].summary.text
        assert english.startswith(
            (
                "The week was",
                "As in recent weeks, the week was",  # themes that took recent weeks as much
                "A larger share of the week's PRs",  # rising themes of less than half the week
                "The main change",
                "Among the week's changes",  # a week without key PRs
                "This week is still",
                "The data for this week",
            )
        ), (week.week, english)
        assert re.search(r"In all, [\d,]+ (person|people) merged [\d,]+ PRs?", english), (
            week.week,
            english,
        )
        if english.startswith(
            ("The week was", "As in recent weeks, the week was")
        ):  # said only of themes that took half of the week or more
            assert (
                2 * len({n for t in week.themes[:SUMMARY_THEMES] for n in t.pulls})
                >= week.stats.merged_count
            ), (week.week, english)
        if english.startswith("Among the week's changes"):  # no main change where none is key
            assert not any(p.key for p in people), (week.week, english)
        assert "本周共有" in narratives["zh"].summary.text, week.week


@pytest.mark.parametrize("name", sorted(REAL_WEEKS))
def test_chinese_real_weeks_leave_no_english_but_names_titles_and_code(name):
    week, previous = real_week(name)
    narrative = narrate(week, previous, ZH)
    texts = [narrative.title, *(cited.text for _, cited in narrative.texts())]
    texts += (
        [g.heading for g in narrative.highlights]
        + [r.name for r in narrative.risks]
        + [r.impact for r in narrative.risks]
    )
    leftovers = [left for left in (english_left(week, t) for t in texts) if left]
    assert leftovers == []


@pytest.mark.parametrize("name", sorted(REPOSITORIES))
def test_every_chinese_week_page_shows_an_english_title_once_and_its_narratives_are_at_least_38_percent_chinese(
    name,
):
    """Over every week: a title (of 12 characters or more, shorter ones occur inside other words) is
    in at most one text of the page besides the rows and headings of other PRs that share it (a
    revert's own title holds the one it reverts). The narratives' Chinese share, as defined, over
    all the weeks and in the median week, against the seeds' reports' 38% over theirs: a week of two
    PRs whose titles keep their English terms ("新增 progress spinner animation …") may read below it."""
    repo = REPOSITORIES[name][0]
    shares, every_text = [], []
    for week, _previous, narratives in narrated(name):
        if not week.pulls:
            continue
        view = week_view(week, narratives["zh"], (), ZH, f"https://github.com/{repo}", "")
        texts = [
            *((None, t) for t in narrative_texts(view)),
            *((c.ref.number, c.title) for c in view.key_changes),
            *((row.ref.number, row.title) for row in (*view.updates, *view.pulls)),
        ]
        for analysed in week.pulls:
            forms = {
                f
                for f in (analysed.pull.title.strip(), display_title(analysed.pull.title))
                if len(f) >= 12
            }
            shown = [
                t
                for owner, t in texts
                if owner in (None, analysed.pull.number) and any(form in t for form in forms)
            ]
            assert len(shown) <= 1, (week.week, analysed.pull.number, shown)
        shares.append(chinese_share(narrative_texts(view)))
        every_text += narrative_texts(view)
    assert chinese_share(every_text) >= 0.38
    assert statistics.median(shares) >= 0.38


def test_every_risk_of_the_analysis_is_told_with_all_its_pulls():
    week, previous = real_week("verl-W21")
    narrative = narrate(week, previous, EN)
    assert {(r.kind, r.pulls) for r in narrative.risks} == {
        (r.kind, r.pulls) for r in (*week.good_news, *week.risks) if r.pulls
    }
    for line in narrative.risks:
        assert set(line.sentence.pulls) <= set(line.pulls)
