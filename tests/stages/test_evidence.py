"""Reviews and diffs as evidence: the analysis reads who approved and whose change request stood
when a PR merged, and the built-in writer says so in the key PR's line and as a risk, in both
languages, citing the PR, and only where the store has verdicts; the model reads the verdicts, a few
review comments and the key PRs' diff excerpts, in parts that still fit the cap."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.model import ReviewOutcome
from digest_plugin.analysis.reviews import review_outcome
from digest_plugin.narrate import check_grounding, cited_html, narrate
from digest_plugin.narrate.llm.answer import Sentence
from digest_plugin.narrate.llm.check import WeekFacts, check_sentence
from digest_plugin.narrate.llm.parts import INPUT_SHARE, plan, request_tokens
from digest_plugin.narrate.llm.prompt import (
    DIFF_CHARACTERS,
    REVIEW_COMMENT_CHARACTERS,
    figures,
    week_document,
)
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Review, ThreadComment
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull

MERGED = datetime(2026, 5, 20, 12, tzinfo=UTC)
EN, ZH = Language.of("en"), Language.of("zh")


def verdicts(*reviews: tuple[str, str]) -> tuple[Review, ...]:
    """(login, state) reviews an hour apart, the last an hour before the merge."""
    return tuple(
        Review(login, state, MERGED - timedelta(hours=len(reviews) - i))
        for i, (login, state) in enumerate(reviews)
    )


def outcome(*reviews: tuple[str, str], **changes) -> ReviewOutcome:
    return review_outcome(make_pull(1, MERGED, verdicts=verdicts(*reviews), **changes))


def test_the_approvers_are_those_whose_latest_verdict_approves():
    assert outcome(("ann", "APPROVED"), ("bob", "APPROVED")) == ReviewOutcome(
        approved_by=("ann", "bob")
    )
    assert (
        outcome(("ann", "APPROVED"), ("ann", "DISMISSED")) == ReviewOutcome()
    )  # a dismissed approval is none
    assert not outcome()  # no verdicts: nothing to say


def test_a_change_request_an_approval_followed_is_settled_whoever_approved():
    assert outcome(("cat", "CHANGES_REQUESTED"), ("dan", "APPROVED")) == ReviewOutcome(
        approved_by=("dan",), settled=("cat",)
    )
    assert outcome(("cat", "CHANGES_REQUESTED"), ("cat", "APPROVED")) == ReviewOutcome(
        approved_by=("cat",), settled=("cat",)
    )


def test_a_change_request_no_approval_followed_was_outstanding_at_the_merge():
    assert outcome(("dan", "APPROVED"), ("cat", "CHANGES_REQUESTED")) == ReviewOutcome(
        approved_by=("dan",), outstanding=("cat",)
    )
    # a comment does not withdraw a request, as on GitHub
    assert outcome(("cat", "CHANGES_REQUESTED"), ("cat", "COMMENTED")).outstanding == ("cat",)
    assert (
        outcome(("cat", "DISMISSED")) == ReviewOutcome()
    )  # a dismissed request stands in no one's way


def test_reviews_after_the_merge_did_not_stand_in_its_way():
    late = (Review("cat", "CHANGES_REQUESTED", MERGED + timedelta(hours=1)),)
    assert review_outcome(
        make_pull(1, MERGED, verdicts=verdicts(("ann", "APPROVED")) + late)
    ) == ReviewOutcome(approved_by=("ann",))


# -- the writer, on weeks the analysis made from records -------------------------------------------


def week(*pulls):
    options = dataclasses.replace(
        analysis_options(DigestSettings()), key_threshold=0.0
    )  # every PR key: each has a line
    [analysed] = analyse_repo(
        "acme/widget", list(pulls), None, options, MERGED + timedelta(days=30)
    )
    return analysed


def reviewed(number: int, *reviews: tuple[str, str], **fields):
    files = (("src/widget/core.py", 120, 10, "modified"), ("tests/test_core.py", 30, 0, "modified"))
    return make_pull(
        number,
        MERGED + timedelta(minutes=number),
        f"feat: change {number}",
        files=fields.pop("files", files),
        verdicts=verdicts(*reviews),
        **fields,
    )


def line(narrative, number: int) -> str:
    return next(c.details.text for c in narrative.key_changes if c.number == number)


@pytest.fixture(scope="module")
def reviewed_week():
    return week(
        reviewed(11, ("ann", "APPROVED"), ("bob", "APPROVED")),
        reviewed(12, ("cat", "CHANGES_REQUESTED"), ("dan", "APPROVED")),
        reviewed(13, ("dan", "APPROVED"), ("cat", "CHANGES_REQUESTED")),
        reviewed(14, ("coderabbitai[bot]", "CHANGES_REQUESTED")),
        reviewed(15),
    )


def test_key_pr_lines_say_who_approved_and_what_was_settled(reviewed_week):
    narrative = narrate(reviewed_week, [], EN)
    assert line(narrative, 11).endswith(" Approved by @ann and @bob.")
    assert line(narrative, 12).endswith(" Changes requested by @cat, then approved by @dan.")
    assert line(narrative, 13).endswith(
        " Approved by @dan, but changes requested by @cat were still open when it merged."
    )
    assert line(narrative, 14).endswith(
        " Merged with changes still requested by @coderabbitai[bot]."
    )
    assert "pprove" not in line(narrative, 15) and "request" not in line(
        narrative, 15
    )  # no verdicts, nothing said
    for change in narrative.key_changes:
        assert change.details.pulls == (change.number,)  # each line cites its own PR
    assert check_grounding(reviewed_week, narrative) == []


def test_a_merge_over_a_persons_change_request_is_a_risk_naming_the_pr_and_the_reviewer(
    reviewed_week,
):
    [risk] = [r for r in narrate(reviewed_week, [], EN).risks if r.kind == "unresolved-review"]
    assert risk.name == "Unresolved review" and risk.pulls == (
        13,
    )  # a review tool's request (#14) is no risk
    assert (
        risk.sentence.text
        == "#13 was merged while @cat still requested changes: what the reviewer asked for may not have been done."
    )
    assert risk.sentence.pulls == (13,) and risk.level == "high"  # a key PR
    assert [
        n for p in reviewed_week.pulls for n in [p.pull.number] if "unresolved-review" in p.risks
    ] == [13]


def test_the_chinese_page_says_the_same_in_chinese_with_logins_as_they_are(reviewed_week):
    narrative = narrate(reviewed_week, [], ZH)
    assert line(narrative, 11).endswith("已由 @ann 和 @bob 批准。")
    assert line(narrative, 12).endswith("@cat 曾要求修改，随后 @dan 批准。")
    assert line(narrative, 13).endswith("@dan 已批准，但合并时 @cat 提出的修改请求仍未解决。")
    [risk] = [r for r in narrative.risks if r.kind == "unresolved-review"]
    assert risk.name == "未解决的评审"
    assert risk.sentence.text == "#13 合并时 @cat 仍在要求修改：评审者要求的修改可能尚未完成。"
    assert check_grounding(reviewed_week, narrative) == []


def test_many_approvers_are_named_up_to_four_and_digits_in_logins_are_names_not_claims():
    analysed = week(reviewed(21, *((f"reviewer{i}", "APPROVED") for i in range(6))))
    narrative = narrate(analysed, [], EN)
    assert line(narrative, 21).endswith(
        " Approved by @reviewer0, @reviewer1, @reviewer2, @reviewer3 and others."
    )
    assert check_grounding(analysed, narrative) == []


def test_a_hostile_reviewer_login_is_shown_escaped():
    analysed = week(reviewed(31, ("<img src=x onerror=alert(1)>", "CHANGES_REQUESTED")))
    narrative = narrate(analysed, [], EN)
    [risk] = [r for r in narrative.risks if r.kind == "unresolved-review"]
    html = cited_html(risk.sentence.text, "https://github.com/acme/widget", risk.sentence.pulls)
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert '<a class="pr-ref" href="https://github.com/acme/widget/pull/31">#31</a>' in html


# -- the language-model writer: what it reads of reviews, and what it may say of them -------------


def test_the_models_document_carries_each_key_prs_verdicts_and_a_few_capped_review_comments():
    comments = (
        ThreadComment("gemini-code-assist[bot]", "src/widget/core.py", "Bot summary " * 100),
        ThreadComment("cat", "src/widget/core.py", "Please handle None here. " * 30),
        ThreadComment("eve", "tests/test_core.py", "nit"),
        ThreadComment("fay", "src/widget/core.py", "typo"),
    )
    pull = reviewed(41, ("cat", "CHANGES_REQUESTED"), ("dan", "APPROVED"), threads=comments)
    pull = dataclasses.replace(
        pull,
        verdicts=(dataclasses.replace(pull.verdicts[0], body="Needs a test."), pull.verdicts[1]),
    )
    analysed = week(pull, reviewed(42))
    document = week_document(analysed, [], "en")
    by_number = {p["number"]: p for p in document["pull_requests"]}
    assert by_number[41]["reviews"] == {
        "approved_by": ["dan"],
        "requested_changes_then_settled": ["cat"],
    }
    said = by_number[41]["review_comments"]
    assert [c["author"] for c in said] == [
        "cat",
        "cat",
        "eve",
    ]  # people first, the verdict's words first, three at most
    assert said[0] == {"author": "cat", "verdict": "CHANGES_REQUESTED", "text": "Needs a test."}
    assert (
        said[1]["path"] == "src/widget/core.py"
        and len(said[1]["text"]) == REVIEW_COMMENT_CHARACTERS
    )
    assert (
        "reviews" not in by_number[42] and "review_comments" not in by_number[42]
    )  # nothing where there are none


def test_every_part_of_a_busy_reviewed_week_fits_the_cap_with_its_reviews_and_diffs():
    long = "The reviewer explains at length why this needs another look. " * 20
    diff = (
        "diff --git a/src/widget/core.py b/src/widget/core.py\n@@ -1,80 +1,80 @@\n"
        + "+    value = compute(value)\n" * 140
    )
    pulls = [
        reviewed(
            100 + i,
            ("cat", "CHANGES_REQUESTED"),
            ("dan", "APPROVED"),
            body="What and why. " * 80,
            diff=diff,
            threads=tuple(ThreadComment(f"rev{j}", "src/widget/core.py", long) for j in range(5)),
        )
        for i in range(30)
    ]
    document = week_document(week(*pulls), [], "en")
    parts = plan(document, max_input_tokens=8000, max_output_tokens=4000)
    assert not parts.left_out and len(parts.parts) > 2
    assert all(request_tokens(part) <= 8000 * INPUT_SHARE for part in parts.parts)
    keyed = [
        p
        for part in parts.parts
        if part.sections == ("key_changes",)
        for p in part.document["pull_requests"]
    ]
    assert len(keyed) == 30 and all(
        p["reviews"] for p in keyed
    )  # the verdicts always go; the comments as they fit
    assert any(p.get("review_comments") for p in keyed) and any(p.get("diff") for p in keyed)
    assert all(
        "diff" not in p and "review_comments" not in p
        for p in parts.parts[0].document["pull_requests"]
    )  # the overview


def test_the_models_document_carries_a_key_prs_diff_excerpt_capped():
    diff = "diff --git a/src/widget/core.py b/src/widget/core.py\n@@ -1 +1 @@\n" + "+x = 1\n" * 1000
    analysed = week(reviewed(51, diff=diff), reviewed(52, diff=""))
    by_number = {p["number"]: p for p in week_document(analysed, [], "en")["pull_requests"]}
    assert by_number[51]["diff"] == diff[:DIFF_CHARACTERS] and "diff" not in by_number[52]


def said_(text, *pulls):
    return Sentence(text, tuple(pulls), ())


@pytest.mark.parametrize(
    ("text", "pulls", "implied", "reason"),
    [
        ("#12 was approved by @dan after @cat asked for changes.", [12], [], None),
        ("#13 merged with changes still requested by @cat.", [13], [], None),
        (
            "#11 was approved by @dan.",
            [11],
            [],
            "it names @dan, who reviewed none of the pull requests it writes",
        ),
        (
            "It was approved by @ann and @bob.",
            [],
            [11],
            "it speaks of a review without writing, as #N, a pull request that has reviews",
        ),
        (
            "#15 was approved before it merged.",
            [15],
            [],
            "it speaks of a review without writing, as #N, a pull request that has reviews",
        ),
        (
            "@cat asked for more tests in #11.",
            [11],
            [],
            "it names @cat, who reviewed none of the pull requests it writes",
        ),
        ("#11 adds a widget core change.", [11], [], None),  # no review, no rule
    ],
)
def test_a_sentence_about_a_review_stands_only_citing_the_pr_reviewed(
    reviewed_week, text, pulls, implied, reason
):
    facts = WeekFacts.of(reviewed_week, figures(reviewed_week, []))
    assert check_sentence(said_(text, *pulls), facts, "en", implied=implied) == reason


def test_a_chinese_sentence_about_a_review_is_held_alike(reviewed_week):
    facts = WeekFacts.of(reviewed_week, figures(reviewed_week, []))
    assert check_sentence(said_("#12 在 @cat 要求修改后由 @dan 批准。", 12), facts, "zh") is None
    assert check_sentence(
        said_(
            "该改动已由 @dan 批准。",
        ),
        facts,
        "zh",
        implied=[12],
    ).startswith("it speaks of a review")
