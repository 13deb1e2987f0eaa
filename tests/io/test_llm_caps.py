"""The language-model writer on an endpoint with caps (DIGEST_LLM's `max_input_tokens`,
`requests_per_minute`, `requests_per_day`), against a local server that answers as a capped free tier
does (413 over the input cap, 429 `RateLimitReached` with `Retry-After` per minute and per day), through
the real `openai` client and a fake clock; and an endpoint gone for good (410)."""

from __future__ import annotations

import logging
from datetime import date, timedelta

import pytest

from digest_plugin.analysis.model import Evidence, Risk, Theme
from digest_plugin.errors import DigestError
from digest_plugin.llm import language_model_writer
from digest_plugin.narrate import narrate, writer_credit
from digest_plugin.narrate.llm.parts import plan, request_tokens
from digest_plugin.narrate.llm.prompt import week_document
from digest_plugin.narrate.wording import Language
from digest_plugin.settings import DigestSettings
from tests.io.test_llm_writer import FakeClock, model_texts
from tests.llm_server import GOOD_KEY, ChatServer, Reply, answers
from tests.llm_server.server import FreeTier, counted_tokens
from tests.narrate_fixtures import analysed, busy_week, previous_week, week_of

BODY = (
    "This pull request reworks how the trainer schedules rollouts across workers, so that long generations no longer "
    "block short ones; it adds a queue per worker and a fairness limit, and keeps the old path behind a flag. "
) * 6
ZH_BODY = (
    "这个拉取请求重写了训练器在各个工作进程之间调度推理的方式，长的生成不再阻塞短的生成；它为每个工作进程增加了队列和公平限制。"
    * 8
)


def heavy_week(
    count: int = 40,
    key: int = 12,
    body: str = BODY,
    number: int = 1000,
    monday: date = date(2026, 5, 18),
):
    """A busy week: `count` PRs, the first `key` of them key, each with a long body and twenty files."""
    numbers = [number + i for i in range(count)]
    pulls = [
        analysed(
            n,
            f"feat(trainer): rework rollout scheduling, step {i}",
            score=9.0 - i * 0.1,
            key=i < key,
            body=body,
            files=tuple(f"verl/trainer/ppo/module_{i}/file_{j}.py" for j in range(20)),
            additions=400,
            deletions=120,
            risks=("large-change",) if i % 2 else (),
            themes=("trainer",),
        )
        for i, n in enumerate(numbers)
    ]
    risky = tuple(numbers[1::2])
    risks = [
        Risk(
            "large-change",
            risky,
            "high",
            tuple(Evidence("size", n, lines=520, files=20, modules=1) for n in risky),
        )
    ]
    themes = [
        Theme(
            "trainer",
            "scope",
            tuple(numbers),
            tuple(numbers[:key]),
            1.0,
            0.2,
            4,
            1,
            400 * count,
            120 * count,
            {"feat": count},
        )
    ]
    year, weekno, _ = monday.isocalendar()
    return week_of(pulls, risks, week=f"{year}-W{weekno:02d}", monday=monday, themes=themes)


@pytest.fixture
def clock():
    return FakeClock()


def free_tier(clock, **limits):
    def model(request):
        return Reply.answer(answers.asked(answers.grounded(request.document), request.sections))

    return ChatServer(script=model, limits=FreeTier(**limits), clock=clock)


# A capped free tier's figures (those GitHub Models had for a low model until its retirement): 8000 tokens in
# and 4000 out per request, 15 requests a minute, 150 a day; a timeout with room for a minute's Retry-After.
CAPS = {
    "model": "openai/gpt-4.1-mini",
    "api_key_env": ["GITHUB_TOKEN", "GH_TOKEN"],
    "max_requests": 150,
    "timeout": 120,
    "max_input_tokens": 8000,
    "max_output_tokens": 4000,
    "requests_per_minute": 15,
    "requests_per_day": 150,
}


def capped_writer(server, data, clock, environ=None, **overrides):
    settings = DigestSettings.from_pelican(
        {
            "DIGEST_WRITER": "llm",
            "DIGEST_DATA_PATH": str(data),
            "DIGEST_LLM": {
                **CAPS,
                "base_url": server.url if server else "http://127.0.0.1:9/v1",
                **overrides,
            },
        },
        data,
    )
    return language_model_writer(
        settings,
        environ={"GH_TOKEN": GOOD_KEY} if environ is None else environ,
        clock=clock,
        sleep=clock.sleep,
    )


def write(writer, week, language="en", previous=()):
    return narrate(week, list(previous), Language.of(language), writer)


@pytest.mark.parametrize(
    "values",
    [
        {"DIGEST_WRITER": "github-models"},
        {"DIGEST_WRITER": "llm", "DIGEST_LLM": "github-models"},
        {
            "DIGEST_WRITER": "llm",
            "DIGEST_LLM": {"preset": "github-models", "model": "openai/gpt-4o-mini"},
        },
    ],
)
def test_github_models_is_one_sentence_naming_the_routes_that_work(values):
    with pytest.raises(DigestError) as raised:
        DigestSettings.from_pelican(values, ".")
    said = str(raised.value)
    assert (
        "GitHub Models was retired on 2026-07-30" in said
        and 'DIGEST_WRITER = "copilot"' in said
        and 'DIGEST_WRITER = "llm"' in said
    )
    assert "\n" not in said and said.endswith(".")


def test_an_endpoint_gone_for_good_stops_every_later_request_at_once_quoting_it(
    clock, tmp_path, caplog
):
    gone = "GitHub Models is temporarily unavailable as part of a scheduled retirement brownout."
    with (
        ChatServer(script=lambda request: Reply.error(410, gone, code="unavailable")) as server,
        caplog.at_level(logging.WARNING),
    ):
        writer = capped_writer(server, tmp_path, clock)
        first = write(writer, busy_week(), previous=[previous_week()])
        second = write(writer, heavy_week())
    assert (
        len(server.requests) == 1 and clock.slept == []
    )  # not retried, and the next week not asked
    assert first.writer == second.writer == "builtin"
    assert model_texts(first) == model_texts(
        narrate(busy_week(), [previous_week()], Language.of("en"), None)
    )
    [said] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert f"the endpoint answered 410, gone ({gone})" in said


def test_a_busy_week_is_written_in_parts_each_inside_the_cap(clock, tmp_path):
    week = heavy_week()
    whole = plan(week_document(week, [], "en")).parts[0]
    assert (
        request_tokens(whole) > CAPS["max_input_tokens"]
    )  # what one request for the week would be
    with free_tier(clock) as server:
        narrative = write(capped_writer(server, tmp_path, clock), week)
    names = [r.document.get("key_pulls") for r in server.requests]
    assert len(server.requests) == 3 and len(names) == len(
        server.sent
    )  # summary and themes, the key PRs, risks
    assert max(r.tokens for r in server.requests) <= 8000 and not [
        r for r in server.requests if r.refused
    ]
    assert all(r.body["max_tokens"] == 4000 for r in server.requests)
    asked = sorted(
        n
        for r in server.requests
        if "key_changes" in r.body["response_format"]["json_schema"]["schema"]["properties"]
        for n in r.document["key_pulls"]
    )
    assert asked == [p.pull.number for p in week.pulls if p.key]  # every key PR, once
    check = narrative.check
    assert narrative.writer == "llm" and check.rejected == () and check.kept == check.checked
    assert writer_credit(narrative, Language.of("en")).endswith(
        "The model’s words are in: the summary, 1 of 1 themes, 12 of 12 key changes, 1 of 1 risks, and the recommendations."
    )
    assert writer_credit(
        write(capped_writer(None, tmp_path, clock, environ={}), week, "zh"), Language.of("zh")
    ) == (
        "本页由内置撰写器生成：本周未采用语言模型撰写的任何句子。"
    )  # a Chinese site's answers are its own


def test_a_chinese_busy_week_counts_a_character_a_token_and_fits(clock, tmp_path):
    week = heavy_week(body=ZH_BODY)
    with free_tier(clock) as server:
        narrative = write(capped_writer(server, tmp_path, clock), week, "zh")
    assert max(r.tokens for r in server.requests) <= 8000 and not [
        r for r in server.requests if r.refused
    ]
    assert narrative.writer == "llm" and narrative.check.rejected == ()
    assert any(
        ZH_BODY[:200] in str(r.document) for r in server.requests
    )  # bodies trimmed, not dropped


def test_a_413_is_our_sizing_error_and_only_that_part_falls_back(clock, tmp_path, caplog):
    week = heavy_week()
    # the server takes 6,100 tokens where the preset says 8,000: of the parts the writer sizes to
    # the preset, the key changes fit and the summary and the risks do not
    with free_tier(clock, max_input_tokens=6100) as server, caplog.at_level(logging.WARNING):
        narrative = write(capped_writer(server, tmp_path, clock), week)
    refused = [r for r in server.requests if r.refused == "413"]
    assert refused and len(refused) < len(server.requests)
    assert (
        "its size was underestimated: a bug worth reporting (Request body too large for openai/gpt-4.1-mini model. Max size: 6100 tokens.)"
        in caplog.text
    )
    assert (
        narrative.writer == "llm"
    )  # the parts that fitted are the model's, and the page says which
    assert writer_credit(narrative, Language.of("en")).endswith(
        "The model’s words are in: 12 of 12 key changes."
    )


def test_a_per_minute_429_is_waited_out_and_the_build_paces_itself(clock, tmp_path, caplog):
    weeks = [
        heavy_week(count=6, key=3, number=100 * i + 1, monday=date(2026, 3, 2) + timedelta(weeks=i))
        for i in range(10)
    ]
    with (
        free_tier(clock, per_minute=4) as server,
        caplog.at_level(logging.WARNING),
    ):  # stricter than the preset says
        writer = capped_writer(server, tmp_path, clock, requests_per_minute=6)
        narratives = [write(writer, week) for week in weeks]
    assert all(n.writer == "llm" for n in narratives)
    limited = [r for r in server.requests if r.refused]
    assert limited and {r.refused for r in limited} == {"429 minute"}
    assert len(server.sent) == 10 and clock.slept and max(clock.slept) <= 60
    with free_tier(clock) as server:  # at the preset's own pace, no request is refused
        writer = capped_writer(server, tmp_path / "paced", clock)
        for week in weeks:
            write(writer, week)
    assert len(server.requests) == 10 and not [r for r in server.requests if r.refused]


def test_a_per_day_429_stops_every_later_request_at_once(clock, tmp_path, caplog):
    weeks = [
        heavy_week(count=6, key=3, number=100 * i + 1, monday=date(2026, 3, 2) + timedelta(weeks=i))
        for i in range(8)
    ]
    with free_tier(clock, per_day=3) as server, caplog.at_level(logging.WARNING):
        writer = capped_writer(server, tmp_path, clock)
        narratives = [
            write(writer, week) for week in reversed(weeks)
        ]  # as the build does: newest first
    assert [r.refused for r in server.requests] == [
        "",
        "",
        "",
        "429 day",
    ]  # nothing after the day's limit
    assert [n.writer for n in narratives] == ["llm"] * 3 + ["builtin"] * 5
    assert "Rate limit of 3 per 86400s exceeded for UserByModelByDay" in caplog.text
    assert "so it is not asked again in this build" in caplog.text
    assert max(clock.slept, default=0) < 60  # the day's wait was not waited


def test_a_rebuild_with_the_endpoint_gone_is_identical_and_sends_nothing(clock, tmp_path, caplog):
    week = heavy_week()
    with free_tier(clock) as server:
        first = write(capped_writer(server, tmp_path, clock), week)
    with caplog.at_level(logging.WARNING):
        again = write(capped_writer(None, tmp_path, clock), week)
        offline = write(capped_writer(None, tmp_path, clock, environ={}), week)
    assert (
        model_texts(again) == model_texts(first) == model_texts(offline)
        and again.check == first.check
    )
    assert "could not be reached" not in caplog.text


def test_the_token_is_never_shown(clock, tmp_path, caplog):
    week = busy_week()
    with free_tier(clock, per_day=1) as server, caplog.at_level(logging.DEBUG):
        writer = capped_writer(
            server, tmp_path, clock, environ={"GITHUB_TOKEN": GOOD_KEY, "GH_TOKEN": "other"}
        )
        narrative = write(writer, heavy_week(), previous=[previous_week()])
        write(writer, week)
    assert server.requests[0].headers["authorization"] == f"Bearer {GOOD_KEY}"  # GITHUB_TOKEN first
    assert GOOD_KEY not in caplog.text and GOOD_KEY not in repr(narrative)
    assert not [
        p
        for p in tmp_path.rglob("*")
        if p.is_file() and GOOD_KEY in p.read_text(encoding="utf-8", errors="replace")
    ]


def test_the_stand_in_counts_more_tokens_than_the_writer():
    document = week_document(heavy_week(), [], "en")
    part = plan(document).parts[0]
    body = {
        "messages": part.messages(),
        "response_format": {"type": "json_schema", "json_schema": {"schema": part.schema()}},
    }
    assert counted_tokens(body) > request_tokens(part)
