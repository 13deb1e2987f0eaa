"""A claim speaks only if its rule is precise: every rule digest_plugin/analysis/claims.py lets speak
measures at least PRECISION_BAR on its labelled corpus (tests/corpora), judged by tests/precision.py
over the real weeks of ../shared/data, as bench/measure_precision.py prints it.

Skipped when ../shared/data is absent.
"""

from __future__ import annotations

import functools

import pytest

from digest_plugin.analysis.claims import CLAIMS, PRECISION_BAR
from tests.precision import (
    CLASSES,
    DATA,
    JUDGES,
    RULES,
    analysed_index,
    judge,
    load_corpus,
    measure,
)

pytestmark = pytest.mark.realdata
MIN_LABELS = 100


@functools.cache
def _table() -> dict:
    if not DATA.exists():
        pytest.skip(f"real data {DATA} is absent (it lives in ../shared/data, beside the checkout)")
    index = analysed_index()
    table = {}
    for name in CLASSES:
        table.update(measure(judge(name, load_corpus(name), index)))
    return table


@pytest.mark.parametrize("rule", [rule for rule, speaks in CLAIMS.items() if speaks])
def test_every_claim_that_speaks_is_right_at_least_98_percent_of_the_time_on_its_corpus(rule):
    figures = _table().get(rule)
    assert figures is not None and figures.claims, (
        f"{rule} speaks but makes no claim on its corpus: it is not measured"
    )
    assert figures.precision >= PRECISION_BAR, (
        f"{rule}: {figures.right}/{figures.claims} right ({figures.precision:.1%}), under {PRECISION_BAR:.0%}"
    )


@pytest.mark.parametrize("name", CLASSES)
def test_each_corpus_holds_at_least_100_labelled_prs_of_the_data(name):
    labels = load_corpus(name)
    assert len(labels) >= MIN_LABELS, (
        f"tests/corpora/{name}.jsonl holds {len(labels)} labels, fewer than {MIN_LABELS}"
    )
    assert len({(label["repo"], label["number"]) for label in labels}) == len(labels), (
        f"{name}: a PR is labelled twice"
    )
    if DATA.exists():
        measured = {figures.labels for rule, figures in _table().items() if rule in JUDGES[name]}
        assert measured == {len(labels)}, f"{name}: labels of PRs the data does not hold"


def test_every_rule_the_bench_measures_is_in_claims_and_every_claim_is_measured():
    assert set(RULES) == set(CLAIMS), set(RULES) ^ set(CLAIMS)
