"""A restart of the bot as a NEW OS process on the same database: old buttons still work.

The real bot (`benchmarks.e2e_bot` in heroes mode: `bot.app.build_bot`, as
``heroes-table run`` composes it) runs in a child process against the fake Discord served
by this test. ann and bob play a two-player homm4 game through slash commands and the
buttons the bot sent (`Driver`, which reads the position from the same SQLite file).
Once a button offers the next move, the bot process is killed with SIGKILL (no clean
shutdown) and a new bot process is started on the same database. Clicking that old button
makes the move (the version goes up by one, the channel is told), a button from an older
position gets the clear "someone has moved since" reply, and replaying the game's log gives
exactly the stored snapshot (`storage.verify_game`). The moves played are the players'
Risk Stack choices of homm4:start-of-the-game.
"""

from __future__ import annotations

import os
import signal
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


def stale_buttons(driver: Driver, version: int) -> list[tuple[FakeMessage, str, FakeUser]]:
    """Decision buttons (``opt``) sent for a position older than ``version`` that a player
    can still click (in their DMs, their ephemeral replies or the channel), oldest first:
    ``(message, custom id, player)``."""
    found: list[tuple[int, FakeMessage, str, FakeUser]] = []
    for user in (driver.table.ann, driver.table.bob):
        visible = [
            m
            for m in driver.channel.history()
            if not m.ephemeral
            or (m.interaction_metadata or {}).get("user", {}).get("id") == str(user.id)
        ]
        for message in [*driver.fake.dms(user), *visible]:
            for button in [] if message.deleted else message.buttons():
                custom_id = str(button.get("custom_id") or "")
                if not customids.is_ours(custom_id) or button.get("disabled"):
                    continue
                sent = customids.decode(custom_id)
                if sent.action == "opt" and sent.version < version:
                    found.append((sent.version, message, custom_id, user))
    found.sort(key=lambda item: item[0])
    return [(message, custom_id, user) for _, message, custom_id, user in found]


@pytest.mark.slow
@pytest.mark.rule("homm4:start-of-the-game")
async def test_old_buttons_work_after_the_bot_process_is_killed_and_restarted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pictures drawn in the bot process itself: no worker processes to outlive a SIGKILL.
    monkeypatch.setenv("HEROES_RENDER_PROCESSES", "0")
    db, log = tmp_path / "heroes.db", tmp_path / "bot.log"
    async with FakeDiscord(ack_timeout=10.0, response_timeout=WAIT) as fake:
        table = Table.create(fake)
        first = await BotProcess.start(fake, "heroes", db, log, [], ROOT)
        second: BotProcess | None = None
        repo = await open_repository(db)
        try:
            bot = ProcessBot(first, repo)
            driver = ProcessDriver(table, bot, RecordingRenderer())  # type: ignore[arg-type]
            await open_and_start(driver)

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
            stale_message, stale_id, stale_who = stale[-1]
            await kill(first)
            assert first.errors == {}, "a SIGKILLed bot reports nothing"

            second = await BotProcess.start(fake, "heroes", db, log, [], ROOT)
            assert second.pid != first.pid
            bot.process = second
            posts = len(table.channel.public_messages())
            clicked = await driver.click(who, message, custom_id)
            after = await driver.game()
            assert after.version == before.version + 1, "the old button did not work"
            assert clicked.response is not None
            assert len(table.channel.public_messages()) > posts, "the channel was not told"

            refused = await driver.click(stale_who, stale_message, stale_id)
            replies = [m.content for m in refused.messages if m.ephemeral]
            assert any(STALE in text for text in replies), replies
            assert (await driver.game()).version == after.version, "a stale click moved"

            verification = await verify_game(repo, after.id)
            assert verification.ok, verification
            assert verification.version == after.version
        finally:
            await repo.close()
            for process in (first, second):
                if process is not None and process.process.returncode is None:
                    await process.stop()
        assert second.errors.get("count") == 0, second.errors
        fake.assert_no_violations()


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
