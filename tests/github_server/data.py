"""Pull requests for the local GitHub: the real exports in ../shared/data, or small hand-made ones.

Each pull is a REST pull object (with `files`), filled in where the exports lack what GitHub
always has: GitHub counts every file's lines, comments and commits, and knows the author's
association. `reviews_count` (not a REST field) is what GraphQL's `reviews.totalCount` answers
where a pull has no `reviews`: REST's /pulls/N/reviews objects (user, state, body, submitted_at),
oldest first; `review_threads` ({path, comments: [{user, body}]}) are its review threads.
"""

from __future__ import annotations

import copy
import functools
import gzip
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "github"
HANDMADE_REPO = "octo-org/widgets"


def shared_file(repo: str) -> Path:
    return SHARED_DATA / f"{repo.replace('/', '__')}.pulls.jsonl.gz"


@functools.cache
def _load(path: Path) -> tuple[dict, ...]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return tuple(github_complete(json.loads(line)) for line in lines if line.strip())


def shared_pulls(
    repo: str, merged_from: str | None = None, merged_before: str | None = None
) -> list[dict]:
    """The real merged PRs of `repo`, optionally only those merged in [merged_from, merged_before)."""
    pulls = _load(shared_file(repo))
    return [
        copy.deepcopy(p)
        for p in pulls
        if (merged_from is None or p["merged_at"] >= merged_from)
        and (merged_before is None or p["merged_at"] < merged_before)
    ]


def github_complete(pull: dict) -> dict:
    """The export's pull with the values GitHub would have where git could not tell."""
    pull = dict(pull)
    pull["files"] = [
        {
            **f,
            "additions": f.get("additions") or 0,
            "deletions": f.get("deletions") or 0,
            "changes": (f.get("additions") or 0) + (f.get("deletions") or 0),
        }
        for f in pull.get("files") or ()
    ]
    pull["comments"] = pull.get("comments") or 0
    pull["review_comments"] = pull.get("review_comments") or 0
    pull["commits"] = pull.get("commits") or 1
    pull.setdefault("author_association", "CONTRIBUTOR")
    pull.setdefault("reviews_count", 0)
    if not pull.get("head"):  # exports rebuilt from git lack it; GitHub always has one
        pull["head"] = {
            "ref": f"patch-{pull['number']}",
            "label": f"stranger:patch-{pull['number']}",
        }
    return pull


def _time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def handmade_pull(number: int, merged_at: datetime, repo: str = HANDMADE_REPO, **overrides) -> dict:
    files = overrides.pop("files", None)
    if files is None:
        files = [
            {
                "filename": f"src/module_{number % 5}.py",
                "status": "modified",
                "additions": number % 7 + 1,
                "deletions": number % 3,
            }
        ]
    user = overrides.pop(
        "user", {"login": f"dev{number % 4}", "id": 1000 + number % 4, "type": "User"}
    )
    pull = {
        "number": number,
        "title": f"feat: change number {number}",
        "body": f"Body of #{number}.",
        "state": "closed",
        "html_url": f"https://github.com/{repo}/pull/{number}",
        "url": f"https://api.github.com/repos/{repo}/pulls/{number}",
        "user": user,
        "labels": [],
        "created_at": _time(merged_at - timedelta(hours=5)),
        "updated_at": _time(merged_at),
        "closed_at": _time(merged_at),
        "merged_at": _time(merged_at),
        "merged": True,
        "additions": sum(f["additions"] for f in files),
        "deletions": sum(f["deletions"] for f in files),
        "changed_files": len(files),
        "commits": 1 + number % 4,
        "comments": number % 6,
        "review_comments": 0,
        "author_association": "MEMBER",
        "reviews_count": number % 3,
        "files": files,
    }
    pull.update(overrides)
    return github_complete(pull)


def _files(count: int, prefix: str) -> list[dict]:
    statuses = ("added", "modified", "removed", "renamed")
    return [
        {
            "filename": f"{prefix}/file_{i:04d}.txt",
            "status": statuses[i % 4],
            "additions": i % 9,
            "deletions": i % 4,
        }
        for i in range(count)
    ]


def review(
    login: str | None, state: str, submitted_at: str, body: str = "", bot: bool = False
) -> dict:
    """A REST review object; `login` None for a deleted account."""
    user = (
        {"login": login, "id": 7000 + len(login), "type": "Bot" if bot else "User"}
        if login
        else None
    )
    return {"user": user, "state": state, "body": body, "submitted_at": submitted_at}


def thread(path: str, *comments: tuple[str | None, str]) -> dict:
    """A review thread on `path`: (login, body) of each comment, the first one first."""
    return {
        "path": path,
        "comments": [
            {"user": {"login": login, "type": "User"} if login else None, "body": body}
            for login, body in comments
        ],
    }


HOSTILE_REVIEW = "<script>alert(1)</script>\u202eevil\x1b[31m & </textarea>"


def _reviewed(number: int, merged: datetime) -> dict:
    """Reviews for the hand-made PRs that carry them: verdicts in turn, a deleted reviewer, a bot, hostile text,
    more verdicts than the store keeps, and COMMENTED replies that are not verdicts."""

    def before(minutes: int) -> str:
        return _time(merged - timedelta(minutes=minutes))

    if number == 110:
        return dict(
            reviews=[
                review("carol", "CHANGES_REQUESTED", before(90), "Please add a test."),
                review("carol", "COMMENTED", before(60)),
                review("dave", "APPROVED", before(30), "LGTM"),
            ],
            review_threads=[
                thread("src/module_0.py", ("carol", "Missing a test here."), ("dev2", "Added."))
            ],
        )
    if number == 111:
        return dict(
            reviews=[
                review(None, "APPROVED", before(90), "from a deleted account"),
                review(
                    "gemini-code-assist[bot]", "COMMENTED", before(120), "Summary " * 400, bot=True
                ),
                review("eve", "CHANGES_REQUESTED", before(30), HOSTILE_REVIEW),
            ],
            review_threads=[
                thread("src/module_1.py", (None, HOSTILE_REVIEW)),
                thread("src/gone.py"),
            ],
        )
    if number == 112:
        return dict(
            reviews=[
                review(f"reviewer{i}", "APPROVED" if i % 2 else "DISMISSED", before(100 - i))
                for i in range(25)
            ],
            review_threads=[thread(f"src/f{i}.py", ("frank", f"comment {i}")) for i in range(14)],
        )
    return {}


def handmade_pulls(start: datetime = datetime(2026, 3, 2, 9, tzinfo=UTC)) -> list[dict]:
    """About forty PRs over three weeks that exercise every field we keep."""
    pulls = [handmade_pull(100 + i, start + timedelta(hours=13 * i)) for i in range(36)]
    special = {
        101: dict(
            labels=[{"name": "bug"}, {"name": "area: parser"}],
            title="fix: <script>alert(1)</script> & 修复",
        ),
        102: dict(
            user={"login": "dependabot[bot]", "id": 49699333, "type": "Bot"},
            title="build(deps): bump x",
            author_association="NONE",
        ),
        103: dict(user=None, title="A PR by a deleted account"),
        104: dict(files=_files(250, "big"), title="refactor: move 250 files"),
        105: dict(files=_files(340, "huge"), title="chore: vendor 340 files"),
        106: dict(body="x" * 12_000, author_association="FIRST_TIME_CONTRIBUTOR"),
        107: dict(labels=[{"name": f"label-{i}"} for i in range(5)], body=None),
        108: dict(files=[], title="empty change"),
    }
    for pull in pulls:
        merged = datetime.fromisoformat(pull["merged_at"].replace("Z", "+00:00"))
        change = special.get(pull["number"]) or _reviewed(pull["number"], merged)
        if change:
            pull.update(handmade_pull(pull["number"], merged, **change))
    return pulls


def burst_pulls(
    count: int, moment: datetime, first_number: int = 5000, repo: str = "octo-org/burst"
) -> list[dict]:
    """`count` PRs merged in the same second: more than the search cap cannot be split apart."""
    return [handmade_pull(first_number + i, moment, repo=repo) for i in range(count)]
