"""What one build publishes: every repository's weeks, analysed, narrated and prepared for templates.

Apart from reading the store this is pure: the hooks turn the result into Pelican articles and
files. Every visible string here goes through the catalogue (`_`), so templates only loop and print.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property, partial
from itertools import groupby, pairwise
from pathlib import Path
from typing import NamedTuple, TypeVar

from digest_plugin.analysis.model import AnalysedPull, WeekAnalysis
from digest_plugin.build.cache import AnalysisMemos, Memo, code_salt, key
from digest_plugin.charts import (
    Chart,
    Palette,
    RepoCharts,
    in_site_palette,
    repo_charts,
    site_palette,
    week_charts,
)
from digest_plugin.charts.trends import trend_window
from digest_plugin.errors import DigestError
from digest_plugin.llm import language_model_writer, requests_made
from digest_plugin.narrate import Narrative, narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.narrate.writers import RECENT_WEEKS
from digest_plugin.publish.history import analysis_options, stream_histories
from digest_plugin.publish.week_view import EditorNote, WeekView, week_view
from digest_plugin.records.pull import parse_time
from digest_plugin.settings import DigestSettings
from digest_plugin.stages import Made
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import expand_repos
from digest_plugin.urls import absolute, feed_entry_id, repo_path, week_path
from digest_plugin.weeks import Week

logger = logging.getLogger(__name__)
T = TypeVar("T")


class ListedPull(NamedTuple):
    """A PR as what reads a week once its view is made lists it (the label and author pages, the
    label feeds, the week's tags): without its body, files and analysis, most of the memory a PR
    takes, so that a site of thousands of weeks holds its lists and not its PRs."""

    number: int
    title: str
    author: str  # login
    url: str
    score: float
    key: bool
    tags: tuple[str, ...]  # see `pull_tags`


@dataclass
class WeekPage:
    repo: str
    analysis: WeekAnalysis  # without its PRs (`pulls` lists them): its figures, dates and fetch
    pulls: tuple[ListedPull, ...]  # by importance, as the week has them
    narrative: Narrative
    view: WeekView  # what every rendering of the week shows: page, feed entry, Markdown, PDF
    date: datetime
    url: str  # site-relative, ends in "/"
    absolute_url: str
    repo_url: str  # the repository on GitHub, for PR links in text
    discuss_url: str = ""  # DIGEST_DISCUSS_URL filled in; "" when off
    pdf: bool = False  # whether digest.pdf is offered
    previous_week: str | None = None
    next_week: str | None = None
    # The charts in the site's palette, as drawn. The view's are the same charts unstyled: a page
    # shows a chart's file, words and numbers, never its colours, so a palette that a new name
    # changed leaves every report as it was, and its kept texts (build/cache.py) still apply.
    charts: tuple[Chart, ...] = ()
    # what the view shows, hashed: the key of its report texts (build/cache.py's TextCache)
    view_key: str = ""

    @property
    def status(self) -> str:
        return self.view.status

    @property
    def status_short(self) -> str:
        return self.view.status_short

    @property
    def dates_text(self) -> str:
        return self.view.dates

    @property
    def week(self) -> str:
        return self.analysis.week

    @property
    def final(self) -> bool:
        """Closed and fetched through its end (or marked as never complete): what feeds and the
        index carry. The week in progress, or one whose fetch stopped early, waits for its page."""
        a = self.analysis
        return not a.in_progress and (a.complete or a.fetch.truncated)

    @property
    def feed_id(self) -> str:
        return feed_entry_id(self.repo_url, self.repo, self.week, self.analysis.start)

    @property
    def slug(self) -> str:
        return f"{self.repo.replace('/', '-')}-{self.week}"

    @property
    def tags(self) -> tuple[str, ...]:
        """The week's labels and modules, as Pelican's tags (see `pull_tags`), the most frequent first."""
        stats = self.analysis.stats
        tagged = {tag for pull in self.pulls for tag in pull.tags}
        return tuple(tag for tag in dict.fromkeys([*stats.labels, *stats.modules]) if tag in tagged)

    @property
    def previous_url(self) -> str | None:
        return week_path(self.repo, self.previous_week) if self.previous_week else None

    @property
    def next_url(self) -> str | None:
        return week_path(self.repo, self.next_week) if self.next_week else None

    quiet = False  # a row of the repository's list of weeks that is a week's page


def pull_tags(pull: AnalysedPull) -> tuple[str, ...]:
    """What a PR files a week under as Pelican's tags (label pages and feeds): its labels, and its
    modules unless they are only words its title wrote (`[1/n]`, a one-off scope), which would
    fill a host blog's tags with fragments of PR titles."""
    found = pull.classification
    modules = () if found.modules_from_title else found.modules
    return tuple(dict.fromkeys([*found.labels, *modules]))


def is_quiet(analysis: WeekAnalysis) -> bool:
    """Nothing merged, and nothing known to be missing: a week with no page, no feed entry and no
    article, listed on its repository's page as quiet. A closed week whose fetch is incomplete
    keeps its page, which says so."""
    return analysis.stats.merged_count == 0 and (analysis.complete or analysis.in_progress)


@dataclass(frozen=True)
class QuietWeeks:
    """Consecutive quiet weeks of a repository, one line of its list of weeks."""

    first: str
    last: str
    dates_text: str

    quiet = True

    @property
    def weeks_text(self) -> str:
        return self.first if self.first == self.last else f"{self.first} – {self.last}"


def quiet_runs(history: list[WeekAnalysis], language: Language) -> list[QuietWeeks]:
    """The quiet weeks of a history (oldest first), consecutive ones together."""
    runs = [list(weeks) for quiet, weeks in groupby(history, key=is_quiet) if quiet]
    return [QuietWeeks(r[0].week, r[-1].week, language.dates(r[0].start, r[-1].end)) for r in runs]


@dataclass
class RepoPage:
    name: str
    url: str
    weeks: list[WeekPage]  # the weeks with a page (anything merged), oldest first
    charts: list[Chart] = field(default_factory=list)
    overview_text: str = ""
    quiet: list[QuietWeeks] = field(default_factory=list)  # the others, oldest first
    # every week's merged count, quiet ones too, oldest first
    merged_by_week: tuple[tuple[str, int], ...] = ()

    @cached_property  # asked on every page of the site's index
    def sample(self) -> bool:
        """Whether its data is the bundled sample's (`repo-digest sample`): a fictional repository."""
        return any(week.analysis.fetch.source == "sample" for week in self.weeks)

    @property
    def listing(self) -> list[WeekPage | QuietWeeks]:
        """The repository's weeks, newest first: a page each, or a line for a run of quiet ones."""
        return sorted(
            [*self.weeks, *self.quiet],
            key=lambda row: row.week if isinstance(row, WeekPage) else row.first,
            reverse=True,
        )

    @property
    def latest(self) -> WeekPage | None:
        """The newest finished week: the one the index and the feeds lead with."""
        return next((w for w in reversed(self.weeks) if w.final), None)

    @property
    def current(self) -> WeekPage | None:
        """The week in progress (or not yet fetched through), shown as "this week so far"."""
        return self.weeks[-1] if self.weeks and not self.weeks[-1].final else None


@dataclass
class SiteDigest:
    settings: DigestSettings
    language: Language
    repos: list[RepoPage]
    warnings: list[str] = field(default_factory=list)
    # the drawing started alongside the build; raises what drawing raised
    charts_drawn: Future | None = None


def build_site_digest(
    settings: DigestSettings,
    language: Language,
    pelican_settings: dict,
    now: datetime,
    warnings: list[str] | None = None,
    notes: dict[tuple[str, str], EditorNote] | None = None,
    start_drawing: Callable[[list[Chart]], Future] | None = None,
) -> SiteDigest:
    """Every week of every repository, analysed, narrated and prepared; `notes` are the editor's
    notes by (repository, week), each of which must name a week the site has. `start_drawing`,
    given every chart of the site as soon as they are known, starts drawing them alongside; its
    future is the digest's `charts_drawn`.

    Repositories are taken one at a time: each one's analyses are whole (bodies and files
    included) only until its weeks are put into words, so a site of many large repositories
    never holds all of them at once."""
    store = Store(settings.data_path)
    names = _repo_names(settings, store)
    cache = pelican_settings.get("CACHE_PATH")
    memos = AnalysisMemos(Path(cache), code_salt()) if cache else None
    notes = _published_notes(notes or {}, names)
    # None for the built-in writer; one per build, with its request budget
    writer = language_model_writer(settings)
    site_url = pelican_settings.get("SITEURL", "")
    _ = language.gettext
    repos, unstyled, warnings = [], {}, list(warnings or ())
    site_charts: dict[str, RepoCharts] = {}
    charts_drawn: Future | None = None
    for name, made, memo in stream_histories(store, names, analysis_options(settings), now, memos):
        history = [week.value for week in made]
        # before any week is narrated: a language model's requests are counted
        _check_note_weeks(notes, name, history)
        every_week, repo_page = _unstyled_charts(made, memo, settings.trend_weeks, language)
        # the charts of the weeks with a page
        shown = [charts for charts, week in zip(every_week, history) if not is_quiet(week)]
        unstyled[name] = RepoCharts([charts.value for charts in shown], repo_page.value)
        if len(unstyled) == len(names):
            # Every chart is known: in the site's palette, drawn on the idle cores while the last
            # repository is put into words (for a site of one repository, its whole narration).
            site_charts = in_site_palette(unstyled)
            if start_drawing is not None:
                charts_drawn = start_drawing(
                    [chart for repo in site_charts.values() for chart in repo.every_chart()]
                )
        if history:
            pages = _week_pages(
                name, made, shown, memo, writer, notes, settings, language, site_url
            )
            overview, quiet = _overview(history, language), quiet_runs(history, language)
            merged = tuple((a.week, a.stats.merged_count) for a in history)
            charts = unstyled[name].page
            repos.append(RepoPage(name, repo_path(name), pages, charts, overview, quiet, merged))
        else:
            empty = _("{repo} has no merged pull requests in the store yet, so it has no pages.")
            warnings.append(empty.format(repo=name))
        # saved as soon as it is complete, and let go before the next repository's is loaded
        if memo is not None:
            assert memos is not None  # where the memo came from
            memos.save(name, memo)
        del memo, made, history
    requests_made(writer)
    for repo in repos:
        repo.charts = site_charts[repo.name].page
        for page, styled in zip(repo.weeks, site_charts[repo.name].weeks, strict=True):
            page.charts = tuple(styled)
    return SiteDigest(settings, language, repos, warnings, charts_drawn)


def _repo_names(settings: DigestSettings, store: Store) -> list[str]:
    """The repositories the site publishes; one clear error when the store has none of them."""
    store.check_folder("run 'repo-digest sample' or 'repo-digest fetch' first.")
    names = expand_repos(settings.repos, store) if settings.repos else store.repos()
    if not names and settings.repos:
        raise DigestError(
            f"The data folder {store.root} holds none of DIGEST_REPOS ({', '.join(settings.repos)}); run 'repo-digest fetch' first."
        )
    if not names:
        raise DigestError(
            f"The data folder {store.root} holds no repository; run 'repo-digest sample' or 'repo-digest fetch' first."
        )
    return names


def _week_pages(
    name: str,
    made: list[Made[WeekAnalysis]],
    charts_by_week: list[Made[list[Chart]]],
    memo: Memo | None,
    writer,
    notes: dict[tuple[str, str], EditorNote],
    settings: DigestSettings,
    language: Language,
    site_url: str,
) -> list[WeekPage]:
    """The pages of a repository's weeks with a page (of its whole history, `made`), narrated and
    prepared, each linked to the pages beside it; the notes they show are taken out of `notes`."""
    history = [week.value for week in made]
    pages, repo_url = [], _repo_url(name, history)
    shown = [index for index, analysis in enumerate(history) if not is_quiet(analysis)]
    # Newest first: a language model's requests for the day go to the weeks readers open first, and
    # a backfill fills in backwards over the scheduled runs.
    narratives = {
        index: _narrative(memo, made[max(0, index - RECENT_WEEKS) : index + 1], language, writer)
        for index in reversed(shown)
    }
    for index, charts in zip(shown, charts_by_week, strict=True):
        week, narrative, analysis = made[index], narratives[index], history[index]
        note = notes.pop((name, analysis.week), None)
        path = week_path(name, analysis.week)
        provenance = _provenance(analysis, language)
        # What the view is made of (week_view's arguments), with the analysis, the narrative and
        # the charts by their keys: hashing the view itself, every PR row of it, took 6 s of a warm
        # build of 2,600 weeks, and making the views again 2 s. A week's key leaves its fetch's
        # time out; it shows only in the provenance, and only while it matters.
        fetch = replace(analysis.fetch, fetched_at=None)
        made_of = (week, fetch, narrative, charts, language.code, repo_url, provenance, note)
        view = _made_by(memo)(
            ("week view", made_of),
            partial(
                week_view,
                analysis,
                narrative.value,
                charts.value,
                language,
                repo_url,
                provenance,
                note,
            ),
        )
        pages.append(
            WeekPage(
                repo=name,
                analysis=replace(analysis, pulls=()),
                pulls=tuple(map(_listed, analysis.pulls)),
                narrative=narrative.value,
                view=view.value,
                date=_publication_date(analysis, settings),
                url=path,
                absolute_url=absolute(site_url, path),
                repo_url=repo_url,
                discuss_url=_discuss_url(settings, name, analysis.week),
                pdf=settings.pdf,
                charts=tuple(charts.value),  # until the site's palette is known
                view_key=view.key or key(view.value),
            )
        )
    for before, after in pairwise(pages):
        before.next_week, after.previous_week = after.week, before.week
    return pages


def _narrative(
    memo: Memo | None, weeks: list[Made[WeekAnalysis]], language: Language, writer
) -> Made[Narrative]:
    """`narrate` of the last of `weeks` (the RECENT_WEEKS before it are all it reads), which checks
    its grounding and logs any problem; the built-in writer's narrative is remembered."""
    make = partial(narrate, weeks[-1].value, [week.value for week in weeks[:-1]], language, writer)
    made_by = _made_by(memo if writer is None else None)
    return made_by(("narrative", language.code, tuple(weeks)), make)


def _unstyled_charts(
    made: list[Made[WeekAnalysis]], memo: Memo | None, trend_weeks: int, language: Language
) -> tuple[list[Made[list[Chart]]], Made[list[Chart]]]:
    """Every chart of a repository (charts.unstyled_charts), each week's and its page's, as an
    earlier build made them of the same weeks in the same language."""
    _, history, made_by = language.gettext, [week.value for week in made], _made_by(memo)
    weeks = []
    for index, week in enumerate(made):
        window = made[trend_window(index, trend_weeks)]
        parts = ("week charts", trend_weeks, language.code, tuple(window))
        before = [w.value for w in window]
        make = partial(week_charts, week.value, before, trend_weeks, Palette(), _)
        weeks.append(made_by(parts, make))
    return weeks, made_by(
        ("repository charts", language.code, tuple(made)),
        partial(repo_charts, history, Palette(), _),
    )


def _made_by(memo: Memo | None) -> Callable[[tuple, Callable[[], T]], Made[T]]:
    """`memo.made`; for a build that keeps no memo, everything made now."""
    return memo.made if memo is not None else lambda _parts, make: Made(make())


def _listed(pull: AnalysedPull) -> ListedPull:
    record = pull.pull
    return ListedPull(
        record.number,
        record.title,
        record.author.login,
        record.url,
        pull.score.value,
        pull.key,
        pull_tags(pull),
    )


def week_report_view(
    week: WeekAnalysis,
    narrative: Narrative,
    history: list[WeekAnalysis],
    settings: DigestSettings,
    language: Language,
) -> WeekView:
    """One week's view outside a site build (`repo-digest show`): charts coloured for its repository
    alone, and no editor's note."""
    before = [w for w in history if w.start <= week.start]
    palette = site_palette([history], settings.trend_weeks)
    charts = week_charts(week, before, settings.trend_weeks, palette, language.gettext)
    repo_url, provenance = _repo_url(week.repo, history), _provenance(week, language)
    return week_view(week, narrative, charts, language, repo_url, provenance)


def _discuss_url(settings: DigestSettings, repo: str, week: str) -> str:
    owner, name = repo.split("/", 1)
    return (settings.discuss_url or "").format(owner=owner, name=name, week=week, repo=repo)


def _published_notes(
    notes: dict[tuple[str, str], EditorNote], names: list[str]
) -> dict[tuple[str, str], EditorNote]:
    """The editor's notes for repositories the site publishes. A note for another (the bundled
    sample's, left in content/ of a copy set up for its own repositories) is not an error: it is
    left out, with one line naming it."""
    for (repo, _week), note in sorted(notes.items()):
        if repo not in names:
            logger.warning(
                "The editor's note %s is for %s, which this site does not publish; it is left out.",
                note.source,
                repo,
            )
    return {(repo, week): note for (repo, week), note in sorted(notes.items()) if repo in names}


def _check_note_weeks(
    notes: dict[tuple[str, str], EditorNote], repo: str, history: list[WeekAnalysis]
) -> None:
    """Each editor's note for `repo` names a week with a page; otherwise say which file, and what exists."""
    weeks = {analysis.week: analysis for analysis in history}
    for (noted, week), note in sorted(notes.items()):
        if noted == repo and week not in weeks:
            span = f"{history[0].week} to {history[-1].week}" if history else "no weeks"
            raise DigestError(
                f"The editor's note {note.source} is for {week}, a week {repo} does not have (it has {span})."
            )
        if noted == repo and is_quiet(weeks[week]):
            raise DigestError(
                f"The editor's note {note.source} is for {week}, in which nothing merged in {repo}, so it has no page."
            )


def _provenance(analysis: WeekAnalysis, language: Language) -> str:
    _ = language.gettext
    fetch = analysis.fetch
    fetched = parse_time(fetch.fetched_at)
    when = f"{fetched:%Y-%m-%d %H:%M} UTC" if fetched else "?"
    # A complete week's data no longer changes with the time of the next fetch, so neither does its
    # page, feed entry or PDF: only a week still open or missing PRs says when its data was taken.
    if fetch.source == "sample":
        sentences = [_("Data from the bundled sample of fictional repositories.")]
    elif analysis.complete and fetch.source == "github":
        sentences = [_("Data fetched from GitHub after the week ended.")]
    elif analysis.complete:
        sentences = [_("Data imported from an export file after the week ended.")]
    elif fetch.source == "github":
        sentences = [_("Data fetched from GitHub at {time}.").format(time=when)]
    else:
        sentences = [_("Data imported from an export file at {time}.").format(time=when)]
    if fetch.truncated:
        sentences.append(_("Part of the history could not be fetched completely."))
    sentences.append(
        _("Weeks run Monday to Sunday in {timezone}.").format(timezone=analysis.timezone)
    )
    return language.sentences(sentences)


def _overview(history: list[WeekAnalysis], language: Language) -> str:
    _ = language.gettext
    merged = sum(w.stats.merged_count for w in history)
    key = sum(w.stats.key_count for w in history)
    return _(
        "{merged} merged pull requests ({key} key) over {weeks} weeks, {first} to {last}."
    ).format(
        merged=language.number(merged),
        key=language.number(key),
        weeks=language.number(len(history)),
        first=history[0].week,
        last=history[-1].week,
    )


def _publication_date(analysis: WeekAnalysis, settings: DigestSettings) -> datetime:
    """A finished week is dated at its end; one in progress at its latest merge, never in the future."""
    tz, week = settings.timezone, Week.parse(analysis.week)
    if not analysis.in_progress:
        return week.end(tz).astimezone(tz)
    merges = [p.pull.merged_at for p in analysis.pulls]
    return (max(merges) if merges else week.start(tz)).astimezone(tz)


def _repo_url(repo: str, history: list[WeekAnalysis]) -> str:
    """The repository's web address, taken from its PRs' links so GitHub Enterprise works too."""
    for week in reversed(history):
        for analysed in week.pulls:
            if "/pull/" in analysed.pull.url:
                return analysed.pull.url.rsplit("/pull/", 1)[0]
    return f"https://github.com/{repo}"
