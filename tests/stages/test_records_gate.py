"""The gate for stored data: every damaged record is refused with its field named, every record
that passes can be shown anywhere, and the store reads what is good and reports the rest."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from digest_plugin.analysis import analyse_repo
from digest_plugin.cli import main
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import (
    BODY_LIMIT,
    COMMENT_BODY_LIMIT,
    DIFF_LIMIT,
    LABEL_LIMIT,
    REVIEW_BODY_LIMIT,
    REVIEWS_LIMIT,
    TITLE_LIMIT,
    Pull,
    RecordError,
    Review,
    ThreadComment,
    clean_text,
)
from digest_plugin.records.state import RepoState, repo_life
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.conftest import make_pull

REPO = "acme/widget"
GOOD = make_pull(
    7,
    "2026-05-18T09:00:00Z",
    "feat: a good record",
    labels=("bug",),
    files=(("src/a.py", 3, 1, "modified"),),
).to_json()
# What XML 1.0 allows (feeds) minus what a terminal acts on: tab and newline are the only controls left.
SHOWABLE = re.compile(
    "[^\t\n\x20-\x7e\x80-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe\uffff]"
)


def damaged(**changes) -> dict:
    record = json.loads(json.dumps(GOOD))
    for path, value in changes.items():
        target, *keys = path.split("__")
        if keys:
            record[target][keys[0]] = value
        else:
            record[target] = value
    return record


# Each of issue 11's damaged records, with the field the refusal must name.
REFUSED = {
    "merged_at as a number": (damaged(merged_at=1747558800), "merged_at"),
    "PR number 0, which GitHub never gives": (damaged(number=0), "number"),
    "merged_at in year 1": (damaged(merged_at="0001-01-01T00:00:00Z"), "merged_at"),
    "merged_at in year 9999": (damaged(merged_at="9999-12-31T23:59:59Z"), "merged_at"),
    "merged_at in 1970": (damaged(merged_at="1970-01-01T00:00:00Z"), "merged_at"),
    "merged_at without a zone": (damaged(merged_at="2026-05-18T09:00:00"), "merged_at"),
    "text for comments": (damaged(comments="many"), "comments"),
    "text for a file's additions": (
        damaged(files=[["a.py", "ten", 0, "modified"]]),
        "files[0].additions",
    ),
    "labels as a string": (damaged(labels="bug"), "labels"),
    "labels as a number": (damaged(labels=5), "labels"),
    "a label that is a number": (damaged(labels=["ok", 5]), "labels[1]"),
    "a file path that is a number": (damaged(files=[[5, 1, 0, "added"]]), "files[0].path"),
    "a file path that is null": (damaged(files=[[None, 1, 0, "added"]]), "files[0].path"),
    "a login that is a number": (damaged(author__login=5), "author.login"),
    "a login that is null": (damaged(author__login=None), "author.login"),
    "a body that is a number": (damaged(body=5), "body"),
    "a body that is an object": (damaged(body={"text": "x"}), "body"),
    "a title that is a list": (damaged(title=["a"]), "title"),
    "deletions of 10**30": (damaged(deletions=10**30), "deletions"),
    "negative additions": (damaged(additions=-4), "additions"),
    "PR number -5": (damaged(number=-5), "number"),
    "PR number as text": (damaged(number="7"), "number"),
    "PR number true": (damaged(number=True), "number"),
    "a file that is not a list of four": (damaged(files=[["a.py", 1]]), "files[0]"),
    "an author that is text": (damaged(author="alice"), "author"),
    "no merged_at": ({k: v for k, v in GOOD.items() if k != "merged_at"}, "merged_at"),
    "an unknown source": (damaged(source="elsewhere"), "source"),
    "a record that is a list": ([1, 2], "record"),
    "a branch that is a number": (damaged(branch=5), "branch"),
    "verdicts as text": (damaged(verdicts="APPROVED"), "verdicts"),
    "a verdict GitHub does not have": (
        damaged(verdicts=[["ann", "LOOKS_FINE", None, ""]]),
        "verdicts[0].state",
    ),
    "a verdict without its author": (
        damaged(verdicts=[[None, "APPROVED", None, ""]]),
        "verdicts[0].author",
    ),
    "a verdict that is not a list of four": (
        damaged(verdicts=[["ann", "APPROVED"]]),
        "verdicts[0]",
    ),
    "a verdict submitted in 1970": (
        damaged(verdicts=[["ann", "APPROVED", "1970-01-01T00:00:00Z", ""]]),
        "verdicts[0].submitted_at",
    ),
    "a thread comment's body that is a number": (
        damaged(threads=[["ann", "a.py", 5]]),
        "threads[0].body",
    ),
    "a thread comment that is not a list of three": (damaged(threads=[["ann"]]), "threads[0]"),
    "a diff that is a list": (damaged(diff=["@@"]), "diff"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_each_damaged_record_is_refused_naming_its_field(name):
    record, field = REFUSED[name]
    with pytest.raises(RecordError) as raised:
        Pull.from_json(record)
    assert raised.value.field == field


def test_text_is_cleaned_capped_and_one_line_where_it_is_shown_on_one_line():
    evil = "\x00\x07\x1b[2J\x0b\x7f\x85\x9b\ud800\ufdd0\uffff\U0010ffff\u202e\u2066"
    pull = Pull.from_json(
        damaged(
            title="ab" + evil + "\ncd" + "x" * 1000,
            body="line" + evil + "\r\nnext\tcell",
            labels=["b" + evil + "ug", "b\x00ug", "x" * 10**6],
            author__login="al\x1bice",
            files=[["src/\u202ea.py\n", 1, 0, "modified"]],
        )
    )
    assert (
        pull.title.startswith("ab[2J cd")
        and len(pull.title) == TITLE_LIMIT
        and pull.title.endswith("…")
    )
    assert pull.body == "line[2J\n\nnext\tcell"
    assert pull.labels == ("b[2J ug", "bug", "x" * (LABEL_LIMIT - 1) + "…")  # NEL is a line break
    assert pull.author.login == "alice" and pull.files[0].path == "src/a.py"
    assert Pull.from_json(pull.to_json()) == pull  # cleaning again changes nothing


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F)), st.booleans())
def test_plain_ascii_text_is_kept_as_written_and_the_rest_cleaned(text, one_line):
    # Printable ASCII is taken as it is (most titles, paths and names); anything else goes through
    # the cleaning: control characters out, line breaks as "\n", or a space on one line.
    cleaned = clean_text(text, 10**6, one_line)
    if text.isprintable():
        assert cleaned == (text.strip() if one_line else text)
    else:
        assert not SHOWABLE.search(cleaned) and "\r" not in cleaned
        assert not one_line or (
            "\n" not in cleaned and "\t" not in cleaned and cleaned == cleaned.strip()
        )


def test_a_url_that_is_not_a_web_address_is_dropped():
    for url in (
        "javascript:alert(1)",
        "data:text/html,<script>",
        'https://x/"onmouseover=alert(1)',
        " https://a b",
    ):
        assert Pull.from_json(damaged(url=url)).url == ""


def test_a_creation_after_the_merge_is_unknown_rather_than_negative():
    assert Pull.from_json(damaged(created_at="2026-06-01T00:00:00Z")).created_at is None


# -- the store reads what passes and names what does not --------------------------------------


def _month_file(tmp_path, lines: list[bytes]):
    path = tmp_path / "data" / REPO / "2026-05.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def test_the_store_skips_bad_lines_names_them_and_counts_a_pr_once(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    older = json.dumps(damaged(title="older")).encode()
    lines = [
        older,
        b"\xff\xfe not utf-8",
        b'{"number": 1, "merged_at": "2026-05-01T00:00:00Z", "title": "\\ud800"}',
        json.dumps(damaged(deletions=10**30)).encode(),
        b"[]",
        json.dumps(damaged(title="newer")).encode(),
    ]
    path = _month_file(tmp_path, lines)
    pulls = Store(tmp_path / "data").read_pulls(REPO)
    assert [(p.number, p.title) for p in pulls] == [(7, "newer")]  # the later record wins
    assert f"{path}, line 2, is not UTF-8 text" in caplog.text
    assert f"{path}, line 3, has a bad value in author: is missing" in caplog.text
    assert (
        f"{path}, line 4, has a bad value in deletions: {10**30} is outside 0 to 1,000,000,000"
        in caplog.text
    )
    assert (
        f"{path}, line 5, has a bad value in record: expected an object, found a list"
        in caplog.text
    )


def test_a_record_merged_outside_the_repositorys_life_is_named_and_the_rest_is_shown(
    tmp_path, capsys, caplog
):
    settings = tmp_path / "lifeconf.py"
    settings.write_text(f"DIGEST_DATA_PATH = {str(tmp_path / 'data')!r}\n")
    store = Store(tmp_path / "data")
    good = [make_pull(n, f"2026-05-{n:02d}T09:00:00Z") for n in (18, 19)]
    before = make_pull(3, "2025-12-30T09:00:00Z")  # the repository was created in 2026
    after = make_pull(4, "2026-05-22T09:00:00Z")  # fetched on 2026-05-20: a day's room, then damage
    store.upsert(REPO, [*good, before, after])
    store.write_state(
        RepoState(
            REPO,
            "import",
            fetched_at=datetime(2026, 5, 20, 12, tzinfo=UTC),
            created_at=datetime(2026, 1, 1, tzinfo=UTC),
        )
    )
    assert (
        main(["show", REPO, "--week", "2026-W21", "--format", "json", "--settings", str(settings)])
        == 0
    )
    assert [p["number"] for p in json.loads(capsys.readouterr().out)["pulls"]] == [18, 19]
    folder = tmp_path / "data" / REPO
    assert (
        f"{folder / '2025-12.jsonl'}, line 1, has a bad value in merged_at: 2025-12-30T09:00:00Z is before the "
        "repository was created (2026-01-01T00:00:00Z)"
    ) in caplog.text
    assert (
        f"{folder / '2026-05.jsonl'}, line 1, has a bad value in merged_at: 2026-05-22T09:00:00Z is after the data's "
        "own date (2026-05-21T12:00:00Z, a day's room included)"
    ) in caplog.text
    assert (
        len(store.read_pulls(REPO)) == 4
    )  # nothing was thrown away: a later fetch or import can repair it


def test_a_state_file_without_the_repositorys_creation_loads_and_stays_as_it_was():
    older = {
        "schema": 1,
        "repo": REPO,
        "source": "github",
        "fetched_at": "2026-05-20T12:00:00Z",
        "complete_since": None,
        "watermark": None,
        "incomplete": [],
        "progress": {},
    }
    state = RepoState.from_json(older)
    assert state.created_at is None and state.to_json() == older
    assert repo_life(state, datetime(2026, 5, 20, tzinfo=UTC)).start == datetime(
        2008, 1, 1, tzinfo=UTC
    )


def test_a_state_file_with_failed_pulls_reads_back_and_names_the_skipped_ones_by_week():
    older = {
        "schema": 1,
        "repo": REPO,
        "source": "github",
        "fetched_at": "2026-05-20T12:00:00Z",
        "complete_since": None,
        "watermark": None,
        "incomplete": [],
        "progress": {},
    }
    failed = {
        "7": {
            "reason": "GitHub refused it (HTTP 422)",
            "times": 2,
            "merged_at": "2026-05-18T09:00:00Z",
        },
        "8": {
            "reason": "its title cannot be read",
            "times": 1,
            "merged_at": "2026-05-19T09:00:00Z",
        },
    }
    state = RepoState.from_json({**older, "failed_pulls": failed})
    assert state.to_json() == {**older, "failed_pulls": failed}
    week = (datetime(2026, 5, 18, tzinfo=UTC), datetime(2026, 5, 25, tzinfo=UTC))
    assert state.skipped(*week) == (
        7,
    )  # 8 failed once: its week stays incomplete and is tried again
    assert state.failed_pulls[8].again("its title cannot be read", None).skipped
    assert not state.failed_pulls[8].again("another reason", None).skipped


def test_a_month_file_that_is_a_folder_is_skipped_with_a_sentence(tmp_path, caplog):
    store = Store(tmp_path / "data")
    store.upsert(REPO, [make_pull(1, "2026-04-02T00:00:00Z")])
    (tmp_path / "data" / REPO / "2026-05.jsonl").mkdir()
    assert [p.number for p in store.read_pulls(REPO)] == [1]
    assert "2026-05.jsonl is a folder where a month file should be" in caplog.text


def test_import_and_show_of_a_poisoned_export_give_sentences_and_clean_output(tmp_path, capsys):
    settings = (
        tmp_path / "hostileconf.py"
    )  # not "pelicanconf": a module of that name would shadow the project's
    settings.write_text('DIGEST_DATA_PATH = "data"\n')
    good = {
        "number": 1,
        "title": "fix: \x1b]0;owned\x07 \x00bell\u202e",
        "html_url": "https://github.com/acme/widget/pull/1",
        "user": {"login": "bad\x1b[31m"},
        "merged_at": "2026-05-19T00:00:00Z",
        "labels": [{"name": "a\x07b"}],
        "body": "\x1b[2J",
    }
    bad = [
        {**good, "number": 2, "merged_at": 5},
        {**good, "number": 3, "labels": "letters"},
        {**good, "number": -5},
        {**good, "number": 4, "deletions": 10**30},
        {**good, "number": 5, "merged_at": "1970-01-01T00:00:00Z"},
    ]
    export = tmp_path / "export.jsonl"
    export.write_text("".join(json.dumps(r) + "\n" for r in [good, *bad]))
    assert main(["import", str(export), "--repo", REPO, "--settings", str(settings)]) == 0
    captured = capsys.readouterr()
    assert "5 lines skipped" in captured.out
    for fmt in ("markdown", "json"):
        assert (
            main(["show", REPO, "--week", "2026-W21", "--format", fmt, "--settings", str(settings)])
            == 0
        )
        out = capsys.readouterr().out
        assert not SHOWABLE.search(out), fmt
        assert "fix:" in out and "owned" in out


# -- fuzz: arbitrary JSON either fails at the gate or gives a record that can be shown --------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**31), max_value=10**31)
    | st.floats()
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = list(GOOD)


@st.composite
def mutated_records(draw):
    record = json.loads(json.dumps(GOOD))
    for name in draw(
        st.lists(
            st.sampled_from(
                [*FIELDS, "author.login", "author.type", "files.0", "verdicts", "threads"]
            ),
            max_size=4,
        )
    ):
        value = draw(json_values | st.text(alphabet=st.characters(codec=None), max_size=400))
        if name.startswith("author.") and isinstance(record.get("author"), dict):
            record["author"][name.removeprefix("author.")] = value
        elif name.startswith("author."):
            continue
        elif name == "files.0":
            earlier = record.get("files")  # another mutation may have replaced the list already
            record["files"] = [value, *(earlier if isinstance(earlier, list) else [])]
        else:
            record[name] = value
    return record


def _texts(pull: Pull) -> list[str]:
    return [
        pull.title,
        pull.body,
        pull.url,
        pull.author.login,
        *pull.labels,
        *pull.reviewers,
        *(f.path for f in pull.files),
        *(text for r in pull.verdicts for text in (r.author, r.body)),
        *(text for c in pull.threads for text in (c.author, c.path, c.body)),
        pull.diff or "",
    ]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(mutated_records(), json_values))
def test_fuzz_arbitrary_json_fails_at_the_gate_or_gives_a_showable_record(record):
    try:
        pull = Pull.from_json(record)
    except RecordError:
        return
    for text in _texts(pull):
        assert not SHOWABLE.search(text)
    assert len(pull.title) <= TITLE_LIMIT and len(pull.body) <= BODY_LIMIT
    assert pull.number > 0 and min(pull.additions, pull.deletions, pull.changed_files) >= 0
    assert datetime(2008, 1, 1, tzinfo=UTC) <= pull.merged_at
    assert (
        Pull.from_json(json.loads(json.dumps(pull.to_json()))) == pull
    )  # stable through the store
    weeks = analyse_repo(REPO, [pull], None, analysis_options(DigestSettings()), datetime.now(UTC))
    assert sum(w.stats.merged_count for w in weeks) == 1


def test_a_stored_line_without_a_branch_loads_and_is_written_back_as_it_was():
    assert "branch" not in GOOD  # a store written before branches were kept
    assert Pull.from_json(GOOD).branch == ""
    assert Pull.from_json(GOOD).to_json() == GOOD
    with_branch = Pull.from_json({**GOOD, "branch": "fix/\u202eparser\x1b[2J\nnext"})
    assert with_branch.branch == "fix/parser[2J next"  # cleaned like any one-line text
    assert Pull.from_json(with_branch.to_json()) == with_branch


def test_reviews_are_cleaned_capped_kept_latest_and_a_line_without_them_is_written_back_as_it_was():
    assert (
        "verdicts" not in GOOD and "threads" not in GOOD
    )  # a store written before reviews were kept
    assert Pull.from_json(GOOD).verdicts == () and Pull.from_json(GOOD).threads == ()
    assert json.dumps(Pull.from_json(GOOD).to_json(), sort_keys=True) == json.dumps(
        GOOD, sort_keys=True
    )  # no churn
    hostile = "<script>alert(1)</script>\u202e\x1b[2J" + "x" * 5000
    verdicts = [
        ["ann", "APPROVED", f"2026-05-17T{h:02d}:00:00Z", ""] for h in range(REVIEWS_LIMIT + 3)
    ]
    reviewed = Pull.from_json(
        {
            **GOOD,
            "verdicts": [*verdicts, ["b\u202eob", "CHANGES_REQUESTED", None, hostile]],
            "threads": [["ann", "src/\u202ea.py", hostile]],
        }
    )
    assert (
        len(reviewed.verdicts) == REVIEWS_LIMIT and reviewed.verdicts[-1].author == "bob"
    )  # the latest kept
    assert reviewed.verdicts[0].submitted_at == datetime(2026, 5, 17, 4, tzinfo=UTC)
    body = reviewed.verdicts[-1].body
    assert (
        body.startswith("<script>alert(1)</script>[2J")
        and len(body) == REVIEW_BODY_LIMIT
        and body.endswith("…")
    )
    assert reviewed.threads == (
        ThreadComment("ann", "src/a.py", body[: COMMENT_BODY_LIMIT - 1] + "…"),
    )
    assert Pull.from_json(json.loads(json.dumps(reviewed.to_json()))) == reviewed
    assert Review("ann", "DISMISSED").body == "" and Review("ann", "DISMISSED").submitted_at is None


def test_a_diff_excerpt_is_kept_cleaned_and_capped_and_an_empty_one_says_it_was_asked_for():
    assert "diff" not in GOOD and Pull.from_json(GOOD).diff is None  # never fetched
    assert (
        Pull.from_json({**GOOD, "diff": ""}).to_json()["diff"] == ""
    )  # fetched: GitHub showed no text diff
    pull = Pull.from_json({**GOOD, "diff": "@@ -1 +1 @@\r\n+<b>\u202e\x1b[2J" + "y" * 9000})
    assert (
        pull.diff.startswith("@@ -1 +1 @@\n+<b>[2J")
        and len(pull.diff) == DIFF_LIMIT
        and pull.diff.endswith("…")
    )
    assert Pull.from_json(json.loads(json.dumps(pull.to_json()))) == pull
