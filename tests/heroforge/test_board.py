"""The board: plates attached by edge or corner, the builder, land shifting."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, InvalidInput
from engine.heroforge import board, plates
from engine.heroforge.catalog import load_catalog
from tests.heroforge.helpers import CROSS, R, apply, fort, new_game, put, started


@pytest.mark.rule("heroforge:lands")
@pytest.mark.parametrize("layout", sorted(load_catalog().layouts))
def test_every_ready_board_is_one_piece_with_enough_plain_lands(layout: str) -> None:
    _low, high = load_catalog().layouts[layout].players
    state = new_game(high, layout=layout)
    assert plates.connected((p.x, p.y) for p in state.plates)
    classes = [load_catalog().lands[p.land].land_class for p in state.plates]
    assert classes.count("plain") >= high
    assert 1 <= classes.count("special") <= 2


@pytest.mark.rule("heroforge:lands")
def test_random_plates_are_drawn_with_logged_rolls() -> None:
    _, events = R.new_game(R.parse_options({"layout": "crossroads"}), 2, 5)
    rolls = [e for e in events if e.kind == "die_roll"]
    assert len(rolls) == 5  # four B plates and one S plate on Crossroads
    assert {r.data["sides"] for r in rolls} == {
        len(load_catalog().lands_of("basic")),
        len(load_catalog().lands_of("special")),
    }


@pytest.mark.rule("heroforge:lands")
def test_a_custom_grid_with_gaps_and_corner_attachments() -> None:
    state = new_game(2, grid="PL . . / . GR . / . . PL")
    assert [(p.label, p.land, p.x, p.y) for p in state.plates] == [
        ("A", "plain", 0, 0),
        ("B", "grassland", 1, 1),
        ("C", "plain", 2, 2),
    ]


@pytest.mark.rule("heroforge:lands")
def test_a_board_in_pieces_or_short_of_plain_lands_is_refused() -> None:
    with pytest.raises(ValueError, match="in pieces"):
        new_game(2, grid="PL . PL")
    with pytest.raises(InvalidInput, match="needs at least one per player"):
        new_game(3, grid="PL GR PL")
    with pytest.raises(ValueError, match="unknown land"):
        new_game(2, grid="PL XX PL")


@pytest.mark.rule("heroforge:lands")
@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"grid": "PL . PL"}, "Bad game options: board: every land plate must be attached"),
        ({"grid": "PL GR / . . / FO PL"}, "board: .* this board is in pieces."),
        ({"grid": "PL"}, "board: a board needs at least two land plates."),
        ({"grid": "PL XX"}, "board: unknown land 'XX'; use PL, GR, .* B, S or \\. \\(a gap\\)."),
        ({"layout": "custom"}, "board: a custom layout needs a grid."),
        ({"grid": "PL PL", "layout": "ring"}, "board: give either a ready-made layout or"),
        ({"list5": "omenz"}, "list5: Unknown enchantment list 'omenz'; ready-made lists"),
        ({"heroes": ["weir", "bob"]}, "heroes: unknown hero 'bob'"),
    ],
)
def test_the_board_builder_refuses_a_bad_board_when_the_game_is_created(
    raw: dict[str, object], message: str
) -> None:
    # A board in pieces is refused with the options, before anybody joins; the message
    # names the option as typed in /game new (board:, list5:...) and has no pydantic words.
    with pytest.raises(InvalidInput, match=message) as caught:
        R.parse_options(raw)
    assert "Value error" not in str(caught.value)


@pytest.mark.rule("heroforge:land-shifting")
def test_a_plate_shifts_only_into_an_empty_neighbouring_space() -> None:
    state = new_game(2, grid="PL GR . / FO . PL")
    # A = PL (0,0), B = GR (1,0), C = FO (0,1), D = PL (2,1)
    assert "plate B is there" in (board.shift_problem(state, "A", "E") or "")
    assert "cut off" in (board.shift_problem(state, "B", "E") or "")
    assert board.shift_problem(state, "C", "E") is None
    board.shift(state, "C", "E")
    assert (state.plate("C").x, state.plate("C").y) == (1, 1)


@pytest.mark.rule("heroforge:land-shifting")
def test_a_shift_that_cuts_a_land_off_is_refused() -> None:
    state = new_game(2, grid="PL GR PL")
    with pytest.raises(IllegalMove, match="cut off"):
        board.shift(state, "A", "W")
    # a plate still touching another by a corner stays attached
    assert ("A", "S") in board.legal_shifts(state)
    assert ("B", "N") in board.legal_shifts(state)
    assert ("A", "W") not in board.legal_shifts(state)


@pytest.mark.rule("heroforge:land-shifting")
def test_heroes_and_forts_ride_along_with_their_plate() -> None:
    state = started(grid="PL GR . / FO . PL", plains=("A", "D"))
    put(state, 0, "C", 1, 1)
    built = fort(state, 1, "C", 3, 3)
    before = board.to_global(state, state.player(0).at)  # type: ignore[arg-type]
    board.shift(state, "C", "E")
    assert state.player(0).at is not None and state.player(0).at.plate == "C"
    after = board.to_global(state, state.player(0).at)
    assert after == (before[0] + 5, before[1])
    assert built.at.plate == "C"


@pytest.mark.rule("heroforge:turns")
def test_scenario_roll_ten_lets_the_player_shift_one_plate() -> None:
    state = started(grid=CROSS + " / . . .", scenario=10)
    decision = R.pending(state)[0]
    assert (decision.seat, decision.kind) == (0, "shift")
    state, events = apply(state, 0, {"type": "shift", "plate": "G", "direction": "S"})
    assert (state.plate("G").x, state.plate("G").y) == (0, 3)
    assert state.shift_due == [] and state.step == "buy1"
    assert "shifts plate G one space S" in events[0].text
