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

# rule -> whether it speaks; beside it, right claims / claims on its whole corpus (and on the held-out third)
CLAIMS: dict[str, bool] = {
    # reverts.jsonl
    "revert.is-revert": True,  # 68/69 98.6% (22/22)
    "revert.undoes": True,  # 43/43 100% (14/14)
    "revert.relanded": True,  # 8/8 100% (2/2)
    "revert.replaced": False,  # 5/10 50% (0/3): most of them re-landed it; said as "re-landed or replaced" (followed-up)
    "revert.followed-up": True,  # 18/18 100% (5/5): re-landed or replaced, by the PR named
    "revert.nothing-followed": True,  # 20/20 100% (9/9)
    "revert.needs-nothing": False,  # 2/12 17% (0/4): reverts of CI or docs were re-landed too
    # versions.jsonl
    "version.package": False,  # 25/37 68% (12/16): image names (trtllm, ascend), misread words (formers, py, bumped)
    "version.direction": False,  # 21/34 62% (10/14)
    "version.own-release": False,  # 0 claims: not measured
    # config.jsonl
    "config.user-changed": False,  # 54/78 69% (17/30): settings.py edited as code, ecosystem-check defaults
    "config.default-changed": False,  # 22/27 81.5% (6/7): "default" in a title about code (a fix's applicability, a server's fallback)
    # tests.jsonl
    "tests.missing": True,  # 71/71 100% (22/22) with end-to-end workflows, corpora and truth files counted as tests
    "tests.with-tests": True,  # 26/26 100% (13/13)
    "tests.no-test-changed": True,  # 76/76 100% (23/23)
    # types.jsonl
    "type.feature": False,  # 37/72 51% (14/21): refactors and behaviour changes titled feat
    "type.fix": False,  # 18/23 78% (4/7)
    "type.refactor": False,  # 18/50 36% (9/20)
    # consequences.jsonl
    "consequence.breaking": False,  # 35/39 90% (13/14): marked breaking, nothing users see changes
    "consequence.removes-deprecated": False,  # 2/4 50% (0/1)
    "consequence.deprecates": False,  # 12/14 86% (4/4)
    "consequence.files-removed": False,  # 0 claims: not measured
    "consequence.default-flip": False,  # 21/22 95.5% (8/8)
}


def speaks(rule: str) -> bool:
    """Whether the claim `rule` may be said; a name not in CLAIMS is a mistake in the code."""
    return CLAIMS[rule]
