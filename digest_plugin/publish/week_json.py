"""The week as plain data: the JSON of `repo-digest show --format json` (docs/architecture.md, "The week as JSON").

Built from the analysis and the narrative; the Markdown report and the pages use the same inputs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict

from digest_plugin.analysis.claims import type_speaks
from digest_plugin.analysis.model import AnalysedPull, Evidence, Risk, Theme, WeekAnalysis
from digest_plugin.analysis.stats import ranked
from digest_plugin.narrate import Narrative, writer_credit
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.week_view import KEY_CHANGES_IN_FULL
from digest_plugin.records.pull import format_time


def week_json(week: WeekAnalysis, narrative: Narrative, lang: Language | None = None) -> dict:
    """The week's facts and its `narrative`'s texts; given the site's `lang`, the writer's credit."""
    stats = week.stats
    data = {
        "repo": week.repo,
        "week": week.week,
        "start": week.start.isoformat(),
        "end": week.end.isoformat(),
        "timezone": week.timezone,
        "complete": week.complete,
        "in_progress": week.in_progress,
        "merged_count": stats.merged_count,
        "key_count": stats.key_count,
        "average_importance": stats.average_importance,
        "additions": stats.additions,
        "deletions": stats.deletions,
        "pulls": [_pull_json(p) for p in week.pulls],
        "labels": dict(stats.labels),
        "modules": dict(stats.modules),
        "types": dict(ranked(Counter(filter(None, map(_stated_type, week.pulls))))),
        "authors": [
            {"login": a.login, "count": a.count, "first_time": a.first_time, "bot": a.bot}
            for a in (*stats.authors, *stats.bots)
        ],
        "hot_files": _hot_paths_json(stats.hot_files),
        "hot_dirs": _hot_paths_json(stats.hot_dirs),
        "tooling_files": [{"path": f.path, "count": f.count} for f in stats.tooling_files],
        "generated_files": [{"path": f.path, "count": f.count} for f in stats.generated_files],
        "themes": [_theme_json(t) for t in week.themes],
        "releases": [{"pull": r.pull, "version": r.version} for r in week.releases],
        "risks": [_risk_json(r) for r in week.risks],
        "good_news": [_risk_json(r) for r in week.good_news],
        "fetch": {
            "source": week.fetch.source,
            "fetched_at": week.fetch.fetched_at,
            "truncated": week.fetch.truncated,
            "skipped": list(week.fetch.skipped),
        },
    }
    if stats.reviewers:
        data["reviewers"] = dict(stats.reviewers)
    if stats.merge_hours_median is not None:
        data["time_to_merge_hours"] = {
            "median": stats.merge_hours_median,
            "p90": stats.merge_hours_p90,
        }
    data["summary"] = narrative.summary.text
    data["highlights"] = [_cited_json(c) for c in narrative.highlights]
    data["recommendations"] = [_cited_json(c) for c in narrative.recommendations]
    data["breaking"] = [_cited_json(c) for c in narrative.breaking]
    _add_texts(data, narrative)
    data["writer"] = _writer_json(narrative, lang)
    return data


def _hot_paths_json(paths) -> list[dict]:
    return [{"path": p.path, "count": p.count, "pulls": list(p.pulls)} for p in paths]


def _theme_json(theme: Theme) -> dict:
    return {
        "name": theme.name,
        "pulls": list(theme.pulls),
        "source": theme.source,
        "key_pulls": list(theme.key_pulls),
        "share": theme.share,
        "line_share": theme.line_share,
        "baseline_share": theme.baseline_share,
    }


def _risk_json(risk: Risk) -> dict:
    return {
        "kind": risk.kind,
        "pulls": list(risk.pulls),
        "impact": risk.impact,
        "evidence": [_evidence_json(e) for e in risk.evidence],
    }


def _evidence_json(evidence: Evidence) -> dict:
    """The facts an evidence fills (empty fields left out), under the JSON's `pulls` (docs/architecture.md)."""
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in asdict(evidence).items()
        if value not in (None, (), 0, False) and name != "kind"
    }  # the risk it sits in says the kind


def _add_texts(data: dict, narrative) -> None:
    """The narrative's sentences beside the facts they word, matched by kind and by name."""
    lines = {line.kind: line for line in narrative.risks}
    for risk in (*data["risks"], *data["good_news"]):
        if risk["kind"] in lines:
            risk["text"] = lines[risk["kind"]].sentence.text
            if lines[risk["kind"]].mitigation is not None:  # what to do about it, as its PRs say
                risk["mitigation"] = _cited_json(lines[risk["kind"]].mitigation)
    themes = {theme.name: theme for theme in narrative.themes}
    for theme in data["themes"]:
        if theme["name"] in themes:
            theme["text"] = themes[theme["name"]].text
    # the key changes the page tells in full; the others are key PRs told in brief, by their summary
    changes = {change.number: change for change in narrative.key_changes[:KEY_CHANGES_IN_FULL]}
    for pull in data["pulls"]:
        if (change := changes.get(pull["number"])) is not None:
            pull["text"] = change.summary  # the key change's line, as the page shows it
            if change.quote:
                pull["quote"] = change.quote  # the author's words the line leads to


def _writer_json(narrative, lang: Language | None) -> dict:
    """Which writer wrote the texts; for a language model, what its sentences fared and the page's sentence saying so."""
    writer = {"name": narrative.writer}
    check = narrative.check
    if check is not None:
        writer.update(
            model=check.model,
            checked=check.checked,
            kept=check.kept,
            set_aside=check.checked - check.kept,
            unused=check.unused,
            rejected=[{"part": r.part, "text": r.text, "reason": r.reason} for r in check.rejected],
        )
    if lang is not None:
        writer["text"] = writer_credit(narrative, lang)
    return writer


def _pull_json(analysed: AnalysedPull) -> dict:
    pull, kind = analysed.pull, analysed.classification
    return {
        "number": pull.number,
        "title": pull.title,
        "url": pull.url,
        "author": pull.author.login,
        "labels": list(kind.labels),
        "modules": list(kind.modules),
        "type": _stated_type(analysed),
        "importance": analysed.score.value,
        "importance_factors": dict(analysed.score.factors),
        "key": analysed.key,
        "summary": analysed.summary,
        "additions": pull.additions,
        "deletions": pull.deletions,
        "changed_files": pull.changed_files,
        "bot": kind.bot,
        "first_time": analysed.first_time,
        "risks": list(analysed.risks),
        "merged_at": format_time(pull.merged_at),
    }


def _stated_type(analysed: AnalysedPull) -> str | None:
    """The PR's type where a page may say it: a kind whose rule is precise (analysis/claims.py), or
    the author's own (a label, a title prefix, a revert's title); null where it was guessed from
    its words and files, which weighs in its importance as `type_read` and is not stated."""
    kind = analysed.classification
    return kind.type if kind.author_typed or type_speaks(kind.type) else None


def _cited_json(cited) -> dict:
    return {"text": cited.text, "pulls": list(cited.pulls)}
