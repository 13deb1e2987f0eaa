"""What one build publishes: every repository's weeks, analysed, narrated and prepared for templates.

Pure apart from reading the store: the hooks turn the result into Pelican articles and files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..analysis.model import WeekAnalysis
from ..charts import Chart, repo_charts, site_palette, week_charts
from ..errors import DigestError
from ..i18n import translations
from ..narrate import Narrative, check_grounding, narrate
from ..settings import DigestSettings
from ..site import load_weeks
from ..store import Store
from ..urls import absolute, repo_path, week_path
from ..weeks import Week


@dataclass
class WeekPage:
    repo: str
    analysis: WeekAnalysis
    narrative: Narrative
    charts: list[Chart]
    title: str
    date: datetime
    url: str  # site-relative, ends in "/"
    absolute_url: str
    tags: tuple[str, ...]
    downloads: dict[str, str]  # format -> file name in the week folder

    @property
    def week(self) -> str:
        return self.analysis.week

    @property
    def slug(self) -> str:
        return f"{self.repo.replace('/', '-')}-{self.week}"

    @property
    def summary_html(self) -> str:
        from ..narrate import cited_html

        return str(cited_html(self.narrative.summary, _repo_url(self)))


@dataclass
class RepoPage:
    name: str
    url: str
    weeks: list[WeekPage]  # oldest first
    charts: list[Chart] = field(default_factory=list)

    @property
    def latest(self) -> WeekPage | None:
        return self.weeks[-1] if self.weeks else None


@dataclass
class SiteDigest:
    settings: DigestSettings
    repos: list[RepoPage]
    warnings: list[str] = field(default_factory=list)


def build_site_digest(settings: DigestSettings, pelican_settings: dict, now: datetime) -> SiteDigest:
    store = Store(settings.data_path)
    if not store.root.is_dir():
        raise DigestError(f"The data folder {store.root} does not exist; run 'repo-digest sample' or 'repo-digest fetch' first.")
    names = list(settings.repos) or store.repos()
    histories = {name: load_weeks(store, name, settings, now) for name in names}
    _ = translations(settings.language).gettext
    palette = site_palette(histories.values())
    site_url = pelican_settings.get("SITEURL", "")
    repos = []
    for name, history in histories.items():
        pages = []
        for index, analysis in enumerate(history):
            narrative = narrate(analysis, history[:index], settings.language)
            problems = check_grounding(analysis, narrative)
            if problems:
                raise DigestError(f"The text written for {name} {analysis.week} is not grounded in its data: {problems[0]}")
            pages.append(_week_page(name, analysis, narrative, history[:index + 1], settings, palette, site_url, _))
        repos.append(RepoPage(name, repo_path(name), pages, repo_charts(history, palette, _)))
    return SiteDigest(settings, repos)


def _week_page(repo, analysis, narrative, history, settings, palette, site_url, _) -> WeekPage:
    week = Week.parse(analysis.week)
    path = week_path(repo, analysis.week)
    stats = analysis.stats
    downloads = {"md": "digest.md"}
    if settings.pdf:
        downloads["pdf"] = "digest.pdf"
    return WeekPage(
        repo=repo,
        analysis=analysis,
        narrative=narrative,
        charts=week_charts(analysis, history, settings.trend_weeks, palette, _),
        title=_("{repo}: week {week}").format(repo=repo, week=analysis.week),
        date=_publication_date(analysis, week, settings),
        url=path,
        absolute_url=absolute(site_url, path),
        tags=tuple(dict.fromkeys([*stats.labels, *stats.modules])),
        downloads=downloads,
    )


def _publication_date(analysis: WeekAnalysis, week: Week, settings: DigestSettings) -> datetime:
    """A finished week is dated at its end; one in progress at its latest merge, never in the future."""
    tz = settings.timezone
    if not analysis.in_progress:
        return week.end(tz).astimezone(tz)
    merges = [p.pull.merged_at for p in analysis.pulls]
    return (max(merges) if merges else week.start(tz)).astimezone(tz)


def _repo_url(page: WeekPage) -> str:
    return f"https://github.com/{page.repo}"
