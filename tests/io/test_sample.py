"""The bundled sample: reproducible to the byte, readable by the store, and realistic enough to
exercise every stage (quiet and docs-only weeks, bots, newcomers, reverts, breaking changes)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Author, Pull
from digest_plugin.records.state import RepoState
from digest_plugin.settings import check_timezone as timezone
from digest_plugin.store.folder import Store
from digest_plugin.store.sample import SAMPLE_REPO_NAMES, SAMPLE_SEED, generate_sample
from digest_plugin.weeks import Week, week_of, weeks_between

UTC_ZONE = timezone("UTC")
REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
BRACKET_TITLE = re.compile(
    r"^(\[BREAKING\])?\[[a-z_]+(, [a-z_]+)*\] (feat|fix|refactor|perf|test|chore|docs): \S"
)
CONVENTIONAL_TITLE = re.compile(r"^[a-z]+(\([a-z-]+\))?(!)?: \S")


def files_of(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def is_docs(path: str) -> bool:
    return (
        PurePosixPath(path).suffix in (".md", ".mdx", ".rst")
        or path.startswith("docs/")
        or "/docs/" in path
    )


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("sample")
    return root, generate_sample(Store(root))


@pytest.fixture(scope="module")
def pulls(sample) -> dict[str, list[Pull]]:
    root, repos = sample
    return {repo: Store(root).read_pulls(repo) for repo in repos}


def weekly_counts(pulls: list[Pull]) -> dict[Week, int]:
    counts = Counter(week_of(p.merged_at, UTC_ZONE) for p in pulls)
    return {week: counts.get(week, 0) for week in weeks_between(min(counts), max(counts))}


def test_same_seed_gives_byte_identical_files(sample, tmp_path):
    root, _ = sample
    generate_sample(Store(tmp_path))
    first, second = files_of(root), files_of(tmp_path)
    assert first.keys() == second.keys()
    assert all(first[name] == second[name] for name in first)


def test_another_seed_gives_other_data(sample, tmp_path):
    root, _ = sample
    generate_sample(Store(tmp_path), seed=SAMPLE_SEED + 1)
    assert files_of(root) != files_of(tmp_path)


def test_two_fictional_repositories_read_back_as_sample(sample, pulls):
    root, repos = sample
    store = Store(root)
    assert len(repos) == 2 and sorted(repos) == store.repos() == sorted(SAMPLE_REPO_NAMES)
    for repo in repos:
        state = store.read_state(repo)
        assert state.source == "sample"
        assert state.fetched_at is not None and state.complete_since < state.watermark
        assert all(state.complete_since <= p.merged_at < state.watermark for p in pulls[repo])
        assert all(
            p.source == "sample" and p.url == f"https://github.com/{repo}/pull/{p.number}"
            for p in pulls[repo]
        )
        numbers = [p.number for p in pulls[repo]]
        assert len(set(numbers)) == len(numbers)


def test_at_least_sixteen_weeks_ending_on_the_fixed_sunday(pulls):
    last_week = week_of(datetime(2026, 11, 22, 12, tzinfo=UTC), UTC_ZONE)
    for repo_pulls in pulls.values():
        weeks = weekly_counts(repo_pulls)
        assert len(weeks) >= 16
        assert max(weeks) == last_week
        assert max(p.merged_at for p in repo_pulls).date() <= date(2026, 11, 22)


def test_some_repository_has_a_quiet_week(pulls):
    assert any(0 in weekly_counts(repo_pulls).values() for repo_pulls in pulls.values())


def docs_only_weeks(pulls: list[Pull], tz) -> list[Week]:
    by_week: dict[Week, list[Pull]] = {}
    for pull in pulls:
        by_week.setdefault(week_of(pull.merged_at, tz), []).append(pull)
    return [
        week
        for week, week_pulls in by_week.items()
        if len(week_pulls) >= 3 and all(is_docs(f.path) for p in week_pulls for f in p.files)
    ]


def test_some_week_changes_only_documentation(pulls):
    assert any(docs_only_weeks(repo_pulls, UTC_ZONE) for repo_pulls in pulls.values())


@pytest.mark.parametrize(
    "zone", ["Pacific/Kiritimati", "Asia/Shanghai", "America/Los_Angeles", "Etc/GMT+12"]
)
def test_span_quiet_and_docs_only_weeks_hold_in_any_timezone(pulls, zone):
    tz = timezone(zone)
    for repo_pulls in pulls.values():
        weeks = Counter(week_of(p.merged_at, tz) for p in repo_pulls)
        assert (min(weeks), max(weeks)) == (
            week_of(min(p.merged_at for p in repo_pulls), UTC_ZONE),
            week_of(max(p.merged_at for p in repo_pulls), UTC_ZONE),
        )
    utc_quiet = {
        w for repo_pulls in pulls.values() for w, n in weekly_counts(repo_pulls).items() if n == 0
    }
    local_quiet = {
        w
        for repo_pulls in pulls.values()
        for w in weeks_between(
            min(week_of(p.merged_at, tz) for p in repo_pulls),
            max(week_of(p.merged_at, tz) for p in repo_pulls),
        )
        if not any(week_of(p.merged_at, tz) == w for p in repo_pulls)
    }
    assert utc_quiet and local_quiet == utc_quiet
    for repo_pulls in pulls.values():
        for week in docs_only_weeks(repo_pulls, UTC_ZONE):
            assert week in docs_only_weeks(repo_pulls, tz)


def test_bots_bump_dependency_files(pulls):
    bots = [p for repo_pulls in pulls.values() for p in repo_pulls if p.author.type == "Bot"]
    assert {"dependabot[bot]", "renovate[bot]"} <= {p.author.login for p in bots}
    assert all(p.author.login.endswith("[bot]") for p in bots)
    bumps = [p for p in bots if "dependencies" in p.labels]
    assert len(bumps) >= 10
    bumped = {PurePosixPath(f.path).name for p in bumps for f in p.files}
    assert {"package.json", "pnpm-lock.yaml"} <= bumped and bumped & {
        "requirements.txt",
        "requirements-dev.txt",
    }
    assert not any(
        p.author.type == "Bot"
        for repo_pulls in pulls.values()
        for p in repo_pulls
        if not p.author.login.endswith("[bot]")
    )


def test_first_time_contributors_are_first_once(pulls):
    for repo_pulls in pulls.values():
        first_timers = [p for p in repo_pulls if p.author.association == "FIRST_TIME_CONTRIBUTOR"]
        assert first_timers
        logins = [p.author.login for p in first_timers]
        assert len(logins) == len(set(logins))
        for pull in first_timers:
            theirs = [p for p in repo_pulls if p.author.login == pull.author.login]
            assert min(theirs, key=lambda p: p.created_at) == pull


def test_a_revert_names_an_earlier_pull_and_undoes_its_files(pulls):
    reverts = 0
    for repo_pulls in pulls.values():
        by_number = {p.number: p for p in repo_pulls}
        for pull in repo_pulls:
            match = re.match(r'^Revert "(.*)"$', pull.title)
            if not match:
                continue
            reverted = by_number[int(re.search(r"This reverts #(\d+)", pull.body)[1])]
            assert reverted.title == match[1]
            assert reverted.merged_at < pull.created_at < pull.merged_at
            assert (pull.additions, pull.deletions) == (reverted.deletions, reverted.additions)
            reverts += 1
    assert reverts >= 1


def test_breaking_markers_in_both_title_conventions(pulls):
    fernwheel, glassfinch = pulls["quillmoss/fernwheel"], pulls["brackenforge/glassfinch"]
    assert any(p.title.startswith("[BREAKING][") for p in fernwheel)
    assert any(re.match(r"^[a-z]+(\([a-z-]+\))?!: ", p.title) for p in glassfinch)
    assert any("breaking-change" in p.labels for p in fernwheel if p.title.startswith("[BREAKING]"))


def test_title_conventions(pulls):
    def people(repo):
        return [
            p
            for p in pulls[repo]
            if p.author.type == "User"
            and "release" not in p.labels
            and not p.title.startswith("Revert")
        ]

    assert all(BRACKET_TITLE.match(p.title) for p in people("quillmoss/fernwheel"))
    glassfinch = people("brackenforge/glassfinch")
    conventional = [p for p in glassfinch if CONVENTIONAL_TITLE.match(p.title)]
    assert len(conventional) >= 0.7 * len(glassfinch)
    assert any(not CONVENTIONAL_TITLE.match(p.title) for p in glassfinch)  # some plain titles too
    assert any(re.match(r"^[a-z]+: ", p.title) for p in conventional)  # and some without a scope


def test_security_fix_deprecation_and_large_refactors(pulls):
    for repo_pulls in pulls.values():
        assert any("security" in p.labels for p in repo_pulls)
        assert any("deprecat" in p.title.lower() and "deprecation" in p.labels for p in repo_pulls)
        assert any(p.changed_files >= 40 and p.additions + p.deletions >= 2000 for p in repo_pulls)


def test_bodies_follow_templates(pulls):
    bodies = [p.body for repo_pulls in pulls.values() for p in repo_pulls]
    templated = [b for b in bodies if "## What does this PR do?" in b]
    assert len(templated) >= len(bodies) / 2
    assert all(
        "## Checklist" in b and re.search(r"^- \[[ x]\] ", b, re.M) and "<!--" in b
        for b in templated
    )
    assert any("- [ ] " in b for b in templated) and any("- [x] " in b for b in templated)
    assert any(re.search(r"Closes #\d+", b) for b in bodies)


def test_file_totals_match_the_pull_totals(pulls):
    for repo_pulls in pulls.values():
        for pull in repo_pulls:
            assert not pull.files_truncated
            assert pull.changed_files == len(pull.files) == len({f.path for f in pull.files})
            assert sum(f.additions for f in pull.files) == pull.additions
            assert sum(f.deletions for f in pull.files) == pull.deletions
            assert all(f.status in ("added", "modified", "removed", "renamed") for f in pull.files)
            assert all(f.deletions == 0 for f in pull.files if f.status == "added")


def test_created_before_merged_and_activity_counts(pulls):
    for repo_pulls in pulls.values():
        assert all(p.created_at < p.merged_at for p in repo_pulls)
        assert all(p.comments >= 0 and p.reviews >= 1 and p.commits >= 1 for p in repo_pulls)
        assert all(p.author.login not in p.reviewers for p in repo_pulls)
        waits = sorted((p.merged_at - p.created_at).total_seconds() / 3600 for p in repo_pulls)
        assert waits[0] < 6 and waits[-1] > 48  # hours to days


def test_merges_favour_working_days(pulls):
    merged = [p.merged_at for repo_pulls in pulls.values() for p in repo_pulls]
    weekend = sum(moment.weekday() >= 5 for moment in merged)
    assert weekend < 0.2 * len(merged)
    assert len({moment.hour for moment in merged}) >= 20  # people merge from many timezones


def test_regenerating_replaces_earlier_sample_data(tmp_path):
    store = Store(tmp_path)
    generate_sample(store)
    stray = Pull(
        number=99999,
        title="stray",
        url="https://github.com/quillmoss/fernwheel/pull/99999",
        author=Author("someone"),
        merged_at=datetime(2026, 12, 1, tzinfo=UTC),
        source="sample",
    )
    store.upsert("quillmoss/fernwheel", [stray])
    generate_sample(store)
    assert 99999 not in {p.number for p in store.read_pulls("quillmoss/fernwheel")}
    assert not (tmp_path / "quillmoss/fernwheel/2026-12.jsonl").exists()


def test_never_overwrites_a_repository_from_another_source(tmp_path):
    store = Store(tmp_path)
    store.write_state(RepoState("brackenforge/glassfinch", source="import"))
    before = files_of(tmp_path)
    with pytest.raises(DigestError, match="brackenforge/glassfinch"):
        generate_sample(store)
    assert files_of(tmp_path) == before


def test_committed_data_folder_is_the_current_sample(sample):
    committed = REPOSITORY_ROOT / "data"
    root, repos = sample
    if not all((committed / repo / "state.json").exists() for repo in repos):
        pytest.skip("data/ holds no generated sample yet")
    for repo in repos:
        assert files_of(committed / repo) == files_of(root / repo), (
            f"data/{repo} is stale: run `repo-digest sample`"
        )
