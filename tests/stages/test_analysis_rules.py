"""DIGEST_RULES: merged over the bundled defaults, checked, with errors that name the bad key."""

from __future__ import annotations

import dataclasses

import pytest

from digest_plugin.analysis.classify import classify
from digest_plugin.analysis.importance import importance
from digest_plugin.errors import DigestError
from digest_plugin.records.pull import FileChange
from digest_plugin.settings import default_rules
from tests.analysis_fixtures import load_rules
from tests.conftest import make_pull

WHEN = "2026-05-19T10:00:00Z"


def test_defaults_load_and_cover_every_type():
    rules = load_rules()
    assert set(default_rules()["weights"]["type"]) >= {"feat", "fix", "docs", "unknown"}
    assert rules.verbs["fix"] == "fix" and rules.verbs["add"] == "feat"


def test_lists_extend_mappings_override_and_null_removes():
    rules = load_rules(
        {
            "bots": ["release-robot"],
            "title": {"verbs": {"perf": ["turbocharge"]}},
            "topics": {"npu": None, "gpu": r"\bcuda\b"},
            "paths": {"docs": ["manual/*"], "modules": {"src/widget/*": "widget"}},
        }
    )
    assert "release-robot" in rules.bots and "dependabot" in rules.bots
    assert rules.verbs["turbocharge"] == "perf" and rules.verbs["optimize"] == "perf"
    topics = [name for name, _ in rules.topics]
    assert "gpu" in topics and "npu" not in topics and "security" in topics
    pull = make_pull(
        1, WHEN, "Turbocharge the parser on CUDA", files=[FileChange("src/widget/parse.py", 10, 2)]
    )
    result = classify(pull, rules)
    assert (result.type, result.modules, result.topics) == ("perf", ("widget",), ("gpu",))
    assert "docs" in rules.path_kinds_of("manual/intro.txt")


def test_weights_and_thresholds_can_be_tuned():
    pull = make_pull(2, WHEN, "feat: add a parser", files=[FileChange("widget/parse.py", 10, 2)])
    plain = load_rules()
    heavier = load_rules(
        {"weights": {"type": {"feat": 6.0}}, "thresholds": {"large_change_lines": 10}}
    )
    assert dict(importance(pull, classify(pull, heavier), heavier).factors)["type"] == 6.0
    assert "large" in dict(importance(pull, classify(pull, heavier), heavier).factors)
    assert "large" not in dict(importance(pull, classify(pull, plain), plain).factors)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"labelz": {}}, "'labelz' is not a rule"),
        ({"paths": {"tests": "tests/*"}}, "'paths.tests' must be a list of strings"),
        (
            {"title": {"types": {"feature": "feature"}}},
            "'title.types.feature' must name a change type",
        ),
        (
            {"title": {"verbs": {"features": ["add"]}}},
            "'title.verbs.features' is not a change type",
        ),
        ({"weights": {"type": {"feat": "high"}}}, "'weights.type.feat' must be a number"),
        ({"weights": {"size": True}}, "'weights.size' must be a number"),
        (
            {"labels": {"modules": {"area/(": "x"}}},
            "'labels.modules.area/\\(' is not a valid regular expression",
        ),
        (
            {"keywords": {"noun_phrase_with_tests": "feature"}},
            "'keywords.noun_phrase_with_tests' must name a change type",
        ),
        ("rules-that-are-not-there.yaml", "could not be read"),
        (42, "must be a dict or the path of a YAML file"),
    ],
)
def test_bad_rules_raise_one_clear_sentence(rules, message, tmp_path):
    with pytest.raises(DigestError, match=message) as error:
        load_rules(rules, tmp_path)
    assert str(error.value).endswith(".") and "\n" not in str(error.value)


def test_a_yaml_file_must_hold_a_mapping(tmp_path):
    (tmp_path / "rules.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(DigestError, match="must hold a mapping"):
        load_rules("rules.yaml", tmp_path)
    (tmp_path / "broken.yaml").write_text("paths: [unclosed\n", encoding="utf-8")
    with pytest.raises(DigestError, match="not valid YAML"):
        load_rules("broken.yaml", tmp_path)


def test_noun_phrase_fallback_can_be_switched_off():
    pull = make_pull(
        3,
        WHEN,
        "Implicit instance attributes",
        files=[FileChange("widget/attrs.py", 50, 0), FileChange("tests/test_attrs.py", 20, 0)],
    )
    assert classify(pull, load_rules()).type == "feat"
    assert classify(pull, load_rules({"keywords": {"noun_phrase_with_tests": None}})).type is None


def test_labels_can_name_modules():
    rules = load_rules({"labels": {"modules": {"area/(.+)": r"\1"}}})
    pull = make_pull(
        4,
        WHEN,
        "[misc] fix: parser",
        labels=("area/parser", "bug"),
        files=[FileChange("widget/parse.py", 3, 1)],
    )
    result = classify(pull, rules)
    assert result.modules == ("parser",)  # labels are trusted over the title's [misc]
    assert result.type == "fix"


def test_a_misspelt_weight_in_a_rules_file_fails_at_load_naming_the_key_and_the_file(tmp_path):
    (tmp_path / "rules.yaml").write_text("weights:\n  sise: 4.0\n", encoding="utf-8")
    with pytest.raises(DigestError, match=r"'weights.sise' is not a rule.*rules.yaml") as error:
        load_rules("rules.yaml", tmp_path)
    assert str(error.value).endswith(".")


def test_weights_and_thresholds_are_typed_frozen_objects():
    rules = load_rules()
    assert isinstance(rules.thresholds.hot_limit, int) and isinstance(rules.weights.size, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.weights.size = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.weights.type["feat"] = 9.0  # type: ignore[index]
    with pytest.raises(DigestError, match="whole number"):
        load_rules({"thresholds": {"hot_limit": 2.5}})
