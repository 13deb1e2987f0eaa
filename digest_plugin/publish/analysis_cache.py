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
from pathlib import Path

import babel

from ..analysis.memo import Memo
from ..atomic import atomic_file

log = logging.getLogger(__name__)
PACKAGE = Path(__file__).resolve().parents[1]
SALTED = (".py", ".yaml", ".po", ".mo")
FOLDER = "digest-analysis"


def memo_salt() -> str:
    digest = hashlib.sha256(f"{sys.version}\0{babel.__version__}\0".encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in SALTED and "__pycache__" not in path.parts:
            digest.update(f"{path.relative_to(PACKAGE).as_posix()}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def load_memo(cache: Path, repo: str, salt: str) -> Memo:
    path = _memo_path(cache, repo)
    try:
        with path.open("rb") as handle:  # read as it is unpickled: the file of a large repository is tens of megabytes
            stored_salt, entries = pickle.load(handle)
    except FileNotFoundError:
        return Memo(salt)
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, pickle.UnpicklingError) as error:
        # a truncated file, or one another version of the code wrote: start afresh
        log.warning("repo-digest: the cached analysis %s could not be read (%s); analysing afresh.", path, error)
        return Memo(salt)
    return Memo(salt, entries if stored_salt == salt else None)


def save_memo(cache: Path, repo: str, memo: Memo) -> None:
    """What this build used, and nothing older: the file never grows beyond one build's worth."""
    if not memo.changed:
        return
    with atomic_file(_memo_path(cache, repo)) as handle:  # pickled into the file, never whole in memory
        pickle.dump((memo.salt, memo.kept()), handle, protocol=pickle.HIGHEST_PROTOCOL)


def _memo_path(cache: Path, repo: str) -> Path:
    return Path(cache) / FOLDER / f"{repo}.pickle"
