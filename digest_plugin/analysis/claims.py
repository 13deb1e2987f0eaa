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
    "revert.is-revert": True,  # 69/70 98.6% (held out 22/22)
    "revert.undoes": True,  # 44/44 100.0% (held out 14/14), the body's "Reverts owner/name#N" before a quoted title's (#N)
    "revert.relanded": True,  # 8/8 100.0% (held out 2/2)
    "revert.replaced": False,  # 5/10 50.0% (held out 0/3): most of them re-landed it; said as "re-landed or replaced" (followed-up)
    "revert.followed-up": True,  # 18/18 100.0% (held out 5/5): re-landed or replaced, by the PR named
    "revert.nothing-followed": True,  # 20/20 100.0% (held out 9/9)
    "revert.needs-nothing": False,  # 2/13 15.4% (held out 0/4): reverts of CI or docs were re-landed too
    # versions.jsonl
    "version.package": False,  # 81/90 90.0% (held out 34/37): words misread as packages (bumped, py, formers, ascend, dist)
    "version.direction": False,  # 76/86 88.4% (held out 32/34)
    "version.own-release": True,  # 7/7 100.0% (held out 3/3)
    # config.jsonl
    "config.user-changed": False,  # 54/78 69.2% (held out 17/30): settings.py edited as code, ecosystem-check defaults
    "config.default-changed": False,  # PRs of only tooling, CI, tests or the playground left out: 22/27 81.5% (held out 6/7): "default" in a title about code (a fix's applicability, a server's fallback)
    # tests.jsonl
    "tests.missing": True,  # 96/96 100.0% (held out 30/30), end-to-end CI workflows, corpora and truth files counted as tests
    "tests.with-tests": True,  # 53/53 100.0% (held out 23/23)
    "tests.no-test-changed": True,  # 106/106 100.0% (held out 32/32)
    # types.jsonl
    "type.feature": False,  # 37/72 51.4% (held out 14/21): refactors and behaviour changes titled feat
    "type.fix": False,  # 18/23 78.3% (held out 4/7)
    "type.refactor": False,  # 18/50 36.0% (held out 9/20)
    # consequences.jsonl
    "consequence.breaking": False,  # 34/35 97.1% (held out 13/13), markers on docs, CI or a template alone left out: a new option marked breaking
    "consequence.removes-deprecated": False,  # 2/4 50.0% (held out 0/1)
    "consequence.deprecates": False,  # 12/14 85.7% (held out 4/4)
    "consequence.files-removed": False,  # 0 claims: not measured
    "consequence.default-flip": False,  # 28/29 96.6% (held out 9/9)
    "consequence.stated": True,  # 57/57 100.0% (held out 19/19; first measured on the 34 PRs labelled after it: 95.0%, held out 17/20): a title leading with a rename, default, removal or stabilisation, or the body's Breaking/Migration section
    # themes.jsonl (149 of its PRs labelled after the last rule change): title words only where
    # written as names, no body, no folder fragment, no verb; before: 277/329 84.2%, 258/329 78.4%
    "theme.member": True,  # 283/283 100.0% (held out 92/92)
    "theme.name": True,  # 283/283 100.0% (held out 92/92)
}


# a PR's type (analysis/classify.py) -> the claim saying it makes ("a fix", "3 new features")
TYPE_CLAIMS = {"feat": "type.feature", "fix": "type.fix", "refactor": "type.refactor"}


def type_speaks(type_: str | None) -> bool:
    """Whether a sentence may call a PR of this type by its kind (a docs or CI change is its files)."""
    return type_ not in TYPE_CLAIMS or speaks(TYPE_CLAIMS[type_])


def themes_speak() -> bool:
    """Whether a week's themes may be said: their membership and their names are both precise."""
    return speaks("theme.member") and speaks("theme.name")


def speaks(rule: str) -> bool:
    """Whether the claim `rule` may be said; a name not in CLAIMS is a mistake in the code."""
    return CLAIMS[rule]
