"""Quiet weeks (nothing merged) have no page, no feed entry and no article: the repository page
lists them, a line for each run of them, and the pages around them link past them. Checked on the
real history of pelican, where most weeks since 2011 are quiet."""

from __future__ import annotations

from itertools import pairwise

import pytest

from digest_plugin.cli import main
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.site_digest import build_site_digest
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from digest_plugin.weeks import Week, weeks_between
from tests.conftest import real_data

REPO = "getpelican/pelican"
pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def pelican_repo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pelican")
    (folder / "conf.py").write_text(
        f"DIGEST_DATA_PATH = {str(folder / 'data')!r}\nDIGEST_PDF = False\n"
    )
    export = real_data("getpelican__pelican.pulls.jsonl.gz")
    assert (
        main(["import", str(export), "--repo", REPO, "--settings", str(folder / "conf.py")]) == 0
    )  # as a user imports it
    settings = DigestSettings.from_pelican(
        {"DIGEST_DATA_PATH": str(folder / "data"), "DIGEST_REPOS": [REPO]}, folder
    )
    store = Store(settings.data_path)
    (repo,) = build_site_digest(
        settings, Language.of("en"), {"SITEURL": ""}, now=store.data_time()
    ).repos
    return repo


def test_every_week_page_of_pelican_has_merged_pull_requests_and_the_quiet_ones_are_listed(
    pelican_repo,
):
    pages, quiet = pelican_repo.weeks, pelican_repo.quiet
    assert pages and all(page.analysis.stats.merged_count > 0 for page in pages)
    listed = {
        str(week)
        for run in quiet
        for week in weeks_between(Week.parse(run.first), Week.parse(run.last))
    }
    counts = dict(pelican_repo.merged_by_week)
    assert listed == {week for week, merged in counts.items() if merged == 0} and listed.isdisjoint(
        p.week for p in pages
    )
    assert len(listed) > len(pages)  # most of pelican's weeks since 2011 are quiet
    assert sum(counts.values()) == sum(
        page.analysis.stats.merged_count for page in pages
    )  # no PR lost with them
    for run in quiet:  # one line a run: the weeks on either side of it are not quiet
        assert (
            counts.get(str(Week.parse(run.first).previous()), 1) > 0
            and counts.get(str(Week.parse(run.last).next()), 1) > 0
        )
    # The previous and next links go from page to page, past the quiet weeks between them.
    for before, after in pairwise(pages):
        assert before.next_week == after.week and after.previous_week == before.week
    rows = (
        pelican_repo.listing
    )  # the repository page's list: newest first, a page or a run of quiet weeks each
    starts = [row.first if row.quiet else row.week for row in rows]
    assert len(rows) == len(pages) + len(quiet) and starts == sorted(starts, reverse=True)
