"""The memo of analyses and narratives (analysis/memo.py), kept between builds in the cache folder:
`{CACHE_PATH}/digest-analysis/{owner}/{name}.pickle`, one file a repository.

Its salt hashes what a key cannot see: the package's code, default rules and catalogues (not
its templates, which are rendered afresh anyway) and the Python and Babel versions, so that an
upgrade or an edit of any of them starts afresh; DIGEST_RULES, read once a build, is in the keys
by its content. A file that cannot be read is an empty memo, never an error.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import babel

from digest_plugin.analysis.memo import Memo
from digest_plugin.store.atomic import atomic_file

log = logging.getLogger(__name__)
PACKAGE = Path(__file__).resolve().parents[1]
SALTED = (".py", ".yaml", ".po", ".mo")
FOLDER = "digest-analysis"
UNREADABLE = (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, pickle.UnpicklingError)


def memo_salt() -> str:
    digest = hashlib.sha256(f"{sys.version}\0{babel.__version__}\0".encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in SALTED and "__pycache__" not in path.parts:
            digest.update(f"{path.relative_to(PACKAGE).as_posix()}\0".encode() + path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class MemoFolder:
    """Where a build keeps its memos, and the salt of the code that builds. A file holds the salt,
    then the entries, each pickled on its own: whether a memo is this code's is read without
    unpickling the tens of megabytes of a large repository's analyses."""

    cache: Path
    salt: str

    def remembers(self, repo: str) -> bool:
        """Whether this code saved a memo of `repo` (whose entries `load` reads)."""
        path = self._path(repo)
        try:
            with path.open("rb") as handle:
                return pickle.load(handle) == self.salt
        except FileNotFoundError:
            return False
        except UNREADABLE as error:
            _say_unreadable(path, error)
            return False

    def load(self, repo: str) -> Memo:
        path = self._path(repo)
        try:
            with path.open("rb") as handle:  # read as it is unpickled
                if pickle.load(handle) != self.salt:
                    return Memo(self.salt)  # another version of the code wrote it
                entries = pickle.load(handle)
        except FileNotFoundError:
            return Memo(self.salt)
        except UNREADABLE as error:
            _say_unreadable(path, error)
            return Memo(self.salt)
        return Memo(self.salt, entries)

    def save(self, repo: str, memo: Memo) -> None:
        """What this build used, and nothing older: the file never grows beyond one build's worth."""
        if not memo.changed:
            return
        with atomic_file(self._path(repo)) as handle:  # pickled into the file, never whole in memory
            pickle.dump(memo.salt, handle, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump(memo.kept(), handle, protocol=pickle.HIGHEST_PROTOCOL)

    def _path(self, repo: str) -> Path:
        return self.cache / FOLDER / f"{repo}.pickle"


def _say_unreadable(path: Path, error: Exception) -> None:
    # a truncated file, say: the build goes on without it
    log.warning("repo-digest: the cached analysis %s could not be read (%s); analysing afresh.", path, error)
