"""The pages around the weeks, as data for the theme: each repository's last complete week with a
small trend (the index), each label's, module's and author's PRs week by week (their pages), the
feeds a site offers (the feeds page) and the sitemap.

Pure: from the SiteDigest a build has made and Pelican's settings to plain values; hooks.py puts
them in the template context and site_files.py writes the pages that are not Pelican's own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property, lru_cache
from xml.sax.saxutils import escape

from digest_plugin.publish.site_digest import ListedPull, RepoPage, WeekPage
from digest_plugin.weeks import Week

_GITHUB_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?")
TREND_WEEKS = 12  # bars in an index card's trend
TREND_SIZE = (120, 28)  # its SVG's size in CSS pixels


@dataclass(frozen=True, slots=True)
class PullRow:
    """One PR in a list across weeks, with the week it was merged in."""

    week: WeekPage
    pull: ListedPull

    @property
    def url(self) -> str:
        """The PR's web address, or "" where the record's address is not http(s) (never a link)."""
        url = self.pull.url
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


def repo_summary(repo: RepoPage, _) -> RepoSummary:
    week = repo.latest
    # the trend: the weeks up to it, quiet ones too
    weeks = [(name, count) for name, count in repo.merged_by_week if week and name <= week.week]
    shown = weeks[-TREND_WEEKS:]
    text = ""
    if shown:
        sentence = _("Merged pull requests per week, {first} to {last}: {counts}.")
        counts = ", ".join(str(count) for _week, count in shown)
        text = sentence.format(first=shown[0][0], last=shown[-1][0], counts=counts)
    slots = [(index, name, count) for index, (name, count) in enumerate(shown)]
    return RepoSummary(repo, week, tuple(placed_bars(slots, len(shown), *TREND_SIZE)), text)


def placed_bars(
    values: Sequence[tuple[int, str, int]], slots: int, width: float, height: float
) -> list[Bar]:
    """A bar for each (slot, week, count) of `slots` equal slots left to right, scaled to the
    largest count, the one in the last slot current."""
    if not values:
        return []
    top = max(count for _slot, _week, count in values) or 1
    slot_width = width / slots
    bars = []
    for index, week, count in values:
        tall = max(1.0, height * count / top) if count else 0.0
        x, y = round(index * slot_width + slot_width * 0.1, 2), round(height - tall, 2)
        last = index == slots - 1
        bars.append(Bar(x, y, round(slot_width * 0.8, 2), round(tall, 2), f"{week}: {count}", last))
    return bars


# Weeks whose PRs a label's or author's page lists (older ones are on their week's page), unless
# that many PRs would pass NEWEST_PULLS (the newest week is listed whole whatever its size).
NEWEST_WEEKS, NEWEST_PULLS = 4, 100
TRENDS_SIZE = (640, 80)  # a label's or author's trend, in CSS pixels at most (it shrinks)


@dataclass(frozen=True, slots=True)
class WeekPulls:
    """One week's PRs under a label or module, or of an author, by importance: a row of that page's
    table of weeks and, for the newest weeks, a list of PRs."""

    week: WeekPage
    rows: tuple[PullRow, ...]

    @property
    def key_count(self) -> int:
        return sum(1 for row in self.rows if row.pull.key)


@dataclass(frozen=True)
class Trend:
    """PRs a week, from the first week with one to the site's newest, all repositories together.
    A week without any has its place but no bar: a page's bars are as many as its weeks."""

    bars: tuple[Bar, ...]
    first: str  # week ids
    last: str
    most: int  # the most PRs in one week
    size: tuple[int, int] = TRENDS_SIZE


@dataclass(frozen=True)
class AcrossWeeks:
    """The PRs under one label or module, or of one author, a group per week, newest week first.
    Its page shows a trend, a row per week and the PRs of the newest weeks only, so the page grows
    with the weeks, not with the PRs; older PRs are on their week's page."""

    weeks: tuple[WeekPulls, ...]
    site_last: str  # the site's newest week, where the trend ends

    def __len__(self) -> int:
        return self._count

    def on_page(self, articles: Iterable, first: bool = True) -> list[WeekPulls]:
        """The weeks among `articles` (one page of the weeks, as Pelican paginates them), and on
        the `first` page a week not yet published, newest first."""
        weeks = (getattr(article, "digest_week", None) for article in articles)
        shown = {
            position for week in weeks if (position := self._position.get(id(week))) is not None
        }
        if first:
            shown.update(self._unpublished)
        return [self.weeks[position] for position in sorted(shown)]

    @cached_property
    def newest(self) -> tuple[WeekPulls, ...]:
        """The weeks whose PRs the page lists: the newest few, with no more than NEWEST_PULLS PRs
        unless the newest week alone has more."""
        shown: list[WeekPulls] = []
        count = 0
        for week in self.weeks[:NEWEST_WEEKS]:
            count += len(week.rows)
            if shown and count > NEWEST_PULLS:
                break
            shown.append(week)
        return tuple(shown)

    @cached_property
    def trend(self) -> Trend:
        counts: dict[str, int] = {}
        for week in self.weeks:
            counts[week.week.week] = counts.get(week.week.week, 0) + len(week.rows)
        first, last = min(counts), max(self.site_last, *counts)
        start = Week.parse(first).monday
        slots = (Week.parse(last).monday - start).days // 7 + 1
        placed = sorted(
            ((Week.parse(week).monday - start).days // 7, week, count)
            for week, count in counts.items()
        )
        return Trend(
            tuple(placed_bars(placed, slots, *TRENDS_SIZE)), first, last, max(counts.values())
        )

    # Asked on every page of the label or author (a busy one has several): counted and indexed once.
    @cached_property
    def _count(self) -> int:
        return sum(len(week.rows) for week in self.weeks)

    @cached_property
    def _position(self) -> dict[int, int]:
        return {id(week.week): position for position, week in enumerate(self.weeks)}

    @cached_property
    def _unpublished(self) -> tuple[int, ...]:
        return tuple(position for position, week in enumerate(self.weeks) if not week.week.final)


def week_pulls_by_tag(week: WeekPage) -> dict[str, list[PullRow]]:
    """The week's PRs under each of its labels and modules, by importance: a label feed's entry."""
    return _rows_by(week, lambda pull: pull.tags)


def pulls_by_author(repos: Sequence[RepoPage]) -> dict[str, AcrossWeeks]:
    """The PRs of each author (by login), newest week first, each week's by importance."""
    rows = [
        (week, _rows_by(week, lambda pull: (pull.author,))) for repo in repos for week in repo.weeks
    ]
    return dict(sorted(across_weeks(rows).items(), key=lambda item: item[0].lower()))


def _rows_by(
    week: WeekPage, names: Callable[[ListedPull], Iterable[str]]
) -> dict[str, list[PullRow]]:
    """The week's PRs under each of the `names` each has, by importance (as the week has them)."""
    rows: dict[str, list[PullRow]] = {}
    for pull in week.pulls:
        for name in names(pull):
            rows.setdefault(name, []).append(PullRow(week, pull))
    return rows


def across_weeks(
    week_rows: Iterable[tuple[WeekPage, dict[str, list[PullRow]]]],
) -> dict[str, AcrossWeeks]:
    """Each name's (a tag's, an author's) rows of every week, newest week first, each week's by
    importance: the PRs under each label and module (the site's tags), from each week's
    `week_pulls_by_tag`, or of each author."""
    newest_first = sorted(
        week_rows, key=lambda item: (item[0].analysis.start, item[0].repo), reverse=True
    )
    weeks: dict[str, list[WeekPulls]] = {}
    for week, rows in newest_first:
        for name, named in rows.items():
            weeks.setdefault(name, []).append(WeekPulls(week, tuple(named)))
    newest = newest_first[0][0].week if newest_first else ""
    return {name: AcrossWeeks(tuple(groups), newest) for name, groups in weeks.items()}


def site_feeds(
    settings: dict, repos: Sequence[RepoPage], tags: Iterable
) -> list[tuple[str, list[Feed]]]:
    """The feeds the settings turn on, in groups for the feeds page: the site, repositories, labels."""

    def feed(title: str, kind: str, slug: str = "") -> Feed | None:
        """The feed of `kind` (FEED_ALL, CATEGORY_FEED, TAG_FEED), where its settings turn it on."""
        atom, rss = settings.get(f"{kind}_ATOM"), settings.get(f"{kind}_RSS")
        if not atom and not rss:
            return None
        return Feed(title, atom and atom.format(slug=slug), rss and rss.format(slug=slug))

    site = [feed(settings.get("SITENAME", ""), "FEED_ALL")]
    by_repo = [feed(repo.name, "CATEGORY_FEED", repo.name) for repo in repos]
    by_tag = [
        feed(tag.name, "TAG_FEED", tag.slug) for tag in sorted(tags, key=lambda t: t.name.lower())
    ]
    groups = [("site", site), ("repositories", by_repo), ("labels", by_tag)]
    return [(name, [f for f in feeds if f]) for name, feeds in groups if any(feeds)]


def page_dates(repos: Iterable[RepoPage]) -> dict[str, datetime]:
    """When each week's page (at its end, or its latest merge while in progress) and each
    repository's page (with its newest week) last changed, by site-relative path."""
    dates: dict[str, datetime] = {}
    for repo in repos:
        dates.update((week.url, week.date) for week in repo.weeks)
        if repo.weeks:
            dates[repo.url] = max(week.date for week in repo.weeks)
    return dates


def sitemap_xml(paths: Iterable[str], site_url: str, dates: Mapping[str, datetime]) -> str:
    """A sitemap (sitemaps.org 0.9) of site-relative page paths, absolute when SITEURL is set, with
    each page's `lastmod` where `dates` knows it."""
    base = site_url.rstrip("/") + "/" if site_url else "/"
    entries = "".join(
        f"  <url><loc>{escape(base + path)}</loc>{_lastmod(dates.get(path))}</url>\n"
        for path in sorted(set(paths))
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + entries + "</urlset>\n"
    )


def _lastmod(moment: datetime | None) -> str:
    return (
        f"<lastmod>{moment.isoformat(timespec='seconds')}</lastmod>" if moment is not None else ""
    )
