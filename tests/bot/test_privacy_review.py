"""House rule 6 reviewed for the day's changes: the homm3 map game (face-down tiles, the
Far tile pools, the neutral unit decks, Hands during a map Combat), the searching computer
levels (``normal`` / ``hard`` see only ``rules.information_set``) and the map pictures.

* A map game through the GameService with a ``hard`` computer seat: every channel post,
  DM, log entry, public view, prompt and Python log line at DEBUG is checked by
  `tests.bot.test_privacy.play_watched` for the names and numbers of private cards.
* Whole seeded all-computer map games: at every step no face-down tile or pool tile id
  and no neutral deck's order is in the public view or a logged event's data, and every
  seat's view draws the same map, focus and board pictures as the public view.
* The search: a seat's ``normal`` and ``hard`` choice is the same in every world dealt
  from its information set (a search that read the real state would differ).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot import service_core
from bot.computer import ComputerPlayers
from engine.core.search import Budget, choose
from engine.homm3 import hexes
from engine.homm3.options import Homm3Options
from engine.homm3.ruleset import Homm3Ruleset
from engine.homm3.state import Homm3State
from tests.bot import privacy_helpers as ph
from tests.bot.test_privacy import Records, play_watched, records  # noqa: F401

RULES = Homm3Ruleset()
_HEXES = frozenset(hexes.all_hexes())
SEARCH = Budget(iterations=4, seconds=None, rollout_commands=6)


def _map_game(seed: int, players: int = 2) -> Homm3State:
    state, _ = RULES.new_game(Homm3Options(mode="map"), players, seed)
    return state


def _hidden_ids(state: Homm3State) -> set[str]:
    """Tile ids face down or in a pool (nobody at the table knows them)."""
    game = state.map
    assert game is not None
    found = {t.tile for t in game.tiles if not t.revealed}
    for pool in game.pools.values():
        found |= set(pool)
    return found


def _neutral_orders(state: Homm3State) -> list[list[str]]:
    game = state.map
    assert game is not None
    return [list(deck) for deck in game.neutral_decks.values() if len(deck) > 1]


def _data_strings(data: Any) -> list[str]:
    """Strings in event data, but for Battlefield hexes (keys naming hexes)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() if "hex" not in str(k) for s in _data_strings(v)]
    if isinstance(data, list | tuple):
        return [s for v in data for s in _data_strings(v)]
    return []


def _tile_mentions(text: str) -> set[str]:
    """Tile ids a text names: those no hex is spelt like, or after the word tile."""
    found = set(re.findall(r"(?i)\btiles?\s+([A-Z]+\d+|S-[a-z]+)\b", text))
    ids = set(re.findall(r"\b(?:[CFNS]\d+|S-[a-z]+)\b", text))
    return found | (ids - _HEXES)


def _contains_run(values: list[str], run: list[str]) -> bool:
    return any(values[i : i + len(run)] == run for i in range(len(values) - len(run) + 1))


@pytest.mark.rule("homm3core:placing-and-discovering-tiles")
@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_map_game_shows_no_face_down_tile_and_draws_the_same_for_every_seat(
    seed: int,
) -> None:
    from rendering.homm3 import api

    state = _map_game(seed)
    rng = random.Random(seed)
    drawn = steps = combat_steps = 0
    for step in range(3000):
        if RULES.result(state).finished:
            break
        seat = RULES.pending(state)[0].seat
        before_hidden = _hidden_ids(state)
        fighting = state.board is not None
        state, events = RULES.apply(state, seat, RULES.ai_command(state, seat, rng))
        steps += 1
        combat_steps += state.board is not None
        hidden = before_hidden & _hidden_ids(state)
        public = RULES.public_view(state)
        assert public.map is not None
        # the map's part exactly; elsewhere a Battlefield hex (F5) is spelt like a tile
        strings = set(ph.json_strings(public.map.model_dump(mode="json")))
        fighting = fighting or state.board is not None
        for event in events:
            found = set(_data_strings(event.data))
            strings |= found - _HEXES if fighting else found
        texts = [event.text for event in events] + [d.prompt for d in RULES.pending(state)]
        strings |= {m for text in texts for m in _tile_mentions(text)}
        assert not hidden & strings, f"step {step}: face-down tile ids {hidden & strings}"
        values = [s for s in ph.json_strings(public.model_dump(mode="json"))]
        for order in _neutral_orders(state):
            assert not _contains_run(values, order), f"step {step}: a neutral deck's order"
        for tile in public.map.tiles:
            game_tile = next(t for t in state.map.tiles if t.pos == tile.pos)  # type: ignore[union-attr]
            assert (tile.tile is None) == (not game_tile.revealed) and (
                tile.fields == {} or game_tile.revealed
            )
        if step % 60 == 0 or (state.board is not None and step % 15 == 0):
            whole = api.draw_board(public).image.tobytes()
            focus = api.draw_focus(public).image.tobytes() if state.board is None else None
            for viewer in range(state.players):
                mine = RULES.view(state, viewer)
                assert api.draw_board(mine).image.tobytes() == whole
                if focus is not None:
                    assert api.draw_focus(mine).image.tobytes() == focus
            drawn += 1
    assert RULES.result(state).finished, f"unfinished after {steps} commands"
    assert drawn > 5 and combat_steps > 0


@pytest.mark.rule("homm3core:map-tiles")
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_search_chooses_alike_in_every_world_of_the_seats_information_set(
    level: Any,
) -> None:
    state = _map_game(5)
    rng = random.Random(5)
    checked = 0
    for step in range(400):
        if RULES.result(state).finished:
            break
        seat = RULES.pending(state)[0].seat
        if step % 23 == 0 and len(RULES.legal_commands(state, seat)) > 1:
            info = RULES.information_set(state, seat)
            real = choose(RULES, state, seat, level, random.Random(step), SEARCH)
            for deal in range(2):
                world = RULES.determinize(info, seat, random.Random(100 * step + deal))
                again = choose(RULES, world, seat, level, random.Random(step), SEARCH)
                assert again == real, f"step {step}: the search read the hidden state"
            checked += 1
        state, _ = RULES.apply(state, seat, RULES.ai_command(state, seat, rng))
    assert checked >= 5


@pytest.mark.rule("homm3core:round-structure")
@pytest.mark.slow
async def test_a_map_game_with_a_hard_computer_leaks_nothing(
    tmp_path: Path,
    records: Records,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    players = ComputerPlayers(budget=SEARCH, away_level="hard", seat_level="hard")
    monkeypatch.setattr(service_core, "ComputerPlayers", lambda **_: players)
    # A card played face up or put on a (public) discard pile and taken back in the same
    # action (a Spell cast then recalled; Counterstrike discarded then searched for; a card
    # discarded to the Mana Vortex and shuffled into the deck) is hidden before and after
    # but was shown during it: not a leak.
    shown = {"play", "discard", "vortex"}
    monkeypatch.setattr(ph, "REVEALING_EVENTS", ph.REVEALING_EVENTS | shown)
    watch = await play_watched(
        tmp_path, records, "homm3", humans=1, ai=1, seed=13, actions=300, mode="map"
    )
    assert not watch.leaks, "\n".join(watch.leaks[:20])
    assert watch.checked.get("moves", 0) > 30 and watch.checked.get("log events", 0) > 50
    assert watch.checked.get("log lines", 0) > 0 or watch.checked.get("posts", 0) > 30
