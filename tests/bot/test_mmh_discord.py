"""A whole mmh game through the real discord.py bot and the fake Discord.

ann opens a quick game with ``/game new ruleset:mmh`` against the computer and starts it,
then plays every decision the way people do: clicking the button or select option that offers the
move when one is on screen (in the channel, a reply or their DMs: keep-one choices go by
DM), typing ``/mmh <group> <command>`` otherwise and for every fourth move (the engine's
AI chooses each move). After every move no public message names a card that was hidden
(a held scroll, a card drawn for a choice) before and after it. At the end: the victory
post, board and initiative-track pictures in the channel, no error in the bot, no broken
Discord limit, every acknowledgement within 3 s.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import customids
from bot.mmh.adapter import hidden_cards
from bot.mmh.commands import slash_for
from engine.core.model import Command
from engine.mmh import RULESET as MMH
from engine.mmh.content import load_content
from engine.mmh.state import MmhState
from storage.records import Game, GameStatus
from tests.bot.discord_helpers import RecordingRenderer, Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

MAX_STEPS = 2500


def _names(cards: set[str]) -> set[str]:
    """Card names safe to look for in text (not part of another card's name)."""
    content = load_content()
    every = {
        content.card_name(c.id)
        for t in (content.skills, content.scrolls, content.artefacts)
        for c in t
    }
    names = {content.card_name(c) for c in cards}
    return {n for n in names if not any(n != other and n in other for other in every)}


class MmhDriver:
    """Plays the game in the table's channel for ann (Red); the computer plays Blue."""

    def __init__(self, table: Table, bot: object) -> None:
        self.table = table
        self.bot = bot
        self.rng = random.Random(7)
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

    async def state(self) -> tuple[Game, MmhState]:
        game = await self.game()
        return game, MMH.load_state(game.state_json or "")

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
        self, who: FakeUser, game: Game, state: MmhState, index: int, command: Command
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

    def check_channel(self, hidden: set[str]) -> None:
        names = _names(hidden)
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
                for name in names:
                    assert name not in text, (
                        f"a public message names a hidden card {name!r}: {text!r}"
                    )

    async def step(self) -> None:
        game, state = await self.state()
        decision = MMH.pending(state)[0]
        assert decision.seat == 0, "the computer answers its own decisions"
        who = self.table.ann
        legal = MMH.legal_commands(state, decision.seat)
        command = MMH.ai_command(state, decision.seat, self.rng)
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
        hidden = set()
        for seat in range(state.players):
            hidden |= set(hidden_cards(state, seat)) & set(hidden_cards(after_state, seat))
        self.check_channel(hidden)


@pytest.mark.slow
@pytest.mark.rule("mmh:game-end")
async def test_a_two_player_mmh_game_through_discord(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(
        fake_discord, tmp_path / "mmh.db", renderer=RecordingRenderer()
    ) as runner:
        bot = heroes_bot(runner)
        driver = MmhDriver(table, bot)
        channel = table.channel
        await driver.act(
            table.ann,
            lambda: fake_discord.slash(
                table.ann, channel, "game new", ruleset="mmh", players=2, length="quick"
            ),
        )
        await driver.act(
            table.ann, lambda: fake_discord.slash(table.ann, channel, "game add-ai", count=1)
        )
        await driver.act(table.ann, lambda: fake_discord.slash(table.ann, channel, "game start"))
        for _ in range(MAX_STEPS):
            game, _ = await driver.state()
            if game.status is not GameStatus.ACTIVE:
                break
            await driver.step()
        game, state = await driver.state()
        assert game.status is GameStatus.FINISHED and MMH.result(state).finished
        texts = [m.text for m in channel.public_messages()]
        assert any("wins the throne of Ashan" in t or "draw" in t for t in texts)
        pictures = [a.filename for m in channel.public_messages() for a in m.attachments]
        assert "board.png" in pictures and "battle.png" in pictures
        assert driver.clicks > 10 and driver.slashes > 5
        assert {"place_capital", "choose_hero", "play_action", "action_hero"} <= driver.kinds
        assert any(k.startswith("battle_") for k in driver.kinds)
        status = await driver.act(
            table.ann, lambda: fake_discord.slash(table.ann, channel, "game status")
        )
        assert status.response is not None
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
