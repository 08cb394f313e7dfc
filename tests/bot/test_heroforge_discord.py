"""A whole two-player Hero Forge game through the real discord.py bot and the fake Discord.

ann and bob open a game with ``/game new ruleset:heroforge`` and a custom board, join and
start it, then play every decision the way people do: clicking the button or select option
that offers the move when one is on screen, typing ``/heroforge <group> <command>``
otherwise and for every fourth move (the engine's AI chooses each move). At the end: the victory post, board
pictures in the channel, no error in the bot, no broken Discord limit, every
acknowledgement within 3 seconds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot import customids
from bot.heroforge.commands import slash_for
from engine.core.model import Command
from engine.heroforge import RULESET as HEROFORGE
from engine.heroforge.state import HeroforgeState
from storage.records import Game, GameStatus
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

BOARD = "PL GR . / FO S HI / . FA PL"
MAX_STEPS = 1500


class HeroforgeDriver:
    """Plays the game in the table's channel for ann (Red) and bob (Blue)."""

    def __init__(self, table: Table, bot: object) -> None:
        self.table = table
        self.bot = bot
        self.rng = random.Random(3)
        self.last: dict[int, list[FakeMessage]] = {}
        self.clicks = 0
        self.slashes = 0
        self.kinds: set[str] = set()

    async def game(self) -> Game:
        repo = self.bot.service.repo  # type: ignore[attr-defined]
        found = await repo.game_in_channel(self.table.channel.id)
        if found is None:
            archive = await repo.list_games(channel_id=self.table.channel.id, limit=1)
            found = await repo.get_game(archive[0].id)
        return found  # type: ignore[no-any-return]

    async def state(self) -> tuple[Game, HeroforgeState]:
        game = await self.game()
        return game, HEROFORGE.load_state(game.state_json or "")

    async def act(self, who: FakeUser, send: object) -> InteractionResult:
        result: InteractionResult = await send()  # type: ignore[operator]
        await self.bot.wait_idle()  # type: ignore[attr-defined]
        assert result.response is not None and result.response.elapsed < 3.0
        self.last[who.id] = [m for m in result.messages if not m.deleted]
        return result

    def find(
        self, who: FakeUser, game: Game, state: HeroforgeState, index: int, command: Command
    ) -> tuple[FakeMessage, str, str | None] | None:
        token = customids.option_token(index, command.model_dump_json())
        button = customids.encode(game.id, state.version, "opt", token)
        select = customids.encode(game.id, state.version, "pick")
        screens = [
            *reversed(self.last.get(who.id, [])),
            *reversed(self.table.channel.public_messages()[-4:]),
        ]
        for message in screens:
            for component in message.all_components():
                custom_id = component.get("custom_id")
                if custom_id == button:
                    return message, button, None
                values = {o.get("value") for o in component.get("options", []) or []}
                if custom_id == select and token in values:
                    return message, select, token
        return None

    async def step(self) -> None:
        game, state = await self.state()
        decision = HEROFORGE.pending(state)[0]
        who = self.table.ann if decision.seat == 0 else self.table.bob
        legal = HEROFORGE.legal_commands(state, decision.seat)
        command = HEROFORGE.ai_command(state, decision.seat, self.rng)
        index = legal.index(command)
        self.kinds.add(decision.kind)
        fake, channel = self.table.fake, self.table.channel
        typing = (self.clicks + self.slashes) % 4 == 3
        control = None if typing else self.find(who, game, state, index, command)
        if control is not None:
            message, custom_id, value = control
            self.clicks += 1
            if value is None:
                await self.act(who, lambda: fake.click(who, message, custom_id))
            else:
                await self.act(who, lambda: fake.select(who, message, custom_id, [value]))
        else:
            path, options = slash_for(command)
            self.slashes += 1
            result = await self.act(
                who, lambda: fake.slash(who, channel, " ".join(path), **options)
            )
            assert result.response is not None
        after, _ = await self.state()
        assert after.version > game.version, f"{command!r} did not land"


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
        driver = HeroforgeDriver(table, bot)
        channel = table.channel
        await driver.act(
            table.ann,
            lambda: fake_discord.slash(
                table.ann, channel, "game new", ruleset="heroforge", players=2, board=BOARD
            ),
        )
        await driver.act(table.bob, lambda: fake_discord.slash(table.bob, channel, "game join"))
        await driver.act(table.ann, lambda: fake_discord.slash(table.ann, channel, "game start"))
        for _ in range(MAX_STEPS):
            game, _ = await driver.state()
            if game.status is not GameStatus.ACTIVE:
                break
            await driver.step()
        game, state = await driver.state()
        assert game.status is GameStatus.FINISHED and HEROFORGE.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("The game is over" in t and "has killed every enemy hero" in t for t in texts)
        boards = [a for m in channel.public_messages() for a in m.attachments]
        assert boards and all(a.filename == "board.png" for a in boards)
        assert driver.clicks > 10 and driver.slashes > 5
        assert {"choose_hero", "place_hero", "buy", "move", "moving"} <= driver.kinds
        status = await driver.act(
            table.bob, lambda: fake_discord.slash(table.bob, channel, "game status")
        )
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
