"""Languages: the catalogue is complete for what the code and templates say, compiled when installed, and formats the local way."""

from __future__ import annotations

import gettext
import itertools
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from digest_plugin.errors import DigestError
from digest_plugin.i18n import (
    LOCALE_DIR,
    format_date,
    format_date_range,
    format_decimal,
    format_number,
    translations,
)

ROOT = Path(__file__).resolve().parents[2]
ZH_PO = LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{(\w*)\}|%\((\w+)\)[sd]")


def extracted_messages() -> dict:
    """msgid (or (singular, plural)) -> where it is used, extracted as babel.cfg says."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    messages = {}
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map
    ):
        messages.setdefault(message, filename)
    return messages


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_every_message_of_code_and_templates_has_a_chinese_translation():
    messages = extracted_messages()
    assert any(where.startswith("digest_plugin/narrate") for where in messages.values())
    with ZH_PO.open("rb") as po:
        catalogue = read_po(po, locale="zh_Hans_CN")
    untranslated, mismatched = [], []
    for message, where in messages.items():
        entry = catalogue.get(message)
        strings = entry.string if entry is not None else ""
        strings = strings if isinstance(strings, tuple) else (strings,)
        if entry is None or not all(s.strip() for s in strings):
            untranslated.append(f"{where}: {message!r}")
            continue
        # Chinese has one plural form, used for every count, so it must carry the plural's placeholders.
        source = message[1] if isinstance(message, tuple) else message
        if any(placeholders(s) != placeholders(source) for s in strings):
            mismatched.append(f"{where}: {message!r} -> {strings!r}")
    assert untranslated == [], "run pybabel extract/update (babel.cfg) and translate these"
    assert mismatched == [], "a translation must use exactly the placeholders of its source"


def test_the_chinese_catalogue_has_one_plural_form_and_no_fuzzy_entries():
    with ZH_PO.open("rb") as po:
        catalogue = read_po(po, locale="zh_Hans_CN")
    assert catalogue.num_plurals == 1
    assert [m.id for m in catalogue if m.id and m.fuzzy] == []


def test_english_is_the_source_language_and_needs_no_catalogue():
    english = translations("en")
    assert english.gettext("Summary") == "Summary"
    assert english.ngettext("{count} PR merged.", "{count} PRs merged.", 1) == "{count} PR merged."
    assert english.ngettext("{count} PR merged.", "{count} PRs merged.", 2) == "{count} PRs merged."


def test_chinese_translates_singular_and_plural_alike():
    chinese = translations("zh")
    assert chinese.gettext("Summary") == "概要"
    for count in (1, 2, 31):
        assert chinese.ngettext("{count} file", "{count} files", count) == "{count} 个文件"


def test_an_unknown_language_is_one_clear_error():
    with pytest.raises(DigestError, match="Language 'fr' is not available"):
        translations("fr")


def test_the_installed_catalogue_is_compiled_from_the_po_as_it_is_now():
    """`make install` compiles the .mo; a .po edited since then needs `make install` again (make does it)."""
    with ZH_PO.open("rb") as po:
        catalogue = read_po(po, locale="zh_Hans_CN")
    chinese = translations("zh")
    for message in catalogue:
        if (
            message.id
            and not isinstance(message.id, tuple)
            and message.string
            and not message.fuzzy
        ):
            assert chinese.gettext(message.id) == message.string, (
                "the .mo is older than the .po: run make install"
            )


def test_a_built_package_carries_compiled_catalogues_and_the_build_writes_nothing_into_the_checkout(
    tmp_path,
):
    before = sorted(p.name for p in LOCALE_DIR.rglob("*"))
    result = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    mo = tmp_path / "digest_plugin" / "locale" / "zh" / "LC_MESSAGES" / "messages.mo"
    with mo.open("rb") as data:
        assert gettext.GNUTranslations(data).gettext("Summary") == "概要"
    assert sorted(p.name for p in LOCALE_DIR.rglob("*")) == before


def test_nothing_writes_a_catalogue_while_the_site_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(
        "digest_plugin.i18n.LOCALE_DIR", tmp_path
    )  # an installation without its .mo
    with pytest.raises(
        DigestError, match="is missing: it is compiled when repo-digest is installed"
    ):
        translations("zh")
    assert list(tmp_path.iterdir()) == []


def test_numbers_and_dates_are_written_the_local_way():
    assert format_number(1234567, "en") == "1,234,567"
    assert format_number(1234567, "zh") == "1,234,567"
    assert format_decimal(5.04, "en") == "5.0"
    assert format_decimal(3, "zh") == "3.0"
    assert format_decimal(1234.5, "en", digits=2) == "1,234.50"
    assert format_date(date(2026, 5, 18), "en") == "May 18, 2026"
    assert format_date(date(2026, 5, 18), "zh") == "2026年5月18日"
    assert (
        format_date_range(date(2025, 12, 29), date(2026, 1, 4), "en")
        == "Dec 29, 2025\u2009–\u2009Jan 4, 2026"
    )  # CLDR: thin spaces
    assert (
        format_date_range(date(2025, 12, 29), date(2026, 1, 4), "zh")
        == "2025年12月29日\u2009–\u20092026年1月4日"
    )


def test_no_message_hides_inside_an_f_string_where_babel_cannot_see_it():
    import io
    import tokenize

    keywords = {"_", "gettext", "ngettext"}
    hidden = []
    for path in sorted((ROOT / "digest_plugin").rglob("*.py")):
        tokens = list(
            tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        )
        depth = 0
        for token, following in itertools.pairwise(tokens):
            kind = tokenize.tok_name[token.type]
            depth += {"FSTRING_START": 1, "FSTRING_END": -1}.get(kind, 0)
            inside = (
                depth > 0
                and token.type == tokenize.NAME
                and token.string in keywords
                and following.string == "("
            )
            # before Python 3.12 an f-string is one STRING token
            old_style = (
                token.type == tokenize.STRING
                and re.match(r"^[rRbB]?[fF]", token.string)
                and re.search(r"\b(_|n?gettext)\(", token.string)
            )
            if inside or old_style:
                hidden.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert hidden == [], (
        "Babel does not extract messages inside f-strings; translate outside and interpolate the result"
    )
