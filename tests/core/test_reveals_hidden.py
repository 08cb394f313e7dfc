"""`Ruleset.reveals_hidden`: which commands showed hidden information (a player's undo of
them needs the others' consent), for every ruleset, and `hidden_piles`."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.model import Event
from engine.core.ruleset import get_ruleset


def _classified(ruleset_id: str, seed: int, limit: int = 300) -> dict[str, set[bool]]:
    """Play the computer player for ``limit`` commands; each command type with the
    answers `reveals_hidden` gave for it."""
    rules = get_ruleset(ruleset_id)
    state, _ = rules.new_game(rules.parse_options({}), 2, seed)
    chooser = random.Random(seed)
    seen: dict[str, set[bool]] = {}
    for _ in range(limit):
        pending = rules.pending(state)
        if rules.result(state).finished or not pending:
            break
        seat = pending[0].seat
        command = rules.ai_command(state, seat, chooser)
        after, events = rules.apply(state, seat, command)
        answer = rules.reveals_hidden(state, seat, command, after, events)
        moved = after.rng.counter != state.rng.counter
        # homm4's chosen Risk Stack only tells its own seat its own cards (no reveal)
        private = any(e.private for e in events if e.kind != "risk_stack")
        # the default's first two tests hold for every ruleset
        if moved or private:
            assert answer, (command.type, moved, private)
        seen.setdefault(command.type, set()).add(answer)
        state = after
    return seen


@pytest.mark.parametrize(
    ("ruleset_id", "revealing", "plain"),
    [
        # heroforge:movement: the movement die; a hero's step rolls nothing
        ("heroforge", {"roll_move", "attack", "fight_back"}, {"move", "buy_unit", "choose_hero"}),
        # homm4: attacks roll dice, the end of a turn draws cards; a move rolls nothing
        (
            "homm4",
            {"attack", "counterattack", "close_turn"},
            {"move", "deploy", "end_purchase", "choose_risk_stack"},
        ),
        ("mmh", {"attack", "level_up"}, {"activate", "recruit", "keep"}),
        ("homm3", {"choose"}, {"deploy", "move", "place_obstacle", "activate"}),
    ],
)
def test_each_ruleset_flags_dice_and_draws_only(
    ruleset_id: str, revealing: set[str], plain: set[str]
) -> None:
    seen: dict[str, set[bool]] = {}
    for seed in (0, 1, 2):
        for kind, answers in _classified(ruleset_id, seed).items():
            seen.setdefault(kind, set()).update(answers)
    for kind in revealing:
        assert seen[kind] == {True}, kind
    for kind in plain:
        assert seen[kind] == {False}, kind


def test_a_card_leaving_a_deck_is_a_reveal_even_without_a_private_line() -> None:
    rules = get_ruleset("homm4")
    before, _ = rules.new_game(rules.parse_options({}), 2, 7)
    after = before.model_copy(deep=True)
    top = after.players_state[1].deck.pop(0)  # type: ignore[attr-defined]
    after.players_state[1].hand.append(top)  # type: ignore[attr-defined]
    command: Any = rules.legal_commands(before, rules.pending(before)[0].seat)[0]
    plain = [Event(kind="move", text="Red moves.")]
    assert rules.reveals_hidden(before, 0, command, after, plain)
    # the same position, nothing moved: no reveal
    assert not rules.reveals_hidden(before, 0, command, before.model_copy(deep=True), plain)
    # a card put into a deck reveals nothing
    grown = before.model_copy(deep=True)
    grown.players_state[1].deck.append(grown.players_state[1].deck[0])  # type: ignore[attr-defined]
    assert not rules.reveals_hidden(before, 0, command, grown, plain)


def test_default_counts_revealing_event_kinds_and_private_parts() -> None:
    rules = get_ruleset("heroforge")  # no face-down piles: only the default's tests
    state, _ = rules.new_game(rules.parse_options({}), 2, 3)
    command: Any = rules.legal_commands(state, rules.pending(state)[0].seat)[0]
    same = state.model_copy(deep=True)
    assert rules.hidden_piles(state) == {}
    assert not rules.reveals_hidden(state, 0, command, same, [Event(kind="move", text="x")])
    assert rules.reveals_hidden(state, 0, command, same, [Event(kind="die_roll", text="5")])
    assert rules.reveals_hidden(
        state, 0, command, same, [Event(kind="x", text="", private={1: "y"})]
    )
    rolled = state.model_copy(deep=True)
    rolled.rng.die(6)
    assert rules.reveals_hidden(state, 0, command, rolled, [])


def test_a_homm4_risk_stack_is_no_reveal_but_a_line_to_another_seat_still_is() -> None:
    """homm4:setup: the Risk Stack a seat chooses comes from its own Hand; its private line
    tells that seat nothing new, so a player may take the choice back at once. The same
    event with a line for another seat, or beside a die roll, is still a reveal."""
    rules = get_ruleset("homm4")
    before, _ = rules.new_game(rules.parse_options({}), 2, 7)
    seat = rules.pending(before)[0].seat
    choose = next(c for c in rules.legal_commands(before, seat) if c.type == "choose_risk_stack")
    after, events = rules.apply(before, seat, choose)
    assert [e.kind for e in events] == ["risk_stack"] and set(events[0].private) == {seat}
    assert not rules.reveals_hidden(before, seat, choose, after, events)
    told = Event(kind="risk_stack", text="x", private={seat: "a", 1 - seat: "b"})
    assert rules.reveals_hidden(before, seat, choose, after, [told])
    rolled = after.model_copy(deep=True)
    rolled.rng.die(6)
    assert rules.reveals_hidden(before, seat, choose, rolled, events)
