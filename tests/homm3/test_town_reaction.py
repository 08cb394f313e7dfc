"""Reacting to Combat: Town actions after the last Adventure turn, before the final Combat
is set up (homm3turn:reacting-to-combat)."""

from __future__ import annotations

import pytest

from engine.core.errors import NotYourDecision, WrongPhase
from engine.homm3 import commands as c
from engine.homm3.state import ArmyUnit, Homm3State
from tests.homm3.helpers import RULES, apply, new, play_until

pytestmark = pytest.mark.rule("homm3turn:reacting-to-combat")


def _owes(state: Homm3State) -> tuple[str, int]:
    decision = RULES.pending(state)[0]
    return decision.kind, decision.seat


def _last_turn(state: Homm3State, seat: int) -> Homm3State:
    """Answer open choices with their defaults until ``seat``'s last Adventure turn."""
    while _owes(state) != ("adventure_turn", seat):
        kind, owner = _owes(state)
        assert kind.startswith("choose_"), kind
        state, _ = apply(state, owner, RULES.default_command(state, owner))
    return state


def _ready(state: Homm3State, seat: int, *, population: bool, gold: int) -> None:
    """Castle's seat with the Bronze Dwelling, Halberdiers and Marksmen, ``gold`` Gold and
    only the Population Token unused (when ``population``)."""
    player = state.player(seat)
    player.tokens.build = player.tokens.spellbook = False
    player.tokens.population = population
    if "dwelling_bronze" not in player.buildings:
        player.buildings.append("dwelling_bronze")
    player.army = [ArmyUnit(unit="halberdiers"), ArmyUnit(unit="marksmen")]
    player.resources.gold, player.resources.materials, player.resources.valuables = gold, 0, 0


def _spent(state: Homm3State, seat: int) -> None:
    player = state.player(seat)
    player.tokens.build = player.tokens.population = player.tokens.spellbook = False


def _to_window(*, first_gold: int, second_population: bool = False) -> tuple[Homm3State, int]:
    """A short Adventure (9 rounds) played by the computer up to the last round's first
    turn; the starter (Catherine, Castle) ends it with only the Population Token unused and
    ``first_gold`` Gold, then the other player (Mutare, Dungeon) ends the last turn."""
    state = new(mode="adventure", size="short", heroes=("catherine", "mutare"), seed=1)
    starter = state.first
    assert state.player(starter).faction == "castle"  # seed 1: Catherine's seat goes first
    state = play_until(
        state,
        lambda s: s.round == 9 and RULES.pending(s)[0].kind == "adventure_turn",
    )
    assert state.adventure is not None and state.adventure.starter == starter == state.first
    state = _last_turn(state, starter)
    _ready(state, starter, population=True, gold=first_gold)
    state, _ = apply(state, starter, {"type": "end_turn"})
    second = 1 - starter
    state = _last_turn(state, second)
    _spent(state, second)
    if second_population:
        player = state.player(second)
        player.tokens.population = True
        if "dwelling_bronze" not in player.buildings:
            player.buildings.append("dwelling_bronze")
        player.army = [ArmyUnit(unit="troglodytes"), ArmyUnit(unit="harpies")]
        player.resources.gold = 4  # Evil Eyes cost 4 Gold
    return state, starter


def test_first_player_recruits_with_the_unused_population_token_before_setup() -> None:
    state, starter = _to_window(first_gold=10)
    second = 1 - starter
    state, events = apply(state, second, {"type": "end_turn"})
    assert state.phase == "adventure" and state.combat is None  # nothing set up yet
    assert _owes(state) == ("town_reaction", starter)
    assert any(e.kind == "town_reaction" and e.data["seat"] == starter for e in events)
    legal = RULES.legal_commands(state, starter)
    assert c.StartCombat() in legal
    assert {type(cmd) for cmd in legal} == {c.Muster, c.StartCombat}  # Build, Spell Book spent
    assert RULES.default_command(state, starter) == c.StartCombat()
    with pytest.raises(NotYourDecision):
        apply(state, second, {"type": "start_combat"})
    # Griffins: Castle's third Bronze unit, recruited for 4 Gold
    state, events = apply(state, starter, {"type": "muster", "recruit": ["griffins"]})
    player = state.player(starter)
    assert player.resources.gold == 6
    assert [a.unit for a in player.army] == ["halberdiers", "marksmen", "griffins"]
    assert not player.tokens.population
    # no token is left to use: the final Combat is set up at once
    assert state.phase == "combat" and state.combat is not None
    assert state.combat.stage == "obstacles" and state.combat.placed == []
    kinds = [e.kind for e in events]
    assert kinds.index("muster") < kinds.index("combat")


def test_starting_the_combat_goes_straight_to_setup_and_changes_nothing() -> None:
    state, starter = _to_window(first_gold=10)
    state, _ = apply(state, 1 - starter, {"type": "end_turn"})
    assert _owes(state) == ("town_reaction", starter)
    state, events = apply(state, starter, {"type": "start_combat"})
    player = state.player(starter)
    assert player.resources.gold == 10 and len(player.army) == 2 and player.tokens.population
    assert state.phase == "combat" and state.combat is not None
    assert state.combat.stage == "obstacles" and state.combat.placed == []
    assert [e.kind for e in events][:2] == ["start_combat", "combat"]
    with pytest.raises(WrongPhase):
        apply(state, starter, {"type": "muster", "recruit": ["griffins"]})


def test_the_window_is_skipped_when_no_token_buys_anything() -> None:
    # the Population Token is unused but 1 Gold buys no unit (Halberdiers cost 2)
    state, starter = _to_window(first_gold=1)
    assert not any(isinstance(cmd, c.Muster) for cmd in RULES.legal_commands(state, starter))
    state, events = apply(state, 1 - starter, {"type": "end_turn"})
    assert state.phase == "combat" and state.combat is not None
    assert state.combat.stage == "obstacles"
    assert not any(e.kind == "town_reaction" for e in events)


def test_the_first_player_is_asked_first_then_the_player_whose_turn_ended() -> None:
    state, starter = _to_window(first_gold=10, second_population=True)
    second = 1 - starter
    state, _ = apply(state, second, {"type": "end_turn"})
    assert _owes(state) == ("town_reaction", starter)
    state, _ = apply(state, starter, {"type": "start_combat"})
    assert _owes(state) == ("town_reaction", second) and state.phase == "adventure"
    assert c.Muster(recruit=("evil_eyes",)) in RULES.legal_commands(state, second)
    state, _ = apply(state, second, RULES.default_command(state, second))
    assert state.phase == "combat" and state.player(second).resources.gold == 4


def test_the_computer_recruits_in_the_window_as_on_its_turn() -> None:
    import random

    state, starter = _to_window(first_gold=10)
    state, _ = apply(state, 1 - starter, {"type": "end_turn"})
    command = RULES.ai_command(state, starter, random.Random(0))
    assert isinstance(command, c.Muster) and command.recruit == ("griffins",)
    state.player(starter).resources.gold = 1
    assert RULES.ai_command(state, starter, random.Random(0)) == c.StartCombat()
