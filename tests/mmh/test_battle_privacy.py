"""Held scrolls are face down: what a battle asks, and of whom, never depends on which
scrolls a hero holds, only on how many (house rule 6; the windows of
mmh:other-game-rules.using-card-effects)."""

from __future__ import annotations

import pytest

from engine.mmh import battle
from engine.mmh.content import Window
from engine.mmh.state import MmhState
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
)


def _battle_with(scrolls: list[str]) -> MmhState:
    """Orson (Magic 2) with 3 basic Skeletons and ``scrolls`` walks into the Restless Dead."""
    state = new_game(2, factions=("necropolis", "haven"), heroes=("orson", "laszlo"))
    fixed_board(state)
    orson = state.heroes["orson"]
    set_army(state, "orson", [("skeleton", False)] * 3)
    for card in scrolls:
        state.scroll_deck.remove(card)
    orson.scrolls = list(scrolls)
    place_encounter(state, at(state, "D3"), 5)  # Restless Dead: no elite die, no Focus
    orson.space = at(state, "C3")
    activate(state, "orson")
    return state


def _course(state: MmhState) -> list[tuple[int, str, str] | str]:
    """Every decision owed (seat, kind, prompt) and every public line, answering each
    decision with its default (no card, attack, fight on) until the battle is over."""
    seen: list[tuple[int, str, str] | str] = []
    state, events = apply(state, 0, {"type": "move", "to": "D3"})
    seen += [e.text for e in events]
    for _ in range(200):
        if state.battle is None:
            return seen
        owed = R.pending(state)[0]
        seen.append((owed.seat, owed.kind, owed.prompt))
        state, events = apply(state, owed.seat, R.default_command(state, owed.seat))
        seen += [e.text for e in events]
    raise AssertionError("the battle did not end")


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_windows_ask_alike_whichever_scroll_is_held(monkeypatch: pytest.MonkeyPatch) -> None:
    # Slow (At the Start of Battle), Fortune (Before the Battle), Weakness (In Battle) and
    # Unholy Word (level 3: Orson's Magic 2 may not cast it): the table sees the same
    courses = {}
    for scroll in ("slow", "fortune", "weakness", "unholy_word"):
        with scripted_dice(monkeypatch, [3] * 300):
            courses[scroll] = _course(_battle_with([scroll]))
    assert courses["slow"] == courses["fortune"] == courses["weakness"] == courses["unholy_word"]
    asked = [step for step in courses["slow"] if isinstance(step, tuple)]
    assert (0, "battle_window", "Red may use cards (Before the Battle).") in asked
    assert (0, "battle_window", "Red may use cards (At the Start of Battle).") in asked
    assert (0, "battle_turn", "Red: [0] Orson attacks.") in asked  # his In Battle chance
    # without any scroll (the count is public) nobody is asked about cards at all
    with scripted_dice(monkeypatch, [3] * 300):
        bare = _course(_battle_with([]))
    assert not [
        s for s in bare if isinstance(s, tuple) and s[1] in ("battle_window", "battle_turn")
    ]


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_using_a_scroll_keeps_the_window_open_while_others_are_held() -> None:
    state = _battle_with(["fortune", "weakness"])
    state, _ = apply(state, 0, {"type": "move", "to": "D3"})
    assert R.pending(state)[0].kind == "battle_window"
    state, events = apply(state, 0, {"type": "use_card", "card": "fortune"})
    assert "casts the scroll Fortune" in " ".join(e.text for e in events)
    # Weakness is for In Battle, but a held scroll is a held scroll: still asked, with
    # "use nothing" always open
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind) == (0, "battle_window")
    assert battle.usable_cards(state, 0, Window.BEFORE) == []
    assert [c.type for c in R.legal_commands(state, 0)] == ["pass_window"]
    state, _ = apply(state, 0, {"type": "pass_window"})
    assert state.battle is not None and state.battle.window == "start"
