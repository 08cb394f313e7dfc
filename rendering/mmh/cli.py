"""`heroes-table render --ruleset mmh`: play a seeded computer game and write its pictures.

Written to ``--out``: ``board.<ext>`` (the first position in round ``--round`` or later
right after a hero's move), ``battle.<ext>`` (the initiative track of the first battle
after an attack, if the game has one), ``capital-<colour>.<ext>`` for every seat and
``hero-<id>.<ext>`` for every hero in play (public sheets: scroll counts only). The same
``--seed`` always gives the same pictures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

MAX_STEPS = 30_000
"""Commands simulated at most while looking for the positions."""


def snapshots(seed: int, players: int, board_round: int) -> tuple[Any, Any]:
    """(board view, battle view or None) of the seeded all-computer game.

    :raises RuntimeError: if no hero moves within `MAX_STEPS` commands.
    """
    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    ruleset: Any = get_ruleset("mmh")
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.parse_options({}), players, seed)
    board = battle = None
    steps = 0
    while steps < MAX_STEPS and not ruleset.result(state).finished:
        seat = ruleset.pending(state)[0].seat
        command = ruleset.ai_command(state, seat, rng)
        state, _ = ruleset.apply(state, seat, command)
        steps += 1
        moved = command.type == "move" and state.battle is None
        if moved and (board is None or board.round < board_round):
            board = ruleset.public_view(state)
        if battle is None and state.battle is not None and state.battle.last is not None:
            battle = ruleset.public_view(state)
        if board is not None and board.round >= board_round and battle is not None:
            break
    if board is None:
        raise RuntimeError(f"seed {seed}: no hero moved within {steps} commands")
    return board, battle


def main(args: argparse.Namespace) -> int:
    """Draw the pictures described by ``args`` (see `rendering.cli.add_arguments`)."""
    from engine.core.model import seat_name
    from rendering.encode import ImageFormat, encode
    from rendering.mmh import draw_board, draw_capital, draw_hero, draw_track

    fmt = ImageFormat(args.format)
    players = min(max(args.players, 2), 4)
    try:
        board, battle = snapshots(args.seed, players, args.board_round)
    except RuntimeError as error:
        print(f"render: {error}", file=sys.stderr)
        return 1
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, Any]] = [("board", lambda: draw_board(board))]
    if battle is not None:
        jobs.append(("battle", lambda: draw_track(battle)))
    for seat in board.seats:
        jobs.append(
            (f"capital-{seat_name(seat.seat).lower()}", lambda s=seat.seat: draw_capital(board, s))
        )
    for hero in board.heroes:
        jobs.append((f"hero-{hero.id}", lambda h=hero.id: draw_hero(board, h)))
    timings: dict[str, float] = {}
    for name, job in jobs:
        start = time.perf_counter()
        image = job().image
        timings[name] = time.perf_counter() - start
        path = out / f"{name}.{fmt.extension}"
        path.write_bytes(encode(image, fmt))
        print(f"{path} ({path.stat().st_size} bytes)")
    if getattr(args, "focus", False):
        from rendering.focus import write_focus

        shown = {"board": board, **({"battle": battle} if battle is not None else {})}
        for path in write_focus(out, "mmh", shown, fmt):
            print(f"{path} ({path.stat().st_size} bytes)")
    print("draw ms: " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in timings.items()))
    return 0
