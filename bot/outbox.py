"""What the GameService asks its deliverer to send: the contract between the service and
Discord (bot/discord_*.py) or the local console (bot/local.py).

The service never imports discord.py. It returns an `Outbox` per handled action; the
deliverer turns each item into Discord calls (or terminal output and files). Privacy is
decided here by type, not by care at each call site:

* `ChannelPost` goes to a guild channel or thread that everyone reads. Its text and images
  must be built only from public views and public event lines.
* `DirectMessage` goes to one user by DM (with the ephemeral fallback when DMs are closed).
* `Reply` answers the interaction that caused the action; ``ephemeral=True`` for anything
  private or any refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Image:
    """An image attachment: ``filename`` (``board.png``) and its encoded bytes."""

    filename: str
    data: bytes
    description: str = ""


@dataclass(frozen=True)
class Button:
    """A button; ``custom_id`` carries the game, the state version and the action."""

    label: str
    custom_id: str
    style: ButtonStyle = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class SelectOption:
    """One choice of a select menu (label ≤ 100 chars, value ≤ 100 chars)."""

    label: str
    value: str
    description: str = ""


@dataclass(frozen=True)
class Select:
    """A select menu (at most 25 options)."""

    custom_id: str
    placeholder: str
    options: tuple[SelectOption, ...]
    min_values: int = 1
    max_values: int = 1


Component = Button | Select


@dataclass(frozen=True)
class Embed:
    """A titled block of text under a message (Discord shows it as an embed; the console
    prints it). ``title`` ≤ 256 characters, ``description`` ≤ 4096, ``footer`` ≤ 2048."""

    title: str
    description: str
    footer: str = ""


@dataclass(frozen=True)
class ChannelPost:
    """A public message in the game's channel.

    ``mention_user_ids`` are pinged (the player whose turn it is); ``mention_role_ids``
    are roles pinged (the moderators' role when a deadline passes). ``key`` names a
    message the deliverer may edit instead of posting anew (e.g. ``"status"``); None posts.
    """

    channel_id: int
    text: str
    images: tuple[Image, ...] = ()
    components: tuple[Component, ...] = ()
    mention_user_ids: tuple[int, ...] = ()
    key: str | None = None
    mention_role_ids: tuple[int, ...] = ()


@dataclass(frozen=True)
class DirectMessage:
    """A private message to one user about one game.

    ``slot`` groups DMs that replace each other: the deliverer edits the previous DM of the
    same (user, game, slot) instead of sending a new one (``"hand"``, ``"decision"``);
    ``"notice"`` always sends. ``notify`` marks news the user should be pinged about (a
    new decision): an edit notifies nobody, so the deliverer deletes the slot's previous
    DM and sends this one anew. ``fallback_channel_id`` is the game's channel, where the
    deliverer says — without any private detail — that the DM could not be delivered.
    """

    user_id: int
    game_id: int
    slot: Literal["hand", "decision", "notice"]
    text: str
    images: tuple[Image, ...] = ()
    components: tuple[Component, ...] = ()
    fallback_channel_id: int | None = None
    notify: bool = False


@dataclass(frozen=True)
class Reply:
    """The answer to the interaction (or console line) that caused the action.

    ``embeds`` (at most 10) go with the last piece of the text; the text may then be empty.
    """

    text: str
    ephemeral: bool = True
    images: tuple[Image, ...] = ()
    components: tuple[Component, ...] = ()
    embeds: tuple[Embed, ...] = ()


@dataclass
class Outbox:
    """Everything one action produced, in delivery order: reply, channel posts, then DMs."""

    reply: Reply | None = None
    posts: list[ChannelPost] = field(default_factory=list)
    dms: list[DirectMessage] = field(default_factory=list)

    def extend(self, other: Outbox) -> None:
        """Append ``other``'s posts and DMs (and take its reply if this has none)."""
        if self.reply is None:
            self.reply = other.reply
        self.posts.extend(other.posts)
        self.dms.extend(other.dms)
