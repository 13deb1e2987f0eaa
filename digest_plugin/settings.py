"""Settings: every DIGEST_* option declared once, with its default, its check and one line of help.

`DigestSettings` below is the table: each field is one option (`repos` is `DIGEST_REPOS`), and its
`option(default, check, doc)` gives the value when pelicanconf.py leaves it out, the function that
turns what the user wrote into the typed value (or one sentence of DigestError), and the line of
README.md's settings table (`python -m digest_plugin.settings` prints that table; a test compares).

    DIGEST_REPOS = ["getpelican/pelican"]
    DIGEST_TIMEZONE = "Asia/Shanghai"
    DIGEST_LANGUAGE = "zh"

The build checks them once, at Pelican's `initialized` signal (publish/hooks.py), and every stage
receives the checked `DigestSettings`; nothing else reads DIGEST_* keys from the settings dict.
"""

from __future__ import annotations

import copy
import datetime as dt
import functools
import re
import string
import sys
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from digest_plugin.errors import DigestError

# check(value as written, its setting's name, the folder relative paths start from) -> typed value
# (Any: each check's own type, the type of its setting's field)
Check = Callable[[object, str, Path], Any]

_REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_OWNER_PATTERN = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*/\*$")
_ENVIRONMENT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DISCUSS_FIELDS = ("owner", "name", "week")


def option(default: object, check: Check, doc: str) -> Any:
    """One DIGEST_* option: its value when unset (as written in pelicanconf.py), its check, its help line.
    A dataclasses.Field, typed Any as `field()` is: it stands for the value of any setting."""
    return field(
        default_factory=partial(check, default, "default", Path(".")),
        metadata={"default": default, "check": check, "doc": doc},
    )


# -- checks ---------------------------------------------------------------------------------------


# The site's own top-level folders (Pelican's defaults and this project's, docs/architecture.md, "Output URLs"):
# a repository's pages live at /OWNER/NAME/, so an owner named so would be published over them.
SITE_FOLDERS = frozenset(
    """archives author authors categories category drafts feeds images labels pagefind pages posts
    repositories search static tag tags theme""".split()
)


def is_repo_name(repo: object) -> TypeGuard[str]:
    return repo_name_problem(repo) is None


def repo_name_problem(repo: object) -> str | None:
    """Why `repo` cannot be a repository of the site, as the end of a sentence; None when it can."""
    if not isinstance(repo, str) or not _REPO_NAME.match(repo) or ".." in repo:
        return "is not a repository name: write it as OWNER/NAME, for example getpelican/pelican"
    owner, name = repo.split("/")
    if "." in owner or name == ".":  # GitHub allows neither; "./." would be the store's own folder
        return "is not a repository name: GitHub's owner names have no dots, and no repository is named '.'"
    if owner.lower() in SITE_FOLDERS:
        return f"cannot be published: its pages would go under /{owner}/, where the site keeps its own pages"
    return None


def check_repo_name(repo: object) -> str:
    problem = repo_name_problem(repo)
    if problem is not None:
        raise DigestError(f"{repo!r} {problem}.")
    assert isinstance(repo, str)  # no problem: a name, text
    return repo


def check_timezone(name: object) -> ZoneInfo:
    if isinstance(name, ZoneInfo):
        return name
    try:
        return ZoneInfo(name)  # type: ignore[arg-type]  # what is not text raises TypeError, said below
    # OSError: a folder of the timezone data ("America")
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise DigestError(
            f"DIGEST_TIMEZONE {name!r} is not a known timezone name, such as UTC or Asia/Shanghai."
        ) from None


def _timezone(value, name, base) -> ZoneInfo:
    return check_timezone(value)


def is_owner_pattern(entry: object) -> bool:
    """`owner/*`: every public, non-archived repository of owner (resolved when fetching)."""
    return isinstance(entry, str) and bool(_OWNER_PATTERN.match(entry))


def _repos(value, name, base) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise DigestError(f"{name} must be a list of 'owner/name' strings, not {value!r}.")
    for repo in value:
        # an owner/* pattern's owner is held to what a repository's owner is
        problem = repo_name_problem(repo[:-1] + "x" if is_owner_pattern(repo) else repo)
        if problem is not None:
            problem = problem.replace("OWNER/NAME", "OWNER/NAME (or OWNER/* for all of an owner's)")
            raise DigestError(f"{name} lists {repo!r}, which {problem}.")
    return tuple(value)


def _flag(value, name, base) -> bool:
    if not isinstance(value, bool):
        raise DigestError(f"{name} must be True or False, not {value!r}.")
    return value


def _logins(value, name, base) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(login, str) for login in value):
        raise DigestError(
            f'{name} must be a list of logins, for example ["release-robot"], not {value!r}.'
        )
    return tuple(value)


def _folder(value, name, base) -> Path:
    if not isinstance(value, str | Path) or not str(value).strip():
        raise DigestError(f'{name} must be the path of a folder, such as "data", not {value!r}.')
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


def _author(value, name, base) -> str | None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise DigestError(
            f'{name} must be a name, such as "Ann Smith", or None for the site\'s AUTHOR, not {value!r}.'
        )
    return value.strip() if value is not None else None


def _one_of(*choices: str) -> Check:
    def check(value, name, base):
        if value not in choices:
            raise DigestError(
                f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}."
            )
        return value

    return check


def _number(low: float, high: float, kind: type = float, optional: bool = False) -> Check:
    def check(value, name, base):
        if optional and value is None:
            return None
        number = isinstance(value, int | float) and not isinstance(value, bool)
        whole = kind is not int or (number and value == int(value))
        if not (number and whole and low <= value <= high):
            what = "whole number" if kind is int else "number"
            raise DigestError(f"{name} must be a {what} from {low} to {high}, not {value!r}.")
        return kind(value)

    return check


def _past_date(value, name, base) -> dt.date | None:
    """A date written YYYY-MM-DD that has begun somewhere on Earth: one after it would leave
    nothing to fetch or publish, and the site would be deployed empty without a word."""
    if value is None:
        return value
    if isinstance(value, dt.datetime):
        value = value.date()
    try:
        day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    except ValueError:
        raise DigestError(f"{name} must be a date written YYYY-MM-DD, not {value!r}.") from None
    earliest_today = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=14)).date()  # the date in UTC+14
    if day > earliest_today:
        raise DigestError(
            f"{name} is {day.isoformat()}, which is after today: nothing would be fetched or published; "
            "set a date in the past, or none."
        )
    return day


@dataclass(frozen=True)
class UserRules:
    """DIGEST_RULES as written: its data, and the file it was read from (None for a dict in the
    settings). The analysis merges it over DEFAULT_RULES and checks it (analysis/rules.py)."""

    data: dict
    origin: Path | None = None


def _rules(value, name, base) -> UserRules | None:
    """Read now, once a build, so that no stage reads the file again."""
    if value is None or isinstance(value, UserRules):
        return value
    if isinstance(value, dict):
        return UserRules(value)
    if not isinstance(value, str | Path):
        raise DigestError(
            f"{name} must be a dict or the path of a YAML file, not {type(value).__name__}."
        )
    path = Path(value) if Path(value).is_absolute() else base / value
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DigestError(
            f"{name} file {path} could not be read ({error.strerror or error})."
        ) from None
    except yaml.YAMLError as error:
        raise DigestError(
            f"{name} file {path} is not valid YAML ({str(error).splitlines()[0]})."
        ) from None
    if data is not None and not isinstance(data, dict):
        raise DigestError(
            f"{name} file {path} must hold a mapping of rule sections, like digest_plugin/rules.yaml."
        )
    return UserRules(data or {}, path)


@functools.cache
def _default_rules() -> dict:
    text = resources.files("digest_plugin").joinpath("rules.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def default_rules() -> dict:
    """The bundled rules (digest_plugin/rules.yaml) as plain data, a fresh copy each call: parsed
    once a process (as its text was read once), since a build asks twice and parsing takes 25 ms."""
    return copy.deepcopy(_default_rules())


def _discuss_url(value, name, base) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.startswith(("https://", "http://")):
        raise DigestError(
            f"{name} must be an http(s) address with {{owner}}, {{name}} and {{week}} in it, or None, not {value!r}."
        )
    try:
        used = {part[1] for part in string.Formatter().parse(value) if part[1] is not None}
    except ValueError:
        used = {"an unmatched brace"}
    unknown = sorted(used - set(DISCUSS_FIELDS))
    if unknown:
        raise DigestError(
            f"{name} may only use {{owner}}, {{name}} and {{week}}, not {{{unknown[0]}}}: {value!r}."
        )
    return value


@dataclass(frozen=True)
class LLMConfig:
    """DIGEST_LLM: an OpenAI-compatible Chat Completions endpoint for DIGEST_WRITER = "llm", and its
    caps (0: none). A request is sized to fit `max_input_tokens` (counted conservatively, with a
    margin); `max_output_tokens` is asked for; the build paces itself to `requests_per_minute` and
    sends at most `requests_per_day` (and `max_requests`)."""

    base_url: str
    model: str
    # the NAMES of the variables that may hold the key, never the key
    api_key_env: tuple[str, ...] = ("OPENAI_API_KEY",)
    max_requests: int = 50  # requests one build may send; then the built-in writer
    timeout: float = 60.0  # seconds per request, retries and waits included
    max_input_tokens: int = 0
    max_output_tokens: int = 0
    requests_per_minute: int = 0
    requests_per_day: int = 0


# DIGEST_WRITER = "copilot": the same writer through the Copilot CLI (digest_plugin/llm/copilot.py), DIGEST_LLM's
# keys over these. Without a base_url it asks Copilot with the GitHub token in the first of `api_key_env` that is
# set (a workflow's own token with `copilot-requests: write`); with one, the CLI runs offline against that
# OpenAI-compatible endpoint and `api_key_env` names its key. Each request is billed by Copilot: a handful a
# build, the newest finished weeks first (docs/model-writer.md).
COPILOT = {
    "base_url": "",
    "model": "gpt-5-mini",
    "api_key_env": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
    "max_requests": 4,
    "timeout": 300,  # the CLI's start and its own retries included
}
RETIRED = (
    'GitHub Models was retired on 2026-07-30 and its endpoint answers 410, so use DIGEST_WRITER = "copilot" '
    '(Copilot through the Copilot CLI, with a workflow\'s own token) or DIGEST_WRITER = "llm" with DIGEST_LLM '
    "naming any OpenAI-compatible endpoint (docs/model-writer.md)"
)


class _CopilotKeys(dict):
    """DIGEST_LLM's keys for DIGEST_WRITER = "copilot": over COPILOT's, with no base_url needed."""


LLM_EXAMPLE = '{"base_url": "https://…/v1", "model": "…"}'
_CAPS = ("max_input_tokens", "max_output_tokens", "requests_per_minute", "requests_per_day")


def _llm(value, name, base) -> LLMConfig | None:
    if value is None:
        return None  # DigestSettings refuses DIGEST_WRITER = "llm" without it
    if not isinstance(value, Mapping):
        raise DigestError(f"{name} must be a dict such as {LLM_EXAMPLE}.")
    keys = [f.name for f in fields(LLMConfig)]
    unknown = sorted(str(key) for key in value if key not in keys)
    if unknown:
        raise DigestError(
            f"{name} has an unknown key {unknown[0]!r}; its keys are: {', '.join(keys)}."
        )
    if isinstance(value, _CopilotKeys):
        return _llm_config({**COPILOT, **value}, name, base, copilot=True)
    return _llm_config(value, name, base)


def _llm_config(value: Mapping, name: str, base: Path, copilot: bool = False) -> LLMConfig:
    """DIGEST_LLM's keys, Copilot's defaults beneath them for that writer, checked one by one."""
    base_url, model = value.get("base_url"), value.get("model")
    if not (copilot and base_url == "") and (
        not isinstance(base_url, str) or not base_url.startswith(("https://", "http://"))
    ):
        raise DigestError(
            f"{name}['base_url'] must be the endpoint's address, such as https://api.openai.com/v1, not {base_url!r}."
        )
    if not isinstance(model, str) or not model.strip():
        raise DigestError(f"{name}['model'] must name the model, such as \"gpt-4o-mini\".")
    key_envs = _key_envs(value.get("api_key_env", LLMConfig.api_key_env), name)
    max_requests = _number(0, 100_000, int)(
        value.get("max_requests", LLMConfig.max_requests), f"{name}['max_requests']", base
    )
    timeout = value.get("timeout", LLMConfig.timeout)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 3600:
        raise DigestError(
            f"{name}['timeout'] must be a positive number of seconds, at most 3600, not {timeout!r}."
        )
    caps = {
        cap: _number(0, 10_000_000, int)(value.get(cap, 0), f"{name}[{cap!r}]", base)
        for cap in _CAPS
    }
    if 0 < caps["max_input_tokens"] < MIN_INPUT_TOKENS:
        raise DigestError(
            f"{name}['max_input_tokens'] must be 0 (no cap) or at least {MIN_INPUT_TOKENS}: the writer's rules alone take "
            f"about half of that, not {caps['max_input_tokens']!r}."
        )
    return LLMConfig(
        base_url.rstrip("/"), model.strip(), key_envs, max_requests, float(timeout), **caps
    )


MIN_INPUT_TOKENS = 2000


def _key_envs(value, name: str) -> tuple[str, ...]:
    names = (value,) if isinstance(value, str) else value
    if (
        not isinstance(names, list | tuple)
        or not names
        or not all(isinstance(n, str) and _ENVIRONMENT_NAME.match(n) for n in names)
    ):
        raise DigestError(
            f"{name}['api_key_env'] must be the name of an environment variable (such as \"OPENAI_API_KEY\"), "
            "or a list of names, not the key itself."
        )
    return tuple(names)


# -- the table ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DigestSettings:
    """The checked DIGEST_* settings of one site. Build it with `from_pelican`; the defaults
    (`DigestSettings()`) are what an empty pelicanconf.py gives."""

    repos: tuple[str, ...] = option(
        [],
        _repos,
        "repositories to publish, `owner/name`, or `owner/*` for every public, non-archived repository of an "
        "owner (resolved at each fetch); empty means every repository in the store",
    )
    data_path: Path = option(
        "data",
        _folder,
        "the store; a relative path is taken from the folder of the settings file (`pelicanconf.py`)",
    )
    timezone: ZoneInfo = option(
        "UTC", _timezone, "weeks are ISO weeks (Monday 00:00 to Monday 00:00) in this timezone"
    )
    language: str = option(
        "en", _one_of("en", "zh"), '`"en"` or `"zh"`: every visible string, date and number'
    )
    fetch: str = option(
        "auto",
        _one_of("auto", "never", "always"),
        "`auto`: fetch before building when a token is set; `never`; `always`",
    )
    since: dt.date | None = option(
        None, _past_date, "`YYYY-MM-DD`, not after today: how far back a first fetch goes"
    )
    lookback_days: int = option(
        7,
        _number(0, 365, int),
        "a refresh refetches this many days before its watermark, for late label edits",
    )
    trend_weeks: int = option(12, _number(2, 520, int), "weeks shown in a week page's trend charts")
    key_threshold: float | None = option(
        None,
        _number(0, 10, optional=True),
        "importance (0 to 10) from which a PR is key; `None`: relative to the repository's own weeks, about seven key PRs a busy week, "
        "never below 6",
    )
    rules: UserRules | None = option(
        None,
        _rules,
        "classification rules (labels, title prefixes, path globs, keyword topics): a dict or a YAML file",
    )
    bots: tuple[str, ...] = option(
        [],
        _logins,
        "more logins to treat as bots (GitHub's Bot type and `[bot]` logins always are)",
    )
    pdf: bool = option(
        True,
        _flag,
        "a PDF of each week (`digest.pdf`, drawn by WeasyPrint) beside `digest.md`, linked from the page; `False`: none",
    )
    discuss_url: str | None = option(
        None,
        _discuss_url,
        "a discussion link for each week: an address with `{owner}`, `{name}` and `{week}`; `None`: no link",
    )
    writer: str = option(
        "builtin",
        _one_of("builtin", "llm", "copilot"),
        'who words the week: the built-in writer, `"llm"`, a language model held to the data, or `"copilot"`: that writer '
        "through the Copilot CLI, with the environment's GitHub token (docs/model-writer.md)",
    )
    llm: LLMConfig | None = option(
        None,
        _llm,
        'the language model: `{"base_url", "model", "api_key_env": "OPENAI_API_KEY", "max_requests": 50, '
        '"timeout": 60}`, with the provider\'s caps `max_input_tokens`, `max_output_tokens`, `requests_per_minute`, '
        '`requests_per_day` (0: none); with `"copilot"`, optional: `{"model": "gpt-5-mini", "max_requests": 4}`',
    )

    in_blog: bool = option(
        False,
        _flag,
        "`False`: the weeks are a section of their own, with their own feeds of the kinds the site has (`FEED_ALL_ATOM`, "
        "`FEED_ALL_RSS`; `CATEGORY_FEED_ATOM`, `CATEGORY_FEED_RSS` for each repository's); `True`: they join the blog's index, "
        "tags (labels) and archives, and its feed gets each repository's newest finished week",
    )

    author: str | None = option(
        None,
        _author,
        "with `DIGEST_IN_BLOG = True`, the author the weeks are the articles of; `None`: the site's `AUTHOR` (none if unset)",
    )
    sitemap: bool = option(
        False,
        _flag,
        "`True`: write `sitemap.xml` of every page, when `SITEURL` is an absolute address (a sitemap's addresses "
        "must be) and pelican-sitemap, which lists the weeks itself, is not in `PLUGINS`",
    )

    base_path: Path = Path(".")  # where relative paths start: the settings file's folder

    def __post_init__(self):
        if self.writer == "llm" and self.llm is None:
            raise DigestError(f'DIGEST_WRITER = "llm" needs DIGEST_LLM = {LLM_EXAMPLE}.')

    @classmethod
    def from_pelican(cls, settings: Mapping, base_path: Path | str) -> DigestSettings:
        """Check the DIGEST_* values of a Pelican settings dict (or any mapping); relative paths
        start from `base_path`, the folder of the settings file."""
        names = [setting_name(f) for f in options()]
        unknown = sorted(
            k for k in settings if isinstance(k, str) and k.startswith("DIGEST_") and k not in names
        )
        if unknown:
            raise DigestError(
                f"Unknown setting {unknown[0]}; the DIGEST_* settings are: {', '.join(names)}."
            )
        base = Path(base_path).resolve()
        writer, llm = settings.get("DIGEST_WRITER"), settings.get("DIGEST_LLM")
        if writer == "github-models":
            raise DigestError(f'DIGEST_WRITER = "github-models" no longer works: {RETIRED}.')
        if llm == "github-models" or (
            isinstance(llm, Mapping) and llm.get("preset") == "github-models"
        ):
            raise DigestError(
                f"DIGEST_LLM names the GitHub Models preset, which no longer works: {RETIRED}."
            )
        # anything else is DIGEST_LLM's check's to refuse
        if writer == "copilot" and (llm is None or isinstance(llm, Mapping)):
            settings = {**settings, "DIGEST_LLM": _CopilotKeys(llm or {})}
        checked = {}
        for f in options():
            name = setting_name(f)
            checked[f.name] = f.metadata["check"](
                settings.get(name, f.metadata["default"]), name, base
            )
        return cls(**checked, base_path=base)


def options() -> list[Field]:
    """The fields of DigestSettings that are DIGEST_* options, in the table's order."""
    return [f for f in fields(DigestSettings) if "check" in f.metadata]


def setting_name(option_field: Field) -> str:
    return "DIGEST_" + option_field.name.upper()


def markdown_table() -> str:
    """README.md's settings table, made from the declarations above."""
    rows = ["| setting | default | meaning |", "| --- | --- | --- |"]
    for f in options():
        rows.append(
            f"| `{setting_name(f)}` | `{_as_written(f.metadata['default'])}` | {f.metadata['doc']} |"
        )
    return "\n".join(rows) + "\n"


def _as_written(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


if __name__ == "__main__":
    sys.stdout.write(markdown_table())
