"""A test player for the Discord end-to-end game: it reads the position from the database,
lets the AI helper choose a legal move for whoever owes a decision, and makes that move
the way a person would — clicking the button or select option that offers it when one is
on screen for that person, typing the slash command otherwise — then checks that nothing
the channel received named or showed a private card.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import customids
from bot.discord_bot import HeroesBot
from bot.homm4 import adapter
from bot.homm4.commands import slash_for
from engine.core.model import Command
from engine.homm4 import RULESET as HOMM4
from engine.homm4.state import Homm4State
from storage.records import Game
from tests.bot.discord_helpers import RecordingRenderer, Table
from tests.fakediscord import FakeChannel, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.interactions import MESSAGE_COMPONENT

MESSAGE_COMPONENT_BUTTON = 2
"""The component type of a button (in a click's ``data``)."""

AI_SEED = 99
"""The seed of the AI helper that chooses the people's moves (as in the service tests)."""

_GAME_NUMBER = re.compile(
    r"(?i)game #\d+|entr(?:y|ies)(?:[ ,]+(?:and )?#\d+)+|deck[^#\n]*\(#\d+|<[@#&!]+\d+>|<t:\d+(:\w)?>"
)
_CARD_NUMBER = re.compile(r"#(\d+)")


def named_cards(text: str) -> set[int]:
    """Card numbers (``#17``) in ``text`` (game and log entry numbers, mentions and times
    left out)."""
    return {int(n) for n in _CARD_NUMBER.findall(_GAME_NUMBER.sub("", text))}


def message_texts(message: FakeMessage) -> list[str]:
    """A message's content, embed texts, button labels and select options."""
    texts = [message.text]
    for component in message.all_components():
        texts += [str(component.get("label") or ""), str(component.get("placeholder") or "")]
        for option in component.get("options", []) or []:
            texts += [str(option.get("label", "")), str(option.get("description") or "")]
    return texts


@dataclass
class Action:
    """One thing a person did, and how long Discord waited for it."""

    who: str
    what: str
    ack_ms: float
    done_ms: float


@dataclass
class Driver:
    """Plays the game in ``table.channel`` for its seated people (see the module docstring).

    Attributes:
        table: the guild and its members.
        bot: the running bot (replaced by `restart`-style tests via `use`).
        renderer: the recording renderer the service draws with.
        actions: every action taken, with its acknowledgement and completion times.
        kinds: the decision kinds met, and ``commands`` the command types played.
        checked_messages / checked_images: how much the privacy check looked at.
    """

    table: Table
    bot: HeroesBot
    renderer: RecordingRenderer
    actions: list[Action] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    clicks: int = 0
    slashes: int = 0
    checked_messages: int = 0
    checked_images: int = 0
    _seen: dict[int, str] = field(default_factory=dict)
    last_reply: dict[int, list[FakeMessage]] = field(default_factory=dict)

    @property
    def fake(self) -> Any:
        """The fake Discord."""
        return self.table.fake

    @property
    def channel(self) -> FakeChannel:
        """The game channel."""
        return self.table.channel

    def use(self, bot: HeroesBot) -> None:
        """Drive a new bot (after a restart)."""
        self.bot = bot

    # ------------------------------------------------------------------ reading
    async def game(self) -> Game:
        """The channel's latest game row."""
        found = await self.bot.service.repo.game_in_channel(self.channel.id)
        if found is not None:
            return found
        archive = await self.bot.service.repo.list_games(channel_id=self.channel.id, limit=1)
        return await self.bot.service.repo.get_game(archive[0].id)

    async def state(self) -> tuple[Game, Homm4State]:
        """The game row and its state."""
        game = await self.game()
        state = HOMM4.load_state(game.state_json or "")
        return game, state

    async def user_of(self, seat: int) -> FakeUser:
        """The person sitting in ``seat``."""
        game = await self.game()
        seats = {s.seat: s.user_id for s in await self.bot.service.repo.seats(game.id)}
        by_id = {u.id: u for u in (self.table.ann, self.table.bob, self.table.cara, self.table.mod)}
        return by_id[seats[seat] or 0]

    # ------------------------------------------------------------------ acting
    async def timed(
        self, who: FakeUser, what: str, send: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult:
        """Do ``send`` as ``who``, wait until the bot delivered everything, check privacy."""
        _, before = await self.state_or_none()
        started = time.perf_counter()
        result = await send()
        await self.bot.wait_idle()
        done = time.perf_counter()
        assert result.response is not None, f"{what}: no acknowledgement"
        self.actions.append(
            Action(who.name, what, 1000 * result.response.elapsed, 1000 * (done - started))
        )
        self.last_reply[who.id] = [m for m in result.messages if not m.deleted]
        _, after = await self.state_or_none()
        self.check_channel(before, after)
        return result

    async def state_or_none(self) -> tuple[Game | None, Homm4State | None]:
        """The game and state, or Nones before the game starts."""
        found = await self.bot.service.repo.game_in_channel(self.channel.id)
        if found is None:
            archive = await self.bot.service.repo.list_games(channel_id=self.channel.id, limit=1)
            if not archive:
                return None, None
            found = await self.bot.service.repo.get_game(archive[0].id)
        if found.state_json is None:
            return found, None
        return found, HOMM4.load_state(found.state_json)

    async def slash(self, who: FakeUser, name: str, **options: Any) -> InteractionResult:
        """Type ``/name`` with ``options`` in the game channel as ``who``."""
        return await self.timed(
            who, f"/{name}", lambda: self.fake.slash(who, self.channel, name, **options)
        )

    async def click(self, who: FakeUser, message: FakeMessage, custom_id: str) -> InteractionResult:
        """Click the button ``custom_id`` of ``message`` as ``who``."""
        return await self.timed(
            who, f"button {custom_id}", lambda: self.fake.click(who, message, custom_id)
        )

    async def late_click(
        self, who: FakeUser, message: FakeMessage, custom_id: str, shown: list[dict[str, Any]]
    ) -> InteractionResult:
        """A click on button ``custom_id`` of ``message`` that Discord dispatched while the
        message still had the components ``shown`` (it raced the edit that took them
        off: `bot.discord_delivery`) and that reaches the bot after that edit."""
        as_clicked = replace(message, components=shown)
        data = {"custom_id": custom_id, "component_type": MESSAGE_COMPONENT_BUTTON}

        async def send() -> InteractionResult:
            result: InteractionResult = await self.fake.send_interaction(
                MESSAGE_COMPONENT, who, message.channel, data, message=as_clicked
            )
            await result.wait_callback()
            return result

        return await self.timed(who, f"late button {custom_id}", send)

    async def select(
        self, who: FakeUser, message: FakeMessage, custom_id: str, value: str
    ) -> InteractionResult:
        """Choose ``value`` in the select menu ``custom_id`` of ``message`` as ``who``."""
        return await self.timed(
            who,
            f"select {custom_id}",
            lambda: self.fake.select(who, message, custom_id, [value]),
        )

    # ------------------------------------------------------------------ playing
    @staticmethod
    def choose(state: Homm4State, seat: int) -> tuple[int, Command]:
        """The AI helper's move for ``seat`` and its index among the legal commands."""
        legal = HOMM4.legal_commands(state, seat)
        pick = adapter.ai_choice(state, seat, AI_SEED)
        if pick in legal:
            return legal.index(pick), pick
        return 0, legal[0]

    def screens(self, who: FakeUser) -> list[FakeMessage]:
        """What ``who`` has in front of them, newest first: their last replies, their DMs
        with buttons (the decision DM is edited in place, so it may be an old message),
        the game's panel (edited in place too) and the channel's recent public messages."""
        dms = [m for m in self.fake.dms(who) if not m.deleted and m.all_components()]
        public = self.channel.public_messages()
        replies = self.last_reply.get(who.id, [])
        panels = [m for m in public if m.panel]  # the game's panel, linked from the pings
        return [*reversed(replies), *reversed(dms), *reversed(panels), *reversed(public[-6:])]

    def find_control(
        self, who: FakeUser, game: Game, state: Homm4State, index: int, command: Command
    ) -> tuple[FakeMessage, str, str | None] | None:
        """A button (or select option) offering ``command`` to ``who``: ``(message,
        custom_id, select value or None)``. A token's number counts among the commands
        its message offers (`customids.find_option`), so its hash is what is compared."""
        digest = customids.command_hash(command.model_dump_json())
        prefix = customids.encode(game.id, state.version, "opt") + ":"
        select = customids.encode(game.id, state.version, "pick")

        def means(token: str) -> bool:
            return token.partition(".")[2] == digest

        for message in self.screens(who):
            for component in message.all_components():
                custom_id = str(component.get("custom_id") or "")
                if (
                    custom_id.startswith(prefix)
                    and means(custom_id.removeprefix(prefix))
                    and not component.get("disabled")
                ):
                    return message, custom_id, None
                values = [str(o.get("value")) for o in component.get("options", []) or []]
                chosen = next((v for v in values if means(v)), None)
                if custom_id == select and chosen is not None:
                    return message, select, chosen
        return None

    async def step(self, *, prefer_slash: bool = False) -> Command:
        """Make the next move of whoever owes a decision; return the command played."""
        game, state = await self.state()
        decision = HOMM4.pending(state)[0]
        who = await self.user_of(decision.seat)
        index, command = self.choose(state, decision.seat)
        self.kinds.append(decision.kind)
        self.commands.append(command.type)
        control = None if prefer_slash else self.find_control(who, game, state, index, command)
        if control is not None:
            message, custom_id, value = control
            self.clicks += 1
            if value is None:
                result = await self.click(who, message, custom_id)
            else:
                result = await self.select(who, message, custom_id, value)
        else:
            path, options = slash_for(command)
            self.slashes += 1
            result = await self.slash(who, " ".join(path), **options)
        after, _ = await self.state()
        assert after.version > game.version, self.refusal(result, command)
        return command

    @staticmethod
    def refusal(result: InteractionResult, command: Command) -> str:
        """Why a move did not land (for assertion messages)."""
        texts = [m.content for m in result.messages]
        return f"{command!r} did not land: {texts}"

    # ------------------------------------------------------------------ privacy
    def check_channel(self, before: Homm4State | None, after: Homm4State | None) -> None:
        """No public message created or edited since the last check names a card that was
        in a Hand, Risk Stack or draw deck both before and after the action, and every
        public image was drawn from a public view and shows no such card."""
        hidden = set()
        if before is not None and after is not None:
            hidden = adapter.private_cards(before) & adapter.private_cards(after)
        elif after is not None:
            hidden = adapter.private_cards(after)
        for message in self.channel.public_messages():
            signature = f"{message.text}|{len(message.edits)}|{len(message.attachments)}"
            if self._seen.get(message.id) == signature:
                continue
            self._seen[message.id] = signature
            self.checked_messages += 1
            for text in message_texts(message):
                leaked = named_cards(text) & hidden
                assert not leaked, f"channel message names hidden cards {leaked}: {text!r}"
            self.check_images(message, hidden)

    def check_images(self, message: FakeMessage, hidden: Iterable[int]) -> None:
        """Every attachment of a public message: a public picture without hidden cards."""
        for attachment in message.attachments:
            origin = self.renderer.origin(attachment.data)
            assert origin is not None, f"{attachment.filename} was not drawn by the renderer"
            kind, view_class, instances = origin
            shown = kind.removesuffix("-focus")  # a focus picture is cut from it (issue 16)
            assert shown in ("board", "battle", "card"), f"a {kind} picture in the channel"
            assert view_class in ("PublicView", "CardFace"), f"{kind} drawn from a {view_class}"
            assert not instances & set(hidden), f"the {kind} picture shows hidden cards"
            self.checked_images += 1


async def gather_results(*sends: Awaitable[InteractionResult]) -> list[InteractionResult]:
    """Run several interactions at once (the bot handles them concurrently)."""
    return list(await asyncio.gather(*sends))
