"""homm3 pictures: the Battlefield, the Adventure state and a player's cards, checked by
their layout marks (what is drawn where) and for privacy."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest
from PIL import Image

from engine.homm3.state import Placed
from rendering.homm3 import draw_adventure, draw_battle, draw_board, draw_hand, render_battle
from tests.homm3.helpers import RULES, battle, new, play_until
from tests.rendering.helpers import missing_glyphs


@pytest.mark.rule("homm3bf:battlefield-combat")
def test_battlefield_shows_every_hex_unit_and_obstacle() -> None:
    state = battle(
        [(0, "griffins", True, "C5"), (0, "marksmen", False, "A5"), (1, "zombies", False, "K5")],
        hands={0: ["attack"]},
    )
    assert state.combat is not None
    state.combat.placed.append(Placed(token=1, kind="obstacle", name="Boulder", hexes=["F5"]))
    state.combat.units[2].damage = 1
    state.combat.units[2].defending = True
    drawing = draw_battle(RULES.public_view(state))
    assert len(drawing.of_kind("hex")) == 13 * 9
    assert {m.key for m in drawing.of_kind("unit")} == {"unit:1", "unit:2", "unit:3"}
    assert drawing.find("placed", "F5").text == "Boulder"
    assert "-1" in [m.text for m in drawing.of_kind("damage")]
    assert "D" in [m.text for m in drawing.of_kind("tokens")]
    order = [m.key for m in drawing.of_kind("order")]
    assert order and order[0] == "order:1"  # the Griffins (Initiative 9) act first
    griffins, zombies = drawing.find("unit", "unit:1"), drawing.find("unit", "unit:3")
    assert griffins.centre[0] < zombies.centre[0]
    width, height = drawing.image.size
    assert width <= 1600 and height <= 1600
    assert "P Griffins" in drawing.texts()


@pytest.mark.rule("homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege")
def test_siege_walls_and_gate_are_drawn() -> None:
    from tests.homm3.helpers import answer_choices

    state = answer_choices(new(heroes=("catherine", "mutare"), siege=True))
    drawing = draw_battle(RULES.public_view(state))
    labels = [m.text for m in drawing.of_kind("placed_label")]
    assert labels.count("Wall") == 8 and labels.count("Gate") == 1
    assert "Siege" in drawing.texts()[0]


def test_battle_picture_never_shows_a_hand() -> None:
    state = battle(
        [(0, "griffins", True, "C5"), (1, "zombies", False, "K5")],
        hands={0: ["fireball", "prayer"]},
    )
    drawing = draw_battle(RULES.view(state, 0))  # a seat view by mistake: reduced to public
    assert not drawing.instances()
    assert not any("Fireball" in t or "Prayer" in t for t in drawing.texts())
    data = render_battle(RULES.public_view(state))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_adventure_picture_shows_rounds_towns_and_armies() -> None:
    state = play_until(
        new(mode="adventure", heroes=("catherine", "mutare")), lambda s: s.round >= 3
    )
    drawing = draw_adventure(RULES.public_view(state))
    assert len(drawing.of_kind("round")) == 9
    assert {m.key for m in drawing.of_kind("player")} == {"Red", "Blue"}
    assert any(m.key == "0:dwelling_bronze" for m in drawing.of_kind("building"))
    for player in state.seats:
        for unit in player.army:
            assert drawing.find("unit", f"{player.seat}:{unit.unit}")
    assert draw_board(RULES.public_view(state)).of_kind("round")


def test_hand_picture_shows_only_its_seat_cards() -> None:
    state = battle(
        [(0, "griffins", True, "C5"), (1, "zombies", False, "K5")],
        hands={0: ["fireball"], 1: ["prayer"]},
    )
    drawing = draw_hand(RULES.view(state, 0))
    own = set(state.player(0).hand)
    assert drawing.instances() == own
    assert "Fireball" in drawing.texts()
    assert "Prayer" not in drawing.texts()


def test_render_cli_writes_the_pictures(tmp_path: Path) -> None:
    from rendering import cli

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(
        ["--ruleset", "homm3", "--seed", "3", "--out", str(tmp_path), "--round", "4"]
    )
    assert cli.main(args) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["adventure.png", "battle.png", "hand-blue.png", "hand-red.png"]
    with Image.open(tmp_path / "battle.png") as image:
        assert image.width > 600


@pytest.mark.rule("homm3bf:battlefield-combat")
@pytest.mark.parametrize("options", [{"mode": "adventure"}, {"mode": "skirmish", "siege": True}])
@pytest.mark.slow
def test_every_character_drawn_along_a_game_is_in_the_font(options: dict[str, object]) -> None:
    """Every text of the pictures drawn after each command of a whole computer game (the
    last attack line, windows, the order, the Adventure state, both hands) has its glyphs
    in Roboto: none is drawn as the missing-glyph box."""
    rng = random.Random(2)
    state = new(seed=4, **options)
    texts: set[str] = set()
    for _ in range(3000):
        if RULES.result(state).finished:
            break
        public = RULES.public_view(state)
        drawings = [draw_battle(public) if public.combat else draw_adventure(public)]
        drawings += [draw_hand(RULES.view(state, seat)) for seat in range(2)]
        texts.update(t for d in drawings for t in d.texts())
        seat = RULES.pending(state)[0].seat
        state, _ = RULES.apply(state, seat, RULES.ai_command(state, seat, rng))
    assert RULES.result(state).finished
    assert any(t.startswith("Last attack: [") for t in texts)
    assert missing_glyphs(sorted(texts)) == set()


@pytest.mark.rule("homm3bf:battlefield-combat.place-obstacles")
def test_every_obstacle_name_is_drawn_whole_inside_its_hex() -> None:
    from engine.homm3.combat_flow import token_hexes
    from engine.homm3.content import load_content

    state = battle([(0, "griffins", True, "C5"), (1, "zombies", False, "K5")])
    assert state.combat is not None
    spots = ["D1", "F1", "H1", "J1", "D4", "F4", "H4", "D7", "F7", "H7"]
    tokens = load_content().board.token
    for token, spot in zip(tokens, spots, strict=True):
        cover = token_hexes(token.number, spot)
        assert cover is not None
        state.combat.placed.append(
            Placed(token=token.number, kind="obstacle", name=token.obstacle.name, hexes=cover)
        )
    drawing = draw_battle(RULES.public_view(state))
    by_hex: dict[str, list[str]] = {}
    for mark in drawing.of_kind("placed_label"):
        by_hex.setdefault(mark.key, []).append(mark.text)
        hex_box = drawing.find("hex", mark.key).box
        assert hex_box[0] <= mark.box[0] and mark.box[2] <= hex_box[2], mark.text
    assert by_hex["H7"] == ["Standing", "Stone"]
    assert by_hex["F1"] == ["Dead", "Tree"]
    assert {" ".join(by_hex[s]) for s in spots} == {t.obstacle.name for t in tokens}


@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token")
def test_the_whole_initiative_order_is_drawn_with_a_legend_of_the_token_letters() -> None:
    """Fourteen units (a large Skirmish) all appear in the order, on more lines than one;
    the letters beside units are explained under the board."""
    castle = ["halberdiers", "marksmen", "griffins", "crusaders", "zealots", "champions"]
    castle.append("archangels")
    necro = ["skeletons", "zombies", "wraiths", "vampires", "liches", "dread_knights"]
    necro.append("ghost_dragons")
    units = [(0, u, True, f"{'AB'[i % 2]}{i + 1}") for i, u in enumerate(castle)]
    units += [(1, u, True, f"{'LM'[i % 2]}{i + 1}") for i, u in enumerate(necro)]
    state = battle(units)
    assert state.combat is not None
    state.combat.units[0].defending = True
    state.combat.units[8].retaliated = True
    state.combat.units[9].damage = 1
    drawing = draw_battle(RULES.public_view(state))
    order = drawing.of_kind("order")
    assert len(order) == 14
    assert len({m.box[1] for m in order}) >= 2  # wrapped onto a second line
    assert drawing.image.height > draw_battle(RULES.public_view(battle(units[:2]))).image.height
    legend = drawing.find("legend", "").text
    assert legend == "D Defending · r has retaliated this round · -N damage taken"


@pytest.mark.rule("homm3turn:necropolis")
def test_a_necropolis_player_is_shown_ignoring_morale() -> None:
    state = play_until(
        new(mode="adventure", heroes=("catherine", "tamika")), lambda s: s.round >= 2
    )
    lines = {m.key: m.text for m in draw_adventure(RULES.public_view(state)).of_kind("morale")}
    assert lines["Blue"] == "Morale: none (Necropolis ignores every Morale effect)"
    assert lines["Red"].startswith("Positive Morale: ")
    fight = battle([(0, "griffins", True, "C5"), (1, "zombies", False, "K5")])
    morale = {m.key: m.text for m in draw_battle(RULES.public_view(fight)).of_kind("morale")}
    assert morale["Blue"] == "ignores Morale (Necropolis)"
    assert morale["Red"] == "Positive Morale: none"


PHONE = 500
"""Discord shows a picture about 500 px wide on a phone (issue 4)."""


def _phone_px(mark_size: int, width: int) -> float:
    return mark_size * PHONE / width


@pytest.mark.rule("homm3bf:battlefield-combat")
def test_the_battlefield_reads_on_a_phone() -> None:
    """At 500 px wide the unit numbers, hex names, edge names, whose turn, the round, the
    order, the players' lines, the unit roster and the list of Obstacles are drawn at 17 px
    or more on the 855 px picture, i.e. at least 9.9 px there (were 10-16 px: 5.8-9.4 px);
    the names inside hexes are small, but every unit and Obstacle is named again at full
    size under the board."""
    castle = ["halberdiers", "marksmen", "griffins", "crusaders", "zealots", "champions"]
    castle.append("archangels")
    necro = ["skeletons", "zombies", "wraiths", "vampires", "liches", "dread_knights"]
    necro.append("ghost_dragons")
    units = [(0, u, True, f"{'AB'[i % 2]}{i + 1}") for i, u in enumerate(castle)]
    units += [(1, u, True, f"{'LM'[i % 2]}{i + 1}") for i, u in enumerate(necro)]
    state = battle(units)
    assert state.combat is not None
    state.combat.placed.append(
        Placed(token=10, kind="obstacle", name="Standing Stone", hexes=["F5"])
    )
    state.combat.placed.append(Placed(token=8, kind="obstacle", name="Pond", hexes=["F7", "G7"]))
    state.combat.units[9].damage = 1
    drawing = draw_battle(RULES.public_view(state))
    width = drawing.image.width
    assert width == 855
    for kind in ("title", "token", "prompt", "edge", "hex_label", "unit_number", "order"):
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(_phone_px(m.size, width) for m in marks) >= 9.9, kind
    for kind in ("order_title", "player", "morale", "roster", "placed_list"):
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(_phone_px(m.size, width) for m in marks) >= 9.9, kind
    for kind in ("legend", "damage"):
        assert min(_phone_px(m.size, width) for m in drawing.of_kind(kind)) >= 9.3, kind
    roster = {m.key: m.text for m in drawing.of_kind("roster")}
    assert len(roster) == 14
    assert roster["unit:10"] == "[10] Pack of Wraiths 4/5"  # a Pack has 5 Health; 1 damage
    assert roster["unit:1"] == "[1] Pack of Halberdiers 2/2"
    listed = " ".join(m.text for m in drawing.of_kind("placed_list"))
    assert listed == "On the board: Standing Stone F5 · Pond F7 G7"
    assert drawing.image.height <= 1600
    assert len(render_battle(RULES.public_view(state))) < 1_000_000


@pytest.mark.rule("homm3bf:adventure-mode")
def test_the_adventure_picture_reads_on_a_phone() -> None:
    """The Adventure picture is 800 px wide (was 1000) with 16 px text or more, so at 500 px
    every line reads at 10 px or more (rounds 15 px; were 11-22 px: 5.5-11 px)."""
    state = play_until(
        new(mode="adventure", heroes=("catherine", "mutare")), lambda s: s.round >= 3
    )
    drawing = draw_adventure(RULES.public_view(state))
    width = drawing.image.width
    assert width == 800
    kinds = ["title", "round", "round_kind", "player", "resources", "token", "building"]
    kinds += ["unit", "morale", "cards", "resolved"]
    for kind in kinds:
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(_phone_px(m.size, width) for m in marks) >= 10, kind
    assert _phone_px(drawing.find("round", "round:3").size, width) == 15


def test_the_hand_picture_reads_on_a_phone_and_shows_every_card_whole() -> None:
    """The private hand is 760 px wide (was 1000) with two cards a row: at 500 px the card
    numbers read at 15.8 px, names at 13.2 px and the effects at 10.5 px (were 10, 8 and
    6 px), and every card's text is drawn whole (it was cut at the tile's foot)."""
    from rendering.homm3.hand import card_lines

    state = battle(
        [(0, "griffins", True, "C5"), (1, "zombies", False, "K5")],
        hands={0: ["fireball", "prayer", "attack"]},
    )
    view = RULES.view(state, 0)
    drawing = draw_hand(view)
    width = drawing.image.width
    assert width == 760
    for kind, least in (("card", 15.7), ("card_name", 13.1), ("effect", 10.5), ("title", 15.7)):
        marks = drawing.of_kind(kind)
        assert marks, kind
        assert min(_phone_px(m.size, width) for m in marks) >= least, kind
    for ref in view.hand:
        drawn = [m.text for m in drawing.of_kind("effect") if m.key == f"#{ref.number}"]
        assert " ".join(drawn) == " ".join(" ".join(line.split()) for line in card_lines(ref)[1])
