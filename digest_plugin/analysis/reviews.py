"""Review verdicts: who approved a PR, whose change request an approval settled, and whose was still
open when it merged, from the verdicts the store keeps (records/pull.py `Pull.verdicts`).

Pure, and silent where the data cannot tell: a PR without verdicts (an import, a store fetched
before they were kept) has an empty outcome. A reviewer's verdict is their latest review that gives
one (a COMMENTED review does not withdraw a request, as on GitHub; a dismissed one is no verdict);
only reviews submitted before the merge count, since one submitted after it did not stand in its
way. A change request is settled by an approval submitted after it, by the same reviewer or
another; one that no approval followed was outstanding when the PR merged.
"""

from __future__ import annotations

from digest_plugin.analysis.model import ReviewOutcome
from digest_plugin.records.pull import Pull


def review_outcome(pull: Pull) -> ReviewOutcome:
    """The verdicts of `pull` as they stood when it merged."""
    before_merge = [
        r
        for r in pull.verdicts
        if r.state != "COMMENTED" and (r.submitted_at is None or r.submitted_at <= pull.merged_at)
    ]
    # the later wins
    latest = {review.author: (index, review.state) for index, review in enumerate(before_merge)}
    approvals = sorted(
        (index, login) for login, (index, state) in latest.items() if state == "APPROVED"
    )
    last_approval = approvals[-1][0] if approvals else -1
    outstanding = tuple(
        login
        for login, (index, state) in sorted(latest.items(), key=lambda item: item[1])
        if state == "CHANGES_REQUESTED" and index > last_approval
    )
    settled = tuple(
        dict.fromkeys(
            r.author
            for index, r in enumerate(before_merge)
            if r.state == "CHANGES_REQUESTED"
            and index < last_approval
            and r.author not in outstanding
        )
    )
    return ReviewOutcome(
        approved_by=tuple(login for _, login in approvals), settled=settled, outstanding=outstanding
    )
