"""`heroes-table render` and pictures of real simulated games (the registered ruleset's AI)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from rendering import cli
from rendering.encode import MAX_BYTES, MAX_WIDTH
from rendering.homm4 import draw_battle, draw_board, draw_hand, render_board
from tests.rendering.helpers import PNG_SIGNATURE, decode, inside

SEED = 3


@pytest.fixture(scope="module")
def shots() -> cli.Snapshots:
    """Seed 3, three computer seats: a Round 3 board and the first battle."""
    return cli.simulate(SEED, 3, 3)


def _args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    return parser.parse_args(["--seed", str(SEED), "--out", str(out), *extra])


def test_render_writes_board_battle_hand_and_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(_args(tmp_path)) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert {"board.png", "battle.png", "hand.png"} <= set(names)
    cards = [n for n in names if n.startswith("card-")]
    assert len(cards) == 4
    for path in tmp_path.iterdir():
        data = path.read_bytes()
        assert data.startswith(PNG_SIGNATURE)
        assert len(data) < MAX_BYTES
        assert decode(data).width <= MAX_WIDTH
    assert "board.png" in capsys.readouterr().out


@pytest.mark.slow
def test_same_seed_same_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert cli.main(_args(first, "--cards", "1")) == 0
    assert cli.main(_args(second, "--cards", "1")) == 0
    for path in first.iterdir():
        assert (second / path.name).read_bytes() == path.read_bytes()


@pytest.mark.slow
def test_webp_and_measure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(_args(tmp_path, "--format", "webp", "--cards", "0", "--measure")) == 0
    assert (tmp_path / "board.webp").read_bytes()[:4] == b"RIFF"
    out = capsys.readouterr().out
    assert '"format": "palette.png"' in out and '"format": "webp"' in out


def test_board_of_a_real_game(shots: cli.Snapshots) -> None:
    view = shots.board
    assert view.round >= 3
    drawing = draw_board(view)
    for army in view.armies:
        token = drawing.find("army", f"army:{army.id}")
        centre = (token.centre[0], token.centre[1], token.centre[0] + 1, token.centre[1] + 1)
        assert inside(centre, drawing.find("hex", army.label).box)
    assert {m.key for m in drawing.of_kind("hex_label")} == {h.label for h in view.hexes}
    assert drawing.find("path", "->".join(view.last_move))


@pytest.mark.rule("homm4:card-types")
def test_a_real_seat_view_leaks_nothing_into_the_board(shots: cli.Snapshots) -> None:
    private = {ref.id for ref in shots.hand.hand + shots.hand.risk}
    assert private, "the snapshot seat holds cards"
    assert draw_board(shots.hand).instances().isdisjoint(private)
    assert render_board(shots.hand) == render_board(shots.board)
    drawn = draw_hand(shots.hand).instances()
    assert drawn == private


def test_battle_of_a_real_game(shots: cli.Snapshots) -> None:
    assert shots.battle is not None and shots.battle.battle is not None
    battle = shots.battle.battle
    drawing = draw_battle(shots.battle)
    assert {m.key for m in drawing.of_kind("creature")} == {str(c.id) for c in battle.creatures}
    assert battle.last_attack is not None
    assert drawing.find("die", str(battle.last_attack.roll))


async def test_rendering_in_worker_threads_gives_the_same_bytes(shots: cli.Snapshots) -> None:
    """The bot renders through asyncio.to_thread; concurrent renders must not disturb
    each other (shared fonts and sprite caches)."""
    expected = render_board(shots.board)
    results = await asyncio.gather(
        *(asyncio.to_thread(render_board, shots.board) for _ in range(4))
    )
    assert all(r == expected for r in results)


@pytest.mark.slow
def test_every_stage_of_a_real_game_draws() -> None:
    """Board assembly, set-up, turns, battles and game over: every third position of a
    four-seat game with manual assembly draws without error."""
    import random

    import engine.rulesets  # noqa: F401
    from engine.core.ruleset import get_ruleset

    ruleset = get_ruleset("homm4")
    state, _ = ruleset.new_game(ruleset.parse_options({"assembly": "manual"}), 4, 5)
    rng = random.Random(5)
    phases = set()
    for step in range(2000):
        view = ruleset.public_view(state)
        if step % 3 == 0 or view.battle is not None:
            phases.add(view.phase)
            if view.hexes:
                draw_board(view)
            if view.battle is not None:
                draw_battle(view)
            if step % 12 == 0:
                draw_hand(ruleset.view(state, view.active))
        if ruleset.result(state).finished:
            break
        seat = ruleset.pending(state)[0].seat
        state, _ = ruleset.apply(state, seat, ruleset.ai_command(state, seat, rng))
    assert {"assemble", "setup", "movement"} <= phases
    assert ruleset.result(state).finished
    draw_board(ruleset.public_view(state))


@pytest.mark.rule("homm4:battles")
def test_the_town_battle_sample_shows_a_breach_and_the_attack_that_made_it() -> None:
    """Seed 12 (the docs' battle picture): the first attack at a Town breaches its walls."""
    shots = cli.simulate(12, 3, 3, town_battle=True)
    assert shots.battle is not None and shots.battle.battle is not None
    battle = shots.battle.battle
    assert (battle.defender_kind, battle.walls) == ("town", "breach")
    attack = battle.last_attack
    assert attack is not None and attack.walls
    assert (attack.attack_value, attack.roll, attack.total, attack.defense) == (2, 9, 11, 10)
    drawing = draw_battle(shots.battle)
    assert drawing.find("walls", "breach").text == "Breach"
    assert (
        drawing.find("last_attack", "roll").text
        == "2 + die 9 = 11 vs Defense 10: walls now: Breach"
    )


def test_town_battle_says_when_the_game_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(
        ["--seed", "1", "--out", str(tmp_path), "--cards", "0", "--town-battle"]
    )
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    assert "seed 1: no attack at a Town in this game; battle.png shows the first battle" in err


def test_site_list_lines_are_never_cut_short() -> None:
    """Seed 5's Round 3 board is 1444 px wide; three columns would cut "Q7 Library of
    Enlightenment · guarded 3", so the list uses two."""
    from engine.homm4.cards import load_card_pool
    from rendering.homm4.board import site_text

    view = cli.simulate(5, 3, 3).board
    drawing = draw_board(view)
    assert drawing.image.width == 1444
    pool = load_card_pool()
    lines = {m.key: m for m in drawing.of_kind("site_line")}
    identified = [s for s in view.sites if s.status != "unidentified"]
    assert len(identified) == 7
    for site in identified:
        assert lines[site.label].text == site_text(site, pool)
    assert lines["Q7"].text == "Q7 Library of Enlightenment · guarded 3"
    columns = {m.box[0] for m in lines.values()}
    assert len(columns) == 2


def test_the_strip_of_a_wide_board_reads_on_a_phone(shots: cli.Snapshots) -> None:
    """Seed 3's board is 1444 px wide; Discord shows it about 500 px wide on a phone, so
    the strip grows with the board: its lines stay at least 8 px tall there (6.6 px when
    the strip kept its 1100 px sizes)."""
    drawing = draw_board(shots.board)
    assert drawing.image.width == 1444
    scale = 500 / drawing.image.width
    for kind in ("title", "player", "player_stats", "note"):
        marks = drawing.of_kind(kind)
        assert marks, kind
        for mark in marks:
            assert (mark.box[3] - mark.box[1]) * scale >= 8, (kind, mark.key)
