"""A capped endpoint benchmark: a day's free tier spent on verl's whole history, against the local stand-in.

    .venv/bin/python bench/bench_llm_caps.py

Every week of verl-project/verl (real data from ../shared/data) is written with DIGEST_LLM capped as a
free tier is (tests/io/test_llm_caps.py's CAPS) against `tests/llm_server/` answering as that tier does
(8000 tokens in per request as it counts them, 15 requests a minute, 150 a day), on a fake clock, twice:
- "one request a week": without the input cap, oldest week first (the whole week in one request);
- "the caps": requests sized to the cap, newest week first, as a site build sends them.
It prints, for each, the requests sent, those over the cap (413), those sent after the day's limit
had answered 429, and how many of the newest ten finished weeks the model wrote.
"""

from __future__ import annotations

import logging
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.analysis import analyse_repo  # noqa: E402
from digest_plugin.narrate import narrate  # noqa: E402
from digest_plugin.narrate.wording import Language  # noqa: E402
from digest_plugin.publish.history import analysis_options  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.jsonl_import import read_export  # noqa: E402
from tests.io.test_llm_caps import capped_writer, free_tier  # noqa: E402
from tests.io.test_llm_writer import FakeClock  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "github" / "verl-project__verl.pulls.jsonl.gz"


def run(weeks, newest_first: bool, **overrides) -> dict:
    clock = FakeClock()
    order = list(reversed(range(len(weeks)))) if newest_first else list(range(len(weeks)))
    with free_tier(clock) as server, tempfile.TemporaryDirectory() as data:
        writer = capped_writer(server, Path(data), clock, **overrides)
        written = {
            i: narrate(weeks[i], weeks[max(0, i - 4) : i], Language.of("en"), writer).writer
            == "llm"
            for i in order
        }
    refused = [r.refused for r in server.requests]
    first_day_limit = refused.index("429 day") if "429 day" in refused else len(refused)
    finished = [i for i, w in enumerate(weeks) if w.complete and not w.in_progress and w.pulls]
    return {
        "requests": len(refused),
        "over the cap (413)": refused.count("413"),
        "after the day's limit": len(refused) - first_day_limit - 1
        if first_day_limit < len(refused)
        else 0,
        "newest 10 finished weeks written": sum(written[i] for i in finished[-10:]),
        "weeks written": sum(written.values()),
        "largest request (tokens)": max(r.tokens for r in server.requests),
    }


def main() -> None:
    logging.disable(logging.WARNING)
    pulls = list(read_export(DATA))
    weeks = analyse_repo(
        "verl-project/verl",
        pulls,
        None,
        analysis_options(DigestSettings()),
        datetime(2026, 11, 30, tzinfo=UTC),
    )
    print(f"verl-project/verl: {len(weeks)} weeks, {len(pulls)} PRs")
    results = {
        "one request a week": run(weeks, False, max_input_tokens=0, requests_per_minute=0),
        "the caps": run(weeks, True),
    }
    rows = list(next(iter(results.values())))
    print("| | " + " | ".join(results) + " |")
    print("| --- |" + " --- |" * len(results))
    for row in rows:
        print(f"| {row} | " + " | ".join(str(r[row]) for r in results.values()) + " |")


if __name__ == "__main__":
    main()
