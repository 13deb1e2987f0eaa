"""The parts of Pelican's private API the plugin relies on: all in one module, all present in the
installed Pelican, and a Pelican without one stops the build with one sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pelican.contents import Content

from digest_plugin.errors import DigestError
from digest_plugin.publish import pelican_internals
from digest_plugin.publish.pelican_internals import PRIVATE_API, check_pelican, missing_private_api
from tests.site_builder import build_site

RELIED_ON = {"Content._get_content"}
PACKAGE = Path(pelican_internals.__file__).resolve().parents[1]


def test_the_private_parts_relied_on_are_the_ones_listed():
    assert set(PRIVATE_API) == RELIED_ON


def test_the_installed_pelican_has_every_private_part_the_plugin_uses():
    missing = missing_private_api()
    assert not missing, (
        f"The installed Pelican lacks {', '.join(missing)}, which digest_plugin/publish/pelican_internals.py relies on."
    )


def test_no_other_module_uses_pelicans_private_api():
    names = sorted({name.split(".")[1] for name in RELIED_ON})
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    users = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "pelican_internals.py" and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert not users


def test_a_pelican_that_no_longer_asks_for_lazy_content_stops_the_build_in_one_sentence(
    tmp_path, monkeypatch
):
    def get_content(self, siteurl):
        return self._content

    monkeypatch.setattr(Content, "get_content", get_content)
    assert missing_private_api() == ["Content._get_content"]
    sentence = r"needs Pelican's Content\._get_content, which Pelican [\d.]+ does not have; install"
    with pytest.raises(DigestError, match=sentence):
        check_pelican()
    with pytest.raises(DigestError, match=r"Content\._get_content"):
        build_site(tmp_path)
