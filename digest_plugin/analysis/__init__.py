"""Analysis stage: pure functions from stored pulls to a week's results (facts, no sentences).

    options = AnalysisOptions(checked_rules(defaults, user_rules), timezone=..., ...)
    weeks = analyse_repo("owner/name", pulls, state, options, now)

gives one `WeekAnalysis` per week (model.py), chronological, quiet weeks included. One module a
step: `rules` (defaults + DIGEST_RULES), `classify`, `upgrades`, `importance`, `description` (what
a PR body says), `risks`, `themes`, `recommend`, `stats`; `repository` runs them over a repository.
Everything arrives as data (`options.py`): the stage reads no file and no setting.
"""

from digest_plugin.analysis.classify import classify
from digest_plugin.analysis.importance import importance
from digest_plugin.analysis.options import AnalysisOptions
from digest_plugin.analysis.repository import (
    RepoContext,
    analyse_pull,
    analyse_repo,
    analyse_week,
    repo_context,
)
from digest_plugin.analysis.rules import checked_rules, compile_rules

__all__ = [
    "AnalysisOptions",
    "RepoContext",
    "analyse_pull",
    "analyse_repo",
    "analyse_week",
    "checked_rules",
    "classify",
    "compile_rules",
    "importance",
    "repo_context",
]
