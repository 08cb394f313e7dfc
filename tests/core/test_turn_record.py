"""`Ruleset.turn` (the engine's turn record: turn, round, active seats, phase name) and
`Decision.private` as every ruleset sets them, checked at set-up and over random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.model import TurnRecord
from engine.core.ruleset import get_ruleset


def _new(ruleset: str, options: dict[str, Any], players: int, seed: int = 7) -> Any:
    rules = get_ruleset(ruleset)
    return rules, rules.new_game(rules.parse_options(options), players, seed)[0]


@pytest.mark.rule("homm4:start-of-the-game")
def test_homm4_starts_with_red_choosing_the_risk_stack_in_private() -> None:
    """Once the board is assembled, the first player draws 8 cards and puts 5 face down as
    the Risk Stack: Red's turn of the Start of the Game, answered by DM."""
    rules, state = _new("homm4", {}, 2)
    assert rules.turn(state) == TurnRecord(turn=0, round=0, active=(0,), phase="Start of the Game")
    (decision,) = rules.pending(state)
    assert (decision.seat, decision.kind, decision.private) == (0, "choose_risk_stack", True)


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_homm4_pre_developed_heroes_are_chosen_by_every_seat_at_once() -> None:
    rules, state = _new("homm4", {"pre_developed": {"primary": 1, "secondary": 1}}, 2)
    assert rules.turn(state) == TurnRecord(
        turn=0, round=0, active=(0, 1), phase="Pre-developed Heroes"
    )
    assert [(d.seat, d.private) for d in rules.pending(state)] == [(0, True), (1, True)]


@pytest.mark.rule("homm4:start-of-the-game")
def test_homm4_manual_assembly_reveals_a_section_in_public() -> None:
    rules, state = _new("homm4", {"assembly": "manual"}, 3)
    assert rules.turn(state) == TurnRecord(turn=0, round=0, active=(0,), phase="Setup")
    assert [(d.kind, d.private) for d in rules.pending(state)] == [("place_section", False)]


@pytest.mark.rule("homm3bf:battlefield-setup")
def test_homm3_skirmish_set_up_has_both_players_choose_at_once_in_private() -> None:
    rules, state = _new("homm3", {}, 2)
    assert rules.turn(state) == TurnRecord(
        turn=0, round=0, active=(0, 1), phase="Battlefield Setup"
    )
    assert [(d.seat, d.kind, d.private) for d in rules.pending(state)] == [
        (0, "choose_setup_remove", True),
        (1, "choose_setup_remove", True),
    ]


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_homm3_adventure_round_one_starts_with_the_first_player_keeping_a_card() -> None:
    """At the start of each round the starting player draws 3 Adventure cards and keeps
    one: round 1, the first player, a private choice."""
    rules, state = _new("homm3", {"mode": "adventure"}, 2)
    assert rules.turn(state) == TurnRecord(turn=0, round=1, active=(0,), phase="Adventure Mode")
    (decision,) = rules.pending(state)
    assert (decision.kind, decision.private) == ("choose_adventure_keep", True)


@pytest.mark.rule("mmh:game-setup.setting-up-the-game-board")
def test_mmh_set_up_names_the_seat_placing_now() -> None:
    rules, state = _new("mmh", {"length": "quick"}, 3)
    (decision,) = rules.pending(state)
    assert rules.turn(state) == TurnRecord(
        turn=0, round=0, active=(decision.seat,), phase="Setting Up the Game Board"
    )
    assert not decision.private


@pytest.mark.rule("heroforge:basic-rules")
def test_heroforge_starts_with_red_choosing_a_hero_in_public() -> None:
    rules, state = _new("heroforge", {}, 3)
    assert rules.turn(state) == TurnRecord(turn=0, round=0, active=(0,), phase="Choose a Hero")
    assert [(d.kind, d.private) for d in rules.pending(state)] == [("choose_hero", False)]


TURN_DECISIONS = {
    "homm4": {"purchase", "movement", "closing", "place_army", "place_entrance"},
    "homm3": {"adventure_turn", "activation", "activate", "deploy", "place_obstacle"},
    "mmh": {"play_action", "action_build", "action_recruit", "action_hero", "place_capital"},
    "heroforge": {"buy", "move", "moving", "combat", "choose_hero", "place_hero"},
}
"""Decisions owed by the seat whose turn it is (never by another seat in its turn)."""

INTERRUPTS = {
    "homm4": {"identify", "reinforce_guard"},
    "heroforge": {"defend", "steal"},
}
"""Decisions another seat may answer during the active seat's turn (scouting offers and
Guard reinforcement, homm4:chipping-in-for-the-guard; Hero Forge's Defence Phase and a
steal offer)."""


@pytest.mark.slow
@pytest.mark.rule("homm4:turn-summary")
@pytest.mark.parametrize(
    ("ruleset", "options", "players"),
    [
        ("homm4", {}, 3),
        ("homm3", {"mode": "adventure"}, 2),
        ("homm3", {}, 2),
        ("mmh", {"length": "quick"}, 3),
        ("heroforge", {}, 3),
    ],
)
def test_the_turn_record_follows_random_games(
    ruleset: str, options: dict[str, Any], players: int
) -> None:
    """Over random games: the turn number never goes back; the active seats are seats of
    the game, none once it is over and some while it goes on; a decision of the turn is
    owed by an active seat; an interrupt may be owed by a seat that is not active; the
    phase always has a name. The turn passes from seat to seat (several seats are active
    in turn)."""
    rules = get_ruleset(ruleset)
    seen_active: set[int] = set()
    interrupted = turns_checked = 0
    for seed in range(2):
        state = rules.new_game(rules.parse_options(options), players, seed)[0]
        rng = random.Random(seed)
        last = rules.turn(state)
        for _ in range(500):
            record = rules.turn(state)
            assert record.turn >= last.turn
            assert set(record.active) <= set(range(players)) and record.phase
            assert list(record.active) == sorted(set(record.active))
            if rules.result(state).finished:
                assert record.active == ()
                break
            assert record.active
            seen_active.update(record.active)
            for decision in rules.pending(state):
                if decision.kind in TURN_DECISIONS[ruleset]:
                    assert decision.seat in record.active, (decision, record)
                    turns_checked += 1
                elif decision.kind in INTERRUPTS.get(ruleset, ()) and (
                    decision.seat not in record.active
                ):
                    interrupted += 1
            last = record
            decision = rules.pending(state)[0]
            command = rules.ai_command(state, decision.seat, rng)
            state = rules.apply(state, decision.seat, command)[0]
    assert seen_active == set(range(players))
    assert turns_checked > 50
    if ruleset in INTERRUPTS:
        assert interrupted > 0
