"""The rulebook's component sections that the other mmh tests do not name: faction colours,
wooden markers, dice, the supply laid out at set-up, and who counts as an enemy."""

from __future__ import annotations

import pytest

from engine.core.errors import NotYourDecision
from engine.mmh import battle
from engine.mmh.content import Faction, load_content
from tests.mmh.helpers import (
    R,
    activate,
    apply,
    at,
    fixed_board,
    new_game,
    place_encounter,
    scripted_dice,
    set_army,
    start_action,
)

C = load_content()


@pytest.mark.rule("mmh:game-setup.determine-player-colors")
def test_each_faction_has_its_marker_colour_and_three_heroes() -> None:
    colours = {f.id: f.colour for f in C.factions}
    assert colours == {
        Faction.SANCTUARY: "blue",
        Faction.NECROPOLIS: "green",
        Faction.HAVEN: "white",
        Faction.STRONGHOLD: "black",
    }
    for faction in Faction:
        assert len(C.faction_heroes(faction)) == 3


@pytest.mark.rule("mmh:game-material.wooden-markers")
def test_twelve_hero_markers_three_per_colour_one_in_play_at_the_start() -> None:
    state = new_game(4)
    in_play = [h for seat in state.seats for h in seat.heroes]
    unused = [h for seat in state.seats for h in seat.unused_heroes]
    assert len(in_play) == 4 and len(unused) == 8
    assert sorted(in_play + unused) == sorted(h.id for h in C.heroes)
    for seat in state.seats:
        assert len(seat.heroes) + len(seat.unused_heroes) == 3
        assert {C.hero(h).faction for h in (*seat.heroes, *seat.unused_heroes)} == {seat.faction}
        assert seat.capital is not None  # one capital marker each, on the board


@pytest.mark.rule("mmh:game-setup.preparing-other-markers-dice-and-the-initiative-track")
def test_the_supply_holds_thirteen_luck_and_four_element_markers_and_no_battle() -> None:
    state = new_game(3)
    assert state.luck_supply == 13
    assert sorted(state.element_supply) == ["air", "earth", "fire", "water"]
    assert state.battle is None  # the initiative track waits beside the board
    assert all(h.luck == 0 for h in state.heroes.values())


@pytest.mark.rule("mmh:game-material.dice")
def test_an_attack_never_rolls_more_than_five_d8_and_one_d6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert battle.MAX_DICE == 5
    assert sorted(battle.ELITE_FACES) == [1, 2, 3, 4, 5, 6]
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    set_army(state, "laszlo", [("sentinel", True)] * 4 + [("sentinel", False)] * 4)
    place_encounter(state, at(state, "D3"), 2)  # Bandits: 2 dice
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    with scripted_dice(monkeypatch, [8, 8]):
        state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    with scripted_dice(monkeypatch, [8, 8, 8, 8, 8, 5, 8, 8, 8, 8, 8]) as left:
        # 8 creatures: 5 d8 and the elite die (5 = luck: the 5 misses are rerolled, once)
        state, events = apply(state, 0, {"type": "attack", "elite": True})
    assert left == []
    sides = [e.data["sides"] for e in events if e.kind == "die_roll"]
    assert sides[:6] == [8, 8, 8, 8, 8, 6] and sides[6:] == [8] * 5


@pytest.mark.rule("mmh:other-game-rules.enemies")
def test_the_encounter_marker_is_the_enemy_commanded_by_the_player_to_the_left() -> None:
    state = new_game(3, factions=("haven", "necropolis", "sanctuary"))
    hero = state.heroes[state.seats[2].heroes[0]]
    start_action(state, 2, "hero")
    symbol = min(state.encounters)
    battle.begin_encounter_battle(state, hero, symbol, "enter", None)
    b = state.battle
    assert b is not None
    assert b.controller == 0  # Blue's left is Red: the seats wrap around
    encounter = next(u for u in b.units if u.kind == "encounter")
    assert battle.unit_seat(state, encounter) == 0
    assert battle.participants(state) == [2]  # the controller has no hero in it
    own = [u for u in b.units if u.side == 0]
    assert all(battle.unit_seat(state, u) == 2 for u in own)
    assert encounter.side != own[0].side
    # Walk to the encounter's attack: only its controller may command it.
    while True:
        decision = R.pending(state)[0]
        if decision.kind == "battle_turn" and b.units[b.order[b.pos]].kind == "encounter":
            break
        state, _ = apply(state, decision.seat, R.default_command(state, decision.seat))
        b = state.battle
        assert b is not None
    assert decision.seat == 0
    for outsider in (1, 2):  # the third player and the active player alike
        with pytest.raises(NotYourDecision):
            R.apply(state, outsider, {"type": "attack", "elite": False})
