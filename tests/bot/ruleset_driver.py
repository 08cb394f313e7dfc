"""A test player for the whole-game Discord tests of homm3, mmh and Hero Forge.

It reads the position from the database, lets the engine's AI choose the move of whoever
owes a decision, and makes that move the way a person would: clicking the button or
select option that offers it when one is on screen for that person (their last replies,
their DMs, the channel's last messages), typing ``/<ruleset> <group> <command>``
otherwise and for every fourth move. A ruleset's test subclasses it to check, after each
move, that no public message names a card hidden before and after it (`check`).
(homm4's own driver, with timings and pictures, is `tests.bot.discord_driver`.)
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any

from bot import customids
from engine.core.model import Command, GameState
from storage.records import Game, GameStatus
from tests.bot.discord_helpers import Table
from tests.fakediscord import FakeMessage, FakeUser, InteractionResult

SlashFor = Callable[[Command], tuple[tuple[str, ...], dict[str, Any]]]
"""A ruleset's ``slash_for``: the slash path and options that build a command."""


class RulesetDriver:
    """Plays a game in ``table``'s channel for ``players`` (seat order; later seats are
    the computer's) with ``ruleset``'s AI (seeded ``seed``).

    Attributes:
        clicks / slashes: how many moves were a click or a typed command.
        kinds: every decision kind that came up.
        last_move: the seat and command of the last move made (for `check`).
    """

    def __init__(
        self,
        table: Table,
        bot: Any,
        ruleset: Any,
        slash_for: SlashFor,
        players: Sequence[FakeUser],
        seed: int,
    ) -> None:
        self.table = table
        self.bot = bot
        self.ruleset = ruleset
        self.slash_for = slash_for
        self.players = tuple(players)
        self.rng = random.Random(seed)
        self.last: dict[int, list[FakeMessage]] = {}
        self.clicks = 0
        self.slashes = 0
        self.kinds: set[str] = set()
        self.last_move: tuple[int, Command] | None = None
        self._seen: dict[int, str] = {}

    async def game(self) -> Game:
        """The channel's game (the finished one once it is archived)."""
        repo = self.bot.service.repo
        found = await repo.game_in_channel(self.table.channel.id)
        if found is None:
            archive = await repo.list_games(channel_id=self.table.channel.id, limit=1)
            found = await repo.get_game(archive[0].id)
        return found  # type: ignore[no-any-return]

    async def state(self) -> tuple[Game, Any]:
        """The game and its loaded state."""
        game = await self.game()
        return game, self.ruleset.load_state(game.state_json or "")

    async def act(
        self, who: FakeUser, send: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult:
        """Send one interaction of ``who``, wait until the bot is idle, check it was
        acknowledged within 3 s and keep its messages as ``who``'s last replies."""
        result = await send()
        await self.bot.wait_idle()
        assert result.response is not None and result.response.elapsed < 3.0
        self.last[who.id] = [m for m in result.messages if not m.deleted]
        return result

    async def slash(self, who: FakeUser, name: str, **options: Any) -> InteractionResult:
        """``who`` types ``/name`` with ``options`` in the table's channel."""
        fake, channel = self.table.fake, self.table.channel
        return await self.act(who, lambda: fake.slash(who, channel, name, **options))

    async def play_out(self, max_steps: int) -> tuple[Game, Any]:
        """Make moves until the game is no longer active (at most ``max_steps``); the
        game and state then."""
        for _ in range(max_steps):
            game, _ = await self.state()
            if game.status is not GameStatus.ACTIVE:
                break
            await self.step()
        return await self.state()

    def screens(self, who: FakeUser) -> list[FakeMessage]:
        """What ``who`` sees, newest first: their last replies, DMs with components, the
        game's panel (the ping links to it) and the channel's last 5 messages."""
        dms = [m for m in self.table.fake.dms(who) if not m.deleted and m.all_components()]
        public = self.table.channel.public_messages()
        return [
            *reversed(self.last.get(who.id, [])),
            *reversed(dms),
            *reversed([m for m in public if m.panel]),
            *reversed(public[-5:]),
        ]

    def find(
        self, who: FakeUser, game: Game, state: GameState, index: int, command: Command
    ) -> tuple[FakeMessage, str, str | None] | None:
        """The message, custom id and select value (None: a button) offering legal move
        ``index`` (``command``) on ``who``'s screens, or None."""
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

    async def step(self) -> None:
        """One move of whoever owes the first decision (a click when the move is on
        screen and this is not every fourth move, else the typed command); it must land,
        then `check` runs."""
        game, state = await self.state()
        decision = self.ruleset.pending(state)[0]
        assert decision.seat < len(self.players), "the computer answers its own decisions"
        who = self.players[decision.seat]
        legal = self.ruleset.legal_commands(state, decision.seat)
        command = self.ruleset.ai_command(state, decision.seat, self.rng)
        self.kinds.add(decision.kind)
        self.last_move = (decision.seat, command)
        fake = self.table.fake
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
            path, options = self.slash_for(command)
            self.slashes += 1
            result = await self.slash(who, " ".join(path), **options)
            assert result.response is not None
        after, after_state = await self.state()
        assert after.version > game.version, (
            f"{command!r} did not land: {[m.content for m in self.last[who.id]]}"
        )
        self.check(state, after_state)

    def check(self, before: Any, after: Any) -> None:
        """Checks after each move (none by default)."""

    def new_public_texts(self) -> Iterator[str]:
        """The texts (content, button labels, select options) of the channel's messages
        that are new or changed since the last call."""
        for message in self.table.channel.public_messages():
            texts = [message.text]
            for component in message.all_components():
                texts.append(str(component.get("label") or ""))
                texts += [str(o.get("label", "")) for o in component.get("options", []) or []]
            signature = "|".join(texts) + str(len(message.edits))
            if self._seen.get(message.id) == signature:
                continue
            self._seen[message.id] = signature
            yield from texts
