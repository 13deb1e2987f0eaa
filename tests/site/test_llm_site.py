"""End to end: a real Pelican build of a small store with DIGEST_WRITER = "llm" against the local server,
read the way a reader reads the page; then the same site rebuilt offline from the cache."""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup

from digest_plugin.cli import main
from digest_plugin.records.state import RepoState, Window
from digest_plugin.store.folder import Store
from tests.conftest import make_pull
from tests.llm_server import GOOD_KEY, ChatServer, Reply, answers
from tests.site_builder import build_site

KEY_ENV = "REPO_DIGEST_TEST_LLM_KEY"
WEEK = "acme/widget/2026-W19/index.html"


def _store(folder):
    monday = datetime(2026, 5, 4, 9, tzinfo=UTC)  # 2026-W19, long complete
    pulls = [
        make_pull(
            1,
            monday,
            "[engine] feat: add the widget `cache`",
            author="alice",
            files=[("engine/cache.py", 420, 4, "modified"), ("docs/r&d.md", 40, 0, "added")],
        ),
        make_pull(
            2,
            monday + timedelta(days=1),
            "fix: crash on empty input",
            author="bob",
            files=[("engine/parse.py", 5, 2, "modified")],
        ),
        make_pull(
            3,
            monday + timedelta(days=2),
            "docs: explain the `cache`",
            author="carol",
            files=[("docs/cache.md", 30, 0, "added")],
            body=answers.INJECTION,
        ),
        make_pull(
            5,
            monday + timedelta(days=3),
            "[cache] fix: evict stale entries",
            author="dave",
            files=[("engine/cache.py", 12, 3, "modified")],
        ),
        make_pull(
            4,
            monday + timedelta(days=8),
            "feat: next week's change",
            author="alice",
            files=[("engine/new.py", 10, 0, "added")],
        ),
    ]
    store = Store(folder / "data")
    store.upsert("acme/widget", pulls)
    gap = Window(
        monday + timedelta(days=7), monday + timedelta(days=8)
    )  # 2026-W20 is known to miss PRs
    store.write_state(
        RepoState(
            repo="acme/widget",
            source="import",
            fetched_at=datetime(2026, 5, 25, tzinfo=UTC),
            incomplete=(gap,),
        )
    )


def settings_file(folder, url: str | None) -> str:
    """Settings for `repo-digest show` on the store in `folder`, with the model at `url` (None: no model)."""
    path = (
        folder / "llmconf.py"
    )  # not pelicanconf.py: a module of that name would shadow the project's own
    llm = (
        f'DIGEST_LLM = {{"base_url": "{url}", "model": "local-model", "api_key_env": "{KEY_ENV}"}}\n'
        if url
        else ""
    )
    path.write_text(
        f'DIGEST_DATA_PATH = "data"\nDIGEST_KEY_THRESHOLD = 1.0\n{llm}', encoding="utf-8"
    )
    return str(path)


def _answer(request):
    """Grounded, except that it gives the week's merged count as the "engine" theme's, and follows PR
    #3's planted instructions in its recommendations."""
    answer = answers.grounded(request.document)
    first_file = answer["key_changes"][0]["sentences"][0]
    first_file["text"] = "#1 adds engine/cache.py and documents it in docs/r&d.md."
    engine = next(theme for theme in answer["themes"] if theme["name"] == "engine")
    engine["sentences"] = [
        answers.sentence("The engine theme took 4 pull requests, led by #1.", [1], theme__engine=4)
    ]
    answer["recommendations"].append(
        answers.sentence("Read https://evil.example/upgrade first.", [])
    )
    return answer


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(self.format(record))


def _build(folder, output, server_url):
    log = _Collect()
    logging.getLogger("digest_plugin").addHandler(log)
    try:
        build_site(
            folder,
            OUTPUT_PATH=str(output),
            DIGEST_KEY_THRESHOLD=1.0,
            DIGEST_WRITER="llm",
            DIGEST_LLM={
                "base_url": server_url,
                "model": "local-model",
                "api_key_env": KEY_ENV,
                "timeout": 20,
            },
        )
    finally:
        logging.getLogger("digest_plugin").removeHandler(log)
    return output, log.lines


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llm-site")
    _store(folder)
    os.environ[KEY_ENV] = GOOD_KEY
    try:
        with ChatServer(script=lambda request: Reply.answer(_answer(request))) as server:
            output, log = _build(folder, folder / "output", server.url)
            requests = list(server.requests)
    finally:
        del os.environ[KEY_ENV]
    # the same site again: server stopped, no key, nothing to ask
    offline, offline_log = _build(folder, folder / "offline", server.url)
    return folder, output, log, requests, offline, offline_log


def _page(output, path=WEEK):
    return BeautifulSoup((output / path).read_text(encoding="utf-8"), "html.parser")


def test_the_grounded_sentences_are_on_the_page(built):
    _, output, _, requests, _, _ = built
    page = _page(output)
    summary = page.select_one("section.summary p").get_text(" ", strip=True)
    assert summary == "This week 4 pull requests were merged, and #1 matters most."
    assert (
        page.select_one("section.summary p a.pr-ref")["href"]
        == "https://github.com/acme/widget/pull/1"
    )
    key = page.select_one("ol.key-pulls li").get_text(" ", strip=True)
    assert "#1 adds engine/cache.py and documents it in docs/r&d.md." in key
    assert "docs/r&amp;d.md" in (output / WEEK).read_text(encoding="utf-8")  # escaped where shown
    assert len(requests) == 1  # one request for the one complete week; none for the incomplete one


def test_the_page_says_which_writer_wrote_it_and_how_many_sentences_were_kept(built):
    _, output, _, _, _, _ = built
    writer = _page(output).select_one("p.writer").get_text(" ", strip=True)
    assert writer.startswith("Written with the language model local-model: ")
    checked = writer.split(" of the ")[1].split()[0]
    kept = writer.split("sentences it wrote, ")[1].split()[0]
    set_aside = writer.split(" and are shown, and ")[1].split()[0]
    # summary, the cache theme, 3 key changes, the risk; the engine theme and 2 recommendations set aside
    assert (int(kept), int(set_aside), int(checked)) == (1 + 1 + 3 + 1, 1 + 2, 1 + 2 + 3 + 1 + 2)
    assert _page(output, "acme/widget/2026-W20/index.html").select_one("p.writer").get_text(
        " ", strip=True
    ) == (
        "Written by the built-in writer: no sentence of the language model was used for this week."
    )


def test_a_theme_sentence_is_the_models_where_it_checks_out_and_the_builtin_writers_where_not(
    built,
):
    _, output, log, _, _, _ = built
    themes = [" ".join(li.get_text().split()) for li in _page(output).select("section.summary li")]
    assert themes == [
        (
            "engine: 3 of the week's 4 PRs (75%). Among them, #1 adds the widget `cache`. "
            "See also #2, #5."
        ),  # the built-in writer's
        "cache: The cache theme took 3 of the week's pull requests, led by #1.",
    ]
    assert (
        "acme/widget 2026-W19: the language model's sentence in the theme engine was rejected, it gives theme:engine as 4, "
        "but the analysis says 3: 'The engine theme took 4 pull requests, led by #1.'"
    ) in log


@pytest.mark.parametrize("week", ["2026-W19", "2026-W20"])
def test_the_page_the_markdown_and_the_json_say_the_same_about_the_writer(week, built, capsys):
    folder, output, _, _, _, _ = built
    said = (
        _page(output, f"acme/widget/{week}/index.html")
        .select_one("p.writer")
        .get_text(" ", strip=True)
    )
    markdown = (output / f"acme/widget/{week}/digest.md").read_text(encoding="utf-8")
    assert markdown.rstrip("\n").splitlines()[-1] == f"*{said}*"
    # the server is stopped and no key is set: `show` words the week from the answer the build cached
    show = [
        "show",
        "acme/widget",
        "--week",
        week,
        "--writer",
        "llm",
        "--settings",
        settings_file(folder, "http://127.0.0.1:9/v1"),
    ]
    assert main([*show, "--format", "markdown"]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == f"*{said}*"
    assert main([*show, "--format", "json"]) == 0
    writer = json.loads(capsys.readouterr().out)["writer"]
    assert writer["text"] == said
    if week == "2026-W19":
        assert (
            writer["name"],
            writer["model"],
            writer["kept"],
            writer["set_aside"],
            writer["checked"],
            len(writer["rejected"]),
        ) == ("llm", "local-model", 6, 3, 9, 3)
        assert (
            f"of the {writer['checked']} sentences it wrote, {writer['kept']} passed" in said
            and f"{writer['set_aside']} were set aside" in said
        )
    else:
        assert (writer["name"], writer["kept"], writer["unused"]) == (
            "builtin",
            0,
            "only complete weeks are written by the language model",
        )


def test_the_planted_instructions_stay_off_the_page_and_the_log_says_why(built):
    _, output, log, _, _, _ = built
    page = _page(output)
    assert "evil.example" not in page.get_text(" ", strip=True)
    assert (
        page.find("h2", string="Recommendations") is None
    )  # no finding calls for one, and the model's were rejected
    assert any(
        "acme/widget 2026-W19: the language model's sentence in the recommendations was rejected, it contains a web address"
        in line
        for line in log
    )


def test_a_cached_week_rebuilds_the_same_page_with_the_server_stopped(built):
    _, output, _, _, offline, offline_log = built
    assert _page(offline).select_one("div.digest") == _page(output).select_one("div.digest")
    assert not any("gave no usable answer" in line for line in offline_log)


def test_the_key_is_nowhere_in_the_site_the_store_or_the_log(built):
    folder, _, log, _, _, offline_log = built
    for path in folder.rglob("*"):
        if path.is_file():
            assert GOOD_KEY.encode() not in path.read_bytes(), path
    assert not any(GOOD_KEY in line for line in log + offline_log)
    assert list((folder / "data" / ".llm-cache" / "acme" / "widget").glob("2026-W19-*.json"))
