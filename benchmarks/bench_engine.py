"""Engine figures: `Ruleset.apply` mid-game, whole random games, a state's memory and JSON.

Workload: homm4 games played by the engine's own AI (``Ruleset.ai_command``) at every
seat, seeded, so every run plays the same games. "Mid-game" is the middle fifth of a
4-player game's commands (40-60 % of the way to the victory).

Floors (what the figure cannot beat, measured in the same run):

- `apply` works on a deep copy of the state (the engine never mutates its input), so
  ``state.model_copy(deep=True)`` of the same state is its floor.
- Reading a snapshot: ``json.loads`` of the same text (what pydantic's validation adds).
  Writing one has no floor here: pydantic-core beats the standard library's ``json.dumps``.
- A whole game: replaying the same commands through `apply` alone (what choosing the
  moves adds).
- A state's memory: its JSON size (the information it holds); the JSON's size: the same
  JSON compressed with zlib.
"""

from __future__ import annotations

import json
import random
import time
import tracemalloc
import zlib
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from benchmarks.report import AreaResult, Figure, max_under
from benchmarks.stats import Stat, interleaved
from engine.core.model import Command
from engine.homm4.state import Homm4State

FIRST_SEED = 100
"""Game i of a run uses seed FIRST_SEED + i (the same games every run)."""


@dataclass
class Playthrough:
    """One complete AI game: every state before each command, the commands, its time."""

    players: int
    seed: int
    states: list[Homm4State] = field(default_factory=list)
    commands: list[tuple[int, Command]] = field(default_factory=list)
    seconds: float = 0.0

    def middle(self) -> range:
        """The indices of the middle fifth of the game's commands."""
        count = len(self.commands)
        return range(int(count * 0.4), max(int(count * 0.6), int(count * 0.4) + 1))


def _ruleset() -> Any:
    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    return get_ruleset("homm4")


def play(players: int, seed: int, *, keep_states: bool = True) -> Playthrough:
    """Play one complete homm4 game between AI seats, as ``heroes-table simulate`` does.

    :raises RuntimeError: if the game does not end within 20,000 commands.
    """
    rules = _ruleset()
    rng = random.Random(seed)
    game = Playthrough(players, seed)
    started = time.perf_counter()
    state, _ = rules.new_game(rules.parse_options({}), players, seed)
    while not rules.result(state).finished:
        if len(game.commands) >= 20_000:
            raise RuntimeError(f"homm4 seed {seed} ({players} players) did not end")
        seat = rules.pending(state)[0].seat
        command = rules.ai_command(state, seat, rng)
        if keep_states:
            game.states.append(state)
        game.commands.append((seat, command))
        state, _ = rules.apply(state, seat, command)
    game.seconds = time.perf_counter() - started
    return game


def replay_seconds(game: Playthrough) -> float:
    """Seconds to replay ``game``'s commands through `apply` alone (no move choice)."""
    rules = _ruleset()
    started = time.perf_counter()
    rules.replay(rules.parse_options({}), game.players, game.seed, game.commands)
    return time.perf_counter() - started


def apply_figures(games: list[Playthrough], repeats: int) -> list[Figure]:
    """`apply`, `load_state` and `dump_state` on mid-game states, each beside its floor."""
    rules = _ruleset()
    applies: list[float] = []
    copies: list[float] = []
    loads: list[float] = []
    parses: list[float] = []
    dumps: list[float] = []
    plain_dumps: list[float] = []
    for game in games:
        for index in game.middle():
            state, (seat, command) = game.states[index], game.commands[index]
            text = rules.dump_state(state)
            data = json.loads(text)
            a, c, ld, p, d, pd = interleaved(
                [
                    partial(rules.apply, state, seat, command),
                    partial(state.model_copy, deep=True),
                    partial(rules.load_state, text),
                    partial(json.loads, text),
                    partial(rules.dump_state, state),
                    partial(json.dumps, data, separators=(",", ":")),
                ],
                repeats,
            )
            applies += a
            copies += c
            loads += ld
            parses += p
            dumps += d
            plain_dumps += pd
    return [
        Figure(
            "apply, mid-game command, 4 players",
            "ms",
            Stat.of(applies),
            "deep copy of the same state",
            Stat.of(copies),
        ),
        Figure(
            "load_state (snapshot JSON → state)",
            "ms",
            Stat.of(loads),
            "json.loads of the same text",
            Stat.of(parses),
        ),
        Figure(
            "dump_state (state → snapshot JSON)",
            "ms",
            Stat.of(dumps),
            note=(
                "no floor: pydantic-core serialises faster than the standard library's "
                f"json.dumps of the same data ({Stat.of(plain_dumps).median:.3f} ms median)"
            ),
        ),
    ]


def game_figures(players: int, count: int, target_ms: float | None) -> list[Figure]:
    """Whole random games at ``players`` seats: ms per game beside the replay floor, and
    games per second."""
    durations: list[float] = []
    replays: list[float] = []
    commands: list[float] = []
    for index in range(count):
        game = play(players, FIRST_SEED + 1000 * players + index, keep_states=False)
        durations.append(game.seconds * 1000)
        replays.append(replay_seconds(game) * 1000)
        commands.append(len(game.commands))
    per_second = count / (sum(durations) / 1000)
    return [
        Figure(
            f"complete random game, {players} players",
            "ms",
            Stat.of(durations),
            "replay of its commands (apply only)",
            Stat.of(replays),
            target=max_under(target_ms) if target_ms is not None else None,
            note=(
                f"{count} games, {Stat.of(commands).median:.0f} commands each (median), "
                f"{per_second:.1f} games per second on one core"
            ),
        ),
        Figure(f"random games per second, {players} players", "games/s", per_second),
    ]


def memory_figures(games: list[Playthrough], limit: int) -> list[Figure]:
    """Memory held by one loaded mid-game state (and the peak while loading it) beside its
    JSON size; the JSON size beside its zlib-compressed size."""
    rules = _ruleset()
    held: list[float] = []
    peaks: list[float] = []
    sizes: list[float] = []
    packed: list[float] = []
    texts = [rules.dump_state(g.states[i]) for g in games for i in g.middle()]
    step = max(1, len(texts) // limit)
    for text in texts[::step]:
        tracemalloc.start()
        before, _ = tracemalloc.get_traced_memory()
        state = rules.load_state(text)
        after, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del state
        held.append((after - before) / 1024)
        peaks.append((peak - before) / 1024)
        sizes.append(len(text.encode()) / 1024)
        packed.append(len(zlib.compress(text.encode(), 6)) / 1024)
    return [
        Figure(
            "memory of one loaded mid-game state (4 players)",
            "KiB",
            Stat.of(held),
            "its JSON size",
            Stat.of(sizes),
            note=f"peak while loading: median {Stat.of(peaks).median:.0f} KiB (tracemalloc)",
        ),
        Figure(
            "snapshot JSON of one mid-game state (4 players)",
            "KiB",
            Stat.of(sizes),
            "the same JSON, zlib level 6",
            Stat.of(packed),
        ),
    ]


def run(quick: bool = False) -> AreaResult:
    """Measure every engine figure (``quick``: fewer games and repeats)."""
    started = time.perf_counter()
    mid_games = [play(4, FIRST_SEED + i) for i in range(1 if quick else 5)]
    figures = apply_figures(mid_games, repeats=3 if quick else 7)
    figures += game_figures(2, 2 if quick else 40, target_ms=1000.0)
    figures += game_figures(4, 1 if quick else 20, target_ms=None)
    figures += memory_figures(mid_games, limit=10 if quick else 60)
    commands = sum(len(g.middle()) for g in mid_games)
    result = AreaResult(
        "engine",
        "Engine",
        figures,
        notes=[
            f"apply / load / dump: {commands} mid-game commands from {len(mid_games)} "
            "4-player AI games, each timed repeatedly, interleaved with its floor.",
            "Whole games: the engine's AI at every seat, as `heroes-table simulate "
            "--no-checks` plays them; the target is that every 2-player game (max, not "
            "median) ends in under 1 s.",
        ],
    )
    result.seconds = time.perf_counter() - started
    return result
