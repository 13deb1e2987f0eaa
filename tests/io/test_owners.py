"""`owner/*` in DIGEST_REPOS: resolved against the local GitHub at fetch time, recorded, published."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.fetch import fetch_repos
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.site_digest import build_site_digest
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import by_owner, expand_repos, owner_of
from tests.github_server import GitHubServer, handmade_pull
from tests.github_server.expect import quick_options

START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _pulls(repo: str, count: int) -> list[dict]:
    return [handmade_pull(10 + i, START + timedelta(hours=7 * i), repo=repo) for i in range(count)]


@pytest.fixture
def github():
    # 105 repositories of octo-org: more than one page of the listing (100 a page)
    repos = {
        "octo-org/widgets": _pulls("octo-org/widgets", 4),
        "octo-org/gadgets": _pulls("octo-org/gadgets", 3),
        "someone-else/widgets": _pulls("someone-else/widgets", 2),
    }
    quiet = {f"octo-org/quiet-{i:03d}": {} for i in range(100)}
    fields = {**quiet, "octo-org/attic": {"archived": True}, "octo-org/secret": {"private": True}}
    with GitHubServer(repos, repo_fields=fields) as server:
        yield server


def test_owner_star_is_every_public_unarchived_repository_recorded_in_the_store(github, tmp_path):
    store = Store(tmp_path / "data")
    settings = DigestSettings.from_pelican(
        {"DIGEST_REPOS": ["octo-org/*"], "DIGEST_DATA_PATH": str(store.root)}, tmp_path
    )
    assert settings.repos == ("octo-org/*",)
    report = fetch_repos(
        store,
        settings,
        settings.repos,
        since=date(2026, 3, 1),
        until=date(2026, 3, 8),
        progress=False,
        options=quick_options(github),
    )
    fetched = {r.repo for r in report.repos}
    assert len(fetched) == 102 and {"octo-org/widgets", "octo-org/gadgets"} <= fetched
    assert not fetched & {"octo-org/attic", "octo-org/secret", "someone-else/widgets"}
    assert github.count("rest") >= 2  # both pages of the listing were read
    assert expand_repos(settings.repos, store) == sorted(fetched)
    assert (store.root / "octo-org/owner.json").is_file()
    # The build publishes what the fetch recorded, grouped by owner for the index.
    digest = build_site_digest(
        settings,
        Language.of(settings.language),
        {"SITEURL": ""},
        now=datetime(2026, 3, 9, tzinfo=UTC),
    )
    published = [r.name for r in digest.repos]
    assert "octo-org/widgets" in published and "octo-org/attic" not in published
    assert list(by_owner(published)) == ["octo-org"]


def test_an_owner_with_nothing_public_is_one_clear_error(github, tmp_path):
    store = Store(tmp_path / "data")
    with pytest.raises(DigestError, match="no public, non-archived repository of nobody-here"):
        fetch_repos(
            store,
            DigestSettings(),
            ["nobody-here/*"],
            since=date(2026, 3, 1),
            progress=False,
            options=quick_options(github),
        )


def test_only_owner_star_is_a_pattern():
    assert owner_of("octo-org/*") == "octo-org"
    assert (
        owner_of("octo-org/widgets") is None
        and owner_of("*/*") is None
        and owner_of("../*") is None
    )
    with pytest.raises(DigestError, match="is not a repository name"):
        DigestSettings.from_pelican({"DIGEST_REPOS": ["octo-org/wid*"]}, ".")
    assert by_owner(["b/x", "a/y", "b/z"]) == {"b": ["b/x", "b/z"], "a": ["a/y"]}


def test_the_index_groups_repositories_by_owner(tmp_path):
    from bs4 import BeautifulSoup

    from digest_plugin.records.state import RepoState
    from tests.conftest import make_pull
    from tests.site_builder import build_site

    store = Store(tmp_path / "data")
    for repo in ("zeta-org/app", "acme/widget", "acme/gadget"):
        store.upsert(
            repo, [make_pull(1, START, "feat: one change", url=f"https://github.com/{repo}/pull/1")]
        )
        store.write_state(
            RepoState(repo=repo, source="import", fetched_at=START + timedelta(days=7))
        )
    index = BeautifulSoup(
        (build_site(tmp_path, DIGEST_REPOS=["zeta-org/app", "acme/*"]) / "index.html").read_text(
            encoding="utf-8"
        ),
        "html.parser",
    )
    assert [h2.text for h2 in index.select("h2.owner")] == [
        "zeta-org",
        "acme",
    ]  # in DIGEST_REPOS order
    cards = {
        h.text: [a.text for a in h.find_next_sibling("section").select(".card h3 a")]
        for h in index.select("h2.owner")
    }
    assert cards == {"zeta-org": ["zeta-org/app"], "acme": ["acme/gadget", "acme/widget"]}
