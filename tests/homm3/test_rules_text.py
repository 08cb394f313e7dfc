"""bot/rules_text/homm3.toml: a /game rules topic for every homm3bf: and homm3turn: section
of SECTIONS.txt, in our own words, naming real /homm3 commands; and engine/homm3/README.md
covers every reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import rules_help
from bot.homm3.commands import SPECS
from tests.bot.test_rules_help import ngrams, rules_dir, sections, shared_runs, words

README = Path(__file__).resolve().parents[2] / "engine" / "homm3" / "README.md"


def test_every_homm3_section_has_a_topic_in_order() -> None:
    expected = sections("homm3bf") + sections("homm3turn")
    got = [(t.id, t.title) for t in rules_help.topics("homm3")]
    assert got == expected
    assert rules_help.load("homm3").problems() == []


def test_summaries_are_our_own_words() -> None:
    grams: set[tuple[str, ...]] = set()
    for name in ("homm3-battlefield-expansion.txt", "homm3-turns-town-morale.txt"):
        grams |= ngrams(words((rules_dir() / name).read_text(encoding="utf-8")))
    copied = {t.id: shared_runs(t.summary, grams) for t in rules_help.topics("homm3")}
    assert {k: v for k, v in copied.items() if v} == {}


def test_listed_commands_exist() -> None:
    known = {"/" + spec.qualified for spec in SPECS}
    for topic in rules_help.topics("homm3"):
        assert set(topic.commands) <= known, topic.id
        assert topic.keywords, topic.id
    assert rules_help.search("homm3", "siege")[0].id.endswith(".siege")


@pytest.mark.rule("homm3bf:battlefield-setup")
def test_the_readme_records_readings_and_invented_data() -> None:
    text = README.read_text(encoding="utf-8")
    for heading in (
        "## Readings of the rules",
        "## Data invented",
        "## Data from the public facts",
    ):
        assert heading in text
    assert text.count("\n- ") >= 40
