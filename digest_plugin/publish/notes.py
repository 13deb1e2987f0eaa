"""Editor's notes: a maintainer's own words for a week, read from the site's content folder.

    content/notes/OWNER/NAME/YYYY-Www.md     (Markdown with Pelican metadata: Title, Author, ...)

Each note is read with Pelican's own Markdown reader and shown first on its week's page, feed
entry, Markdown and PDF, marked as the editor's words. The folder is excluded from Pelican's
articles and pages, so a note never becomes a post of its own.
"""

from __future__ import annotations

import re
from itertools import dropwhile
from pathlib import Path

from pelican.contents import Page
from pelican.readers import Readers

from digest_plugin.errors import DigestError
from digest_plugin.publish.week_view import EditorNote
from digest_plugin.weeks import Week

NOTES_FOLDER = "notes"  # under Pelican's PATH
_NOTE_NAME = re.compile(r"\d{4}-W\d{2}")
_METADATA_LINE = re.compile(r"^[A-Za-z][\w-]*:")


def exclude_notes(settings: dict) -> None:
    """Keep Pelican's article and page generators out of the notes folder."""
    for name in ("ARTICLE_EXCLUDES", "PAGE_EXCLUDES"):
        excluded = list(settings.get(name) or [])
        if NOTES_FOLDER not in excluded:
            settings[name] = [*excluded, NOTES_FOLDER]


def read_notes(content: Path, settings: dict) -> dict[tuple[str, str], EditorNote]:
    """Every note under `content`/notes, by (repository, week); one clear error for a misplaced file."""
    folder = content / NOTES_FOLDER
    if not folder.is_dir():
        return {}
    readers = Readers(settings)
    notes = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        shown = path.relative_to(content.parent) if content.parent in path.parents else path
        relative = path.relative_to(folder)
        if len(relative.parts) != 3 or path.suffix != ".md" or not _NOTE_NAME.fullmatch(path.stem):
            raise DigestError(
                f"The editor's note {shown} is not where notes go: name it {NOTES_FOLDER}/OWNER/NAME/YYYY-Www.md."
            )
        try:
            week = str(Week.parse(path.stem))
        except DigestError:
            raise DigestError(
                f"The editor's note {shown} is named after {path.stem}, which is not an ISO week."
            ) from None
        page = readers.read_file(str(content), str(path.relative_to(content)), content_class=Page)
        repo = "/".join(relative.parts[:2])
        notes[repo, week] = EditorNote(
            html=page.content,
            markdown=_body(path.read_text(encoding="utf-8")),
            title=getattr(page, "title", ""),
            author=str(page.author)
            if getattr(page, "author", None) and str(page.author) != settings.get("AUTHOR")
            else "",
            source=str(shown),
        )
    return notes


def _body(source: str) -> str:
    """The note's Markdown without its metadata lines (Pelican's "Key: value" header)."""
    return "\n".join(dropwhile(_METADATA_LINE.match, source.splitlines())).strip()
