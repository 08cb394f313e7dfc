"""Advanced rules between players and the Game Variants: Buying Heroes of Other Factions,
Diplomacy, Resource Trading, Resurrecting Fallen Heroes, Team Play, Different Starting
Forces, Pre-developed Heroes and Campaigns (homm4:advanced-rules.*, homm4:game-variants.*)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from engine.core.errors import IllegalMove, InvalidInput, WrongPhase
from engine.homm4 import adventure, board, fallen, heroes, movement, variants, zones
from engine.homm4.options import Homm4Options
from engine.homm4.state import Homm4State, Site
from tests.homm4.adventure_helpers import (
    R,
    add_card,
    apply,
    army_of,
    clear_board,
    clear_hand,
    decline_all_sites,
    develop_by_default,
    give_object,
    give_town,
    new_game,
    place_army,
    quiet_hex,
    started,
    to_hand,
    to_risk,
)

DECKS = [{"deck": "deck_haven"}, {"deck": "deck_asylum"}]


def _purchase(card_id: str = "haven", **options: Any) -> tuple[Homm4State, Site, str]:
    """Seat 0 in its Purchase Phase, empty Hand, one Town of ``card_id``."""
    state = started(seed=11, decks=DECKS, **options)
    clear_hand(state, 0)
    site = give_town(state, 0, 0, card_id=card_id)
    state.phase, state.active = "purchase", 0
    return state, site, board.label(state, site.hex)


def _coins(state: Homm4State, seat: int, count: int) -> list[int]:
    return [to_hand(state, seat, "magic_arrow") for _ in range(count)]


# ------------------------------------------------------ Buying Heroes of Other Factions
@pytest.mark.rule("homm4:advanced-rules.buying-heroes-of-other-factions")
def test_a_town_sells_heroes_of_its_other_spell_schools_for_4_cards() -> None:
    state, site, town = _purchase(other_faction_heroes=True)
    _coins(state, 0, 8)
    wizard = to_risk(state, 0, "magister_orrin")  # Order: Haven teaches Order
    state, events = apply(state, 0, {"type": "buy", "card": wizard, "town": town})
    assert wizard in state.sites[site.id].garrison
    assert events[-1].data["cost"] == 4 and len(state.players_state[0].hand) == 4
    knight = to_risk(state, 0, "mother_ysolde")  # Haven's own faction: 3
    state, events = apply(state, 0, {"type": "buy", "card": knight, "town": town})
    assert events[-1].data["cost"] == 3 and len(state.players_state[0].hand) == 1
    rogue = to_risk(state, 0, "ashkara")  # Chaos: not taught in Haven
    _coins(state, 0, 4)
    with pytest.raises(IllegalMove, match="Spell schools it teaches"):
        apply(state, 0, {"type": "buy", "card": rogue, "town": town})


@pytest.mark.rule("homm4:advanced-rules.buying-heroes-of-other-factions")
def test_the_stronghold_sells_only_might_heroes_and_the_basic_rule_only_its_own() -> None:
    state, _, town = _purchase("stronghold", other_faction_heroes=True)
    _coins(state, 0, 8)
    for hero in ("sir_aldric", "ashkara", "elowen"):
        with pytest.raises(IllegalMove):
            apply(state, 0, {"type": "buy", "card": to_risk(state, 0, hero), "town": town})
    barbarian = to_risk(state, 0, "grimjaw")
    state, events = apply(state, 0, {"type": "buy", "card": barbarian, "town": town})
    assert events[-1].data["cost"] == 3
    state, _, town = _purchase()
    _coins(state, 0, 8)
    with pytest.raises(IllegalMove, match="own faction"):
        apply(state, 0, {"type": "buy", "card": to_risk(state, 0, "magister_orrin"), "town": town})


# ---------------------------------------------------------------------- Diplomacy
@pytest.mark.rule("homm4:advanced-rules.diplomacy")
def test_paying_three_cards_discards_three_from_hand_and_the_other_draws_three() -> None:
    state, _, _ = _purchase(diplomacy=True)
    coins = _coins(state, 0, 3)
    to_risk(state, 0, "orc")
    before = len(state.players_state[1].hand)
    state, events = apply(state, 0, {"type": "pay_player", "to": 1, "cards": 3})
    assert state.players_state[0].hand == []
    assert set(coins) <= set(state.players_state[0].discard)
    assert len(state.players_state[0].risk) == 1, "never the Risk Stack"
    assert len(state.players_state[1].hand) == before + 3
    assert [e.kind for e in events] == ["pay", "pay_player", "draw"]
    with pytest.raises(IllegalMove, match="only Hand cards pay"):
        apply(state, 0, {"type": "pay_player", "to": 1, "cards": 1})


@pytest.mark.rule("homm4:advanced-rules.diplomacy")
def test_paying_needs_the_rule_and_another_seat() -> None:
    state, _, _ = _purchase()
    _coins(state, 0, 2)
    with pytest.raises(WrongPhase, match="cannot be done now"):
        apply(state, 0, {"type": "pay_player", "to": 1, "cards": 1})
    assert "pay_player" not in R.pending(state)[0].commands
    state.options = Homm4Options(diplomacy=True)
    with pytest.raises(IllegalMove, match="another player's seat"):
        apply(state, 0, {"type": "pay_player", "to": 0, "cards": 1})
    assert "pay_player" in R.pending(state)[0].commands


@pytest.mark.rule("homm4:advanced-rules.diplomacy")
def test_an_army_changes_hands_only_at_the_start_of_its_turn() -> None:
    state, _, _ = _purchase(diplomacy=True)
    army = army_of(state, 0)
    state, events = apply(state, 0, {"type": "give_army", "army": army.id, "to": 1})
    given = zones.army(state, army.id)
    assert given.owner == 1 and given.done and events[0].kind == "give_army"
    state2 = started(seed=11, decks=DECKS, diplomacy=True)
    decline_all_sites(state2)
    state2.phase, state2.active = "movement", 0
    mine = army_of(state2, 0)
    mine.mp2 = 10
    target = next(
        h
        for h in movement.reachable(state2, mine)
        if h != mine.hex
        and zones.site_at(state2, h) is None
        and movement.encounter(state2, 0, h) is None
    )
    state2, _ = apply(
        state2, 0, {"type": "move", "army": mine.id, "to": board.label(state2, target)}
    )
    with pytest.raises(IllegalMove, match="start of its turn"):
        apply(state2, 0, {"type": "give_army", "army": mine.id, "to": 1})


# ---------------------------------------------------------------- Resource Trading
@pytest.mark.rule("homm4:advanced-rules.resource-trading")
def test_a_sold_object_gives_its_bonus_to_the_buyer_until_the_owners_next_turn_ends() -> None:
    state, _, _ = _purchase(resource_trading=True)
    lab = give_object(state, 0, "alchemists_lab")
    assert adventure.income_breakdown(state, 0)["objects"] == 1
    state, events = apply(
        state, 0, {"type": "sell_object", "site": board.label(state, lab.hex), "to": 1}
    )
    assert events[0].kind == "sell_object"
    assert adventure.income_breakdown(state, 0)["objects"] == 0
    assert adventure.income_breakdown(state, 1)["objects"] == 1
    # the sale survives the end of this turn and the buyer's turn...
    state = _pass_turn(state, 0)
    assert state.active == 1 and state.sites[lab.id].sold_to == 1
    state = _pass_turn(state, 1)
    assert state.active == 0 and state.sites[lab.id].sold_to == 1
    # ...and ends with the owner's next turn
    state = _pass_turn(state, 0)
    assert state.sites[lab.id].sold_to is None
    assert adventure.income_breakdown(state, 0)["objects"] == 1


def _pass_turn(state: Homm4State, seat: int) -> Homm4State:
    for _ in range(50):
        if state.active != seat or state.phase not in ("purchase", "movement", "closing"):
            return state
        decision = R.pending(state)[0]
        state, _ = apply(state, decision.seat, R.default_command(state, decision.seat))
    raise AssertionError("the turn did not pass")


@pytest.mark.rule("homm4:advanced-rules.resource-trading")
def test_a_sold_gem_mine_lets_the_buyer_buy_titans() -> None:
    state, _, _ = _purchase(resource_trading=True)
    mine = give_object(state, 1, "gem_mine")
    from engine.homm4.purchase import controls_object

    assert not controls_object(state, 0, "gem_mine")
    mine.sold_to, mine.sold_turn = 0, state.turn
    assert controls_object(state, 0, "gem_mine") and not controls_object(state, 1, "gem_mine")
    with pytest.raises(IllegalMove, match="only Object cards"):
        apply(state, 0, {"type": "sell_object", "site": board.label(state, mine.hex), "to": 1})


# ----------------------------------------------------- Resurrecting Fallen Heroes
def _battle_scene(**options: Any) -> tuple[Homm4State, int]:
    """Seat 0's Hero lies dead after a battle on a quiet hex (the outcome decides where)."""
    state = started(seed=31, decks=DECKS, resurrection=True, **options)
    clear_board(state)
    decline_all_sites(state)
    state.phase, state.active = "movement", 0
    return state, 0


def _dead_hero(state: Homm4State, winner: int, where: Any) -> tuple[int, Any]:
    hero = add_card(state, 0, "sir_aldric")
    heroes.ensure_inventory(state, hero)
    axe = add_card(state, 0, "dragonflame_sword")
    state.inventories[hero].artifacts[axe] = ["right_hand"]
    squire = add_card(state, 0, "squire")
    army = place_army(state, 0, where, [hero, squire])
    enemy = place_army(state, 1, where, [add_card(state, 1, "orc")])
    from engine.homm4.battle_core import kill_card
    from engine.homm4.state import Battle

    state.battle = Battle(
        hex=where,
        attacker=0,
        defender=1,
        defender_kind="army",
        attacker_armies=[army.id],
        defender_armies=[enemy.id],
    )
    kill_card(state, hero)
    if winner == 1:
        kill_card(state, squire)
    else:
        kill_card(state, enemy.cards[0])
    events = fallen.after_battle(state, winner)
    state.battle = None
    state.armies = [a for a in state.armies if a.cards]
    return hero, (army, axe, events)


@pytest.mark.rule("homm4:advanced-rules.resurrecting-fallen-heroes")
def test_a_hero_whose_army_wins_is_carried_and_rises_in_a_friendly_town() -> None:
    state, _ = _battle_scene()
    town = give_town(state, 0)
    where = quiet_hex(state)
    hero, (army, axe, events) = _dead_hero(state, 0, where)
    assert [e.kind for e in events] == ["hero_carried"]
    assert state.fallen_heroes[0].army == army.id and hero not in army.cards
    assert hero not in state.players_state[0].discard and axe in state.inventories[hero].artifacts
    from engine.homm4.audit import zone_problems

    assert zone_problems(state) == []
    army.hex = town.hex
    events = fallen.settle(state)
    assert [e.kind for e in events] == ["hero_resurrected"]
    assert army.cards[0] == hero and state.fallen_heroes == []
    assert axe in state.inventories[hero].artifacts, "as if he had never died"


@pytest.mark.rule("homm4:advanced-rules.resurrecting-fallen-heroes")
def test_a_hero_whose_army_loses_lies_on_the_board_to_be_looted_or_picked_up() -> None:
    state, _ = _battle_scene()
    where = quiet_hex(state)
    hero, (_, axe, events) = _dead_hero(state, 1, where)
    assert [e.kind for e in events] == ["hero_fallen"]
    body = state.fallen_heroes[0]
    assert body.army is None and body.hex == where and body.token >= 1
    looter = place_army(state, 1, where, [add_card(state, 1, "ashkara")])
    heroes.ensure_inventory(state, looter.cards[0])
    assert fallen.loot_options(state, 1) and not fallen.loot_options(state, 0)
    state.active = 1
    state, events = apply(state, 1, {"type": "loot_hero", "army": looter.id, "hero": hero})
    assert axe in state.inventories[looter.cards[0]].artifacts
    assert state.inventories[hero].artifacts == {}
    # a friendly Army picks the body up, Artifacts gone
    friend = place_army(state, 0, where, [add_card(state, 0, "squire")])
    events = fallen.settle(state)
    assert [e.kind for e in events] == ["hero_carried"] and state.fallen_heroes[0].army == friend.id


@pytest.mark.rule("homm4:advanced-rules.resurrecting-fallen-heroes")
def test_without_the_rule_a_dead_hero_is_discarded_with_its_inventory() -> None:
    state, _ = _battle_scene()
    state.options = Homm4Options()
    where = quiet_hex(state)
    hero, (_, axe, events) = _dead_hero(state, 1, where)
    assert events == [] and state.fallen_heroes == []
    assert hero in state.players_state[0].discard and axe in state.players_state[0].discard


# ----------------------------------------------------------------------- Team Play
def _teams(seed: int = 41) -> Homm4State:
    """A 4-player Team Play game (Red+Green vs Blue+Yellow); every seat keeps one small
    Army far away so nobody is out."""
    state = started(
        players=4,
        seed=seed,
        decks=[{"deck": "deck_haven"}, {"deck": "deck_asylum"}] * 2,
        teams=[[0, 2], [1, 3]],
    )
    clear_board(state)
    decline_all_sites(state)
    state.phase, state.active = "movement", 0
    corners = [h for h in reversed(board.board_of(state).order) if board.step_cost2(state, h)]
    for seat in range(4):
        place_army(state, seat, corners[3 * seat], [add_card(state, seat, "peasant")])
    return state


@pytest.mark.rule("homm4:game-variants.team-play")
def test_teams_must_be_equal_and_hold_every_seat() -> None:
    with pytest.raises(ValidationError, match="equal size"):
        Homm4Options(teams=((0, 1), (2, 3, 4)))
    with pytest.raises(ValidationError, match="one team only"):
        Homm4Options(teams=((0, 1), (1, 2)))
    with pytest.raises(ValidationError, match="at least 2 players"):
        Homm4Options(teams=((0,), (1,)))
    with pytest.raises(InvalidInput, match="every one of the 6 seats"):
        new_game(6, 1, teams=[[0, 1], [2, 3]])
    assert Homm4Options(teams=((0, 2), (1, 3))).allies(0, 2)
    assert not Homm4Options(teams=((0, 2), (1, 3))).allies(0, 1)


@pytest.mark.rule("homm4:game-variants.team-play")
def test_allies_do_not_fight_and_may_share_a_hex() -> None:
    state = _teams()
    where = quiet_hex(state)
    mine = place_army(state, 0, where, [add_card(state, 0, "squire")], mp2=10)
    ally = place_army(state, 2, (where[0] + 1, where[1]), [add_card(state, 2, "bandit")])
    assert movement.encounter(state, 0, ally.hex) is None
    assert ally.hex not in movement.battle_hexes(state, 0)
    state, _ = apply(
        state, 0, {"type": "move", "army": mine.id, "to": board.label(state, ally.hex)}
    )
    assert state.battle is None and zones.army(state, mine.id).hex == ally.hex
    enemy = place_army(state, 1, (where[0] - 1, where[1]), [add_card(state, 1, "orc")])
    assert movement.encounter(state, 0, enemy.hex) is not None


@pytest.mark.rule("homm4:game-variants.team-play")
def test_buying_in_an_allys_town_pays_from_your_own_cards_into_your_army() -> None:
    state = _teams()
    town = give_town(state, 2, 0, card_id="asylum")
    army = place_army(state, 0, town.hex, [add_card(state, 0, "sir_aldric")])
    heroes.ensure_inventory(state, army.cards[0])
    state.phase = "purchase"
    clear_hand(state, 0)
    coin = _coins(state, 0, 1)[0]
    bandit = to_risk(state, 0, "bandit")
    where = board.label(state, town.hex)
    with pytest.raises(IllegalMove, match="into one of your Armies"):
        apply(state, 0, {"type": "buy", "card": bandit, "town": where})
    state, _ = apply(state, 0, {"type": "buy", "card": bandit, "town": where, "into": army.id})
    assert bandit in zones.army(state, army.id).cards and coin in state.players_state[0].discard
    assert state.sites[town.id].garrison == [] and state.sites[town.id].owner == 2
    with pytest.raises(IllegalMove, match="You control no Town"):
        apply(state, 0, {"type": "upgrade_town", "town": where})


@pytest.mark.rule("homm4:game-variants.team-play")
def test_allied_heroes_on_one_hex_trade_artifacts() -> None:
    state = _teams()
    where = quiet_hex(state)
    giver = place_army(state, 0, where, [add_card(state, 0, "sir_aldric")])
    taker = place_army(state, 2, where, [add_card(state, 2, "ashkara")])
    for army in (giver, taker):
        heroes.ensure_inventory(state, army.cards[0])
    sword = add_card(state, 0, "dragonflame_sword")
    state.inventories[giver.cards[0]].artifacts[sword] = ["right_hand"]
    state, _ = apply(
        state, 0, {"type": "transfer_artifact", "artifact": sword, "to_hero": taker.cards[0]}
    )
    assert sword in state.inventories[taker.cards[0]].artifacts


@pytest.mark.rule("homm4:game-variants.team-play")
def test_the_team_with_towns_or_armies_left_wins_together() -> None:
    state = _teams()
    state.armies = []
    for seat in (0, 2):
        place_army(state, seat, quiet_hex(state), [add_card(state, seat, "squire")])
    place_army(state, 1, quiet_hex(state), [add_card(state, 1, "orc")])
    assert adventure.check_eliminations(state)[0].kind == "eliminated"  # seat 3: nothing left
    assert state.phase != "over"
    state.armies = [a for a in state.armies if a.owner != 2]
    events = adventure.check_eliminations(state)
    assert state.phase != "over", "Red still stands for the team"
    state.armies = [a for a in state.armies if a.owner != 1]
    events = adventure.check_eliminations(state)
    assert events[-1].kind == "victory" and state.winners == [0, 2]
    assert R.result(state).winners == (0, 2)


# ------------------------------------------------------ Different Starting Forces
@pytest.mark.rule("homm4:game-variants.different-starting-forces")
def test_everyone_starts_with_6_4_2_1_units_and_two_heroes() -> None:
    state = new_game(2, 3, decks=DECKS, starting_forces={"units": [6, 4, 2, 1], "heroes": 2})
    for player in state.players_state:
        stack = player.starting_stack
        levels = sorted(
            zones.card(state, c).level  # type: ignore[union-attr]
            for c in stack
            if zones.is_unit(state, c)
        )
        assert levels == [1] * 6 + [2] * 4 + [3] * 2 + [4]
        assert sum(zones.is_hero(state, c) for c in stack) == 2
        assert zones.is_hero(state, stack[0]) and zones.is_hero(state, stack[1])


@pytest.mark.rule("homm4:game-variants.different-starting-forces")
def test_a_deck_that_cannot_field_the_agreed_forces_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Level 4"):
        new_game(2, 3, decks=DECKS, starting_forces={"units": [3, 2, 1, 3], "heroes": 1})
    with pytest.raises(InvalidInput, match="different Hero"):
        new_game(2, 3, decks=DECKS, starting_forces={"units": [3, 2, 1, 0], "heroes": 3})


# ---------------------------------------------------------- Pre-developed Heroes
@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_pre_developed_heroes_take_skills_spells_per_magic_level_and_artifacts() -> None:
    state = new_game(
        2,
        3,
        decks=DECKS,
        pre_developed={"primary": 1, "secondary": 1, "spells": True, "treasure": 1, "other": 1},
    )
    state = develop_by_default(state)
    for seat in (0, 1):
        hero = state.players_state[seat].starting_stack[0]
        inv = state.inventories[hero]
        kinds = [zones.card(state, c).secondary for c in inv.skills]  # type: ignore[union-attr]
        assert sorted(kinds) == [False, True], "1 Primary and 1 Secondary Skill card"
        assert heroes.hero_level(state, hero) == 3, "Advanced starting Primary +1, Secondary +1"
        artifacts = [zones.card(state, a).category.value for a in inv.artifacts]  # type: ignore[union-attr]
        assert sorted(a == "treasure" for a in artifacts) == [False, True]
    # Haven: Mother Ysolde (Cleric, printed Life Magic) turns Life Magic to Advanced, learns
    # Resurrection, takes a Level 1 and a Level 2 Life Spell, a Treasure and a Life Artifact
    ysolde = state.players_state[0].starting_stack[0]
    inv = state.inventories[ysolde]
    names = [heroes.describe_skill(state, ysolde, c) for c in inv.skills]
    assert names == ["Advanced Life Magic", "Resurrection"]
    assert [state.card_defs[c] for c in inv.spells] == ["bless", "heal"]
    assert sorted(state.card_defs[c] for c in inv.artifacts) == [
        "banner_of_valor",
        "crown_of_command",
    ]


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_one_spell_for_each_level_of_the_magic_skill() -> None:
    state = new_game(
        2,
        5,
        decks=[{"deck": "deck_necropolis"}, {"deck": "deck_asylum"}],
        starting_forces={"units": [3, 2, 1, 0], "heroes": 2},
        pre_developed={"primary": 1, "secondary": 0, "spells": True},
    )
    state = develop_by_default(state)
    sethra = next(
        h
        for h in state.players_state[0].starting_stack
        if state.card_defs[h] == "sethra_bonecaller"
    )
    from engine.homm4.cards import School

    assert heroes.spell_level(state, sethra, School.DEATH) == 2  # Advanced Death Magic
    levels = sorted(zones.card(state, s).level for s in state.inventories[sethra].spells)  # type: ignore[union-attr]
    assert levels == [1, 2], "one Level 1 and one Level 2 Death Spell"


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_a_deck_short_of_the_agreed_cards_is_refused() -> None:
    with pytest.raises(InvalidInput, match="Artifacts"):
        new_game(2, 3, decks=DECKS, pre_developed={"primary": 0, "secondary": 0, "treasure": 2})
    with pytest.raises(InvalidInput, match="Skill cards"):
        new_game(2, 3, decks=DECKS, pre_developed={"primary": 3, "secondary": 0})


# ------------------------------------------------------------------------ Campaigns
@pytest.mark.rule("homm4:game-variants.campaigns")
def test_a_carried_hero_keeps_its_skills_spells_and_artifacts() -> None:
    carried = {
        "seat": 1,
        "hero": "ashkara",
        "skills": ["chaos_magic_basic", "pyromancy"],
        "advanced": [],
        "spells": ["magic_arrow", "fire_bolt"],
        "artifacts": ["ring_of_fire"],
        "label": "Gelu",
    }
    state = new_game(2, 3, decks=DECKS, campaign={"heroes": [carried]})
    stack = state.players_state[1].starting_stack
    ashkara = stack[0]
    assert state.card_defs[ashkara] == "ashkara" and state.card_owner[ashkara] == 1
    inv = state.inventories[ashkara]
    assert [state.card_defs[c] for c in inv.skills] == ["chaos_magic_basic", "pyromancy"]
    assert heroes.describe_skill(state, ashkara, inv.skills[0]) == "Advanced Chaos Magic"
    assert [state.card_defs[c] for c in inv.spells] == ["magic_arrow", "fire_bolt"]
    assert [state.card_defs[c] for c in inv.artifacts] == ["ring_of_fire"]
    assert sum(state.card_defs[c] == "ashkara" for c in stack) == 1, "the deck's copy stays"
    state = R.new_game(R.parse_options({"decks": DECKS, "campaign": {"heroes": [carried]}}), 2, 3)[
        0
    ]
    from tests.homm4.adventure_helpers import finish_setup

    state = finish_setup(state)
    survivors = variants.survivors(state)
    mine = next(s for s in survivors if s.hero == "ashkara")
    assert mine.seat == 1 and mine.spells == ("magic_arrow", "fire_bolt")
    assert mine.artifacts == ("ring_of_fire",) and mine.skills == ("chaos_magic_basic", "pyromancy")


# ------------------------------------------------------------------ options summary
@pytest.mark.rule("homm4:advanced-rules")
def test_options_in_effect_are_listed_for_the_status() -> None:
    assert Homm4Options().summary() == []
    lines = Homm4Options(
        morale=True, luck=True, teams=((0, 2), (1, 3)), underground=2, deck_size="tournament-60"
    ).summary()
    assert lines == [
        "Morale",
        "Luck",
        "Team Play (seats 1+3 vs 2+4)",
        "Underground (2 sections)",
        "Tournament decks: exactly 60 cards",
    ]
    state = started(seed=3, decks=DECKS, morale=True)
    assert R.public_view(state).rules == ("Morale",)
