"""Helpers for the end-to-end tests of the Discord layer: the real bot (built by
`bot.app.build_bot`) against the fake Discord, a guild with a moderator and players, and
a renderer that records what each public picture showed."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.app import build_bot
from bot.discord_bot import HeroesBot
from bot.outbox import Image
from bot.settings import Settings
from tests.fakediscord import BotRunner, FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser


@dataclass
class Table:
    """A guild with a #general channel, a moderator (Manage Server) and three players;
    ``cara``'s DMs are closed."""

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    mod: FakeUser
    ann: FakeUser
    bob: FakeUser
    cara: FakeUser

    @classmethod
    def create(cls, fake: FakeDiscord) -> Table:
        """Build the world (before any bot runs: members are announced at IDENTIFY)."""
        guild = fake.create_guild("Heroes Tavern")
        mod, ann, bob, cara = (fake.create_user(n) for n in ("morgan", "ann", "bob", "cara"))
        guild.add_member(mod, roles=[fake.create_moderator_role(guild)])
        for user in (ann, bob, cara):
            guild.add_member(user)
        fake.close_dms(cara)
        return cls(fake, guild, guild.channel_named("general"), mod, ann, bob, cara)


@dataclass
class RecordingRenderer:
    """The real drawing functions of every ruleset (`rendering.pictures`), recording for
    each image it returns the kind of picture, the class of the view it was given and the
    card instances its layout showed (`Drawing.instances`).

    ``drawn[sha256 of the bytes] = (kind, view class name, instances)``.
    """

    drawn: dict[str, tuple[str, str, frozenset[int]]] = field(default_factory=dict)

    def draw(self, ruleset: str, kind: str, view: BaseModel) -> Image:
        """`bot.render.Renderer.draw`, keeping what each picture was drawn from."""
        from rendering.encode import encode
        from rendering.pictures import picture_kind

        spec = picture_kind(ruleset, kind)
        drawing = spec.draw(spec.prepare(view))
        data = encode(drawing.image)
        instances = frozenset(drawing.instances())
        self.drawn[hashlib.sha256(data).hexdigest()] = (kind, type(view).__name__, instances)
        return Image(spec.filename, data, spec.description)

    def origin(self, data: bytes) -> tuple[str, str, frozenset[int]] | None:
        """What ``data`` was drawn from, or None if this renderer did not draw it."""
        return self.drawn.get(hashlib.sha256(data).hexdigest())

    def assert_panel_shows(self, panel: FakeMessage, ruleset: str, view: BaseModel) -> None:
        """``panel``'s pictures are those of ``view`` (the game's public view now): each
        attachment was drawn by this renderer from a public view, and is the same bytes as
        ``view`` drawn again as that kind; the whole picture comes last, its focus first
        (issue 16)."""
        from rendering.pictures import focus_of

        kinds = []
        for attachment in panel.attachments:
            origin = self.origin(attachment.data)
            assert origin is not None, f"{attachment.filename} was not drawn by the renderer"
            kind, view_class, _ = origin
            assert view_class == "PublicView", f"{attachment.filename} drawn from a {view_class}"
            again = self.draw(ruleset, kind, view)
            assert (again.filename, again.data) == (attachment.filename, attachment.data), (
                f"the panel's {attachment.filename} is not the position now"
            )
            kinds.append(kind)
        assert kinds and kinds == [focus_of(ruleset, kinds[-1]), kinds[-1]], kinds


def shown_pictures(channel: FakeChannel) -> set[str]:
    """The names of the files the public messages of ``channel`` carried in any of their
    versions: now and before each edit (`FakeMessage.edits`). The game's panel is edited
    in place (issue 16), each new picture replacing the one before it."""
    return {
        name
        for message in channel.public_messages()
        for version in (message.snapshot(), *message.edits)
        for name in version["attachments"]
    }


def game_panel(channel: FakeChannel) -> FakeMessage:
    """The one game panel in ``channel`` (a public Components V2 message, edited in place:
    issue 16), checked to show its attachments in its media gallery, in order.

    :raises AssertionError: when there is no panel or more than one, or the gallery and
        the attachments differ.
    """
    panels = [m for m in channel.public_messages() if m.panel]
    assert len(panels) == 1, f"{len(panels)} game panels in #{channel.name}"
    panel = panels[0]
    gallery = [
        item["media"]["url"]
        for component in panel.all_components()
        if component.get("type") == 12  # media gallery
        for item in component["items"]
    ]
    assert gallery == [f"attachment://{a.filename}" for a in panel.attachments], gallery
    return panel


@asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    db_path: Path,
    *,
    renderer: Any = None,
    clock: Any = None,
    reminder_interval: float = 60.0,
    dev_guild_id: int | None = None,
) -> AsyncIterator[BotRunner]:
    """Build the real bot (`bot.app.build_bot`) on ``db_path`` and run it against ``fake``.

    A second call with the same ``db_path`` is a restart: a new Bot, service and database
    connections over the same file.
    """
    settings = Settings(_env_file=None, db_path=db_path, dev_guild_id=dev_guild_id)  # type: ignore[call-arg]
    service_options: dict[str, Any] = {"renderer": renderer}
    if clock is not None:
        service_options["clock"] = clock
    bot, closers = await build_bot(
        settings,
        service_options=service_options,
        guild_ready_timeout=0.01,
        reminder_interval=reminder_interval,
    )
    try:
        async with fake.run_bot(bot) as runner:
            yield runner
    finally:
        for close in reversed(closers):
            await close()


def heroes_bot(runner: BotRunner) -> HeroesBot:
    """The runner's bot as a `HeroesBot`."""
    bot = runner.bot
    assert isinstance(bot, HeroesBot)
    return bot


def deleted_placeholders(fake: FakeDiscord) -> list[str]:
    """The interaction responses the bot deleted (a "thinking…" placeholder replaced by a
    reply of another visibility: a visible flash). Empty when every defer matched."""
    return [
        r.path
        for r in fake.requests_to("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}")
    ]


async def click_raced(
    fake: FakeDiscord, who: FakeUser, message: FakeMessage, custom_id: str, shown: list[Any]
) -> Any:
    """A click on button ``custom_id`` of ``message`` that Discord dispatched while the
    message still had the components ``shown`` and that reaches the bot after the edit
    that took them off (a client that had not redrawn the message yet).

    :returns: the `InteractionResult`, its callback awaited.
    """
    from dataclasses import replace

    from tests.fakediscord.interactions import MESSAGE_COMPONENT

    as_clicked = replace(message, components=shown)
    data = {"custom_id": custom_id, "component_type": 2}
    result = await fake.send_interaction(
        MESSAGE_COMPONENT, who, message.channel, data, message=as_clicked
    )
    await result.wait_callback()
    return result
