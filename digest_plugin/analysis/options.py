"""What the analysis is told: the DIGEST_* options it reads, as plain values.

The analysis imports nothing of the settings: whoever runs it (publish/history.py) reads the
settings, and the rules files they name, and hands over an `AnalysisOptions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, tzinfo


@dataclass(frozen=True)
class AnalysisOptions:
    rules: dict  # rules.yaml's defaults with DIGEST_RULES merged over them and checked (rules.checked_rules)
    timezone: tzinfo = UTC  # weeks run Monday to Monday here (DIGEST_TIMEZONE)
    since: date | None = None  # DIGEST_SINCE: no week before its own
    trend_weeks: int = 12  # DIGEST_TREND_WEEKS: weeks the movement figures and charts look back
    # DIGEST_KEY_THRESHOLD: importance from which a PR is key; None: relative (key.py)
    key_threshold: float | None = None
    bots: tuple[str, ...] = ()  # DIGEST_BOTS, beyond GitHub's Bot type and `[bot]` logins
