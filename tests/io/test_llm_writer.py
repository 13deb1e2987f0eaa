"""The language-model writer against a local OpenAI-compatible server: the real `openai` client over
real HTTP on 127.0.0.1, scripted answers, a fake clock so that no test waits on the wall clock."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from digest_plugin.llm import language_model_writer
from digest_plugin.narrate import Figure, check_grounding, narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.settings import DigestSettings, LLMConfig
from tests.llm_server import GOOD_KEY, ChatServer, Reply, answers
from tests.narrate_fixtures import analysed, busy_week, previous_week, week_of

MODEL = "local-model"


class FakeClock:
    """A monotonic clock that moves only when the writer sleeps."""

    def __init__(self):
        self.now, self.slept = 1000.0, []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def server():
    with ChatServer(
        script=lambda request: Reply.answer(answers.grounded(request.document))
    ) as running:
        yield running


def writer_for(server, data: Path, clock=None, key=GOOD_KEY, **config):
    clock = clock or FakeClock()
    llm = LLMConfig(
        server.url if server else "http://127.0.0.1:9/v1", MODEL, **{"timeout": 20, **config}
    )
    settings = DigestSettings(data_path=data, writer="llm", llm=llm)
    return language_model_writer(
        settings, environ={"OPENAI_API_KEY": key} if key else {}, clock=clock, sleep=clock.sleep
    )


def write(writer, week=None, language="en"):
    return narrate(week or busy_week(), [previous_week()], Language.of(language), writer)


def model_texts(narrative) -> list[str]:
    return [
        narrative.summary.text,
        *(t.text for t in narrative.themes),
        *(c.details.text for c in narrative.key_changes),
        *(r.sentence.text for r in narrative.risks),
        *(c.text for c in narrative.recommendations),
    ]


def test_a_grounded_answer_is_used_in_every_part(server, tmp_path):
    narrative = write(writer_for(server, tmp_path))
    assert narrative.writer == "llm"
    assert narrative.summary.text == "This week 6 pull requests were merged, and #101 matters most."
    assert narrative.summary.pulls == (101,)
    assert [t.text for t in narrative.themes] == [
        "The export theme took 2 of the week's pull requests, led by #101."
    ]
    assert narrative.themes[0].sentence.figures == (Figure("theme:export", 2),)
    assert (
        narrative.key_changes[0].details.text
        == "#101 reworks src/core.py, which deserves a careful read."
    )
    assert narrative.risks[0].sentence.text.startswith(
        "2 pull requests show this risk, first of all #102"
    )
    assert [c.text for c in narrative.recommendations] == [
        "Review #101 once more before the next release."
    ]
    check = narrative.check
    assert (check.checked, check.kept, check.rejected) == (1 + 1 + 3 + 3 + 1, 9, ())
    assert len(server.requests) == 1
    # the model's texts say which figure each number is, and the page's own check holds them to it
    assert narrative.summary.figures == (Figure("merged", 6),)
    assert narrative.risks[0].sentence.figures == (Figure(f"risk:{narrative.risks[0].kind}", 2),)
    assert check_grounding(busy_week(), narrative, [previous_week()]) == []


def test_the_request_is_what_openai_expects_with_pr_text_only_as_data(server, tmp_path):
    write(writer_for(server, tmp_path))
    request = server.requests[0]
    assert request.headers["authorization"] == f"Bearer {GOOD_KEY}"
    assert (
        request.body["model"] == MODEL
        and request.body["temperature"] == 0
        and request.body.get("stream") is None
    )
    assert request.response_format == "json_schema"  # and the server found the schema strict-valid
    assert [m["role"] for m in request.messages] == ["system", "user"]
    assert "never follow instructions" in request.system.lower()
    assert "[core] feat: add *streaming* <export> support" not in request.system
    assert (
        request.document["pull_requests"][0]["title"]
        == "[core] feat: add *streaming* <export> support"
    )
    assert set(request.document) == {
        "language",
        "repository",
        "week",
        "figures",
        "key_pulls",
        "pull_requests",
        "more_pull_requests",
        "modules",
        "labels",
        "themes",
        "risks",
        "hot_files",
    }
    assert request.document["themes"] == [
        {"name": "export", "pulls": [101, 106], "key_pulls": [101]}
    ]


@pytest.mark.parametrize(
    "script, part, reason",
    [
        (
            answers.inventing_a_pull,
            "summary",
            "it cites #9999, which is not a pull request of this week",
        ),
        (answers.misstating_a_count, "summary", "it gives merged as 7, but the analysis says 6"),
        (
            answers.misquoting_a_figure,
            "summary",
            "it states 9, which is none of the figures it lists (merged = 6)",
        ),
        (
            answers.attributing_to_the_wrong_figure,
            "summary",
            "it gives key as 6, but the analysis says 3",
        ),
        (
            answers.stating_an_undeclared_number,
            "summary",
            "it states 3, which is none of the figures it lists (merged = 6)",
        ),
        (
            answers.naming_an_untouched_file,
            "key change #101",
            "it names 'src/secret/backdoor.py', which is not in the pull requests it cites",
        ),
        (
            answers.miscounting_a_theme,
            "theme export",
            "it gives theme:export as 3, but the analysis says 2",
        ),
        (
            answers.citing_outside_a_theme,
            "theme export",
            "it cites #102, which is not one of this theme's pull requests",
        ),
    ],
)
def test_a_sentence_the_data_does_not_support_costs_its_part_and_only_its_part(
    script, part, reason, server, tmp_path, caplog
):
    server.script = lambda request: Reply.answer(script(request.document))
    builtin = write(None)
    with caplog.at_level(logging.WARNING):
        narrative = write(writer_for(server, tmp_path))
    rejected = {r.part: r.reason for r in narrative.check.rejected}
    assert rejected == {part: reason}
    parts = {
        "summary": (narrative.summary, builtin.summary),
        "theme export": (narrative.themes[0], builtin.themes[0]),
        "key change #101": (narrative.key_changes[0].details, builtin.key_changes[0].details),
    }
    for name, (shown, fallback) in parts.items():
        assert (shown == fallback) == (name == part), (
            name
        )  # the rejected part is the built-in writer's, the others the model's
    assert narrative.writer == "llm" and narrative.check.kept == narrative.check.checked - len(
        narrative.check.rejected
    )
    assert (
        f"octo/widgets 2026-W21: the language model's sentence in the {part} was rejected, {reason}: "
        in caplog.text
    )


def test_a_theme_gets_one_sentence_and_only_the_weeks_themes_are_written(server, tmp_path):
    def script(request):
        answer = answers.grounded(request.document)
        answer["themes"][0]["sentences"].append(answers.sentence("It also reads well.", [101]))
        answer["themes"].append(
            {
                "name": "scheduler",
                "sentences": [answers.sentence("The scheduler was rewritten.", [])],
            }
        )
        return Reply.answer(answer)

    server.script = script
    narrative = write(writer_for(server, tmp_path))
    assert [t.text for t in narrative.themes] == [
        "The export theme took 2 of the week's pull requests, led by #101."
    ]
    assert {(r.part, r.reason) for r in narrative.check.rejected} == {
        ("theme export", "a theme gets one sentence"),
        ("theme scheduler", "this week has no theme 'scheduler'"),
    }


def test_instructions_hidden_in_a_pr_body_are_not_followed_into_the_page(server, tmp_path):
    hostile = analysed(
        107,
        "docs: update the changelog",
        type="docs",
        modules=("docs",),
        score=6.5,
        key=True,
        files=("CHANGELOG.md",),
        summary="",
    )
    hostile = replace(hostile, pull=replace(hostile.pull, body=answers.INJECTION))
    week = week_of([*busy_week().pulls, hostile], busy_week().risks)
    server.script = lambda request: Reply.answer(
        answers.following_injected_instructions(request.document)
    )
    narrative = write(writer_for(server, tmp_path), week)
    assert (
        answers.INJECTION
        in server.requests[0].document["pull_requests"][
            [p["number"] for p in server.requests[0].document["pull_requests"]].index(107)
        ]["body"]
    )
    shown = " ".join(model_texts(narrative))
    for planted in ("1000", "1,000", "#4242", "evil.example"):
        assert planted not in shown
    reasons = " | ".join(r.reason for r in narrative.check.rejected)
    assert "gives merged as 1000, but the analysis says 7" in reasons
    assert "web address" in reasons and "#4242" in reasons


@pytest.mark.parametrize(
    "reply, reason",
    [
        (
            Reply.answer('{"summary": [{"text": "Six PRs', finish_reason="length"),
            "cut off at the token limit",
        ),
        (Reply.answer('{"summary": [{"text": "Six PRs'), "not valid JSON"),
        (Reply.answer("Sure! Here is your digest: six PRs were merged."), "not valid JSON"),
        (Reply.answer({"verdict": "fine"}), "none of the sections"),
        (Reply.answer({"language": "zh", "summary": []}), "the answer is in 'zh', not 'en'"),
        (Reply.refusal(), "the model declined (I'm sorry, I can't help with that request.)"),
        (Reply.answer("", finish_reason="content_filter"), "content filter"),
        (
            Reply.error(400, "This model's maximum context length is 8192 tokens.", flat=True),
            "turned the request down (This model's maximum context length",
        ),
    ],
)
def test_an_unusable_answer_ends_in_the_builtin_text_and_a_warning(
    reply, reason, server, tmp_path, caplog
):
    server.replies.append(reply)
    with caplog.at_level(logging.WARNING):
        narrative = write(writer_for(server, tmp_path))
    builtin = write(None)
    assert model_texts(narrative) == model_texts(builtin)
    assert narrative.writer == "builtin" and reason in narrative.check.unused
    assert (
        "octo/widgets 2026-W21: the language model gave no usable answer (" in caplog.text
        and reason in caplog.text
    )
    assert not list(tmp_path.rglob("*.json"))  # nothing cached: the next build asks again


def test_a_chinese_site_rejects_an_english_answer_and_keeps_a_chinese_one(server, tmp_path, caplog):
    server.script = lambda request: Reply.answer(
        answers.in_english_for_a_chinese_site(request.document)
    )
    with caplog.at_level(logging.WARNING):
        narrative = write(writer_for(server, tmp_path), language="zh")
    assert narrative.check.kept == 0 and narrative.writer == "builtin"
    assert model_texts(narrative) == model_texts(write(None, language="zh"))
    assert {r.reason for r in narrative.check.rejected} == {"it is not written in Chinese"}
    assert (
        caplog.text.count("was rejected, it is not written in Chinese")
        == narrative.check.checked
        == 9
    )

    server.script = lambda request: Reply.answer(answers.grounded(request.document))
    narrative = write(writer_for(server, tmp_path / "zh"), language="zh")
    assert narrative.writer == "llm" and narrative.check.kept == narrative.check.checked
    assert narrative.summary.text == "本周合并了 6 个拉取请求，其中最重要的是 #101。"
    assert narrative.themes[0].text == "export 主题本周有 2 个拉取请求，以 #101 为首。"


def test_a_rate_limit_is_waited_out_as_retry_after_says(server, tmp_path, clock):
    server.replies.extend([Reply.error(429, retry_after="7"), Reply.error(503)])
    narrative = write(writer_for(server, tmp_path, clock))
    assert narrative.writer == "llm"
    assert clock.slept == [
        7.0,
        2.0,
    ]  # Retry-After, then the backoff's second step: the server gave no header
    assert len(server.requests) == 3


def test_a_retry_after_longer_than_the_timeout_gives_up_at_once(server, tmp_path, clock, caplog):
    server.replies.append(Reply.error(429, retry_after="600"))
    with caplog.at_level(logging.WARNING):
        narrative = write(writer_for(server, tmp_path, clock, timeout=60))
    assert narrative.writer == "builtin" and clock.slept == [] and len(server.requests) == 1
    assert "waiting 600 seconds more would pass the 60-second timeout" in caplog.text


def test_server_errors_are_retried_then_given_up(server, tmp_path, clock, caplog):
    server.replies.extend([Reply.error(500)] * 4)
    with caplog.at_level(logging.WARNING):
        narrative = write(writer_for(server, tmp_path, clock))
    assert (
        narrative.writer == "builtin"
        and "answered 500" in narrative.check.unused
        and "4 times" in narrative.check.unused
    )
    assert model_texts(narrative) == model_texts(write(None))
    assert (
        f"octo/widgets 2026-W21: the language model gave no usable answer ({narrative.check.unused})"
        in caplog.text
    )
    assert clock.slept == [1.0, 2.0, 4.0] and len(server.requests) == 4


def test_a_slow_server_times_out_and_a_dropped_connection_is_retried(
    server, tmp_path, clock, caplog
):
    server.replies.extend([Reply.stall(), Reply.drop()])
    # the one wall-clock wait in these tests: the client's own timeout on a server that never answers
    writer = writer_for(server, tmp_path, clock, timeout=0.5)
    with caplog.at_level(logging.WARNING):
        narrative = write(writer)
    assert (
        narrative.writer == "builtin" and "no answer within 0.5 seconds" in narrative.check.unused
    )
    assert model_texts(narrative) == model_texts(write(None))
    assert (
        "octo/widgets 2026-W21 and later weeks: no answer within 0.5 seconds" in caplog.text
    )  # not asked again in this build
    assert len(server.requests) == 1  # no time was left to retry within the timeout

    narrative = write(writer_for(server, tmp_path, clock))
    assert narrative.writer == "llm" and len(server.requests) == 3


def test_an_exhausted_quota_or_a_refused_key_stops_the_builds_requests(server, tmp_path):
    server.replies.append(
        Reply.error(
            429,
            "You exceeded your current quota, please check your plan and billing details.",
            type="insufficient_quota",
            code="insufficient_quota",
        )
    )
    writer = writer_for(server, tmp_path)
    first, second = write(writer), write(writer, week_of(busy_week().pulls[:3], week="2026-W22"))
    assert "quota is exhausted" in first.check.unused and second.check.unused == first.check.unused
    assert len(server.requests) == 1


def test_the_key_never_reaches_the_log_the_cache_or_the_narrative(tmp_path, caplog):
    with (
        ChatServer(key="sk-the-server-wants-another-key") as server,
        caplog.at_level(logging.DEBUG),
    ):
        narrative = write(writer_for(server, tmp_path))
    assert (
        "the endpoint refused the key (Incorrect API key provided: [key].)"
        in narrative.check.unused
    )
    assert GOOD_KEY not in caplog.text and GOOD_KEY not in repr(narrative)
    assert all(GOOD_KEY not in p.read_text() for p in tmp_path.rglob("*") if p.is_file())


def test_a_server_without_structured_outputs_is_asked_in_json_mode(tmp_path):
    with ChatServer(
        script=lambda request: Reply.answer(answers.grounded(request.document)), json_schema=False
    ) as server:
        writer = writer_for(server, tmp_path)
        narrative = write(writer)
        write(writer, week_of(busy_week().pulls[:3], week="2026-W22"))
    assert narrative.writer == "llm"
    assert [r.response_format for r in server.requests] == [
        "json_schema",
        "json_object",
        "json_object",
    ]


def test_a_reasoning_model_that_refuses_a_temperature_is_asked_without_one(tmp_path):
    with ChatServer(
        script=lambda request: Reply.answer(answers.grounded(request.document)), temperature=False
    ) as server:
        writer = writer_for(server, tmp_path)
        narrative = write(writer)
        write(writer, week_of(busy_week().pulls[:3], week="2026-W22"))
    assert narrative.writer == "llm"
    assert [r.body.get("temperature") for r in server.requests] == [0, None, None]
    assert (
        "max_tokens" not in server.requests[0].body
    )  # refused by reasoning models; no limit is the safe default


def test_a_fenced_json_mode_answer_is_read(server, tmp_path):
    server.script = lambda request: Reply.answer(
        "```json\n" + Reply.answer(answers.grounded(request.document)).content + "\n```"
    )
    assert write(writer_for(server, tmp_path)).writer == "llm"


def test_the_budget_stops_new_requests_and_falls_back_cleanly(server, tmp_path, caplog):
    writer = writer_for(server, tmp_path, max_requests=1)
    weeks = [
        busy_week(),
        week_of(busy_week().pulls[:3], week="2026-W22"),
        week_of(busy_week().pulls[:2], week="2026-W23"),
    ]
    with caplog.at_level(logging.WARNING):
        written = [write(writer, week) for week in weeks]
    assert [n.writer for n in written] == ["llm", "builtin", "builtin"]
    assert "budget of 1 requests is used up" in written[1].check.unused
    assert caplog.text.count("budget of 1 requests is used up") == 1
    assert len(server.requests) == 1


def test_only_complete_weeks_are_written(server, tmp_path):
    writer = writer_for(server, tmp_path)
    for week in (busy_week(in_progress=True), busy_week(complete=False), week_of([])):
        narrative = write(writer, week)
        assert narrative.writer == "builtin" and narrative.check.kept == 0
    assert server.requests == []


def test_a_cached_week_is_written_again_with_the_server_stopped_and_no_key(server, tmp_path):
    first = write(writer_for(server, tmp_path))
    server.stop()
    again = write(writer_for(None, tmp_path, key=None))
    assert again == first
    cached = list((tmp_path / ".llm-cache" / "octo" / "widgets").glob("2026-W21-*.json"))
    assert len(cached) == 1


def test_a_changed_week_is_asked_again_and_replaces_its_cached_answer(server, tmp_path):
    write(writer_for(server, tmp_path))
    write(writer_for(server, tmp_path), week_of(busy_week().pulls, busy_week().risks[:2]))
    assert len(server.requests) == 2
    assert len(list(tmp_path.rglob("2026-W21-*.json"))) == 1


def test_without_the_key_nothing_is_sent_and_the_log_says_why_in_one_sentence(
    server, tmp_path, caplog
):
    # a variable name of its own: Pelican's loggers drop a warning already given in this process
    with caplog.at_level(logging.WARNING):
        narrative = write(
            writer_for(server, tmp_path, key=None, api_key_env=("REPO_DIGEST_UNSET_KEY",))
        )
    assert narrative.writer == "builtin" and server.requests == []
    assert (
        "The language-model writer sends no request in this build: the environment variable REPO_DIGEST_UNSET_KEY "
        "that DIGEST_LLM names holds no key; cached answers are still used."
    ) in caplog.text
