"""Small homm3 rule tables and helpers: Hand Limit and Expert uses by Hero Level,
Experience, names of seats and cards in public text.

Rule sections: homm3turn:hand-limit (the Hand Limit depends on the Main Hero's Level),
homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic (Expert
uses), homm3bf:battlefield-setup (Level I at the start).
"""

from __future__ import annotations

from engine.core.model import Event, seat_name
from engine.homm3.content import load_content
from engine.homm3.state import Homm3State, Player, Step

HAND_LIMIT: dict[int, int] = {1: 4, 2: 4, 3: 5, 4: 5, 5: 6, 6: 6, 7: 7}
"""Hand Limit by Main Hero Level (homm3turn:hand-limit; Level III gives 5 as in the
rulebook's example)."""

EXPERT_LIMIT: dict[int, int] = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3}
"""Expert effects per round by Main Hero Level."""

SPECIALTY_LEVELS: dict[int, int] = {1: 0, 4: 1, 6: 2}
"""Level -> index of the Specialty card gained at that Level."""

ABILITY_LEVELS: frozenset[int] = frozenset({2, 3, 5, 7})
"""Levels at which the Hero Searches(2) the Ability deck."""

MAX_LEVEL = 7


def hand_limit(player: Player) -> int:
    """The Hand Limit of ``player``'s Main Hero (homm3turn:hand-limit)."""
    return HAND_LIMIT[player.level]


def expert_limit(player: Player) -> int:
    """How many Expert uses ``player``'s Hero Level allows.

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic"""
    return EXPERT_LIMIT[player.level]


def who(state: Homm3State, seat: int) -> str:
    """``"Red (Catherine)"``: a seat's public name with its Hero.

    Rule: none (label)"""
    hero = load_content().heroes[state.player(seat).hero]
    return f"{seat_name(seat)} ({hero.name})"


def other(seat: int) -> int:
    """The other seat of a two-player game.

    Rule: none (bookkeeping)"""
    return 1 - seat


def gain_experience(state: Homm3State, seat: int, amount: int) -> list[Event]:
    """Give ``amount`` Experience; every 2 Experience is a Level (at most VII), and each new
    Level queues its rewards: a Specialty card at IV and VI, Search(2) the Ability deck at
    II, III, V and VII (homm3bf:adventure-mode, core Level effects).
    """
    player = state.player(seat)
    if amount <= 0:
        return []
    player.experience += amount
    events = [
        Event(
            kind="experience",
            text=f"{who(state, seat)} gains {amount} Experience.",
            data={"seat": seat, "amount": amount},
        )
    ]
    target = min(MAX_LEVEL, 1 + player.experience // 2)
    while player.level < target:
        before = EXPERT_LIMIT[player.level]
        player.level += 1
        if state.phase == "adventure":
            player.experts += EXPERT_LIMIT[player.level] - before
        events.append(
            Event(
                kind="level_up",
                text=f"{who(state, seat)} reaches Level {player.level}.",
                data={"seat": seat, "level": player.level},
            )
        )
        queue = state.queue.setdefault(seat, [])
        if player.level in SPECIALTY_LEVELS:
            queue.append(Step(step="specialty", args={"index": SPECIALTY_LEVELS[player.level]}))
        if player.level in ABILITY_LEVELS:
            queue.append(Step(step="search", args={"deck": "ability", "amount": 2}))
    return events
