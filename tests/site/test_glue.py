"""Generator level: the Pelican glue (publish/hooks.py) run by Pelican's ArticlesGenerator on a tiny
store, with a fixed clock, so that a change to the glue is caught without a whole build."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from pelican.generators import ArticlesGenerator
from pelican.settings import read_settings

from digest_plugin import register
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.hooks import (
    SETUP_KEY,
    BuildSetup,
    build_setup,
    check_settings,
    write_files,
)
from digest_plugin.records.state import RepoState
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.conftest import make_pull

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 5, 20, 12, tzinfo=UTC)  # Wednesday of 2026-W21: that week is still in progress
MONDAY = datetime(2026, 5, 11, 9, tzinfo=UTC)  # 2026-W20
HOSTILE = '<script>alert("x")</script>'


def _store(folder: Path) -> None:
    store = Store(folder / "data")
    store.upsert(
        "acme/widget",
        [
            make_pull(
                1,
                MONDAY,
                "feat: add the widget cache",
                labels=("area/api",),
                files=[("core/cache.py", 120, 4, "modified")],
            ),
            make_pull(
                2,
                MONDAY + timedelta(days=2),
                "fix: crash on empty input",
                labels=("🚀",),
                files=[("core/parse.py", 5, 2, "modified")],
            ),
            make_pull(
                3,
                MONDAY + timedelta(days=7),
                HOSTILE,
                author="mallory",
                files=[("docs/index.md", 3, 1, "modified")],
            ),
            make_pull(
                4,
                MONDAY + timedelta(days=8, hours=3),
                "docs: explain the cache",
                files=[("docs/cache.md", 30, 0, "added")],
            ),
        ],
    )
    store.write_state(
        RepoState("acme/widget", "import", fetched_at=datetime(2026, 5, 20, tzinfo=UTC))
    )


def run_generator(folder: Path, language: str = "en", **overrides) -> ArticlesGenerator:
    """Pelican's ArticlesGenerator as Pelican.run() makes it, after `initialized` with a fixed clock."""
    (folder / "content").mkdir(parents=True, exist_ok=True)
    settings = read_settings(
        str(ROOT / "pelicanconf.py"),
        override={
            "PATH": str(folder / "content"),
            "OUTPUT_PATH": str(folder / "output"),
            "CACHE_PATH": str(folder / "cache"),
            "THEME": str(ROOT / "theme"),
            "DIGEST_DATA_PATH": str(folder / "data"),
            "DIGEST_FETCH": "never",
            "DIGEST_LANGUAGE": language,
            **overrides,
        },
    )
    register()  # what Pelican's plugin loader does: connects the hooks
    checked = DigestSettings.from_pelican(settings, folder)
    settings[SETUP_KEY] = BuildSetup(checked, Language.of(checked.language), clock=lambda: NOW)
    context = {
        **settings,
        "generated_content": {},
        "static_links": set(),
        "static_content": {},
        "localsiteurl": settings["SITEURL"],
    }
    generator = ArticlesGenerator(
        context=context,
        settings=settings,
        path=settings["PATH"],
        theme=settings["THEME"],
        output_path=settings["OUTPUT_PATH"],
    )
    generator.generate_context()
    return generator


@pytest.fixture(scope="module")
def generator(tmp_path_factory):
    folder = tmp_path_factory.mktemp("glue")
    _store(folder)
    return run_generator(folder)


def test_one_article_per_week_at_the_design_urls(generator):
    articles = {a.url: a for a in generator.articles + generator.hidden_articles}
    assert sorted(articles) == ["acme/widget/2026-W20/", "acme/widget/2026-W21/"]
    # the week in progress has its page, but stays out of the index, tags and feeds until it closes
    assert [a.url for a in generator.hidden_articles] == ["acme/widget/2026-W21/"]
    for url, article in articles.items():
        assert article.save_as == url + "index.html"
        assert article.template == "digest_week"
        assert article.category.name == article.category.slug == "acme/widget"


def test_labels_become_tags_with_readable_slugs(generator):
    week = next(a for a in generator.articles if a.url.endswith("2026-W20/"))
    slugs = {tag.name: tag.slug for tag in week.tags}
    assert slugs["area/api"] == "area-api"
    assert (
        slugs["🚀"].startswith("label-") and len(slugs["🚀"]) == len("label-") + 8
    )  # never an empty slug


def test_a_finished_week_is_dated_at_its_end_and_the_current_one_at_its_latest_merge(generator):
    dates = {a.url: a.date for a in generator.articles + generator.hidden_articles}
    assert dates["acme/widget/2026-W20/"] == datetime(2026, 5, 18, tzinfo=UTC)
    assert dates["acme/widget/2026-W21/"] == MONDAY + timedelta(days=8, hours=3)


def test_the_week_body_is_rendered_with_untrusted_titles_escaped(generator):
    week = next(a for a in generator.hidden_articles if a.url.endswith("2026-W21/"))
    html = BeautifulSoup(week.content, "html.parser")
    assert html.find("script") is None and HOSTILE in html.get_text()
    assert "in progress" in html.get_text()
    assert week.metadata["digest_week"].week == "2026-W21"


def test_the_pages_speak_the_site_language(tmp_path):
    _store(tmp_path)
    generator = run_generator(tmp_path, language="zh")
    html = BeautifulSoup(generator.articles[0].content, "html.parser")
    assert html.find("h2").get_text() == "概要"
    assert generator.env.globals["digest_html_lang"] == "zh-CN"


def test_write_files_puts_each_weeks_markdown_beside_its_page(generator):
    write_files(generator, writer=None)
    output = Path(generator.output_path)
    for week in ("2026-W20", "2026-W21"):
        markdown = (output / "acme/widget" / week / "digest.md").read_text(encoding="utf-8")
        assert markdown.startswith(f"# acme/widget, week {week}")
    assert any((output / "acme/widget/2026-W20").glob("*.svg"))


def test_settings_are_checked_once_at_initialized_and_shared_by_every_hook(tmp_path):
    settings = read_settings(
        str(ROOT / "pelicanconf.py"), override={"DIGEST_DATA_PATH": str(tmp_path)}
    )

    class Pelican:  # what `initialized` hands over: the instance whose settings every generator shares
        pass

    pelican = Pelican()
    pelican.settings = settings
    check_settings(pelican)
    setup = settings[SETUP_KEY]
    assert build_setup(settings) is setup and setup.settings.data_path == tmp_path
    settings["DIGEST_LANGUAGE"] = "zh"  # not read again: the build keeps what it checked
    assert build_setup(settings).language.code == "en"
