"""The Hero Forge pictures: board (plates, forts, heroes, contested lands) and inventory."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.heroforge import enchant
from engine.heroforge.catalog import load_catalog
from rendering import cli
from rendering.heroforge import draw_board, draw_inventory, render_board
from rendering.heroforge.board import plate_box, square_centre, square_px
from rendering.heroforge.palette import land_rgb, seat_rgb
from tests.heroforge.helpers import R, fort, give, put, started


def _arranged():  # type: ignore[no-untyped-def]
    state = started()
    put(state, 0, "B", 2, 2)
    put(state, 1, "B", 4, 4)
    fort(state, 0, "H", 0, 0, 5)
    fort(state, 0, "H", 4, 0)
    give(state, 0, 3, 7)
    enchant.deliver(state, 0, load_catalog().lists["fortunes"].enchantments[1], 2)
    return state


@pytest.mark.rule("heroforge:lands")
def test_the_board_shows_every_plate_with_its_land_and_stats() -> None:
    state = _arranged()
    view = R.public_view(state)
    drawing = draw_board(view)
    assert {m.key for m in drawing.of_kind("plate")} == {p.label for p in state.plates}
    texts = drawing.texts()
    assert "B GR" in texts and "E DP" in texts and "fort 1000" in texts and "cap+2" in texts
    assert "200e" in texts  # Farmland's economy
    assert {m.key for m in drawing.of_kind("red")} >= {"B:1,3", "D:1,1", "D:3,3"}
    plate = next(p for p in view.plates if p.label == "A")
    x0, y0, _, _ = plate_box(view, plate)
    assert drawing.image.getpixel((x0 + 60, y0 + 60)) == land_rgb("plain", "plain")
    assert drawing.image.width <= 1600


@pytest.mark.rule("heroforge:lands")
def test_a_key_under_the_plates_names_each_land_and_the_signs() -> None:
    state = started(grid="PL GR PL / DP . PL")
    drawing = draw_board(R.public_view(state))
    key = " ".join(m.text for m in drawing.of_kind("key"))
    # each land once, in label order; a Special Land says so and what its owner gains
    assert key.startswith(
        "Lands: PL Plain Land · GR Grassland · DP Dragon Peak (special; owner: units +1 level)"
    )
    assert (
        "L unit levels, S speed, a bare number economy (e)" in key
        and "Yellow dashes: contested" in key
    )
    players = min(m.box[1] for m in drawing.of_kind("player"))
    assert max(m.box[3] for m in drawing.of_kind("key")) < players


@pytest.mark.rule("heroforge:forts")
def test_forts_show_manned_or_not_and_their_owner() -> None:
    view = R.public_view(_arranged())
    drawing = draw_board(view)
    assert {m.key: m.text for m in drawing.of_kind("fort")} == {"F1": "manned", "F2": "unmanned"}
    owner_box = plate_box(view, next(p for p in view.plates if p.label == "H"))
    assert drawing.image.getpixel((owner_box[0] + 1, owner_box[1] + 60)) == seat_rgb(0)


@pytest.mark.rule("heroforge:getting-economy-from-lands")
def test_heroes_and_contested_lands_are_marked() -> None:
    drawing = draw_board(R.public_view(_arranged()))
    assert {m.key for m in drawing.of_kind("hero")} == {"Red", "Blue"}
    assert [m.key for m in drawing.of_kind("contested")] == ["B"]
    assert any("Red — Weir Of HopeSeeking" in t for t in drawing.texts())


@pytest.mark.rule("heroforge:inventory")
def test_the_inventory_sheet_shows_stats_army_forts_and_enchantment() -> None:
    view = R.public_view(_arranged())
    drawing = draw_inventory(view, 0)
    levels = {m.key: m.text for m in drawing.of_kind("unit")}
    # the army only (#1 mans fort F1); Weir (+1) and Iron Banners x2 (+2): 3 -> 6, 7 -> 10
    assert levels == {"#2": "Archer level 6", "#3": "Golem level 10"}
    assert drawing.find("enchantment", "Iron Banners").text == "Iron Banners (Stack) x2"
    assert drawing.find("stat", "economy").text == "Economy 1000e"
    assert drawing.find("stat", "cap").text == "Units 3 / cap 6"
    assert {m.key for m in drawing.of_kind("fort")} == {"F1", "F2"}


def test_render_board_gives_png_bytes() -> None:
    data = render_board(R.public_view(_arranged()))
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 1_000_000


def test_render_cli_writes_board_and_inventories(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(
        ["--ruleset", "heroforge", "--seed", "3", "--players", "3", "--out", str(tmp_path)]
    )
    assert cli.main(args) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "board.png",
        "inventory-blue.png",
        "inventory-green.png",
        "inventory-red.png",
    ]


PHONE = 500
"""Discord shows a picture about 500 px wide on a phone (issue 4)."""


@pytest.mark.rule("heroforge:lands")
def test_the_board_and_sheet_read_on_a_phone() -> None:
    """A board of 3 plate columns is drawn with 36 px squares (was 24) in a 640 px picture,
    so at 500 px the plate codes read at 18.8 px, economy, fort price and cap bonus at
    17.2 px (were 10.2, 8.6 and 7.8), a red square's word at 14.1 px (was 7), the key,
    header and player lines at 10.9-16.4 px (key was 9.4). The inventory sheet's unit
    numbers read at 10.9 px (were 8.6)."""
    view = R.public_view(_arranged())
    drawing = draw_board(view)
    width = drawing.image.width
    assert width == 640
    assert square_px(view) == 36
    scale = PHONE / width
    least = {"plate": 18.7, "economy": 17.1, "fort_price": 17.1, "cap": 17.1, "key": 10.9}
    least |= {"player": 13.2, "title": 16.4, "status": 12.5, "red": 14}
    for kind, size in least.items():
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(m.size for m in marks) * scale >= size, kind
    plate = plate_box(view, next(p for p in view.plates if p.label == "A"))
    assert plate[2] - plate[0] == 5 * 36

    sheet = draw_inventory(view, 0)
    scale = PHONE / sheet.image.width
    for kind in ("unit_id", "unit_level", "stat", "fort", "enchantment"):
        marks = sheet.of_kind(kind)
        assert marks, kind
        assert min(m.size for m in marks) * scale >= 10.9, kind
    assert {m.text for m in sheet.of_kind("unit_id")} == {"#2", "#3"}


def test_a_wide_board_keeps_its_lines_large() -> None:
    """A board of 6 plate columns is 772 px wide with 24 px squares: the header, key and
    player lines grow with the width (11-16 px at 500 px; the key was 7.8); the plate codes
    read at 10.4 px and the economy, fort price and cap bonus at 9.1 px (were 8.4 and
    6.5-7.1): the squares cannot grow on so wide a board."""
    state = started(grid="PL GR PL DE PL HI / PL . DP . FA PL")
    view = R.public_view(state)
    drawing = draw_board(view)
    assert drawing.image.width == 2 * 16 + 6 * 120 + 5 * 4 == 772
    assert square_px(view) == 24
    scale = PHONE / 772
    for kind, size in {"plate": 10.3, "fort_price": 9, "key": 10.9, "player": 13.5}.items():
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(m.size for m in marks) * scale >= size, kind


@pytest.mark.rule("heroforge:basic-rules")
def test_the_last_move_trail_keeps_the_colour_of_the_player_who_moved() -> None:
    """Red moves 3 SE and ends the turn: on Blue's turn the trail is still Red's."""
    from itertools import pairwise

    from tests.heroforge.helpers import apply, script, to_step

    state = started()
    to_step(state, "move")
    script(state, 4)  # Weir's speed is -1: exactly 3 squares
    state, _ = apply(state, 0, {"type": "roll_move"})
    state, _ = apply(state, 0, {"type": "move", "direction": "se", "distance": 3})
    script(state, 5, 5)  # Blue's scenario roll
    state, _ = apply(state, 0, {"type": "end_buying"})
    view = R.public_view(state)
    assert view.active == 1 and view.last_move_owner == 0
    drawing = draw_board(view)
    points = [square_centre(view, p, cx, cy) for p, cx, cy in view.last_move]
    assert len(points) == 4
    # where Red's hero started (only the trail's dot is left there) and the middle of
    # every step of the path, across the gutter between plates A and E too
    keys = [points[0]] + [
        ((x0 + x1) // 2, (y0 + y1) // 2) for (x0, y0), (x1, y1) in pairwise(points)
    ]
    assert [drawing.image.getpixel(p) for p in keys] == [seat_rgb(0)] * 4
    assert seat_rgb(0) != seat_rgb(1)
