"""A whole two-player Hero Forge game through the real discord.py bot and the fake Discord.

ann and bob open a game with ``/game new ruleset:heroforge`` and a custom board, join and
start it, then play every decision the way people do: clicking the button or select option
that offers the move when one is on screen, typing ``/heroforge <group> <command>``
otherwise and for every fourth move (the engine's AI chooses each move). At the end: the victory post, board
pictures in the channel, no error in the bot, no broken Discord limit, every
acknowledgement within 3 seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.heroforge.commands import slash_for
from engine.heroforge import RULESET as HEROFORGE
from storage.records import GameStatus
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.bot.ruleset_driver import RulesetDriver
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

BOARD = "PL GR . / FO S HI / . FA PL"
MAX_STEPS = 1500


@pytest.mark.slow
@pytest.mark.rule("heroforge:basic-rules")
async def test_a_two_player_hero_forge_game_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(
        fake_discord, tmp_path / "hf.db", renderer=RecordingRenderer()
    ) as runner:
        bot = heroes_bot(runner)
        driver = RulesetDriver(table, bot, HEROFORGE, slash_for, (table.ann, table.bob), seed=3)
        channel = table.channel
        await driver.slash(
            table.ann,
            "game new",
            where="here",
            ruleset="heroforge",
            players=2,
            options=f'board:"{BOARD}"',
        )
        await driver.slash(table.bob, "game join")
        await driver.slash(table.ann, "game start")
        game, state = await driver.play_out(MAX_STEPS)
        assert game.status is GameStatus.FINISHED and HEROFORGE.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("The game is over" in t and "has killed every enemy hero" in t for t in texts)
        boards = [a for m in channel.public_messages() for a in m.attachments]
        assert boards and {a.filename for a in boards} == {"board-focus.png", "board.png"}
        assert driver.clicks > 10 and driver.slashes > 5
        assert {"choose_hero", "place_hero", "buy", "move", "moving"} <= driver.kinds
        status = await driver.slash(table.bob, "game status")
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
