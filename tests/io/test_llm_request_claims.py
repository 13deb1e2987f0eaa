"""The model writer's request carries only the claims that speak (analysis/claims.py): a PR's kind or a
risk's kind that the built-in text does not say is not handed to the model as a fact either. The real
`openai` client asks the local OpenAI-compatible server over HTTP; the test reads what it received."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.claims import speaks, type_speaks
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull
from tests.io.test_llm_writer import writer_for
from tests.llm_server import ChatServer, Reply, answers

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _week():
    pulls = [
        make_pull(
            1,
            "2026-05-19T10:00:00Z",
            "[parser] fix: keep the last token of a line",
            files=[("src/widget/parser.py", 40, 2)],
        ),
        make_pull(
            2,
            "2026-05-19T11:00:00Z",
            "Tune the trainer",
            files=[
                ("src/widget/config/trainer.yaml", 6, 2),
                ("src/widget/trainer.py", 30, 4),
                ("tests/test_trainer.py", 9, 0),
            ],
        ),
        make_pull(
            3, "2026-05-20T10:00:00Z", "Bump numpy to 2.1", files=[("requirements.txt", 1, 1)]
        ),
    ]
    weeks = analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)
    return next(w for w in weeks if w.pulls)


@pytest.mark.skipif(
    type_speaks("fix") or speaks("config.user-changed") or speaks("version.package"),
    reason="these claims are precise: the model may be told them",
)
def test_the_model_is_told_the_authors_word_and_the_files_not_the_silent_interpretations(tmp_path):
    week = _week()
    assert week.stats.types.get("fix") and {r.kind for r in week.risks} >= {
        "config-change",
        "dependency-upgrade",
    }
    with ChatServer(
        script=lambda request: Reply.answer(answers.grounded(request.document))
    ) as server:
        narrative = narrate(week, [], Language.of("en"), writer_for(server, tmp_path))
    assert narrative.writer == "llm"
    document = server.requests[0].document
    pulls = {p["number"]: p for p in document["pull_requests"]}
    assert "type" not in pulls[1] and pulls[1]["marked_by_author"] == {
        "where": "title",
        "as": "fix:",
    }
    assert (
        "type" not in pulls[2] and "marked_by_author" not in pulls[2]
    )  # read from words and files: nothing said
    assert not any(
        name.startswith(("type:fix", "type:feat", "type:refactor")) for name in document["figures"]
    )
    risks = {r["kind"]: r for r in document["risks"]}
    assert risks["config-change"]["shows"].startswith("Edits src/widget/config/trainer.yaml")
    assert risks["dependency-upgrade"]["shows"] == "Edits requirements.txt"
    assert (
        "config-change" not in pulls[2]["risks"] and "dependency-upgrade" not in pulls[3]["risks"]
    )
    assert 'feature, fix or refactor only where its "type" says so' in server.requests[0].system


@pytest.mark.skipif(
    type_speaks("fix"), reason="the fix claim is precise: the model may count fixes"
)
def test_a_model_sentence_counting_fixes_is_set_aside_since_the_count_is_not_a_figure_it_was_given(
    tmp_path,
):
    week = _week()
    fixes = week.stats.types["fix"]

    def counting_fixes(request):
        answer = answers.grounded(request.document)
        answer["summary"] = [
            answers.sentence(f"This week {fixes} fixes were merged.", [], type__fix=fixes)
        ]
        return Reply.answer(answer)

    with ChatServer(script=counting_fixes) as server:
        narrative = narrate(week, [], Language.of("en"), writer_for(server, tmp_path))
    assert f"{fixes} fixes" not in narrative.summary.text  # the built-in summary stands
    assert narrative.check.rejected and "type:fix" in " ".join(
        str(r) for r in narrative.check.rejected
    )
