"""Themes: the strands of work that tell a week, in the names the repository's maintainers use.

A PR names its subjects in many places (`subject_names`): its title's scopes (`[trainer, vllm]`,
`[ty]`) and ruff-style rule families, its labels (beyond type labels), DIGEST_RULES topics, the
names in its title (only the words it writes as names, `written_as_names`: a model family such as
`Qwen3`, a platform such as Ascend, a type such as `Enum`; version digits dropped, plurals made
singular), the modules it changes, and the folder and file names its files share
(`docker/ascend/…`, `npu_utils.py`). One subject often goes by several names: a hardware platform
by its chip in one title and its vendor in another. So the repository's whole history is read once
(`vocabulary`, kept in RepoContext) to merge the names that go together in what the same PRs say
(not in their paths) far more often than chance (each name into the
one it goes with most; a name the authors write as a scope or label stays its own; names joined
by a hyphen in one place and an underscore in another, `red-knot` and `red_knot`, are one), and to set
aside the generic ones: a stop list ("tool", "argument", "union"), folder names in a large part of
all PRs ("src"), and title words that run through most of the repository's weeks, are never a
scope, a label or a folder, and go with no other name in particular ("attribute", "false"). A
strand is named by its most deliberate name: a scope or a label before a folder, a folder before
a title word.

A week's strands are its PRs grouped by those names, each PR by what its own words say: its title,
labels, scopes and modules, never its body or its folders alone (verl's AMD docs index sits beside
the Ascend docs and is no Ascend work; its platform layer's body mentions transformers); a file or
folder name its title writes (`ascend_sglang_best_practices.rst`) counts for a strand that some
PR's own words name. A verb ("Stabilize …") is what was done, never a theme.
A strand is named as its PRs say it ("npu/ascend" when many say one and many the other); a title
word they always write inside one phrase beside an ordinary word is named by the phrase ("Markdown
tests"); and a strand named as one of the week's modules holds the PRs the module table counts
under it, so that the two agree. A strand is a theme of the week when it groups
enough of the week's PRs (`thresholds.theme_min_pulls`, `theme_min_share`; a strand named in titles
may instead have enough of the week's lines) and either stands out against the repository's recent
weeks (`theme_lift` times its share of the last `theme_baseline_weeks` weeks: "new" or "rising")
or takes much of the week whatever its usual share (`theme_dominant_share`: it "continued").
Themes are ranked by their size, the mean of their share of the week's PRs and of its core lines;
strands that gather nearly the same PRs are one theme. A DIGEST_RULES topic names and merges
subjects: every subject its pattern matches is counted under the topic's name.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from digest_plugin.analysis.classify import parse_title
from digest_plugin.analysis.model import AnalysedPull, Classification, Theme
from digest_plugin.analysis.rules import Rules
from digest_plugin.records.pull import Pull

# Source of a subject, the more deliberate first: a name the author wrote as a scope wins a tie
SOURCES = ("topic", "scope", "label", "module", "folder", "word", "file", "verb")
# sources that name a part of the project
NAMING = frozenset({"topic", "scope", "label", "module", "folder"})
# rules.yaml's keyword topics that mark risks and scores, not strands of work
KEYWORD_TOPICS = frozenset({"security", "crash", "deprecation"})
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(?:\.\d+)*")
_RULE_CODE = re.compile(r"[A-Z]{1,4}\d{2,4}")  # a linter rule code (E501, RUF100): none of its own
_VERSION_TAIL = re.compile(r"[-_.]?v?\d+(?:\.\d+)*[a-z]?$")
_PATH_PART = re.compile(r"[^a-z0-9]+")
# folders of tests, fixtures and snapshots (a cheap look, without the rules' path kinds, for the whole history)
_TEST_PARTS = frozenset(
    """test tests testing __tests__ spec specs fixtures snapshots __snapshots__ mdtest testdata
    test_data test-data""".split()
)
# Words that make no phrase with a subject: the little words around it
_FUNCTION_WORDS = frozenset(
    """a an the and or of for to in on at by with from into onto via per as is are be
    not no all any this that it its when if than then also only out up new more less
    some non""".split()
)
# Generic words of titles and paths: they say what was done, or where, not to what (the little
# words too, but "non")
_STOPWORDS = (_FUNCTION_WORDS - {"non"}) | frozenset(
    """these those while down over under after before between without within add adds added adding
    support supports supported fix fixes fixed fixing update updates updated bump remove removes
    removed use uses using make makes allow allows improve improves improved handle handles refactor
    refactoring cleanup clean enable enables disable disables implement implements introduce
    introduces change changes rename move moves set sets get gets avoid ensure test tests testing
    docs doc documentation example examples typo typos minor misc chore feat feature features bug
    bugs error errors issue issues case cases code file files option options default defaults value
    values type types check checks run runs failing fails fail failure correct correctly properly
    old first last missing unused wrong version versions release pr prs readme comment comments
    message messages log logs logging script scripts model models data api config configs function
    functions method methods class classes call calls result results infer infers inferred emit
    emits implemented detect detects stabilise efficient robust better faster simple multiple single
    redundant during instead about because where which other based like just now can cannot should
    would tool tools custom argument arguments union unions configuring configure configured
    configuration pep peps src lib libs util utils common core base internal main init impl mod
    crate crates package packages module modules resource resources fixture fixtures snapshot
    snapshots python rust py rs md general others delete document context reference member string
    literal expression assignment parameter false true import format functional capacity
    accumulation loop inline self symbol manager mode start work local patch compute load forward
    align automatically training unnecessary unsafe path name names variable instance invalid ignore
    attribute none cfg step problem dynamic guide advance advanced docstring rst inside creating
    handling special source def implicit display lookup apis bool""".split()
)
BASELINE_MAX_WEEKS = 52
# how much standing out can count: a name never seen before is not infinitely telling
LIFT_CAP = 20.0
# PRs a subject needs to be a theme by the lines it changed rather than by its share of PRs
BY_LINES_PULLS = 5
SWEEP_MODULES = 10  # a PR working in more modules is a sweep across the repository, no one strand's
SAME_STORY = 0.7  # share of the larger of two subjects' PRs they have in common from which they are one theme
MIN_WORD = 3  # letters; shorter names (`ty`, `ci`) come in as scopes or paths
NO_SUBJECTS = frozenset({"(root)", "build", "tooling"})
# Learning the vocabulary from the history
COMMON_WEEKS = 0.6  # a title word in this share of the history's weeks, named as a scope, label, topic or folder in
NAMED_SHARE = 0.2  #   less than this share of its PRs and merged with no other name, is generic
# a folder or file name in this share of all PRs is generic too ("src", "tests")
COMMON_PULLS = 0.25
COMMON_MIN_PULLS = 8
COMMON_MIN_WEEKS = 8  # a word of a short history is not yet known to be common
PAIRED_NAMES = 40  # a PR offering more names than this (a sweeping refactor) tells nothing of which go together
ALIAS_MIN_PULLS = 3
# a name merges into a larger one that this share of its PRs also name, this many times chance ...
SATELLITE = (0.75, 5.0)
# ... or two names that each name a share of the other's PRs, this many times chance, this often
MUTUAL = (0.25, 0.2, 4.0, 5)
DECLARED_SHARE = 0.3  # a name the authors write as a scope, label or topic in this share of its PRs is a strand of its own
# A week's strands
# where a name says only where a PR's files sit, not what it is about
PATH_SOURCES = frozenset({"folder", "file"})
# of a strand's PRs that say a second name of it, from which the theme shows both ("npu/ascend")
ALIAS_SAID_SHARE = 1 / 3
PHRASE_SHARE = 0.75  # of a title word's occurrences in its strand's titles inside the same phrase, from which the phrase names it
# "initialize", "normalise", "simplify": verbs whether or not the rules list them
_VERB_ENDINGS = ("ize", "ise", "ify")


@dataclass(frozen=True)
class Vocabulary:
    """The repository's names for its strands of work, learned from its whole history."""

    # name -> the name of the strand it is merged into (names that stand alone are absent)
    strands: dict[str, str]
    generic: frozenset[str]  # names that never name a strand
    # merged names that only go along with their strand's ("dummy" of rollout), not other names for it ("npu" of
    # ascend): a title word among them says nothing of the strand
    satellites: frozenset[str] = frozenset()

    def strand_of(self, name: str) -> str | None:
        return None if name in self.generic else self.strands.get(name, name)


def subject_names(
    pull: Pull, rules: Rules, classification: Classification | None = None
) -> dict[str, str]:
    """The names a PR offers for its subjects -> where each was seen (one of SOURCES), merged under
    the DIGEST_RULES topic names that match them. With its `classification`, its topics and modules
    too (the vocabulary, read before any PR is classified, does without them)."""
    title = parse_title(pull.title, rules)
    found: dict[str, str] = {}

    def offer(name: str, source: str) -> None:
        name = name.strip().lower()
        # the project's own name, root files and generic words say nothing about what the week was about
        if (
            name
            and name not in rules.title_types
            and name not in rules.markers
            and name not in rules.source_roots
            and name not in NO_SUBJECTS
            and name not in _STOPWORDS
        ):
            topic = _topic_of(name, rules)
            found.setdefault(topic or name, "topic" if topic else source)

    labels = classification.labels if classification is not None else pull.labels
    for topic in classification.topics if classification is not None else ():
        if topic not in KEYWORD_TOPICS:
            offer(topic, "topic")
    for scope in (*title.modules, *title.rule_prefixes):
        offer(scope, "scope")
    for label in labels:
        if not any(pattern.fullmatch(label.strip()) for _, pattern in rules.label_types):
            offer(label, "label")
    for module in classification.modules if classification is not None else ():
        offer(module, "module")
    for name, source in _path_names(pull.files):
        offer(name, source)
    for word in _title_words(title.description):
        offer(word, "verb" if word in rules.verbs else "word")
    return found


def _topic_of(name: str, rules: Rules) -> str | None:
    return next(
        (
            topic
            for topic, pattern in rules.topics
            if topic not in KEYWORD_TOPICS
            and (pattern.fullmatch(name) or pattern.search(f" {name} "))
        ),
        None,
    )


# pure; every title is read three times a build (vocabulary, week, baseline)
@functools.lru_cache(maxsize=1 << 16)
def _title_words(description: str) -> frozenset[str]:
    """Names in a title, without version digits: "Qwen3.5" -> "qwen", "FSDP2" -> "fsdp"; only the
    words it writes as names (`written_as_names`)."""
    names = (_name(raw) for raw in written_as_names(description) if not _RULE_CODE.fullmatch(raw))
    return frozenset(name for name in names if name)


@functools.lru_cache(maxsize=1 << 16)
def written_as_names(description: str) -> tuple[str, ...]:
    """The words a title writes as names: as code (`Enum(...)`), with capitals past its first word
    (Ascend, TypedDict, NPU), digits (qwen3) or underscores (fully_async). An ordinary lower-case
    word is English, whatever else it may name: "a `SupportedPythonVersion` enum", "compact
    retained data", "add GPU memory to script names" are no Enum, retained or memory work."""
    found = []
    first = True  # the first word is capitalised as any sentence's is: that says nothing
    for i, part in enumerate(re.split(r"(`[^`]*`)", description)):
        for raw in _WORD.findall(part):
            if (
                i % 2
                or any(c.isdigit() or c == "_" for c in raw)
                or any(c.isupper() for c in raw[1:])
                or (raw[0].isupper() and not first)
            ):
                found.append(raw)
            first = False
    return tuple(found)


# pure, and the same words recur in thousands of titles and paths
@functools.lru_cache(maxsize=1 << 16)
def _name(raw: str) -> str | None:
    word = singular(_VERSION_TAIL.sub("", raw.lower()).strip("-_+"))
    return word if len(word) >= MIN_WORD and word not in _STOPWORDS and not word.isdigit() else None


@functools.lru_cache(maxsize=1 << 14)  # pure, of a PR's file list (hashable records)
def _path_names(files: tuple) -> tuple[tuple[str, str], ...]:
    """The folder names ("folder") and file-name words ("file") that at least half of a PR's files
    share: what its paths say it is about (`docker/ascend/Dockerfile.a2` -> ascend)."""
    counts: Counter[tuple[str, str]] = Counter()
    for change in files:
        parts = change.path.strip('"').lower().split("/")
        if (
            any(part in _TEST_PARTS or part.startswith(".") for part in parts[:-1])
            or parts[-1].startswith("test_")
            or parts[-1].endswith(".snap")
        ):
            continue  # tests and dot-folders name how, not what
        names = {
            (name, "folder")
            for part in parts[:-1]
            for raw in _PATH_PART.split(part)
            if (name := _name(raw))
        }
        names |= {
            (name, "file")
            for raw in _PATH_PART.split(parts[-1].rsplit(".", 1)[0])
            if (name := _name(raw))
        }
        counts.update(names)
    needed = max(1, len(files) / 2)
    return tuple(
        sorted(
            (key for key, count in counts.items() if count >= needed),
            key=lambda key: (SOURCES.index(key[1]), key[0]),
        )
    )


def singular(word: str) -> str:
    """A plural English noun as its singular, so that "patterns" and "pattern", "matches" and
    "match" are one subject; words that only look plural ("class", "alias", "status", "analysis")
    stay as they are."""
    if (
        len(word) <= MIN_WORD + 1
        or not word.endswith("s")
        or word.endswith(("ss", "us", "is", "as", "ies"))
    ):
        return word
    if word.endswith(("ches", "shes", "xes", "sses", "iases")):  # "aliases" -> "alias"
        return word[:-2]
    return word[:-1]


def vocabulary(pulls: Sequence[Pull], rules: Rules) -> Vocabulary:
    """The repository's strand names, learned from every stored PR (see the module docstring)."""
    offered = [subject_names(pull, rules) for pull in pulls]
    pulls_of, named, declared, weeks = _name_counts(pulls, offered)
    total = len(pulls)
    # folder and file names in a large part of all PRs ("src", "tests"), which their authors never declare
    everywhere = frozenset(
        name
        for name, count in pulls_of.items()
        if count >= COMMON_PULLS * total and declared[name] < NAMED_SHARE * count
    )
    verbs = frozenset(
        name for names in offered for name, source in names.items() if source == "verb"
    )
    candidates = {
        name
        for name, count in pulls_of.items()
        if count >= ALIAS_MIN_PULLS and name not in everywhere | verbs
    }
    # which names go together is read from what PRs say, not where their files sit: folders and file
    # names (`ascend_tutorial/…_practice.md`, `run_qwen3_grpo.sh`) tie unrelated words
    said = [
        {name: source for name, source in names.items() if source not in PATH_SOURCES}
        for names in offered
    ]
    edges = _edges(said, candidates, (pulls_of, declared), total)
    steady = _steady(
        edges, pulls_of, named, weeks, len({p.merged_at.isocalendar()[:2] for p in pulls}) or 1
    )
    edges = [edge for edge in edges if edge[0] not in steady and edge[1] not in steady]
    strands = _merged_names(edges, (pulls_of, named, declared))
    generic = everywhere | steady
    return Vocabulary(
        _spellings_merged(strands, generic, (pulls_of, declared)),
        generic,
        _satellites(strands, edges),
    )


def spelling_key(name: str) -> str:
    """A name without what joins its words: "red-knot", "red_knot" and "redknot" are one name."""
    return _PATH_PART.sub("", name.lower())


def _spellings_merged(
    strands: dict[str, str], generic: frozenset[str], counts: tuple[Counter, Counter]
) -> dict[str, str]:
    """`strands` with the names that differ only in how they join their words ("red-knot" of
    titles, the `red_knot` crate) made one strand, under the spelling its authors declare most."""
    pulls_of, declared = counts
    spellings: dict[str, list[str]] = defaultdict(list)
    for name in pulls_of:
        spellings[spelling_key(name)].append(name)
    merged = dict(strands)
    for group in spellings.values():
        if len(group) < 2 or not generic.isdisjoint(group):
            continue
        best = max(group, key=lambda n: (declared[n], pulls_of[n], n))
        strand = merged.get(best, best)
        merged.update({name: strand for name, into in merged.items() if into in group})
        merged.update((name, strand) for name in group if name != strand)
    return merged


def _satellites(strands: dict[str, str], edges: Sequence[tuple]) -> frozenset[str]:
    """The merged names that are no other name for their strand: each went with a larger name
    (`_edges`), which never went with it as often."""
    return frozenset(name for name in strands if name not in _synonyms(edges))


def _synonyms(edges: Sequence[tuple]) -> set[str]:
    """The names that went with another name as often as it went with them (`_edges`' mutual)."""
    return {name for small, large, _, _, mutual in edges if mutual for name in (small, large)}


def _name_counts(
    pulls: Sequence[Pull], offered: Sequence[dict[str, str]]
) -> tuple[Counter, Counter, Counter, dict[str, set]]:
    """(PRs that offer each name, PRs where it is a scope, label, topic or folder, PRs where it is a
    scope, label or topic: the authors' own word, the weeks it was offered in)."""
    pulls_of: Counter[str] = Counter()
    named: Counter[str] = Counter()
    declared: Counter[str] = Counter()
    weeks: dict[str, set] = defaultdict(set)
    for pull, names in zip(pulls, offered, strict=True):
        week = pull.merged_at.isocalendar()[:2]
        for name, source in names.items():
            pulls_of[name] += 1
            named[name] += source in NAMING
            declared[name] += source in NAMING and source != "folder"
            weeks[name].add(week)
    return pulls_of, named, declared, weeks


def _steady(
    edges: Sequence[tuple],
    pulls_of: Counter,
    named: Counter,
    weeks: dict[str, set],
    total_weeks: int,
) -> frozenset[str]:
    """Title words that run through most weeks, are never a scope, a label or a folder, and have no
    other name for the same thing ("attribute", "false"); a platform's steady name ("npu") has one."""
    synonyms = _synonyms(edges)
    return frozenset(
        name
        for name, count in pulls_of.items()
        if count >= COMMON_MIN_PULLS
        and name not in synonyms
        and named[name] < NAMED_SHARE * count
        and len(weeks[name]) >= max(COMMON_MIN_WEEKS, COMMON_WEEKS * total_weeks)
    )


def _edges(
    offered: Sequence[dict[str, str]],
    candidates: set[str],
    counts: tuple[Counter, Counter],
    total: int,
) -> list[tuple]:
    """(smaller name, larger name, share of the smaller's PRs that name the larger too, how many
    times chance that is, whether each names a good share of the other's PRs) of every two names
    that go together far more often than chance: the smaller is a satellite of the larger, or the
    two are each other's synonyms. A name its authors declare (a scope, label or topic) is a strand
    of its own and goes into none."""
    pulls_of, declared = counts
    pairs: Counter[tuple[str, str]] = Counter()
    for names in offered:
        kept = sorted(name for name in names if name in candidates)
        if len(kept) <= PAIRED_NAMES:
            pairs.update((a, b) for i, a in enumerate(kept) for b in kept[i + 1 :])
    edges = []
    for (a, b), together in pairs.items():
        small, large = sorted((a, b), key=lambda n: (pulls_of[n], n))
        of_small, of_large = together / pulls_of[small], together / pulls_of[large]
        lift = of_small / (pulls_of[large] / total)
        satellite = (
            together >= ALIAS_MIN_PULLS and of_small >= SATELLITE[0] and lift >= SATELLITE[1]
        )
        mutual = (
            together >= MUTUAL[3]
            and of_small >= MUTUAL[0]
            and of_large >= MUTUAL[1]
            and lift >= MUTUAL[2]
        )
        if (satellite or mutual) and declared[small] < DECLARED_SHARE * pulls_of[small]:
            edges.append((small, large, of_small, lift, mutual))
    return edges


def _merged_names(
    edges: Sequence[tuple], counts: tuple[Counter, Counter, Counter]
) -> dict[str, str]:
    """name -> its strand's name: each name goes into the one larger name it goes with most (see
    `_edges`), which goes into none itself; the strand takes its most deliberate name (a declared
    one, then one its folders use most, then the most used)."""
    pulls_of, named, declared = counts
    partners: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for small, large, share, lift, _ in edges:
        partners[small].append((share, lift, large))
    strands: dict[str, str] = {}
    for name in sorted(partners, key=lambda n: (-pulls_of[n], n)):  # larger names settle first
        if leaders := [partner for partner in partners[name] if partner[2] not in strands]:
            # the name it goes with most often, then most above chance
            strands[name] = max(leaders)[2]
    for leader in set(strands.values()):
        group = [leader, *(name for name, strand in strands.items() if strand == leader)]
        best = max(
            group,
            key=lambda n: (declared[n] >= DECLARED_SHARE * pulls_of[n], named[n], pulls_of[n], n),
        )
        if best != leader:
            strands.update((name, best) for name in group if name != best)
            strands.pop(best, None)
    return strands


# (PR number, its (name, source) pairs) of a week's people's PRs
WeekNames = tuple[tuple[int, tuple[tuple[str, str], ...]], ...]


def week_names(pulls: Sequence[AnalysedPull], rules: Rules) -> WeekNames:
    """The names each of a week's people's PRs offers, with where each was seen (`subject_names`),
    by PR number: what its themes and later weeks' themes are made of. Kept as names, not strands,
    so that a week remembered from an earlier build can be given its themes again, without being
    analysed again, when the vocabulary learned from a grown history merges names differently."""
    return tuple(
        sorted(
            (p.pull.number, tuple(sorted(subject_names(p.pull, rules, p.classification).items())))
            for p in pulls
            if not p.classification.bot
        )
    )


def baseline_weeks(weeks: Sequence[WeekNames], rules: Rules) -> list[WeekNames]:
    """The previous weeks to compare with (`week_names` of each, oldest first): the last
    `theme_baseline_weeks`, more in a quiet repository until they hold `theme_baseline_pulls`
    PRs, at most a year."""
    thresholds = rules.thresholds
    chosen: list[WeekNames] = []
    for week in reversed(weeks):
        if len(chosen) >= BASELINE_MAX_WEEKS or (
            len(chosen) >= thresholds.theme_baseline_weeks
            and sum(map(len, chosen)) >= thresholds.theme_baseline_pulls
        ):
            break
        chosen.append(week)
    return chosen[::-1]


def week_themes(
    pulls: Sequence[AnalysedPull],
    names: WeekNames,
    baseline: Sequence[WeekNames],
    rules: Rules,
    vocabulary: Vocabulary,
) -> tuple[Theme, ...]:
    """The themes of a week. `pulls` in importance order; `names` is their `week_names`;
    `baseline` is `baseline_weeks` of the previous weeks; `vocabulary` makes strands of names.

    A PR is in a strand when its own words say so: its title, labels, scopes or modules (a folder
    alone is no reason: verl's AMD docs index is not Ascend work for sitting beside Ascend's docs;
    nor is a word of its body). A strand named as one of the week's
    modules is made of the PRs the module table counts under it, so that the two agree; one
    named by a title word that its titles nearly always write inside a longer phrase is named by
    the phrase ("markdown test", not "markdown")."""
    thresholds = rules.thresholds
    people = [p for p in pulls if not p.classification.bot]  # bot bumps are no theme of the week
    if len(people) < thresholds.theme_min_pulls:
        return ()
    # the strands of the previous weeks' PRs, each PR counted once per strand
    before = Counter(
        strand
        for week in baseline
        for _, pairs in week
        for strand in said_strands(pairs, vocabulary)
    )
    members, sources, said = _said_members(people, names, vocabulary, rules)
    display = _named(members, sources, said, pulls, rules)
    candidates = _strands(
        members,
        sources,
        {
            bots: (len(counted), sum(p.footprint.core_lines for p in counted))
            for bots, counted in ((False, people), (True, pulls))
        },
        (before, sum(map(len, baseline))),
        rules,
    )
    chosen: list[Theme] = []
    for _, _, name, group, shares, base_share, trend in sorted(
        candidates, key=lambda c: (-c[0], -c[1], SOURCES.index(sources[c[2]]), c[2])
    ):
        numbers = tuple(p.pull.number for p in group)
        if any(_overlap(numbers, theme.pulls) >= SAME_STORY for theme in chosen) or any(
            display[name] == theme.name for theme in chosen
        ):
            continue  # nearly the same PRs as a theme already chosen: the same story
        chosen.append(
            _theme(display[name], sources[name], group, shares, base_share, len(baseline), trend)
        )
    return tuple(chosen[: thresholds.themes_max])


def _said_members(
    people: Sequence[AnalysedPull], names: WeekNames, vocabulary: Vocabulary, rules: Rules
) -> tuple[dict, dict, dict]:
    """(strand -> its PRs, strand -> its most deliberate source, strand -> the names each of its PRs
    said it by): the strands the PRs' own words put them in (`said_strands`, `_described`)."""
    pairs_of = dict(names)
    members: dict[str, list[AnalysedPull]] = {}
    sources: dict[str, str] = {}
    said: dict[str, list[frozenset[str]]] = defaultdict(list)
    spoken: set[str] = set()
    for pull in people:
        pairs = pairs_of.get(pull.pull.number, ())
        own = said_strands(pairs, vocabulary)
        spoken.update(own)
        described = _described(pull, pairs, own, vocabulary, rules)
        for strand, (source, words) in (*own.items(), *described.items()):
            members.setdefault(strand, []).append(pull)
            sources[strand] = min(sources.get(strand, source), source, key=SOURCES.index)
            said[strand].append(words)
    # a strand only ever met as part of a file or folder name in titles ("policy" of
    # `one_step_off_policy`) is a fragment of other names, not a subject of its own
    members = {strand: group for strand, group in members.items() if strand in spoken}
    return members, sources, said


def _named(
    members: dict[str, list[AnalysedPull]],
    sources: dict[str, str],
    said: dict[str, list[frozenset[str]]],
    pulls: Sequence[AnalysedPull],
    rules: Rules,
) -> dict[str, str]:
    """Each strand's name as the week's PRs say it, `members` and `sources` set to match: a title
    word's phrase keeps the PRs that say it (`_phrase_named`), a module's name the PRs the module
    table counts under it (bots' too), whatever else says the name; a strand left empty goes."""
    module_table = Counter(module for p in pulls for module in p.classification.modules)
    display: dict[str, str] = {}
    for strand, group in list(members.items()):
        # a name the authors declare is theirs as it stands
        if sources[strand] not in ("topic", "scope", "label"):
            display[strand], members[strand] = _phrase_named(strand, group, said[strand], rules)
            if " " in display[strand]:
                sources[strand] = "word"  # a phrase of its titles
        else:
            display[strand] = _said_name(strand, said[strand], rules)
        if display[strand] in module_table:
            members[strand] = [p for p in pulls if display[strand] in p.classification.modules]
            sources[strand] = "scope" if sources[strand] == "scope" else "module"
        if not members[strand]:
            del members[strand]
    return display


def said_strands(
    pairs: Iterable[tuple[str, str]], vocabulary: Vocabulary
) -> dict[str, tuple[str, frozenset[str]]]:
    """The strands a PR's own words put it in -> (the most deliberate source, the names it said
    them by), from its (name, source) pairs (`subject_names`); folder and file names left out."""
    found: dict[str, tuple[str, frozenset[str]]] = {}
    for name, source in pairs:
        strand = vocabulary.strand_of(name)
        if (
            strand is None
            or source in PATH_SOURCES
            or (source in ("word", "verb") and name in vocabulary.satellites)
        ):
            continue
        best, words = found.get(strand, (source, frozenset()))
        found[strand] = (min(best, source, key=SOURCES.index), words | {name})
    return found


def _described(
    pull: AnalysedPull,
    pairs: Iterable[tuple[str, str]],
    own: dict,
    vocabulary: Vocabulary,
    rules: Rules,
) -> dict[str, tuple[str, frozenset[str]]]:
    """The strands a PR's folders or file names offer that its title writes as names as well (file
    names in it too: "Update ascend_sglang_best_practices.rst"), beyond those its own words put it
    in. Its body is not read: a word somewhere in a long description says little of what the PR is
    about (verl's platform layer mentions transformers)."""
    offered = {
        strand
        for name, source in pairs
        if source in PATH_SOURCES and (strand := vocabulary.strand_of(name)) and strand not in own
    }
    if not offered:
        return {}
    found: dict[str, tuple[str, frozenset[str]]] = {}
    written = " ".join(written_as_names(parse_title(pull.pull.title, rules).description)).lower()
    for raw in _PATH_PART.split(written):
        word = _name(raw) if raw else None
        strand = vocabulary.strand_of(word) if word and word not in vocabulary.satellites else None
        if strand in offered and word:
            found[strand] = ("folder", found.get(strand, ("folder", frozenset()))[1] | {word})
    return found


def _said_name(strand: str, said: Sequence[frozenset[str]], rules: Rules) -> str:
    """A strand's name as its PRs say it (`said`: the names each said it by): the name they use
    most (the strand's own on a tie), with a second name a good share of them use instead of it
    ("npu/ascend"; not "async/fully", which they only write together)."""
    counts = Counter(name for names in said for name in names)
    if not counts:
        return strand
    # of names said as often, a noun before a verb, and one that holds the strand's own name ("unionbuilder" of `builder/`)
    first = min(
        counts, key=lambda n: (-counts[n], _verb(n, rules), strand not in n, n != strand, n)
    )
    instead = Counter(name for names in said if first not in names for name in names)
    second = min(
        (n for n in instead if " " not in n and instead[n] >= max(2, ALIAS_SAID_SHARE * len(said))),
        key=lambda n: (-instead[n], n),
        default=None,
    )
    return f"{first}/{second}" if second else first


def _phrase_named(
    strand: str, group: Sequence[AnalysedPull], said: Sequence[frozenset[str]], rules: Rules
) -> tuple[str, list[AnalysedPull]]:
    """A title-word strand's name and PRs: when its titles nearly always write its word inside the
    same phrase beside an ordinary word ("Markdown tests"), the phrase, and the PRs that say it."""
    named = _said_name(strand, said, rules)
    word = named.split("/")[0]
    beside: Counter[str] = Counter()
    phrases_of: dict[int, Counter[str]] = {}
    seen = 0
    for pull in group:
        description = parse_title(pull.pull.title, rules).description
        tokens = _title_tokens(description)
        # a word beside it that is written as a name is a second subject ("NPU GRPO"), no phrase
        names = set(_title_tokens(" ".join(written_as_names(description))))
        found: Counter[str] = Counter()  # each time the word stands in a phrase
        for i, token in enumerate(tokens):
            if token != word:
                continue
            seen += 1
            if i and tokens[i - 1] not in names and _phrase_word(tokens[i - 1], True, rules):
                found[f"{tokens[i - 1]} {token}"] += 1
            if (
                i + 1 < len(tokens)
                and tokens[i + 1] not in names
                and not _verb(token, rules)
                and _phrase_word(tokens[i + 1], False, rules)
            ):
                found[f"{token} {tokens[i + 1]}"] += 1
        beside.update(found)
        phrases_of[pull.pull.number] = found
    phrase, count = max(beside.items(), key=lambda item: (item[1], item[0]), default=("", 0))
    # a compound name ("flake8-bugbear") is whole already
    if seen < 2 or not word.isalnum() or count < PHRASE_SHARE * seen:
        return named, list(group)
    # a theme named by a phrase holds the PRs whose titles say it
    return phrase, [p for p in group if phrase in phrases_of[p.pull.number]]


@functools.lru_cache(maxsize=1 << 14)
def _title_tokens(description: str) -> tuple[str, ...]:
    """A title's words in order, lower case, names written as one split up ("tool_agent_loop",
    "agent-loop": agent, loop), without version digits, plurals as singulars."""
    return tuple(
        singular(_VERSION_TAIL.sub("", part))
        for raw in _WORD.findall(description.lower())
        for part in re.split(r"[-_+]+", raw)
        if part
    )


def _phrase_word(word: str, before: bool, rules: Rules) -> bool:
    """Whether a word can stand beside a strand's name in a phrase naming it: a word of some
    length, without digits, not a little word, and not a verb before it ("Correct attention
    FLOPS", "Lazily initialize `UnionBuilder`"; a word the verbs share with nouns, such as
    "model", is given up with them)."""
    return (
        len(word) >= MIN_WORD
        and not any(c.isdigit() for c in word)
        and word not in _FUNCTION_WORDS
        and not (before and _verb(word, rules))
    )


def _verb(word: str, rules: Rules) -> bool:
    """A verb starts no phrase that names a subject ("initialize `UnionBuilder`")."""
    return word in rules.verbs or word.endswith(_VERB_ENDINGS)


def _strands(
    members: dict[str, list[AnalysedPull]],
    sources: dict[str, str],
    totals: dict[bool, tuple[int, int]],
    baseline: tuple[Counter, int],
    rules: Rules,
) -> list[tuple]:
    """(size, lift, name, PRs, (share, line share), baseline share, trend) of each strand that is a
    theme of the week: its size is the mean of its share of the week's PRs and of their core lines
    (generated and vendored files left out), its lift that share of PRs against the previous weeks'.
    `totals` are the (PRs, core lines) of the week's people (False) and of all its PRs (True): a
    module's strand that holds a bot's PR is a share of all of them; `baseline` the previous weeks'
    strands, each counted by its PRs, and how many PRs those weeks had."""
    thresholds = rules.thresholds
    before, before_total = baseline
    found = []
    for name, group in members.items():
        total, total_lines = totals[any(p.classification.bot for p in group)]
        needed = max(thresholds.theme_min_pulls, math.ceil(thresholds.theme_min_share * total))
        share = len(group) / total
        line_share = _line_share(name, sources[name], group, total_lines, share)
        size = (share + line_share) / 2
        # a sweep across the repository is counted by its modules, but it makes no module's story
        # (ruff #22310 "Run `cargo sort`" edited 31 crates' Cargo.toml: ruff_workspace's third PR),
        # nor do PRs that change another module most (ruff_wasm's two releases and two one-line
        # edits beside two playground PRs): a module is a theme by the PRs working mainly in it
        if sources[name] == "module":
            count = sum(1 for p in group if works_mainly_in(p, name, "module"))
        elif sources[name] in PATH_SOURCES:
            count = sum(1 for p in group if len(p.classification.modules) <= SWEEP_MODULES)
        else:
            count = len(group)
        if not _big_enough(count, total, needed, sources[name], size, thresholds):
            continue
        # a subject never seen before counts as seen once: a new name needs more than luck
        base_share = (before[name] + 1) / (before_total + 1) if before_total else 0.0
        lift = min(share / base_share, LIFT_CAP) if base_share else LIFT_CAP
        trend = (
            "new"
            if before_total and not before[name]
            else "rising"
            if lift >= thresholds.theme_lift
            else "continued"
        )
        if lift >= thresholds.theme_lift or share >= thresholds.theme_dominant_share:
            usual = before[name] / before_total if before_total else 0.0
            found.append((round(size, 6), lift, name, group, (share, line_share), usual, trend))
    return found


def _line_share(
    name: str, source: str, group: Sequence[AnalysedPull], total_lines: int, share: float
) -> float:
    """A strand's share of the week's core lines: a module's, those of the PRs working mainly in
    it (ruff #15544 generated 10,000 lines of AST code, touched the formatter by one line, and was
    half the formatter's share); its share of PRs where the week changed no core line."""
    if not total_lines:
        return share
    working = (
        [p for p in group if works_mainly_in(p, name, "module")] if source == "module" else group
    )
    return sum(p.footprint.core_lines for p in working) / total_lines


def works_mainly_in(analysed: AnalysedPull, name: str, source: str) -> bool:
    """Whether a PR works mainly in the strand `name` (seen as `source`): no sweep across the
    repository does; a title's scopes, labels and topics name the strand as its author chose it;
    a module is the one it changes most (its modules come most changed first), spelt either way."""
    modules = analysed.classification.modules
    if len(modules) > SWEEP_MODULES:
        return False
    key = spelling_key(name)
    if source != "module":
        # a strand that is also a module holds the PRs the module table counts under it: one whose
        # title does not name it and that changes another module most is not its work (ruff
        # #17851, template strings in the parser and formatter, touched ty by 74 of 20,599 lines)
        counted_only = any(spelling_key(m) == key for m in modules[1:])
        return not counted_only or bool(
            re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", analysed.pull.title, re.IGNORECASE)
        )
    if analysed.classification.modules_from_title or not modules:
        return True
    return spelling_key(modules[0]) == key


def _big_enough(count: int, total: int, needed: int, source: str, size: float, thresholds) -> bool:
    """Whether a subject of `count` of the week's `total` PRs is big enough to be a theme. A subject
    named in titles may also qualify by the lines its PRs changed (ruff's five "pattern" PRs of
    3,000 lines in a week of 171); a path module may not: a folder one large PR touched is no story.
    Every PR of the week says nothing about the week; a verb ("stabilize") names what was done,
    never a subject."""
    enough = count >= needed or (
        source not in ("module", "folder", "file")
        and count >= BY_LINES_PULLS
        and size >= thresholds.theme_min_share
    )
    return enough and count < total and source != "verb"


def _overlap(first: Sequence[int], second: Sequence[int]) -> float:
    """Share of the larger group that is also in the other: a small subject inside a large one
    (ruff's cycle recovery inside `ty`) is a story of its own, two names for the same PRs are not."""
    return len(set(first) & set(second)) / max(len(first), len(second))


def _theme(
    name: str,
    source: str,
    group: Sequence[AnalysedPull],
    shares: tuple[float, float],
    base_share: float,
    weeks: int,
    trend: str,
) -> Theme:
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
        authors=len({p.pull.author.login for p in group if not p.classification.bot}),
        additions=sum(p.pull.additions for p in group),
        deletions=sum(p.pull.deletions for p in group),
        types=dict(sorted(types.items(), key=lambda item: (-item[1], item[0]))),
        trend=trend,
        series=_series(group),
    )


# a title's scopes and type ("[`refurb`] ", "fix(ty): "), and the rule codes a series varies:
# "(`FURB154`)", "(E501, W605)"
_TITLE_PREFIX = re.compile(r"^(?:\[[^\]]*\]\s*)*(?:[a-z]+(?:\([^)]*\))?!?:\s*)?")
_RULE_CODES = re.compile(r"\s*\((?:\s*`?[A-Z]{1,6}\d{2,4}`?\s*,?)+\)")
SERIES_MIN = 3  # PRs of one title that make a series


def series_title(title: str) -> str:
    """What a PR of a series says, the same in each: "Make fix unsafe if it deletes comments"."""
    return _RULE_CODES.sub("", _TITLE_PREFIX.sub("", " ".join(title.split()))).strip(" .")


def _series(group: Sequence[AnalysedPull]) -> tuple[int, ...]:
    """The PRs of a strand that share one title but for the rule codes it names, when they are at
    least SERIES_MIN and a quarter of it: ruff 2026-W04's refurb strand was 11 PRs titled "Make
    fix unsafe if it deletes comments (`FURBnnn`)" beside 3 others. () when there is none."""
    titles: dict[str, list[int]] = defaultdict(list)
    for p in group:
        titles[series_title(p.pull.title).lower()].append(p.pull.number)
    largest = max(titles.values(), key=len, default=[])
    return tuple(largest) if len(largest) >= max(SERIES_MIN, len(group) / 4) else ()
