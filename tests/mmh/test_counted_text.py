"""Card texts count their nouns: "1 luck marker", "2 luck markers", "+1 movement point",
never "marker(s)" (generated from the effects, mmh:other-game-rules.using-card-effects)."""

from __future__ import annotations

import pytest

from engine.mmh.text import card_text


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_card_texts_count_their_nouns() -> None:
    assert card_text("lucky_find")[1:] == [
        "1. 2 luck markers",
        "2. 2 gold",
        "3. an artefact card (draw 3, keep 1)",
        "4. 2 resources",
    ]
    assert card_text("amulet_of_fortune")[1] == "Before the Battle: take 1 luck marker"
    assert card_text("windrider_boots")[1] == "+1 movement point when activated"
    assert card_text("haven-might-8")[1] == "Lose 1 creature fewer when retreating"
    assert card_text("week_of_plenty")[1] == "Gather Resources gives 1 more resource."
    assert card_text("necropolis-magic-5")[1] == (
        "In Battle: attack with 2 dice that hit on the hero's Magic"
    )
