"""Ready-made decks, deck validation, the Starting Forces choice and the deck list parser.

Rule sections: homm4:setup, homm4:errata (Game Board size).
"""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInput
from engine.homm4.cards import (
    CardPool,
    Faction,
    HeroCard,
    ObjectCard,
    RequiresObject,
    TownCard,
    UnitCard,
    load_card_pool,
)
from engine.homm4.decks import (
    StartingForces,
    check_deck,
    deck_size_limits,
    deck_text,
    forces_factions,
    parse_deck_text,
    starting_forces,
    validate_deck,
)


@pytest.fixture(scope="module")
def pool() -> CardPool:
    return load_card_pool()


def asylum_deck(pool: CardPool) -> dict[str, int]:
    return dict(pool.decks["deck_asylum"].cards)


# ------------------------------------------------------------------ ready-made decks
@pytest.mark.rule("homm4:setup")
def test_one_ready_made_deck_per_faction_of_exactly_40_cards(pool: CardPool) -> None:
    factions = sorted(d.faction.value for d in pool.decks.values())
    assert factions == sorted(f.value for f in Faction if f is not Faction.NEUTRAL)
    assert all(d.size == 40 for d in pool.decks.values())


@pytest.mark.rule("homm4:setup")
@pytest.mark.parametrize("sections", [4, 5, 7, 12])
def test_every_ready_made_deck_is_legal_at_every_board_size(pool: CardPool, sections: int) -> None:
    for deck in pool.decks.values():
        assert validate_deck(deck.cards, sections) == [], deck.id
        check_deck(deck.cards, sections)


@pytest.mark.rule("homm4:setup")
def test_ready_made_starting_forces_are_one_faction(pool: CardPool) -> None:
    for deck in pool.decks.values():
        forces = starting_forces(deck.cards)
        assert forces.faction is deck.faction
        town, hero = pool.get(forces.town), pool.get(forces.hero)
        assert isinstance(town, TownCard) and town.faction is deck.faction
        assert isinstance(hero, HeroCard) and hero.faction is deck.faction
        levels = []
        for unit_id in forces.units:
            card = pool.get(unit_id)
            assert isinstance(card, UnitCard) and card.faction is deck.faction
            levels.append(card.level)
        assert levels == [1, 1, 1, 2, 2, 3]
        for card_id in forces.cards:
            assert forces.cards.count(card_id) <= deck.cards[card_id]


@pytest.mark.rule("homm4:errata")
def test_ready_made_decks_hold_the_objects_their_units_require(pool: CardPool) -> None:
    for deck in pool.decks.values():
        for card_id in deck.cards:
            card = pool.get(card_id)
            if isinstance(card, UnitCard):
                for ability in card.abilities:
                    if isinstance(ability, RequiresObject):
                        assert ability.object in deck.cards, (deck.id, card_id)
                        assert isinstance(pool.get(ability.object), ObjectCard)


@pytest.mark.rule("homm4:setup")
def test_ready_made_decks_carry_a_second_town_and_their_magic(pool: CardPool) -> None:
    for deck in pool.decks.values():
        towns = [c for c in deck.cards if isinstance(pool.get(c), TownCard)]
        assert sum(deck.cards[t] for t in towns) == 2, deck.id
        types = {pool.get(c).type for c in deck.cards}
        assert {"town", "hero", "unit", "object", "artifact", "skill"} <= types, deck.id
        if deck.faction is not Faction.MIGHT:
            assert "spell" in types, deck.id


# ------------------------------------------------------------------ validation
@pytest.mark.rule("homm4:setup")
def test_size_limits_are_40_to_10_per_section() -> None:
    assert deck_size_limits(4) == (40, 40)
    assert deck_size_limits(6) == (40, 60)


@pytest.mark.rule("homm4:setup")
def test_a_39_card_deck_is_refused(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    deck["bandit"] -= 1
    assert validate_deck(deck, 4) == ["The deck has 39 cards; a deck needs at least 40 (1 more)."]


@pytest.mark.rule("homm4:setup")
def test_a_41_card_deck_is_refused_at_4_sections_but_not_at_5(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    deck["bandit"] += 1
    assert validate_deck(deck, 4) == [
        "The deck has 41 cards; with 4 Terrain Map Sections a deck may hold at most 40 "
        "(10 per section): remove 1."
    ]
    assert validate_deck(deck, 5) == []


@pytest.mark.rule("homm4:errata")
def test_a_60_card_tournament_deck_needs_6_sections(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    deck["bandit"] += 20
    assert validate_deck(deck, 6) == []
    assert "at most 50" in validate_deck(deck, 5)[0]


@pytest.mark.rule("homm4:setup")
def test_a_board_of_fewer_than_4_sections_is_refused(pool: CardPool) -> None:
    problems = validate_deck(asylum_deck(pool), 3)
    assert problems == ["A Game Board needs at least 4 Terrain Map Sections, not 3."]


@pytest.mark.rule("homm4:setup")
def test_a_deck_missing_its_level_3_unit_names_what_is_missing(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    for level_3 in ("efreet", "nightmare"):
        deck["bandit"] += deck.pop(level_3)
    problems = validate_deck(deck, 4)
    assert len(problems) == 1
    assert "Starting Forces" in problems[0]
    assert "Chaos, lacks 1 more Level 3 Unit (has 0 of 1)" in problems[0]


@pytest.mark.rule("homm4:setup")
def test_starting_forces_must_be_of_one_faction(pool: CardPool) -> None:
    # A Chaos Town and Hero with Life units cannot start.
    deck = {"asylum": 1, "ashkara": 1, "squire": 3, "pikeman": 2, "crusader": 1, "orc": 32}
    problems = validate_deck(deck, 4)
    assert len(problems) == 1
    # Life lacks 2 cards (Town, Hero), Chaos 3 (two Level 2, one Level 3): Life is closest.
    assert problems[0].endswith("the closest, Life, lacks a Town and a Hero.")
    chaos_only = {"asylum": 1, "ashkara": 1, "bandit": 3, "orc": 35}
    assert validate_deck(chaos_only, 4)[0].endswith(
        "the closest, Chaos, lacks 2 more Level 2 Units (has 0 of 2) and "
        "1 more Level 3 Unit (has 0 of 1)."
    )
    assert forces_factions(deck) == []


@pytest.mark.rule("homm4:setup")
def test_unknown_cards_are_named_with_a_suggestion(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    deck["bandit"] -= 1
    deck["orcc"] = 1
    problems = validate_deck(deck, 4)
    assert problems == ["Unknown card id 'orcc' (did you mean 'Orc'?)."]


@pytest.mark.rule("homm4:setup")
def test_counts_must_be_positive(pool: CardPool) -> None:
    deck = asylum_deck(pool)
    deck["medusa"] = 0
    problems = validate_deck(deck, 4)
    assert problems[0] == "The count of 'medusa' must be a whole number of at least 1, not 0."


@pytest.mark.rule("homm4:setup")
def test_check_deck_raises_invalid_input_listing_every_problem(pool: CardPool) -> None:
    deck = {"zzz": 2, "orc": 3}
    with pytest.raises(InvalidInput) as caught:
        check_deck(deck, 4)
    message = str(caught.value)
    assert message.startswith("This deck is not legal:")
    assert "Unknown card id 'zzz'" in message
    assert "The deck has 5 cards; a deck needs at least 40 (35 more)." in message
    assert "No faction can field the Starting Forces" in message


# ------------------------------------------------------------------ starting forces
@pytest.mark.rule("homm4:setup")
def test_starting_forces_choice_for_the_haven_deck(pool: CardPool) -> None:
    forces = starting_forces(pool.decks["deck_haven"].cards)
    assert forces == StartingForces(
        faction=Faction.LIFE,
        town="haven",
        hero="mother_ysolde",  # both heroes have 1 copy: ties go by card id
        units=("squire", "crossbowman", "squire", "pikeman", "pikeman", "crusader"),
    )
    assert forces.cards[:2] == ("haven", "mother_ysolde")


@pytest.mark.rule("homm4:setup")
def test_starting_forces_prefer_the_bigger_faction_then_faction_order() -> None:
    order = {"haven": 1, "sir_aldric": 1, "squire": 3, "pikeman": 2, "crusader": 1}
    chaos = {"asylum": 1, "ashkara": 1, "bandit": 3, "medusa": 2, "efreet": 1}
    assert starting_forces({**order, **chaos}).faction is Faction.LIFE  # tie: Life first
    assert starting_forces({**order, **chaos, "orc": 1}).faction is Faction.CHAOS
    assert forces_factions({**order, **chaos}) == [Faction.LIFE, Faction.CHAOS]


@pytest.mark.rule("homm4:setup")
def test_starting_forces_prefer_units_the_town_sells_on_ties() -> None:
    deck = {"haven": 1, "sir_aldric": 2, "mother_ysolde": 1, "squire": 3, "crossbowman": 3}
    deck |= {"ballista": 2, "pikeman": 2, "monk": 1, "crusader": 1}
    forces = starting_forces(deck)
    assert forces.hero == "sir_aldric"  # most copies
    assert forces.units == (
        "crossbowman",
        "squire",
        "crossbowman",
        "pikeman",
        "ballista",
        "crusader",
    )


@pytest.mark.rule("homm4:setup")
def test_starting_forces_raise_when_no_faction_can_start() -> None:
    with pytest.raises(InvalidInput, match="lacks a Hero"):
        starting_forces({"asylum": 1, "bandit": 3, "medusa": 2, "efreet": 1})


@pytest.mark.rule("homm4:setup")
def test_x_cost_neutral_units_never_make_starting_forces(pool: CardPool) -> None:
    deck = {"peasant": 3, "evil_eye": 2, "mummy": 1}
    assert forces_factions(deck) == []
    assert all(pool.get(c).faction is Faction.NEUTRAL for c in deck)  # type: ignore[union-attr]


# ------------------------------------------------------------------ deck list text
@pytest.mark.rule("homm4:setup")
def test_parse_the_issue_example() -> None:
    assert parse_deck_text("3x Orc\n2 Medusa\nAsylum") == {"orc": 3, "medusa": 2, "asylum": 1}


@pytest.mark.rule("homm4:setup")
def test_parse_accepts_common_ways_of_writing_a_line() -> None:
    text = """
    # my chaos deck
    3 x Bandit
    Bandit x2
    Orc (4)
    4xOrcs
    - 1 Ifrit
    • Alchemists Lab
    alchemist's_lab
    Black-Dragon
    2 wolves
    Basic Tactics
    Tactics Expert
    grand master chaos magic
    // done
    """
    assert parse_deck_text(text) == {
        "bandit": 5,
        "orc": 8,
        "efreet": 1,
        "alchemists_lab": 2,
        "black_dragon": 1,
        "wolf": 2,
        "tactics_basic": 1,
        "tactics_expert": 1,
        "chaos_magic_grand_master": 1,
    }


@pytest.mark.rule("homm4:setup")
def test_parse_names_every_bad_line() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_deck_text("3x Orcc\n2 Medusa\nQwertyuiop\n0 Orc\n2 Orc x3")
    lines = str(caught.value).splitlines()
    assert lines == [
        "Could not read the deck list:",
        "Line 1: 'Orcc' is not a card of the pool (did you mean 'Orc'?).",
        "Line 3: 'Qwertyuiop' is not a card of the pool.",
        "Line 4: '0 Orc': the count must be 1 to 99.",
        "Line 5: '2 Orc x3' gives two counts; give one.",
    ]


@pytest.mark.rule("homm4:setup")
def test_parse_refuses_an_empty_list() -> None:
    with pytest.raises(InvalidInput, match="names no card"):
        parse_deck_text("\n# nothing here\n")


@pytest.mark.rule("homm4:setup")
def test_every_card_name_and_id_reads_back_to_its_card(pool: CardPool) -> None:
    for card in pool.cards.values():
        assert parse_deck_text(card.name) == {card.id: 1}, card.id
        assert parse_deck_text(f"2x {card.id}") == {card.id: 2}, card.id


@pytest.mark.rule("homm4:setup")
def test_deck_text_round_trips_every_ready_made_deck(pool: CardPool) -> None:
    for deck in pool.decks.values():
        text = deck_text(deck.cards)
        assert parse_deck_text(text) == deck.cards
    first = deck_text(pool.decks["deck_asylum"].cards).splitlines()[:3]
    assert first == ["2x Asylum", "1x Ashkara", "1x Kestrel"]
