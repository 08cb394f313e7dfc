"""Several real bot processes on one database against one fake Discord (issue 18).

A `Cluster` is a fake Discord with ``shard_count`` shards, one guild (a `Site`: its
channel and two players) on each shard, and one bot process per shard: the real bot as
``heroes-table run`` composes it (`benchmarks.e2e_bot` in heroes mode, so
`bot.app.build_bot`), started with ``HEROES_SHARD_COUNT`` and ``HEROES_SHARD_IDS`` of its
shard, all on the same store — an SQLite file, or a PostgreSQL schema on the test server
(``HEROES_DATABASE_URL``). The test process opens its own repository on that store to read
what the processes did. Interactions are routed as Discord routes them: a guild's to the
process of its shard, DMs to shard 0's (`Cluster.process_for`).
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from benchmarks.bench_e2e import BotProcess
from bot import customids
from storage.repository import Repository
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.fakediscord.world import iter_components

ROOT = Path(__file__).resolve().parents[2]
"""The repository root: the bot processes run ``python -m benchmarks.e2e_bot`` from here."""

WAIT = 120.0
"""Seconds to wait for a bot process (start, one interaction completely answered, a
tick): generous for a busy machine; never a timing assertion."""

STALE = re.compile(r"was sent for move \d+ of the game, but the game is now at move \d+")
"""What the bot answers a click on a position the game has moved past."""


@dataclass
class Site:
    """One guild on one shard: its #general channel and two players."""

    shard: int
    guild: FakeGuild
    channel: FakeChannel
    ann: FakeUser
    bob: FakeUser


@dataclass
class Cluster:
    """The fake Discord, its sites, the store and the bot process of each shard."""

    fake: FakeDiscord
    sites: list[Site]
    backend: str
    store: str
    folder: Path
    repo: Repository
    processes: dict[int, BotProcess] = field(default_factory=dict)
    extra_env: dict[str, str] = field(default_factory=dict)
    started: list[BotProcess] = field(default_factory=list)

    # ------------------------------------------------------------ processes
    def environment(self, shard: int) -> dict[str, str]:
        """The environment of shard ``shard``'s bot process."""
        env = {
            "HEROES_SHARD_COUNT": str(self.fake.shard_count),
            "HEROES_SHARD_IDS": str(shard),
            "HEROES_RENDER_PROCESSES": "0",
            "HEROES_E2E_REMINDER_INTERVAL": "0.2",
        }
        if self.backend == "postgresql":
            env["HEROES_DATABASE_URL"] = self.store
        return env | self.extra_env

    async def start(self, shard: int, **env: str) -> BotProcess:
        """Start the bot process of ``shard`` (``env``: more variables for it alone) and
        wait until it is logged in and ready."""
        with _environment(self.environment(shard) | env):
            process = await BotProcess.start(
                self.fake, "heroes", self.db_argument(), self.log(shard), [], ROOT
            )
        self.processes[shard] = process
        self.started.append(process)
        return process

    def db_argument(self) -> Path:
        """The ``--db`` of the bot processes (a PostgreSQL process ignores it)."""
        return Path(self.store) if self.backend == "sqlite" else self.folder / "unused.db"

    def log(self, shard: int) -> Path:
        """Where shard ``shard``'s processes write their stderr."""
        return self.folder / f"bot-{shard}.log"

    async def kill(self, shard: int) -> None:
        """SIGKILL shard ``shard``'s process (no clean shutdown) and wait until it is gone."""
        process = self.processes.pop(shard)
        if process.process.returncode is None:
            os.kill(process.process.pid, signal.SIGKILL)
        await process.process.wait()
        await process._reader

    async def died(self, shard: int) -> int:
        """Wait for shard ``shard``'s process to end by itself; return its exit code."""
        process = self.processes.pop(shard)
        code = await process.process.wait()
        await process._reader
        return code

    def process_for(self, channel: FakeChannel) -> BotProcess:
        """The process Discord sends ``channel``'s interactions to (DMs: shard 0's)."""
        return self.processes[self.fake.shard_of(channel.guild)]

    async def answered(self, result: InteractionResult) -> InteractionResult:
        """Wait until the process that got ``result``'s interaction delivered everything."""
        await self.process_for(result.channel).done(result.id, timeout=WAIT)
        return result

    # ------------------------------------------------------------ acting
    async def slash(self, who: FakeUser, channel: FakeChannel, name: str, **options: Any) -> Any:
        """``/name`` typed by ``who`` in ``channel``, completely answered."""
        return await self.answered(await self.fake.slash(who, channel, name, **options))

    async def open_game(self, site: Site) -> int:
        """ann opens a two-player homm4 game in the site's channel, bob joins with the
        lobby's button, ann starts it; returns the game's id."""
        await self.slash(site.ann, site.channel, "game new", where="here", players=2)
        lobby = next(m for m in site.channel.public_messages() if m.buttons())
        join = lobby.find_component(label="Join")["custom_id"]
        await self.answered(await self.fake.click(site.bob, lobby, join))
        await self.slash(site.ann, site.channel, "game start")
        game = await self.repo.game_in_channel(site.channel.id)
        assert game is not None and game.state_json is not None, "the game did not start"
        return game.id

    async def stop_all(self) -> None:
        """Stop every process still running (cleanly when it is alive)."""
        for process in self.started:
            if process.process.returncode is None:
                await process.stop()


def decision_controls(
    message: FakeMessage, game_id: int, version: int
) -> list[tuple[str, tuple[str, ...]]]:
    """The enabled controls of ``message`` for game ``game_id`` at ``version``: ``(custom
    id, values)`` with no values for a button, the first option(s) a select needs."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for component in iter_components(message.components):
        custom_id = str(component.get("custom_id") or "")
        if not customids.is_ours(custom_id) or component.get("disabled"):
            continue
        sent = customids.decode(custom_id)
        if sent.game_id != game_id or sent.version != version:
            continue
        if component.get("type") == 2:
            found.append((custom_id, ()))
        elif component.get("options"):
            needed = max(1, int(component.get("min_values") or 1))
            values = tuple(str(o["value"]) for o in component["options"][:needed])
            found.append((custom_id, values))
    return found


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` while a child process is spawned."""
    with mock.patch.dict(os.environ, values):
        yield


async def open_test_store(backend: str, store: str) -> Repository:
    """The test process's own repository on the cluster's store."""
    if backend == "sqlite":
        from storage.sqlite import open_repository

        return await open_repository(store)
    from storage.postgres import open_postgres

    return await open_postgres(store)


@asynccontextmanager
async def store_for(backend: str, folder: Path) -> AsyncIterator[str]:
    """A fresh store: an SQLite file in ``folder``, or a fresh schema on the PostgreSQL
    test server (skipped without one; a failure in CI: `tests.postgres_server`)."""
    if backend == "sqlite":
        yield str(folder / "heroes.db")
        return
    from tests.postgres_server import fresh_schema

    async with fresh_schema() as url:
        yield url


@asynccontextmanager
async def cluster(
    folder: Path, backend: str, *, shards: int = 2, start: bool = True
) -> AsyncIterator[Cluster]:
    """A `Cluster` of ``shards`` sites and (with ``start``) one running process per shard.
    On leaving: every process still running is stopped, the test's repository closed,
    and a block that ended normally must have had no running process log an error and
    the fake Discord see no violation."""
    async with (
        store_for(backend, folder) as store,
        FakeDiscord(ack_timeout=10.0, response_timeout=WAIT, shard_count=shards) as fake,
    ):
        sites = []
        for shard in range(shards):
            guild = fake.create_guild(f"Tavern {shard}", shard=shard)
            ann, bob = fake.create_user(f"ann{shard}"), fake.create_user(f"bob{shard}")
            guild.add_member(ann)
            guild.add_member(bob)
            sites.append(Site(shard, guild, guild.channel_named("general"), ann, bob))
        # The test's own repository first: it creates and migrates the store, so the
        # processes all open one that exists.
        repo = await open_test_store(backend, store)
        run = Cluster(fake, sites, backend, store, folder, repo)
        try:
            if start:
                for shard in range(shards):
                    await run.start(shard)
            yield run
        finally:
            await run.stop_all()
            await repo.close()
        stopped = [p for p in run.started if p.errors]
        for process in stopped:
            assert process.errors.get("count") == 0, process.errors
        fake.assert_no_violations()
