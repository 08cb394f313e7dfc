"""mmh pictures: the board, the initiative track, capital boards and hero sheets, checked
by their layout marks; private scrolls appear only on the owner's own hero sheet."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest

from engine.mmh.battle import begin_encounter_battle
from rendering.encode import MAX_WIDTH
from rendering.mmh import draw_board, draw_capital, draw_hero, draw_track, render_board
from tests.mmh.helpers import C, R, activate, at, fixed_board, new_game, place_encounter


def _midgame():  # type: ignore[no-untyped-def]
    state, _ = R.new_game(R.parse_options({"length": "quick"}), 3, 8)
    rng = random.Random(8)
    while state.round < 3 and not R.result(state).finished:
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, R.ai_command(state, seat, rng))
    return state


@pytest.mark.rule("mmh:description-of-the-game-board")
def test_board_shows_capitals_heroes_encounters_and_control() -> None:
    state = _midgame()
    view = R.public_view(state)
    drawing = draw_board(view)
    assert drawing.image.width <= MAX_WIDTH
    assert len(drawing.of_kind("capital")) == 3
    on_map = [h for h in view.heroes if h.space is not None]
    assert {m.key for m in drawing.of_kind("hero")} == {h.id for h in on_map}
    assert len(drawing.of_kind("encounter")) == len(state.encounters)
    assert len(drawing.of_kind("control")) == len(state.control)
    texts = drawing.texts()
    assert f"Round {state.round}" in texts
    assert render_board(view)[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.rule("mmh:description-of-the-game-board.terrain-features-on-the-game-board")
def test_board_shows_which_space_each_encounter_symbol_guards_and_the_red_tiles() -> None:
    state = _midgame()
    view = R.public_view(state)
    drawing = draw_board(view)
    symbols = {s.label: s for s in view.spaces if s.symbol is not None and s.capital is None}
    guards = {m.key: m for m in drawing.of_kind("guard")}
    assert set(guards) == set(symbols) and len(guards) >= 20
    by_label = {s.label: s for s in view.spaces}
    for label, mark in guards.items():
        target = by_label[mark.text]
        assert mark.text == symbols[label].guards and target.location is not None
        assert abs(target.x - symbols[label].x) + abs(target.y - symbols[label].y) == 1
    # 3 players: tiles 1-12, of which the red ones are 1, 2, 3 and 10
    assert sorted(int(m.key) for m in drawing.of_kind("red-tile")) == [1, 2, 3, 10]


@pytest.mark.rule("mmh:description-of-the-game-board")
def test_board_never_names_a_held_scroll() -> None:
    state = _midgame()
    hero = state.heroes[state.seats[0].heroes[0]]
    hero.scrolls.append(state.scroll_deck.pop(0))
    names = {C.scroll(s).name for h in state.heroes.values() for s in h.scrolls}
    drawing = draw_board(R.view(state, 0))  # even given a seat view
    assert all(name not in " ".join(drawing.texts()) for name in names)


@pytest.mark.rule("mmh:course-of-play.battles")
def test_initiative_track_in_attack_order() -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    fixed_board(state)
    place_encounter(state, at(state, "D3"), 2)
    state.heroes["laszlo"].space = at(state, "D3")
    activate(state, "laszlo")
    with pytest.raises(ValueError):
        draw_track(R.public_view(state))
    begin_encounter_battle(state, state.heroes["laszlo"], at(state, "D3"), "enter", None)
    from engine.mmh.battle import compute_order

    assert state.battle is not None
    state.battle.order = compute_order(state)
    drawing = draw_track(R.public_view(state))
    units = drawing.of_kind("unit")
    assert [int(m.key) for m in units] == state.battle.order
    xs = [m.box[0] for m in units]
    assert xs == sorted(xs)
    texts = drawing.texts()
    assert "2 dice · might 5" in texts  # Laszlo: Might 5, Aggressor
    assert "Red (active)" in texts and "Blue commands" in texts  # the encounter's controller
    assert "attacker" not in texts and "defender" not in texts  # those change every roll


@pytest.mark.rule("mmh:course-of-play.build")
def test_capital_board_lists_levels_and_buildings() -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("laszlo", "orson"))
    state.seats[0].buildings.append("marketplace")
    drawing = draw_capital(R.public_view(state), 0)
    assert len(drawing.of_kind("building")) == 9
    assert {m.key for m in drawing.of_kind("creature")} == {
        c.id for c in C.faction_creatures("haven")
    }


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_hero_sheet_names_scrolls_only_for_the_owner() -> None:
    state = new_game(2, factions=("haven", "necropolis"), heroes=("ysabel", "orson"))
    state.scroll_deck.remove("implosion")
    state.heroes["ysabel"].scrolls.append("implosion")
    public = draw_hero(R.public_view(state), "ysabel")
    other = draw_hero(R.view(state, 1), "ysabel")
    own = draw_hero(R.view(state, 0), "ysabel")
    assert "implosion" not in public.cards() and "implosion" not in other.cards()
    assert "implosion" in own.cards()
    assert "Scrolls: 1 held face down" in public.texts()


def test_render_command_writes_the_pictures(tmp_path: Path) -> None:
    from rendering import cli

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(
        [
            "--ruleset",
            "mmh",
            "--seed",
            "3",
            "--players",
            "2",
            "--round",
            "2",
            "--out",
            str(tmp_path),
        ]
    )
    from rendering.mmh.cli import main

    assert main(args) == 0
    written = {p.name for p in tmp_path.iterdir()}
    assert {"board.png", "capital-red.png", "capital-blue.png"} <= written
    assert any(name.startswith("hero-") for name in written)


def test_board_reads_on_a_phone_and_heroes_leave_location_codes_clear() -> None:
    """Discord shows a picture about 500 px wide on a phone: the status panel sits under
    the map so the picture stays 792 px wide and its status and player lines stay at least 9 px tall there (the legend's capitals 7.5 px);
    a hero on a location stands above the location's code."""
    state = _midgame()
    view = R.public_view(state)
    drawing = draw_board(view)
    assert drawing.image.width == 2 * 28 + view.width * 46 == 792
    scale = 500 / drawing.image.width
    for kind, least in (("status", 9), ("seat", 9), ("legend", 7.5)):
        marks = drawing.of_kind(kind)
        assert marks, kind
        for mark in marks:
            assert (mark.box[3] - mark.box[1]) * scale >= least, (kind, mark.key)
    map_bottom = 28 + view.height * 46
    assert all(m.box[1] > map_bottom for m in drawing.of_kind("seat"))

    located = sorted(s.label for s in view.spaces if s.location is not None)
    hero = view.heroes[0]
    on_location = hero.model_copy(update={"space": located[0]})
    view = view.model_copy(update={"heroes": (on_location, *view.heroes[1:])})
    drawing = draw_board(view)
    token, code = drawing.find("hero", hero.id), drawing.find("location", located[0])
    assert token.box[3] <= code.box[1] + 3, (token.box, code.box)


@pytest.mark.rule("mmh:description-of-the-game-board")
def test_the_board_counts_week_cards_in_words() -> None:
    """'12 week cards left', '1 week card left' (no 'card(s)')."""
    state = _midgame()
    view = R.public_view(state)
    left = view.weeks_left
    assert f"{left} week cards left · win at {view.threshold} VP" in draw_board(view).texts()
    one = view.model_copy(update={"weeks_left": 1})
    assert f"1 week card left · win at {view.threshold} VP" in draw_board(one).texts()


def test_public_only_keeps_a_public_view_and_reduces_a_seat_view() -> None:
    from engine.core.ruleset import get_ruleset
    from engine.mmh.views import PublicView, SeatView
    from rendering.mmh.api import public_only

    rules = get_ruleset("mmh")
    state = new_game(2, seed=3)
    public = rules.public_view(state)
    assert type(public) is PublicView and public_only(public) is public
    seat = rules.view(state, 0)
    assert isinstance(seat, SeatView)
    reduced = public_only(seat)
    assert type(reduced) is PublicView and reduced == public
