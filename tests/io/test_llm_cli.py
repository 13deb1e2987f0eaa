"""`repo-digest show --writer llm`: how a user tries their model on one week before building the site."""

from __future__ import annotations

import json

import pytest

from digest_plugin.cli import main
from tests.llm_server import GOOD_KEY, ChatServer, Reply
from tests.site.test_llm_site import KEY_ENV, _answer, _store, settings_file


@pytest.fixture
def project(tmp_path, monkeypatch):
    _store(tmp_path)
    monkeypatch.setenv(KEY_ENV, GOOD_KEY)
    return tmp_path


def test_show_with_the_llm_writer_lists_kept_and_rejected_sentences(project, capsys):
    with ChatServer(script=lambda request: Reply.answer(_answer(request))) as server:
        code = main(
            [
                "show",
                "acme/widget",
                "--week",
                "2026-W19",
                "--writer",
                "llm",
                "--settings",
                settings_file(project, server.url),
            ]
        )
    out, err = capsys.readouterr()
    assert code == 0
    assert (
        json.loads(out)["summary"] == "This week 4 pull requests were merged, and #1 matters most."
    )
    lines = err.splitlines()
    assert lines[0] == "Language model local-model: 6 of 9 sentences kept."
    assert (
        "  kept      summary: This week 4 pull requests were merged, and #1 matters most." in lines
    )
    assert (
        "  kept      themes[1]: The cache theme took 3 of the week's pull requests, led by #1."
        in lines
    )
    assert (
        "  rejected  theme engine: The engine theme took 4 pull requests, led by #1. (it gives theme:engine as 4, but the analysis says 3)"
        in lines
    )
    assert (
        "  rejected  recommendations: Read https://evil.example/upgrade first. (it contains a web address)"
        in lines
    )
    assert (
        "  rejected  recommendations: Review #1 once more before the next release. (another sentence of the same part was rejected)"
        in lines
    )
    assert GOOD_KEY not in out + err


def test_show_says_plainly_when_the_model_gave_nothing(project, capsys):
    with ChatServer(script=lambda request: Reply.refusal()) as server:
        main(
            [
                "show",
                "acme/widget",
                "--week",
                "2026-W19",
                "--writer",
                "llm",
                "--settings",
                settings_file(project, server.url),
            ]
        )
    err = capsys.readouterr().err
    assert err == (
        "Language model local-model: nothing used for this week (the model declined (I'm sorry, I can't help with that "
        "request.)); the built-in writer's text is shown.\n"
    )


def test_show_with_the_llm_writer_needs_the_model_settings(project, capsys):
    code = main(
        [
            "show",
            "acme/widget",
            "--week",
            "2026-W19",
            "--writer",
            "llm",
            "--settings",
            settings_file(project, None),
        ]
    )
    assert code == 1
    assert capsys.readouterr().err == (
        "repo-digest: --writer llm needs DIGEST_LLM in the settings file, such as "
        '{"base_url": "https://…/v1", "model": "…"}.\n'
    )


@pytest.mark.parametrize(
    "llm, message",
    [
        ('"gpt"', 'DIGEST_LLM must be a dict such as {"base_url": "https://…/v1", "model": "…"}.'),
        ('{"base_url": "https://x/v1"}', "DIGEST_LLM['model'] must name the model"),
        (
            '{"base_url": "api.openai.com", "model": "m"}',
            "DIGEST_LLM['base_url'] must be the endpoint's address",
        ),
        (
            '{"base_url": "https://x/v1", "model": "m", "api_key": "sk-123"}',
            "DIGEST_LLM has an unknown key 'api_key'",
        ),
        (
            '{"base_url": "https://x/v1", "model": "m", "api_key_env": "sk-123"}',
            "DIGEST_LLM['api_key_env'] must be the name of an environment variable",
        ),
        (
            '{"base_url": "https://x/v1", "model": "m", "max_requests": -1}',
            "DIGEST_LLM['max_requests'] must be a whole number",
        ),
    ],
)
def test_a_wrong_model_setting_is_one_sentence(llm, message, project, capsys):
    path = project / "llmconf.py"
    path.write_text(
        f'DIGEST_DATA_PATH = "data"\nDIGEST_WRITER = "llm"\nDIGEST_LLM = {llm}\n', encoding="utf-8"
    )
    assert main(["show", "acme/widget", "--week", "2026-W19", "--settings", str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith(f"repo-digest: {message}") and err.count("\n") == 1 and "sk-123" not in err
    )
