"""The `repo-digest` command line: fetch, import, show, sample (docs/architecture.md, "The command line").

Every command reads the same settings file as the build. Errors are one sentence on stderr and a
non-zero exit; `--debug` shows the traceback instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from contextlib import nullcontext
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

from digest_plugin.build.installed import version
from digest_plugin.build.settings_file import load_settings
from digest_plugin.errors import DigestError
from digest_plugin.settings import check_repo_name
from digest_plugin.store.folder import Store
from digest_plugin.weeks import Week


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except DigestError as error:
        if args.debug:
            raise
        print(f"repo-digest: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a read-only or full disk, a folder where a file should be
        if args.debug:
            raise
        where = f" ({error.filename})" if error.filename else ""
        print(f"repo-digest: {error.strerror or error}{where}.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("repo-digest: interrupted; the store keeps everything saved so far.", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--settings",
        default="pelicanconf.py",
        metavar="FILE",
        help="Pelican settings file (default: pelicanconf.py)",
    )
    common.add_argument("--debug", action="store_true", help="show tracebacks")

    parser = argparse.ArgumentParser(
        prog="repo-digest",
        description="Weekly digests of a GitHub repository's merged pull requests.",
    )
    parser.add_argument("--version", action="version", version=f"repo-digest {version()}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    fetch = commands.add_parser(
        "fetch", parents=[common], help="fetch or refresh the store from GitHub"
    )
    fetch.add_argument(
        "repos", nargs="*", metavar="OWNER/NAME", help="repositories (default: DIGEST_REPOS)"
    )
    fetch.add_argument("--since", type=_date, metavar="YYYY-MM-DD", help="backfill from this date")
    fetch.add_argument("--until", type=_date, metavar="YYYY-MM-DD", help="stop at this date")
    fetch.set_defaults(run=_fetch)

    load = commands.add_parser(
        "import", parents=[common], help="import a JSON Lines file of GitHub REST pull objects"
    )
    load.add_argument("file", type=Path, metavar="FILE")
    load.add_argument("--repo", required=True, metavar="OWNER/NAME")
    load.set_defaults(run=_import)

    show = commands.add_parser("show", parents=[common], help="print one week's digest")
    show.add_argument("repo", metavar="OWNER/NAME")
    show.add_argument("--week", required=True, metavar="YYYY-Www")
    show.add_argument("--format", choices=("json", "markdown"), default="json")
    show.add_argument(
        "--writer",
        choices=("builtin", "llm", "copilot"),
        help="the writer (default: DIGEST_WRITER); with a model, stderr lists "
        "each sentence the language model wrote, kept or rejected and why",
    )
    show.set_defaults(run=_show)

    sample = commands.add_parser(
        "sample", parents=[common], help="regenerate the bundled sample data"
    )
    sample.add_argument(
        "--repos",
        type=_positive,
        default=2,
        metavar="N",
        help="a larger sample, to measure builds: N repositories",
    )
    sample.add_argument("--weeks", type=_positive, default=20, metavar="N", help="of N weeks each")
    sample.add_argument(
        "--prs-per-week", type=_positive, metavar="N", help="with about N merged PRs a week each"
    )
    sample.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="another seed gives other data (the same seed, the same bytes)",
    )
    sample.set_defaults(run=_sample)
    return parser


def _fetch(args) -> int:
    from digest_plugin.fetch import fetch_key_diffs, fetch_repos
    from digest_plugin.fetch.progress import make_progress
    from digest_plugin.publish.history import diff_targets

    settings, _ = load_settings(args.settings)
    # fetch_repos checks that there is one, and each name (and resolves owner/*)
    repos = list(args.repos) or list(settings.repos)
    store = Store(settings.data_path)
    try:
        report = fetch_repos(store, settings, repos, since=args.since, until=args.until)
    except DigestError as error:
        # which repositories were fetched, which failed and why
        failed_report = getattr(error, "report", None)
        if failed_report is None or args.debug:
            raise
        report = failed_report
    # then the diff excerpts of the key PRs of the weeks just fetched, which the analysis picks
    targets = diff_targets(store, settings, report.fetched)
    fetch_key_diffs(store, report, targets, progress=make_progress(False))
    for line in report.lines():
        print(line)
    for failed in report.failed:
        print(f"repo-digest: {failed.error}", file=sys.stderr)
    # in a GitHub Actions job: its summary says what happened
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        from digest_plugin.build.actions_outputs import append_to

        append_to(os.environ["GITHUB_STEP_SUMMARY"], fetch_summary(report))
    return 1 if report.failed else 0


def fetch_summary(report) -> str:
    """The job summary's section for a fetch (a fetch.FetchReport): a line per repository."""
    from digest_plugin.publish.markdown import escape

    lines = ["## repo-digest fetch", "", *(f"- {escape(line)}" for line in report.lines())]
    lines += [
        f"- :x: `{failed.repo}` was not fetched: {escape(str(failed.error))}"
        for failed in report.failed
    ]
    return "\n".join(lines) + "\n"


def _import(args) -> int:
    from digest_plugin.store.jsonl_import import import_file

    settings, _ = load_settings(args.settings)
    store = Store(settings.data_path)
    read, changed, rejected = import_file(args.file, check_repo_name(args.repo), store)
    skipped = f"; {rejected} lines skipped, named above" if rejected else ""
    print(
        f"Imported {read} merged pull requests into {settings.data_path / args.repo} ({changed} records added or changed{skipped})."
    )
    return 0


def _show(args) -> int:
    from digest_plugin.narrate import narrate
    from digest_plugin.narrate.wording import Language
    from digest_plugin.publish.history import analysis_options, load_weeks
    from digest_plugin.publish.markdown import render_markdown
    from digest_plugin.urls import absolute, week_path

    settings, pelican_settings = load_settings(args.settings)
    week_id = str(Week.parse(args.week))
    store = Store(settings.data_path)
    repo = check_repo_name(args.repo)
    now = store.data_time([repo]) if store.repo_dir(repo).is_dir() else None  # as the build does
    weeks = load_weeks(store, repo, analysis_options(settings), now or datetime.now(UTC))
    index = next((i for i, w in enumerate(weeks) if w.week == week_id), None)
    if index is None:
        span = f"{weeks[0].week} to {weeks[-1].week}" if weeks else "no weeks"
        raise DigestError(f"{args.repo} has no data for {week_id}: the store covers {span}.")
    week, previous = weeks[index], weeks[:index]
    language = Language.of(settings.language)
    name = args.writer or settings.writer
    from digest_plugin.llm import quieted

    # the report below says what the language model did, once
    loggers = ("digest_plugin.llm", "digest_plugin.narrate.llm")
    with quieted(logging.ERROR, *loggers) if name != "builtin" else nullcontext():
        writer = _writer(name, settings)
        narrative = narrate(week, previous, language, writer)
    if writer:
        print("\n".join(_check_report(narrative)), file=sys.stderr)
    if args.format == "markdown":
        from digest_plugin.publish.site_digest import week_report_view

        view = week_report_view(week, narrative, weeks, settings, language)
        url = absolute(pelican_settings.get("SITEURL", ""), week_path(week.repo, week.week))
        print(render_markdown(view, url, language), end="")
    else:
        from digest_plugin.publish.week_json import week_json

        print(json.dumps(week_json(week, narrative, language), indent=2, ensure_ascii=False))
    return 0


def _writer(name: str, settings):
    from digest_plugin.llm import language_model_writer

    if name == "builtin":
        return None
    if name == "copilot" and settings.writer != "copilot":
        raise DigestError(
            '--writer copilot needs DIGEST_WRITER = "copilot" in the settings file (docs/model-writer.md).'
        )
    if settings.llm is None:
        raise DigestError(
            '--writer llm needs DIGEST_LLM in the settings file, such as {"base_url": "https://…/v1", "model": "…"}.'
        )
    return language_model_writer(replace(settings, writer=name))


def _check_report(narrative) -> list[str]:
    """What the language model wrote for the week and what the check made of it, a line per sentence."""
    check = narrative.check
    if check.unused:
        return [
            f"Language model {check.model}: nothing used for this week ({check.unused}); the built-in writer's text is shown."
        ]
    lines = [f"Language model {check.model}: {check.kept} of {check.checked} sentences kept."]
    kept = dict(check.parts)
    for where, cited in narrative.texts():
        part = "recommendations" if where.startswith("recommendations") else where
        if part in kept:
            lines.append(f"  kept      {where}: {cited.text}")
    lines.extend(f"  rejected  {r.part}: {r.text} ({r.reason})" for r in check.rejected)
    return lines


def _sample(args) -> int:
    from digest_plugin.store.sample import SAMPLE_SEED, SampleSize, generate_sample

    settings, _ = load_settings(args.settings)
    size = SampleSize(args.repos, args.weeks, args.prs_per_week)
    seed = SAMPLE_SEED if args.seed is None else args.seed
    repos = generate_sample(Store(settings.data_path), seed, size)
    print(f"Wrote the sample repositories {', '.join(repos)} to {settings.data_path}.")
    return 0


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, not {text!r}")
    return number


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a date written YYYY-MM-DD") from None


if __name__ == "__main__":
    sys.exit(main())
