"""A key PR's review verdicts in one sentence, from the analysis' `ReviewOutcome` (analysis/reviews.py):
"Approved by @a and @b.", "Changes requested by @c, then approved by @d.", or a change request still
open when it merged. Nothing is said where the store has no verdicts. Logins are quoted from GitHub
as they are (untrusted: whoever renders the text escapes it).
"""

from __future__ import annotations

from digest_plugin.analysis.model import ReviewOutcome
from digest_plugin.narrate.wording import Language

NAMED = 4  # reviewers named in one list before "and others"


def reviewers(logins: tuple[str, ...], lang: Language) -> str:
    """`@a, @b and @c`, or the first NAMED of them and others."""
    return lang.some([f"@{login}" for login in logins], NAMED)


def review_sentence(review: ReviewOutcome, lang: Language) -> str:
    """What the reviewers decided, in one sentence; "" when the store has no verdict to tell."""
    _ = lang.gettext
    approved, settled, open_ = (
        reviewers(names, lang) for names in (review.approved_by, review.settled, review.outstanding)
    )
    if open_ and approved:
        return _(
            "Approved by {approvers}, but changes requested by {reviewers} were still open when it merged."
        ).format(approvers=approved, reviewers=open_)
    if open_:
        return _("Merged with changes still requested by {reviewers}.").format(reviewers=open_)
    if settled and approved:
        return _("Changes requested by {reviewers}, then approved by {approvers}.").format(
            reviewers=settled, approvers=approved
        )
    if approved:
        return _("Approved by {approvers}.").format(approvers=approved)
    return ""


def review_logins(review: ReviewOutcome) -> set[str]:
    """The logins a review sentence may quote: names, not claims, for the grounding check."""
    return {*review.approved_by, *review.settled, *review.outstanding}
