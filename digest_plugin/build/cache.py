"""Every memo a build keeps on disk, in one place: where it lives, what its key hashes, and what
else makes it stale. Nothing else in the package computes a cache key.

| memo | where | its key hashes |
| --- | --- | --- |
| analyses and narratives | `CACHE_PATH/digest-analysis/{owner}/{name}.pickle` | a repository: its stored files, the analysis options and the week `now` falls in; a stage of a week (`Stages`): its input (a week's pulls, progress and figures of the weeks before it; the keys of the stages it is made of), its context's inputs (options, conventions; vocabulary), and it is taken while each question it asked of the history answers the same; a narrative: the keys of its week and the four before, and the language; a week's charts: the keys of the weeks they show, and the language; a week's view: what it is made of (the keys of its analysis, narrative and charts; its fetch but the time, the language, the repository's address, the provenance line, the editor's note); a month file as read: its bytes |
| report texts | `CACHE_PATH/digest-text/` | the week's view (or what it is made of: the keys of its analysis and narrative, its charts, words and note), the templates and settings, the page's SITEURL, the charts' folder |
| what a template reads | `CACHE_PATH/digest-template-names/` | the template's source and the syntax Jinja parses it with |
| PDFs | `CACHE_PATH/digest-pdf/` | the week page's report, the templates, settings and stylesheets, the charts beside it, WeasyPrint's version |
| charts | `CACHE_PATH/digest-charts/` | the chart's data, the format and the renderer (its version, matplotlib's, the fonts, the sizes) |
| model answers | `DIGEST_DATA_PATH/.llm-cache/{owner}/{name}/` | the model, the prompt's version and the part of the week and its data sent |

The analyses, narratives, report texts and template names are also stale when the code is (`code_salt`: the
package's code, catalogues and default rules, Python's and Babel's versions): a new release starts
them afresh. Charts and PDFs are keyed by what they show, so they survive a release that does not
change it. Model answers live in the store, not the cache, and survive any release: a rebuild, in
CI or offline, asks the model nothing again. A file that cannot be read is a miss, never an error;
what a build did not use is removed at its end (model answers: an older answer of the same week).

`key(*parts)` is the one key function, over `canonical(value)`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, cast

import babel

from digest_plugin.atomic import atomic_file, atomic_write
from digest_plugin.records.frozen import is_frozen_record
from digest_plugin.stages import Made, Recording

log = logging.getLogger(__name__)
PACKAGE = Path(__file__).resolve().parents[1]
SALTED = (".py", ".yaml", ".po", ".mo")
UNREADABLE = (
    OSError,
    EOFError,
    ValueError,
    TypeError,
    AttributeError,
    ImportError,
    pickle.UnpicklingError,
)

# under CACHE_PATH
ANALYSES, TEXTS, PDFS, CHARTS = "digest-analysis", "digest-text", "digest-pdf", "digest-charts"
TEMPLATE_NAMES = "digest-template-names"
ANSWERS = ".llm-cache"  # under DIGEST_DATA_PATH
T = TypeVar("T")


# -- the key ---------------------------------------------------------------------------------------


def key(*parts: object) -> str:
    """The SHA-256 of the parts' canonical form: equal inputs, equal keys, in every process."""
    return hashlib.sha256(canonical(parts)).hexdigest()


def canonical(value: object) -> bytes:
    """`value` as bytes that depend on nothing but its content: sets sorted, dicts by key, other
    dataclasses field by field, and everything else (records, views, charts, numbers, dates) by its
    repr, which is its content: a `frozen_record` holds no set, whose order would change with the
    process's hash seed."""
    if isinstance(value, bytes):
        return b"b" + _framed(value)
    if isinstance(value, str):
        return b"s" + _framed(value.encode("utf-8"))
    if isinstance(value, tuple | list):
        return b"(" + b"".join(_framed(canonical(item)) for item in value) + b")"
    if isinstance(value, set | frozenset):
        members = sorted(canonical(item) for item in value)
        return b"{" + b"".join(_framed(member) for member in members) + b"}"
    if isinstance(value, dict):
        items = sorted((canonical(k), canonical(v)) for k, v in value.items())
        return b"<" + b"".join(_framed(k) + _framed(v) for k, v in items) + b">"
    if isinstance(value, Made):  # a stage's output, known by its key (by itself, made with no key)
        return b"m" + _framed(value.key.encode("utf-8")) if value.key else canonical(value.value)
    if is_dataclass(value) and not isinstance(value, type) and not is_frozen_record(type(value)):
        return b"d" + canonical(
            (type(value).__qualname__, tuple(getattr(value, f.name) for f in fields(value)))
        )
    return b"r" + _framed(repr(value).encode("utf-8"))


def _framed(data: bytes) -> bytes:
    return len(data).to_bytes(8, "big") + data


def code_salt() -> str:
    """What a key cannot see: the package's code, catalogues and default rules, and the versions of
    Python and Babel. An upgrade or an edit of any of them starts the analyses and texts afresh."""
    digest = hashlib.sha256(f"{sys.version}\0{babel.__version__}\0".encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in SALTED and "__pycache__" not in path.parts:
            digest.update(f"{path.relative_to(PACKAGE).as_posix()}\0".encode() + path.read_bytes())
    return digest.hexdigest()


# -- analyses and narratives -----------------------------------------------------------------------


class Memo:
    """One repository's analyses and narratives of earlier builds, by key, in memory. Keys start
    with the code's salt."""

    def __init__(self, salt: str, entries: dict[str, object] | None = None):
        self.salt = salt
        self._entries = dict(entries or {})
        self._used: dict[str, object] = {}
        self._changed = False

    def key(self, *parts: object) -> str:
        return key(self.salt, *parts)

    def get(self, key: str) -> object | None:
        value = self._used.get(key, self._entries.get(key))
        if value is not None:
            self._used[key] = value
        return value

    def put(self, key: str, value: object) -> None:
        self._used[key] = value
        self._changed = self._changed or self._entries.get(key) is not value

    def learn(self, entries: dict[str, object]) -> None:
        """Entries made for this build elsewhere (a worker's): recalled as an earlier build's are,
        and kept where this build uses them."""
        self._entries.update(entries)
        self._changed = True

    def made(self, parts: tuple, make: Callable[[], T]) -> Made[T]:
        """What `make()` makes, which depends on `parts` alone (a stage's input), as an earlier
        build made it, with its key."""
        made_key = self.key("made", parts)
        kept = self.get(made_key)
        value = make() if kept is None else cast(T, kept)  # kept under this key by `make`
        self.put(made_key, value)
        return Made(value, made_key)

    def kept(self) -> dict[str, object]:
        """The entries this build used or made: the next build's memo."""
        return dict(self._used)

    @property
    def changed(self) -> bool:
        """Whether `kept()` differs from the entries it was given (else there is nothing to save)."""
        return self._changed or self._used.keys() != self._entries.keys()


# A stage whose output is small is known by it, not by its input: a week whose vocabulary changed
# (every new week changes it a little) but whose themes did not keeps its narrative and report.
KNOWN_BY_OUTPUT = frozenset({"themes"})


class Stages:
    """A memo as the analysis's runner (analysis.repository.Runner): a stage's output is kept by
    its name, its context's `inputs` and its input, with the questions it asked of the context's
    `history` (`Recording`) and a digest of each answer. A kept output is taken while every one
    of those questions answers the same; otherwise the stage runs again. A stage cannot read the
    history any other way, so no entry outlives what it read."""

    def __init__(self, memo: Memo):
        self.memo = memo
        self._contexts: list[tuple[object, str]] = []  # each context given, with its key

    def __call__(
        self, name: str, stage: Callable[[Any, Any], T], input: Any, context: Any
    ) -> Made[T]:
        input_key = self.memo.key("stage", name, self._key_of(context), input)
        history = getattr(context, "history", None)
        # kept under this key by this method: (output, asked)
        kept = cast("tuple[T, tuple[tuple[str, tuple, str], ...]] | None", self.memo.get(input_key))
        if kept is not None and all(
            key(getattr(history, question)(*args)) == answer for question, args, answer in kept[1]
        ):
            output, asked = kept
        elif history is None:
            output, asked = stage(input, context), ()
        else:
            recording = Recording(history)
            output = stage(input, replace(context, history=recording))
            asked = tuple(
                (question, args, key(answer)) for question, args, answer in recording.asked
            )
        self.memo.put(input_key, (output, asked))
        return Made(output, key(name, output) if name in KNOWN_BY_OUTPUT else key(input_key, asked))

    def _key_of(self, context: object) -> str:
        """The key of a context's `inputs`, hashed once for each of the few contexts a build makes."""
        for known, found in self._contexts:
            if known is context:
                return found
        found = key(getattr(context, "inputs", None))
        self._contexts.append((context, found))
        return found


@dataclass(frozen=True)
class AnalysisMemos:
    """Where a build keeps its memos: `{cache}/digest-analysis/{owner}/{name}.pickle`. A file holds
    the salt, then the entries, each pickled on its own: whether a memo is this code's is read
    without unpickling the tens of megabytes of a large repository's analyses."""

    cache: Path
    salt: str

    def remembers(self, repo: str) -> bool:
        """Whether this code saved a memo of `repo` (whose entries `load` reads)."""
        return self._entries(repo, read=False) is not None

    def load(self, repo: str) -> Memo:
        return Memo(self.salt, self._entries(repo))

    def save(self, repo: str, memo: Memo) -> None:
        """What this build used, and nothing older: the file never grows beyond one build's worth."""
        if not memo.changed:
            return
        # pickled into the file, never whole in memory
        with atomic_file(self._path(repo)) as handle:
            pickle.dump(memo.salt, handle, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(memo.kept(), handle, protocol=pickle.HIGHEST_PROTOCOL)

    def _entries(self, repo: str, read: bool = True) -> dict[str, object] | None:
        """The entries of the memo this code saved of `repo` ({} unless `read`); None if there is
        none, another version of the code wrote it, or it cannot be read (a truncated file, say:
        the build goes on without it)."""
        path = self._path(repo)
        try:
            with path.open("rb") as handle:  # read as it is unpickled
                if pickle.load(handle) != self.salt:
                    return None
                return pickle.load(handle) if read else {}
        except FileNotFoundError:
            return None
        except UNREADABLE as error:
            log.warning(
                "repo-digest: the cached analysis %s could not be read (%s); analysing afresh.",
                path,
                error,
            )
            return None

    def _path(self, repo: str) -> Path:
        return self.cache / ANALYSES / f"{repo}.pickle"


# -- report texts ----------------------------------------------------------------------------------


class TextCache:
    """The report texts of one build (or other texts, in a `folder` of their own): each made once,
    kept compressed (a quarter of their size), read back by the next build that asks for the same
    parts."""

    def __init__(self, cache: Path, salt: str, folder: str = TEXTS):
        self.folder = cache / folder
        self._salt = salt
        self._used: set[str] = set()

    def text(self, parts: Iterable[object], make: Callable[[], str]) -> str:
        """The text `make()` returns, which depends on `parts` alone."""
        text_key = key(self._salt, *parts)
        self._used.add(text_key)
        path = self.folder / text_key[:2] / text_key
        try:
            return zlib.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, zlib.error, UnicodeDecodeError):
            pass  # not made yet, or damaged: made again
        text = make()
        atomic_write(path, zlib.compress(text.encode("utf-8"), 1), durable=False)
        return text

    def prune(self) -> None:
        """Remove the texts this build did not ask for: a site's cache keeps one text a week and kind."""
        for path in self.folder.glob("*/*"):
            if path.name not in self._used:
                path.unlink(missing_ok=True)


# -- PDFs ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PdfCache:
    """PDFs by what they show: `{cache}/digest-pdf/`. Drawing one takes a second or more."""

    cache: Path

    def path(self, fingerprint: bytes, charts: Iterable[Path], engine: str) -> Path:
        """Where the PDF of a page goes: `fingerprint` changes whenever its HTML would, charts
        aside; the chart files are hashed by name and content; `engine` is WeasyPrint's version."""
        shown = tuple((chart.name, chart.read_bytes()) for chart in sorted(charts))
        pdf_key = key("pdf", engine, fingerprint, shown)
        return self.cache / PDFS / pdf_key[:2] / f"{pdf_key}.pdf"


# -- charts ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartCache:
    """Chart files by their data, format and renderer: `{cache}/digest-charts/`."""

    folder: Path

    @classmethod
    def under(cls, cache: Path) -> ChartCache:
        return cls(cache / CHARTS)

    @staticmethod
    def key(chart: object, fmt: str, renderer: dict) -> str:
        return key("chart", chart, fmt, json.dumps(renderer, sort_keys=True, default=str))

    def path(self, chart_key: str) -> Path:
        return self.folder / chart_key[:2] / chart_key

    def has(self, chart_key: str) -> bool:
        return self.path(chart_key).is_file()

    def put(self, chart_key: str, data: bytes) -> None:
        atomic_write(self.path(chart_key), data)

    def prune(self, used: set[str]) -> None:
        """Remove the charts no page uses any more (older data, settings or code)."""
        for path in self.folder.glob("??/*"):
            # 64 characters: not another build's temporary file
            if len(path.name) == 64 and path.name not in used and path.is_file():
                path.unlink(missing_ok=True)


# -- model answers ---------------------------------------------------------------------------------


class AnswerCache:
    """The language model's answers, kept in the store (`{data}/.llm-cache/{owner}/{name}/{week}-{key[:20]}.json`)
    so that every later build, in CI or offline, reuses them. One file per request of the week (a
    week may be written in parts): a new answer for a week removes those of requests that are no
    longer its plan, so the store holds what the site shows. A file holds the answer as the model
    gave it, never the API key."""

    def __init__(self, data_path: Path):
        self.root = Path(data_path) / ANSWERS

    def get(self, repo: str, week: str, request: object) -> dict | None:
        """The answer to `request` (what identifies it: the model, the prompt's version, the data)."""
        answer_key = key("answer", request)
        path = self._path(repo, week, answer_key)
        if not path.exists():
            return None
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            if stored.get("key") == answer_key and isinstance(stored.get("answer"), dict):
                return stored["answer"]
        except (OSError, ValueError, AttributeError):
            pass
        log.warning("%s is not a readable cached answer; the week will be asked for again.", path)
        return None

    def put(
        self,
        repo: str,
        week: str,
        request: object,
        model: str,
        answer: dict,
        requests: Sequence[object] = (),
    ) -> None:
        """Keep `answer` to `request`; the week's answers to other requests than `requests` (the
        week's whole plan) go."""
        answer_key = key("answer", request)
        path = self._path(repo, week, answer_key)
        kept = {path, *(self._path(repo, week, key("answer", other)) for other in requests)}
        for older in path.parent.glob(f"{week}-*.json"):
            if older not in kept:
                older.unlink(missing_ok=True)
        record = {"repo": repo, "week": week, "model": model, "key": answer_key, "answer": answer}
        atomic_write(path, json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n")

    def _path(self, repo: str, week: str, answer_key: str) -> Path:
        return self.root / repo / f"{week}-{answer_key[:20]}.json"
