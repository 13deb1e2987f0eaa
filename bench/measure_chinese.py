"""How Chinese the Chinese reports read, over every week of the three real repositories.

    .venv/bin/python bench/measure_chinese.py                 # imports ../shared/data into a temporary store
    .venv/bin/python bench/measure_chinese.py --store DATA    # an existing store (DIGEST_DATA_PATH)

Every week is analysed, narrated in Chinese and laid out as the site does it (`load_weeks`,
`narrate`, `week_view`; charts left out, they hold no sentences). For each repository:

- the share of Chinese characters in the week's narrative (`tests.chinese_share.chinese_share`
  over `narrative_texts`: summary, themes, highlights, key-change lines, key PRs in
  brief, risks, recommendations), minimum and median over its weeks with PRs, and the weeks below
  38%; the share among letters (the definition), and among letters and digits;
- how often one English title is shown on a week's page at most: a PR's title (as written, or
  as a list shows it without its "[module] type:" prefix) counted once for each text of the page
  that holds it (`page_texts`), titles of fewer than 12 characters left out (they occur inside
  other words).

It runs on older checkouts too (copy it into one and run it there with this checkout's .venv:
its own code is imported first, and what an older checkout lacks is taken from here), for before
and after figures.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure_words import REPOS, import_store  # noqa: E402  (the three exports, imported by the command line)

from digest_plugin.narrate import narrate  # noqa: E402
from digest_plugin.narrate.titles import display_title  # noqa: E402
from digest_plugin.narrate.wording import Language  # noqa: E402
from digest_plugin.publish import week_view as views  # noqa: E402
from digest_plugin.publish.history import analysis_options, load_weeks  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.folder import Store  # noqa: E402

LEAST = 0.38
SHORTEST_TITLE = 12
_HAN = re.compile(r"[\u4e00-\u9fff]")

try:
    from tests.chinese_share import chinese_share, narrative_texts
except ImportError:  # an older checkout: the definitions it had, or the same ones
    try:
        from digest_plugin.narrate.chinese import chinese_share
    except ImportError:

        def chinese_share(texts, digits=False):
            han = counted = 0
            for text in texts:
                han += len(_HAN.findall(text))
                counted += sum(1 for c in text if (c.isalnum() if digits else c.isalpha()))
            return han / counted if counted else None

    def narrative_texts(view) -> list[str]:
        if hasattr(views, "narrative_texts"):
            return views.narrative_texts(view)
        return [  # the same parts, as far as it has them
            view.summary.text,
            *(t.sentence.text for t in view.themes),
            *(i.text for g in view.highlights for i in g.items),
            *(
                t
                for c in view.key_changes
                for t in (c.summary, c.details.text if c.details else "")
                if t
            ),
            *(r.sentence.text for r in view.risks),
            *(r.text for r in view.recommendations),
        ]


def page_texts(view) -> list[tuple[int | None, str]]:
    """Every text of the week's page that may hold a title, with the PR it is the title of (None
    for the others): the narrative, the trends, the key changes' titles, the rows of the tables.
    Not the author's words quoted apart under a key change: they are the author's own, and may
    begin as the title does."""
    return [
        *((None, t) for t in narrative_texts(view)),
        *((None, t.text) for t in view.trends),
        *((c.ref.number, c.title) for c in view.key_changes),
        *((row.ref.number, row.title) for row in (*view.updates, *view.pulls)),
    ]


def most_repeated_title(week, view) -> int:
    """The most texts of the page one PR's title is in: its own title where it is shown (another
    PR of the same title, or a revert's that quotes it, is that PR's), and every other text."""
    texts = page_texts(view)
    most = 0
    for analysed in week.pulls:
        forms = {
            f
            for f in (analysed.pull.title.strip(), display_title(analysed.pull.title))
            if len(f) >= SHORTEST_TITLE
        }
        if forms:
            number = analysed.pull.number
            most = max(
                most,
                sum(
                    1
                    for owner, text in texts
                    if owner in (None, number) and any(form in text for form in forms)
                ),
            )
    return most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--store",
        type=Path,
        help="a store holding the three repositories (default: import ../shared/data)",
    )
    parser.add_argument(
        "--lowest",
        type=int,
        default=0,
        metavar="N",
        help="print the N weeks of lowest share of each repository",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    lang = Language.of("zh")
    print(
        f"| repository | weeks with PRs | Chinese share: min | median | weeks below {LEAST:.0%} | digits counted too: min | median "
        "| most times one English title is shown on a page |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="measure-chinese-") as folder:
        store = Store(args.store if args.store else import_store(Path(folder)).parent / "data")
        for repo in REPOS:
            weeks = load_weeks(
                store,
                repo,
                analysis_options(DigestSettings(data_path=store.root)),
                store.data_time([repo]),
            )
            shares, with_digits, repeats = [], [], []
            for index, week in enumerate(weeks):
                if not week.pulls:
                    continue
                view = views.week_view(
                    week,
                    narrate(week, weeks[:index], lang),
                    (),
                    lang,
                    f"https://github.com/{repo}",
                    "",
                )
                texts = narrative_texts(view)
                shares.append((chinese_share(texts) or 0.0, week.week))
                with_digits.append(chinese_share(texts, digits=True) or 0.0)
                repeats.append(most_repeated_title(week, view))
            low = sorted(shares)
            print(
                f"| {repo} | {len(shares)} | {low[0][0]:.1%} ({low[0][1]}) | {statistics.median(s for s, _ in shares):.1%} | "
                f"{sum(1 for s, _ in shares if s < LEAST)} | {min(with_digits):.1%} | {statistics.median(with_digits):.1%} | {max(repeats)} |"
            )
            for share, name in low[: args.lowest]:
                print(f"  {name}: {share:.1%}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
