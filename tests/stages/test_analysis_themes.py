"""Themes: the strands that tell a week, named as the repository names them, learned from its history."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.themes import series_title, vocabulary
from digest_plugin.build.cache import Memo, Stages
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import FileChange
from digest_plugin.settings import DigestSettings
from tests.analysis_fixtures import load_rules, real_weeks
from tests.conftest import make_pull

NOW = datetime(2026, 11, 30, tzinfo=UTC)
MONDAY = datetime(2026, 3, 2, 10, tzinfo=UTC)  # a Monday; ten weeks follow
CORE = FileChange("widget/core.py", 10, 2)


def history(
    last_week,
    usual=(
        "[trainer] fix: step {n}",
        "[worker] feat: pool {n}",
        "[docs] fix: page {n}",
        "[api] fix: call {n}",
    ),
    sizes=None,
    earlier=(),
    raw=False,
):
    """Nine ordinary weeks of `usual` titles (and `earlier` PRs: (title, files) spread over them), then
    a last week of `last_week`: titles, or (title, files) pairs, with the lines of `sizes` where given;
    analysed, or with `raw` the PRs themselves."""
    pulls, number = [], 1
    extra = list(earlier)
    for week in range(9):
        for index in range(9):
            title, files = usual[index % len(usual)], [CORE]
            if extra and index == 0:
                title, files = extra.pop(0)
            pulls.append(
                make_pull(
                    number,
                    MONDAY + timedelta(weeks=week, hours=index),
                    title.format(n=number),
                    files=list(files),
                )
            )
            number += 1
    for index, item in enumerate(last_week):
        title, files = (
            item
            if isinstance(item, tuple)
            else (item, [FileChange("widget/core.py", sizes[index] if sizes else 10, 2)])
        )
        pulls.append(
            make_pull(
                number,
                MONDAY + timedelta(weeks=9, hours=index),
                title.format(n=number),
                files=list(files),
            )
        )
        number += 1
    return (
        pulls
        if raw
        else analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)
    )


def learned_from(earlier):
    """The vocabulary of nine ordinary weeks with the `earlier` PRs, (title, files), among them."""
    pulls = history(["[trainer] fix: step {n}"], earlier=earlier, raw=True)
    return vocabulary(pulls, load_rules(repo="acme/widget"))


def test_a_platform_named_by_its_chip_and_its_vendor_is_one_strand():
    """Across the history, titles say "Ascend NPU" together, or one of the two: the names go together
    far more often than chance, so the week's PRs that say either are one theme."""
    earlier = [
        (f"[{scope}] fix: {what} on Ascend NPU {{n}}", [CORE])
        for scope, what in (
            ("trainer", "kernels"),
            ("worker", "hang"),
            ("rollout", "memory"),
            ("ci", "a runner"),
            ("api", "graph mode"),
            ("trainer", "streams"),
        )
    ] + [("[worker] fix: NPU stream {n}", [CORE]), ("[trainer] fix: NPU memory {n}", [CORE])]
    week = history(
        [
            ("[trainer] feat: NPU support for the optimizer {n}", [CORE]),
            ("[worker] fix: hang on Ascend in pools {n}", [CORE]),
            ("[rollout] feat: faster Ascend kernels {n}", [CORE]),
            "[trainer] fix: step {n}",
            "[worker] feat: pool {n}",
            "[docs] fix: page {n}",
            "[api] fix: call {n}",
            "[trainer] fix: step {n}",
            "[docs] fix: page {n}",
        ],
        earlier=earlier,
    )[-1]
    first = min(p.pull.number for p in week.pulls)
    platform = [
        t for t in week.themes if set(t.name.split("/")) & {"ascend", "npu"}
    ]  # one strand, by the names it goes by
    assert (
        len(platform) == 1
        and sorted(platform[0].pulls) == [first, first + 1, first + 2]
        and platform[0].trend == "rising"
    )


def test_names_that_only_share_folders_or_file_names_are_two_strands():
    """`ascend/` holds files of PRs titled "NPU …" and of PRs titled "Ascend …", `run_qwen_grpo.sh`
    names a model and an algorithm: where files sit ties no names together, or a PR that says GRPO
    would be put in a Qwen theme."""
    ascend = [FileChange("widget/ascend/kernels.py", 20, 2)]
    earlier = [
        ("[trainer] feat: NPU kernels for step {n}", ascend),
        ("[rollout] fix: memory on Ascend {n}", ascend),
    ] * 4
    learned = learned_from(earlier)
    assert learned.strand_of("npu") == "npu" and learned.strand_of("ascend") == "ascend"


def test_a_title_word_is_a_subject_only_where_the_title_writes_it_as_a_name():
    """ruff 2026-W15: "Add support for functional `Enum(...)` syntax" is Enum work; "Add a
    `SupportedPythonVersion` enum" and "Compact retained definition kinds" use English words."""
    from digest_plugin.analysis.themes import written_as_names

    assert written_as_names("Add support for functional `Enum(...)` syntax") == ("Enum",)
    assert written_as_names("Add a `SupportedPythonVersion` enum") == ("SupportedPythonVersion",)
    assert written_as_names("Compact retained definition kinds") == ()
    assert written_as_names("NPU kernels for Qwen3 on Ascend via fully_async") == (
        "NPU",
        "Qwen3",
        "Ascend",
        "fully_async",
    )
    titles = [
        "[core] feat: functional `Enum(...)` {n}",
        "[core] fix: `Enum` members {n}",
        "[core] feat: aliases of Enum {n}",
        "[core] feat: a `VersionTable` enum {n}",
        "[core] fix: enum filters {n}",
    ]
    week = history(
        titles + ["[trainer] fix: step {n}", "[docs] fix: page {n}", "[api] fix: call {n}"] * 2
    )[-1]
    first = min(p.pull.number for p in week.pulls)
    enum = next(t for t in week.themes if t.name == "enum")
    assert sorted(enum.pulls) == [first, first + 1, first + 2]


def test_a_verb_names_no_theme_however_many_prs_do_it():
    """ruff 2026-W06: 24 PRs "Stabilize …": what was done, not to what."""
    week = history(
        ["[core] feat: Stabilize `{n}` rule"] * 3
        + ["[api] fix: Stabilize the `{n}` fix"] * 2
        + ["[trainer] fix: step {n}", "[docs] fix: page {n}", "[worker] feat: pool {n}"]
    )[-1]
    assert not {"stabilize", "stabilise"} & {t.name for t in week.themes}


def test_generic_words_never_name_a_theme():
    week = history(
        [
            "[trainer] feat: custom argument for the tool {n}",
            "[worker] fix: custom union tool {n}",
            "[rollout] feat: configuring the argument of a tool {n}",
            "[trainer] fix: step {n}",
            "[worker] feat: pool {n}",
            "[docs] fix: page {n}",
            "[api] fix: call {n}",
            "[trainer] fix: step {n}",
            "[docs] fix: page {n}",
        ]
    )[-1]
    assert {t.name for t in week.themes}.isdisjoint(
        {"custom", "argument", "tool", "union", "configuring"}
    )


def test_a_steady_strand_that_is_much_of_the_week_is_a_theme_that_continued():
    week = history(
        ["[trainer] fix: step {n}"] * 6 + ["[cache] feat: tier {n}"] * 3,
        usual=("[trainer] fix: step {n}",) * 2 + ("[docs] fix: page {n}",),
    )[-1]
    trainer = next(t for t in week.themes if t.name == "trainer")
    assert trainer.share > 0.6 and trainer.baseline_share > 0.5 and trainer.trend == "continued"
    cache = next(t for t in week.themes if t.name == "cache")
    assert cache.trend == "new" and cache.baseline_share == 0.0


def test_a_usual_week_has_no_theme_and_names_with_the_same_prs_are_one_theme():
    assert (
        history(
            [
                "[trainer] fix: step {n}",
                "[worker] feat: pool {n}",
                "[docs] fix: page {n}",
                "[api] fix: call {n}",
            ]
            * 2
        )[-1].themes
        == ()
    )
    week = history(
        ["[sglang] feat: sglang rollout {n}"] * 4
        + ["[trainer] fix: step {n}", "[worker] feat: pool {n}", "[api] fix: call {n}"] * 2
    )[-1]
    assert [t.name for t in week.themes] == ["sglang"]  # the scope and the title word, one theme


def test_rules_topics_name_and_merge_subjects():
    pulls = []
    for index, title in enumerate(
        [
            "feat: faster MoE routing",
            "fix: expert parallel hang",
            "feat: moe gate",
            "fix: step",
            "fix: page",
            "fix: pool",
        ]
    ):
        pulls.append(make_pull(index + 1, MONDAY + timedelta(hours=index), title, files=[CORE]))
    settings = analysis_options(
        DigestSettings.from_pelican(
            {"DIGEST_RULES": {"topics": {"mixture-of-experts": r"\b(moe|expert\w*)\b"}}}, "."
        )
    )
    (week,) = analyse_repo("acme/widget", pulls, None, settings, NOW)
    assert sorted(next(t for t in week.themes if t.name == "mixture-of-experts").pulls) == [1, 2, 3]


def test_themes_are_ranked_by_their_share_of_the_weeks_prs_and_lines():
    """Two new strands of three PRs each: the one with twenty times the lines leads."""
    titles = (
        ["[cache] feat: tier {n}"] * 3
        + ["[queue] fix: field {n}"] * 3
        + ["[trainer] fix: step {n}"] * 3
    )
    week = history(titles, sizes=[10, 10, 10, 200, 200, 200, 10, 10, 10])[-1]
    assert [t.name for t in week.themes][:2] == ["queue", "cache"]
    queue, cache = week.themes[:2]
    assert (
        queue.share == cache.share
        and queue.line_share == round(606 / (606 + 6 * 12), 3) > cache.line_share
    )


def test_names_spelt_with_a_hyphen_or_an_underscore_are_one_strand():
    """ruff 2025-W04 had "red-knot" (its titles' scope) and "red_knot" (its crate) as two themes of
    one subject: a name joined one way or the other is one strand, under the spelling declared most."""
    crate = [FileChange("crates/red_knot/src/lib.rs", 20, 2)]
    earlier = [
        ("[red-knot] fix: narrowing {n}", crate),
        ("Speed up red_knot startup {n}", crate),
    ] * 4
    learned = learned_from(earlier)
    assert learned.strand_of("red_knot") == learned.strand_of("red-knot") == "red-knot"


def test_plural_and_singular_titles_are_one_subject():
    from digest_plugin.analysis.themes import singular

    assert [
        singular(w)
        for w in (
            "patterns",
            "matches",
            "crates",
            "class",
            "alias",
            "status",
            "analysis",
            "dependencies",
            "ty",
        )
    ] == ["pattern", "match", "crate", "class", "alias", "status", "analysis", "dependencies", "ty"]
    week = history(
        [
            "[core] feat: exhaustive `match` Patterns {n}",
            "[io] fix: class Pattern {n}",
            "[api] feat: mapping Patterns {n}",
        ]
        * 2
        + ["[trainer] fix: step {n}"] * 3
    )[-1]
    assert "pattern" in {t.name for t in week.themes}


# -- the real repositories ------------------------------------------------------------------


def test_neither_a_folder_nor_a_word_of_the_body_puts_a_pr_in_a_theme_its_title_does():
    """Four PRs say "Ascend"; a fifth only sits in `ascend/` beside them, a sixth sits there and its
    description mentions Ascend (as verl's platform layer mentions transformers): the theme holds the
    four, what their titles say they are about."""
    ascend = [FileChange("widget/ascend/index.py", 20, 2)]
    earlier = [
        (f"[{scope}] feat: an Ascend runner {{n}}", ascend)
        for scope in ("trainer", "worker", "api", "docs")
    ]
    last = [
        (title, [CORE])
        for title in (
            "[trainer] fix: hang on Ascend {n}",
            "[worker] feat: kernels on Ascend {n}",
            "[api] fix: memory of the Ascend pools {n}",
            "[docs] feat: run the optimizer on Ascend {n}",
        )
    ]
    last += [
        ("[docs] fix: update the listing {n}", ascend),
        ("[api] fix: update the listing {n}", ascend),
    ]
    last += [
        "[trainer] fix: step {n}",
        "[worker] feat: pool {n}",
        "[docs] fix: page {n}",
        "[api] fix: call {n}",
    ]
    pulls = history(last, earlier=earlier, raw=True)
    first = len(pulls) - len(last)
    pulls[first + 5] = replace(
        pulls[first + 5],
        body="### What does this PR do?\n\nThe Ascend index lists the new NPU guide.",
    )
    week = analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)[-1]
    (theme,) = [t for t in week.themes if "ascend" in t.name]
    numbers = [p.number for p in pulls[first:]]
    assert sorted(theme.pulls) == numbers[:4]


def test_a_word_that_only_goes_along_with_a_strand_puts_no_pr_in_it():
    """ "dummy" was only ever written beside "rollout" (dummy rollout weights): the history merges it
    into rollout's strand, but a PR that says "dummy loader" says nothing of rollout."""
    earlier = [("[worker] feat: load `dummy` `rollout` weights {n}", [CORE])] * 3 + [
        ("[worker] fix: a `rollout` step {n}", [CORE])
    ]
    last = [
        "[trainer] feat: faster `rollout` {n}",
        "[api] fix: hang in `rollout` {n}",
        "[docs] feat: cache of `rollout` {n}",
        "[worker] fix: a `dummy` loader {n}",
        "[trainer] fix: step {n}",
        "[docs] fix: page {n}",
        "[api] fix: call {n}",
    ]
    week = history(last, earlier=earlier)[-1]
    first = min(p.pull.number for p in week.pulls)
    rollout = next(t for t in week.themes if t.name == "rollout")
    assert sorted(rollout.pulls) == [first, first + 1, first + 2]


def test_a_theme_named_as_a_module_counts_what_the_module_table_counts():
    """Six `[trainer]` PRs; four more say "trainer" in titles of other modules (launch scripts of a
    GRPO trainer): the module table says trainer 6, and so does its theme."""
    last = (
        ["[trainer] feat: checkpoint {n}"] * 6
        + ["[example] feat: grpo trainer launch script {n}"] * 4
        + ["[api] fix: call {n}"] * 2
    )
    week = history(
        last, usual=("[worker] feat: pool {n}", "[docs] fix: page {n}", "[api] fix: call {n}")
    )[-1]
    trainer = next(t for t in week.themes if t.name == "trainer")
    assert len(trainer.pulls) == dict(week.stats.modules)["trainer"] == 6


def test_a_sweep_across_the_repository_makes_no_modules_theme():
    """ruff 2026-W01's "ruff_workspace (3 PRs)": a new rule with one option there, a docs change, and
    "Run `cargo sort`", which edited 31 crates' Cargo.toml. Two PRs of a module and a sweep through
    it are no story of that module."""
    usual = ("fix step {n}", "add pool {n}", "fix call {n}")
    store = [FileChange("widget/storage/disk.py", 30, 5)]
    sweep = [FileChange(f"widget/part{i}/setup.cfg", 1, 1) for i in range(30)]
    sweep.append(FileChange("widget/storage/setup.cfg", 1, 1))
    last = [("add disk cache {n}", store), ("fix disk flush {n}", store)] + [
        (title, [CORE]) for title in ("fix call {n}",) * 6
    ]

    def modules_themes(pulls):
        week = history(pulls, usual=usual)[-1]
        return [t.name for t in week.themes if t.source == "module"]

    assert "storage" not in modules_themes([*last, ("sort the setup files {n}", sweep)])
    assert "storage" in modules_themes([*last, ("add disk index {n}", store)])


def test_prs_that_change_another_module_most_make_no_modules_theme():
    """ruff 2025-W09's "ruff_wasm (6 PRs)": two playground PRs, two releases that changed its
    Cargo.toml's version line, and two PRs of other crates that added a line there."""
    usual = ("fix step {n}", "add pool {n}", "fix call {n}")
    store = [FileChange("widget/storage/disk.py", 30, 5)]
    touched = [FileChange("widget/engine/run.py", 200, 20), FileChange("widget/storage/x.py", 1, 0)]
    last = [("add disk cache {n}", store), ("fix disk flush {n}", store)]
    last += [(f"speed up the engine {{n}} {i}", touched) for i in range(2)]
    last += [(title, [CORE]) for title in ("fix call {n}",) * 6]

    def modules_themes(pulls):
        week = history(pulls, usual=usual)[-1]
        return [t.name for t in week.themes if t.source == "module"]

    assert "storage" not in modules_themes(last)
    assert "storage" in modules_themes([*last, ("add disk index {n}", store)])


def test_a_modules_share_of_the_weeks_lines_is_that_of_the_prs_working_mainly_in_it():
    """ruff 2025-W03: "formatter … its PRs changed 50% of the week's lines of core code", half of
    them #15544's 10,000 lines of generated AST code, which touched the formatter by one line."""
    usual = ("fix step {n}", "add pool {n}", "fix call {n}")
    store = [FileChange("widget/storage/disk.py", 30, 5)]
    generated = [
        FileChange("widget/ast/nodes.py", 5000, 4000),
        FileChange("widget/storage/x.py", 1, 0),
    ]
    last = [(f"add disk cache {{n}} {i}", store) for i in range(3)]
    last += [("generate the node boilerplate {n}", generated)]
    last += [(title, [CORE]) for title in ("fix call {n}",) * 6]
    week = history(last, usual=usual)[-1]
    storage = next(t for t in week.themes if t.name == "storage")
    assert len(storage.pulls) == dict(week.stats.modules)["storage"] == 4  # as the table counts
    core = 3 * 35 + 9001 + 6 * CORE.additions + 6 * CORE.deletions
    assert storage.line_share == round(3 * 35 / core, 3)


def test_a_modules_theme_with_a_bots_pr_counts_it_as_the_table_does_and_says_a_share_of_all_prs():
    """A bot's `[trainer]` bump sits in the module table's trainer row: the theme counts it too, and
    says its share of all the week's PRs, not of the people's."""
    from digest_plugin.narrate import narrate
    from digest_plugin.narrate.wording import Language
    from digest_plugin.records.pull import Author

    last = (
        ["[trainer] feat: checkpoint {n}"] * 5
        + ["[trainer] chore: bump the scheduler {n}"]
        + ["[api] fix: call {n}"] * 3
    )
    pulls = history(
        last,
        usual=("[worker] feat: pool {n}", "[docs] fix: page {n}", "[api] fix: call {n}"),
        raw=True,
    )
    bump = len(pulls) - 4
    pulls[bump] = replace(pulls[bump], author=Author("renovate[bot]", "Bot"))
    weeks = analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)
    trainer = next(t for t in weeks[-1].themes if t.name == "trainer")
    assert (
        pulls[bump].number in trainer.pulls
        and len(trainer.pulls) == dict(weeks[-1].stats.modules)["trainer"] == 6
    )
    (line,) = [
        t for t in narrate(weeks[-1], weeks[:-1], Language.of("en")).themes if t.name == "trainer"
    ]
    assert "6 of the week's 9 PRs (67%)" in line.sentence.text


def test_a_title_word_always_written_in_one_phrase_is_named_by_the_phrase():
    """ "Markdown" in four titles, each time as "Markdown tests": the theme is the Markdown tests."""
    last = [
        "[ty] feat: move hover checks to Markdown tests {n}",
        "[ty] fix: flaky Markdown tests {n}",
        "[ty] feat: more Markdown tests for calls {n}",
        "[ty] feat: port unions to Markdown tests {n}",
    ] + ["[api] fix: call {n}"] * 4
    week = history(
        last,
        usual=(
            "[worker] feat: pool {n}",
            "[docs] fix: page {n}",
            "[api] fix: call {n}",
            "[ty] fix: narrowing {n}",
        ),
    )[-1]
    names = [t.name for t in week.themes]
    assert "markdown test" in names and "markdown" not in names


@pytest.mark.realdata
def test_the_themes_issue_39_found_wrong_hold_only_prs_whose_titles_say_them():
    """ruff 2025-W30 named four language-server PRs "language"; verl 2026-W21 counted 12 PRs under
    "trainer" (launch scripts under examples/grpo_trainer) beside a module table saying 4; verl
    2026-W23's Ascend theme held #6622, an index of AMD ROCm docs, its "transformer" theme a platform
    layer (#6086) and a trl import (#6539) whose bodies or folders mention transformers; ruff
    2026-W15's "enum" held a Rust enum (#24412) and enum filters (#24451); ruff 2026-W23 had a theme
    named "retained", an adjective."""
    ruff = {w.week: w for w in real_weeks("astral-sh/ruff")}
    assert "language" not in {t.name for t in ruff["2025-W30"].themes}
    assert all(
        24412 not in t.pulls and 24451 not in t.pulls
        for t in ruff["2026-W15"].themes
        if t.name != "ty"
    )
    assert "retained" not in {t.name for t in ruff["2026-W23"].themes}
    verl = {w.week: w for w in real_weeks("verl-project/verl")}
    modules = dict(verl["2026-W21"].stats.modules)
    assert all(
        len(t.pulls) == modules[t.name] for t in verl["2026-W21"].themes if t.name in modules
    )
    assert all(n not in t.pulls for t in verl["2026-W23"].themes for n in (6622, 6617, 6086, 6539))
    (ascend,) = [t for t in verl["2026-W23"].themes if "ascend" in t.name]
    titles = {p.pull.number: p.pull.title for p in verl["2026-W23"].pulls}
    assert all("ascend" in titles[n].lower() for n in ascend.pulls) and {6562, 6535, 6582} <= set(
        ascend.pulls
    )


@pytest.mark.realdata
def test_no_theme_of_the_three_repositories_is_a_generic_word():
    generic = {
        "tool",
        "tools",
        "custom",
        "argument",
        "union",
        "configuring",
        "pep",
        "support",
        "fix",
        "update",
        "misc",
        "utils",
        "none",
        "inside",
        "creating",
        "handling",
        "problem",
        "special",
        "source",
        "cfg",
        "rst",
        "aliase",
    }
    for repo in ("verl-project/verl", "astral-sh/ruff", "getpelican/pelican"):
        names = Counter(t.name for w in real_weeks(repo) for t in w.themes)
        assert not generic & set(names), (repo, generic & set(names))


@pytest.mark.realdata
def test_a_steady_strand_of_most_of_ruffs_weeks_is_said_to_continue():
    busy = [w for w in real_weeks("astral-sh/ruff") if w.stats.merged_count >= 60]
    ty = [next((t for t in w.themes if t.name == "ty"), None) for w in busy[-20:]]
    assert (
        sum(t is not None for t in ty) >= 15
    )  # three quarters of every week: a theme, though as usual
    assert all(t.trend == "continued" for t in ty if t is not None and t.baseline_share > 0.5)


def test_a_new_week_that_changes_the_vocabulary_gives_earlier_weeks_new_themes_without_analysing_them_again(
    monkeypatch,
):
    """The vocabulary is learned from the whole history, so a new week may merge names differently:
    the weeks remembered from the build before are given their themes again, not analysed again,
    and come out as a fresh analysis would have them."""
    from digest_plugin.analysis import repository

    ascend = [FileChange("widget/ascend/kernels.py", 20, 2)]
    weeks = []
    for week in range(6):
        weeks += [
            make_pull(
                100 * week + n + 1,
                MONDAY + timedelta(weeks=week, hours=n),
                title.format(n=n),
                files=files,
            )
            for n, (title, files) in enumerate(
                [
                    ("[trainer] feat: NPU kernels {n}", [CORE]),
                    ("[worker] fix: Ascend hang {n}", ascend),
                    ("[trainer] fix: step {n}", [CORE]),
                    ("[worker] feat: pool {n}", [CORE]),
                    ("[docs] fix: page {n}", [CORE]),
                    ("[api] fix: call {n}", [CORE]),
                ]
            )
        ]
    later = [
        make_pull(
            900 + n,
            MONDAY + timedelta(weeks=6, hours=n),
            f"[trainer] feat: NPU and Ascend together {n}",
            files=ascend,
        )
        for n in range(6)
    ]
    options = analysis_options(DigestSettings())
    memo = Memo("salt")
    analyse_repo("acme/widget", weeks, None, options, NOW, Stages(memo))
    analysed = []
    analyse_pull = repository.analyse_pull
    monkeypatch.setattr(
        repository,
        "analyse_pull",
        lambda pull, *args: analysed.append(pull.number) or analyse_pull(pull, *args),
    )
    remembered = analyse_repo(
        "acme/widget", weeks + later, None, options, NOW, Stages(Memo("salt", memo.kept()))
    )
    assert sorted(analysed) == [p.number for p in later]  # only the new week is analysed
    monkeypatch.undo()
    assert remembered == analyse_repo("acme/widget", weeks + later, None, options, NOW)


def test_a_theme_of_many_prs_of_one_title_but_for_their_rule_codes_has_them_as_its_series():
    """ruff 2026-W04's refurb strand: 11 PRs "Make fix unsafe if it deletes comments (`FURBnnn`)"
    beside 3 others; what the series shares is its title without the scope and the codes."""
    week = history(
        ["[trainer] fix: step {n}"] * 4
        + ["[cache] Make fix unsafe if it deletes comments (`FURB1{n}`)"] * 4
        + ["[cache] Do not add `abc.ABC` if already present (`FURB180`)"]
    )[-1]
    cache = next(t for t in week.themes if t.name == "cache")
    assert len(cache.series) == 4 and set(cache.series) < set(cache.pulls)
    assert series_title("[`refurb`] Make fix unsafe if it deletes comments (`FURB154`)") == (
        "Make fix unsafe if it deletes comments"
    )
    assert series_title("fix(ty): Handle `E501` (E501, W605).") == "Handle `E501`"
    # two of a title are no series
    week = history(["[trainer] fix: step {n}"] * 4 + ["[cache] fix: crash"] * 2)[-1]
    assert week.themes and all(not t.series for t in week.themes)
