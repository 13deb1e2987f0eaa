"""What a rebuild remembers (analyses, narratives, report texts, chart and Markdown files) and when it forgets:
a rebuild after any change gives the very files a build from scratch gives, and a rebuild after
no change analyses and narrates nothing again. Real Pelican builds of a tiny store."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from jinja2 import Template

from digest_plugin.analysis import repository
from digest_plugin.build.cache import AnalysisMemos, Memo, TextCache
from digest_plugin.charts import trends
from digest_plugin.narrate.wording import Language
from digest_plugin.publish import files, pdf, report_text, site_digest
from digest_plugin.publish.files import PACKAGE_TEMPLATES
from digest_plugin.records.state import RepoState
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.conftest import make_pull
from tests.site_builder import ROOT, build_site
from tests.tiny_project import site_files

REPO = "acme/widget"
MONDAY = datetime(2026, 5, 4, 9, tzinfo=UTC)  # 2026-W19
RULES = 'paths:\n  modules:\n    "core/*": {module}\n'


def pulls(weeks: int = 3) -> list:
    made = []
    for week in range(weeks):
        monday = MONDAY + timedelta(weeks=week)
        made += [
            make_pull(
                10 * week + 1,
                monday,
                f"feat: add widget part {week}",
                author="alice",
                files=[
                    ("core/cache.py", 120, 4, "modified"),
                    ("tests/test_cache.py", 40, 0, "added"),
                ],
            ),
            make_pull(
                10 * week + 2,
                monday + timedelta(days=1),
                f"fix: crash number {week}",
                author="bob",
                files=[("core/parse.py", 5, 2, "modified")],
            ),
        ]
    return made


def write_store(folder, records, fetched: datetime = datetime(2026, 6, 1, tzinfo=UTC)) -> None:
    store = Store(folder / "data")
    store.upsert(REPO, records)
    store.write_state(RepoState(repo=REPO, source="import", fetched_at=fetched))


def build(folder, **settings):
    return build_site(folder, DIGEST_RULES=str(folder / "rules.yaml"), **settings)


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    write_store(folder, pulls())
    (folder / "rules.yaml").write_text(RULES.format(module="engine"))
    build(folder)
    return folder


def fresh_build(folder, tmp_path, **settings) -> dict[str, bytes]:
    """The files a build from scratch of the same store, notes and rules gives."""
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.copytree(folder / "data", fresh / "data")
    shutil.copytree(folder / "content", fresh / "content")
    shutil.copy(folder / "rules.yaml", fresh / "rules.yaml")
    return site_files(build(fresh, **settings))


def assert_same_as_fresh(folder, tmp_path, **settings) -> dict[str, bytes]:
    """The rebuilt output holds every file of a fresh build, byte for byte, and no other chart."""
    fresh = fresh_build(folder, tmp_path, **settings)
    rebuilt = site_files(folder / "output")
    # Pelican leaves the pages of an earlier build in place (a label's page after a rule renamed
    # it), and the sitemap lists what is there: `make html` builds into a fresh folder.
    fresh.pop("sitemap.xml", None)
    assert sorted(name for name in fresh if rebuilt.get(name) != fresh[name]) == []
    charts = {name for name in rebuilt if name.endswith((".svg", ".png"))}
    assert charts == {name for name in fresh if name.endswith((".svg", ".png"))}
    return rebuilt


def forbid(monkeypatch, module, name):
    def fail(*args, **kwargs):
        raise AssertionError(f"{name} ran in a build where nothing changed")

    monkeypatch.setattr(module, name, fail)


def forbid_rendering(monkeypatch, template_name):
    render = Template.render

    def guarded(template, *args, **kwargs):
        if template.name == template_name:
            raise AssertionError(f"{template_name} rendered in a build where nothing changed")
        return render(template, *args, **kwargs)

    monkeypatch.setattr(Template, "render", guarded)


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The HTML of each PDF a build draws, drawn in the test's process, where they are counted."""
    pytest.importorskip("weasyprint")
    pages: list[str] = []
    draw = pdf._draw
    monkeypatch.setattr(pdf, "_draw", lambda html: pages.append(html) or draw(html))
    monkeypatch.setattr(pdf, "PARALLEL_FROM", 100)
    return pages


def cached_texts(site) -> list[Path]:
    return sorted(TextCache(site / "cache", salt="").folder.glob("*/*"))


def test_nothing_changed_nothing_analysed_narrated_or_rewritten(site, tmp_path, monkeypatch):
    output, memo = site / "output", site / "cache/digest-analysis/acme/widget.pickle"
    # The digest's own files keep their time; the pages and the blog's feeds are Pelican's writer's
    # (the section's feeds are the digest's: tests/site/test_feeds.py).
    before = {
        path: path.stat().st_mtime_ns
        for path in output.rglob("*")
        if path.suffix in (".md", ".svg", ".png")
    }
    before[memo] = memo.stat().st_mtime_ns  # the memo is not written again either
    forbid(monkeypatch, repository, "analyse_pull")
    forbid(monkeypatch, repository, "week_stage")
    forbid(monkeypatch, repository, "theme_week")
    forbid(monkeypatch, site_digest, "narrate")
    forbid(monkeypatch, site_digest, "week_view")
    forbid(monkeypatch, trends, "week_charts")
    forbid(monkeypatch, trends, "repo_charts")
    forbid(monkeypatch, files, "render_markdown")
    forbid_rendering(monkeypatch, report_text.REPORT_TEMPLATE)
    build(site)
    monkeypatch.undo()
    after = {path: path.stat().st_mtime_ns for path in before}
    assert after == before  # the downloads and charts are left as they were
    assert_same_as_fresh(site, tmp_path)


def test_a_warm_build_reads_no_chart_yet_restores_one_that_was_altered(site, tmp_path, monkeypatch):
    altered = sorted((site / "output").rglob("*.svg"))[0]
    altered.write_bytes(altered.read_bytes().replace(b"<svg", b'<svg data-edited="yes"', 1))
    read = []
    read_bytes = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda path: read.append(path) or read_bytes(path))
    build(site)
    monkeypatch.undo()
    chart_reads = [
        path for path in read if path.suffix in (".svg", ".png") or "digest-charts" in path.parts
    ]
    assert (
        len(chart_reads) == 1 and "digest-charts" in chart_reads[0].parts
    )  # the altered chart's, from the cache
    assert (
        altered.read_bytes() == chart_reads[0].read_bytes()
        and b"data-edited" not in altered.read_bytes()
    )
    assert_same_as_fresh(site, tmp_path)


def test_a_changed_pull_shows_on_the_next_build(site, tmp_path):
    edited = pulls()
    edited[0] = make_pull(
        1,
        MONDAY,
        "feat: add the renamed widget part",
        author="alice",
        files=[("core/cache.py", 120, 4, "modified")],
    )
    write_store(site, edited)
    build(site)
    rebuilt = assert_same_as_fresh(site, tmp_path)
    assert "the renamed widget part" in rebuilt["acme/widget/2026-W19/index.html"].decode()
    assert (
        len(cached_texts(site)) == 6
    )  # a report and a Markdown a week: the changed week's old ones are gone


def test_a_damaged_or_missing_report_text_is_made_again(site, tmp_path):
    texts = cached_texts(site)
    assert len(texts) == 6
    texts[0].write_bytes(b"not what was kept")
    texts[1].unlink()
    build(site)
    assert_same_as_fresh(site, tmp_path)
    assert cached_texts(site) == texts


def test_a_partial_of_the_report_changed_shows_on_every_week(site, tmp_path):
    templates = site / "templates"  # the site's own templates, before the theme's and the plugin's
    (templates / "partials").mkdir(parents=True)
    source = (PACKAGE_TEMPLATES / "partials/week_summary.html").read_text(encoding="utf-8")
    (templates / "partials/week_summary.html").write_text(
        source.replace("</section>", "<p>Read by the board</p></section>")
    )
    build(site, THEME_TEMPLATES_OVERRIDES=[str(templates)])
    rebuilt = assert_same_as_fresh(site, tmp_path, THEME_TEMPLATES_OVERRIDES=[str(templates)])
    pages = [
        rebuilt[f"acme/widget/{week}/index.html"].decode()
        for week in ("2026-W19", "2026-W20", "2026-W21")
    ]
    assert all(page.count("Read by the board") == 1 for page in pages)


def test_a_setting_an_edited_template_reads_redraws_the_pdfs_when_it_changes(site, drawn):
    """What each template reads is remembered by its source: an edited PDF template's new reading
    (a setting no template of the PDF read before) is a part of the PDFs' key from then on."""
    templates = site / "templates"
    templates.mkdir()
    source = (Path(pdf.__file__).parents[1] / "templates/digest_week_pdf.html").read_text(
        encoding="utf-8"
    )
    (templates / "digest_week_pdf.html").write_text(
        source.replace("</article>", "<p>Printed for {{ BOARD_NAME }}</p></article>")
    )
    for board in ("the board", "the council"):
        drawn.clear()
        build(site, DIGEST_PDF=True, THEME_TEMPLATES_OVERRIDES=[str(templates)], BOARD_NAME=board)
        assert len(drawn) == 3 and all(f"Printed for {board}</p>" in html for html in drawn)


@pytest.mark.parametrize(
    "cache", ["", "cache"], ids=["views hashed", "views keyed by what they are made of"]
)
def test_a_palette_changed_by_another_repository_leaves_the_reports_as_they_were(tmp_path, cache):
    """A repository added before acme/widget (by name) puts bob beside carol first, so alice, whom
    acme/widget's charts show beside bob, takes another colour; its reports do not show colours."""
    write_store(tmp_path, pulls())
    first = Store(tmp_path / "data")
    first.upsert(
        "aaa/first",
        [
            make_pull(
                90 + n,
                MONDAY + timedelta(hours=n),
                "fix: a thing",
                author=author,
                files=[("core/a.py", 3, 1, "modified")],
            )
            for n, author in enumerate(["bob", "carol"])
        ],
    )
    first.write_state(
        RepoState(repo="aaa/first", source="import", fetched_at=datetime(2026, 6, 1, tzinfo=UTC))
    )

    def widget_weeks(*repos: str) -> list[site_digest.WeekPage]:
        settings = DigestSettings(repos=repos, data_path=tmp_path / "data", fetch="never")
        cache_path = str(tmp_path / cache) if cache else ""
        digest = site_digest.build_site_digest(
            settings,
            Language.of("en"),
            {"CACHE_PATH": cache_path},
            now=datetime(2026, 6, 1, tzinfo=UTC),
        )
        return next(repo for repo in digest.repos if repo.name == REPO).weeks

    def styles(weeks) -> list:
        return [
            series.style
            for week in weeks
            for chart in week.charts
            for series in chart.series
            if series.key == "author:alice"
        ]

    alone, beside = widget_weeks(REPO), widget_weeks(REPO, "aaa/first")
    assert styles(alone) and styles(alone) != styles(beside)  # the charts as drawn changed colour
    assert [week.view_key for week in alone] == [week.view_key for week in beside]


VIEW_HASHES = """
import sys
from datetime import UTC, datetime
from pathlib import Path

from digest_plugin.narrate.wording import Language
from digest_plugin.publish.site_digest import build_site_digest
from digest_plugin.settings import DigestSettings

if __name__ == "__main__":
    settings = DigestSettings(data_path=Path(sys.argv[1]), fetch="never", language="en", pdf=False)
    digest = build_site_digest(settings, Language.of("en"), {"CACHE_PATH": sys.argv[2]}, now=datetime(2026, 12, 1, tzinfo=UTC))
    for repo in digest.repos:
        for week in repo.weeks:
            print(week.url, week.view_key)
"""


@pytest.mark.parametrize(
    "cache", [False, True], ids=["views hashed", "views keyed by what they are made of"]
)
def test_a_weeks_view_hashes_the_same_in_every_process(tmp_path, cache):
    """The report texts are kept by their views' hashes (or, where the analyses are remembered, by
    the hashes of what the views are made of): a hash that changed with Python's string hashing (a
    set in a view) would make every build a cold one."""
    script = tmp_path / "view_hashes.py"
    script.write_text(VIEW_HASHES, encoding="utf-8")

    def hashes(seed: str) -> str:
        cache_path = (
            str(tmp_path / f"cache-{seed}") if cache else ""
        )  # each process analyses afresh
        run = subprocess.run(
            [sys.executable, str(script), str(ROOT / "data"), cache_path],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        return run.stdout

    first = hashes("1")
    assert len(first.splitlines()) >= 32  # every week of the bundled sample's two repositories
    assert hashes("2") == first


def test_a_changed_rules_file_shows_on_the_next_build(site, tmp_path):
    assert "engine" in (site / "output/acme/widget/2026-W20/index.html").read_text()
    (site / "rules.yaml").write_text(RULES.format(module="kernel"))
    build(site)
    rebuilt = assert_same_as_fresh(site, tmp_path)
    page = rebuilt["acme/widget/2026-W20/index.html"].decode()
    assert "kernel" in page and "engine" not in page


def test_a_changed_language_shows_on_the_next_build(site, tmp_path):
    build(site, DIGEST_LANGUAGE="zh")
    rebuilt = assert_same_as_fresh(site, tmp_path, DIGEST_LANGUAGE="zh")
    assert "合入" in rebuilt["acme/widget/2026-W19/index.html"].decode()


def test_a_new_week_analyses_only_that_week(site, tmp_path, monkeypatch):
    analysed = []
    analyse_pull = repository.analyse_pull
    build(site)  # a build with nothing new in between keeps what the new week's build looks up
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: analysed.append(pull.number) or analyse_pull(pull, *args),
    )
    reports = []
    render = Template.render
    monkeypatch.setattr(
        Template,
        "render",
        lambda template, *args, **kwargs: (
            (
                reports.append(kwargs["view"].week)
                if template.name == report_text.REPORT_TEMPLATE
                else None
            )
            or render(template, *args, **kwargs)
        ),
    )
    write_store(
        site, pulls(4), fetched=datetime(2026, 6, 2, tzinfo=UTC)
    )  # a later fetch, as a new week comes with
    build(site)
    assert sorted(analysed) == [31, 32]  # the earlier weeks are remembered
    assert reports == ["2026-W22"]  # and so are their reports, though the fetch's time is another
    monkeypatch.undo()
    rebuilt = assert_same_as_fresh(site, tmp_path)
    assert "acme/widget/2026-W22/index.html" in rebuilt
    assert "2026-W22" in rebuilt["acme/widget/2026-W21/index.html"].decode()  # its "next week" link


def test_a_new_week_that_changes_what_the_vocabulary_says_of_an_earlier_name_words_only_itself(
    tmp_path, monkeypatch
):
    # "lexer" is in one of W20's PRs; two more in the new week make it a name in a quarter of all
    # PRs, which the vocabulary sets aside as generic. The vocabulary changed, so every week is
    # given its themes again, and none is analysed again; they come out the same, and so the
    # narratives and reports are kept.
    def lexer(number, monday):
        return make_pull(
            number,
            monday,
            "feat: add widget part 1",
            author="alice",
            files=[("core/cache.py", 120, 4, "modified"), ("core/lexer.py", 10, 0, "modified")],
        )

    folder = tmp_path / "site"
    earlier = [lexer(11, MONDAY + timedelta(weeks=1)) if p.number == 11 else p for p in pulls()]
    write_store(folder, earlier)
    (folder / "rules.yaml").write_text(RULES.format(module="engine"))
    build(folder)
    rethemed, reports, analysed = [], [], []
    themed_again, render, analyse_pull = (
        repository.theme_week,
        Template.render,
        repository.analyse_pull,
    )
    monkeypatch.setattr(
        repository,
        "theme_week",
        lambda week, *args: (
            rethemed.append(week.week.value.analysis.week) or themed_again(week, *args)
        ),
    )
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: analysed.append(pull.number) or analyse_pull(pull, *args),
    )
    monkeypatch.setattr(
        Template,
        "render",
        lambda template, *args, **kwargs: (
            (
                reports.append(kwargs["view"].week)
                if template.name == report_text.REPORT_TEMPLATE
                else None
            )
            or render(template, *args, **kwargs)
        ),
    )
    new_week = MONDAY + timedelta(weeks=3)
    write_store(
        folder,
        [
            *earlier,
            make_pull(31, new_week, "feat: tokens", files=[("core/lexer.py", 20, 4, "modified")]),
            make_pull(
                32,
                new_week,
                "fix: tokens",
                author="bob",
                files=[("core/lexer.py", 5, 2, "modified")],
            ),
        ],
        fetched=datetime(2026, 6, 2, tzinfo=UTC),
    )
    build(folder)
    assert rethemed == ["2026-W19", "2026-W20", "2026-W21", "2026-W22"]
    assert sorted(analysed) == [31, 32]
    assert reports == ["2026-W22"]
    monkeypatch.undo()
    assert_same_as_fresh(folder, tmp_path)


def test_an_earlier_week_changed_redoes_the_weeks_after_it(site, tmp_path, monkeypatch):
    analysed, redone = [], []
    analyse_pull, week_stage = repository.analyse_pull, repository.week_stage
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: analysed.append(pull.number) or analyse_pull(pull, *args),
    )
    monkeypatch.setattr(
        repository,
        "week_stage",
        lambda week, *args: redone.append(str(week.week)) or week_stage(week, *args),
    )
    edited = pulls()
    edited[2] = make_pull(
        11,
        MONDAY + timedelta(weeks=1),
        "feat: add widget part 1, reworded",
        author="alice",
        files=[("core/cache.py", 120, 4, "modified")],
    )
    write_store(site, edited)
    build(site)
    assert sorted(analysed) == [11, 12]  # W20's PRs: a PR's analysis reads no other week
    assert redone == [
        "2026-W20",
        "2026-W21",
    ]  # and the week after it, whose trends it feeds; not W19
    monkeypatch.undo()
    assert_same_as_fresh(site, tmp_path)


def with_reverts(records: list) -> list:
    """`records` and two reverts in 2026-W20: one names a W19 PR by its title, one a #40 by number."""
    return [
        *records,
        make_pull(
            25,
            MONDAY + timedelta(weeks=1, days=2),
            'Revert "feat: add widget part 0"',
            author="bob",
            files=[("core/cache.py", 4, 120, "modified")],
        ),
        make_pull(
            26,
            MONDAY + timedelta(weeks=1, days=3),
            "Revert the cache warm-up",
            author="bob",
            body="This reverts #40.",
            files=[("core/cache.py", 0, 30, "modified")],
        ),
    ]


def test_a_week_of_reverts_is_remembered_while_what_they_name_is_unchanged(
    site, tmp_path, monkeypatch
):
    analysed = []
    analyse_pull = repository.analyse_pull
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: analysed.append(pull.number) or analyse_pull(pull, *args),
    )
    write_store(site, with_reverts(pulls()))
    build(site)
    analysed.clear()
    write_store(site, with_reverts(pulls(4)))  # a new week: the reverts' week is not analysed again
    build(site)
    assert sorted(analysed) == [31, 32]
    analysed.clear()
    write_store(
        site,
        [
            *with_reverts(pulls(4)),
            make_pull(40, MONDAY + timedelta(weeks=3, days=4), "feat: warm the cache up"),
        ],
    )
    build(site)  # now the store has the #40 a revert named: its week is analysed again
    assert sorted(analysed) == [11, 12, 25, 26, 31, 32, 40]
    monkeypatch.undo()
    assert_same_as_fresh(site, tmp_path)
    with (site / "cache/digest-analysis/acme/widget.pickle").open("rb") as memo_file:
        _salt, remembered = pickle.load(memo_file), pickle.load(memo_file)
    week = next(
        value[0]
        for value in remembered.values()
        if isinstance(value, tuple) and getattr(value[0], "week", "") == "2026-W20"
    )
    revert = next(p for p in week.pulls if p.pull.number == 26)
    assert [(e.pulls, e.detail) for e in revert.evidence if e.fact == "reverted"] == [
        ((40,), "feat: warm the cache up")
    ]


def test_a_memo_of_other_code_is_not_used(tmp_path, caplog):
    memo = Memo("code of today")
    memo.put(memo.key("week", 1), "an analysis")
    today, tomorrow = (
        AnalysisMemos(tmp_path, "code of today"),
        AnalysisMemos(tmp_path, "code of tomorrow"),
    )
    today.save(REPO, memo)
    assert today.remembers(REPO) and today.load(REPO).get(memo.key("week", 1)) == "an analysis"
    assert not tomorrow.remembers(REPO) and tomorrow.load(REPO).get(memo.key("week", 1)) is None
    assert (
        not today.remembers("acme/other")
        and today.load("acme/other").get(memo.key("week", 1)) is None
    )
    assert caplog.records == []
    (tmp_path / "digest-analysis/acme/widget.pickle").write_bytes(b"not a pickle")
    assert not today.remembers(REPO) and today.load(REPO).get(memo.key("week", 1)) is None
    assert "widget.pickle could not be read" in caplog.text


def test_a_pdf_is_redrawn_when_its_week_or_a_template_changes_and_only_then(site, drawn):
    templates = site / "templates"  # the site's own templates, before the theme's
    templates.mkdir()

    def rebuild() -> list[str]:
        drawn.clear()
        build(site, DIGEST_PDF=True, THEME_TEMPLATES_OVERRIDES=[str(templates)])
        return list(drawn)

    assert len(rebuild()) == 3
    assert rebuild() == []
    about = (
        site / "content/pages/about.md"
    )  # a page in every page's menu, which the PDFs do not show
    about.parent.mkdir(parents=True)
    about.write_text("Title: About\n\nWho reads this.\n", encoding="utf-8")
    assert rebuild() == []
    write_store(
        site, pulls(4)
    )  # a new week: its PDF, not the one before, whose page now links to it
    redrawn = rebuild()
    assert len(redrawn) == 1 and "2026-W22" in redrawn[0]
    note = site / "content/notes/acme/widget/2026-W20.md"
    note.parent.mkdir(parents=True)
    note.write_text("Title: A note\n\nThe parser in #12 is new.\n", encoding="utf-8")
    redrawn = rebuild()
    assert len(redrawn) == 1 and "The parser in #12 is new." in redrawn[0]
    # A template that only the PDF uses changes: every PDF again, though no web page differs.
    source = (Path(pdf.__file__).parents[1] / "templates/digest_week_pdf.html").read_text(
        encoding="utf-8"
    )
    (templates / "digest_week_pdf.html").write_text(
        source.replace("</article>", "<p>Printed for the board</p></article>")
    )
    redrawn = rebuild()
    assert len(redrawn) == 4 and all("Printed for the board" in html for html in redrawn)


BUILD_WITH_PDFS = """
import sys
from pathlib import Path
from tests.site_builder import build_site
build_site(Path(sys.argv[1]), DIGEST_PDF=True)
print("weasyprint" in sys.modules)
"""


def test_pdfs_are_drawn_by_workers_once_per_finished_week_and_kept(tmp_path):
    """A cold build of five finished weeks draws their PDFs in worker processes: the build's own
    process never loads WeasyPrint. The next build leaves every PDF as it was, and a new week adds
    its own PDF and changes no other."""
    pytest.importorskip("weasyprint")
    folder = tmp_path / "site"
    assert len(pulls(5)) // 2 >= pdf.PARALLEL_FROM  # enough weeks to start the workers

    def build_in_a_process(weeks: int) -> str:
        store = Store(folder / "data")
        store.upsert(REPO, pulls(weeks))
        store.write_state(
            RepoState(repo=REPO, source="import", fetched_at=MONDAY + timedelta(weeks=weeks + 1))
        )
        run = subprocess.run(
            [sys.executable, "-c", BUILD_WITH_PDFS, str(folder)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout.splitlines()[-1]

    def kept() -> tuple[dict[str, int], dict[str, bytes]]:
        """When each cached PDF was written, and each week's PDF."""
        cached = {path.name: path.stat().st_mtime_ns for path in (folder / "cache").rglob("*.pdf")}
        return cached, {
            path.parent.name: path.read_bytes() for path in (folder / "output").rglob("digest.pdf")
        }

    assert build_in_a_process(5) == "False"
    cached, pdfs = kept()
    assert sorted(pdfs) == [f"2026-W{week}" for week in range(19, 24)] and len(cached) == 5
    assert all(pdf.startswith(b"%PDF") for pdf in pdfs.values())
    assert build_in_a_process(5) == "False"  # a warm build: nothing to draw
    assert kept() == (cached, pdfs)
    build_in_a_process(6)
    cached_after, pdfs_after = kept()
    assert len(cached_after) == 6 and cached.items() <= cached_after.items()
    assert (
        sorted(set(pdfs_after) - set(pdfs)) == ["2026-W24"]
        and {week: pdfs_after[week] for week in pdfs} == pdfs
    )


def test_a_host_settings_change_that_the_digest_does_not_show_redraws_no_pdf_and_renders_no_report(
    site, monkeypatch, drawn
):
    """A host site's settings are its own: a link in its menu, another plugin's setting, a template
    of its own theme that no week renders. The PDFs and the report texts are kept (they hashed every
    template and every setting: a LINKS entry redrew each PDF of a 326-week site, 38 to 64 s)."""
    templates = site / "templates"
    templates.mkdir()
    build(site, DIGEST_PDF=True, THEME_TEMPLATES_OVERRIDES=[str(templates)])
    assert len(drawn) == 3
    drawn.clear()
    (templates / "archives.html").write_text(
        '{% extends "base.html" %}{% block content %}Every post{% endblock %}'
    )
    forbid_rendering(monkeypatch, report_text.REPORT_TEMPLATE)
    build(
        site,
        DIGEST_PDF=True,
        THEME_TEMPLATES_OVERRIDES=[str(templates)],
        LINKS=[("Pelican", "https://getpelican.com/")],
        SITEMAP={"format": "xml"},
        SOCIAL=[("Mastodon", "https://example.org/@me")],
    )
    assert drawn == []
    assert "Every post" in (site / "output/archives/index.html").read_text(
        encoding="utf-8"
    )  # the site's own change did show
