"""A new required dependency (analysis/upgrades.adds_required_dependency): the author says a package
is added to what users install, and a manifest they install from gains lines; an optional extra, a
new version of a package already required, a dependency group for CI or a release, and a manifest
that does not grow are none."""

from __future__ import annotations

import pytest

from digest_plugin.analysis.upgrades import adds_required_dependency
from tests.conftest import make_pull

MERGED = "2026-05-19T10:00:00Z"
SOURCE = ("src/widget/lora.py", 120, 0)


@pytest.mark.parametrize(
    "title, body, files",
    [
        (
            "[SFT] feat: Add LoRA support for SFT",
            "4. Added peft dependency",
            [SOURCE, ("requirements.txt", 1, 0)],
        ),
        (
            '[misc] feat: Added: "tensorboard" to the requirements.txt',
            "",
            [("requirements.txt", 1, 0), ("setup.py", 1, 0)],
        ),
        (
            "[misc] fix: supplement the dependencies that are missing in the requirements-npu.txt",
            "",
            [("requirements-npu.txt", 1, 0)],
        ),
        ("Merge pull request #12 from someone/missing-dependency", "", [("pyproject.toml", 1, 0)]),
    ],
)
def test_a_package_added_to_what_users_install_is_a_new_required_dependency(title, body, files):
    assert adds_required_dependency(make_pull(1, MERGED, title, body=body, files=files))


@pytest.mark.parametrize(
    "title, body, files",
    [
        (
            "Add extra/optional Markdown dependency to setup.py",
            "",
            [("setup.py", 3, 0)],
        ),  # optional
        (
            "Bump numpy and add the dependency pin",
            "",
            [("requirements.txt", 1, 1)],
        ),  # a version, and no line gained
        (
            "chore: lock rooster release dependency",
            "Adds `rooster` to a new `release` dependency group",
            [("pyproject.toml", 4, 0)],
        ),
        ("Add a dev dependency on pytest-xdist", "", [("pyproject.toml", 1, 0)]),
        (
            "Add docs requirements",
            "",
            [("docs/requirements.txt", 2, 0)],
        ),  # not a manifest users install from
        ("Add peft dependency", "", [SOURCE]),  # no manifest changed: the words alone
        (
            "Add a LoRA option",
            "Uses peft when it is installed.",
            [SOURCE, ("requirements.txt", 1, 0)],
        ),  # the words do not say so
    ],
)
def test_what_users_do_not_have_to_install_is_none(title, body, files):
    assert not adds_required_dependency(make_pull(1, MERGED, title, body=body, files=files))
