"""The Purchase Phase: buying Units and Heroes, paying with the Hand, upgrading Towns,
Artifacts, Skills and Spells."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, WrongPhase
from engine.homm4 import board, payment
from engine.homm4.state import Homm4State, Site
from tests.homm4.adventure_helpers import (
    add_card,
    apply,
    army_of,
    clear_hand,
    give_object,
    give_town,
    started,
    to_hand,
    to_risk,
)


def _purchase(town_card: str = "asylum") -> tuple[Homm4State, Site, str]:
    """Seat 0 in its Purchase Phase with an empty Hand and Risk Stack and one Town."""
    state = started(seed=11, decks=[{"deck": "deck_asylum"}, {"deck": "deck_haven"}])
    clear_hand(state, 0)
    site = give_town(state, 0, 0, card_id=None if town_card == "asylum" else town_card)
    state.phase = "purchase"
    state.active = 0
    return state, site, board.label(state, site.hex)


@pytest.mark.rule("homm4:purchase-phase")
def test_buy_a_unit_from_hand_paying_its_cost_from_hand() -> None:
    state, site, town = _purchase()
    orc = to_hand(state, 0, "orc")
    coin = to_hand(state, 0, "magic_arrow")
    state, events = apply(state, 0, {"type": "buy", "card": orc, "town": town, "pay": [coin]})
    assert state.sites[site.id].garrison == [orc], "placed under the Town card"
    player = state.players_state[0]
    assert player.hand == [] and player.discard[-1] == coin
    assert events[0].kind == "pay" and events[-1].data["cost"] == 1


@pytest.mark.rule("homm4:purchase-phase")
def test_a_bought_card_cannot_pay_for_itself_and_risk_cards_never_pay() -> None:
    state, _, town = _purchase()
    medusa = to_hand(state, 0, "orc")
    with pytest.raises(IllegalMove, match="cannot pay for itself"):
        apply(state, 0, {"type": "buy", "card": medusa, "town": town, "pay": [medusa]})
    with pytest.raises(IllegalMove, match="Risk Stack cards never pay"):
        apply(state, 0, {"type": "buy", "card": medusa, "town": town})
    risk_coin = to_risk(state, 0, "magic_arrow")
    with pytest.raises(IllegalMove, match="only Hand cards pay"):
        apply(state, 0, {"type": "buy", "card": medusa, "town": town, "pay": [risk_coin]})
    to_hand(state, 0, "bloodlust")
    bought_from_risk = to_risk(state, 0, "bandit")
    state, _ = apply(state, 0, {"type": "buy", "card": bought_from_risk, "town": town})
    assert bought_from_risk in state.sites[0].garrison or any(
        bought_from_risk in s.garrison for s in state.sites
    )
    assert risk_coin in state.players_state[0].risk, "the Risk Stack card did not pay"


@pytest.mark.rule("homm4:purchase-phase")
def test_units_by_town_level_are_cumulative() -> None:
    state, site, town = _purchase()
    for _ in range(6):
        to_hand(state, 0, "magic_arrow")
    medusa = to_risk(state, 0, "medusa")
    with pytest.raises(IllegalMove, match="does not sell card #") as refused:
        apply(state, 0, {"type": "buy", "card": medusa, "town": town})
    assert "Medusa" not in str(refused.value), "error messages never name a hidden card"
    state, events = apply(state, 0, {"type": "upgrade_town", "town": town})
    assert state.sites[site.id].level == 2
    assert events[-1].data["cost"] == 2, "Level 1 -> 2 costs 2 cards"
    assert len(state.players_state[0].hand) == 4
    state, _ = apply(state, 0, {"type": "buy", "card": medusa, "town": town})
    assert len(state.players_state[0].hand) == 2, "a Medusa costs 2"
    bandit = to_risk(state, 0, "bandit")
    state, _ = apply(state, 0, {"type": "buy", "card": bandit, "town": town})
    assert state.sites[site.id].garrison == [medusa, bandit], "Level 1 Units stay on sale"


@pytest.mark.rule("homm4:purchase-phase")
def test_town_upgrade_costs_level_plus_one_once_per_turn_up_to_four() -> None:
    state, site, town = _purchase()
    for _ in range(12):
        to_hand(state, 0, "magic_arrow")
    state, _ = apply(state, 0, {"type": "upgrade_town", "town": town})
    with pytest.raises(IllegalMove, match="once per turn"):
        apply(state, 0, {"type": "upgrade_town", "town": town})
    state.turn += 1
    state, events = apply(state, 0, {"type": "upgrade_town", "town": town})
    assert events[-1].data == {"seat": 0, "town": town, "level": 3, "cost": 3}, (
        "Level 2 -> 3 costs 3 cards"
    )
    assert len(state.players_state[0].hand) == 12 - 2 - 3
    state.turn += 1
    state, events = apply(state, 0, {"type": "upgrade_town", "town": town})
    assert events[-1].data["cost"] == 4 and state.sites[site.id].level == 4
    state.turn += 1
    with pytest.raises(IllegalMove, match="highest level, 4"):
        apply(state, 0, {"type": "upgrade_town", "town": town})


@pytest.mark.rule("homm4:purchase-phase")
def test_x_cost_units_cannot_be_bought_and_other_cards_are_refused() -> None:
    state, _, town = _purchase()
    to_hand(state, 0, "magic_arrow")
    peasant = to_risk(state, 0, "peasant")
    with pytest.raises(IllegalMove, match="X cost"):
        apply(state, 0, {"type": "buy", "card": peasant, "town": town})
    spell = to_risk(state, 0, "fireball")
    with pytest.raises(IllegalMove, match="not a Unit or Hero"):
        apply(state, 0, {"type": "buy", "card": spell, "town": town})


@pytest.mark.rule("homm4:purchase-phase")
def test_requires_object_units_need_the_object() -> None:
    state, site, town = _purchase()
    site.level = 4
    for _ in range(5):
        to_hand(state, 0, "magic_arrow")
    hydra = to_risk(state, 0, "hydra")
    town_card = state.card_defs[site.card]  # type: ignore[index]
    assert town_card == "asylum"
    with pytest.raises(IllegalMove):
        apply(state, 0, {"type": "buy", "card": hydra, "town": town})
    give_object(state, 0, "alchemists_lab")
    state.sites[site.id].garrison.clear()
    from engine.homm4 import purchase as purchase_rules

    assert purchase_rules.unit_problem(state, 0, purchase_rules.zones.card(state, hydra)) is None  # type: ignore[arg-type]


@pytest.mark.rule("homm4:purchase-phase")
def test_bought_unit_may_join_an_army_standing_in_the_town() -> None:
    state, site, town = _purchase()
    army = army_of(state, 0)
    army.hex = site.hex
    orc = to_hand(state, 0, "orc")
    to_hand(state, 0, "magic_arrow")
    state, _events = apply(state, 0, {"type": "buy", "card": orc, "town": town, "into": army.id})
    assert orc in army_of(state, 0).cards and state.sites[site.id].garrison == []
    assert army_of(state, 0).cards[0] == army.cards[0], "the Hero stays on top"
    other = army_of(state, 1)
    bandit = to_hand(state, 0, "bandit")
    to_hand(state, 0, "magic_arrow")
    with pytest.raises(IllegalMove, match="not one of your Armies"):
        apply(state, 0, {"type": "buy", "card": bandit, "town": town, "into": other.id})


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.buying-heroes")
def test_heroes_are_bought_only_in_towns_of_their_faction() -> None:
    state, site, town = _purchase()
    for _ in range(6):
        to_hand(state, 0, "magic_arrow")
    knight = to_risk(state, 0, "sir_aldric")
    with pytest.raises(IllegalMove, match="own faction"):
        apply(state, 0, {"type": "buy", "card": knight, "town": town})
    rogue = to_risk(state, 0, "ashkara")
    state, events = apply(state, 0, {"type": "buy", "card": rogue, "town": town})
    assert rogue in state.sites[site.id].garrison
    assert events[-1].data["cost"] == 3
    assert len(state.players_state[0].hand) == 3
    assert rogue in state.inventories


@pytest.mark.rule("homm4:purchase-phase")
def test_artifacts_of_a_category_on_sale_never_treasure() -> None:
    state, site, _town = _purchase()
    army = army_of(state, 0)
    army.hex = site.hex
    hero = army.cards[0]
    for _ in range(4):
        to_hand(state, 0, "magic_arrow")
    ring = to_risk(state, 0, "ring_of_fire")
    with pytest.raises(IllegalMove, match="does not sell chaos"):
        apply(state, 0, {"type": "buy_artifact", "card": ring, "hero": hero})
    state.sites[site.id].level = 2
    state, _ = apply(state, 0, {"type": "buy_artifact", "card": ring, "hero": hero})
    assert ring in state.inventories[hero].artifacts
    assert len(state.players_state[0].hand) == 2, "the Ring of Fire costs 2"
    treasure = to_risk(state, 0, "crown_of_command")
    with pytest.raises(IllegalMove, match="never sold"):
        apply(state, 0, {"type": "buy_artifact", "card": treasure, "hero": hero})
    shield = to_risk(state, 0, "shield_of_faith")
    with pytest.raises(IllegalMove, match="does not sell life"):
        apply(state, 0, {"type": "buy_artifact", "card": shield, "hero": hero})


@pytest.mark.rule("homm4:errata")
def test_university_sells_basic_skills_for_two_cards() -> None:
    state = started(seed=11, decks=[{"deck": "deck_haven"}, {"deck": "deck_asylum"}])
    clear_hand(state, 0)
    site = give_town(state, 0, 0)
    state.phase, state.active = "purchase", 0
    army = army_of(state, 0)
    army.hex = site.hex
    hero = army.cards[0]
    for _ in range(3):
        to_hand(state, 0, "magic_arrow")
    combat = to_risk(state, 0, "combat_basic")
    with pytest.raises(IllegalMove, match="sells no Skills"):
        apply(state, 0, {"type": "buy_skill", "card": combat, "hero": hero})
    state.sites[site.id].level = 4
    state, _events = apply(state, 0, {"type": "buy_skill", "card": combat, "hero": hero})
    assert combat in state.inventories[hero].skills
    assert len(state.players_state[0].hand) == 1, "a University Skill costs 2 cards"
    scouting = to_risk(state, 0, "scouting_basic")
    with pytest.raises(IllegalMove, match=r"sells"):
        apply(state, 0, {"type": "buy_skill", "card": scouting, "hero": hero})


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.learning-spells")
def test_learning_spells_is_free_in_a_town_that_teaches_them() -> None:
    state, site, _ = _purchase()
    army = army_of(state, 0)
    army.hex = site.hex
    hero = army.cards[0]
    skill = add_card(state, 0, "chaos_magic_basic")
    state.inventories[hero].skills.append(skill)
    arrow = to_risk(state, 0, "magic_arrow")
    bolt = to_risk(state, 0, "fire_bolt")
    state, events = apply(state, 0, {"type": "learn_spell", "card": arrow, "hero": hero})
    assert arrow in state.inventories[hero].spells
    assert state.players_state[0].discard[-1:] != [arrow] and events[0].kind != "pay"
    with pytest.raises(IllegalMove, match="does not teach Level 2"):
        apply(state, 0, {"type": "learn_spell", "card": bolt, "hero": hero})
    state.sites[site.id].level = 2
    from engine.homm4 import heroes

    if heroes.spell_level(state, hero, heroes.School.CHAOS) >= 2:
        state, _ = apply(state, 0, {"type": "learn_spell", "card": bolt, "hero": hero})
        assert bolt in state.inventories[hero].spells
    else:
        with pytest.raises(IllegalMove, match="Level 2"):
            apply(state, 0, {"type": "learn_spell", "card": bolt, "hero": hero})
    state.phase = "movement"
    arrow2 = to_risk(state, 0, "magic_arrow")
    state, _ = apply(state, 0, {"type": "learn_spell", "card": arrow2, "hero": hero})
    assert arrow2 in state.inventories[hero].spells, (
        "Spells may be learned in the Movement Phase too"
    )


@pytest.mark.rule("homm4:purchase-phase")
def test_default_payment_rule_spends_least_useful_cards_first() -> None:
    state, _, _ = _purchase()
    unit_own = to_hand(state, 0, "orc")
    town_card = to_hand(state, 0, "haven")
    spell = to_hand(state, 0, "fireball")
    foreign = to_hand(state, 0, "squire")
    hero = to_hand(state, 0, "ashkara")
    order = payment.auto_pay(state, 0, 5)
    assert order == [spell, foreign, unit_own, hero, town_card]
    assert payment.auto_pay(state, 0, 2, exclude=[spell]) == [foreign, unit_own]


@pytest.mark.rule("homm4:purchase-phase")
def test_purchase_commands_only_in_the_purchase_phase() -> None:
    state, _, town = _purchase()
    state.phase = "movement"
    orc = to_hand(state, 0, "orc")
    to_hand(state, 0, "magic_arrow")
    with pytest.raises(WrongPhase):
        apply(state, 0, {"type": "buy", "card": orc, "town": town})
    state.phase = "purchase"
    state, _ = apply(state, 0, {"type": "end_purchase"})
    assert state.phase == "movement"
    assert army_of(state, 0).mp2 == 2 * 5, "the Hero on top gives 5 Movement Points"
