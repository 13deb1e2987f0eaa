"""Analysis stage: pure functions from stored pulls to a week's results (facts, no sentences).

    weeks = analyse_repo("owner/name", pulls, state, settings, now)

gives one `WeekAnalysis` per week (model.py), chronological, quiet weeks included. One module a
step: `rules` (defaults + DIGEST_RULES), `classify`, `upgrades`, `importance`, `description` (what
a PR body says), `risks`, `themes`, `recommend`, `stats`; `repository` runs them over a repository.
"""

from digest_plugin.analysis.classify import classify
from digest_plugin.analysis.importance import importance
from digest_plugin.analysis.repository import RepoContext, analyse_pull, analyse_repo, analyse_week, repo_context
from digest_plugin.analysis.rules import load_rules

__all__ = ["RepoContext", "analyse_pull", "analyse_repo", "analyse_week", "classify", "importance", "load_rules", "repo_context"]
