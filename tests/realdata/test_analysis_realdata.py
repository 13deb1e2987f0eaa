"""What issue 10 asks of the analysis, measured over every week of verl, ruff and pelican.

Skipped when ../shared/data is absent. Each test states the measure in its name and asserts it on
every week, so a regression names the week and the repository it broke.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.model import (
    GOOD_NEWS_KINDS,
    MAX_RECOMMENDATION_PULLS,
    MAX_RECOMMENDATIONS,
    RISK_KINDS,
    WeekAnalysis,
)
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings
from tests.analysis_fixtures import REPOS, load_rules, real_pulls

pytestmark = pytest.mark.realdata
NOW = datetime(2026, 11, 30, tzinfo=UTC)


@functools.cache
def _weeks(repo: str) -> tuple[WeekAnalysis, ...]:
    return tuple(
        analyse_repo(repo, real_pulls(repo), None, analysis_options(DigestSettings()), NOW)
    )


@pytest.fixture(params=list(REPOS), scope="module")
def weeks(request) -> tuple[WeekAnalysis, ...]:
    return _weeks(request.param)


def test_no_recommendation_lists_more_than_five_prs_and_each_traces_to_a_risk_of_the_week(weeks):
    for week in weeks:
        assert len(week.recommendations) <= MAX_RECOMMENDATIONS, week.week
        findings = {r.kind: r for r in (*week.risks, *week.good_news)}
        for recommendation in week.recommendations:
            assert 1 <= len(recommendation.pulls) <= MAX_RECOMMENDATION_PULLS, (
                week.week,
                recommendation,
            )
            assert recommendation.risk in findings, (week.week, recommendation)
            assert set(recommendation.pulls) <= set(findings[recommendation.risk].pulls), (
                week.week,
                recommendation,
            )


def test_every_pr_of_a_risk_has_evidence_and_security_fixes_are_never_risks(weeks):
    for week in weeks:
        numbers = {p.pull.number for p in week.pulls}
        for risk in week.risks:
            assert risk.kind in RISK_KINDS and risk.kind not in GOOD_NEWS_KINDS, week.week
            evidenced = {
                n for e in risk.evidence for n in (e.pull, *e.pulls) if e.kind == risk.kind
            }
            assert set(risk.pulls) <= evidenced, (week.week, risk.kind)
            assert set(risk.pulls) <= numbers, (week.week, risk.kind)
        for news in week.good_news:
            assert news.kind in GOOD_NEWS_KINDS and not set(news.pulls) & {
                n for r in week.risks if r.kind == "security" for n in r.pulls
            }


def test_routine_bot_bumps_are_one_fact_not_one_line_each(weeks):
    for week in weeks:
        bots = {p.pull.number for p in week.pulls if p.classification.bot}
        for risk in week.risks:
            if risk.kind == "dependency-upgrade":
                single = [
                    e
                    for e in risk.evidence
                    if e.fact == "version" and e.pull in bots and not e.core
                ]
                assert len(single) <= 1, (week.week, single)  # two or more are grouped


def test_missing_tests_fires_whatever_the_title_calls_the_change():
    types = {
        p.classification.type
        for w in _weeks("astral-sh/ruff") + _weeks("verl-project/verl")
        for p in w.pulls
        if "missing-tests" in p.risks
    }
    assert {"chore", "refactor"} <= types


def test_hot_files_are_neither_tooling_nor_generated(weeks):
    rules = load_rules()
    for week in weeks:
        for hot in week.stats.hot_files:
            assert not rules.path_kinds_of(hot.path) & {"generated", "tooling", "ci"}, (
                week.week,
                hot.path,
            )


def test_one_module_scheme_with_readable_names(weeks):
    for week in weeks:
        for module in week.stats.modules:
            # no path beside a scope (`crates/ty_python_semantic` beside `ty`), no tooling folder
            assert not module.startswith(("crates/", "verl/", "pelican/", "src/", ".")), (
                week.week,
                module,
            )


def test_themes_belong_to_the_week_and_the_busiest_weeks_of_verl_have_some(weeks):
    rules = load_rules()
    for week in weeks:
        numbers = {p.pull.number for p in week.pulls}
        for theme in week.themes:
            assert (
                len(theme.pulls) >= rules.thresholds.theme_min_pulls and set(theme.pulls) <= numbers
            ), week.week
    if weeks[0].repo == "verl-project/verl":
        busiest = sorted(weeks, key=lambda w: -w.stats.merged_count)[:5]
        # a week whose strands only its bodies, folders or lower-case words name (2025-W29: "agent
        # loop", "fusion") has none that is precise, and says none
        assert sum(bool(w.themes) for w in busiest) >= 4


def test_a_few_line_deprecation_never_outranks_a_core_runtime_upgrade_of_its_week(weeks):
    for week in weeks:
        core = [
            p.score.value
            for p in week.pulls
            if any(u.core for u in p.upgrades) and not p.classification.bot
        ]
        small_deprecations = [
            p.score.value
            for p in week.pulls
            if "deprecation" in p.risks and p.footprint.core_lines <= 20
        ]
        if core and small_deprecations:
            assert max(small_deprecations) < max(core), week.week
