"""Themes: what a week was about, found without configuration.

Every PR offers candidate subjects (`theme_keys`): its title's scopes (`[trainer, vllm]`, `[ty]`),
ruff-style rule families, its labels (beyond type labels), its keyword topics (rules.yaml
`topics`), its path modules, and the names in its title (a model family such as `qwen`, a tool
such as `sglang`; version digits dropped, plurals made singular). A subject becomes a theme of
the week when it groups enough of the week's PRs (`thresholds.theme_min_pulls`,
`theme_min_share`; a subject named in titles may instead have enough of the week's lines) and
clearly more of them than it did in the repository's previous weeks (`theme_lift` times its
share of the last `theme_baseline_weeks` weeks), or when it takes much of the week
(`theme_dominant_share`, or half of it whatever its usual share). Themes are ranked by their
size (share of the week's PRs and core lines) weighed with how much they stand out (see
`_standing_out`). Subjects that gather nearly the same PRs are one theme. A DIGEST_RULES topic
names and merges subjects: every subject its pattern matches is counted under the topic's name.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from digest_plugin.analysis.classify import parse_title
from digest_plugin.analysis.model import AnalysedPull, Theme
from digest_plugin.analysis.rules import Rules

# Source of a subject, the more deliberate first: a name the author wrote as a scope wins a tie
SOURCES = ("topic", "scope", "label", "word", "path", "verb")
VERB_SHARE = 0.15  # a verb ("stabilize") is a theme only when this share of the week does it
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(?:\.\d+)*")
_RULE_CODE = re.compile(r"[A-Z]{1,4}\d{2,4}")  # a linter rule code (E501, RUF100): no subject of its own
_VERSION_TAIL = re.compile(r"[-_.]?v?\d+(?:\.\d+)*[a-z]?$")
# Generic words of titles: they say what was done, not to what
_STOPWORDS = frozenset("""
a an the and or of for to in on at by with from into onto via per as is are be not no new more less all any some this that
these those it its when while if than then also only into out up down over under after before between without within
add adds added adding support supports supported fix fixes fixed fixing update updates updated bump remove removes removed
use uses using make makes allow allows improve improves improved handle handles refactor refactoring cleanup clean enable
enables disable disables implement implements introduce introduces change changes rename move moves set sets get gets avoid
ensure test tests testing docs doc documentation example examples typo typos minor misc chore feat feature features bug
bugs error errors issue issues case cases code file files option options default defaults value values type types check
checks run runs failing fails fail failure correct correctly properly when new old first last missing unused wrong
version versions release ci pr prs readme comment comments message messages log logs logging script scripts
model models data api config configs function functions method methods class classes call calls result results
infer infers inferred emit emits implement implemented detect detects support add stabilise
efficient robust better faster simple multiple single unused redundant
during instead about within because where which other based like just now can cannot should would
""".split())  # noqa: SIM905 (a paragraph of words reads better than a list of strings)
BASELINE_MAX_WEEKS = 52
DOMINANT_LIFT = 1.2  # a subject taking much of the week still needs to be above its usual share ...
BULK_SHARE = 0.5  # ... unless it is the bulk of the week (ruff's `ty`), where it only needs to be at its usual share
BULK_LIFT = 0.9
LIFT_CAP = 20.0  # how much standing out can count: a name never seen before is not infinitely telling
BY_LINES_PULLS = 5  # PRs a subject needs to be a theme by the lines it changed rather than by its share of PRs
SAME_STORY = 0.7  # share of the larger of two subjects' PRs they have in common from which they are one theme
MIN_WORD = 3
NO_SUBJECTS = frozenset({"(root)", "build", "tooling"})  # letters; shorter names (`ty`, `ci`) come in as scopes or paths


def theme_keys(analysed: AnalysedPull, rules: Rules) -> dict[str, str]:
    """The subjects one PR offers -> where each was seen (one of SOURCES), merged under the
    DIGEST_RULES topic names that match them."""
    pull, kind = analysed.pull, analysed.classification
    title = parse_title(pull.title, rules)
    found: dict[str, str] = {}

    def offer(name: str, source: str) -> None:
        name = name.strip().lower()
        # the project's own name and root files say nothing about what the week was about
        if name and name not in rules.title_types and name not in rules.markers and name not in rules.source_roots and name not in NO_SUBJECTS:
            found.setdefault(_topic_of(name, rules) or name, source)

    for topic in kind.topics:
        offer(topic, "topic")
    for scope in (*title.modules, *title.rule_prefixes):
        offer(scope, "scope")
    for label in kind.labels:
        if not any(pattern.fullmatch(label.strip()) for _, pattern in rules.label_types):
            offer(label, "label")
    for word in _title_words(title.description):
        offer(word, "verb" if word in rules.verbs else "word")
    for module in kind.modules:
        offer(module, "path")
    return found


def _topic_of(name: str, rules: Rules) -> str | None:
    return next((topic for topic, pattern in rules.topics if pattern.fullmatch(name) or pattern.search(f" {name} ")), None)


def _title_words(description: str) -> set[str]:
    """Names in a title, without version digits: "Qwen3.5" -> "qwen", "FSDP2" -> "fsdp"."""
    words = set()
    for raw in _WORD.findall(description):
        if _RULE_CODE.fullmatch(raw):
            continue
        word = singular(_VERSION_TAIL.sub("", raw.lower()).strip("-_+"))
        if len(word) >= MIN_WORD and word not in _STOPWORDS and not word.isdigit():
            words.add(word)
    return words


def singular(word: str) -> str:
    """A plural English noun as its singular, so that "patterns" and "pattern", "matches" and
    "match" are one subject; words that only look plural ("class", "alias", "status", "analysis")
    stay as they are."""
    if len(word) <= MIN_WORD + 1 or not word.endswith("s") or word.endswith(("ss", "us", "is", "as", "ies")):
        return word
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1]


def week_themes(pulls: Sequence[AnalysedPull], keys: dict[int, dict[str, str]], baseline: Sequence[tuple[Counter, int]],
                rules: Rules) -> tuple[Theme, ...]:
    """The themes of a week. `pulls` in importance order; `keys` is `theme_keys` per PR number;
    `baseline` is (subject counts, PRs) of each previous week, oldest first."""
    thresholds = rules.thresholds
    people = [p for p in pulls if not p.classification.bot]  # bot bumps are no theme of the week
    if len(people) < thresholds.theme_min_pulls:
        return ()
    recent = _baseline(baseline, thresholds.theme_baseline_weeks, thresholds.theme_baseline_pulls)
    members: dict[str, list[AnalysedPull]] = {}
    sources: dict[str, str] = {}
    for pull in people:
        for name, source in keys.get(pull.pull.number, {}).items():
            members.setdefault(name, []).append(pull)
            sources[name] = min(sources.get(name, source), source, key=SOURCES.index)
    candidates = _standing_out(members, sources, (len(people), sum(p.footprint.core_lines for p in people)), recent, rules)
    chosen: list[Theme] = []
    for _, name, group, share, line_share, base_share in sorted(candidates, key=lambda c: (-c[0], SOURCES.index(sources[c[1]]), c[1])):
        numbers = tuple(p.pull.number for p in group)
        if any(_overlap(numbers, theme.pulls) >= SAME_STORY for theme in chosen):
            continue  # nearly the same PRs as a theme already chosen: the same story
        chosen.append(_theme(name, sources[name], group, (share, line_share), base_share, len(recent)))
    return tuple(chosen[: thresholds.themes_max])


def _standing_out(members: dict[str, list[AnalysedPull]], sources: dict[str, str], totals: tuple[int, int],
                  recent: Sequence[tuple[Counter, int]], rules: Rules) -> list[tuple]:
    """(weight, name, PRs, share, line share, baseline share) of each subject that is a theme of the week.

    Its size is the mean of its share of the week's PRs and of their core lines (generated and
    vendored files left out), so a subject is weighed by how much of the week's work it was; its
    lift is that share of PRs against the previous weeks'. The weight is size × (1 + ln lift): a
    subject twice as big counts as much as one that stands out e^1 times more, and a subject as
    big as ever (ruff's `ty`, three quarters of every week) leads when it is the bulk of the week."""
    thresholds = rules.thresholds
    before: Counter = Counter()
    for counts, _ in recent:
        before.update(counts)
    before_total = sum(n for _, n in recent)
    total, total_lines = totals
    needed = max(thresholds.theme_min_pulls, math.ceil(thresholds.theme_min_share * total))
    found = []
    for name, group in members.items():
        share = len(group) / total
        line_share = sum(p.footprint.core_lines for p in group) / total_lines if total_lines else share
        size = (share + line_share) / 2
        if not _big_enough(len(group), total, needed, sources[name], size, thresholds):
            continue
        # a subject never seen before counts as seen once: a new name needs more than luck
        base_share = (before[name] + 1) / (before_total + 1) if before_total else 0.0
        lift = share / base_share if base_share else math.inf
        if _stands_out(share, lift, thresholds):
            found.append((size * (1 + math.log(min(max(lift, 1.0), LIFT_CAP))), name, group, share, line_share,
                          before[name] / before_total if before_total else 0.0))
    return found


def _big_enough(count: int, total: int, needed: int, source: str, size: float, thresholds) -> bool:
    """Whether a subject of `count` of the week's `total` PRs is big enough to be a theme. A subject
    named in titles may also qualify by the lines its PRs changed (ruff's five "pattern" PRs of
    3,000 lines in a week of 171); a path module may not: a folder one large PR touched is no story.
    Every PR of the week says nothing about the week; a verb is a theme only when much of the week does it."""
    enough = count >= needed or (source != "path" and count >= BY_LINES_PULLS and size >= thresholds.theme_min_share)
    return enough and count < total and (source != "verb" or count / total >= VERB_SHARE)


def _stands_out(share: float, lift: float, thresholds) -> bool:
    """Clearly above its usual share, or much of the week and above it, or the bulk of the week."""
    return (lift >= thresholds.theme_lift or (share >= thresholds.theme_dominant_share and lift >= DOMINANT_LIFT)
            or (share >= BULK_SHARE and lift >= BULK_LIFT))


def _baseline(weeks: Sequence[tuple[Counter, int]], least_weeks: int, least_pulls: int) -> list[tuple[Counter, int]]:
    """The previous weeks to compare with: the last `least_weeks`, more in a quiet repository
    until they hold `least_pulls` PRs, at most a year."""
    chosen: list[tuple[Counter, int]] = []
    for week in reversed(weeks):
        if len(chosen) >= BASELINE_MAX_WEEKS or (len(chosen) >= least_weeks and sum(n for _, n in chosen) >= least_pulls):
            break
        chosen.append(week)
    return chosen[::-1]


def _overlap(first: Sequence[int], second: Sequence[int]) -> float:
    """Share of the larger group that is also in the other: a small subject inside a large one
    (ruff's cycle recovery inside `ty`) is a story of its own, two names for the same PRs are not."""
    common = len(set(first) & set(second))
    return common / max(len(first), len(second))


def _theme(name: str, source: str, group: Sequence[AnalysedPull], shares: tuple[float, float], base_share: float, weeks: int) -> Theme:
    share, line_share = shares
    types = Counter(p.classification.type for p in group if p.classification.type)
    return Theme(
        name=name,
        source=source,
        pulls=tuple(p.pull.number for p in group),
        key_pulls=tuple(p.pull.number for p in group if p.key),
        share=round(share, 3),
        line_share=round(line_share, 3),
        baseline_share=round(base_share, 3),
        baseline_weeks=weeks,
        authors=len({p.pull.author.login for p in group}),
        additions=sum(p.pull.additions for p in group),
        deletions=sum(p.pull.deletions for p in group),
        types=dict(sorted(types.items(), key=lambda item: (-item[1], item[0]))),
    )
