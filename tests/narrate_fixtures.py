"""Hand-made analysed weeks for the narrative and Markdown tests (no analysis code involved)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta

from digest_plugin.analysis.model import (
    AnalysedPull,
    AuthorCount,
    Classification,
    Evidence,
    FetchInfo,
    Footprint,
    Movement,
    PathCount,
    Recommendation,
    Risk,
    Score,
    Theme,
    WeekAnalysis,
    WeekStats,
)
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Author, FileChange, Pull

REPO = "octo/widgets"
REPO_URL = "https://github.com/octo/widgets"


def analysed(
    number,
    title,
    *,
    type="feat",
    modules=("core",),
    score=5.0,
    key=False,
    login="alice",
    bot=False,
    risks=(),
    additions=10,
    deletions=2,
    files=("src/core.py",),
    summary="",
    first_time=False,
    labels=(),
    footprint=None,
    themes=(),
    body="",
):
    pull = Pull(
        number=number,
        title=title,
        url=f"{REPO_URL}/pull/{number}",
        author=Author(login, "Bot" if bot else "User"),
        merged_at=datetime(2026, 5, 19, 12, tzinfo=UTC),
        labels=tuple(labels),
        additions=additions,
        deletions=deletions,
        changed_files=len(files),
        files=tuple(f if isinstance(f, FileChange) else FileChange(f, 1, 1) for f in files),
        body=body,
    )
    factors = (("type", 2.0), ("size", 1.25), ("breadth", round(score - 3.25, 2)))
    return AnalysedPull(
        pull=pull,
        classification=Classification(
            type=type, modules=tuple(modules), labels=tuple(labels), bot=bot
        ),
        score=Score(score, factors),
        key=key,
        summary=summary,
        risks=tuple(risks),
        first_time=first_time,
        footprint=footprint or Footprint(),
        themes=tuple(themes),
    )


def week_of(
    pulls,
    risks=(),
    *,
    week="2026-W21",
    monday=date(2026, 5, 18),
    complete=True,
    in_progress=False,
    merged_movement=None,
    key_movement=None,
    hot_files=(),
    themes=(),
    good_news=(),
    recommendations=(),
):
    pulls = tuple(sorted(pulls, key=lambda p: -p.score.value))
    people = Counter(p.pull.author.login for p in pulls if not p.classification.bot)
    bots = Counter(p.pull.author.login for p in pulls if p.classification.bot)
    first = {p.pull.author.login for p in pulls if p.first_time}
    stats = WeekStats(
        merged_count=len(pulls),
        key_count=sum(p.key for p in pulls),
        average_importance=round(sum(p.score.value for p in pulls) / len(pulls), 1)
        if pulls
        else 0.0,
        additions=sum(p.pull.additions for p in pulls),
        deletions=sum(p.pull.deletions for p in pulls),
        types=dict(Counter(p.classification.type for p in pulls)),
        modules=dict(Counter(m for p in pulls for m in p.classification.modules)),
        labels=dict(Counter(label for p in pulls for label in p.classification.labels)),
        authors=tuple(AuthorCount(login, n, login in first) for login, n in people.most_common()),
        bots=tuple(AuthorCount(login, n, False, True) for login, n in bots.most_common()),
        hot_files=tuple(hot_files),
        merged_movement=merged_movement,
        key_movement=key_movement,
    )
    return WeekAnalysis(
        repo=REPO,
        week=week,
        start=monday,
        end=monday + timedelta(days=6),
        timezone="UTC",
        complete=complete,
        in_progress=in_progress,
        pulls=pulls,
        stats=stats,
        risks=tuple(risks),
        fetch=FetchInfo("import", None, not complete),
        themes=tuple(themes),
        good_news=tuple(good_news),
        recommendations=tuple(recommendations),
    )


def busy_week(**options):
    """Six PRs of several kinds, with risks and their evidence, a hot file, a theme, a newcomer and a bot."""
    pulls = [
        analysed(
            101,
            "[core] feat: add *streaming* <export> support",
            score=8.2,
            key=True,
            additions=900,
            deletions=40,
            files=("src/core.py", "src/export.py"),
            summary="Adds streaming export; see #99 for the design.",
            risks=("missing-tests", "large-change"),
            themes=("export",),
        ),
        analysed(
            102,
            "[io] refactor: split the reader [part 1]",
            type="refactor",
            modules=("io",),
            score=7.1,
            key=True,
            additions=1200,
            deletions=1100,
            login="bob",
            risks=("large-change",),
            files=(
                FileChange("src/io/reader.py", 200, 1100, "removed"),
                FileChange("src/io/read/__init__.py", 500, 0, "added"),
                FileChange("src/io/read/chunks.py", 500, 0, "added"),
                "src/core.py",
            ),
            footprint=Footprint(
                added_files=("src/io/read/__init__.py", "src/io/read/chunks.py"),
                added_count=2,
                removed_files=("src/io/reader.py",),
                removed_count=1,
                removed_lines=1100,
                core_lines=2300,
            ),
        ),
        analysed(
            103,
            "fix: crash when `path` is empty",
            type="fix",
            modules=("io",),
            score=6.4,
            key=True,
            login="carol",
            first_time=True,
            files=("src/io/reader.py", "tests/test_reader.py"),
            summary="Fix crash when path is empty.",
            footprint=Footprint(
                places=("src/io/reader.py",), test_files=1, test_lines_gained=20, core_lines=2
            ),
        ),
        analysed(
            104,
            "docs: explain v2.1 migration",
            type="docs",
            modules=("docs",),
            score=3.0,
            files=("docs/migrate.md",),
        ),
        analysed(
            105,
            "Bump requests from 2.31.0 to 2.32.3",
            type="build",
            modules=("deps",),
            score=2.5,
            login="dependabot[bot]",
            bot=True,
            risks=("dependency-upgrade",),
            files=("requirements.txt",),
        ),
        analysed(
            106,
            "perf: cache parsed headers",
            type="perf",
            modules=("core",),
            score=5.5,
            login="bob",
            files=("src/core.py",),
            risks=("missing-tests",),
            themes=("export",),
        ),
    ]
    risks = [
        Risk(
            "large-change",
            (102, 101),
            "high",
            (
                Evidence("files-removed", 102, paths=("src/io/reader.py",), files=1, lines=1100),
                Evidence("size", 101, lines=940, files=2, modules=1),
            ),
        ),
        Risk(
            "missing-tests",
            (101, 106),
            "medium",
            (
                Evidence(
                    "untested-code", 101, paths=("src/export.py", "src/core.py"), lines=900, files=2
                ),
            ),
        ),
        Risk(
            "dependency-upgrade",
            (105,),
            "low",
            (Evidence("routine-bumps", 105, pulls=(105,), packages=("requests",)),),
        ),
    ]
    hot = [PathCount("src/core.py", 3, (101, 102, 106))]
    themes = [
        Theme(
            "export",
            "scope",
            (101, 106),
            (101,),
            2 / 5,
            0.05,
            4,
            2,
            910,
            42,
            {"feat": 1, "perf": 1},
            trend="rising",
            line_share=0.6,
        )
    ]
    recommendations = [
        Recommendation(
            "add-tests",
            (101,),
            risk="missing-tests",
            path="src/export.py",
            count=900,
            evidence=risks[1].evidence[0],
        ),
        Recommendation(
            "add-tests",
            (101, 102, 106),
            risk="hotspot",
            path="src/core.py",
            count=3,
            evidence=Evidence(
                "hot-file",
                101,
                paths=("src/core.py",),
                pulls=(101, 102, 106),
                missing="tests",
                kind="hotspot",
            ),
        ),
    ]
    return week_of(
        pulls, risks, hot_files=hot, themes=themes, recommendations=recommendations, **options
    )


def previous_week():
    pulls = [
        analysed(90, "feat: first widget", score=6.5, key=True, modules=("core",)),
        analysed(91, "fix: typo", type="fix", score=2.0, modules=("io",)),
    ]
    return week_of(pulls, week="2026-W20", monday=date(2026, 5, 11))


def movement_week():
    """busy_week with the analysis' movement figures filled in, against previous_week()."""
    return busy_week(merged_movement=Movement(6, 2, 4.5), key_movement=Movement(3, 1, 2.0))


def quiet_week(**options):
    return week_of([], **options)


def bot_only_week():
    pulls = [
        analysed(
            201,
            "Bump ruff from 0.4.1 to 0.4.2",
            type="build",
            modules=("deps",),
            score=2.0,
            login="dependabot[bot]",
            bot=True,
            risks=("dependency-upgrade",),
            files=("requirements.txt",),
        ),
        analysed(
            202,
            "[pre-commit.ci] pre-commit autoupdate",
            type="ci",
            modules=("ci",),
            score=1.0,
            login="pre-commit-ci[bot]",
            bot=True,
            files=(".pre-commit-config.yaml",),
        ),
    ]
    return week_of(
        pulls,
        [
            Risk(
                "dependency-upgrade",
                (201,),
                "low",
                (Evidence("routine-bumps", 201, pulls=(201,), packages=("ruff",)),),
            )
        ],
    )


# --- real weeks (../shared/data) ------------------------------------------------------------------

REAL_WEEKS = {  # (repo, export file, week, first week of the window analysed with it)
    "verl-W21": ("verl-project/verl", "verl-project__verl.pulls.jsonl.gz", "2026-W21", "2026-W17"),
    "verl-W23": ("verl-project/verl", "verl-project__verl.pulls.jsonl.gz", "2026-W23", "2026-W17"),
    "ruff-busy": ("astral-sh/ruff", "astral-sh__ruff.pulls.jsonl.gz", "2026-W26", "2026-W22"),
}
# Busy weeks for the model writer's requests (tests/realdata/test_llm_caps_realdata.py) only
BUSY_REAL_WEEKS = {
    "verl-2025-W23": (
        "verl-project/verl",
        "verl-project__verl.pulls.jsonl.gz",
        "2025-W23",
        "2025-W19",
    ),
    "ruff-2026-W20": ("astral-sh/ruff", "astral-sh__ruff.pulls.jsonl.gz", "2026-W20", "2026-W16"),
}
_REAL_CACHE: dict = {}


def real_week(name: str):
    """(week, previous weeks) of a real week, analysed with the few weeks before it; skips without the data."""
    from tests.conftest import real_data

    repo, file_name, week_id, first = {**REAL_WEEKS, **BUSY_REAL_WEEKS}[name]
    path = real_data(file_name)
    key = (repo, first, week_id)
    if key not in _REAL_CACHE:
        from digest_plugin.analysis import analyse_repo
        from digest_plugin.settings import DigestSettings
        from digest_plugin.store.jsonl_import import read_export
        from digest_plugin.weeks import Week

        start, end = Week.parse(first).start(UTC), Week.parse(week_id).end(UTC)
        pulls = [p for p in read_export(path) if start <= p.merged_at < end]
        _REAL_CACHE[key] = analyse_repo(
            repo,
            pulls,
            None,
            analysis_options(DigestSettings()),
            datetime(2026, 11, 30, tzinfo=UTC),
        )
    weeks = _REAL_CACHE[key]
    index = [w.week for w in weeks].index(week_id)
    return weeks[index], weeks[:index]


def english_left(week, text: str) -> str | None:
    """What is left of a Chinese text once names, titles, the authors' words, code-like words and
    numbers are taken out, if it still holds Latin letters or half-width punctuation; None when it
    reads as Chinese."""
    from digest_plugin.narrate.describe import quoted_forms

    names = {week.repo, week.week, "PR", "CI"}
    for p in week.pulls:
        names.update(quoted_forms(p, chinese=True))
        names.update((*p.classification.modules, *p.classification.labels))
        if p.classification.type_mark:  # the author's own "fix:" or label, shown as theirs
            names.add(p.classification.type_mark[1])
        for said in p.consequences:  # the author's words and the names they give
            names.update(v for v in (said.quote.rstrip("."), said.what, said.old, said.new) if v)
        names.update(
            (
                *p.footprint.added_files,
                *p.footprint.removed_files,
                *p.footprint.workflows,
                *p.footprint.config_files,
            )
        )
    for stats in (week.stats,):
        names.update(
            (*stats.modules, *stats.labels, *(a.login for a in (*stats.authors, *stats.bots)))
        )
        names.update(f.path for f in (*stats.hot_files, *stats.hot_dirs))
    names.update(t.name for t in week.themes)
    for risk in (*week.risks, *week.good_news):
        for e in risk.evidence:
            names.update(
                (*e.paths, *e.packages, *(v for v in (e.package, e.old, e.new, e.detail) if v))
            )
    for r in week.recommendations:
        names.update(v for v in (r.path, r.package, r.old, r.new, r.detail) if v)
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"#\d+|[+\u2212]?\d[\d,]*(\.\d+)?%?", " ", text)
    return text if re.search(r"[A-Za-z]|[,;:()!?]", text) else None
