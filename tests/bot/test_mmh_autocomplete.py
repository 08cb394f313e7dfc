"""Autocomplete of the ``/mmh`` commands: suggestions come from the seat's legal commands
and fit the options the player has already filled in."""

from __future__ import annotations

import pytest

from bot.adapters import PlayRequest
from bot.mmh.commands import suggest
from engine.mmh import RULESET as MMH
from engine.mmh.state import DragonVein, MmhState
from tests.mmh.helpers import C, new_game

SEARCH = ("mmh", "choice", "search")


def _vein() -> tuple[MmhState, PlayRequest]:
    state = new_game(2, heroes=("laszlo", "orson"))
    for card in ("horn_of_plenty", "ring_of_misfortune"):
        state.artefact_deck.remove(card)
        state.artefact_discard.append(card)
    for card in ("arcane_bolt", "dispel"):
        state.scroll_deck.remove(card)
        state.scroll_discard.append(card)
    state.queue.insert(0, DragonVein(seat=0, hero="laszlo"))
    request = PlayRequest(
        state=state, seat=0, legal=MMH.legal_commands(state, 0), decision=MMH.pending(state)[0]
    )
    return state, request


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_dragon_vein_suggests_the_cards_of_the_chosen_pile_only() -> None:
    _, request = _vein()
    every = {name for name, _ in suggest(SEARCH, request, "card", "", {})}
    names = {
        C.card_name(c) for c in ("horn_of_plenty", "ring_of_misfortune", "arcane_bolt", "dispel")
    }
    assert names <= every
    scrolls = suggest(SEARCH, request, "card", "", {"pile": "scroll"})
    assert {name for name, _ in scrolls} == {C.card_name("arcane_bolt"), C.card_name("dispel")}
    artefacts = suggest(SEARCH, request, "card", "", {"pile": "artefact"})
    assert {name for name, _ in artefacts} == {
        C.card_name("horn_of_plenty"),
        C.card_name("ring_of_misfortune"),
    }
    # what was typed fits nothing: every card is offered again rather than none
    assert {n for n, _ in suggest(SEARCH, request, "card", "", {"pile": "nonsense"})} == every


@pytest.mark.rule("mmh:course-of-play.activate-hero")
def test_a_move_suggests_the_spaces_the_active_hero_can_step_to() -> None:
    from engine.mmh.movement import legal_moves
    from tests.mmh.helpers import activate, at, clear_encounters, fixed_board, label

    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    clear_encounters(state)
    state.heroes["laszlo"].space = at(state, "C3")
    activate(state, "laszlo")
    request = PlayRequest(
        state=state, seat=0, legal=MMH.legal_commands(state, 0), decision=MMH.pending(state)[0]
    )
    got = suggest(("mmh", "hero", "move"), request, "to", "", {})
    expected = {
        label(state, s) for s in legal_moves(state, state.heroes["laszlo"]) if s is not None
    }
    assert {value for _, value in got} == expected and len(expected) >= 2
