"""`heroes-table render`: simulate a homm4 game to a mid-game position and write its images.

The computer plays every seat (the ruleset's own AI, seeded), so the same ``--seed`` always
gives the same pictures. Written to ``--out``: ``board.png`` (a few Rounds in, after a
move), ``hand.png`` (the active seat's Hand and Risk Stack at that moment),
``battle.png`` (the first battle in which an attack has been made) and ``card-<id>.png``
for a few cards of that Hand (then of its Army Stacks). ``--measure`` also prints, as JSON, the encoded size and
encoding time of each image in each format (the numbers in docs/RENDERING.md).

Module-level imports stay light: `bot.cli` imports this module to build its parser.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from PIL import Image

    from engine.homm4.views import PublicView, SeatView
    from rendering.canvas import Drawing

MAX_STEPS = 30_000
"""Commands simulated at most while looking for the positions (each is one AI decision)."""

RULESET_RENDERERS: dict[str, str] = {
    "heroforge": "rendering.heroforge.cli",
    "homm3": "rendering.homm3.cli",
    "mmh": "rendering.mmh.cli",
}
"""Other rulesets' render commands: ruleset id -> module with ``main(args) -> int`` (it
reads the same arguments; homm4's own options are ignored there)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``render`` options to ``parser``."""
    parser.add_argument(
        "--ruleset",
        default="homm4",
        choices=["homm4", *RULESET_RENDERERS],
        help="the game whose pictures to draw (default: homm4)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="game seed; the same seed gives the same images"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("renders"), help="directory to write the images into"
    )
    parser.add_argument("--players", type=int, default=3, help="number of computer seats (2-6)")
    parser.add_argument(
        "--round",
        type=int,
        default=3,
        dest="board_round",
        help="Round of the board snapshot (default 3)",
    )
    parser.add_argument(
        "--format",
        default="palette.png",
        choices=["png", "palette.png", "webp"],
        help="image encoding (default: palette PNG)",
    )
    parser.add_argument("--cards", type=int, default=4, help="how many card images to write")
    parser.add_argument(
        "--town-battle",
        action="store_true",
        help="prefer a battle at a Town (walls) for battle.png",
    )
    parser.add_argument(
        "--focus",
        action="store_true",
        help="also write each channel picture's focus picture (board-focus.png...)",
    )
    parser.add_argument(
        "--measure",
        action="store_true",
        help="print sizes and encoding times of every format as JSON",
    )


@dataclass
class Snapshots:
    """The positions the pictures are drawn from."""

    board: PublicView
    hand: SeatView
    battle: PublicView | None
    steps: int


def simulate(seed: int, players: int, board_round: int, town_battle: bool = False) -> Snapshots:
    """Play a seeded all-computer homm4 game until the board and battle positions appear.

    The board snapshot is the first position in Round ``board_round`` (or later) right
    after a move, or the last such position if the game ends sooner. The battle snapshot
    is the first battle position after an attack (None if the game has no battle); with
    ``town_battle`` the first such position of a battle at a Town is preferred.
    :raises RuntimeError: if no move is made within `MAX_STEPS` commands.
    """
    import random

    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    ruleset: Any = get_ruleset("homm4")
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.parse_options({}), players, seed)
    board = hand = battle = town = None
    settled = False
    steps = 0
    while steps < MAX_STEPS and not (settled and (town if town_battle else battle) is not None):
        if ruleset.result(state).finished:
            break
        seat = ruleset.pending(state)[0].seat
        state, _ = ruleset.apply(state, seat, ruleset.ai_command(state, seat, rng))
        steps += 1
        if not settled and state.battle is None and state.last_move is not None:
            board, hand = ruleset.public_view(state), ruleset.view(state, state.active)
            settled = state.round >= board_round
        fought = state.battle is not None and state.battle.last_attack is not None
        if fought and battle is None:
            battle = ruleset.public_view(state)
        if fought and town is None and state.battle.defender_kind == "town":
            town = ruleset.public_view(state)
    if board is None or hand is None:
        raise RuntimeError(f"seed {seed}: no position after a move within {steps} commands")
    return Snapshots(board, hand, town or battle, steps)


def _write(out: Path, name: str, data: bytes) -> Path:
    path = out / name
    path.write_bytes(data)
    return path


def _measure(images: dict[str, Any]) -> list[dict[str, Any]]:
    """Size and best-of-three encoding time of each image in each format."""
    from rendering.encode import ImageFormat, encode

    rows = []
    for name, image in images.items():
        for fmt in ImageFormat:
            times = []
            for _ in range(3):
                start = time.perf_counter()
                data = encode(image, fmt)
                times.append(time.perf_counter() - start)
            rows.append(
                {
                    "image": name,
                    "size": f"{image.width}x{image.height}",
                    "format": fmt.value,
                    "bytes": len(data),
                    "ms": round(min(times) * 1000, 1),
                }
            )
    return rows


def main(args: argparse.Namespace) -> int:
    """Run ``render``: simulate, draw, write the files; print what was written. Returns 0,
    or 1 with a message when no position could be reached."""
    if args.ruleset in RULESET_RENDERERS:
        import importlib

        module = importlib.import_module(RULESET_RENDERERS[args.ruleset])
        code: int = module.main(args)
        return code
    from rendering.encode import ImageFormat, encode
    from rendering.focus import write_focus
    from rendering.homm4 import draw_battle, draw_board, draw_card, draw_hand

    fmt = ImageFormat(args.format)
    try:
        shots = simulate(args.seed, args.players, args.board_round, args.town_battle)
    except RuntimeError as error:
        print(f"render: {error}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    images: dict[str, Image.Image] = {}
    drawers: list[tuple[str, Callable[[], Drawing]]] = [
        ("board", partial(draw_board, shots.board)),
        ("hand", partial(draw_hand, shots.hand)),
    ]
    if shots.battle is not None:
        drawers.append(("battle", partial(draw_battle, shots.battle)))
        fought = shots.battle.battle
        if args.town_battle and fought is not None and fought.defender_kind != "town":
            print(
                f"render: seed {args.seed}: no attack at a Town in this game; "
                f"battle.{fmt.extension} shows the first battle (seed 12 has a Town's walls "
                "breached)",
                file=sys.stderr,
            )
    else:
        print(
            f"render: seed {args.seed}: no battle within {shots.steps} commands; "
            f"battle.{fmt.extension} not written",
            file=sys.stderr,
        )
    for name, draw in drawers:
        start = time.perf_counter()
        images[name] = draw().image
        timings[name] = time.perf_counter() - start
    written = [
        _write(args.out, f"{name}.{fmt.extension}", encode(image, fmt))
        for name, image in images.items()
    ]
    if getattr(args, "focus", False):
        shown = {"board": shots.board, **({"battle": shots.battle} if shots.battle else {})}
        written += write_focus(args.out, "homm4", shown, fmt)
    own_armies = [a for a in shots.hand.armies if a.owner == shots.hand.seat]
    candidates = [*shots.hand.hand, *shots.hand.risk, *(c for a in own_armies for c in a.cards)]
    for ref in candidates[: args.cards]:
        written.append(
            _write(
                args.out,
                f"card-{ref.id}-{ref.card}.{fmt.extension}",
                encode(draw_card(ref.card, ref.id).image, fmt),
            )
        )
    for path in written:
        print(f"{path} ({path.stat().st_size} bytes)")
    print("draw ms: " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in timings.items()))
    if args.measure:
        print(json.dumps(_measure(images), indent=1))
    return 0 if shots.battle is not None else 1
