"""A restart of the bot as a NEW OS process on the same database: old buttons still work.

The real bot (`benchmarks.e2e_bot` in heroes mode: `bot.app.build_bot`, as
``heroes-table run`` composes it) runs in a child process against the fake Discord served
by this test. ann and bob play a two-player homm4 game through slash commands and the
buttons the bot sent (`Driver`, which reads the position from the same SQLite file).
Once a button offers the next move, the bot process is killed with SIGKILL (no clean
shutdown) and a new bot process is started on the same database. Clicking that old button
makes the move (the version goes up by one, the channel is told), a button from an older
position (one the bot has taken off its channel post since: a click dispatched before that
edit) gets the clear "someone has moved since" reply, and replaying the game's log gives
exactly the stored snapshot (`storage.verify_game`). The moves played are the players'
Risk Stack choices of homm4:start-of-the-game.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_e2e import BotProcess
from bot import customids
from engine.homm4 import RULESET as HOMM4
from storage import open_repository, verify_game
from storage.sqlite import SqliteRepository
from tests.bot.discord_driver import Driver
from tests.bot.discord_helpers import RecordingRenderer, Table
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.world import iter_components

ROOT = Path(__file__).resolve().parents[2]
"""The repository root: the bot process runs ``python -m benchmarks.e2e_bot`` from here."""

WAIT = 120.0
"""Seconds to wait for the bot process (start, or one interaction completely answered):
generous, for a busy machine; never a timing assertion."""

MAX_STEPS = 200

STALE = "someone has moved since"


class ProcessBot:
    """What `Driver` needs of a bot, for a bot in another process: the repository (this
    process's own connection to the same SQLite file) and ``wait_idle`` (until the child
    reported the last interaction completely answered)."""

    def __init__(self, process: BotProcess, repo: SqliteRepository) -> None:
        self.process = process
        self.service = self
        self.repo = repo
        self.last_interaction: int | None = None

    async def wait_idle(self) -> None:
        """Wait until the bot process has delivered everything for the last interaction."""
        if self.last_interaction is not None:
            await self.process.done(self.last_interaction, timeout=WAIT)
            self.last_interaction = None


class ProcessDriver(Driver):
    """`Driver` over a `ProcessBot`. The pictures are drawn in the bot process, so their
    origin cannot be traced here: public messages are still checked for named private
    cards, and each picture only for being a PNG."""

    async def timed(self, who: FakeUser, what: str, send: Any) -> InteractionResult:
        """As `Driver.timed`, remembering the interaction so ``wait_idle`` can wait for it."""

        async def tracked() -> InteractionResult:
            result: InteractionResult = await send()
            assert isinstance(self.bot, ProcessBot)
            self.bot.last_interaction = result.id
            return result

        return await super().timed(who, what, tracked)

    def check_images(self, message: FakeMessage, hidden: Any) -> None:
        """Every attachment of a public message is a PNG picture."""
        for attachment in message.attachments:
            assert attachment.is_png, f"{attachment.filename} is not a PNG"
            self.checked_images += 1


@dataclass
class Processes:
    """The world of a process test (`bot_processes`): the fake Discord and its table, the
    first bot process and the one started after it (`start_second`), the repository both
    use, and the driver playing through whichever runs."""

    fake: FakeDiscord
    table: Table
    db: Path
    log: Path
    repo: SqliteRepository
    first: BotProcess
    bot: ProcessBot
    driver: ProcessDriver
    second: BotProcess | None = None

    async def start_second(self) -> BotProcess:
        """Start the second bot process on the same database and log; the driver talks
        to it from now on."""
        self.second = await BotProcess.start(self.fake, "heroes", self.db, self.log, [], ROOT)
        self.bot.process = self.second
        return self.second


@asynccontextmanager
async def bot_processes(tmp_path: Path) -> AsyncIterator[Processes]:
    """A fake Discord with a `Table`, a bot process (`benchmarks.e2e_bot`) on
    ``tmp_path / "heroes.db"`` logging to ``bot.log``, and a two-player game opened and
    started through it (`open_and_start`). On leaving, the repository is closed and every
    process still running is stopped; a block that ended normally must have had its
    second process log no error and the fake Discord see no violation."""
    db, log = tmp_path / "heroes.db", tmp_path / "bot.log"
    async with FakeDiscord(ack_timeout=10.0, response_timeout=WAIT) as fake:
        table = Table.create(fake)
        first = await BotProcess.start(fake, "heroes", db, log, [], ROOT)
        repo = await open_repository(db)
        bot = ProcessBot(first, repo)
        driver = ProcessDriver(table, bot, RecordingRenderer())  # type: ignore[arg-type]
        run = Processes(fake, table, db, log, repo, first, bot, driver)
        try:
            await open_and_start(driver)
            yield run
        finally:
            await repo.close()
            for process in (first, run.second):
                if process is not None and process.process.returncode is None:
                    await process.stop()
        assert run.second is not None, "the test started no second process"
        assert run.second.errors.get("count") == 0, run.second.errors
        fake.assert_no_violations()


async def kill(process: BotProcess) -> None:
    """SIGKILL the bot process (no clean shutdown) and wait until it is gone."""
    os.kill(process.process.pid, signal.SIGKILL)
    assert await process.process.wait() == -signal.SIGKILL
    await process._reader


async def next_button(driver: Driver) -> tuple[FakeMessage, str, FakeUser]:
    """Play on until the next move is offered to its player by a button; return the
    message, the button's custom id and the player."""
    for _ in range(MAX_STEPS):
        game, state = await driver.state()
        decision = HOMM4.pending(state)[0]
        who = await driver.user_of(decision.seat)
        index, command = driver.choose(state, decision.seat)
        control = driver.find_control(who, game, state, index, command)
        if control is not None and control[2] is None:
            return control[0], control[1], who
        await driver.step()
    raise AssertionError("no button for the next move")


StaleButton = tuple[FakeMessage, str, FakeUser, list[dict[str, Any]] | None]


def stale_buttons(driver: Driver, version: int) -> list[StaleButton]:
    """Decision buttons (``opt``) sent for a position older than ``version`` that a player
    can still click (in their DMs, their ephemeral replies or the channel), or that a
    channel post had before the bot took them off (a click dispatched before that edit
    still arrives), oldest first: ``(message, custom id, player, the components the
    message had then or None if it still has them)``."""
    found: list[tuple[int, StaleButton]] = []
    for user in (driver.table.ann, driver.table.bob):
        visible = [
            m
            for m in driver.channel.history()
            if not m.ephemeral
            or (m.interaction_metadata or {}).get("user", {}).get("id") == str(user.id)
        ]
        for message in [*driver.fake.dms(user), *visible]:
            if message.deleted:
                continue
            shown: list[tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]] = [
                (None, message.components)
            ]
            if not message.components:
                shown += [(e["components"], e["components"]) for e in message.edits]
            for then, components in shown:
                for button in iter_components(components):
                    custom_id = str(button.get("custom_id") or "")
                    if button.get("type") != 2 or not customids.is_ours(custom_id):
                        continue
                    sent = customids.decode(custom_id)
                    if (
                        sent.action == "opt"
                        and sent.version < version
                        and not button.get("disabled")
                    ):
                        found.append((sent.version, (message, custom_id, user, then)))
    found.sort(key=lambda item: item[0])
    return [button for _, button in found]


@pytest.mark.slow
@pytest.mark.rule("homm4:start-of-the-game")
async def test_old_buttons_work_after_the_bot_process_is_killed_and_restarted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pictures drawn in the bot process itself: no worker processes to outlive a SIGKILL.
    monkeypatch.setenv("HEROES_RENDER_PROCESSES", "0")
    async with bot_processes(tmp_path) as run:
        driver, table, repo, first = run.driver, run.table, run.repo, run.first

        # A move played with a button before the restart.
        old_message, old_id, old_who = await next_button(driver)
        played = await driver.game()
        await driver.click(old_who, old_message, old_id)
        assert (await driver.game()).version == played.version + 1

        # The button to click after the restart, then SIGKILL: no clean shutdown.
        message, custom_id, who = await next_button(driver)
        before, position = await driver.state()
        assert HOMM4.pending(position)[0].kind == "choose_risk_stack"
        stale = stale_buttons(driver, before.version)
        assert stale, "no button of an older position left on screen"
        stale_message, stale_id, stale_who, stale_shown = stale[-1]
        await kill(first)
        assert first.errors == {}, "a SIGKILLed bot reports nothing"

        second = await run.start_second()
        assert second.pid != first.pid
        posts = len(table.channel.public_messages())
        clicked = await driver.click(who, message, custom_id)
        after = await driver.game()
        assert after.version == before.version + 1, "the old button did not work"
        assert clicked.response is not None
        assert len(table.channel.public_messages()) > posts, "the channel was not told"

        if stale_shown is None:
            refused = await driver.click(stale_who, stale_message, stale_id)
        else:
            refused = await driver.late_click(stale_who, stale_message, stale_id, stale_shown)
        replies = [m.content for m in refused.messages if m.ephemeral]
        assert any(STALE in text for text in replies), replies
        assert (await driver.game()).version == after.version, "a stale click moved"

        verification = await verify_game(repo, after.id)
        assert verification.ok, verification
        assert verification.version == after.version


async def open_and_start(driver: Driver) -> None:
    """ann opens a two-player game, bob joins with the lobby's button, ann starts."""
    table = driver.table
    opened = await driver.slash(table.ann, "game new", where="here", players=2)
    assert any("Game #1 is open" in m.content for m in opened.messages)
    lobby = next(m for m in table.channel.public_messages() if m.buttons())
    await driver.click(table.bob, lobby, lobby.find_component(label="Join")["custom_id"])
    await driver.slash(table.ann, "game start")
    game, state = await driver.state()
    assert game.ruleset == "homm4" and HOMM4.pending(state)[0].kind == "choose_risk_stack"
