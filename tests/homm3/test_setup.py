"""Setting up Skirmish and Adventure games (homm3bf:battlefield-setup, homm3bf:skirmish-mode)."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInput
from engine.homm3.options import Homm3Options
from engine.homm3.rules import hand_limit
from tests.homm3.helpers import RULES, answer_choices, new


@pytest.mark.rule("homm3bf:battlefield-setup.skirmish-mode")
def test_first_player_rolls_highest_on_two_resource_dice_and_holds_the_token() -> None:
    state, events = RULES.new_game(Homm3Options(), 2, 5)
    rolls = [e for e in events if e.kind == "die_roll" and e.data["purpose"] == "first_player"]
    assert len(rolls) >= 4 and all(e.data["sides"] == 6 for e in rolls)
    first = next(e for e in events if e.kind == "first_player")
    totals = first.data["totals"]
    assert totals[state.first] > totals[1 - state.first]


@pytest.mark.rule("homm3bf:skirmish-mode.short")
def test_short_template() -> None:
    state = answer_choices(new(heroes=("catherine", "deemer"), size="short"))
    cat, dee = state.player(0), state.player(1)
    assert cat.level == 3 and hand_limit(cat) == 5
    assert [u.unit for u in cat.army] == [
        "halberdiers",
        "marksmen",
        "griffins",
        "crusaders",
        "zealots",
    ]
    assert not any(u.pack for u in cat.army)
    # 9 starting + 3 drawn Abilities less 1 + 2 Artifacts less 1 + 1 Spell (Might) = 13
    assert len(cat.deck) + len(cat.hand) == 13
    # Deemer is a Magic Hero: 2 Spells
    assert len(dee.deck) + len(dee.hand) == 14
    assert len(cat.removed) == 2


@pytest.mark.rule("homm3bf:skirmish-mode.medium")
def test_medium_template() -> None:
    state = answer_choices(new(heroes=("catherine", "deemer"), size="medium"))
    cat = state.player(0)
    assert cat.level == 5 and hand_limit(cat) == 6
    assert len(cat.army) == 5 and all(u.pack for u in cat.army)
    cards = [state.cards[c] for c in cat.deck + cat.hand]
    assert "catherine_1" in cards and "catherine_4" in cards and "catherine_6" not in cards
    # 9 + IV Specialty + 4-1 Abilities + 3-1 Artifacts + 2 Spells
    assert len(cards) == 9 + 1 + 3 + 2 + 2


@pytest.mark.rule("homm3bf:skirmish-mode.large")
def test_large_template() -> None:
    state = answer_choices(new(heroes=("catherine", "deemer"), size="large"))
    dee = state.player(1)
    assert dee.level == 7 and hand_limit(dee) == 7
    assert len(dee.army) == 7 and all(u.pack for u in dee.army)
    cards = [state.cards[c] for c in dee.deck + dee.hand]
    assert {"deemer_1", "deemer_4", "deemer_6"} <= set(cards)
    # 9 + 2 Specialties + 6-2 Abilities + 4-1 Artifacts + 5 Spells (Magic Hero)
    assert len(cards) == 9 + 2 + 4 + 3 + 5


@pytest.mark.rule("homm3bf:battlefield-combat.draw-cards")
def test_combat_starts_with_hands_drawn_to_the_hand_limit() -> None:
    state = answer_choices(new(heroes=("catherine", "deemer"), size="short"))
    assert state.phase == "combat"
    assert len(state.player(0).hand) == 5 and len(state.player(1).hand) == 5


@pytest.mark.rule("homm3bf:battlefield-setup.adventure-mode")
def test_adventure_starting_resources_and_income() -> None:
    state = new(heroes=("catherine", "deemer"), mode="adventure")
    for player in state.seats:
        assert (player.resources.gold, player.resources.materials, player.resources.valuables) == (
            15,
            3,
            1,
        )
        assert (player.income.gold, player.income.materials, player.income.valuables) == (10, 0, 0)
        assert player.level == 1 and not player.army and not player.buildings
    assert state.rounds == 9


@pytest.mark.rule("homm3bf:adventure-mode")
@pytest.mark.parametrize(("size", "rounds"), [("short", 9), ("medium", 13), ("large", 16)])
def test_adventure_length(size: str, rounds: int) -> None:
    assert new(mode="adventure", size=size).rounds == rounds


def test_two_players_only_and_known_heroes() -> None:
    with pytest.raises(InvalidInput):
        RULES.new_game(Homm3Options(), 3, 1)
    with pytest.raises(InvalidInput):
        RULES.new_game(Homm3Options(heroes=("catherine", "nobody")), 2, 1)


@pytest.mark.rule("homm3bf:battlefield-setup.morale-deck")
@pytest.mark.rule("homm3bf:skirmish-mode")
def test_skirmish_skips_the_adventure_and_uses_both_morale_decks() -> None:
    """Both modes use the two Morale decks (10 Positive, 10 Negative, shuffled apart); a
    Skirmish has no Adventure deck and goes straight to the Combat once the decks are
    ready."""
    state, events = RULES.new_game(Homm3Options(heroes=("catherine", "deemer")), 2, 3)
    shuffled = [e.data["what"] for e in events if e.kind == "shuffle"]
    assert "The Positive Morale deck" in shuffled and "The Negative Morale deck" in shuffled
    assert len(state.positive_deck) == 10 and len(state.negative_deck) == 10
    assert state.adventure_deck == [] and state.rounds == 0
    state = answer_choices(state)
    assert state.phase == "combat" and state.round == 0
