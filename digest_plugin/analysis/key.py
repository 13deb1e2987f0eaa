"""Which PRs are key: the few a reader of the week should read in full.

A fixed importance makes a busy repository's every fifth PR key (ruff: 1,583 of 7,554, thirty in
its busiest week), and then the word selects nothing. So by default the bar is relative to the
repository's own recent weeks: a PR is key when its importance is at least that of the
`KEY_RANK`-th best PR of its week and the `KEY_WEEKS - 1` weeks before it (seven a week on
average), and never below `KEY_FLOOR`, so that a quiet repository's weak PRs do not become key for
want of stronger ones. Only earlier weeks are read: a week's key PRs never change when later weeks
come. DIGEST_KEY_THRESHOLD, when set, is a fixed bar instead. Pure.

    cutoff = key_cutoff(this_week_scores, earlier_weeks_scores, options.key_threshold)
    key = score >= cutoff
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

KEY_WEEKS = 12  # the week and the eleven before it: about a quarter, long enough to hold a busy week and quiet ones
KEY_RANK = 7 * KEY_WEEKS  # seven key PRs a week on average where the weeks are busy
# the importance below which no PR is key (DIGEST_KEY_THRESHOLD's fixed default before)
KEY_FLOOR = 6.0


def least_key_score(fixed: float | None) -> float:
    """The bar every key PR clears, whatever its weeks: the fixed threshold, else the floor."""
    return KEY_FLOOR if fixed is None else fixed


def key_cutoff(
    scores: Iterable[float], earlier: Sequence[Iterable[float]], fixed: float | None = None
) -> float:
    """The importance from which a PR of the week is key. `scores` are the week's PRs' scores,
    `earlier` those of the weeks before it, oldest first (only the last KEY_WEEKS - 1 are read);
    `fixed` is DIGEST_KEY_THRESHOLD, which, when set, is the answer."""
    if fixed is not None:
        return fixed
    window = sorted(chain(scores, *earlier[-(KEY_WEEKS - 1) :]), reverse=True)
    if len(window) < KEY_RANK:
        return KEY_FLOOR  # fewer PRs than key places: the floor alone selects
    return max(KEY_FLOOR, window[KEY_RANK - 1])
