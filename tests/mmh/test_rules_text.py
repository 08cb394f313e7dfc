"""bot/rules_text/mmh.toml: every mmh section has a topic in our own words, the commands it
names exist, and search finds what players type."""

from __future__ import annotations

import pytest

from bot import rules_help
from bot.mmh.commands import SPECS
from tests.bot.test_rules_help import ngrams, rules_dir, sections, shared_runs, words


@pytest.fixture(scope="module")
def topics() -> list[rules_help.Topic]:
    return rules_help.topics("mmh")


@pytest.mark.rule("mmh:game-goal")
def test_every_mmh_section_has_a_topic_in_order(topics: list[rules_help.Topic]) -> None:
    assert [(t.id, t.title) for t in topics] == sections("mmh")


def test_no_summary_shares_12_words_in_a_row_with_the_rulebook(
    topics: list[rules_help.Topic],
) -> None:
    text = (rules_dir() / "mm-heroes-rulebook.txt").read_text(encoding="utf-8")
    grams = ngrams(words(text))
    assert {t.id: runs for t in topics if (runs := shared_runs(t.summary, grams))} == {}


def test_listed_commands_exist_in_the_mmh_table(topics: list[rules_help.Topic]) -> None:
    known = {"/" + spec.qualified for spec in SPECS}
    assert {c for t in topics for c in t.commands} <= known


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("overwhelm", "mmh:other-game-rules.overwhelm-markers"),
        ("dark times", "mmh:other-game-rules.dark-times"),
        ("luck", "mmh:other-game-rules.luck"),
        ("trade", "mmh:other-game-rules.trading"),
        ("harbour", "mmh:description-of-the-game-board.terrain-features-on-the-game-board"),
        ("xp", "mmh:other-game-rules.experience-points-xp-and-leveling-up"),
    ],
)
def test_search_finds_what_players_type(typed: str, expected: str) -> None:
    assert rules_help.search("mmh", typed)[0].id == expected
