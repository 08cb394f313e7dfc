"""The Errata as the engine applies them: "Arsenal Equipment" reads as Artifact, action
Numbers are die rolls, and the tournament deck size (homm4:errata). Cerberus 2 / Hydra 3,
Titans and the Gem Mine, and the University are data checks in test_data.py."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInput
from engine.homm4.cards import CardType, errata_text, load_card_pool, parse_cards
from engine.homm4.decks import card_type_word, deck_size_limits, parse_deck_text, validate_deck
from tests.homm4.adventure_helpers import new_game


@pytest.mark.rule("homm4:errata")
def test_arsenal_equipment_is_read_as_artifact_in_a_deck_list() -> None:
    assert card_type_word("Arsenal Equipment") is CardType.ARTIFACT
    assert card_type_word("artifacts") is CardType.ARTIFACT
    text = "Units (4):\n3x Orc\nBandit\nArsenal Equipment:\n2x Spyglass\nArtifact: Ring of Fire"
    assert parse_deck_text(text) == {"orc": 3, "bandit": 1, "spyglass": 2, "ring_of_fire": 1}
    assert parse_deck_text("Arsenal Equipment: Crown of Command") == {"crown_of_command": 1}
    with pytest.raises(InvalidInput, match="Orc is a Unit card, not an Artifact"):
        parse_deck_text("Arsenal Equipment\nOrc")


@pytest.mark.rule("homm4:errata")
def test_cards_that_say_draw_for_an_action_number_roll_the_die() -> None:
    assert errata_text("Draw a card to get an action Number.") == "roll the die."
    assert errata_text("draw one card for the action number, then attack") == (
        "roll the die, then attack"
    )
    assert errata_text("Draw 2 cards in the Income Phase.") == "Draw 2 cards in the Income Phase."
    pool = parse_cards(
        {
            "cards": [
                {
                    "type": "spell",
                    "id": "old_print",
                    "name": "Old Print",
                    "school": "chaos",
                    "level": 1,
                    "mana": 2,
                    "effect": "attack",
                    "target": "one_enemy",
                    "power": 2,
                    "text": "Draw a card to get an action Number and add it to 2.",
                }
            ]
        }
    )
    assert pool.get("old_print").text == "roll the die and add it to 2."
    assert not any("action number" in c.text.lower() for c in load_card_pool().cards.values())


@pytest.mark.rule("homm4:errata")
def test_tournament_decks_hold_60_cards_or_10_per_section() -> None:
    assert deck_size_limits(4, "tournament-60") == (60, 60)
    assert deck_size_limits(5, "tournament-sections") == (50, 50)
    assert deck_size_limits(5) == (40, 50)
    haven = dict(load_card_pool().decks["deck_haven"].cards)  # 40 cards
    assert validate_deck(haven, 4, deck_size="tournament-sections") == []
    assert validate_deck(haven, 4, deck_size="tournament-60") == [
        "The deck has 40 cards; a tournament deck here holds exactly 60."
    ]
    with pytest.raises(InvalidInput, match="exactly 60"):
        new_game(2, 1, deck_size="tournament-60", decks=[{"deck": "deck_haven"}] * 2)
    with pytest.raises(InvalidInput, match="exactly 50"):
        new_game(
            2, 1, deck_size="tournament-sections", underground=1, decks=[{"deck": "deck_haven"}] * 2
        )
    assert (
        new_game(2, 1, deck_size="tournament-sections").options.deck_size == "tournament-sections"
    )
