"""`heroes-table simulate`: play complete games between computer seats and report as JSON.

Every command goes through the public `Ruleset` API (``ai_command`` then ``apply``), and
after each command the invariants are checked: the state's JSON round-trips exactly
(``dump(load(dump(s))) == dump(s)``) and, for homm4, every card instance lies in exactly
one zone. Any exception or breach counts as an error and is printed to stderr with the
seed that reproduces it. A game that needs more than ``--max-commands`` commands is
reported as stuck (an error), never as finished: games end only by the rules' victory.

Output (one JSON line on stdout): ``games``, ``finished``, ``errors``, ``mean_turns``,
``max_turns``, ``mean_commands``, ``seconds``, ``games_per_second``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.errors import RuleViolation
from engine.core.model import GameState
from engine.core.ruleset import Ruleset, get_ruleset


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` options to ``parser``."""
    parser.add_argument("--ruleset", default="homm4", help="ruleset id (default: homm4)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default: 2)")
    parser.add_argument("--games", type=int, default=10, help="number of games (default: 10)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the first game; game i uses seed+i"
    )
    parser.add_argument(
        "--max-commands",
        type=int,
        default=20000,
        help="commands after which a game counts as stuck (an error; default: 20000)",
    )
    parser.add_argument(
        "--options",
        default="{}",
        help='game options as JSON, e.g. \'{"assembly": "manual", "map_sections": 5}\'',
    )
    parser.add_argument(
        "--no-checks",
        action="store_true",
        help="skip the per-command invariant checks (to measure raw speed)",
    )


@dataclass
class GameReport:
    """How one simulated game went."""

    seed: int
    finished: bool
    turns: int
    commands: int
    error: str | None = None


def _invariant_checker(ruleset: Ruleset[Any]) -> Callable[[GameState], list[str]]:
    """Return the ruleset's own state audit (`Ruleset.audit`)."""
    return ruleset.audit


def play_game(
    ruleset: Ruleset[Any],
    players: int,
    seed: int,
    options: dict[str, Any],
    *,
    max_commands: int = 20000,
    checks: bool = True,
) -> GameReport:
    """Play one game between AI seats and return its report (never raises for game errors).

    The AI's random choices come from ``random.Random(seed)``; the game's own dice from the
    game seed, so the same seed replays the same game.
    """
    audit = _invariant_checker(ruleset)
    rng = random.Random(seed)
    commands = 0
    state: Any = None
    try:
        state, _ = ruleset.new_game(ruleset.parse_options(options), players, seed)
        while not ruleset.result(state).finished:
            if commands >= max_commands:
                return GameReport(
                    seed, False, _turns(state), commands, f"stuck after {commands} commands"
                )
            decision = ruleset.pending(state)[0]
            command = ruleset.ai_command(state, decision.seat, rng)
            state, _ = ruleset.apply(state, decision.seat, command)
            commands += 1
            if checks:
                problem = _check(ruleset, state, audit)
                if problem:
                    return GameReport(
                        seed, False, _turns(state), commands, f"after {command!r}: {problem}"
                    )
    except Exception as error:  # every failure is reported with its seed
        return GameReport(seed, False, _turns(state), commands, f"{type(error).__name__}: {error}")
    return GameReport(seed, True, _turns(state), commands)


def _turns(state: Any) -> int:
    return int(getattr(state, "turn", 0) or 0) if state is not None else 0


def _check(
    ruleset: Ruleset[Any], state: GameState, audit: Callable[[GameState], list[str]]
) -> str | None:
    dumped = ruleset.dump_state(state)
    again = ruleset.dump_state(ruleset.load_state(dumped))
    if again != dumped:
        return "the state JSON does not round-trip exactly"
    problems = audit(state)
    return "; ".join(problems) if problems else None


def _input_problem(args: argparse.Namespace) -> str | None:
    """Say what is wrong with the command line (ruleset, player count, options, game
    count) before any game is played, or None."""
    try:
        ruleset = get_ruleset(args.ruleset)
    except RuleViolation as error:
        return str(error)
    if args.games < 1:
        return f"--games must be at least 1, not {args.games}."
    low, high = ruleset.min_players, ruleset.max_players
    if not low <= args.players <= high:
        return f"{ruleset.id} is played by {low} to {high} players, not {args.players}."
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as error:
        return f"--options is not valid JSON ({error.msg} at character {error.pos})."
    if not isinstance(options, dict):
        return "--options must be a JSON object, e.g. '{\"morale\": true}'."
    try:  # options that depend on the seats (teams, decks...) are checked by new_game
        ruleset.new_game(ruleset.parse_options(options), args.players, args.seed)
    except RuleViolation as error:
        return str(error)
    return None


def main(args: argparse.Namespace) -> int:
    """Run the simulation described by ``args``; print the JSON summary line.

    A bad command line (unknown ruleset, player count out of range, options that are not
    JSON or that the ruleset refuses, fewer than 1 game) is reported on stderr before any
    game is played, with exit code 2 and no JSON line.

    :returns: 0 when every game finished without error, 2 for a bad command line, else 1.
    """
    import engine.rulesets  # noqa: F401  (registers every shipped ruleset)

    problem = _input_problem(args)
    if problem:
        print(f"heroes-table simulate: {problem}", file=sys.stderr)
        return 2
    ruleset = get_ruleset(args.ruleset)
    options = json.loads(args.options)
    started = time.perf_counter()
    reports: list[GameReport] = []
    for index in range(args.games):
        seed = args.seed + index
        report = play_game(
            ruleset,
            args.players,
            seed,
            options,
            max_commands=args.max_commands,
            checks=not args.no_checks,
        )
        reports.append(report)
        if report.error:
            print(
                f"game seed={seed} players={args.players} ruleset={args.ruleset}: {report.error}",
                file=sys.stderr,
            )
    seconds = time.perf_counter() - started
    finished = [r for r in reports if r.finished]
    errors = sum(1 for r in reports if r.error)
    summary = {
        "games": len(reports),
        "finished": len(finished),
        "errors": errors,
        "mean_turns": round(sum(r.turns for r in finished) / len(finished), 2) if finished else 0,
        "max_turns": max((r.turns for r in finished), default=0),
        "mean_commands": round(sum(r.commands for r in reports) / len(reports), 2)
        if reports
        else 0,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(reports) / seconds, 3) if seconds > 0 else 0,
    }
    print(json.dumps(summary))
    return 0 if errors == 0 and len(finished) == len(reports) else 1
