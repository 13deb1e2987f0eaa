"""Narrative text as HTML for the theme: escaped, with each `#N` a link to the pull request."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_CITATION = re.compile(r"(?<![\w&])#(\d+)\b")


def cited_html(text: str, repo_url: str) -> Markup:
    """`text` escaped for HTML, with every `#N` turned into a link to `{repo_url}/pull/N`.

    Only an http(s) `repo_url` gives links: the address comes from imported data, and a
    `javascript:` one must not become clickable.
    """
    base = repo_url.rstrip("/")
    if not base.startswith(("https://", "http://")):
        return escape(text)
    parts, last = [], 0
    for match in _CITATION.finditer(text):
        parts.append(escape(text[last:match.start()]))
        href = escape(f"{base}/pull/{match[1]}")
        parts.append(Markup('<a class="pr-ref" href="{}">#{}</a>').format(href, match[1]))
        last = match.end()
    parts.append(escape(text[last:]))
    return Markup("").join(parts)
