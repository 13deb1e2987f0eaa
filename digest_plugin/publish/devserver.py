"""`make devserver`: build the site, serve it, and build it again on every change, the store's too.

    python -m digest_plugin.publish.devserver content -o output -s pelicanconf.py [--bind HOST] [--port PORT]

Pelican's own `--autoreload` watches the settings file, the theme, PATH and its STATIC_PATHS, and
has no setting to watch anything else (`pelican.utils.wait_for_changes`). The store lives outside
PATH, and naming it in STATIC_PATHS would copy it into the site. So this runs what
`pelican --autoreload --listen` runs, Pelican's builds and Pelican's server (serve.py: with the 404 page),
and watches DIGEST_DATA_PATH too: a `repo-digest fetch` or `import` in another terminal builds the
site again, even one that lands while a build runs (the watch goes on during builds). The
development server builds from the store as it is (DIGEST_FETCH = "never"), so that a build never
writes the store it watches; the language model's answers, which a build keeps in the store, are
not watched.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import sys
import threading

import watchfiles
from pelican.log import init as init_logging
from pelican.utils import FileChangeFilter

from digest_plugin.build.cache import ANSWERS
from digest_plugin.errors import DigestError
from digest_plugin.publish.hooks import build_setup
from digest_plugin.publish.serve import listen
from pelican import LOG_HANDLERS, get_instance, parse_arguments

logger = logging.getLogger(__name__)


class Watch:
    """Changes under `paths`, from the moment it starts, gathered while the caller is busy (a build)."""

    def __init__(self, paths: list[str], ignored: list[str]):
        self._changes: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        watch_filter = FileChangeFilter(ignore_file_patterns=ignored)
        self._thread = threading.Thread(target=self._watch, args=(paths, watch_filter), daemon=True)

    def _watch(self, paths: list[str], watch_filter: FileChangeFilter) -> None:
        for changes in watchfiles.watch(
            *paths, watch_filter=watch_filter, stop_event=self._stop, raise_interrupt=False
        ):
            self._changes.put({path for _change, path in changes})

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()

    def next_changes(self) -> list[str]:
        """The files changed since the last call, waiting for one (Ctrl-C still stops the wait)."""
        changed: set[str] = set()
        while not changed:
            try:
                changed = self._changes.get(timeout=0.5)
            except queue.Empty:
                continue
        while not self._changes.empty():
            changed |= self._changes.get()
        return sorted(changed)


def watched(settings_file: str, settings: dict) -> tuple[list[str], list[str]]:
    """What to watch: what Pelican's --autoreload watches (the settings file, THEME, PATH and its
    STATIC_PATHS) and the store; and what not to (IGNORE_FILES, the language model's answers)."""
    content = settings.get("PATH", "")
    setup = build_setup(settings)
    assert setup is not None  # `serve` sets DIGEST_FETCH: a digest site
    store = os.path.abspath(setup.settings.data_path)
    paths = [
        settings_file,
        settings.get("THEME", ""),
        content,
        *(os.path.join(content, p) for p in settings.get("STATIC_PATHS", [])),
        store,
    ]
    ignored = [*settings.get("IGNORE_FILES", []), os.path.join(store, ANSWERS, "*")]
    return [os.path.abspath(path) for path in paths if path and os.path.exists(path)], ignored


def serve(argv: list[str]) -> int:
    args = parse_arguments([*argv, "-e", 'DIGEST_FETCH="never"'])
    init_logging(
        level=args.verbosity,
        fatal=args.fatal,
        name="pelican",
        handler=LOG_HANDLERS[args.log_handler],
        logs_dedup_min_level=getattr(logging, args.logs_dedup_min_level),
    )  # as `pelican` itself logs
    pelican, settings = get_instance(args)
    where = (settings.get("BIND"), settings.get("PORT"), settings.get("OUTPUT_PATH"))
    server = multiprocessing.Process(target=listen, args=where, daemon=True)
    server.start()
    settings_file = os.path.abspath(args.settings)
    try:
        while True:
            with Watch(*watched(args.settings, settings)) as watch:
                changed: list[str] = []
                while settings_file not in changed:
                    _build(pelican)
                    changed = watch.next_changes()
                    print(f"-> Modified: {', '.join(changed)}. Building again...", flush=True)
            # the settings changed: read them again, and what they say to watch
            pelican, settings = get_instance(args)
    except KeyboardInterrupt:
        return 0
    finally:
        server.terminate()


def _build(pelican) -> None:
    try:  # as `pelican --autoreload`: a failed build waits for the next change
        pelican.run()
    except DigestError as error:
        logger.error("%s", error)
    except Exception:
        logger.exception("The build failed; it runs again at the next change.")


def main(argv: list[str] | None = None) -> int:
    try:
        return serve(sys.argv[1:] if argv is None else argv)
    except DigestError as error:
        print(f"make: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
