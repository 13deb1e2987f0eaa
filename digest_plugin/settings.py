"""Settings: every DIGEST_* name, its default, and the one place they are validated.

Nothing else reads DIGEST_* keys from Pelican's settings dict; stages receive a DigestSettings.

    DIGEST_REPOS = ["owner/name", ...]   repositories to publish (default: every one in the store)
    DIGEST_DATA_PATH = "data"            the store, relative to the settings file
    DIGEST_TIMEZONE = "UTC"              weeks are ISO weeks in this timezone
    DIGEST_LANGUAGE = "en"               "en" or "zh"
    DIGEST_FETCH = "auto"                "auto" (fetch before building when a token is set), "never", "always"
    DIGEST_SINCE = None                  "YYYY-MM-DD": how far back a first fetch goes (default 26 weeks)
    DIGEST_LOOKBACK_DAYS = 7             a refresh refetches this many days before its watermark
    DIGEST_TREND_WEEKS = 12              weeks shown in a week page's trend charts
    DIGEST_KEY_THRESHOLD = 6.0           importance (0-10) from which a PR is key
    DIGEST_RULES = None                  classification rules: a dict, or the path of a YAML file
    DIGEST_BOTS = []                     extra logins to treat as bots
    DIGEST_PDF = False                   reserved for a PDF download beside digest.md (not available yet)
    DIGEST_IN_BLOG = True                weeks join the blog's index, tags, archives and feeds; False: a section of their own
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import DigestError

DEFAULTS = {
    "DIGEST_REPOS": [],
    "DIGEST_DATA_PATH": "data",
    "DIGEST_TIMEZONE": "UTC",
    "DIGEST_LANGUAGE": "en",
    "DIGEST_FETCH": "auto",
    "DIGEST_SINCE": None,
    "DIGEST_LOOKBACK_DAYS": 7,
    "DIGEST_TREND_WEEKS": 12,
    "DIGEST_KEY_THRESHOLD": 6.0,
    "DIGEST_RULES": None,
    "DIGEST_BOTS": [],
    "DIGEST_PDF": False,
    "DIGEST_IN_BLOG": True,
}
LANGUAGES = ("en", "zh")
FETCH_MODES = ("auto", "never", "always")


@dataclass(frozen=True)
class DigestSettings:
    repos: tuple[str, ...] = ()
    data_path: Path = Path("data")
    timezone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))
    language: str = "en"
    fetch: str = "auto"
    since: dt.date | None = None
    lookback_days: int = 7
    trend_weeks: int = 12
    key_threshold: float = 6.0
    rules: dict | str | None = None  # validated by the classifier, which owns their meaning
    bots: tuple[str, ...] = ()
    pdf: bool = False
    in_blog: bool = True
    base_path: Path = Path(".")

    @classmethod
    def from_pelican(cls, settings: dict, base_path: Path | str | None = None) -> DigestSettings:
        """Read and check the DIGEST_* values of a Pelican settings dict (or any mapping)."""
        unknown = sorted(k for k in settings if k.startswith("DIGEST_") and k not in DEFAULTS)
        if unknown:
            raise DigestError(f"Unknown setting {unknown[0]}; the DIGEST_* settings are: {', '.join(DEFAULTS)}.")
        value = {**DEFAULTS, **{k: v for k, v in settings.items() if k in DEFAULTS}}
        base = Path(base_path or settings.get("PATH", ".")).resolve()
        if base_path is None and "PATH" in settings:
            base = base.parent  # PATH is content/; the store sits beside it

        repos = value["DIGEST_REPOS"]
        if isinstance(repos, str) or not all(isinstance(r, str) for r in repos):
            raise DigestError("DIGEST_REPOS must be a list of 'owner/name' (or 'owner/*') strings.")
        language = value["DIGEST_LANGUAGE"]
        if language not in LANGUAGES:
            raise DigestError(f"DIGEST_LANGUAGE must be one of {', '.join(LANGUAGES)}, not {language!r}.")
        fetch = value["DIGEST_FETCH"]
        if fetch not in FETCH_MODES:
            raise DigestError(f"DIGEST_FETCH must be one of {', '.join(FETCH_MODES)}, not {fetch!r}.")
        bots = value["DIGEST_BOTS"]
        if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
            raise DigestError("DIGEST_BOTS must be a list of logins, for example [\"release-robot\"].")
        if not isinstance(value["DIGEST_PDF"], bool):
            raise DigestError(f"DIGEST_PDF must be True or False, not {value['DIGEST_PDF']!r}.")
        if value["DIGEST_PDF"]:
            raise DigestError("DIGEST_PDF is not available in this version of repo-digest: the Markdown download is; set DIGEST_PDF = False.")
        data_path = Path(value["DIGEST_DATA_PATH"])
        return cls(
            repos=tuple(r if _OWNER_ENTRY.match(r) else check_repo_name(r) for r in repos),
            data_path=data_path if data_path.is_absolute() else base / data_path,
            timezone=check_timezone(value["DIGEST_TIMEZONE"]),
            language=language,
            fetch=fetch,
            since=_date(value["DIGEST_SINCE"], "DIGEST_SINCE"),
            lookback_days=_number(value["DIGEST_LOOKBACK_DAYS"], "DIGEST_LOOKBACK_DAYS", 0, 365, int),
            trend_weeks=_number(value["DIGEST_TREND_WEEKS"], "DIGEST_TREND_WEEKS", 2, 520, int),
            key_threshold=_number(value["DIGEST_KEY_THRESHOLD"], "DIGEST_KEY_THRESHOLD", 0, 10, float),
            rules=value["DIGEST_RULES"],
            bots=tuple(bots),
            pdf=value["DIGEST_PDF"],
            in_blog=_flag(value["DIGEST_IN_BLOG"], "DIGEST_IN_BLOG"),
            base_path=base,
        )


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise DigestError(f"{name} must be True or False, not {value!r}.")
    return value


def _date(value, name: str) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise DigestError(f"{name} must be a date written YYYY-MM-DD, not {value!r}.") from None


def _number(value, name: str, low: float, high: float, kind: type):
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise DigestError(f"{name} must be a number from {low} to {high}, not {value!r}.")
    return kind(value)


_REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_OWNER_ENTRY = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*/\*$")  # owner/*: every public repository of owner


def check_repo_name(repo: str) -> str:
    if not _REPO_NAME.match(repo) or ".." in repo:
        raise DigestError(f"'{repo}' is not a repository name: write it as OWNER/NAME, for example getpelican/pelican.")
    return repo


def check_timezone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise DigestError(f"DIGEST_TIMEZONE '{name}' is not a known timezone name, such as UTC or Asia/Shanghai.") from None
