"""The plugin in someone else's Pelican site: `pip install` into a fresh virtual environment, no
PLUGINS setting (Pelican finds the namespace plugin), Pelican's own themes, the site's own URLs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.parse
from datetime import UTC, datetime, timedelta
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup

from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.conftest import make_pull
from tests.links import check_links, page_address, references, target

ROOT = Path(__file__).resolve().parents[2]
SITEURL = "https://example.org/blog"
MONDAY = datetime(2026, 5, 4, 9, tzinfo=UTC)  # 2026-W19
HOSTILE = "<script>alert(1)</script> fix: escape titles"


@pytest.fixture(scope="module")
def fresh_pelican(tmp_path_factory) -> Path:
    """The `pelican` command of a new virtual environment with this project pip-installed (not editable)."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    env = {
        **os.environ,
        "PIP_CONSTRAINT": str(ROOT / "constraints.txt"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    done = subprocess.run(
        [str(venv / "bin/python"), "-m", "pip", "install", "--quiet", str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    unreachable = (
        "Could not find a version",
        "No matching distribution",
        "NewConnectionError",
        "Temporary failure in name resolution",
    )
    if done.returncode != 0 and any(sign in done.stderr for sign in unreachable):
        pytest.skip(f"no package index to install the dependencies from: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    return venv / "bin/pelican"


def _site(folder: Path, theme: str, in_blog: bool | None) -> Path:
    """A blog of one post, with a store of three weeks of acme/widget; DIGEST_IN_BLOG as given
    (None: not set, the plugin's default)."""
    (folder / "content").mkdir(parents=True)
    (folder / "content/hello.md").write_text(
        "Title: Hello\nDate: 2026-05-01\nCategory: Notes\nTags: news\n\nThe blog's own post.\n"
    )
    _store(folder)
    # A site with Pelican's default URLs (category/{slug}.html, tag/{slug}.html) and no PLUGINS.
    (folder / "pelicanconf.py").write_text(
        f'SITENAME = "A blog"\nSITEURL = "{SITEURL}"\nRELATIVE_URLS = False\nFEED_DOMAIN = SITEURL\n'
        f'PATH = "content"\nTHEME = "{theme}"\nTIMEZONE = "UTC"\nDEFAULT_DATE = "fs"\n'
        f'FEED_ALL_ATOM = "feeds/all.atom.xml"\nDIGEST_FETCH = "never"\n'
        + ("" if in_blog is None else f"DIGEST_IN_BLOG = {in_blog}\n")
    )
    return folder


def _store(folder: Path) -> None:
    store = Store(folder / "data")
    store.upsert(
        "acme/widget",
        [
            make_pull(
                1,
                MONDAY,
                "feat: add the widget cache",
                files=[("core/cache.py", 120, 4, "modified")],
                labels=("area/core",),
            ),
            make_pull(
                2,
                MONDAY + timedelta(days=1),
                HOSTILE,
                author="bob",
                files=[("core/parse.py", 5, 2, "modified")],
            ),
            make_pull(
                3,
                MONDAY + timedelta(days=8),
                "docs: explain the cache",
                files=[("docs/cache.md", 30, 0, "added")],
            ),
            make_pull(
                4, MONDAY + timedelta(days=9), "[1/n] feat: split the parser"
            ),  # no files: its modules are its title's
        ],
    )
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=MONDAY + timedelta(days=14))
    )


def _build(pelican: Path, folder: Path, *options: str, output: str = "output") -> Path:
    return _run(pelican, folder, *options, output=output)[0]


def _run(pelican: Path, folder: Path, *options: str, output: str = "output") -> tuple[Path, str]:
    """Build the site in `folder` with `pelican`; its output folder and its log."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "GH_", "DIGEST_", "SITEURL", "PYTHONPATH"))
    }
    env["COLUMNS"] = "1000"  # one log line a message
    done = subprocess.run(
        [str(pelican), "content", "-o", output, "-s", "pelicanconf.py", *options],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = done.stdout + done.stderr
    assert (
        done.returncode == 0
        and "ERROR" not in log
        and "CRITICAL" not in log
        and "Traceback" not in log
    ), log
    return folder / output, log


# pelican-quickstart's pelicanconf.py, and no PLUGINS: Pelican loads every namespace plugin installed.
QUICKSTART = """AUTHOR = 'Ann'
SITENAME = 'My site'
SITEURL = ''
PATH = 'content'
TIMEZONE = 'Europe/Rome'
DEFAULT_LANG = 'en'
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
LINKS = (('Pelican', 'https://getpelican.com/'), ('Python.org', 'https://www.python.org/'))
SOCIAL = (('You can add links in your config file', '#'),)
DEFAULT_PAGINATION = 10
"""


def _files(output: Path) -> dict[str, bytes]:
    return {
        p.relative_to(output).as_posix(): p.read_bytes()
        for p in sorted(output.rglob("*"))
        if p.is_file()
    }


def test_installed_but_unconfigured_the_plugin_leaves_another_site_as_pelican_builds_it(
    fresh_pelican, tmp_path
):
    """A quickstart site of two posts in the environment the plugin is installed in: with no
    DIGEST_* setting it builds as with no plugin at all, and the plugin says so in one debug line."""
    folder = tmp_path / "quickstart"
    (folder / "content").mkdir(parents=True)
    (folder / "content/one.md").write_text(
        "Title: One\nDate: 2026-01-01\nCategory: Notes\n\nThe first post.\n"
    )
    (folder / "content/two.md").write_text(
        "Title: Two\nDate: 2026-01-08\nTags: news\n\nThe second post.\n"
    )
    (folder / "pelicanconf.py").write_text(QUICKSTART)
    output, log = _run(fresh_pelican, folder, "--debug")
    assert "Registering plugin `pelican.plugins.repo_digest`" in log  # it was loaded
    assert len([line for line in log.splitlines() if "repo-digest" in line]) == 1, log
    (folder / "pelicanconf.py").write_text(QUICKSTART + "PLUGINS = []\n")
    without_plugins = _build(fresh_pelican, folder, output="without")
    assert _files(output) == _files(without_plugins)
    assert not (output / "sitemap.xml").exists() and not (output / "theme/repo-digest").exists()


def _pages(output: Path) -> dict[str, BeautifulSoup]:
    return {
        p.relative_to(output).as_posix(): BeautifulSoup(
            p.read_text(encoding="utf-8"), "html.parser"
        )
        for p in output.rglob("*.html")
    }


def _check_every_page(output: Path) -> dict[str, BeautifulSoup]:
    pages = _pages(output)
    for path, soup in pages.items():
        assert soup.title and soup.title.text.strip(), f"{path} has no title"
        assert soup.find("meta", charset=True), f"{path} has no charset"
        assert not soup.find("script", string=lambda s: s and "alert(1)" in s), (
            f"{path} runs a hostile title"
        )
    checked, broken = check_links(output, SITEURL)
    print(
        f"{output.parent.name}: {len(pages)} pages, {checked} internal links, {len(broken)} broken"
    )
    assert broken == []
    return pages


@pytest.mark.parametrize("theme", ["notmyidea", "simple"])
def test_weeks_in_the_blog_of_a_site_with_a_builtin_theme(fresh_pelican, tmp_path, theme):
    output = _build(fresh_pelican, _site(tmp_path / theme, theme, in_blog=True))
    pages = _check_every_page(output)
    for week in ("2026-W19", "2026-W20"):
        soup = pages[f"acme/widget/{week}/index.html"]
        assert soup.select_one("article.week .status") and soup.select_one(
            "article.week .week-nav"
        ), week  # the digest's own report
        heads = [link["href"] for link in soup.find_all("link", rel="stylesheet")]
        assert (
            any(h.endswith("/repo-digest/digest.css") for h in heads) and len(heads) >= 2
        )  # the theme's CSS kept
        assert soup.html.get("lang")
    assert HOSTILE in pages["acme/widget/2026-W19/index.html"].get_text()  # shown as text
    assert "acme/widget/index.html" in pages  # the repository, whatever CATEGORY_URL says
    assert (
        "category/notes.html" in pages and "hello.html" in pages
    )  # the blog's own pages, as before
    index = pages["index.html"].get_text()
    assert "acme/widget" in index and "Hello" in index  # weeks joined the blog
    # The blog's feed gets the newest finished week, not the digest's history; the repository's feed has every week.
    feed = feedparser.parse((output / "feeds/all.atom.xml").read_bytes())
    assert [e.link for e in feed.entries] == [
        f"{SITEURL}/acme/widget/2026-W20/",
        f"{SITEURL}/hello.html",
    ]
    repository = feedparser.parse(
        (output / "feeds/acme/widget.atom.xml").read_bytes()
    )  # Pelican's CATEGORY_FEED_ATOM
    assert [e.link.rsplit("/", 2)[-2] for e in repository.entries] == ["2026-W20", "2026-W19"]
    # Labels and modules from file paths are tags; words of PR titles ("[1/n]") are not.
    tags = {a.get_text(strip=True) for a in pages["tags.html"].select("a")}
    assert {"area/core", "news"} <= tags and not {"1/n", "1"} & tags, tags


def test_weeks_in_a_section_of_their_own_by_default(fresh_pelican, tmp_path):
    output, log = _run(fresh_pelican, _site(tmp_path / "own", "simple", in_blog=None), "--verbose")
    assert len([line for line in log.splitlines() if "repo-digest" in line]) == 1, (
        log
    )  # configured, it says so once
    pages = _check_every_page(output)
    assert "2026-W" not in pages["index.html"].get_text()  # the blog's index is the blog's
    assert "2026-W" not in (output / "feeds/all.atom.xml").read_text()
    assert not (output / "tag/area-core.html").exists()
    repo = pages["acme/widget/index.html"]
    assert [a.text for a in repo.select("table.weeks tbody a")] == ["2026-W20", "2026-W19"]
    # Atom feeds, as the site's own (FEED_ALL_ATOM, and Pelican's default CATEGORY_FEED_ATOM), and no RSS.
    assert not list(output.rglob("*.rss.xml"))
    for path in ("feeds/digest.atom.xml", "feeds/acme/widget.atom.xml"):
        feed = feedparser.parse((output / path).read_bytes())
        assert not feed.bozo and [e.link for e in feed.entries] == [
            f"{SITEURL}/acme/widget/2026-W20/",
            f"{SITEURL}/acme/widget/2026-W19/",
        ], path
    assert pages["acme/widget/2026-W19/index.html"].select_one("article.week .status")


def test_a_relative_urls_blog_shows_the_weeks_entries_off_the_domain_root(fresh_pelican, tmp_path):
    """With RELATIVE_URLS (Pelican's development setting) the site may be served from any folder:
    the week's entry, which notmyidea shows in full on its index and category pages, links its
    chart and its page relative to the page showing it."""
    folder = _site(tmp_path / "relative", "notmyidea", in_blog=True)
    with (folder / "pelicanconf.py").open("a") as settings:
        settings.write('SITEURL = ""\nRELATIVE_URLS = True\n')
    output = _build(fresh_pelican, folder)
    served = "http://127.0.0.1:8000/some/folder"  # anywhere but the domain's root
    broken, images = [], 0
    for page in sorted(output.rglob("*.html")):
        for reference in references(page.read_text(encoding="utf-8")):
            address = urllib.parse.urljoin(page_address(output, page, served), reference)
            if urllib.parse.urlsplit(address).netloc != "127.0.0.1:8000":
                continue  # GitHub, the feeds' domain
            file = target(output, served, address)
            images += reference.endswith(".png")
            if file is None or not file.exists():
                broken.append(f"{page.relative_to(output)} -> {reference}")
    assert images and broken == [], broken[:10]


def test_the_readme_names_what_comes_with_the_showcase_theme_only(fresh_pelican, tmp_path):
    """What a user of another theme goes without is said in the README, and a site in Pelican's
    simple theme does go without each of them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**With the showcase theme only**") :]
    section = section[: section.index("\n\n")]
    output = _build(fresh_pelican, _site(tmp_path / "simple", "simple", in_blog=True))
    week = (output / "acme/widget/2026-W19/index.html").read_text(encoding="utf-8")
    tag = next(output.glob("tag/area*.html")).read_text(
        encoding="utf-8"
    )  # Pelican's page of the label area/core
    absent = {
        "Open Graph": 'property="og:' not in week,
        "Content-Security-Policy": "Content-Security-Policy" not in week,
        "`/search/`": not (output / "search/index.html").exists(),
        "`/labels/`": "feat: add the widget cache"
        not in tag,  # the weeks under the label, not their PRs
        "`/authors/`": not (output / "authors/index.html").exists(),
        "`/feeds/`": not (output / "feeds/index.html").exists(),
        "404": not (output / "404.html").exists(),
    }
    assert all(absent.values()), absent
    assert [name for name in absent if name not in " ".join(section.split())] == []


def _quickstart_with_the_digest(folder: Path, *lines: str) -> Path:
    """pelican-quickstart's settings (every feed off), two posts, PLUGINS unset, and the digest."""
    (folder / "content").mkdir(parents=True)
    (folder / "content/one.md").write_text("Title: One\nDate: 2026-01-01\n\nThe first post.\n")
    (folder / "content/two.md").write_text("Title: Two\nDate: 2026-01-08\n\nThe second post.\n")
    _store(folder)
    settings = QUICKSTART.replace("SITEURL = ''", f"SITEURL = {SITEURL!r}\nRELATIVE_URLS = False")
    (folder / "pelicanconf.py").write_text(
        settings + 'THEME = "notmyidea"\nDIGEST_FETCH = "never"\n' + "\n".join(lines) + "\n"
    )
    return folder


def test_a_host_site_gets_no_sitemap_nor_feeds_it_turned_off_and_links_the_digest_from_its_menu(
    fresh_pelican, tmp_path
):
    """A host's development settings turn its feeds off: the digest's follow them. No sitemap unless
    asked for, and an asked one only with absolute addresses. The README's MENUITEMS line links the digest."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    menu = re.search(r"^MENUITEMS = .*$", readme, re.M)[0].replace("owner/name", "acme/widget")
    output = _build(
        fresh_pelican,
        _quickstart_with_the_digest(tmp_path / "host", 'DIGEST_REPOS = ["acme/widget"]', menu),
    )
    assert (output / "acme/widget/2026-W19/index.html").exists()
    assert (
        sorted(p.relative_to(output).as_posix() for p in output.rglob("*.xml")) == []
    )  # no feed, no sitemap
    pages = _check_every_page(output)
    home = pages["index.html"]
    assert [a["href"] for a in home.select("nav a") if a.get_text(strip=True) == "Digest"] == [
        f"{SITEURL}/acme/widget/"
    ]
    assert "feeds/" not in str(
        pages["acme/widget/index.html"]
    )  # no link to a feed that is not there
    asked = _build(
        fresh_pelican,
        _quickstart_with_the_digest(
            tmp_path / "asked", "DIGEST_SITEMAP = True", "FEED_ALL_RSS = 'rss.xml'"
        ),
    )
    locs = re.findall(r"<loc>(.*?)</loc>", (asked / "sitemap.xml").read_text(encoding="utf-8"))
    assert f"{SITEURL}/acme/widget/2026-W19/" in locs and all(
        loc.startswith(SITEURL + "/") for loc in locs
    )
    assert (asked / "feeds/digest.rss.xml").exists() and not (
        asked / "feeds/digest.atom.xml"
    ).exists()  # RSS, as the site's


@pytest.mark.parametrize(
    ("line", "author"),
    [("AUTHOR = 'Ann'", "Ann"), ("DIGEST_AUTHOR = 'Widget team'", "Widget team")],
)
def test_in_the_blog_the_weeks_are_by_the_sites_author_or_the_one_set(
    fresh_pelican, tmp_path, line, author
):
    folder = _quickstart_with_the_digest(tmp_path / "blog", "DIGEST_IN_BLOG = True", line)
    pages = _pages(_build(fresh_pelican, folder))
    assert not [path for path in pages if "repo-digest" in path]
    slug = author.lower().replace(" ", "-")
    assert (
        "acme/widget" in pages[f"author/{slug}.html"].get_text()
    )  # Pelican's page of the author lists the weeks
