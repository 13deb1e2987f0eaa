"""The week as plain data: the JSON of `repo-digest show --format json` (DESIGN.md, "Interfaces").

Built from the analysis and the narrative; the Markdown report and the pages use the same inputs.
"""

from __future__ import annotations

from ..analysis.model import AnalysedPull, WeekAnalysis
from ..records import format_time


def week_json(week: WeekAnalysis, narrative=None) -> dict:
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
        "types": dict(stats.types),
        "authors": [
            {"login": a.login, "count": a.count, "first_time": a.first_time, "bot": a.bot}
            for a in (*stats.authors, *stats.bots)
        ],
        "hot_files": [{"path": f.path, "count": f.count, "pulls": list(f.pulls)} for f in stats.hot_files],
        "hot_dirs": [{"path": f.path, "count": f.count, "pulls": list(f.pulls)} for f in stats.hot_dirs],
        "risks": [{"kind": r.kind, "pulls": list(r.pulls), "text": r.text, "impact": r.impact} for r in week.risks],
        "fetch": {"source": week.fetch.source, "fetched_at": week.fetch.fetched_at, "truncated": week.fetch.truncated},
    }
    if stats.reviewers:
        data["reviewers"] = dict(stats.reviewers)
    if stats.merge_hours_median is not None:
        data["time_to_merge_hours"] = {"median": stats.merge_hours_median, "p90": stats.merge_hours_p90}
    if narrative is not None:
        data["summary"] = narrative.summary.text
        data["highlights"] = [_cited_json(c) for c in narrative.highlights]
        data["recommendations"] = [_cited_json(c) for c in narrative.recommendations]
    return data


def _pull_json(analysed: AnalysedPull) -> dict:
    pull, kind = analysed.pull, analysed.classification
    return {
        "number": pull.number,
        "title": pull.title,
        "url": pull.url,
        "author": pull.author.login,
        "labels": list(kind.labels),
        "modules": list(kind.modules),
        "type": kind.type,
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


def _cited_json(cited) -> dict:
    return {"text": cited.text, "pulls": list(cited.pulls)}
