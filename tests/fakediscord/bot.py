"""Running a real discord.py bot against the fake: start, wait for ready, watch, stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import discord


class _ErrorLog(logging.Handler):
    """Collects ERROR records of the ``discord`` loggers (tree.on_error, View.on_error and
    Client.on_error log there by default)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class BotRunner:
    """A bot started by ``run_bot``: its task, and the errors discord.py logged meanwhile."""

    def __init__(self, bot: discord.Client, task: asyncio.Task[None], log: _ErrorLog) -> None:
        self.bot = bot
        self.task = task
        self._log = log
        self.stopped = False

    @property
    def errors(self) -> list[logging.LogRecord]:
        """ERROR log records from discord.py (exceptions in commands, views, events)."""
        return list(self._log.records)

    def assert_running(self) -> None:
        """:raises AssertionError: ``bot.start()`` returned or raised — which is how a
        malformed gateway payload shows (discord.py ends the task silently)."""
        if not self.task.done():
            return
        if self.task.cancelled():
            raise AssertionError("the bot task was cancelled")
        raise AssertionError(f"the bot task ended: {self.task.exception()!r}")

    async def wait_for_errors(
        self, count: int = 1, timeout: float = 60.0
    ) -> list[logging.LogRecord]:
        """Wait until discord.py logged at least ``count`` errors; return them all.

        :raises TimeoutError: fewer arrived within ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self._log.records) < count:
            if loop.time() > deadline:
                raise TimeoutError(f"{len(self._log.records)} errors logged, expected {count}")
            await asyncio.sleep(0.005)
        return self.errors

    def assert_no_errors(self) -> None:
        """:raises AssertionError: listing each error discord.py logged (with traceback)."""
        if self._log.records:
            formatter = logging.Formatter("%(name)s: %(message)s")
            text = "\n\n".join(formatter.format(r) for r in self._log.records)
            raise AssertionError(f"discord.py logged errors:\n{text}")

    async def wait_ready(self, timeout: float) -> None:
        """Wait for ``on_ready`` (the bot task ending first is an error)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.bot.is_ready():
            if self.task.done():
                self.assert_running()
            if loop.time() > deadline:
                raise TimeoutError(f"bot not ready after {timeout}s")
            await asyncio.sleep(0.005)

    async def stop(self) -> None:
        """Close the bot and wait for its task (idempotent)."""
        if self.stopped:
            return
        self.stopped = True
        await self.bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(self.task, 5)


@contextlib.asynccontextmanager
async def run_bot(
    bot: discord.Client, *, token: str = "fake-token", ready_timeout: float = 60.0
) -> AsyncIterator[BotRunner]:
    """Start ``bot.start(token)`` in a task, wait until it is ready, yield its ``BotRunner``.

    On leaving the block normally, asserts the bot task is still running; the bot is
    closed in every case. Pass a small ``guild_ready_timeout`` to the bot, or ``on_ready``
    waits 2 s after the last GUILD_CREATE.

    :raises AssertionError: the bot died before being ready or during the block.
    :raises TimeoutError: not ready within ``ready_timeout`` seconds.
    """
    log = _ErrorLog()
    logger = logging.getLogger("discord")
    logger.addHandler(log)
    task = asyncio.create_task(bot.start(token), name=f"fakediscord-bot-{id(bot):x}")
    runner = BotRunner(bot, task, log)
    try:
        await runner.wait_ready(ready_timeout)
        yield runner
        if not runner.stopped:
            runner.assert_running()
    finally:
        await runner.stop()
        logger.removeHandler(log)
