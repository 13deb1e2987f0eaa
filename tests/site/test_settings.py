"""Settings: one table of DIGEST_* options, checked once, each mistake one sentence naming the setting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings, LLMConfig, markdown_table, options, setting_name

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def test_readme_settings_table_is_the_one_the_code_declares():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = markdown_table()
    assert table in readme, (
        "README.md's settings table differs: paste the output of `python -m digest_plugin.settings`"
    )


def test_every_option_in_design_is_declared():
    names = [setting_name(f) for f in options()]
    for name in (
        "DIGEST_REPOS",
        "DIGEST_DATA_PATH",
        "DIGEST_TIMEZONE",
        "DIGEST_LANGUAGE",
        "DIGEST_FETCH",
        "DIGEST_SINCE",
        "DIGEST_TREND_WEEKS",
        "DIGEST_KEY_THRESHOLD",
        "DIGEST_RULES",
        "DIGEST_BOTS",
        "DIGEST_PDF",
        "DIGEST_DISCUSS_URL",
        "DIGEST_WRITER",
        "DIGEST_LLM",
    ):
        assert name in names


def test_an_empty_settings_file_gives_the_defaults(tmp_path):
    settings = DigestSettings.from_pelican({}, tmp_path)
    assert settings == DigestSettings(
        data_path=tmp_path.resolve() / "data", base_path=tmp_path.resolve()
    )
    assert (settings.repos, settings.timezone, settings.language, settings.writer) == (
        (),
        ZoneInfo("UTC"),
        "en",
        "builtin",
    )
    assert settings.llm is None
    assert settings.discuss_url is None


def test_values_are_typed_and_relative_paths_start_at_the_given_folder(tmp_path):
    settings = DigestSettings.from_pelican(
        {
            "DIGEST_REPOS": ["acme/widget"],
            "DIGEST_DATA_PATH": "store",
            "DIGEST_TIMEZONE": "Asia/Shanghai",
            "DIGEST_SINCE": "2026-01-05",
            "DIGEST_TREND_WEEKS": 8,
            "DIGEST_BOTS": ["release-robot"],
            "DIGEST_DISCUSS_URL": "https://forum.example/t/{owner}-{name}-{week}",
            "DIGEST_WRITER": "llm",
            "DIGEST_LLM": {"base_url": "http://127.0.0.1:9/v1/", "model": " small", "timeout": 5},
            "SITENAME": "not ours",
        },
        tmp_path,
    )
    assert settings.repos == ("acme/widget",)
    assert settings.data_path == tmp_path.resolve() / "store"
    assert settings.timezone == ZoneInfo("Asia/Shanghai")
    assert (
        str(settings.since) == "2026-01-05"
        and settings.trend_weeks == 8
        and settings.bots == ("release-robot",)
    )
    assert settings.llm == LLMConfig("http://127.0.0.1:9/v1", "small", ("OPENAI_API_KEY",), 50, 5.0)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"DIGEST_REPOS": 5}, "DIGEST_REPOS must be a list of 'owner/name' strings, not 5."),
        ({"DIGEST_REPOS": "acme/widget"}, "DIGEST_REPOS must be a list"),
        (
            {"DIGEST_REPOS": ["acme/../x"]},
            "DIGEST_REPOS lists 'acme/../x', which is not a repository name",
        ),
        ({"DIGEST_REPOS": [5]}, "DIGEST_REPOS lists 5, which is not a repository name"),
        ({"DIGEST_TIMEZONE": 5}, "DIGEST_TIMEZONE 5 is not a known timezone name"),
        (
            {"DIGEST_TIMEZONE": "Mars/Olympus"},
            "DIGEST_TIMEZONE 'Mars/Olympus' is not a known timezone name",
        ),
        ({"DIGEST_DATA_PATH": None}, "DIGEST_DATA_PATH must be the path of a folder"),
        ({"DIGEST_DATA_PATH": ""}, "DIGEST_DATA_PATH must be the path of a folder"),
        ({"DIGEST_LANGUAGE": "fr"}, "DIGEST_LANGUAGE must be one of 'en', 'zh', not 'fr'."),
        ({"DIGEST_FETCH": True}, "DIGEST_FETCH must be one of"),
        ({"DIGEST_SINCE": "last year"}, "DIGEST_SINCE must be a date written YYYY-MM-DD"),
        (
            {"DIGEST_LOOKBACK_DAYS": 7.5},
            "DIGEST_LOOKBACK_DAYS must be a whole number from 0 to 365",
        ),
        ({"DIGEST_TREND_WEEKS": "12"}, "DIGEST_TREND_WEEKS must be a whole number"),
        ({"DIGEST_KEY_THRESHOLD": 11}, "DIGEST_KEY_THRESHOLD must be a number from 0 to 10"),
        ({"DIGEST_RULES": {"nonsense": 1}}, "DIGEST_RULES key 'nonsense' is not a rule"),
        ({"DIGEST_RULES": "missing.yaml"}, "could not be read"),
        ({"DIGEST_BOTS": "dependabot"}, "DIGEST_BOTS must be a list of logins"),
        ({"DIGEST_PDF": "yes"}, "DIGEST_PDF must be True or False"),
        (
            {"DIGEST_DISCUSS_URL": "https://forum.example/{repo}"},
            "may only use {owner}, {name} and {week}, not {repo}",
        ),
        ({"DIGEST_DISCUSS_URL": "https://forum.example/{week"}, "may only use"),
        (
            {"DIGEST_DISCUSS_URL": "javascript:alert(1)"},
            "DIGEST_DISCUSS_URL must be an http(s) address",
        ),
        ({"DIGEST_WRITER": "gpt"}, "DIGEST_WRITER must be one of 'builtin', 'llm', 'copilot'"),
        ({"DIGEST_WRITER": "llm"}, 'DIGEST_WRITER = "llm" needs DIGEST_LLM = {"base_url"'),
        ({"DIGEST_LLM": "gpt"}, 'DIGEST_LLM must be a dict such as {"base_url"'),
        (
            {"DIGEST_WRITER": "github-models"},
            'DIGEST_WRITER = "github-models" no longer works: GitHub Models was retired on 2026-07-30',
        ),
        ({"DIGEST_LLM": {"modle": "x"}}, "DIGEST_LLM has an unknown key 'modle'"),
        (
            {"DIGEST_LLM": {"base_url": "ftp://x", "model": "m"}},
            "DIGEST_LLM['base_url'] must be the endpoint's address",
        ),
        ({"DIGEST_LLM": {"base_url": "https://x/v1"}}, "DIGEST_LLM['model'] must name the model"),
        (
            {"DIGEST_LLM": {"base_url": "https://x/v1", "model": "m", "api_key_env": "sk-123"}},
            "must be the name of an environment variable",
        ),
        (
            {"DIGEST_LLM": {"base_url": "https://x/v1", "model": "m", "max_requests": -1}},
            "DIGEST_LLM['max_requests'] must be a whole number",
        ),
        (
            {"DIGEST_LLM": {"base_url": "https://x/v1", "model": "m", "timeout": 0}},
            "DIGEST_LLM['timeout'] must be a positive number",
        ),
        (
            {"DIGEST_LLM": {"base_url": "https://x/v1", "model": "m", "max_input_tokens": 500}},
            "DIGEST_LLM['max_input_tokens'] must be 0",
        ),
        ({"DIGEST_LLM": {"preset": "gemini"}}, "DIGEST_LLM has an unknown key 'preset'"),
        (
            {"DIGEST_WRITER": "copilot", "DIGEST_LLM": {"requests_per_day": -1}},
            "DIGEST_LLM['requests_per_day'] must be a whole number",
        ),
        ({"DIGEST_WRITER": "copilot", "DIGEST_LLM": 5}, "DIGEST_LLM must be a dict such as"),
        (
            {"DIGEST_WRITER": "copilot", "DIGEST_LLM": {"base_url": "ftp://x"}},
            "DIGEST_LLM['base_url'] must be the endpoint's address",
        ),
        (
            {"DIGEST_REPO": ["acme/widget"]},
            "Unknown setting DIGEST_REPO; the DIGEST_* settings are: DIGEST_REPOS",
        ),
    ],
)
def test_a_bad_value_is_one_sentence_naming_the_setting(tmp_path, values, message):
    with pytest.raises(DigestError) as raised:
        analysis_options(
            DigestSettings.from_pelican(values, tmp_path)
        )  # as a build checks them, DIGEST_RULES merged
    text = str(raised.value)
    assert message in text
    assert "\n" not in text and text.endswith((".", ")")) and "DIGEST_" in text


# -- a relative DIGEST_DATA_PATH: the settings file's folder, for the command line and the build alike --


def _site_in_subfolder(tmp_path: Path) -> Path:
    """A settings file in site/ whose content is in site/pages/content, with a one-PR export."""
    site = tmp_path / "site"
    (site / "pages" / "content").mkdir(parents=True)
    theme = str(ROOT / "theme")
    (site / "pelicanconf.py").write_text(
        f'PATH = "pages/content"\nPLUGINS = ["digest_plugin"]\nTHEME = {theme!r}\nDIGEST_DATA_PATH = "store"\n'
        'DIGEST_FETCH = "never"\nDIGEST_REPOS = ["acme/widget"]\nCATEGORY_URL = "{slug}/"\nCATEGORY_SAVE_AS = "{slug}/index.html"\n'
        'JINJA_ENVIRONMENT = {"autoescape": True}\n'
    )
    pull = {
        "number": 7,
        "title": "Add a widget",
        "html_url": "https://github.com/acme/widget/pull/7",
        "user": {"login": "alice", "type": "User"},
        "labels": [],
        "created_at": "2026-05-18T08:00:00Z",
        "merged_at": "2026-05-19T09:00:00Z",
        "body": "",
        "additions": 10,
        "deletions": 2,
        "changed_files": 1,
        "files": [
            {"filename": "src/widget.py", "additions": 10, "deletions": 2, "status": "modified"}
        ],
    }
    (tmp_path / "export.jsonl").write_text(json.dumps(pull) + "\n")
    return site


def test_relative_data_path_is_the_same_folder_for_the_command_line_and_the_build(tmp_path):
    site = _site_in_subfolder(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    imported = subprocess.run(
        [
            str(BIN / "repo-digest"),
            "import",
            str(tmp_path / "export.jsonl"),
            "--repo",
            "acme/widget",
            "--settings",
            str(site / "pelicanconf.py"),
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 0, imported.stderr
    assert (site / "store" / "acme" / "widget" / "2026-05.jsonl").is_file()

    built = subprocess.run(
        [str(BIN / "pelican"), "-s", str(site / "pelicanconf.py"), "-o", str(tmp_path / "output")],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    page = tmp_path / "output" / "acme" / "widget" / "2026-W21" / "index.html"
    assert "Add a widget" in page.read_text(encoding="utf-8")
    assert not (elsewhere / "store").exists() and not (site / "pages" / "store").exists()


# -- a settings file that fails while Python runs it: one sentence naming the file --


BROKEN_SETTINGS = [
    ('SITENAME = "x"\nDIGEST_REPOS = = []\n', "is not valid Python: invalid syntax on line 2."),
    (
        'SITENAME = "x"\nDIGEST_REPOS = [owner]\n',
        "failed on line 2: NameError: name 'owner' is not defined.",
    ),
    ("from pelicanconf import *\n", "could not import pelicanconf"),
]


@pytest.mark.parametrize("text, message", BROKEN_SETTINGS)
def test_a_settings_file_that_fails_is_one_sentence_in_the_command_line(tmp_path, text, message):
    settings = tmp_path / "conf" / "broken.py"
    settings.parent.mkdir()
    settings.write_text(text)
    result = subprocess.run(
        [
            str(BIN / "repo-digest"),
            "show",
            "acme/widget",
            "--week",
            "2026-W21",
            "--settings",
            str(settings),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert (
        result.stdout == "" and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    )
    assert (
        result.stderr.startswith(f"repo-digest: The settings file {settings} ")
        and message in result.stderr
    )
    debug = subprocess.run(
        [
            str(BIN / "repo-digest"),
            "show",
            "acme/widget",
            "--week",
            "2026-W21",
            "--settings",
            str(settings),
            "--debug",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "Traceback" in debug.stderr  # --debug still shows where it failed


@pytest.mark.parametrize("text, message", BROKEN_SETTINGS)
def test_a_settings_file_that_fails_is_one_sentence_in_make_html_too(tmp_path, text, message):
    settings = tmp_path / "conf" / "broken.py"
    settings.parent.mkdir()
    settings.write_text(text)
    output = tmp_path / "output"
    output.mkdir()
    (output / "index.html").write_text("the previous site")
    result = subprocess.run(
        [
            str(BIN / "python"),
            "-m",
            "digest_plugin.build.locked_output",
            str(output),
            "--",
            str(BIN / "pelican"),
            str(ROOT / "content"),
            "-s",
            str(settings),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert (
        result.stdout == "" and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    )
    assert (
        result.stderr.startswith(f"make: The settings file {settings} ")
        and message in result.stderr
    )
    assert (output / "index.html").read_text() == "the previous site"


def test_publishconf_finds_pelicanconf_from_any_folder(tmp_path):
    script = "from pelican.settings import read_settings; s = read_settings(%r); print(s['SITEURL'], s['DIGEST_DATA_PATH'])"
    result = subprocess.run(
        [sys.executable, "-c", script % str(ROOT / "publishconf.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "SITEURL": "https://digest.example"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["https://digest.example", "data"]


@pytest.mark.parametrize(
    "override, message",
    [
        ("DIGEST_REPOS=5", "DIGEST_REPOS must be a list of 'owner/name' strings, not 5."),
        ("DIGEST_TIMEZONE=5", "DIGEST_TIMEZONE 5 is not a known timezone name"),
        (
            "DIGEST_DATA_PATH=null",
            'DIGEST_DATA_PATH must be the path of a folder, such as "data", not None.',
        ),
    ],
)
def test_a_bad_value_is_one_sentence_in_the_build_too(tmp_path, override, message):
    output = tmp_path / "output"
    result = subprocess.run(
        [
            str(BIN / "pelican"),
            "content",
            "-o",
            str(output),
            "-s",
            "pelicanconf.py",
            "-e",
            override,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COLUMNS": "400"},
    )
    text = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1
    assert message in text and "Traceback" not in text
    assert not output.exists()


def test_the_build_finds_the_folder_of_the_settings_file_on_pelicans_command_line(
    tmp_path, monkeypatch
):
    from digest_plugin.publish.hooks import settings_folder

    monkeypatch.chdir(tmp_path)
    site = _site_in_subfolder(tmp_path)
    monkeypatch.setattr(
        "sys.argv",
        ["/venv/bin/pelican", "content", "-s", str(site / "pelicanconf.py"), "--autoreload"],
    )
    assert settings_folder() == site
    monkeypatch.setattr(
        "sys.argv", ["/venv/lib/site-packages/pelican/__main__.py", "-s", "site/pelicanconf.py"]
    )  # python -m pelican
    assert settings_folder() == site
    monkeypatch.setattr(
        "sys.argv", ["/venv/bin/pelican", "content"]
    )  # Pelican reads ./pelicanconf.py, if any
    assert settings_folder() == tmp_path
    monkeypatch.setattr(
        "sys.argv", ["/venv/bin/invoke", "build", "-s", str(site / "pelicanconf.py")]
    )  # not Pelican's own command line
    assert settings_folder() == tmp_path
