"""The store: plain JSON Lines files under DIGEST_DATA_PATH, one per repository and UTC month.

Layout (docs/architecture.md, "The store"): `{root}/{owner}/{name}/{YYYY-MM}.jsonl`, one pull per line sorted by
number, and `{root}/{owner}/{name}/state.json`. Every write goes to a temporary file that is
fsynced and renamed over the old one, so a kill at any moment leaves the previous file whole.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import stat
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from digest_plugin.atomic import atomic_write, remove_leftovers
from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Pull, RecordError, format_time, read_line
from digest_plugin.records.state import SCHEMA_VERSION, RepoState, Window
from digest_plugin.settings import check_repo_name, repo_name_problem

logger = logging.getLogger(__name__)

_MONTH_FILE = re.compile(r"^\d{4}-\d{2}\.jsonl$")


class Store:
    def __init__(self, root: Path | str):
        self.root = Path(root)

    def repo_dir(self, repo: str) -> Path:
        return self.root / self.spelling(check_repo_name(repo))

    def spelling(self, repo: str) -> str:
        """`repo` as the store spells it: GitHub's names ignore case, so `Owner/NAME` is the folder
        `owner/name` where that is the one there (the one spelled exactly so, where both are)."""
        owner, name = repo.split("/")
        owner = _folder_named(self.root, owner)
        return f"{owner}/{_folder_named(self.root / owner, name)}"

    def respell(self, repo: str, spelled: str) -> None:
        """Rename the folders of `repo` to `spelled`, the same name as GitHub spells it."""
        current = self.spelling(repo)
        if (
            current == spelled
            or current.lower() != spelled.lower()
            or not (self.root / current).is_dir()
        ):
            return
        (old_owner, old_name), (owner, name) = current.split("/"), spelled.split("/")
        if old_owner != owner:
            # the owner's every repository: one owner, one spelling
            os.rename(self.root / old_owner, self.root / owner)
        if old_name != name:
            os.rename(self.root / owner / old_name, self.root / owner / name)

    def repos(self) -> list[str]:
        """Repositories that have a state file, as OWNER/NAME (a folder whose name the site cannot
        publish, written before such names were refused, is left out with a warning; so is a second
        spelling of one repository, until a fetch or an import merges it)."""
        if not self.root.is_dir():
            return []
        names = sorted(
            f"{p.parent.parent.name}/{p.parent.name}" for p in self.root.glob("*/*/state.json")
        )
        refused = {name: problem for name in names if (problem := repo_name_problem(name))}
        report_rejected(
            [
                f"{self.root / name} holds {name!r}, which {problem}; it is left out, so move it away"
                for name, problem in refused.items()
            ]
        )
        kept: dict[str, str] = {}
        for name in names:
            if name in refused:
                continue
            if name.lower() in kept:
                logger.warning(
                    "%s holds %s again, spelled otherwise (GitHub's names ignore case); it is left out until "
                    "the next fetch or import merges it.",
                    self.root / name,
                    kept[name.lower()],
                )
                continue
            kept[name.lower()] = name
        return list(kept.values())

    def merge_spellings(self) -> None:
        """Merge the folders that hold one repository under two spellings (`owner/name` and
        `Owner/NAME`, which are one on GitHub and collide on a file system that ignores case) into
        the one fetched last, with a warning; its records win where both have a PR."""
        groups: dict[str, list[str]] = defaultdict(list)
        for state_file in sorted(self.root.glob("*/*/state.json")):
            name = f"{state_file.parent.parent.name}/{state_file.parent.name}"
            if repo_name_problem(name) is None:
                groups[name.lower()].append(name)
        for spellings in groups.values():
            if len(spellings) < 2:
                continue
            states = {name: self.read_state(name) for name in spellings}
            never = datetime.min.replace(tzinfo=UTC)
            fetched = {n: s.fetched_at for n, s in states.items() if s and s.fetched_at}
            keep = max(spellings, key=lambda n: fetched.get(n, never))
            for other in (n for n in spellings if n != keep):
                folder = self.root / other
                # the kept folder's records win
                self.upsert(keep, self.read_pulls(other) + self.read_pulls(keep))
                if states[keep] is None and (moved := states[other]) is not None:
                    atomic_write(
                        self.root / keep / "state.json",
                        json.dumps(replace(moved, repo=keep).to_json(), indent=2) + "\n",
                    )
                shutil.rmtree(folder)
                with contextlib.suppress(OSError):
                    folder.parent.rmdir()  # the owner's folder, when nothing else is in it
                logger.warning(
                    "%s and %s held one repository under two spellings (GitHub's names ignore case); %s was merged "
                    "into %s and removed.",
                    folder,
                    self.root / keep,
                    folder,
                    self.root / keep,
                )

    def check_folder(self, then: str) -> None:
        """DigestError unless the store's folder is there; `then` says how to make one."""
        if self.root.is_dir():
            return
        if self.root.exists():
            raise DigestError(
                f"The data folder {self.root} is a file, not a folder; set DIGEST_DATA_PATH to the store's folder."
            )
        raise DigestError(f"The data folder {self.root} does not exist; {then}")

    def open_for_writing(self) -> None:
        """Before a fetch or an import: a store's folder that is a file is one sentence, and the
        temporary files of a write that was killed (atomic.py) are removed, so that they are never
        committed with the store."""
        if self.root.exists() and not self.root.is_dir():
            self.check_folder("")
        if self.root.is_dir():
            remove_leftovers(self.root)
            self.merge_spellings()

    # -- pulls ------------------------------------------------------------------------------

    def read_pulls(
        self,
        repo: str,
        life: Window | None = None,
        months: dict[str, tuple[str, MonthFile]] | None = None,
    ) -> list[Pull]:
        """Every stored pull of a repository that passes the gate, sorted by merge time then number.

        A line that fails is reported (file, line, field) and skipped, as is one merged outside
        `life` (records/state.repo_life); a PR stored twice counts once, the later record winning
        (later month file, then later line).

        `months`, month file name -> (a digest of its bytes, what it held), is what an earlier
        read found: a month file that is byte for byte the same is not parsed again (a new week
        changes one or two of a long history's files). It is updated with this read's.
        """
        by_number: dict[int, Pull] = {}
        rejected: list[str] = []
        earlier, read = dict(months or {}), {}
        for path in self._month_files(repo):
            data = read_own_file(path)
            if data is None:
                continue  # replaced by something else since it was listed: told, and nothing of it read
            digest = hashlib.sha256(data).hexdigest()
            known = earlier.get(path.name)
            month = known[1] if known and known[0] == digest else _read_month(path, data)
            read[path.name] = (digest, month)
            rejected.extend(month.problems)
            for pull, line_number in zip(month.pulls, month.line_numbers, strict=True):
                if (problem := outside_life(pull, life)) is None:
                    by_number[pull.number] = pull
                else:
                    rejected.append(_line_problem(path, line_number, problem))
        report_rejected(rejected)
        if months is not None:
            months.clear()
            months.update(read)
        return sorted(by_number.values(), key=lambda p: (p.merged_at, p.number))

    def content_hash(self, repo: str) -> str:
        """A hash of everything stored for `repo` (its month files and state): equal hashes, equal data."""
        digest = hashlib.sha256()
        files = [*self._month_files(repo), self.repo_dir(repo) / "state.json"]
        for path in files:
            data = read_own_file(path, report=False)
            if data is None:
                continue
            digest.update(f"{path.name}\0{len(data)}\0".encode() + data)
        return digest.hexdigest()

    def data_time(self, repos: Iterable[str] | None = None) -> datetime | None:
        """The store's own "now": the latest fetch or import time of `repos` (default: all), or
        their latest merge where no time was recorded.

        A build takes the week in progress and every date it prints from here rather than from
        the clock, so that two builds of the same store are byte-identical wherever and whenever
        they run; the week that was in progress when the data was fetched stays so until the
        next fetch, since what merged after it is unknown.
        """
        moments = []
        for repo in self.repos() if repos is None else repos:
            state = self.read_state(repo)
            if state is not None and state.fetched_at is not None:
                moments.append(state.fetched_at)
            else:
                moments.extend(p.merged_at for p in self.read_pulls(repo)[-1:])
        return max(moments, default=None)

    def upsert(self, repo: str, pulls: Iterable[Pull]) -> int:
        """Add or replace pulls by number (of a number given twice, the later record); returns how
        many records changed.

        A PR whose merged_at moved to another month (it never should, but GitHub data is GitHub
        data) is removed from its old month file.
        """
        latest = {pull.number: pull for pull in pulls}  # a PR given twice: the later record, once
        by_month: dict[str, dict[int, Pull]] = defaultdict(dict)
        for pull in latest.values():
            by_month[pull.merged_at.astimezone(UTC).strftime("%Y-%m")][pull.number] = pull
        if not by_month:
            return 0
        directory = self._folder_for_writing(repo)
        incoming_numbers = {n for month in by_month.values() for n in month}
        changed = 0
        for path in self._month_files(repo):
            month = path.stem
            data = read_own_file(path)
            stored = _read_month(path, data if data is not None else b"")
            existing = {p.number: p for p in stored.pulls}
            updated = dict(existing)
            for number in incoming_numbers & existing.keys():
                if number not in by_month.get(month, {}):
                    del updated[number]  # moved to another month
            for number, pull in by_month.pop(month, {}).items():
                updated[number] = _keeping_diff(pull, existing.get(number))
            changed += sum(1 for n, p in updated.items() if existing.get(n) != p)
            if updated != existing or len(existing) < len(stored.pulls):
                _write_month(path, updated.values(), stored.damaged)
        for month, new in by_month.items():
            changed += len(new)
            _write_month(directory / f"{month}.jsonl", new.values())
        return changed

    def _month_files(self, repo: str) -> list[Path]:
        """The repository's month files that are regular files of the store's own; anything else
        under a month file's name (a link, which could point at any file of the machine, a named
        pipe, a device, a folder) is skipped with a sentence naming it, and nothing of it is read."""
        directory = self.repo_dir(repo)
        if not self._own_folder(directory):
            return []
        files = sorted(p for p in directory.iterdir() if _MONTH_FILE.match(p.name))
        refused = {p: kind for p in files if (kind := not_a_regular_file(p))}
        report_rejected(
            [
                f"{p} is {kind} where a month file should be; it is skipped and nothing of it is read, so remove it"
                for p, kind in refused.items()
            ]
        )
        return [p for p in files if p not in refused]

    def _folder_for_writing(self, repo: str) -> Path:
        directory = self.repo_dir(repo)
        directory.mkdir(parents=True, exist_ok=True)
        self._own_folder(directory)
        return directory

    def _own_folder(self, directory: Path) -> bool:
        """Whether a repository's folder is there as a folder of the store itself: a link in its
        place (owner or name) could lead anywhere on the machine, so it is refused with one sentence."""
        for folder in (directory.parent, directory):
            try:
                mode = folder.lstat().st_mode
            except OSError:
                return False
            if stat.S_ISLNK(mode) or not stat.S_ISDIR(mode):
                raise DigestError(
                    f"{folder} is {_kind_of(mode)}, not a folder of the store; nothing is read through it, so remove it "
                    "(a fetch makes the folder again)."
                )
        return True

    # -- state ------------------------------------------------------------------------------

    def read_state(self, repo: str) -> RepoState | None:
        path = self.repo_dir(repo) / "state.json"
        if not self._own_folder(path.parent) or not os.path.lexists(path):
            return None
        if kind := not_a_regular_file(path):
            raise DigestError(
                f"{path} is {kind}, not a state file; nothing of it is read, so remove it "
                "(the next fetch writes a new one)."
            )
        try:
            raw = read_own_file(path, report=False)
            if raw is None:
                return None
            data = json.loads(raw.decode("utf-8"))
            state = RepoState.from_json(data)
        except RecordError as error:
            raise DigestError(
                f"{path} has a bad value in {error.field}: {error.problem}; correct it, restore it from version control, "
                "or delete it to refetch."
            ) from None
        except (
            ValueError,
            KeyError,
            TypeError,
            IndexError,
            AttributeError,
            OverflowError,
            RecursionError,
        ) as error:
            raise DigestError(
                f"{path} is not a valid state file ({_short(error)}); restore it from version control or delete it to refetch."
            ) from None
        except OSError as error:
            raise DigestError(
                f"{path} could not be read ({error.strerror or error}); restore it from version control or delete it to refetch."
            ) from None
        if state.schema > SCHEMA_VERSION:
            raise DigestError(
                f"{path} was written by a newer repo-digest (schema {state.schema}); upgrade repo-digest to read it."
            )
        return state

    def forget(self, repo: str) -> None:
        """Remove a repository's state, and its folder when nothing else is in it."""
        directory = self.repo_dir(repo)
        (directory / "state.json").unlink(missing_ok=True)
        for folder in (directory, directory.parent):
            try:
                folder.rmdir()
            except OSError:
                break  # not empty, or not there: keep it

    def write_state(self, state: RepoState) -> None:
        directory = self._folder_for_writing(state.repo)
        text = json.dumps(state.to_json(), indent=2, ensure_ascii=False) + "\n"
        atomic_write(directory / "state.json", text)


def _folder_named(parent: Path, name: str) -> str:
    """`name`, or the name of the folder in `parent` that is `name` but for case."""
    if os.path.lexists(parent / name) or not parent.is_dir():
        return name
    folded, entries = name.lower(), sorted(parent.iterdir())
    return next((e.name for e in entries if e.name.lower() == folded and e.is_dir()), name)


def not_a_regular_file(path: Path) -> str | None:
    """What `path` is where a file of the store belongs ("a symbolic link", "a named pipe", ...),
    or None for a regular file (or nothing there)."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return None
    return None if stat.S_ISREG(mode) else _kind_of(mode)


def _kind_of(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_own_file(path: Path, report: bool = True) -> bytes | None:
    """The bytes of a regular file of the store, or None where something else took its place
    (a link is not followed, a named pipe is not waited on); said once when `report`."""
    try:
        fd = os.open(
            path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        )
    except FileNotFoundError:
        return None
    except OSError:
        kind = not_a_regular_file(path)
        if kind is None:
            raise
    else:
        with os.fdopen(fd, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISREG(mode):
                return handle.read()
        kind = _kind_of(mode)
    if report:
        said = f"{path} is {kind} where a file of the store should be; it is skipped and nothing of it is read, so remove it"
        report_rejected([said])
    return None


def _keeping_diff(pull: Pull, stored: Pull | None) -> Pull:
    """`pull` with the diff excerpt the store already had for it: a PR refetched (a look-back, an
    import over a fetch) keeps it, so that it is never asked for twice."""
    if pull.diff is None and stored is not None and stored.diff is not None:
        return replace(pull, diff=stored.diff)
    return pull


@dataclass
class MonthFile:
    pulls: list[Pull] = field(default_factory=list)  # in file order; a number may repeat
    line_numbers: list[int] = field(default_factory=list)  # of each of `pulls`
    # lines that fail the gate, kept as they were
    damaged: list[bytes] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one sentence per damaged line


def _read_month(path: Path, data: bytes) -> MonthFile:
    """The month file at `path`, whose bytes are `data`. A byte order mark in front (an editor on
    Windows writes one) is not part of the first record."""
    month = MonthFile()
    for line_number, line in enumerate(data.removeprefix(codecs.BOM_UTF8).splitlines(), 1):
        if not line.strip():
            continue
        pull, problem = read_line(line, Pull.from_json)
        if problem is None:
            assert pull is not None  # no problem: a record
            month.pulls.append(pull)
            month.line_numbers.append(line_number)
            continue
        month.damaged.append(line)
        month.problems.append(_line_problem(path, line_number, problem))
    return month


def _line_problem(path: Path, line_number: int, problem: str) -> str:
    return (
        f"{path}, line {line_number}, {problem}; it is skipped, so fix it or fetch that month again"
    )


def outside_life(pull: Pull, life: Window | None) -> str | None:
    """The sentence's middle for a record merged outside the repository's life, or None."""
    if life is None or life.start <= pull.merged_at <= life.end:
        return None
    when = format_time(pull.merged_at)
    if pull.merged_at < life.start:
        return f"has a bad value in merged_at: {when} is before the repository was created ({format_time(life.start)})"
    return f"has a bad value in merged_at: {when} is after the data's own date ({format_time(life.end)}, a day's room included)"


def _write_month(path: Path, pulls: Iterable[Pull], damaged: Iterable[bytes] = ()) -> None:
    """The pulls sorted by number; damaged lines stay at the end, so that nothing is thrown away."""
    lines = [
        json.dumps(p.to_json(), ensure_ascii=False, sort_keys=True).encode("utf-8")
        for p in sorted(pulls, key=lambda p: p.number)
    ]
    atomic_write(path, b"".join(line + b"\n" for line in [*lines, *damaged]))


def report_rejected(sentences: list[str], shown: int = 20) -> None:
    """Log each rejected record's sentence (the first `shown` of them, then a count)."""
    for sentence in sentences[:shown]:
        logger.warning("%s.", sentence)
    if len(sentences) > shown:
        logger.warning("%d more records were rejected the same way.", len(sentences) - shown)


def _short(error: Exception) -> str:
    return " ".join(str(error).split())[:200]
