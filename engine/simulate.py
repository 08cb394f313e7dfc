"""`heroes-table simulate`: play complete games between computer seats and report as JSON.

Every command goes through the public `Ruleset` API (``ai_command`` then ``apply``), and
after each command the invariants are checked: the state's JSON round-trips exactly
(``dump(load(dump(s))) == dump(s)``) and, for homm4, every card instance lies in exactly
one zone. Any exception or breach counts as an error and is printed to stderr with the
seed that reproduces it. A game that needs more than ``--max-commands`` commands is
reported as stuck (an error), never as finished: games end only by the rules' victory.

Computer levels (`engine.core.search`): ``--ai hard,easy`` gives one level per seat (or
one for every seat); game ``i`` turns the list by ``i`` seats, so each level plays every
seat (and the seat that starts) in turn. ``--ai-iterations`` caps each searched decision
(reproducible), ``--ai-seconds`` limits it in time (default 1 s when no cap is given).

Output (one JSON line on stdout): ``games``, ``finished``, ``errors``, ``mean_turns``,
``max_turns``, ``mean_commands``, ``seconds``, ``games_per_second``, and ``wins``: the
games won by a seat of each level (a shared win counts for each winner's level).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import InvalidInput, RuleViolation
from engine.core.model import GameState
from engine.core.ruleset import Ruleset, get_ruleset
from engine.core.search import Budget, Level, choose, parse_level


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
    parser.add_argument(
        "--ai",
        default="easy",
        help="computer level per seat, comma-separated (easy, normal, hard), e.g. hard,easy; "
        "one level plays every seat; turned by one seat each game (default: easy)",
    )
    parser.add_argument(
        "--ai-iterations",
        type=int,
        default=None,
        help="search iterations per decision of normal/hard seats (reproducible runs)",
    )
    parser.add_argument(
        "--ai-seconds",
        type=float,
        default=None,
        help="search seconds per decision (default: 1 when --ai-iterations is not given)",
    )


@dataclass
class GameReport:
    """How one simulated game went."""

    seed: int
    finished: bool
    turns: int
    commands: int
    error: str | None = None
    winners: tuple[int, ...] = ()
    levels: tuple[Level, ...] = ()


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
    levels: Sequence[Level] | None = None,
    budget: Budget | None = None,
) -> GameReport:
    """Play one game between AI seats and return its report (never raises for game errors).

    ``levels`` gives each seat's computer level (default: ``easy`` everywhere), ``budget``
    the search budget of ``normal`` and ``hard`` seats (`engine.core.search.Budget`).
    The AI's random choices come from ``random.Random(seed)``; the game's own dice from the
    game seed, so the same seed (and an iteration budget) replays the same game.
    """
    easy: Level = "easy"
    seat_levels: tuple[Level, ...] = tuple(levels) if levels else (easy,) * players
    audit = _invariant_checker(ruleset)
    rng = random.Random(seed)
    commands = 0
    state: Any = None
    try:
        state, _ = ruleset.new_game(ruleset.parse_options(options), players, seed)
        while not ruleset.result(state).finished:
            if commands >= max_commands:
                return GameReport(
                    seed,
                    False,
                    _turns(state),
                    commands,
                    f"stuck after {commands} commands",
                    levels=seat_levels,
                )
            decision = ruleset.pending(state)[0]
            level = seat_levels[decision.seat]
            command = choose(ruleset, state, decision.seat, level, rng, budget)
            state, _ = ruleset.apply(state, decision.seat, command)
            commands += 1
            if checks:
                problem = _check(ruleset, state, audit)
                if problem:
                    return GameReport(
                        seed,
                        False,
                        _turns(state),
                        commands,
                        f"after {command!r}: {problem}",
                        levels=seat_levels,
                    )
    except Exception as error:  # every failure is reported with its seed
        return GameReport(
            seed,
            False,
            _turns(state),
            commands,
            f"{type(error).__name__}: {error}",
            levels=seat_levels,
        )
    winners = ruleset.result(state).winners
    return GameReport(seed, True, _turns(state), commands, winners=winners, levels=seat_levels)


def seat_levels(levels: Sequence[Level], players: int, game: int) -> tuple[Level, ...]:
    """The level of each seat in game number ``game`` (from 0): ``levels`` (one per seat,
    or one for all) turned by ``game`` seats, so that over ``players`` games every level
    sits at every seat, the starting one included.

    :raises InvalidInput: if ``levels`` has neither 1 nor ``players`` entries.
    """
    if len(levels) == 1:
        return (levels[0],) * players
    if len(levels) != players:
        raise InvalidInput(
            f"--ai names {len(levels)} levels for {players} seats: give one per seat or one."
        )
    shift = game % players
    return tuple(levels[(seat - shift) % players] for seat in range(players))


def parse_levels(text: str) -> tuple[Level, ...]:
    """Read ``--ai`` (``"hard,easy"``). :raises InvalidInput: naming a bad level."""
    return tuple(parse_level(word) for word in text.split(","))


def wins_by_level(reports: Sequence[GameReport]) -> dict[str, int]:
    """Games won by a seat of each level in ``reports`` (every level named appears, 0 if
    it won nothing; a shared win counts once for each winning seat's level)."""
    wins: dict[str, int] = {}
    for report in reports:
        for level in report.levels:
            wins.setdefault(level, 0)
        for seat in report.winners:
            wins[report.levels[seat]] = wins.get(report.levels[seat], 0) + 1
    return wins


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
    try:  # the seat count may depend on the options (homm3: the mode)
        low, high = ruleset.seat_range(ruleset.parse_options(options))
    except RuleViolation as error:
        return str(error)
    if not low <= args.players <= high:
        return (
            f"{ruleset.id} with --options {args.options} is played by "
            f"{low if low == high else f'{low} to {high}'} players, not {args.players}."
        )
    try:
        seat_levels(parse_levels(args.ai), args.players, 0)
        _budget(args)
    except RuleViolation as error:
        return str(error)
    try:  # options that depend on the seats (teams, decks...) are checked by new_game
        ruleset.new_game(ruleset.parse_options(options), args.players, args.seed)
    except RuleViolation as error:
        return str(error)
    return None


def _budget(args: argparse.Namespace) -> Budget:
    """The search budget of ``--ai-iterations`` / ``--ai-seconds``.

    :raises InvalidInput: for a budget that allows nothing."""
    iterations = getattr(args, "ai_iterations", None)
    seconds = getattr(args, "ai_seconds", None)
    if iterations is None and seconds is None:
        seconds = 1.0
    return Budget(iterations=iterations, seconds=seconds)


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
    levels = parse_levels(args.ai)
    budget = _budget(args)
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
            levels=seat_levels(levels, args.players, index),
            budget=budget,
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
        "wins": wins_by_level(reports),
    }
    print(json.dumps(summary))
    return 0 if errors == 0 and len(finished) == len(reports) else 1
