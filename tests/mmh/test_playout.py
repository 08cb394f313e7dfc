"""Random playouts through the public API: whole games by the computer players end by the
rules, invariants hold after every command, every listed legal command applies, and the
views and the log keep private cards private."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core.model import Event
from engine.mmh.state import KeepCard, MmhState
from tests.mmh.helpers import C, R


def _hidden(state: MmhState, seat: int | None = None) -> set[str]:
    """Card ids private now (to everyone, or to everyone but ``seat``)."""
    found: set[str] = set()
    for hero in state.heroes.values():
        if hero.owner != seat:
            found |= set(hero.scrolls)
    for prompt in state.queue:
        if isinstance(prompt, KeepCard) and prompt.seat != seat:
            found |= set(prompt.cards) - _face_up(state)
    return found


def _face_up(state: MmhState) -> set[str]:
    return {c for h in state.heroes.values() for c in (*h.skills, *h.artefacts)}


def _strings(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set().union(*(_strings(v) for v in node.values())) if node else set()
    if isinstance(node, list | tuple):
        return set().union(*(_strings(v) for v in node)) if node else set()
    return {node} if isinstance(node, str) else set()


def _check_views(state: MmhState) -> None:
    public = _strings(json.loads(R.public_view(state).model_dump_json()))
    assert not (public & _hidden(state)), "a private card is in the public view"
    for seat in range(state.players):
        own = _strings(json.loads(R.view(state, seat).model_dump_json()))
        assert not (own & _hidden(state, seat)), f"seat {seat} sees another seat's card"


def _check_log(events: list[Event]) -> None:
    """A card named in a private line is never named in the same event's public line."""
    for event in events:
        for line in event.private.values():
            for card in _card_names():
                assert not (card in line and card in event.text), event.text


_NAMES: list[str] = []


def _card_names() -> list[str]:
    if not _NAMES:
        _NAMES.extend(
            {s.name for s in C.scrolls}
            | {a.name for a in C.artefacts}
            | {s.name for s in C.skills if len(s.name) > 6}
        )
    return _NAMES


def _play(players: int, seed: int, *, legal_every: int = 150, view_every: int = 40) -> MmhState:
    state, events = R.new_game(R.parse_options({"length": "quick"}), players, seed)
    rng = random.Random(seed)
    commands = 0
    while not R.result(state).finished:
        assert commands < 8000, f"seed {seed}: the game does not end"
        decision = R.pending(state)[0]
        if commands % legal_every == 0:
            for option in R.legal_commands(state, decision.seat):
                R.apply(state, decision.seat, option)  # each listed command is accepted
        command = R.ai_command(state, decision.seat, rng)
        state, events = R.apply(state, decision.seat, command)
        commands += 1
        assert R.audit(state) == [], f"seed {seed} after {command!r}"
        _check_log(events)
        if commands % view_every == 0:
            _check_views(state)
    assert R.pending(state) == []
    return state


@pytest.mark.slow
@pytest.mark.rule("mmh:game-end")
@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_computer_games_end_by_the_rules(players: int, seed: int) -> None:
    state = _play(players, seed)
    result = R.result(state)
    assert result.finished and result.reason
    assert state.round <= 10  # round 1 and the 9 week cards of a quick game


@pytest.mark.rule("mmh:game-setup")
def test_the_same_seed_replays_the_same_game() -> None:
    def run() -> str:
        state, _ = R.new_game(R.parse_options({"length": "quick"}), 2, 21)
        rng = random.Random(21)
        for _ in range(150):
            if R.result(state).finished:
                break
            seat = R.pending(state)[0].seat
            state, _ = R.apply(state, seat, R.ai_command(state, seat, rng))
        return R.dump_state(state)

    assert run() == run()


@pytest.mark.rule("mmh:course-of-play")
def test_random_legal_commands_never_break_the_state() -> None:
    state, _ = R.new_game(R.parse_options({"length": "quick", "assembly": "manual"}), 3, 5)
    rng = random.Random(5)
    for _ in range(700):
        if R.result(state).finished:
            break
        seat = R.pending(state)[0].seat
        options = R.legal_commands(state, seat)
        assert options
        state, events = R.apply(state, seat, rng.choice(options))
        assert R.audit(state) == []
        _check_log(events)
    _check_views(state)
    assert R.load_state(R.dump_state(state)) == state
