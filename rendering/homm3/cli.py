"""`heroes-table render --ruleset homm3`: play a seeded computer game and write its pictures.

Written to ``--out``: ``adventure.<ext>`` (an Adventure game at round ``--round``, or the
Skirmish armies), ``battle.<ext>`` (the final Combat after the first attacks, in a Siege
with ``--town-battle``; the position before the winning attack when the Combat ends
sooner) and ``hand-<colour>.<ext>`` for every seat at that moment. The same
``--seed`` always gives the same pictures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rendering.canvas import Drawing

MAX_STEPS = 20_000
"""Commands simulated at most while looking for the positions."""


def snapshots(seed: int, board_round: int, siege: bool) -> tuple[Any, Any, list[Any]]:
    """``(adventure view, battle view, seat views)`` of a seeded all-computer Adventure.

    :raises RuntimeError: when the game ends without a Combat position.
    """
    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    ruleset: Any = get_ruleset("homm3")
    rng = random.Random(seed)
    options = ruleset.parse_options({"mode": "adventure", "siege": siege})
    state, _ = ruleset.new_game(options, 2, seed)
    adventure = None
    hands: list[Any] = []
    attacks = 0
    last_fight = None
    for _ in range(MAX_STEPS):
        if ruleset.result(state).finished:
            break
        seat = ruleset.pending(state)[0].seat
        command = ruleset.ai_command(state, seat, rng)
        before = state
        state, _ = ruleset.apply(state, seat, command)
        if state.phase == "adventure" and state.round >= board_round and adventure is None:
            adventure = ruleset.public_view(state)
        if state.phase == "combat" and command.type == "attack":
            attacks += 1
            last_fight = state if not ruleset.result(state).finished else before
            if attacks >= 3:
                break
    if last_fight is None:
        last_fight = state
    battle = ruleset.public_view(last_fight)
    hands = [ruleset.view(last_fight, s) for s in range(2)]
    if adventure is None or battle.combat is None:
        raise RuntimeError(
            f"seed {seed}: no Adventure or Combat position within {MAX_STEPS} commands"
        )
    return adventure, battle, hands


def main(args: argparse.Namespace) -> int:
    """Draw the pictures described by ``args`` (see `rendering.cli.add_arguments`)."""
    from rendering.encode import ImageFormat, encode
    from rendering.homm3 import draw_adventure, draw_battle, draw_hand

    fmt = ImageFormat(args.format)
    try:
        adventure, battle, hands = snapshots(
            args.seed, args.board_round, bool(getattr(args, "town_battle", False))
        )
    except RuntimeError as error:
        print(f"render: {error}", file=sys.stderr)
        return 1
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[str, Callable[[], Drawing]]] = [
        ("adventure", partial(draw_adventure, adventure)),
        ("battle", partial(draw_battle, battle)),
    ]
    for view in hands:
        colour = view.players[view.seat].colour.lower()
        jobs.append((f"hand-{colour}", partial(draw_hand, view)))
    timings: dict[str, float] = {}
    written = []
    for name, draw in jobs:
        start = time.perf_counter()
        image = draw().image
        timings[name] = time.perf_counter() - start
        path = out / f"{name}.{fmt.extension}"
        path.write_bytes(encode(image, fmt))
        written.append(path)
    if getattr(args, "focus", False):
        from rendering.focus import write_focus

        written += write_focus(out, "homm3", {"adventure": adventure, "battle": battle}, fmt)
    for path in written:
        print(f"{path} ({path.stat().st_size} bytes)")
    print("draw ms: " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in timings.items()))
    return 0
