"""The Hero Forge pictures: board (plates, forts, heroes, contested lands) and inventory."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.heroforge import enchant
from engine.heroforge.catalog import load_catalog
from rendering import cli
from rendering.heroforge import draw_board, draw_inventory, render_board
from rendering.heroforge.board import plate_box
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
