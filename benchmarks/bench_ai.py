"""The computer players' area: how often ``hard`` and ``normal`` beat ``easy``, what a
decision costs, and that games with searching seats still finish (issue 19).

Win rates: two-player games of every ruleset between a searching seat and an ``easy``
seat, the searching level at seat 0 in even games and seat 1 in odd ones (each ruleset's
first player is its seat 0 or is drawn from the game seed, so the first player alternates
or varies with it), played by `engine.simulate.play_game` with every invariant check, in
a pool of worker processes. The interval is Wilson's 95 % score interval. A game that ends
in a shared victory or a draw is not a win. The searches use an iteration budget there
(reproducible, and what fits the machine); decision times use the default time budget
(`engine.core.search.Budget`), beside one `Ruleset.legal_commands` listing of the same
position (the floor: a player cannot choose before it knows its options).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.report import AreaResult, Figure, Target
from benchmarks.stats import Stat
from engine.core.model import GameState
from engine.core.search import Budget

RULESETS = ("homm4", "heroforge", "homm3", "mmh")
"""The rulesets measured, in table order."""

FULL_GAMES = 200
"""Games per ruleset and level pair in a full run (the issue's figure)."""

QUICK_GAMES = 2
"""Games per ruleset and level pair with ``--quick``."""

WIN_ITERATIONS = 8
"""Search iterations per decision of the win-rate games (see the notes the run writes)."""

WIN_ROLLOUT = 20
"""Commands of one play-out in the win-rate games (the default `Budget.rollout_commands`)."""

TIMED_DECISIONS = 12
"""Decisions timed per ruleset at the default budget (``--quick``: 2)."""

WORKERS = 2
"""Worker processes of the win-rate games (the machine's two cores)."""

TARGETS = {"hard": 75.0, "normal": 60.0}
"""The win rates against ``easy`` each level must reach, in per cent (issue 19)."""


@dataclass(frozen=True)
class Match:
    """One game to play: the ruleset, the seed, the searching level and its seat."""

    ruleset: str
    seed: int
    level: str
    seat: int
    iterations: int
    rollout: int


@dataclass(frozen=True)
class Outcome:
    """How one `Match` ended: won by the searching seat, finished, its error if any."""

    match: Match
    won: bool
    finished: bool
    error: str | None
    seconds: float


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a win rate, in per cent (``(0, 100)`` with no games).

    :raises ValueError: if ``wins`` is not within ``0..games``.
    """
    if not 0 <= wins <= max(games, 0):
        raise ValueError(f"{wins} wins out of {games} games")
    if games == 0:
        return 0.0, 100.0
    p = wins / games
    scale = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / scale
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / scale
    return 100 * max(0.0, centre - half), 100 * min(1.0, centre + half)


def play(match: Match) -> Outcome:
    """Play ``match`` to its end (a worker's task; never raises for a game's error)."""
    import engine.rulesets  # noqa: F401  (registers every ruleset in the worker)
    from engine.core.ruleset import get_ruleset
    from engine.core.search import Budget, Level, parse_level
    from engine.simulate import play_game

    level = parse_level(match.level)
    easy: Level = "easy"
    levels = (level, easy) if match.seat == 0 else (easy, level)
    budget = Budget(iterations=match.iterations, seconds=None, rollout_commands=match.rollout)
    started = time.perf_counter()
    report = play_game(get_ruleset(match.ruleset), 2, match.seed, {}, levels=levels, budget=budget)
    won = report.winners == (match.seat,)
    seconds = time.perf_counter() - started
    return Outcome(match, won, report.finished, report.error, seconds)


def schedule(
    games: int,
    levels: Sequence[str],
    iterations: int,
    rollout: int,
    rulesets: Sequence[str] = RULESETS,
) -> list[Match]:
    """Every match, interleaved (one game of each ruleset and level in turn), so that a
    run stopped early still covers every pair evenly."""
    return [
        Match(ruleset, 1000 + index, level, index % 2, iterations, rollout)
        for index in range(games)
        for level in levels
        for ruleset in rulesets
    ]


def play_all(matches: Sequence[Match], workers: int, seconds: float | None) -> list[Outcome]:
    """Play ``matches`` in a pool of ``workers`` processes; after ``seconds`` (None: no
    limit) the games still being played are abandoned and those done are returned."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    outcomes: list[Outcome] = []
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        results = pool.imap_unordered(play, matches)
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                break
            try:
                outcomes.append(results.next(timeout=left))
            except StopIteration:
                break
            except multiprocessing.TimeoutError:
                break
        pool.terminate()
    return outcomes


def budget_name(budget: Budget) -> str:
    """How a decision budget reads in a figure's name: ``the default budget (1 s)``, or
    ``a budget of 2 iterations`` / ``(0.5 s)`` for another."""
    if budget == Budget():
        return f"the default budget ({budget.seconds:g} s)"
    parts = []
    if budget.iterations is not None:
        parts.append(f"{budget.iterations} iteration{'s' if budget.iterations != 1 else ''}")
    if budget.seconds is not None:
        parts.append(f"{budget.seconds:g} s")
    return "a budget of " + " or ".join(parts)


def decision_times(
    count: int,
    seed: int = 7,
    rulesets: Sequence[str] = RULESETS,
    budget: Budget | None = None,
) -> list[Figure]:
    """Time ``hard`` decisions at ``budget`` (default `Budget()`, 1 s) in positions of
    easy games of each ruleset, interleaved with one legal-command listing of the same
    position. Tests pass an iteration budget (a time budget depends on the machine)."""
    import engine.rulesets  # noqa: F401
    from engine.core.ruleset import get_ruleset
    from engine.core.search import choose

    figures = []
    budget = budget or Budget()
    for ruleset_id in rulesets:
        rules = get_ruleset(ruleset_id)
        positions = _positions(ruleset_id, count, seed)
        chosen: list[float] = []
        listed: list[float] = []
        for state, seat in positions:
            started = time.perf_counter()
            rules.legal_commands(state, seat)
            listed.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            choose(rules, state, seat, "hard", random.Random(seed), budget)
            chosen.append((time.perf_counter() - started) * 1000)
        figures.append(
            Figure(
                f"hard decision at {budget_name(budget)}, {ruleset_id}",
                "ms",
                Stat.of(chosen),
                "one legal_commands listing of the same position",
                Stat.of(listed),
                note=f"{len(chosen)} positions with several legal commands, from easy games",
            )
        )
    return figures


def _positions(ruleset_id: str, count: int, seed: int) -> list[tuple[GameState, int]]:
    """``count`` positions of easy games where the seat to move has several commands."""
    from engine.core.ruleset import get_ruleset

    rules = get_ruleset(ruleset_id)
    rng = random.Random(seed)
    found: list[tuple[GameState, int]] = []
    game = 0
    while len(found) < count:
        state, _ = rules.new_game(rules.parse_options({}), 2, seed + game)
        step = 0
        while not rules.result(state).finished and len(found) < count:
            seat = rules.pending(state)[0].seat
            if step % 9 == 4 and len(rules.legal_commands(state, seat)) > 1:
                found.append((state, seat))
            state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
            step += 1
        game += 1
    return found


def win_figures(
    outcomes: Sequence[Outcome], levels: Sequence[str], rulesets: Sequence[str] = RULESETS
) -> list[Figure]:
    """One win-rate figure per ruleset and searching level, with its Wilson interval."""
    figures = []
    for level in levels:
        for ruleset_id in rulesets:
            mine = [o for o in outcomes if o.match.ruleset == ruleset_id and o.match.level == level]
            wins = sum(o.won for o in mine)
            low, high = wilson(wins, len(mine))
            rate = 100 * wins / len(mine) if mine else 0.0
            goal = TARGETS[level]
            per_game = Stat.of([o.seconds for o in mine]).median if mine else 0.0
            figures.append(
                Figure(
                    f"{level} against easy, {ruleset_id}: games won",
                    "%",
                    rate,
                    target=Target(f"≥ {goal:g} %", lambda f, g=goal: float(f.value) >= g),  # type: ignore[misc]
                    note=(
                        f"{wins} of {len(mine)} games, 95 % interval {low:.1f}–{high:.1f} % "
                        f"(Wilson); a game {per_game:.1f} s (median)"
                    ),
                )
            )
    return figures


def error_figure(outcomes: Sequence[Outcome]) -> Figure:
    """The games with a searching seat that did not finish cleanly (target: none)."""
    bad = [o for o in outcomes if o.error or not o.finished]
    shown = "; ".join(
        f"{o.match.ruleset} seed {o.match.seed}: {o.error}" for o in bad[:3] if o.error
    )
    return Figure(
        "games with a searching seat that failed or stuck",
        "games",
        float(len(bad)),
        target=Target("0", lambda f: f.value == 0),
        note=f"of {len(outcomes)} games (every invariant checked after every command)"
        + (f": {shown}" if shown else ""),
    )


def run(
    quick: bool,
    games: int | None = None,
    iterations: int | None = None,
    minutes: float | None = None,
    workers: int = WORKERS,
    rulesets: Sequence[str] = RULESETS,
    decision_budget: Budget | None = None,
    levels: Sequence[str] = ("hard", "normal"),
) -> AreaResult:
    """Measure the area: win rates (``games`` per ruleset and level, default 200, 2 with
    ``quick``; ``iterations`` per decision, default `WIN_ITERATIONS`; no new game after
    ``minutes``), decision times (at ``decision_budget``, default `Budget()`: 1 s) and
    errors, for ``rulesets`` (default all four) and the searching ``levels`` (default
    both)."""
    started = time.perf_counter()
    count = games or (QUICK_GAMES if quick else FULL_GAMES)
    spend = iterations or (2 if quick else WIN_ITERATIONS)
    matches = schedule(count, levels, spend, WIN_ROLLOUT, rulesets)
    outcomes = play_all(matches, workers, None if minutes is None else minutes * 60)
    figures = win_figures(outcomes, levels, rulesets)
    figures.append(error_figure(outcomes))
    timed = 2 if quick else TIMED_DECISIONS
    figures += decision_times(timed, rulesets=rulesets, budget=decision_budget)
    played = len(outcomes)
    notes = [
        f"Win rates: {played} of the {len(matches)} two-player games planned "
        f"({count} per ruleset and level), the searching seat at seat 0 and seat 1 in "
        "turn, against `easy`, in a pool of "
        f"{workers} processes; every command checked as `heroes-table simulate` does.",
        f"Budget of the win-rate games: {spend} iterations per decision for `hard` "
        "(an iteration: two play-outs on the same deal and dice, after the policy's command "
        "and after another; as many for `normal`, with play-outs half as long: half the "
        "work), play-outs of at "
        f"most {WIN_ROLLOUT} commands, instead of the default 1 s: 200 games × 4 rulesets × 2 levels at 1 s a "
        "decision is days of CPU on this shared 2-core machine; the iteration budget "
        "makes every game reproducible from its seed.",
        f"Decision times: {budget_name(decision_budget or Budget())} on positions of easy "
        "games; a time budget stops at the first iteration ending after it (at least one "
        "iteration runs), and a search whose play-outs all end alike stops early.",
    ]
    if minutes is not None and played < len(matches):
        notes.append(f"The run stopped after {minutes:g} minutes (games under way dropped).")
    return AreaResult(
        "ai", "Computer players", figures, notes, seconds=time.perf_counter() - started
    )
