"""Site-wide colours: the same label, module, type or author has one style on every chart of a site.

Colours are Okabe and Ito's colour-blind-safe set without black (which vanishes on dark pages),
the light ones (orange, sky blue, yellow) darkened to the same hue until every colour has at least
3:1 contrast against both the theme's white and its dark page (WCAG's minimum for graphics). Where one chart holds more series than
there are colours, a hatch pattern is the second cue. Keys are given styles greedily in order of
first appearance, so no two series of one chart share a style and a new week rarely changes the
style of anything drawn before. Keys are "namespace:name" ("label:bug", "author:alice"); a few
fixed keys ("other", "bots", "unclassified", "activity:*") always look the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from digest_plugin.analysis.model import TYPES
from digest_plugin.charts.chart import Style

COLOURS = ("#BD8200", "#4795C2", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#98902A")
PAGE_BACKGROUNDS = ("#ffffff", "#0d1117")  # the theme's light and dark page colours (style.css)
HATCHES = ("", "//", "xx", "\\\\")  # line hatches only: dotted ones make SVGs many times larger
SLOTS = tuple(Style(color, hatch) for hatch in HATCHES for color in COLOURS)
NEUTRAL = "#8D8D8D"  # the grey of everything that is not one named thing

FIXED = {
    "other": Style(NEUTRAL),
    "bots": Style(NEUTRAL, "//"),
    "unclassified": Style(NEUTRAL, "xx"),
    "activity:merged": Style("#4795C2"),
    "activity:key": Style("#0072B2"),
    "activity:average": Style("#D55E00"),
}
# Types are a fixed, small set: fixed styles keep "fix" the same colour on every site.
TYPE_STYLES = {f"type:{name}": SLOTS[index] for index, name in enumerate(TYPES)}


@dataclass(frozen=True)
class Palette:
    """Styles by palette key; a key it does not know gets a stable fallback style."""

    styles: dict[str, Style] = field(default_factory=dict)

    def style(self, key: str) -> Style:
        return self.styles.get(key) or FIXED.get(key) or TYPE_STYLES.get(key) or fallback_style(key)


def fallback_style(key: str) -> Style:
    """A plain colour that depends only on the key, for keys outside the palette."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return SLOTS[int.from_bytes(digest[:4], "big") % len(COLOURS)]


def assign_styles(groups: Iterable[Sequence[str]]) -> Palette:
    """Styles for the keys of `groups` (the series keys of each chart, in drawing order) such that
    keys drawn together differ, each key taking the first style its earlier neighbours left free."""
    first_seen: dict[str, None] = {}
    neighbours: dict[str, set[str]] = {}
    for group in groups:
        keys = [key for key in group if key not in FIXED and key not in TYPE_STYLES]
        for key in keys:
            first_seen.setdefault(key, None)
            neighbours.setdefault(key, set()).update(k for k in keys if k != key)
    slot_of: dict[str, int] = {}
    for key in first_seen:
        taken = [slot_of[n] for n in neighbours[key] if n in slot_of]
        free = next((slot for slot in range(len(SLOTS)) if slot not in taken), None)
        # More than len(SLOTS) series on one chart cannot all differ: reuse the least shared style.
        slot_of[key] = (
            free if free is not None else min(range(len(SLOTS)), key=lambda s: (taken.count(s), s))
        )
    return Palette({key: SLOTS[slot] for key, slot in slot_of.items()})
