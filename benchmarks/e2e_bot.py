"""The bot process of the end-to-end benchmark: the real bot, or the transport floor, against a
fake Discord served by another process on 127.0.0.1.

``python -m benchmarks.e2e_bot --api URL --gateway URL --mode heroes --db PATH`` runs the
real `HeroesBot` over `GameService` and the SQLite file at PATH, exactly as
``heroes-table run`` builds them (`bot.app.build_bot`), pointed at the fake Discord;
``--mode floor`` runs a bare discord.py bot whose ``/ping`` defers and answers with a
line of text (``image:True``: with a pre-encoded picture), the transport floor.

Running the bot in its own process keeps the fake Discord's own work (parsing uploads,
checking limits, storing messages) out of the bot's event loop and its memory, as on the
real Discord. The two processes talk over pipes, in JSON lines on stdout:

- ``{"event": "ready", "pid": ...}`` once the bot is logged in and has synced;
- ``{"event": "done", "id": interaction id, "t": time.monotonic(), "images": n}`` when an
  interaction has been completely answered (everything delivered, its images included).
  ``time.monotonic`` is the system-wide monotonic clock on Linux, the same clock as the
  parent's event loop, so the parent subtracts its dispatch time directly;
- ``{"event": "lag", "median": ms, "p99": ms, "max": ms}`` and
  ``{"event": "errors", "count": n, "first": "..."}`` when it stops (`LoopLag`).

Lines on stdin: ``mark`` (measure the loop lag from now on), ``stop`` (close the bot
and exit).

For tests of a crash (`KILL_AFTER_COMMIT`): with ``HEROES_E2E_KILL_AFTER_COMMIT=1`` in its
environment, the heroes bot SIGKILLs itself right after its first commit is stored, before
anything of it is delivered (as a power cut or an OOM kill would); with ``mid``, while that
commit is on its way to the database. ``{"event": "tick", "n": ...}`` follows each
reminder tick (`report_ticks`; ``HEROES_E2E_REMINDER_INTERVAL`` sets their interval). ``--profile FILE`` writes a
pyinstrument profile of the whole run (HTML).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.actors import Actor
from bot.discord_bot import HeroesBot, ServiceCall, bot_class, shard_options
from bot.discord_delivery import defer
from bot.discord_threads import GameThread
from bot.outbox import Outbox


def emit(event: str, **fields: Any) -> None:
    """Write one JSON line to stdout (the parent reads them)."""
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


class ErrorCount(logging.Handler):
    """Counts ERROR records (exceptions in commands, views, delivery) and keeps the first."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.count = 0
        self.first = ""

    def emit(self, record: logging.LogRecord) -> None:
        """Count ``record``; keep the first one's text."""
        self.count += 1
        if not self.first:
            self.first = self.format(record)[:2000]


def _images(outbox: Outbox) -> int:
    count = len(outbox.reply.images) if outbox.reply is not None else 0
    count += sum(len(p.images) for p in outbox.posts)
    return count + sum(len(d.images) for d in outbox.dms)


class BenchHeroesBot(HeroesBot):
    """`HeroesBot` that reports when each interaction has been completely answered, and
    how many pictures its Outbox carried."""

    async def act(
        self,
        interaction: discord.Interaction,
        call: ServiceCall,
        *,
        ephemeral: bool = True,
        thread: GameThread | None = None,
    ) -> None:
        """Handle the interaction as `HeroesBot.act` does, then report it done, with the
        moments it entered `act`, called the service and got the service's Outbox."""
        images = 0
        entered = time.monotonic()
        called = answered = 0.0

        async def counted(actor: Actor) -> Outbox:
            nonlocal images, called, answered
            called = time.monotonic()
            outbox = await call(actor)
            answered = time.monotonic()
            images = _images(outbox)
            return outbox

        await super().act(interaction, counted, ephemeral=ephemeral, thread=thread)
        emit(
            "done",
            id=interaction.id,
            t=time.monotonic(),
            images=images,
            entered=entered,
            called=called or entered,
            answered=answered or entered,
        )


async def heroes_bot(db: Path) -> tuple[commands.Bot, list[Any]]:
    """The real bot on ``db``: `bot.app.build_bot` composes it (repository, service,
    renderer with its worker processes, message-id store; ``HEROES_*`` variables apply);
    only the bot's class is swapped for the reporting subclass (sharded as ``heroes-table
    run`` is with ``HEROES_SHARD_COUNT`` / ``HEROES_SHARD_IDS``)."""
    from bot.app import build_bot
    from bot.settings import Settings

    settings = Settings(_env_file=None, db_path=db)
    built, closers = await build_bot(settings)
    if os.environ.get(KILL_AFTER_COMMIT) in ("1", "mid"):
        kill_after_commit(built.service.repo, mid=os.environ[KILL_AFTER_COMMIT] == "mid")
    sharding = shard_options(settings.shard_count, settings.shard_ids)
    bot = bot_class(BenchHeroesBot, sharded=bool(sharding))(
        built.service,
        refs=built.deliverer.refs,
        reachability=built.deliverer.reachability,
        guild_ready_timeout=0.01,
        reminder_interval=float(os.environ.get(REMINDER_INTERVAL, "60")),
        **sharding,
    )
    report_ticks(bot)
    return bot, closers


def report_ticks(bot: HeroesBot) -> None:
    """Make each reminder tick of ``bot`` write ``{"event": "tick", "n": ...}`` once it
    has delivered what was due (tests wait for ticks instead of sleeping)."""
    loop = bot.reminders
    tick = loop.tick

    async def reported(now: Any = None) -> int:
        try:
            return await tick(now)
        finally:
            emit("tick", n=loop.ticks)

    loop.tick = reported  # type: ignore[method-assign]


REMINDER_INTERVAL = "HEROES_E2E_REMINDER_INTERVAL"
"""Environment variable: seconds between the heroes bot's reminder ticks (default 60; the
multi-process tests tick often so that a due deadline is seen soon)."""


KILL_AFTER_COMMIT = "HEROES_E2E_KILL_AFTER_COMMIT"
"""Environment variable: ``1`` makes the heroes bot SIGKILL itself right after its first
stored commit (`kill_after_commit`)."""


def kill_after_commit(repo: Any, *, mid: bool = False) -> None:
    """Make ``repo.commit`` SIGKILL this process once the commit has been stored, before
    the service can narrate or deliver it (no clean shutdown, no flush); with ``mid``,
    while the first commit is on its way (sent to the database's thread or server, its
    outcome not yet known here): it lands wholly or not at all."""
    import signal

    stored = repo.commit

    async def commit_then_die(*args: Any, **kwargs: Any) -> Any:
        if mid:
            landing = asyncio.ensure_future(stored(*args, **kwargs))
            for _ in range(3):  # let it reach the database's thread or socket
                await asyncio.sleep(0)
            os.kill(os.getpid(), signal.SIGKILL)
            await landing
        await stored(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)

    repo.commit = commit_then_die


def floor_picture() -> bytes:
    """A picture the size of a board image, encoded once (the floor posts it as it is)."""
    from PIL import Image

    from rendering.encode import encode
    from rendering.homm4.palette import PAGE

    image = Image.new("RGB", (1591, 1565), PAGE)
    image.paste((200, 180, 120), (100, 100, 1400, 1400))
    return encode(image)


class FloorBot(commands.Bot):
    """A bare discord.py bot: ``/ping`` defers, then answers a line of text (with
    ``image:True``, text and a pre-encoded picture). The transport floor."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none(),
            guild_ready_timeout=0.01,
            help_command=None,
        )
        picture = floor_picture()

        @self.tree.command(description="Answer at once: the transport floor of the benchmark.")
        @app_commands.describe(image="Attach a board-sized picture to the answer")
        async def ping(interaction: discord.Interaction, image: bool = False) -> None:
            await defer(interaction, ephemeral=False)
            files = [discord.File(io.BytesIO(picture), filename="board.png")] if image else []
            await interaction.followup.send("pong", files=files)
            emit("done", id=interaction.id, t=time.monotonic(), images=len(files))

    async def setup_hook(self) -> None:
        """Sync ``/ping``."""
        await self.tree.sync()


class LoopLag:
    """Measures how late the event loop wakes a task that sleeps `TICK` seconds: the time
    the loop was blocked (by work on it, or by threads holding the GIL) when an
    interaction could have been acknowledged."""

    TICK = 0.005

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin measuring (in the running loop)."""
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            expected = loop.time() + self.TICK
            await asyncio.sleep(self.TICK)
            self.samples.append(max(0.0, loop.time() - expected) * 1000)

    def stop(self) -> dict[str, float]:
        """Stop; return the lateness median, p99 and max (ms)."""
        if self._task is not None:
            self._task.cancel()
        ordered = sorted(self.samples) or [0.0]
        return {
            "median": ordered[len(ordered) // 2],
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
            "max": ordered[-1],
        }


async def _wait_for_stop(lag: LoopLag) -> None:
    """Serve stdin: ``mark`` restarts the loop-lag measurement, ``stop`` (or EOF) returns."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).strip()
        if line == b"mark":
            lag.samples.clear()
        elif not line or line == b"stop":
            return


async def serve(args: argparse.Namespace) -> int:
    """Log in to the fake Discord, report ready, serve until told to stop."""
    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    errors = ErrorCount()
    errors.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    logging.getLogger().addHandler(errors)
    logging.getLogger().setLevel(logging.WARNING)
    closers: list[Any] = []
    if args.mode == "heroes":
        bot, closers = await heroes_bot(args.db)
    else:
        bot = FloorBot()
    lag = LoopLag()
    task = asyncio.create_task(bot.start("fake-token"))
    try:
        while not bot.is_ready():
            if task.done():
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            await asyncio.sleep(0.01)
        emit("ready", pid=os.getpid())
        lag.start()
        await _wait_for_stop(lag)
    finally:
        emit("lag", **lag.stop())
        with contextlib.suppress(Exception):
            await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 5)
        for close in reversed(closers):
            await close()
        emit("errors", count=errors.count, first=errors.first)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and serve (optionally under pyinstrument)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.e2e_bot")
    parser.add_argument("--api", required=True, help="the fake Discord's REST base URL")
    parser.add_argument("--gateway", required=True, help="the fake Discord's gateway URL")
    parser.add_argument("--mode", choices=["heroes", "floor"], default="heroes")
    parser.add_argument("--db", type=Path, help="the game database (heroes mode)")
    parser.add_argument("--profile", type=Path, help="write a pyinstrument HTML profile here")
    args = parser.parse_args(argv)
    if args.mode == "heroes" and args.db is None:
        parser.error("--db is required in heroes mode")
    if args.profile is None:
        return asyncio.run(serve(args))
    from pyinstrument import Profiler

    profiler = Profiler(async_mode="disabled")
    profiler.start()
    try:
        return asyncio.run(serve(args))
    finally:
        profiler.stop()
        args.profile.write_text(profiler.output_html())


if __name__ == "__main__":
    sys.exit(main())
