"""Tests for `bot.rules_help` and bot/rules_text/homm4.toml: every homm4 section has a
topic, the texts fit Discord, search finds what players type, and no summary copies the
rulebook (no run of 12 words in common).

The rulebook and SECTIONS.txt are read from ``shared/rules`` beside the repository (or
``$HEROES_RULES_DIR``). Outside CI the tests that need them are skipped when that folder
is missing; in CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot import rules_help
from bot.rules_help import (
    CHOICE_TEXT_LIMIT,
    COMING,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    MAX_CHOICES,
    SUMMARY_MAX,
    SUMMARY_MIN,
    RulesText,
    Topic,
    UnknownRuleset,
    UnknownTopic,
)
from engine.homm4.options import Homm4Options

NGRAM = 12
"""A summary may share no run of this many consecutive words with the rulebook."""


def rules_dir() -> Path:
    """Return the shared rules folder, or skip (fail in CI) when it is not there."""
    override = os.environ.get("HEROES_RULES_DIR")
    repo = Path(__file__).resolve().parents[2]
    for candidate in (Path(override) if override else None, repo.parent / "shared" / "rules"):
        if candidate is not None and (candidate / "SECTIONS.txt").is_file():
            return candidate
    message = "shared/rules (SECTIONS.txt, rulebooks) not found beside the repository"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def sections(prefix: str) -> list[tuple[str, str]]:
    """Return ``(id, title)`` of every SECTIONS.txt line whose id starts with ``prefix:``."""
    found: list[tuple[str, str]] = []
    for line in (rules_dir() / "SECTIONS.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{prefix}:"):
            section_id, title = line.split("\t", 1)
            found.append((section_id.strip(), title.strip()))
    return found


def words(text: str) -> list[str]:
    """Return the words of ``text``: lowercased, punctuation dropped, apostrophes kept
    inside words out (``Alchemist's`` -> ``alchemists``)."""
    return re.findall(r"\w+", text.casefold().replace("'", "").replace("\u2019", ""))


def ngrams(tokens: list[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    """Return every run of ``n`` consecutive tokens."""
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def shared_runs(summary: str, rulebook: set[tuple[str, ...]]) -> list[str]:
    """Return the runs of 12 words ``summary`` shares with the rulebook's 12-grams."""
    return [" ".join(gram) for gram in sorted(ngrams(words(summary)) & rulebook)]


@pytest.fixture(scope="module")
def rulebook_grams() -> set[tuple[str, ...]]:
    """The word 12-grams of the homm4 rulebook."""
    text = (rules_dir() / "homm4-ccg-rulebook.txt").read_text(encoding="utf-8")
    return ngrams(words(text))


@pytest.fixture(scope="module")
def homm4() -> list[Topic]:
    """The homm4 topics."""
    return rules_help.topics("homm4")


# --- coverage of SECTIONS.txt ---------------------------------------------------------


def test_every_homm4_section_has_a_topic_and_every_topic_a_section(homm4: list[Topic]) -> None:
    expected = sections("homm4")
    assert len(expected) == 73
    got = [(t.id, t.title) for t in homm4]
    assert set(got) - set(expected) == set(), "topics with no such section id / title"
    assert set(expected) - set(got) == set(), "sections without a topic"
    assert got == expected, "topics are not in SECTIONS.txt order"


def test_topics_of_the_advanced_rules_variants_and_errata_are_included(
    homm4: list[Topic],
) -> None:
    ids = {t.id for t in homm4}
    assert {"homm4:advanced-rules.diplomacy", "homm4:game-variants.campaigns"} <= ids
    assert {"homm4:errata", "homm4:turn-summary"} <= ids


def test_advanced_rules_and_variants_say_which_option_turns_them_on(homm4: list[Topic]) -> None:
    # Homm4Options switches every Advanced Rule and Game Variant (issue 7): no topic is
    # marked "coming" any more, and each names the /game new options word that turns it on.
    from bot.homm4.options_text import parse_options_text

    assert {"morale", "luck", "teams", "underground", "campaign"} <= set(Homm4Options.model_fields)
    base = Homm4Options().model_dump(mode="json")
    for t in homm4:
        assert COMING not in t.summary, t.id
        if t.id.startswith(("homm4:advanced-rules.", "homm4:game-variants.")) or t.id == (
            "homm4:terrain-map-sections-with-underground"
        ):
            words = re.findall(r"options:(\S+?)[.,;)]?(?:\s|$)", t.summary)
            assert words, f"{t.id} names no options: word"
            for word in words:
                fields = parse_options_text(word)
                parsed = Homm4Options.model_validate(fields).model_dump(mode="json")
                assert parsed != base, (t.id, word)


# --- Discord limits and the file's shape -------------------------------------------------


def test_texts_fit_discord(homm4: list[Topic]) -> None:
    for t in homm4:
        assert SUMMARY_MIN <= len(t.summary) <= SUMMARY_MAX, t.id
        assert len(rules_help.description(t)) <= EMBED_DESCRIPTION_LIMIT, t.id
        assert len(t.title) <= EMBED_TITLE_LIMIT, t.id
        name = rules_help.choice_name("homm4", t)
        assert 1 <= len(name) <= CHOICE_TEXT_LIMIT, t.id
        assert len(t.id) <= CHOICE_TEXT_LIMIT, t.id
        assert t.keywords, f"{t.id} has no keywords"


def test_listed_commands_exist_in_the_homm4_command_table(homm4: list[Topic]) -> None:
    table = pytest.importorskip("bot.homm4.commands")
    known = {"/" + spec.qualified for spec in table.SPECS}
    unknown = {t.id: [c for c in t.commands if c not in known] for t in homm4}
    assert {k: v for k, v in unknown.items() if v} == {}
    by_id = {t.id: t for t in homm4}
    assert by_id["homm4:battles.grouping"].commands == ("/battle group",)
    assert "/setup risk" in by_id["homm4:start-of-the-game"].commands


def test_the_embed_description_lists_the_commands() -> None:
    grouping = rules_help.topic("homm4", "homm4:battles.grouping")
    text = rules_help.description(grouping)
    assert text.startswith(grouping.summary)
    assert text.endswith("\n\nCommands: `/battle group`")


def test_summaries_are_reflowed_paragraphs(homm4: list[Topic]) -> None:
    for t in homm4:
        assert "\n\n\n" not in t.summary, t.id
        for line in t.summary.splitlines():
            assert line == line.strip(), t.id
            assert "  " not in line, t.id


def test_reflow_joins_lines_and_keeps_paragraphs_and_list_items() -> None:
    assert rules_help.reflow("\none\n two\n\n- a\nb\n- c\n") == "one two\n\n- a b\n- c"


def test_choice_names_carry_the_parent_titles() -> None:
    grouping = rules_help.topic("homm4", "homm4:battles.grouping")
    assert rules_help.choice_name("homm4", grouping) == "Battles: Grouping"
    mana = rules_help.topic("homm4", "heroes-levels-skills-and-spells.mana")
    assert rules_help.choice_name("homm4", mana) == "Heroes, Levels, Skills and Spells: Mana"


def test_a_topic_file_with_a_bad_entry_is_refused() -> None:
    good = rules_help.topic("homm4", "homm4:battles.grouping").model_dump()
    with pytest.raises(ValueError, match="summary"):
        Topic.model_validate({**good, "summary": "too short"})
    with pytest.raises(ValueError, match="keywords"):
        Topic.model_validate({**good, "keywords": ["Swarm"]})
    with pytest.raises(ValueError, match="commands"):
        Topic.model_validate({**good, "commands": ["battle group"]})
    orphan = {**good, "id": "homm4:nowhere.grouping"}
    text = RulesText.model_validate(
        {"ruleset": "homm4", "rulebook": "x", "topic": [good, good, orphan]}
    )
    problems = text.problems()
    assert "homm4:battles.grouping: defined twice" in problems
    assert any("nowhere.grouping: its parent" in p for p in problems)
    other = RulesText.model_validate({"ruleset": "mmh", "rulebook": "x", "topic": [good]})
    assert any("prefix not one of ['mmh']" in p for p in other.problems())


# --- our own words ------------------------------------------------------------------------


def test_no_summary_shares_12_words_in_a_row_with_the_rulebook(
    homm4: list[Topic], rulebook_grams: set[tuple[str, ...]]
) -> None:
    copied = {t.id: runs for t in homm4 if (runs := shared_runs(t.summary, rulebook_grams))}
    assert copied == {}


def test_the_copy_check_catches_a_copied_sentence(rulebook_grams: set[tuple[str, ...]]) -> None:
    # A rulebook sentence (Closing Phase), pasted into a summary, must be caught.
    pasted = (
        "Our words first. If you have no cards in your Hand, you simply skip this Phase "
        "and pass the turn immediately. More of our words."
    )
    assert shared_runs(pasted, rulebook_grams)
    assert not shared_runs("If you have no cards, skip this and pass the turn.", rulebook_grams)


# --- search, lookup, autocomplete ---------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("swarm", "homm4:battles.grouping"),
        ("breach", "homm4:battles"),  # Battles in Towns has no id of its own: see the topic
        ("Sack", "homm4:battles"),
        ("risk", "homm4:start-of-the-game"),
        ("Risk Stack", "homm4:start-of-the-game"),
        ("shooting", "homm4:battles.making-a-ranged-attack"),
        ("money", "homm4:start-of-the-game"),
        ("Grouping", "homm4:battles.grouping"),
        ("grupping", "homm4:battles.grouping"),
        ("homm4:battles.grouping", "homm4:battles.grouping"),
        ("mana", "homm4:heroes-levels-skills-and-spells.mana"),
        ("start of the game", "homm4:start-of-the-game"),
        ("retaliation", "homm4:battles.counterattack"),
        ("alchemist", "homm4:income-phase.mine-income"),
        ("upgrade", "homm4:purchase-phase"),
        ("chip in", "homm4:chipping-in-for-the-guard"),
        ("underground", "homm4:terrain-map-sections-with-underground"),
        ("how do I shoot", "homm4:battles.making-a-ranged-attack"),
        ("can my hero retreat", "homm4:battles.hero-retreat"),
        ("how much does a town upgrade cost", "homm4:purchase-phase"),
    ],
)
def test_search_puts_the_expected_topic_first(typed: str, expected: str) -> None:
    assert rules_help.search("homm4", typed)[0].id == expected


def test_search_respects_the_limit_and_finds_nothing_for_gibberish() -> None:
    assert len(rules_help.search("homm4", "a", limit=3)) == 3
    assert rules_help.search("homm4", "xyzzyq") == []


def test_exact_matches_outrank_prefixes_and_keywords() -> None:
    # "Defense" is a title (battles.defense) and also a Skill and keyword elsewhere.
    assert rules_help.search("homm4", "defense")[0].id == "homm4:battles.defense"
    found = [t.id for t in rules_help.search("homm4", "towns")]
    assert found[0] == "homm4:movement-phase.towns"


def test_empty_text_offers_the_top_level_topics(homm4: list[Topic]) -> None:
    offered = rules_help.choices("homm4", "")
    top = [t for t in homm4 if t.parent_id is None]
    assert len(top) == 21
    assert [value for _, value in offered] == [t.id for t in top]


def test_choices_fit_discord_autocomplete() -> None:
    for typed in ("", "a", "battle", "spell", "hero", "zz"):
        offered = rules_help.choices("homm4", typed)
        assert len(offered) <= MAX_CHOICES
        for name, value in offered:
            assert 1 <= len(name) <= CHOICE_TEXT_LIMIT
            assert 1 <= len(value) <= CHOICE_TEXT_LIMIT
            assert rules_help.topic("homm4", value).id == value


def test_topic_accepts_the_id_the_bare_section_and_the_title() -> None:
    for name in ("homm4:battles.grouping", "battles.grouping", "grouping", " Grouping "):
        assert rules_help.topic("homm4", name).id == "homm4:battles.grouping"


def test_an_unknown_topic_names_close_matches() -> None:
    with pytest.raises(UnknownTopic) as caught:
        rules_help.topic("homm4", "grupping")
    assert "'grupping'" in str(caught.value)
    assert "Grouping (homm4:battles.grouping)" in str(caught.value)
    with pytest.raises(UnknownTopic, match="Type part of a rule's name"):
        rules_help.topic("homm4", "xyzzyq")


def test_an_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset, match=r"'chess'.*homm4"):
        rules_help.topics("chess")
    with pytest.raises(UnknownRuleset):
        rules_help.search("../homm4", "swarm")
    assert "homm4" in rules_help.available_rulesets()


def test_loading_is_cached() -> None:
    assert rules_help.load("homm4") is rules_help.load("homm4")
