"""End-to-end figures: slash commands through discord.py and the fake Discord, 1 and 50 games.

Set-up: a fake Discord (`tests.fakediscord`) on 127.0.0.1 in this process, with one guild,
one channel per active game and two players per game. The database (`e2e_fixture`) holds
`STORED` games: `ACTIVE` of them active in Round 3, the rest finished. The bot runs in a
child process (`benchmarks.e2e_bot`): the real `HeroesBot` + `GameService` over a copy of
that SQLite file, logged in to the fake Discord.

The games are of one ruleset (``ruleset``: homm4 unless told, ``python -m benchmarks
--ruleset mmh`` for another; its figures go under their own heading).

Load: every active game runs its own loop. Each round it sends two slash commands at the
same moment — the move due (the engine's AI chooses it among the legal commands for
whoever owes a decision, and the ruleset's ``bot.<ruleset>.commands.slash_for`` types it)
and ``/game status``
from the other player — waits until both are completely answered, then the players think
for a random `THINK` seconds (uniform, ±50 %) before the next round; the loops start at
random moments within one think time. With one game there is no think time.

Measured, per interaction, on the monotonic clock both processes share: from the fake's
dispatch of INTERACTION_CREATE to the accepted acknowledgement (the fake receives the
callback), and to the moment the bot has delivered everything the interaction produced
(reply, channel posts, DMs; the bot reports it after its last send returns). "Final image
post" takes the interactions that delivered at least one picture; the bot also reports
when its handler began, called the service and got the Outbox back, which splits each
time into routing, defer, service and delivery. Memory, at the end of the run: the PSS
(shared pages counted once) of the bot's processes (the bot, the fork server and the
rendering workers) and the bot process's own RSS. Also reported: the bot's CPU time per
interaction, how late its event loop woke a 5 ms timer (`benchmarks.e2e_bot.LoopLag`),
and how many cores other processes on the machine kept busy meanwhile.

Floors: the same load against a bare discord.py bot whose ``/ping`` defers and answers
(the transport: gateway, HTTP, discord.py), ``/ping`` with a text line in place of the
status and ``/ping image:True`` (a pre-encoded board-sized picture) in place of the move;
for memory, that bare bot's process.
"""

from __future__ import annotations

import asyncio
import compileall
import contextlib
import importlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.e2e_fixture import Table, ai_choice, build_database, count_games
from benchmarks.report import AreaResult, Figure, Target, p99_under
from benchmarks.stats import Stat
from engine.core.model import Command
from engine.core.ruleset import get_ruleset
from storage import open_repository
from storage.records import GameStatus

STORED = 1000
"""Games in the database (the full run): `ACTIVE` active, the rest finished."""
ACTIVE = 50
"""Games played at once in the many-games run (the full run)."""
THINK = 10.0
"""Mean seconds between a game's rounds in the many-games run (see the module docstring)."""

DONE_TIMEOUT = 120.0
"""Seconds to wait for the bot to answer an interaction before counting a timeout."""


@dataclass
class Sample:
    """One interaction: what it was, and its times in ms from dispatch."""

    kind: str
    ack_ms: float
    done_ms: float
    images: int
    what: str = ""
    routed_ms: float = 0.0
    acting_ms: float = 0.0
    service_ms: float = 0.0
    delivery_ms: float = 0.0


def _status_fields(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of ``pid`` in MiB (empty if it is gone)."""
    fields: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = float(value.split()[0]) / 1024
    return fields


@dataclass(frozen=True)
class Memory:
    """The bot's memory (MiB): its process's RSS and peak RSS, and the PSS of its whole
    process family (the bot, the fork server and the rendering workers)."""

    rss: float = 0.0
    peak: float = 0.0
    family_pss: float = 0.0
    processes: int = 1


@dataclass(frozen=True)
class Done:
    """The bot's report of one interaction, on the shared monotonic clock (seconds).

    Attributes:
        t: everything delivered. images: pictures delivered.
        entered: `HeroesBot.act` began (discord.py had parsed and routed it).
        called: the service was called (after the defer and the actor lookup).
        answered: the service returned its Outbox (rules, storage, pictures done).
    """

    t: float
    images: int
    entered: float
    called: float
    answered: float


@dataclass
class RunResult:
    """One scenario's samples and the bot process's memory and errors."""

    samples: list[Sample] = field(default_factory=list)
    memory: Memory = field(default_factory=Memory)
    errors: int = 0
    first_error: str = ""
    moves_sent: int = 0
    moves_landed: int = 0
    timeouts: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    main_cpu_seconds: float = 0.0
    driver_cpu_seconds: float = 0.0
    machine_cpu_seconds: float = 0.0
    loop_lag: dict[str, float] = field(default_factory=dict)

    @property
    def others_cores(self) -> float:
        """Cores other processes on the machine kept busy during the run (not the bot,
        not this benchmark)."""
        if not self.seconds:
            return 0.0
        others = self.machine_cpu_seconds - self.cpu_seconds - self.driver_cpu_seconds
        return max(0.0, others) / self.seconds

    @property
    def cpu_ms_per_interaction(self) -> float:
        """The bot's CPU time per interaction answered (ms; all its threads/processes)."""
        return 1000 * self.cpu_seconds / len(self.samples) if self.samples else 0.0

    def of(self, *kinds: str, images: bool = False) -> list[Sample]:
        """The samples of these kinds (with at least one image when ``images``)."""
        return [s for s in self.samples if s.kind in kinds and (s.images > 0 or not images)]


class BotProcess:
    """The bot child process: start, wait for ready, await per-interaction "done" lines."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = 0
        self._done: dict[int, Done] = {}
        self._waiters: dict[int, asyncio.Future[Done]] = {}
        self._ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.errors: dict[str, Any] = {}
        self.lag: dict[str, float] = {}
        self.ticks = 0
        self._ticked = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(
        cls,
        fake: Any,
        mode: str,
        db: Path | None,
        log: Path,
        wrapper: list[str],
        source: Path,
    ) -> BotProcess:
        """Spawn ``python -m benchmarks.e2e_bot`` (under ``wrapper``, e.g. py-spy) from
        the source snapshot ``source``."""
        argv = [
            *wrapper,
            sys.executable,
            "-m",
            "benchmarks.e2e_bot",
            "--api",
            fake.api_url,
            "--gateway",
            fake.gateway_url,
            "--mode",
            mode,
        ]
        if db is not None:
            argv += ["--db", str(db)]
        with log.open("ab") as err:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=err,
                limit=1 << 20,
                cwd=source,
            )
        bot = cls(process)
        try:
            bot.pid = await asyncio.wait_for(asyncio.shield(bot._ready), 120)
        except (RuntimeError, TimeoutError) as error:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(
                f"the bot process did not start ({error}); its log:\n{tail}"
            ) from error
        return bot

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            event = message.get("event")
            if event == "ready" and not self._ready.done():
                self._ready.set_result(int(message["pid"]))
            elif event == "done":
                found = Done(
                    float(message["t"]),
                    int(message["images"]),
                    float(message.get("entered", message["t"])),
                    float(message.get("called", message["t"])),
                    float(message.get("answered", message["t"])),
                )
                waiter = self._waiters.pop(int(message["id"]), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(found)
                else:
                    self._done[int(message["id"])] = found
            elif event == "tick":
                self.ticks = int(message["n"])
                self._ticked.set()
            elif event == "errors":
                self.errors = message
            elif event == "lag":
                self.lag = {k: float(v) for k, v in message.items() if k != "event"}
        if not self._ready.done():
            self._ready.set_exception(RuntimeError("the bot process ended before it was ready"))

    async def ticked(self, count: int, timeout: float = DONE_TIMEOUT) -> int:
        """Wait until the bot's reminder loop has ticked ``count`` times in all (each tick
        reported once it delivered what was due); return the ticks so far.

        :raises TimeoutError: when it did not within ``timeout`` seconds.
        """

        async def reached() -> None:
            while self.ticks < count:
                self._ticked.clear()
                await self._ticked.wait()

        await asyncio.wait_for(reached(), timeout)
        return self.ticks

    async def done(self, interaction_id: int, timeout: float = DONE_TIMEOUT) -> Done:
        """Wait for the bot to finish ``interaction_id``."""
        if interaction_id in self._done:
            return self._done.pop(interaction_id)
        waiter = asyncio.get_running_loop().create_future()
        self._waiters[interaction_id] = waiter
        return await asyncio.wait_for(waiter, timeout)

    def cpu_seconds(self, own: bool = False) -> float:
        """CPU seconds (user + system) the bot process and its own child processes used
        (``own``: the bot process alone, every thread of it)."""
        total = 0.0
        for pid in [self.pid] if own else self._family():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def _family(self) -> list[int]:
        """The bot's pid and its descendants' (a rendering process pool, if any)."""
        found, queue = [], [self.pid]
        while queue:
            pid = queue.pop()
            found.append(pid)
            for task in Path(f"/proc/{pid}/task").glob("*/children"):
                with contextlib.suppress(OSError):
                    queue += [int(c) for c in task.read_text().split()]
        return found

    def memory(self) -> Memory:
        """The bot's memory now, from /proc: its own resident set and peak, and the
        proportional set size (shared pages counted once) of it and its children."""
        own = _status_fields(self.pid)
        pss = 0.0
        for pid in self._family():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                    if line.startswith("Pss:"):
                        pss += float(line.split()[1]) / 1024
        return Memory(own.get("VmRSS", 0.0), own.get("VmHWM", 0.0), pss, len(self._family()))

    async def mark(self) -> None:
        """Tell the bot the measured part begins (its loop-lag samples restart)."""
        assert self.process.stdin is not None
        self.process.stdin.write(b"mark\n")
        await self.process.stdin.drain()

    async def stop(self) -> None:
        """Ask the bot to close, wait for it (killed after 30 s)."""
        assert self.process.stdin is not None
        with contextlib.suppress(ConnectionError):
            self.process.stdin.write(b"stop\n")
            await self.process.stdin.drain()
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self._reader


@dataclass
class World:
    """The fake Discord and its players: one channel and two users per table."""

    fake: Any
    guild: Any
    channels: dict[int, Any]
    users: dict[int, Any]
    tables: list[Table]


def machine_busy_seconds() -> float:
    """CPU seconds all processes on the machine have used since boot (from /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


PACKAGES = ("engine", "storage", "rendering", "bot", "benchmarks")


def snapshot_source(folder: Path) -> Path:
    """Copy the project's packages into ``folder``/src and return that folder.

    The bot processes run from this copy, so every scenario runs the code this process
    started with, even while someone edits the working tree (the fixture's states must
    load in the bot that reads them).
    """
    root = Path(__file__).resolve().parent.parent
    target = folder / "src"
    for package in PACKAGES:
        shutil.copytree(
            root / package, target / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    compileall.compile_dir(target, quiet=1)  # bytecode, as an installed package has
    return target


def build_world(fake: Any, tables: int) -> World:
    """One guild, ``tables`` channels, two members per channel (DMs open)."""
    guild = fake.create_guild("Benchmark Tavern")
    channels: dict[int, Any] = {}
    users: dict[int, Any] = {}
    made: list[Table] = []
    for index in range(tables):
        channel = guild.create_text_channel(f"game-{index}")
        pair = [fake.create_user(f"p{index}{side}") for side in "ab"]
        for user in pair:
            guild.add_member(user)
            users[user.id] = user
        channels[channel.id] = channel
        made.append(Table(channel.id, ((pair[0].id, pair[0].name), (pair[1].id, pair[1].name))))
    return World(fake, guild, channels, users, made)


async def _timed(
    bot: BotProcess,
    send: Callable[[], Awaitable[Any]],
    kind: str,
    result: RunResult,
    what: str = "",
) -> None:
    interaction = await send()
    try:
        response = await interaction.wait_response(timeout=DONE_TIMEOUT)
        done = await bot.done(interaction.id)
    except (TimeoutError, AssertionError):
        result.timeouts += 1
        return
    dispatched = interaction.dispatched_at
    result.samples.append(
        Sample(
            kind,
            response.elapsed * 1000,
            (done.t - dispatched) * 1000,
            done.images,
            what,
            routed_ms=(done.entered - dispatched) * 1000,
            acting_ms=(done.called - done.entered) * 1000,
            service_ms=(done.answered - done.called) * 1000,
            delivery_ms=(done.t - done.answered) * 1000,
        )
    )


def slash_for(ruleset: str, command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash path and options a player types for ``command`` of ``ruleset``
    (``bot.<ruleset>.commands.slash_for``).

    :raises KeyError: for a command type players never type.
    """
    module = importlib.import_module(f"bot.{ruleset}.commands")
    found: tuple[tuple[str, ...], dict[str, Any]] = module.slash_for(command)
    return found


async def _heroes_round(
    world: World, bot: BotProcess, repo: Any, table: Table, result: RunResult
) -> None:
    """Send the due move and /game status at once; wait for both."""
    fake, channel = world.fake, world.channels[table.channel_id]
    game = await repo.game_in_channel(table.channel_id)
    sends: list[tuple[str, str, Callable[[], Awaitable[Any]]]] = []
    watcher = world.users[table.users[1][0]]
    if game is not None and game.status is GameStatus.ACTIVE and game.state_json:
        rules = get_ruleset(game.ruleset)
        state = rules.load_state(game.state_json)
        seat = rules.pending(state)[0].seat
        seats = {s.seat: s.user_id for s in await repo.seats(game.id)}
        mover = world.users[seats[seat]]
        watcher = world.users[next(u for s, u in seats.items() if s != seat)]
        path, options = slash_for(game.ruleset, ai_choice(state, seat, game.seed))
        typed = " ".join(path)
        sends.append(
            ("move", f"/{typed}", lambda: fake.send_slash(mover, channel, typed, **options))
        )
        result.moves_sent += 1
    sends.append(
        ("status", "/game status", lambda: fake.send_slash(watcher, channel, "game status"))
    )
    await asyncio.gather(*(_timed(bot, send, kind, result, what) for kind, what, send in sends))
    if game is not None and sends[0][0] == "move":
        after = await repo.get_game(game.id)
        result.moves_landed += after.version > game.version


async def _floor_round(world: World, bot: BotProcess, table: Table, result: RunResult) -> None:
    """Send ``/ping image:True`` and ``/ping`` at once; wait for both."""
    fake, channel = world.fake, world.channels[table.channel_id]
    first, second = (world.users[u] for u, _ in table.users)
    await asyncio.gather(
        _timed(
            bot, lambda: fake.send_slash(first, channel, "ping", image=True), "ping image", result
        ),
        _timed(bot, lambda: fake.send_slash(second, channel, "ping"), "ping", result),
    )


async def _warm_up(world: World, bot: BotProcess, repo: Any) -> None:
    """One unrecorded round in the first game: the bot process's first interactions pay
    for imports, fonts and sprite caches once, which a bot running for days pays once."""
    ignored = RunResult()
    if repo is not None:
        await _heroes_round(world, bot, repo, world.tables[0], ignored)
    else:
        await _floor_round(world, bot, world.tables[0], ignored)


async def _game_loop(
    play_round: Callable[[], Awaitable[None]], rounds: int, think: float, rng: random.Random
) -> None:
    if think:
        await asyncio.sleep(rng.uniform(0, think))
    for index in range(rounds):
        await play_round()
        if think and index < rounds - 1:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))


async def run_scenario(
    key: str,
    world: World,
    mode: str,
    db: Path | None,
    games: int,
    rounds: int,
    think: float,
    folder: Path,
    wrapper: list[str],
    source: Path,
) -> RunResult:
    """Start the bot (``mode`` heroes or floor) for scenario ``key``, drive ``games``
    games for ``rounds`` rounds each, stop it; ``{scenario}`` in ``wrapper`` becomes
    ``key``."""
    result = RunResult()
    command = [part.replace("{scenario}", key) for part in wrapper]
    bot = await BotProcess.start(world.fake, mode, db, folder / "bot.log", command, source)
    repo = await open_repository(db, check_integrity=False) if db is not None else None
    rng = random.Random(games * 7919 + rounds)
    try:
        await _warm_up(world, bot, repo)
        await bot.mark()
        started = time.perf_counter()
        cpu_before, main_before = bot.cpu_seconds(), bot.cpu_seconds(own=True)
        driver_before = time.process_time()
        machine_before = machine_busy_seconds()
        loops = []
        for table in world.tables[:games]:
            if repo is not None:
                play = lambda t=table: _heroes_round(world, bot, repo, t, result)  # noqa: E731
            else:
                play = lambda t=table: _floor_round(world, bot, t, result)  # noqa: E731
            loops.append(_game_loop(play, rounds, think, random.Random(rng.random())))
        await asyncio.gather(*loops)
        result.seconds = time.perf_counter() - started
        result.cpu_seconds = bot.cpu_seconds() - cpu_before
        result.main_cpu_seconds = bot.cpu_seconds(own=True) - main_before
        result.driver_cpu_seconds = time.process_time() - driver_before
        result.machine_cpu_seconds = machine_busy_seconds() - machine_before
        result.memory = bot.memory()
    finally:
        if repo is not None:
            await repo.close()
        await bot.stop()
    result.errors = int(bot.errors.get("count", 0))
    result.loop_lag = bot.lag
    result.first_error = str(bot.errors.get("first", ""))
    return result


CPU_BOUND_TEXT = (
    "the lesser of one core over the bot's own process's CPU per interaction — its event "
    "loop is one thread — and the machine's cores left by other processes over the CPU "
    "of all its processes per interaction"
)


def cpu_bound(run: RunResult) -> float:
    """Interactions per second the CPU would allow the bot at ``run``'s cost per
    interaction (see `CPU_BOUND_TEXT`); 0 without samples."""
    main, total = _per(run, run.main_cpu_seconds), _per(run, run.cpu_seconds)
    if not main or not total:
        return 0.0
    free = max(0.5, (os.cpu_count() or 1) - run.others_cores)
    return min(1000 / main, 1000 * free / total)


def _per(run: RunResult, seconds: float) -> float:
    """``seconds`` of CPU per interaction of ``run`` (ms)."""
    return 1000 * seconds / len(run.samples) if run.samples else 0.0


def _stat(samples: list[Sample], attribute: str) -> Stat:
    return Stat.of([getattr(s, attribute) for s in samples])


def breakdown_table(run: RunResult, label: str) -> str:
    """Markdown: where the time of the interactions that posted pictures went."""
    samples = run.of("move", "status", images=True)
    if not samples:
        return ""
    parts = [
        ("dispatch → the bot's handler runs (gateway, discord.py, event loop)", "routed_ms"),
        ("defer and actor lookup", "acting_ms"),
        ("GameService (rules, storage, pictures)", "service_ms"),
        ("delivery (reply, posts, DMs with pictures)", "delivery_ms"),
        ("total: final image post", "done_ms"),
    ]
    rows = [
        f"Where the time of the final image posts went, {label} (ms):",
        "",
        "| stage | median | p95 | p99 |",
        "|---|---|---|---|",
    ]
    for name, attribute in parts:
        stat = _stat(samples, attribute)
        rows.append(f"| {name} | {stat.median:.1f} | {stat.p95:.1f} | {stat.p99:.1f} |")
    return "\n".join(rows)


def scenario_figures(label: str, heroes: RunResult, floor: RunResult, many: bool) -> list[Figure]:
    """Acknowledgement and final-post figures of one scenario beside the floor's."""
    acks = Figure(
        f"acknowledgement, {label}",
        "ms",
        _stat(heroes.samples, "ack_ms"),
        "bare discord.py bot, same load",
        _stat(floor.samples, "ack_ms"),
        target=p99_under(100) if many else None,
    )
    image = Figure(
        f"final image post, {label}",
        "ms",
        _stat(heroes.of("move", "status", images=True), "done_ms"),
        "bare bot posting a pre-encoded picture",
        _stat(floor.of("ping image"), "done_ms"),
        target=p99_under(500) if many else None,
    )
    status = Figure(
        f"final post, /game status (board picture), {label}",
        "ms",
        _stat(heroes.of("status"), "done_ms"),
        "bare bot posting a pre-encoded picture",
        _stat(floor.of("ping image"), "done_ms"),
    )
    moves = heroes.of("move")
    figures = [acks, image, status]
    if moves:
        figures.append(
            Figure(
                f"final post, a move, {label}",
                "ms",
                _stat(moves, "done_ms"),
                "bare bot answering a line of text",
                _stat(floor.of("ping"), "done_ms"),
            )
        )
    return figures


async def measure(
    quick: bool,
    wrapper: list[str],
    ruleset: str = "homm4",
    games: int | None = None,
    think_given: float | None = None,
) -> AreaResult:
    """Build the world and the database (games of ``ruleset``), run the four scenarios,
    return the figures (area ``e2e``, or ``e2e-<ruleset>`` for a ruleset other than homm4;
    ``-<games>`` added when ``games`` active games are driven instead of `ACTIVE`; the
    database then holds `STORED` games or twice the active ones, whichever is more;
    ``think_given``: mean seconds between a game's rounds instead of `THINK`)."""
    from tests.fakediscord import FakeDiscord

    started = time.perf_counter()
    active, stored = (8, 100) if quick else (ACTIVE, STORED)
    if games is not None:
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        active, stored = games, max(stored, 2 * games)
    one_rounds, many_rounds, think = (8, 2, 1.0) if quick else (60, 12, THINK)
    if think_given is not None:
        think = think_given
    with tempfile.TemporaryDirectory(prefix="heroes-e2e-") as name:
        folder = Path(name)
        source = snapshot_source(folder)
        async with FakeDiscord(ack_timeout=3.0, response_timeout=DONE_TIMEOUT) as fake:
            world = build_world(fake, active)
            fixture = folder / "fixture.db"
            await build_database(
                fixture, world.guild.id, world.tables, stored=stored, ruleset=ruleset
            )
            counts = count_games(fixture)
            runs: dict[str, RunResult] = {}
            plan = [
                ("floor-1", "floor", 1, one_rounds, 0.0),
                ("heroes-1", "heroes", 1, one_rounds, 0.0),
                ("floor-many", "floor", active, many_rounds, think),
                ("heroes-many", "heroes", active, many_rounds, think),
            ]
            for key, mode, tables, rounds, pause in plan:
                db = None
                if mode == "heroes":
                    db = folder / f"{key}.db"
                    shutil.copyfile(fixture, db)
                runs[key] = await run_scenario(
                    key, world, mode, db, tables, rounds, pause, folder, wrapper, source
                )
            violations = len(fake.violations)
    figures = scenario_figures("1 game", runs["heroes-1"], runs["floor-1"], many=False)
    at_once = scenario_figures(
        f"{active} games at once", runs["heroes-many"], runs["floor-many"], many=True
    )
    figures += at_once
    many = runs["heroes-many"]
    one = runs["heroes-1"].memory
    figures.append(
        Figure(
            f"bot memory (PSS of its {many.memory.processes} processes), {stored} stored "
            f"games, {active} active",
            "MiB",
            many.memory.family_pss,
            "bare discord.py bot",
            runs["floor-many"].memory.family_pss,
            note=(
                f"the bot's own process: RSS {many.memory.rss:.0f} MiB (peak "
                f"{many.memory.peak:.0f}); with 1 game driven: PSS {one.family_pss:.0f} MiB, "
                f"RSS {one.rss:.0f} MiB (peak {one.peak:.0f})"
            ),
        )
    )
    rate = len(many.samples) / many.seconds if many.seconds else 0.0
    busy = many.cpu_seconds / many.seconds if many.seconds else 0.0
    cpu = Figure(
        f"bot CPU per interaction, {active} games at once",
        "ms",
        many.cpu_ms_per_interaction,
        "bare discord.py bot, same load",
        runs["floor-many"].cpu_ms_per_interaction,
        target=Target("≤ 20 ms", lambda f: isinstance(f.value, float) and f.value <= 20),
        note=(
            f"{_per(many, many.main_cpu_seconds):.1f} ms in the bot's own process, "
            f"{_per(many, many.cpu_seconds - many.main_cpu_seconds):.1f} ms in its "
            "rendering workers"
        ),
    )
    figures.append(cpu)
    within = all(f.passed for f in at_once if f.target is not None)
    bound = cpu_bound(many)
    figures.append(
        Figure(
            f"capacity line, {active} games at once: interactions answered per second",
            "1/s",
            rate,
            target=Target("within ack p99 < 100 ms and image post p99 < 500 ms", lambda f: within),
            note=f"the CPU would allow about {bound:.0f} per second ({CPU_BOUND_TEXT})",
        )
    )
    notes = [
        f"Database: {sum(counts.values())} games ({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}); "
        f"each active game has two human seats in Round 3.",
        f"{active} games: {many_rounds} rounds each (a move and /game status at once), "
        f"think time {think:g} s ±50 %: {len(many.samples)} interactions in "
        f"{many.seconds:.0f} s ({rate:.1f} per second offered to one bot process). "
        f"1 game: {one_rounds} rounds back to back.",
        f"The bot's event loop woke a 5 ms timer late by {many.loop_lag.get('median', 0):.1f} ms "
        f"(median), {many.loop_lag.get('p99', 0):.0f} ms (p99), "
        f"{many.loop_lag.get('max', 0):.0f} ms (max) during the {active}-game run: the longest "
        "an acknowledgement could wait for the loop (the bare bot's loop, same load: "
        f"{runs['floor-many'].loop_lag.get('p99', 0):.0f} ms p99, "
        f"{runs['floor-many'].loop_lag.get('max', 0):.0f} ms max).",
        f"Bot CPU time per interaction (all its threads): "
        f"{many.cpu_ms_per_interaction:.0f} ms with {active} games, "
        f"{_per(many, many.main_cpu_seconds):.0f} ms of it in the bot's own process and "
        f"{_per(many, many.cpu_seconds - many.main_cpu_seconds):.0f} ms in its rendering "
        f"workers (the bot kept "
        f"{busy:.2f} cores busy), {runs['heroes-1'].cpu_ms_per_interaction:.0f} ms with 1 game; "
        f"the bare bot: {runs['floor-many'].cpu_ms_per_interaction:.1f} ms. The "
        f"benchmark process (fake Discord and players) kept "
        f"{many.driver_cpu_seconds / many.seconds if many.seconds else 0:.2f} cores busy; "
        f"other processes on this shared machine kept {many.others_cores:.2f} of its "
        f"{os.cpu_count()} cores busy meanwhile ({runs['heroes-1'].others_cores:.2f} "
        "during the 1-game run).",
        f"Moves that landed: {many.moves_landed + runs['heroes-1'].moves_landed} of "
        f"{many.moves_sent + runs['heroes-1'].moves_sent}; timeouts: "
        f"{sum(r.timeouts for r in runs.values())}; errors logged by the bot: "
        f"{sum(r.errors for r in runs.values())}; Discord rules broken (fake's "
        f"violations): {violations}.",
    ]
    slowest = sorted(many.samples, key=lambda s: s.done_ms, reverse=True)[:5]
    notes.append(
        f"Slowest final posts with {active} games: "
        + ", ".join(f"{s.what} {s.done_ms:.0f} ms ({s.images} pictures)" for s in slowest)
        + "."
    )
    first = next((r.first_error for r in runs.values() if r.first_error), "")
    if first:
        notes.append(f"First error: `{first.splitlines()[0][:200]}`")
    notes.insert(0, f"Ruleset: {get_ruleset(ruleset).title} (``{ruleset}``).")
    area = "e2e" if ruleset == "homm4" else f"e2e-{ruleset}"
    title = "End to end (discord.py + fake Discord)" + (
        "" if ruleset == "homm4" else f", {get_ruleset(ruleset).title}"
    )
    if games is not None and games != ACTIVE:  # --games 50 refreshes the main block
        area, title = f"{area}-{games}", f"{title}, {games} games at once"
    result = AreaResult(
        area,
        title,
        figures,
        notes=notes,
        extra_markdown=breakdown_table(many, f"{active} games at once"),
    )
    result.seconds = time.perf_counter() - started
    return result


def run(
    quick: bool = False,
    wrapper: list[str] | None = None,
    ruleset: str = "homm4",
    games: int | None = None,
    think: float | None = None,
) -> AreaResult:
    """Measure every end-to-end figure for games of ``ruleset`` (``quick``: fewer games
    and rounds; ``games``: that many active games at once instead of `ACTIVE`; ``think``:
    mean seconds between a game's rounds, in s, instead of `THINK`).

    ``wrapper`` prefixes the bot process's command (e.g. ``["py-spy", "record", ...]``).
    :raises engine.core.errors.InvalidInput: for a ruleset that is not registered.
    """
    get_ruleset(ruleset)
    return asyncio.run(measure(quick, wrapper or [], ruleset, games, think))
