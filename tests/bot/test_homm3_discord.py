"""A whole two-player homm3 game through the real discord.py bot and the fake Discord.

ann and bob open a Skirmish with ``/game new ruleset:homm3``, join and start it, then play
every decision the way people do: clicking the button or select option that offers the
move when one is on screen (in the channel, a reply or their DMs: the private choices go
by DM), typing ``/homm3 <group> <command>`` otherwise and for every fourth move (the
engine's AI chooses each move). After every move no public message names a card that was
hidden before and after it. At the end: the victory post, Battlefield pictures in the
channel, no error in the bot, no broken Discord limit, every acknowledgement within 3 s.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import customids
from bot.homm3.adapter import private_cards
from bot.homm3.commands import slash_for
from engine.core.model import Command
from engine.homm3 import RULESET as HOMM3
from engine.homm3.state import Homm3State
from storage.records import Game, GameStatus
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

MAX_STEPS = 1500
_CARD = re.compile(r"#(\d+)")
_NOT_CARDS = re.compile(
    r"(?i)game #\d+|entr(?:y|ies)(?:[ ,]+(?:and )?#\d+)+|<[@#&!]+\d+>|<t:\d+(:\w)?>"
)


class Homm3Driver:
    """Plays the game in the table's channel for ann (Red) and bob (Blue)."""

    def __init__(self, table: Table, bot: object) -> None:
        self.table = table
        self.bot = bot
        self.rng = random.Random(5)
        self.last: dict[int, list[FakeMessage]] = {}
        self.clicks = 0
        self.slashes = 0
        self.kinds: set[str] = set()
        self.seen: dict[int, str] = {}

    async def game(self) -> Game:
        repo = self.bot.service.repo  # type: ignore[attr-defined]
        found = await repo.game_in_channel(self.table.channel.id)
        if found is None:
            archive = await repo.list_games(channel_id=self.table.channel.id, limit=1)
            found = await repo.get_game(archive[0].id)
        return found  # type: ignore[no-any-return]

    async def state(self) -> tuple[Game, Homm3State]:
        game = await self.game()
        return game, HOMM3.load_state(game.state_json or "")

    async def act(
        self, who: FakeUser, send: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult:
        result = await send()
        await self.bot.wait_idle()  # type: ignore[attr-defined]
        assert result.response is not None and result.response.elapsed < 3.0
        self.last[who.id] = [m for m in result.messages if not m.deleted]
        return result

    def screens(self, who: FakeUser) -> list[FakeMessage]:
        dms = [m for m in self.table.fake.dms(who) if not m.deleted and m.all_components()]
        return [
            *reversed(self.last.get(who.id, [])),
            *reversed(dms),
            *reversed(self.table.channel.public_messages()[-5:]),
        ]

    def find(
        self, who: FakeUser, game: Game, state: Homm3State, index: int, command: Command
    ) -> tuple[FakeMessage, str, str | None] | None:
        token = customids.option_token(index, command.model_dump_json())
        button = customids.encode(game.id, state.version, "opt", token)
        select = customids.encode(game.id, state.version, "pick")
        for message in self.screens(who):
            for component in message.all_components():
                custom_id = component.get("custom_id")
                if custom_id == button and not component.get("disabled"):
                    return message, button, None
                values = {o.get("value") for o in component.get("options", []) or []}
                if custom_id == select and token in values:
                    return message, select, token
        return None

    def check_channel(self, hidden: set[int]) -> None:
        for message in self.table.channel.public_messages():
            texts = [message.text]
            for component in message.all_components():
                texts.append(str(component.get("label") or ""))
                texts += [str(o.get("label", "")) for o in component.get("options", []) or []]
            signature = "|".join(texts) + str(len(message.edits))
            if self.seen.get(message.id) == signature:
                continue
            self.seen[message.id] = signature
            for text in texts:
                named = {int(n) for n in _CARD.findall(_NOT_CARDS.sub("", text))}
                assert not named & hidden, (
                    f"a public message names hidden cards {named & hidden}: {text!r}"
                )

    async def step(self) -> None:
        game, state = await self.state()
        decision = HOMM3.pending(state)[0]
        who = self.table.ann if decision.seat == 0 else self.table.bob
        legal = HOMM3.legal_commands(state, decision.seat)
        command = HOMM3.ai_command(state, decision.seat, self.rng)
        self.kinds.add(decision.kind)
        fake, channel = self.table.fake, self.table.channel
        typing = (self.clicks + self.slashes) % 4 == 3
        control = None
        if not typing and command in legal:
            control = self.find(who, game, state, legal.index(command), command)
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
        after, after_state = await self.state()
        assert after.version > game.version, (
            f"{command!r} did not land: {[m.content for m in self.last[who.id]]}"
        )
        self.check_channel(private_cards(state) & private_cards(after_state))


@pytest.mark.slow
@pytest.mark.rule("homm3bf:skirmish-mode.victory-condition")
async def test_a_two_player_homm3_skirmish_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    await _whole_game(
        fake_discord,
        tmp_path,
        {},
        {"choose_setup_remove", "place_obstacle", "deploy", "activation", "attack_window"},
    )


@pytest.mark.slow
@pytest.mark.rule("homm3bf:adventure-mode.victory-condition")
async def test_a_two_player_homm3_adventure_siege_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A short Adventure (9 rounds of Adventure cards and Town actions) ending in a Siege."""
    await _whole_game(
        fake_discord,
        tmp_path,
        {"mode": "adventure", "size": "short", "siege": True},
        {"adventure_turn", "choose_adventure_keep", "deploy", "activation"},
        pictures={"adventure.png", "battlefield.png"},
    )


async def _whole_game(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    options: dict[str, object],
    kinds: set[str],
    pictures: frozenset[str] | set[str] = frozenset({"battlefield.png"}),
) -> None:
    """Play a whole game with ``options`` through the fake Discord; the decisions of
    ``kinds`` must come up and the ``pictures`` be posted in the channel."""
    table = Table.create(fake_discord)
    async with running_bot(
        fake_discord, tmp_path / "h3.db", renderer=RecordingRenderer()
    ) as runner:
        bot = heroes_bot(runner)
        driver = Homm3Driver(table, bot)
        channel = table.channel
        await driver.act(
            table.ann,
            lambda: fake_discord.slash(
                table.ann,
                channel,
                "game new",
                ruleset="homm3",
                players=2,
                heroes="Catherine, Deemer",
                **options,
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
        assert game.status is GameStatus.FINISHED and HOMM3.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("defeated every unit" in t for t in texts)
        posted = {a.filename for m in channel.public_messages() for a in m.attachments}
        assert pictures <= posted
        assert driver.clicks > 10 and driver.slashes > 5
        assert kinds <= driver.kinds
        dms = [m.text for m in fake_discord.dms(table.ann)]
        assert any("Hand" in t for t in dms)
        status = await driver.act(
            table.bob, lambda: fake_discord.slash(table.bob, channel, "game status")
        )
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
