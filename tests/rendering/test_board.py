"""The Game Board picture: size, tokens where the Armies are, names, path, strip, privacy."""

from __future__ import annotations

import pytest

from engine.core.model import SEAT_COLOURS
from engine.homm4.maps import load_maps
from engine.homm4.views import PublicView, SeatView
from rendering.canvas import Drawing
from rendering.encode import MAX_BYTES, MAX_WIDTH
from rendering.homm4 import draw_board, public_only, render_board
from rendering.homm4.board import army_text, site_text
from rendering.homm4.palette import SEAT_SHAPES, seat_rgb
from rendering.homm4.terrain import look_for
from rendering.shapes import token
from tests.rendering.helpers import PNG_SIGNATURE, decode, inside, missing_glyphs, share_of_colour

PHONE = 500
"""Discord shows an image about this many px wide on a phone."""


def test_size_and_format(public: PublicView) -> None:
    data = render_board(public)
    image = decode(data)
    assert data.startswith(PNG_SIGNATURE)
    assert image.width <= MAX_WIDTH
    assert len(data) < MAX_BYTES
    assert image.height > image.width // 2


def test_same_view_same_bytes(public: PublicView) -> None:
    first = render_board(public)
    render_board(public.model_copy(update={"round": 9}))
    assert render_board(public) == first
    assert render_board(PublicView.model_validate(public.model_dump())) == first


@pytest.mark.rule("homm4:army-and-object-town-tokens")
def test_each_army_token_sits_on_its_hex_in_the_owners_colour(
    public: PublicView, board: Drawing
) -> None:
    for army in public.armies:
        mark = board.find("army", f"army:{army.id}")
        hex_box = board.find("hex", army.label).box
        assert inside(
            (mark.centre[0], mark.centre[1], mark.centre[0] + 1, mark.centre[1] + 1), hex_box
        )
        assert share_of_colour(board, mark.box, seat_rgb(army.owner), tolerance=6) > 0.1
        number = board.find("army_number", f"army:{army.id}")
        assert number.text == str(army.id)
        assert inside(number.box, mark.box)


def test_seats_differ_in_shape_as_well_as_colour() -> None:
    masks = {
        bytes(
            token(shape, 40, (128, 128, 128), (255, 255, 255), (0, 0, 0)).getchannel("A").tobytes()
        )
        for shape in SEAT_SHAPES
    }
    assert len(SEAT_SHAPES) == len(SEAT_COLOURS)
    assert len(masks) == len(SEAT_SHAPES)
    greys = [
        round(0.299 * r + 0.587 * g + 0.114 * b) for r, g, b in (seat_rgb(s) for s in range(6))
    ]
    assert len(set(greys)) == 6


@pytest.mark.rule("homm4:terrain-map-sections")
def test_every_hex_is_named_and_edges_carry_columns_and_rows(
    public: PublicView, board: Drawing
) -> None:
    named = {m.key for m in board.of_kind("hex_label")}
    assert named == {h.label for h in public.hexes}
    edges = {m.key for m in board.of_kind("edge_label")}
    columns = {"".join(ch for ch in h.label if ch.isalpha()) for h in public.hexes}
    rows = {"".join(ch for ch in h.label if ch.isdigit()) for h in public.hexes}
    for column in columns:
        assert {f"col:{column}:top", f"col:{column}:bottom"} <= edges
    for row in rows:
        assert {f"row:{row}:left", f"row:{row}:right"} <= edges


def test_edge_letters_line_up_with_their_hexes(public: PublicView, board: Drawing) -> None:
    """The letter above column C stands over the top hex of column C (odd-r offsets)."""
    top_row = min(int("".join(ch for ch in h.label if ch.isdigit())) for h in public.hexes)
    for hv in public.hexes:
        column = "".join(ch for ch in hv.label if ch.isalpha())
        if hv.label == f"{column}{top_row}":
            letter = board.find("edge_label", f"col:{column}:top")
            assert abs(letter.centre[0] - board.find("hex", hv.label).centre[0]) <= 2


def test_key_labels_stay_legible_on_a_phone(board: Drawing) -> None:
    scale = PHONE / board.image.width
    for kind in ("edge_label", "army_number", "title", "player_stats"):
        for mark in board.of_kind(kind):
            assert (mark.box[3] - mark.box[1]) * scale >= 6.5, (kind, mark.key)


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_legend_names_every_terrain_on_the_board_with_its_cost(
    public: PublicView, board: Drawing
) -> None:
    legend = load_maps().terrain
    entries = {m.key: m.text for m in board.of_kind("legend")}
    for code in {h.terrain for h in public.hexes}:
        terrain = legend[code]
        assert entries[code] == f"{terrain.name} ({terrain.cost if terrain.passable else 'X'})"


def test_every_shipped_terrain_has_its_own_look() -> None:
    looks = {code: look_for(code, t) for code, t in load_maps().terrain.items()}
    assert len({(look.fill, look.pattern) for look in looks.values()}) == len(looks)
    for code, terrain in load_maps().terrain.items():
        assert looks[code].ring == terrain.special, code


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_site_icons_show_their_state(public: PublicView, board: Drawing) -> None:
    unknown = {m.key for m in board.of_kind("site_state")}
    guards = {m.key: m.text for m in board.of_kind("guard")}
    owners = {m.key: m.text for m in board.of_kind("owner")}
    levels = {m.key: m.text for m in board.of_kind("town_level")}
    for site in public.sites:
        mark = board.find("site", site.label)
        assert inside(
            (mark.centre[0], mark.centre[1], mark.centre[0] + 1, mark.centre[1] + 1),
            board.find("hex", site.label).box,
        )
        assert (site.label in unknown) == (site.status == "unidentified")
        if site.status == "guarded":
            assert guards[site.label] == str(len(site.guard))
        if site.status == "owned":
            assert owners[site.label] == SEAT_COLOURS[site.owner or 0]
            assert share_of_colour(board, mark.box, seat_rgb(site.owner), tolerance=8) > 0.05
        if site.kind == "town" and site.status != "unidentified":
            assert levels[site.label] == str(site.level)


def test_site_and_army_lists(public: PublicView, board: Drawing) -> None:
    from engine.homm4.cards import load_card_pool

    pool = load_card_pool()
    site_lines = {m.key: m.text for m in board.of_kind("site_line")}
    for site in public.sites:
        if site.status != "unidentified":
            assert site_lines[site.label].rstrip("…") in site_text(site, pool)
    army_lines = {m.key: m.text for m in board.of_kind("army_line")}
    for army in public.armies:
        assert army_lines[f"army:{army.id}"].rstrip("…") in army_text(army, pool)
    assert army_text(public.armies[0], pool).endswith("MP 2½/5")


@pytest.mark.rule("homm4:movement-phase")
def test_last_move_path_is_drawn_in_the_movers_colour(public: PublicView, board: Drawing) -> None:
    path = board.find("path", "->".join(public.last_move))
    assert path.box[2] - path.box[0] > 0 or path.box[3] - path.box[1] > 0
    a = board.find("hex", public.last_move[0]).centre
    b = board.find("hex", public.last_move[1]).centre
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    box = (mid[0] - 2, mid[1] - 2, mid[0] + 3, mid[1] + 3)
    assert share_of_colour(board, box, seat_rgb(public.last_move_owner), tolerance=2) > 0.5


@pytest.mark.rule("homm4:game-process")
def test_strip_shows_round_turn_phase_and_each_players_counts(public: PublicView) -> None:
    quiet = draw_board(public.model_copy(update={"battle": None}))
    title = quiet.find("title", "strip").text
    assert title == "Round 4 · Red's turn · Movement Phase"
    stats = {m.key: m.text for m in quiet.of_kind("player_stats")}
    for player in public.players:
        assert stats[f"seat:{player.seat}"] == (
            f"Towns {player.towns} · Armies {player.armies} · Hand {player.hand_size} · Risk {player.risk_size}"
        )
    assert any("Waiting: Red may move" in t for t in quiet.texts())


@pytest.mark.rule("homm4:game-process")
def test_a_finished_game_names_the_winner_and_no_ones_turn(public: PublicView) -> None:
    from engine.core.model import Result
    from rendering.homm4.palette import HIGHLIGHT

    result = Result(finished=True, winners=(2,), reason="Green is the last side standing.")
    over = draw_board(public.model_copy(update={"battle": None, "result": result}))
    assert over.find("title", "strip").text == "Round 4 · Game over"
    assert "Game over — winner: Green. Green is the last side standing." in over.texts()
    red_row = over.find("player", "seat:0").box
    frame = (4, red_row[1] - 8, 30, red_row[3] + 8)  # where the turn frame's left edge runs
    assert share_of_colour(over, frame, HIGHLIGHT) == 0
    playing = draw_board(public.model_copy(update={"battle": None}))
    assert share_of_colour(playing, frame, HIGHLIGHT) > 0


@pytest.mark.rule("homm4:battles")
def test_battle_hex_is_marked(public: PublicView, board: Drawing) -> None:
    assert public.battle is not None
    marker = board.find("battle", public.battle.label)
    assert inside(marker.box, board.find("hex", public.battle.label).box, slack=grid_slack(board))
    assert "Battle at" in board.find("title", "strip").text


def grid_slack(board: Drawing) -> int:
    """Half a hex: the battle marker leans over its hex's corner."""
    first = board.of_kind("hex")[0].box
    return (first[2] - first[0]) // 2


def test_every_character_is_in_the_font(board: Drawing) -> None:
    assert missing_glyphs(board.texts()) == set()


@pytest.mark.rule("homm4:card-types")
def test_public_picture_never_draws_a_hand_or_risk_card(public: PublicView, seat: SeatView) -> None:
    """A SeatView handed to the board renderer is cut to its public part first."""
    private = {ref.id for ref in seat.hand + seat.risk}
    drawn = draw_board(seat)
    assert drawn.instances().isdisjoint(private)
    public_ids = {ref.id for army in public.armies for ref in army.cards}
    public_ids |= {
        ref.id
        for site in public.sites
        for ref in (*([site.card] if site.card else []), *site.guard, *site.garrison)
    }
    assert drawn.instances() <= public_ids
    assert render_board(seat) == render_board(public)
    assert type(public_only(seat)) is PublicView
    assert not hasattr(public_only(seat), "hand")


def test_no_board_yet_is_refused(public: PublicView) -> None:
    with pytest.raises(ValueError, match="no hexes"):
        draw_board(public.model_copy(update={"hexes": ()}))


# ------------------------------------------------------------ advanced rules' state
@pytest.fixture(scope="module")
def advanced(public: PublicView) -> PublicView:
    """``public`` with entrance coins, a sold Object, dead Heroes, teams and options."""
    from tests.rendering.samples import advanced_view

    return advanced_view(public.model_copy(update={"battle": None}))


@pytest.fixture(scope="module")
def advanced_board(advanced: PublicView) -> Drawing:
    return draw_board(advanced)


NEW_KINDS = ("entrance", "sold", "fallen", "fallen_token", "team", "strip_line", "advanced_line")


def test_a_base_game_picture_shows_none_of_the_advanced_marks(board: Drawing) -> None:
    assert not [m for m in board.marks if m.kind in NEW_KINDS]
    assert "advanced" not in {m.key for m in board.of_kind("heading")}


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_entrance_coins_show_their_pair_number_on_their_icons(
    advanced: PublicView, advanced_board: Drawing
) -> None:
    from rendering.homm4.icons import COIN_DARK, COIN_GOLD

    coins = {m.key: m for m in advanced_board.of_kind("entrance")}
    expected = {s.label: s for s in advanced.sites if s.entrance is not None}
    assert set(coins) == set(expected) and len(coins) == 4
    for label, site in expected.items():
        mark = coins[label]
        assert mark.text == str(site.entrance)
        hex_box = advanced_board.find("hex", label).box
        assert inside(mark.box, hex_box, slack=grid_slack(advanced_board) // 2)
        fill = COIN_GOLD if site.entrance_found else COIN_DARK
        ring = (mark.box[0] - 6, mark.box[1] - 6, mark.box[2] + 6, mark.box[3] + 6)
        assert share_of_colour(advanced_board, ring, fill, tolerance=12) > 0.1, label
    lines = {m.key: m.text for m in advanced_board.of_kind("advanced_line")}
    found = next(s for s in advanced.sites if s.entrance_found)
    assert f"{found.label} (found)" in lines["coin:1"] and lines["coin:1"].startswith(
        "Coin 1 links"
    )
    assert "(found)" not in lines["coin:2"]


@pytest.mark.rule("homm4:advanced-rules.resource-trading")
def test_a_sold_object_carries_the_buyers_badge(
    advanced: PublicView, advanced_board: Drawing
) -> None:
    sold = next(s for s in advanced.sites if s.sold_to is not None)
    mark = advanced_board.find("sold", sold.label)
    assert mark.text == SEAT_COLOURS[sold.sold_to or 0]
    assert share_of_colour(advanced_board, mark.box, seat_rgb(sold.sold_to), tolerance=8) > 0.1
    text = advanced_board.find("advanced_line", f"sold:{sold.label}").text
    assert text.endswith(
        f"sold by {SEAT_COLOURS[sold.owner or 0]} to {SEAT_COLOURS[sold.sold_to or 0]}"
    )


@pytest.mark.rule("homm4:advanced-rules.resurrecting-fallen-heroes")
def test_dead_heroes_lie_face_down_where_they_died(
    advanced: PublicView, advanced_board: Drawing
) -> None:
    from engine.homm4.cards import load_card_pool

    lying = [f for f in advanced.fallen if f.army is None]
    carried = [f for f in advanced.fallen if f.army is not None]
    assert {m.key for m in advanced_board.of_kind("fallen")} == {f"hero:{f.hero.id}" for f in lying}
    for body in lying:
        mark = advanced_board.find("fallen", f"hero:{body.hero.id}")
        assert mark.instance == body.hero.id and mark.text == body.label
        centre = (mark.centre[0], mark.centre[1], mark.centre[0] + 1, mark.centre[1] + 1)
        assert inside(centre, advanced_board.find("hex", body.label).box)
        assert share_of_colour(advanced_board, mark.box, seat_rgb(body.seat), tolerance=8) > 0.05
        token_mark = advanced_board.find("fallen_token", f"hero:{body.hero.id}")
        assert token_mark.text == str(body.token)
    lines = {m.key: m.text for m in advanced_board.of_kind("advanced_line")}
    name = load_card_pool().cards[carried[0].hero.card].name
    assert lines[f"hero:{carried[0].hero.id}"].startswith(name)
    assert lines[f"hero:{carried[0].hero.id}"].endswith("carried by Army 2")
    first = lying[0]
    assert lines[f"hero:{first.hero.id}"].endswith(f"dead Hero at {first.label}, token 1")


@pytest.mark.rule("homm4:game-variants.team-play")
def test_teams_and_the_options_in_effect_are_in_the_strip(
    advanced: PublicView, advanced_board: Drawing
) -> None:
    tags = {m.key: m.text for m in advanced_board.of_kind("team")}
    assert tags == {"seat:0": "A", "seat:1": "B", "seat:2": "A"}
    lines = {m.key: m.text for m in advanced_board.of_kind("strip_line")}
    assert lines["teams"] == "Teams: A Red + Green · B Blue"
    options = " · ".join(v for k, v in sorted(lines.items()) if k.startswith("rules:"))
    assert options.startswith("Options: Morale · Luck · Flying · Native Lands")
    for short in ("Resurrection", "Potions", "Trading", "Diplomacy", "Starting Forces"):
        assert short in options
    assert "Pre-developed Heroes" in options and "Underground" in options
    assert "Team Play" not in options, "the teams line shows the teams"
    assert 2 <= len([k for k in lines if k.startswith("rules:")]) <= 3, "a few short lines"
    strip = advanced_board.find("title", "strip").box
    for mark in advanced_board.of_kind("strip_line"):
        assert mark.box[2] <= advanced_board.image.width - 24 and mark.box[1] > strip[3]
        assert not mark.text.endswith("…")


def test_the_advanced_marks_stay_legible_on_a_phone(advanced_board: Drawing) -> None:
    scale = PHONE / advanced_board.image.width
    for kind in ("entrance", "fallen_token", "team", "strip_line", "advanced_line"):
        marks = advanced_board.of_kind(kind)
        assert marks, kind
        for mark in marks:
            assert (mark.box[3] - mark.box[1]) * scale >= 6.5, (kind, mark.key)
    assert missing_glyphs(advanced_board.texts()) == set()


@pytest.mark.rule("homm4:card-types")
def test_the_advanced_picture_names_only_face_up_cards(advanced: PublicView) -> None:
    drawn = draw_board(advanced)
    public_ids = {ref.id for army in advanced.armies for ref in army.cards}
    public_ids |= {
        ref.id
        for site in advanced.sites
        for ref in (*([site.card] if site.card else []), *site.guard, *site.garrison)
    }
    public_ids |= {body.hero.id for body in advanced.fallen}
    assert drawn.instances() <= public_ids
