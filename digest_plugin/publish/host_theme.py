"""How the plugin's pages fit the site's theme, read from the theme's own templates once a build.

- Whether its `base.html` (or a template it extends) has a `head` block. The week and repository
  pages add the plugin's stylesheet and feeds there; a theme without one (the Flex family names
  its block `meta`) gets them from inside the content block instead: the stylesheet as a link
  there, the feeds as visible links.
- Whether its `<head>` holds a `meta` block (Flex, reflex), which the theme fills from the site's
  settings alone (an empty og:url and og:description in pelican-quickstart's): a week and a
  repository fill it with their own description and Open Graph tags instead.
- Whether its `<title>` names SITENAME outside the `title` block (Flex's `{{ SITENAME }}{% block
  title %}{% endblock %}`): a week's title block then adds the week alone, not the site's name again.
- The element the theme's own pages sit in: the first tag of `page.html`'s content block when it
  is a container with a class or an id (notmyidea's `<section id="content" class="body">`, Flex's
  `<article class="single">`), which the week then sits in too. A theme whose `base.html` holds the
  column itself (simple, the showcase) starts its pages with a bare tag, and nothing is added.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jinja2 import Environment, TemplateNotFound, nodes
from markupsafe import Markup

_CONTAINER = re.compile(r"\s*<(section|div|main|article)\b([^<>]*)>")
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_HEAD = re.compile(r"<head\b.*?</head>", re.S)
_META_BLOCK = re.compile(r"{%-?\s*block meta\s*-?%}")
_TITLE_BLOCK = re.compile(r"{%-?\s*block title\s*-?%}.*?{%-?\s*endblock\b[^%]*%}", re.S)


@dataclass(frozen=True)
class HostTheme:
    head_block: bool = True
    # the element the theme's pages sit in, opened (Markup: the theme's own text)
    column_open: str = ""
    column_close: str = ""
    title_names_site: bool = False  # the theme's <title> shows SITENAME beside the title block
    head_meta: bool = False  # the theme's <head> has a `meta` block


def host_theme(env: Environment) -> HostTheme:
    column = _page_column(env)
    base = _source(env, "base.html")
    return HostTheme(
        "head" in _blocks(env, "base.html"),
        Markup(column[0]) if column else Markup(""),
        Markup(f"</{column[1]}>") if column else Markup(""),
        _title_names_site(base),
        _head_has_meta_block(base),
    )


def _source(env: Environment, name: str) -> str:
    assert env.loader is not None  # Pelican's environment has its theme's loader
    try:
        return env.loader.get_source(env, name)[0]
    except TemplateNotFound:
        return ""


def _title_names_site(base: str) -> bool:
    title = _TITLE.search(base)
    return title is not None and "SITENAME" in _TITLE_BLOCK.sub("", title[1])


def _head_has_meta_block(base: str) -> bool:
    head = _HEAD.search(base)
    return head is not None and _META_BLOCK.search(head[0]) is not None


def _parsed(env: Environment, name: str) -> nodes.Template | None:
    source = _source(env, name)
    return env.parse(source) if source else None


def _blocks(env: Environment, name: str, seen: frozenset[str] = frozenset()) -> set[str]:
    """The blocks of template `name` and of the templates it extends (by a constant name)."""
    tree = _parsed(env, name) if name not in seen else None
    if tree is None:
        return set()
    found = {block.name for block in tree.find_all(nodes.Block)}
    parent = tree.find(nodes.Extends)
    if parent is not None and isinstance(parent.template, nodes.Const):
        found |= _blocks(env, parent.template.value, seen | {name})
    return found


def _page_column(env: Environment) -> tuple[str, str] | None:
    """(the opening tag, its name) the content block of the theme's `page.html` starts with, if a
    container with a class or an id; else None."""
    tree = _parsed(env, "page.html")
    blocks = tree.find_all(nodes.Block) if tree else ()
    content = next((block for block in blocks if block.name == "content"), None)
    if content is None or not content.body or not isinstance(content.body[0], nodes.Output):
        return None
    first = content.body[0].nodes[0] if content.body[0].nodes else None
    match = _CONTAINER.match(first.data) if isinstance(first, nodes.TemplateData) else None
    if match is None or not re.search(r"\b(class|id)\s*=", match[2]):
        return None
    return match[0].strip(), match[1]
