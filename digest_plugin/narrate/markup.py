"""Narrative text as HTML for the theme: escaped, with each `#N` a link to the pull request."""

from __future__ import annotations

from collections.abc import Collection

from markupsafe import Markup, escape

from digest_plugin.narrate.model import CITATION, Cited


def cited_html(text: str, repo_url: str, pulls: Collection[int] | None = None) -> Markup:
    """`text` escaped for HTML, with each `#N` it cites turned into a link to `{repo_url}/pull/N`.

    With `pulls`, only those numbers are links: a "#12" inside a quoted PR title is not a citation.
    Only an http(s) `repo_url` gives links: the address comes from imported data, and a
    `javascript:` one must not become clickable.
    """
    base = repo_url.rstrip("/")
    if not base.startswith(("https://", "http://")):
        return escape(text)
    parts, last = [], 0
    for match in CITATION.finditer(text):
        if pulls is not None and int(match[1]) not in pulls:
            continue
        parts.append(escape(text[last : match.start()]))
        href = escape(f"{base}/pull/{match[1]}")
        parts.append(Markup('<a class="pr-ref" href="{}">#{}</a>').format(href, match[1]))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)


def cite(cited: Cited, repo_url: str) -> Markup:
    """The theme's `cite` filter: a generated text as HTML, linking the PRs it cites."""
    return cited_html(cited.text, repo_url, cited.pulls)
