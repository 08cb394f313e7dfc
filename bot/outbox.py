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

from dataclasses import dataclass, field, replace
from typing import Literal

from pydantic import ConfigDict, TypeAdapter

from storage.records import PostSettle

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Receipt:
    """Which commits a message is news of: game ``game_id``'s commits that left versions
    ``after_version + 1 .. version`` (storage keeps a row per commit until the news is
    confirmed delivered: `Repository.news_delivered`). Every channel post and DM of one
    batch's news carries the same receipt; the deliverer confirms it once the last of them
    was handed to Discord, so a bot killed before that delivers them again at start-up.

    ``again``: this is such a second delivery (some messages may have gone out already:
    posts are then edited in place, found by their key).
    """

    game_id: int
    after_version: int
    version: int
    again: bool = False

    @property
    def scope(self) -> str:
        """Where the ids of this news's channel posts are remembered (storage schema 8
        drops them with the receipt's rows)."""
        return f"news:{self.game_id}:{self.version}"


@dataclass(frozen=True)
class Image:
    """An image attachment: ``filename`` (``board.png``) and its encoded bytes."""

    filename: str
    data: bytes
    description: str = ""

    # as JSON (a DM kept while the user's DMs are closed), the bytes go in base64
    __pydantic_config__ = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")


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


PANEL_SCOPE = "panel:{game_id}"
"""The `bot.discord_refs` scope (with `PANEL_KEY`) of a game's status panel message."""

PANEL_KEY = "panel"

PASSING_SCOPE = "passing:{game_id}:{version}"
"""The `bot.discord_refs` scope of a game's posts whose buttons hold at one version only
(`ChannelPost.passing`): keys ``{kind}:{n}``, n = 0, 1... in the order they were sent."""

PASSING_KINDS = ("vote", "undo")

PANEL_TEXT_LIMIT = 3800
"""The most characters of text a panel carries (Discord allows 4000 in the text displays
of one Components V2 message; the rest is kept for the deliverer's own words)."""


@dataclass(frozen=True)
class ChannelPost:
    """A public message in the game's channel.

    ``mention_user_ids`` are pinged (the player whose turn it is); ``mention_role_ids``
    are roles pinged (the moderators' role when a deadline passes). ``key`` names a
    message the deliverer may edit instead of posting anew (e.g. ``"status"``); None posts.
    ``receipt``: the commits this post is news of (`Receipt`; its key is then remembered
    in the receipt's scope until the news is confirmed).
    ``decision_of``: the id of the game whose position this post shows now (the post
    naming who owes what, with the buttons of the decision at hand, if any): the position
    has moved past every earlier such post of the game, so the deliverer takes the
    buttons and selects off the previous one (its text and picture stay). A post with
    nothing to show (no text, picture or component) is not sent; it only does that.
    ``edit_only`` (with a ``key``): the post only edits the message remembered under its
    key (e.g. the lobby post closed at the start, its buttons gone); when there is none,
    or it is gone, nothing is sent.
    ``panel_of``: the id of the game whose status panel this post is (`PANEL_SCOPE`): one
    Components V2 message per game — the text as text displays (``text`` ≤
    `PANEL_TEXT_LIMIT` characters), the images in a media gallery, the components in
    action rows — edited in place by every later panel post of the game (sent anew, and
    remembered, when it was deleted); it pings nobody (Discord's push shows no text of
    such a message), so the plain post after it does.
    ``panel_link``: the id of a game whose panel this (plain) post links to: the deliverer
    ends its text with the panel's jump link (``guild_id`` is the link's guild).
    ``log_of``: the id of the game whose moves and dice this (plain) post tells: one that
    pings nobody and has no picture or component is added to the end of the game's
    previous log message (an edit) while that one is the last the bot sent in the channel
    and both fit in one message, so a player's run of moves fills one message.
    ``passing``: ``(game id, version, kind)`` of a post whose buttons hold only while the
    game stays at that version (``"vote"``: a vote to skip, ``"undo"``: an undo request):
    the deliverer remembers it (`PASSING_SCOPE`) and takes its buttons off once the game
    moves past that version (its next decision post) or at a ``retire`` post.
    ``retire``: ``(game id, version, kind)``: take the buttons off the game's ``passing``
    posts of that kind made at that version (an undo request refused or withdrawn).
    ``thread_stage``: where the game stands (``"running"``, ``"finished"``): in a game
    whose channel is a forum post, the deliverer gives the post the forum's tag of that
    name in place of another stage's (`bot.discord_threads.set_stage`; none when the
    forum has no such tag).
    """

    channel_id: int
    text: str
    images: tuple[Image, ...] = ()
    components: tuple[Component, ...] = ()
    mention_user_ids: tuple[int, ...] = ()
    key: str | None = None
    mention_role_ids: tuple[int, ...] = ()
    receipt: Receipt | None = None
    decision_of: int | None = None
    edit_only: bool = False
    panel_of: int | None = None
    panel_link: int | None = None
    guild_id: int | None = None
    log_of: int | None = None
    passing: tuple[int, int, str] | None = None
    retire: tuple[int, int, str] | None = None
    thread_stage: str | None = None

    @property
    def empty(self) -> bool:
        """Whether the post has nothing to show (a `decision_of` post that only retires
        the previous post's buttons)."""
        return not self.text and not self.images and not self.components


@dataclass(frozen=True)
class DirectMessage:
    """A private message to one user about one game.

    ``slot`` groups DMs that replace each other: the deliverer edits the previous DM of the
    same (user, game, slot) instead of sending a new one (``"hand"``, ``"decision"``,
    ``"digest"``: what happened since the seat last acted, `bot.digest`);
    ``"notice"`` always sends. ``notify`` marks news the user should be pinged about (a
    new decision): an edit notifies nobody, so the deliverer deletes the slot's previous
    DM and sends this one anew. ``fallback_channel_id`` is the game's channel, where the
    deliverer says — without any private detail — that the DM could not be delivered.
    ``receipt``: the commits this DM is news of (`Receipt`).
    """

    user_id: int
    game_id: int
    slot: Literal["hand", "decision", "digest", "notice"]
    text: str
    images: tuple[Image, ...] = ()
    components: tuple[Component, ...] = ()
    fallback_channel_id: int | None = None
    notify: bool = False
    receipt: Receipt | None = None


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
    """Everything one action produced, in delivery order: reply, channel posts, then DMs.

    ``settles``: held deadlines whose posts these are (a reminder, a passed deadline's
    notice: `bot.deadlines`); the reminder loop confirms them once the outbox was
    delivered (`Repository.settle_deadline_posts`), else they are posted again.
    """

    reply: Reply | None = None
    posts: list[ChannelPost] = field(default_factory=list)
    dms: list[DirectMessage] = field(default_factory=list)
    settles: list[PostSettle] = field(default_factory=list)

    def extend(self, other: Outbox) -> None:
        """Append ``other``'s posts, DMs and settles (and take its reply if this has none)."""
        if self.reply is None:
            self.reply = other.reply
        self.posts.extend(other.posts)
        self.dms.extend(other.dms)
        self.settles.extend(other.settles)


def stamped(outbox: Outbox, receipt: Receipt) -> Outbox:
    """``outbox`` with every channel post and DM carrying ``receipt`` (the news of its
    commits), each post keyed by its place (``"0"``, ``"1"``...; a key it had is kept) so a
    second delivery edits it in place. The reply is left as it is."""
    return Outbox(
        reply=outbox.reply,
        posts=[
            replace(post, receipt=receipt, key=post.key if post.key is not None else str(index))
            for index, post in enumerate(outbox.posts)
        ],
        dms=[replace(dm, receipt=receipt) for dm in outbox.dms],
    )


_DM_JSON: TypeAdapter[DirectMessage] | None = None


def _dm_json() -> TypeAdapter[DirectMessage]:
    global _DM_JSON
    if _DM_JSON is None:
        _DM_JSON = TypeAdapter(DirectMessage)
    return _DM_JSON


def dump_direct_message(dm: DirectMessage) -> str:
    """``dm`` as JSON text (pictures in base64, no receipt), for storage to keep while the
    user's DMs are closed (`Repository.hold_direct_message`); `load_direct_message` reads it."""
    return _dm_json().dump_json(replace(dm, receipt=None)).decode()


def load_direct_message(text: str) -> DirectMessage:
    """The `DirectMessage` that `dump_direct_message` wrote.

    :raises pydantic.ValidationError: for text it did not write.
    """
    return _dm_json().validate_json(text)
