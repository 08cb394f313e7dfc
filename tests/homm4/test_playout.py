"""Random playouts through the public API: invariants after every command, games end,
every listed legal command applies, and the public view hides every private card."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.homm4.audit import zone_problems
from engine.homm4.state import Homm4State
from tests.homm4.adventure_helpers import R


def _private_ids(state: Homm4State) -> set[int]:
    return {c for p in state.players_state for c in p.hand + p.risk + p.deck}


def _card_refs(node: Any) -> set[int]:
    """Every ``id`` of a CardRef-shaped dict (``{"id": int, "card": str}``) in ``node``."""
    found: set[int] = set()
    if isinstance(node, dict):
        if set(node) == {"id", "card"} and isinstance(node["id"], int):
            found.add(node["id"])
        for value in node.values():
            found |= _card_refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _card_refs(value)
    return found


def _check_views(state: Homm4State) -> None:
    public = json.loads(R.public_view(state).model_dump_json())
    leaked = _card_refs(public) & _private_ids(state)
    assert not leaked, f"private cards in the public view: {sorted(leaked)[:5]}"
    for seat in range(state.players):
        own = json.loads(R.view(state, seat).model_dump_json())
        others = {c for p in state.players_state if p.seat != seat for c in p.hand + p.risk}
        others |= {c for p in state.players_state for c in p.deck}
        assert not (_card_refs(own) & others)
        mine = state.players_state[seat]
        assert [c["id"] for c in own["hand"]] == mine.hand


def _play(
    players: int, seed: int, *, options: dict[str, Any] | None = None, view_every: int = 25
) -> int:
    state, _ = R.new_game(R.parse_options(options or {}), players, seed)
    rng = random.Random(seed)
    commands = 0
    while not R.result(state).finished:
        assert commands < 6000, f"game seed={seed} did not end"
        decision = R.pending(state)[0]
        command = R.ai_command(state, decision.seat, rng)
        state, events = R.apply(state, decision.seat, command)
        commands += 1
        assert zone_problems(state) == [], f"seed={seed} after {command!r}"
        for event in events:
            assert not event.public().private
        if commands % view_every == 0:
            _check_views(state)
    _check_views(state)
    assert R.pending(state) == []
    return commands


@pytest.mark.rule("homm4:victory")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_ai_games_end_by_victory_with_every_card_in_one_zone(players: int) -> None:
    for seed in range(15):
        assert _play(players, 1000 * players + seed) > 0


@pytest.mark.rule("homm4:start-of-the-game")
@pytest.mark.slow
def test_manual_assembly_games_end_too() -> None:
    for seed in range(3):
        _play(3, 77 + seed, options={"assembly": "manual", "map_sections": 5})


@pytest.mark.rule("homm4:game-process")
@pytest.mark.slow
def test_every_listed_legal_command_applies() -> None:
    checked = 0
    for seed in range(3):
        state, _ = R.new_game(
            R.parse_options({"assembly": "manual" if seed == 2 else "quick"}), 2 + seed, seed
        )
        rng = random.Random(seed)
        steps = 0
        while not R.result(state).finished and steps < 400:
            decision = R.pending(state)[0]
            options = R.legal_commands(state, decision.seat)
            assert options, f"{decision} has no legal command"
            sample = options if len(options) <= 12 or steps % 7 == 0 else rng.sample(options, 12)
            for command in sample:
                R.apply(state, decision.seat, command)
                checked += 1
            for other in range(state.players):
                if other not in {d.seat for d in R.pending(state)}:
                    assert R.legal_commands(state, other) == []
            default = R.default_command(state, decision.seat)
            assert default in options or default.type in decision.commands
            R.apply(state, decision.seat, default)
            command = (
                rng.choice(options)
                if rng.random() < 0.5
                else R.ai_command(state, decision.seat, rng)
            )
            state, _ = R.apply(state, decision.seat, command)
            steps += 1
            assert zone_problems(state) == []
    assert checked > 500


@pytest.mark.rule("homm4:game-process")
def test_state_json_round_trips_exactly() -> None:
    state, _ = R.new_game(R.parse_options({}), 3, 5)
    rng = random.Random(5)
    for _ in range(150):
        if R.result(state).finished:
            break
        decision = R.pending(state)[0]
        state, _ = R.apply(state, decision.seat, R.ai_command(state, decision.seat, rng))
        dumped = R.dump_state(state)
        assert R.dump_state(R.load_state(dumped)) == dumped


ALL_OPTIONS: dict[str, Any] = {
    "map_sections": 4,
    "underground": 2,
    "morale": True,
    "luck": True,
    "flying": True,
    "native_lands": True,
    "distance_penalties": True,
    "other_faction_heroes": True,
    "resurrection": True,
    "potions": True,
    "resource_trading": True,
    "diplomacy": True,
    "starting_forces": {"units": [6, 4, 2, 1], "heroes": 2},
    "pre_developed": {"primary": 1, "secondary": 1, "spells": True, "treasure": 1, "other": 1},
    "campaign": {
        "heroes": [
            {
                "seat": 1,
                "hero": "grimjaw",
                "skills": ["combat_basic", "resistance"],
                "spells": [],
                "artifacts": ["barbarian_axe"],
            }
        ]
    },
}
"""Every Advanced Rule and Game Variant on at once (ready-made decks, casual deck size)."""


def all_options(players: int) -> dict[str, Any]:
    """`ALL_OPTIONS`, with Team Play for four players (seats 1+3 vs 2+4) and six (1+3+5 vs
    2+4+6)."""
    options = dict(ALL_OPTIONS)
    if players == 4:
        options["teams"] = [[0, 2], [1, 3]]
    if players == 6:
        options["teams"] = [[0, 2, 4], [1, 3, 5]]
    return options


def sixty_card_decks(players: int) -> list[dict[str, Any]]:
    """Ready-made decks padded to exactly 60 cards (one more copy of each card in id order
    until 60), for the tournament deck size."""
    from engine.homm4.cards import load_card_pool

    pool = load_card_pool()
    ids = sorted(pool.decks)
    decks = []
    for seat in range(players):
        cards = dict(pool.decks[ids[seat % len(ids)]].cards)
        keys = sorted(cards)
        index = 0
        while sum(cards.values()) < 60:
            cards[keys[index % len(keys)]] += 1
            index += 1
        decks.append({"cards": cards})
    return decks


@pytest.mark.rule("homm4:advanced-rules")
@pytest.mark.rule("homm4:game-variants")
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_ai_games_with_every_option_on_end_with_every_card_in_one_zone(players: int) -> None:
    for seed in range(6):
        assert _play(players, 7000 + 100 * players + seed, options=all_options(players)) > 0


@pytest.mark.rule("homm4:victory")
@pytest.mark.rule("homm4:advanced-rules")
@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.slow
def test_five_and_six_player_games_end_with_every_card_in_one_zone(players: int) -> None:
    assert _play(players, 5000 + players) > 0
    assert _play(players, 9000 + players, options=all_options(players)) > 0


@pytest.mark.rule("homm4:errata")
@pytest.mark.slow
def test_ai_games_with_every_option_and_tournament_decks_end() -> None:
    for players in (2, 4):
        options = {**all_options(players), "deck_size": "tournament-60"}
        options["decks"] = sixty_card_decks(players)
        assert _play(players, 8100 + players, options=options) > 0


@pytest.mark.rule("homm4:advanced-rules")
@pytest.mark.slow
def test_every_listed_legal_command_applies_with_every_option_on() -> None:
    checked = 0
    for players in (2, 4):
        state, _ = R.new_game(R.parse_options(all_options(players)), players, 90 + players)
        rng = random.Random(players)
        steps = 0
        while not R.result(state).finished and steps < 300:
            decision = R.pending(state)[0]
            options = R.legal_commands(state, decision.seat)
            assert options, f"{decision} has no legal command"
            sample = options if len(options) <= 10 else rng.sample(options, 10)
            for command in sample:
                R.apply(state, decision.seat, command)
                checked += 1
            command = (
                rng.choice(options)
                if rng.random() < 0.5
                else R.ai_command(state, decision.seat, rng)
            )
            state, _ = R.apply(state, decision.seat, command)
            steps += 1
            assert zone_problems(state) == []
    assert checked > 500
