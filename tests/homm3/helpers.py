"""Builders for homm3 tests: games at a chosen point, Battlefields with chosen units and
hands, and forced dice (the counter of the game's generator is moved to where the wanted
faces come next, so every roll still comes from ``state.rng``)."""

from __future__ import annotations

import random
from typing import Any

import engine.homm3  # noqa: F401  (registers the ruleset)
from engine.core.model import Command, Event
from engine.core.ruleset import get_ruleset
from engine.homm3 import combat_flow, zones
from engine.homm3.options import Homm3Options
from engine.homm3.ruleset import Homm3Ruleset, settle
from engine.homm3.state import CombatState, CombatUnit, Homm3State

RULES: Homm3Ruleset = get_ruleset("homm3")  # type: ignore[assignment]


def new(**options: Any) -> Homm3State:
    """A new game with these options (seed 1 unless given)."""
    seed = options.pop("seed", 1)
    state, _ = RULES.new_game(Homm3Options(**options), 2, seed)
    return state


def apply(
    state: Homm3State, seat: int, command: Command | dict[str, Any]
) -> tuple[Homm3State, list[Event]]:
    """Apply through the checked path."""
    return RULES.apply(state, seat, command)


def answer_choices(state: Homm3State) -> Homm3State:
    """Answer every open choice with option 0 until none is open."""
    while state.choice:
        seat = min(state.choice)
        state, _ = apply(state, seat, {"type": "choose", "option": 0})
    return state


def play_until(state: Homm3State, done: Any, *, seed: int = 0, limit: int = 3000) -> Homm3State:
    """Let the AI play until ``done(state)`` holds."""
    rng = random.Random(seed)
    for _ in range(limit):
        if done(state) or RULES.result(state).finished:
            return state
        decision = RULES.pending(state)[0]
        state, _ = apply(state, decision.seat, RULES.ai_command(state, decision.seat, rng))
    raise AssertionError("the condition was never reached")


def battle(
    units: list[tuple[int, str, bool, str]],
    *,
    hands: dict[int, list[str]] | None = None,
    heroes: tuple[str, str] = ("catherine", "tamika"),
    token: int = 0,
    level: int = 3,
    experts: int | None = None,
    first_active: bool = True,
    opening: bool = False,
    buildings: dict[int, list[str]] | None = None,
) -> Homm3State:
    """A Combat in round 1 with ``units`` = ``[(seat, unit id, pack, hex), ...]`` numbered
    from 1 in that order, the given hands (card ids; every other card stays in the deck),
    Hero Level ``level`` and the Initiative token with ``token``. The Combat's start (the
    moment for Intelligence and Tactics) is skipped unless ``opening``; ``buildings`` gives
    seats Town buildings (a Mana Vortex). The flow then runs to the first decision."""
    state = new(heroes=heroes)
    state = answer_choices(state)
    combat = CombatState(stage="round", round=0, first=token, token=token, placing=token)
    combat.zones = {0: "west", 1: "east"}
    for number, (seat, unit, pack, hex_label) in enumerate(units, start=1):
        combat.units.append(
            CombatUnit(number=number, seat=seat, unit=unit, pack=pack, hex=hex_label)
        )
    state.combat = combat
    state.phase = "combat"
    for player in state.seats:
        player.level = level
        player.experts = (
            experts if experts is not None else {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3}[level]
        )
        player.deck.extend(player.hand)
        player.hand.clear()
        for card_id in (hands or {}).get(player.seat, []):
            player.hand.append(zones.new_instance(state, card_id))
        player.buildings = list((buildings or {}).get(player.seat, []))
    combat_flow.start_round(state)
    if not opening:
        combat.opening = None
    if first_active:
        settle(state)
    return state


def card(state: Homm3State, seat: int, card_id: str) -> int:
    """The number of the first card ``card_id`` in ``seat``'s hand."""
    return next(c for c in state.player(seat).hand if state.cards[c] == card_id)


def force_dice(state: Homm3State, faces: list[int], sides: int = 6) -> None:
    """Move the generator so the next ``len(faces)`` die rolls give ``faces``."""
    start = state.rng.counter
    for counter in range(start, start + 200000):
        probe = state.rng.model_copy()
        probe.counter = counter
        if all(probe.die(sides) == face for face in faces):
            state.rng.counter = counter
            return
    raise AssertionError(f"no counter gives {faces}")


ATTACK_FACE = {-1: 1, 0: 3, 1: 5}
"""A die face giving each Attack die result (faces 1-2: -1, 3-4: 0, 5-6: +1)."""


def attack_dice(state: Homm3State, results: list[int]) -> None:
    """Make the next Attack dice roll ``results`` (each -1, 0 or +1)."""
    force_dice(state, [ATTACK_FACE[r] for r in results])


def unit(state: Homm3State, number: int) -> CombatUnit:
    """Battlefield unit ``number``."""
    assert state.combat is not None
    return next(u for u in state.combat.units if u.number == number)


def _after_attack_windows(state: Homm3State, faces: list[int]) -> Homm3State:
    """Red's unit [1] attacks unit [2] with Attack dice ``faces``; every attack window is
    passed, so the state is at the decision the attack raises."""
    attack_dice(state, faces)
    state, _ = apply(state, 0, {"type": "attack", "target": 2})
    while RULES.pending(state)[0].kind == "attack_window":
        state, _ = apply(state, RULES.pending(state)[0].seat, {"type": "pass"})
    return state


def braced_pikes_moment(defender_hand: list[str]) -> Homm3State:
    """Red's Crusaders [1] on E5 attack Blue's Halberdiers [2] on F5 (upgraded): the state
    at Blue's Braced Pikes question (homm3bf:battlefield-combat.changes-to-combat-rules),
    Blue holding ``defender_hand``, Red Haste."""
    state = battle(
        [(0, "crusaders", False, "E5"), (1, "halberdiers", True, "F5")],
        token=0,
        hands={1: defender_hand, 0: ["haste"]},
    )
    return _after_attack_windows(state, [1, 0])


def guardian_angel_moment() -> Homm3State:
    """Red's Crusaders [1] on E5 attack Blue's defending Halberdiers [2] on F5 beside Blue's
    Archangels [3] on L5: the state at Blue's Guardian Angel question (Blue holds Attack and
    Fireball)."""
    state = battle(
        [
            (0, "crusaders", False, "E5"),
            (1, "halberdiers", False, "F5"),
            (1, "archangels", True, "L5"),
        ],
        token=0,
        hands={1: ["attack", "fireball"]},
    )
    state, _ = apply(state, 1, {"type": "defend"})
    return _after_attack_windows(state, [0, 0])
