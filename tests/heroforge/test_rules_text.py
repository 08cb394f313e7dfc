"""bot/rules_text/heroforge.toml: every heroforge section has a topic in our own words,
the commands it names exist, and search finds what players type."""

from __future__ import annotations

import pytest

from bot import rules_help
from bot.heroforge.commands import SPECS
from tests.bot.test_rules_help import ngrams, rules_dir, sections, shared_runs, words


@pytest.fixture(scope="module")
def topics() -> list[rules_help.Topic]:
    return rules_help.topics("heroforge")


@pytest.mark.rule("heroforge:enchantment-lists")
def test_every_heroforge_section_has_a_topic_in_order(topics: list[rules_help.Topic]) -> None:
    assert [(t.id, t.title) for t in topics] == sections("heroforge")


def test_no_summary_shares_12_words_in_a_row_with_the_rulebook(
    topics: list[rules_help.Topic],
) -> None:
    text = (rules_dir() / "hero-forge-rules.txt").read_text(encoding="utf-8")
    grams = ngrams(words(text))
    assert {t.id: runs for t in topics if (runs := shared_runs(t.summary, grams))} == {}


def test_listed_commands_exist_in_the_heroforge_table(topics: list[rules_help.Topic]) -> None:
    known = {"/" + spec.qualified for spec in SPECS}
    assert {c for t in topics for c in t.commands} <= known


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("shift", "heroforge:land-shifting"),
        ("steal", "heroforge:factions"),
        ("fort", "heroforge:forts"),
        ("contested", "heroforge:getting-economy-from-lands"),
        ("stack", "heroforge:enchantments"),
        ("retreat", "heroforge:combat"),
    ],
)
def test_search_finds_what_players_type(typed: str, expected: str) -> None:
    assert rules_help.search("heroforge", typed)[0].id == expected
