"""Which interpretations the digest may say: a claim speaks only when its rule is precise.

Each rule below is one claim a sentence makes of a PR ("#12 reverts #10; #14 re-landed it", "edits
configuration: deployments that rely on these values will behave differently", "changes no test:
nothing shows the new code works"). bench/measure_precision.py measures each on its labelled corpus
(tests/corpora, judged by tests/precision.py); a rule under PRECISION_BAR does not speak, and the
sentence that would have made the claim states the plain fact and stops ("#12 reverts #10.",
"#12 changes pyproject.toml."). The comment beside each rule is its measured precision (right
claims / claims) on the whole corpus and on its held-out third; tests/realdata/test_precision.py
keeps the figures true.
"""

from __future__ import annotations

PRECISION_BAR = 0.98

# rule -> whether it speaks
CLAIMS: dict[str, bool] = {
    # reverts.jsonl
    "revert.is-revert": True,
    "revert.undoes": True,
    "revert.relanded": False,
    "revert.replaced": False,
    "revert.followed-up": False,
    "revert.nothing-followed": False,
    "revert.needs-nothing": False,
    # versions.jsonl
    "version.package": False,
    "version.direction": False,
    "version.own-release": False,
    # config.jsonl
    "config.user-changed": False,
    "config.default-changed": False,
    # tests.jsonl
    "tests.missing": False,
    "tests.with-tests": False,
    "tests.no-test-changed": False,
    # types.jsonl
    "type.feature": False,
    "type.fix": False,
    "type.refactor": False,
    # consequences.jsonl
    "consequence.breaking": False,
    "consequence.removes-deprecated": False,
    "consequence.deprecates": False,
    "consequence.files-removed": False,
    "consequence.default-flip": False,
    "consequence.stated": True,
}


def speaks(rule: str) -> bool:
    """Whether the claim `rule` may be said; a name not in CLAIMS is a mistake in the code."""
    return CLAIMS[rule]
