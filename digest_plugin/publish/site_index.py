"""The pages around the weeks, as data for the theme: each repository's last complete week with a
small trend (the index), every PR by label or module and by author across weeks (label and author
pages), the feeds a site offers (the feeds page) and the sitemap.

Pure: from the SiteDigest a build has made and Pelican's settings to plain values; hooks.py puts
them in the template context and site_files.py writes the pages that are not Pelican's own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from xml.sax.saxutils import escape

from digest_plugin.analysis.model import AnalysedPull
from digest_plugin.publish.site_digest import RepoPage, WeekPage

_GITHUB_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?")
TREND_WEEKS = 12  # bars in an index card's trend
TREND_WIDTH, TREND_HEIGHT = 120, 28  # its SVG's size in CSS pixels


@dataclass(frozen=True, slots=True)
class PullRow:
    """One PR in a list across weeks, with the week it was merged in."""

    week: WeekPage
    pull: AnalysedPull

    @property
    def url(self) -> str:
        """The PR's web address, or "" where the record's address is not http(s) (never a link)."""
        url = self.pull.pull.url
        return url if url.startswith(("https://", "http://")) else ""


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  # "2026-W21: 7"
    current: bool


@dataclass(frozen=True)
class RepoSummary:
    """An index card: the repository, its last complete week and the weeks' merged counts before it."""

    repo: RepoPage
    week: WeekPage | None  # the last finished week (RepoPage.latest)
    trend: tuple[Bar, ...]
    trend_text: str  # the trend's numbers, for readers who cannot see it


@dataclass(frozen=True)
class Feed:
    title: str
    atom: str | None  # site-relative paths
    rss: str | None


@lru_cache(maxsize=65536)  # pure, and asked once for every row of every label's and author's table
def author_slug(login: str) -> str:
    """A login as a path segment: "dependabot[bot]" becomes "dependabot-bot". GitHub logins are
    unique whatever their case; any other name (a git display name, hostile text) gets a hash too,
    so that two names never share a page."""
    slug = re.sub(r"[^a-z0-9]+", "-", login.lower()).strip("-") or "author"
    if _GITHUB_LOGIN.fullmatch(login):
        return slug
    return f"{slug[:40]}-{hashlib.sha1(login.encode()).hexdigest()[:8]}"


def author_path(login: str) -> str:
    return f"authors/{author_slug(login)}/"


def repo_summaries(repos: Sequence[RepoPage], _) -> list[RepoSummary]:
    return [_summary(repo, _) for repo in repos]


def _summary(repo: RepoPage, _) -> RepoSummary:
    week = repo.latest
    shown = repo.weeks[: repo.weeks.index(week) + 1][-TREND_WEEKS:] if week else []
    counts = [w.analysis.stats.merged_count for w in shown]
    text = _("Merged pull requests per week, {first} to {last}: {counts}.").format(
        first=shown[0].week, last=shown[-1].week, counts=", ".join(map(str, counts))) if shown else ""
    return RepoSummary(repo, week, tuple(trend_bars([(w.week, c) for w, c in zip(shown, counts)])), text)


def trend_bars(values: Sequence[tuple[str, int]], width: float = TREND_WIDTH, height: float = TREND_HEIGHT) -> list[Bar]:
    """Bars for a sparkline: equal slots left to right, scaled to the largest value, the last one current."""
    if not values:
        return []
    top = max(count for _week, count in values) or 1
    slot = width / len(values)
    bars = []
    for index, (week, count) in enumerate(values):
        tall = max(1.0, height * count / top) if count else 0.0
        bars.append(Bar(round(index * slot + slot * 0.1, 2), round(height - tall, 2), round(slot * 0.8, 2), round(tall, 2),
                        f"{week}: {count}", index == len(values) - 1))
    return bars


@dataclass(frozen=True)
class TagPulls:
    """Every PR under one label or module, a group per week, newest week first."""

    weeks: tuple[tuple[PullRow, ...], ...]

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[PullRow]:
        """Every row, for a theme that lists them all on one page."""
        return (row for rows in self.weeks for row in rows)

    def on_page(self, articles: Iterable, first: bool = True) -> list[PullRow]:
        """The rows of the weeks among `articles` (one page of the tag's articles, as Pelican
        paginates them), and on the `first` page those of a week not yet published: each page of
        a busy label holds its own weeks rather than every PR again."""
        shown = {self._position.get(id(week)) for week in (getattr(article, "digest_week", None) for article in articles)}
        shown.discard(None)
        if first:
            shown.update(self._unpublished)
        return [row for position in sorted(shown) for row in self.weeks[position]]

    # Asked on every page of the label (a busy one has hundreds): counted and indexed once.
    @cached_property
    def _count(self) -> int:
        return sum(len(rows) for rows in self.weeks)

    @cached_property
    def _position(self) -> dict[int, int]:
        return {id(rows[0].week): position for position, rows in enumerate(self.weeks)}

    @cached_property
    def _unpublished(self) -> tuple[int, ...]:
        return tuple(position for position, rows in enumerate(self.weeks) if not rows[0].week.final)


def pulls_by_tag(tag_rows: Iterable[tuple[WeekPage, dict[str, list[PullRow]]]]) -> dict[str, TagPulls]:
    """Every PR under each label and module (the site's tags), newest week first, then by
    importance, from each week's `week_pulls_by_tag`."""
    weeks: dict[str, list[tuple[PullRow, ...]]] = {}
    for _week, rows in sorted(tag_rows, key=lambda item: (item[0].analysis.start, item[0].repo), reverse=True):
        for tag, week_rows in rows.items():
            weeks.setdefault(tag, []).append(tuple(week_rows))
    return {tag: TagPulls(tuple(rows)) for tag, rows in weeks.items()}


def week_pulls_by_tag(week: WeekPage) -> dict[str, list[PullRow]]:
    """The week's PRs under each of its labels and modules, by importance: a label feed's entry."""
    rows: dict[str, list[PullRow]] = {}
    for pull in week.analysis.pulls:
        for tag in dict.fromkeys([*pull.classification.labels, *pull.classification.modules]):
            rows.setdefault(tag, []).append(PullRow(week, pull))
    return rows


def pulls_by_author(repos: Iterable[RepoPage]) -> dict[str, list[PullRow]]:
    """Every PR of each author (by login), newest week first, then by importance."""
    rows: dict[str, list[PullRow]] = {}
    for week, pull in _newest_first(repos):
        rows.setdefault(pull.pull.author.login, []).append(PullRow(week, pull))
    return dict(sorted(rows.items(), key=lambda item: item[0].lower()))


def _newest_first(repos: Iterable[RepoPage]) -> list[tuple[WeekPage, AnalysedPull]]:
    return [(week, pull) for week in _newest_first_weeks(repos) for pull in week.analysis.pulls]  # pulls are by importance already


def _newest_first_weeks(repos: Iterable[RepoPage]) -> list[WeekPage]:
    return sorted((w for repo in repos for w in repo.weeks), key=lambda w: (w.analysis.start, w.repo), reverse=True)


def site_feeds(settings: dict, repos: Sequence[RepoPage], tags: Iterable) -> list[tuple[str, list[Feed]]]:
    """The feeds the settings turn on, in groups for the feeds page: the site, repositories, labels."""
    def feed(title: str, atom: str | None, rss: str | None, slug: str = "") -> Feed | None:
        if not atom and not rss:
            return None
        return Feed(title, atom and atom.format(slug=slug), rss and rss.format(slug=slug))

    site = [feed(settings.get("SITENAME", ""), settings.get("FEED_ALL_ATOM"), settings.get("FEED_ALL_RSS"))]
    by_repo = [feed(repo.name, settings.get("CATEGORY_FEED_ATOM"), settings.get("CATEGORY_FEED_RSS"), repo.name)
               for repo in repos]
    by_tag = [feed(tag.name, settings.get("TAG_FEED_ATOM"), settings.get("TAG_FEED_RSS"), tag.slug)
              for tag in sorted(tags, key=lambda t: t.name.lower())]
    groups = [("site", site), ("repositories", by_repo), ("labels", by_tag)]
    return [(name, [f for f in feeds if f]) for name, feeds in groups if any(feeds)]


def sitemap_xml(paths: Iterable[str], site_url: str) -> str:
    """A sitemap (sitemaps.org 0.9) of site-relative page paths; absolute when SITEURL is set."""
    base = site_url.rstrip("/") + "/" if site_url else "/"
    entries = "".join(f"  <url><loc>{escape(base + path)}</loc></url>\n" for path in sorted(set(paths)))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + entries + "</urlset>\n")
