"""`heroes-table render --ruleset heroforge`: play a seeded computer game to a mid-game
position and write its pictures.

Written to ``--out``: ``board.<ext>`` (the first position in Round ``--round`` or later,
right after a move, preferring one with a fort on the board) and ``inventory-<colour>.<ext>``
for every seat at that moment. The same ``--seed`` always gives the same pictures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

MAX_STEPS = 30_000
"""Commands simulated at most while looking for the position."""


def snapshot(seed: int, players: int, board_round: int) -> Any:
    """The public view of the seeded all-computer game at the wanted position.

    :raises RuntimeError: if no move is made within `MAX_STEPS` commands.
    """
    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    ruleset: Any = get_ruleset("heroforge")
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.parse_options({}), players, seed)
    found = None
    steps = 0
    while steps < MAX_STEPS and not ruleset.result(state).finished:
        seat = ruleset.pending(state)[0].seat
        command = ruleset.ai_command(state, seat, rng)
        state, _ = ruleset.apply(state, seat, command)
        steps += 1
        if command.type == "move":
            found = ruleset.public_view(state)
            if state.round >= board_round and state.forts:
                break
    if found is None:
        raise RuntimeError(f"seed {seed}: no move within {steps} commands")
    return found


def main(args: argparse.Namespace) -> int:
    """Draw the pictures described by ``args`` (see `rendering.cli.add_arguments`)."""
    from rendering.encode import ImageFormat, encode
    from rendering.heroforge import draw_board, draw_inventory

    fmt = ImageFormat(args.format)
    try:
        view = snapshot(args.seed, args.players, args.board_round)
    except RuntimeError as error:
        print(f"render: {error}", file=sys.stderr)
        return 1
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    written = []
    jobs: list[tuple[str, int | None]] = [("board", None)] + [
        (f"inventory-{p.colour.lower()}", p.seat) for p in view.players
    ]
    for name, seat in jobs:
        start = time.perf_counter()
        image = (draw_board(view) if seat is None else draw_inventory(view, seat)).image
        timings[name] = time.perf_counter() - start
        path = out / f"{name}.{fmt.extension}"
        path.write_bytes(encode(image, fmt))
        written.append(path)
    if getattr(args, "focus", False):
        from rendering.focus import write_focus

        written += write_focus(out, "heroforge", {"board": view}, fmt)
    for path in written:
        print(f"{path} ({path.stat().st_size} bytes)")
    print("draw ms: " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in timings.items()))
    return 0
