"""The words and numbers around a chart: its alt text, which states the data, and its table.

Every visible phrase is a literal `_("...")` call so Babel extracts it; numbers and bin labels
("2026-W21", "2026-05") are written the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from digest_plugin.charts.bins import Bin
from digest_plugin.charts.chart import Series, Table

Translate = Callable[[str], str]
LISTED_BINS = 16  # up to this many bins, the alt text lists every value; beyond, it summarises


def number(value: float | None) -> str:
    """Counts as integers, averages with up to two decimals (exact for an average of four counts);
    a dash where there is no value."""
    if value is None:
        return "–"
    return f"{value:.2f}".rstrip("0").rstrip(".")


def unit_phrase(unit: str, _: Translate) -> str:
    return {
        "week": _("per week"),
        "month": _("per month"),
        "quarter": _("per quarter"),
        "year": _("per year"),
    }[unit]


def unit_header(unit: str, _: Translate) -> str:
    return {"week": _("Week"), "month": _("Month"), "quarter": _("Quarter"), "year": _("Year")}[
        unit
    ]


def chart_alt(
    title: str,
    unit: str,
    bins: Sequence[Bin],
    series: Sequence[Series],
    marked: int | None,
    notes: Sequence[str],
    stacked: bool,
    _: Translate,
) -> str:
    """Title and span; for stacked bars each series' total, else each series' values in bin order
    (or a summary when there are many); then the marked bin's values."""
    sentences = [
        _span(title, _("stacked bars") if stacked else _("bars and a line"), unit, bins, _)
    ]
    if stacked:
        totals = [(s.name, sum(v or 0 for v in s.values)) for s in series]
        sentences.append(_("Totals: {items}.").format(items=_items(totals, _)))
    else:
        sentences += [_values(s, bins, _) for s in series]
    if marked is not None:
        values = [(s.name, s.values[marked]) for s in series]
        sentences.append(
            _("{bin}, highlighted: {items}.").format(
                bin=bins[marked].label, items=_items(values, _)
            )
        )
    return sentences_joined([*sentences, *notes])


def _values(s: Series, bins: Sequence[Bin], _: Translate) -> str:
    """A series' values in bin order, or a summary of them when there are many."""
    if len(bins) <= LISTED_BINS:
        values = _(", ").join(number(v) for v in s.values)
        return _("{name}: {values}.").format(name=s.name, values=values)
    if s.kind == "line":
        return _("{name}: {value} in {bin}.").format(
            name=s.name, value=number(s.values[-1]), bin=bins[-1].label
        )
    counts = [v or 0 for v in s.values]
    peak = counts.index(max(counts))
    return _("{name}: {total} in all, most in {peak_bin} ({peak}), {last} in {last_bin}.").format(
        name=s.name,
        total=number(sum(counts)),
        peak_bin=bins[peak].label,
        peak=number(counts[peak]),
        last=number(counts[-1]),
        last_bin=bins[-1].label,
    )


def table(unit: str, bins: Sequence[Bin], series: Sequence[Series], _: Translate) -> Table:
    """One row per bin (a '*' marks a partial one), then a row of totals for the bar series."""
    rows = [
        (b.label + ("*" if b.partial else ""), *(number(s.values[i]) for s in series))
        for i, b in enumerate(bins)
    ]
    totals = (
        _("Total"),
        *(number(sum(v or 0 for v in s.values)) if s.kind == "bar" else "" for s in series),
    )
    return Table((unit_header(unit, _), *(s.name for s in series)), (*rows, totals))


def partial_notes(bins: Sequence[Bin], unit: str, _: Translate) -> tuple[str, ...]:
    """Why a bin is starred: the numbers of a week in progress or not fully fetched are not final."""
    notes = []
    in_progress = [b.label for b in bins if b.in_progress]
    # in progress says it already
    incomplete = [b.label for b in bins if b.incomplete and not b.in_progress]
    cut = [b.label for b in bins if b.partial and not b.in_progress and not b.incomplete]
    if in_progress:
        notes.append(_("* Still in progress: {bins}.").format(bins=_(", ").join(in_progress)))
    if incomplete:
        notes.append(
            _("* Not fully fetched, so the numbers may be low: {bins}.").format(
                bins=_(", ").join(incomplete)
            )
        )
    if cut and unit != "week":
        notes.append(
            _("* Only partly covered by the history: {bins}.").format(bins=_(", ").join(cut))
        )
    return tuple(notes)


def sentences_joined(sentences: Sequence[str]) -> str:
    """Sentences one after another: a space after Latin punctuation, none after Chinese (。)."""
    text = ""
    for sentence in sentences:
        text += (" " if text and text[-1].isascii() else "") + sentence
    return text


def _span(title: str, drawing: str, unit: str, bins: Sequence[Bin], _: Translate) -> str:
    return _("{title}: {drawing} {per_unit}, {first} to {last}.").format(
        title=title,
        drawing=drawing,
        per_unit=unit_phrase(unit, _),
        first=bins[0].label,
        last=bins[-1].label,
    )


def _items(pairs: Sequence[tuple[str, float | None]], _: Translate) -> str:
    return _(", ").join(
        _("{name}: {count}").format(name=name, count=number(count)) for name, count in pairs
    )
