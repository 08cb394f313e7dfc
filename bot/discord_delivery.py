"""Outbox → Discord: send what the GameService asked for, through discord.py.

One `Deliverer` per bot. For each handled action it sends, in order:

1. the `Reply` as the interaction's response — or, after a defer, as its followup (the
   first followup after a "thinking…" defer edits that message and keeps its ephemeral
   flag, so a reply whose visibility differs replaces the placeholder instead);
2. each `ChannelPost` in its channel (``key``: edit the message last posted under that
   key, remembered durably in a `MessageRefStore`; ``edit_only``: never send anew),
   pinging only the named users; the
   post showing a game's position now (``decision_of``) takes the buttons and selects
   off the game's previous one (one edit, only when that one had any), so the channel
   holds no live button of a past position (a click still in flight gets the service's
   stale reply);
3. each `DirectMessage` by DM (slots ``hand``/``decision`` edit the previous DM of that
   slot — unless ``notify``: then the previous one is deleted and the DM sent anew, since
   an edit pings nobody; ``notice`` always sends). A user whose DMs are closed (403, code 50007) is told
   in the game channel — by mention, without any private detail — to use ``/hand`` there
   (the service records it and words the notice: `DmReachability`), and what could not
   be delivered is kept in the database (`DmReachability.hold`, so it survives a restart)
   and shown as an ephemeral followup the next time the user interacts.

News of commits is delivered at least once, and a second delivery is harmless: every post
and DM of a batch's news carries its `Receipt`; once the last of them was handed to
Discord, the receipt is confirmed (`DmReachability.news_delivered`, one write) and storage
forgets that news was owed. A bot killed before that delivers the news again at start-up
(`GameService.redeliver`): its channel posts are keyed in the receipt's scope, their
message ids remembered as they go out, so a post that went out the first time is edited
in place instead of posted twice; DMs edit their slot's message as always.

Nothing here decides game matters, and nothing private is ever logged: logs carry ids,
kinds and Discord error codes only.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

import discord

from bot.discord_components import build_panel as build_panel_view
from bot.discord_refs import MessageRef, MessageRefStore
from bot.discord_threads import set_stage
from bot.outbox import (
    PANEL_KEY,
    PANEL_SCOPE,
    PASSING_KINDS,
    PASSING_SCOPE,
    ChannelPost,
    Component,
    DirectMessage,
    Embed,
    Image,
    Outbox,
    Receipt,
    Reply,
    dump_direct_message,
    load_direct_message,
)

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
"""Discord's limit on message content, in characters."""

FILES_PER_MESSAGE = 10
"""Discord's limit on attachments per message."""

EMBEDS_PER_MESSAGE = 10
"""Discord's limit on embeds per message."""

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user"."""

HELD_USERS_FOR = 60.0
"""Seconds the deliverer trusts its list of users with kept DMs before asking storage again
(another bot process may have kept some since: docs/DEPLOY.md)."""

GameVersion = Callable[[int, int], Awaitable[int | None]]
"""``await game_version(game_id, channel_id)``: the version the game is at in storage now."""

DECISION_SCOPE = "decision:{game_id}"
"""The `MessageRefStore` scope (with `DECISION_KEY`) of a game's channel post that shows
its position now with components (`ChannelPost.decision_of`): the one whose buttons the
next such post takes off. Nothing is remembered while that post has no components."""

DECISION_KEY = "channel"

DeferKind = Literal["ephemeral", "public", "update"]
_DEFER_KEY = "heroes_defer"
_ORIGINAL_USED_KEY = "heroes_original_used"

ViewBuilder = Callable[[Sequence[Component]], discord.ui.View | None]
PanelBuilder = Callable[[str, Sequence[Image], Sequence[Component]], discord.ui.LayoutView]

JUMP_URL = "https://discord.com/channels/{guild}/{channel_id}/{message_id}"
"""A message's jump link (``guild``: the guild's id, ``@me`` outside a guild)."""


class DmReachability(Protocol):
    """Where the deliverer reports whether a user's DMs can be delivered (durably)."""

    async def dm_failed(self, user_id: int, game_id: int) -> Outbox:
        """Record that DMs to ``user_id`` fail; return the public notice to post (if news)."""
        ...

    async def dm_delivered(self, user_id: int, game_id: int) -> None:
        """Record that a DM to ``user_id`` was delivered."""
        ...

    async def holds_seat(self, user_id: int, game_id: int) -> bool:
        """Whether ``user_id`` still plays a seat of game ``game_id`` (a DM kept for them
        is shown only then: a kicked or replaced player never sees their old hand)."""
        ...

    async def news_delivered(self, receipt: Receipt) -> None:
        """Confirm that every message of ``receipt``'s news was handed to Discord."""
        ...

    async def hold(self, user_id: int, game_id: int, slot: str, message: str) -> None:
        """Keep a DM (serialised: `bot.outbox.dump_direct_message`) that could not reach
        ``user_id`` until their next interaction, durably."""
        ...

    async def take_held(self, user_id: int) -> list[str]:
        """Remove and return the DMs kept for ``user_id``, oldest first (serialised)."""
        ...

    async def held(self, user_id: int) -> list[str]:
        """The DMs kept for ``user_id``, oldest first (serialised; left in place)."""
        ...

    async def drop_held(self, user_id: int, game_id: int, slot: str) -> None:
        """Forget the DM kept for ``(user_id, game_id, slot)``: a newer one got through."""
        ...

    async def holding(self) -> set[int]:
        """The users who have DMs kept for them (asked once, at the first need)."""
        ...


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters, preferring line breaks.

    :returns: at least one piece (``[""]`` for an empty text).
    """
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    pieces.append(rest)
    return pieces


def make_files(images: Sequence[Image]) -> list[discord.File]:
    """Fresh `discord.File` objects for ``images`` (a File can be sent only once)."""
    return [
        discord.File(io.BytesIO(image.data), image.filename, description=image.description or None)
        for image in images[:FILES_PER_MESSAGE]
    ]


def make_embeds(embeds: Sequence[Embed]) -> list[discord.Embed]:
    """`discord.Embed` objects for ``embeds`` (clipped to Discord's limits: 10 embeds,
    title 256, description 4096, footer 2048 characters)."""
    made = []
    for embed in embeds[:EMBEDS_PER_MESSAGE]:
        item = discord.Embed(title=embed.title[:256], description=embed.description[:4096])
        if embed.footer:
            item.set_footer(text=embed.footer[:2048])
        made.append(item)
    return made


def with_mentions(text: str, user_ids: Sequence[int], role_ids: Sequence[int] = ()) -> str:
    """Return ``text`` with a leading mention for every user or role it does not mention."""
    wanted = [(f"<@{uid}>", f"<@!{uid}>") for uid in user_ids]
    wanted += [(f"<@&{rid}>", f"<@&{rid}>") for rid in role_ids]
    missing = [plain for plain, nick in wanted if plain not in text and nick not in text]
    return " ".join([*missing, text]).strip() if missing else text


def only_mentions(user_ids: Sequence[int], role_ids: Sequence[int] = ()) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly ``user_ids`` and ``role_ids`` (never everyone,
    other roles or a replied-to author)."""
    return discord.AllowedMentions(
        everyone=False,
        roles=[discord.Object(rid) for rid in role_ids] if role_ids else False,
        users=[discord.Object(uid) for uid in user_ids] if user_ids else False,
        replied_user=False,
    )


NO_MENTIONS = discord.AllowedMentions.none()


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Acknowledge ``interaction`` now so the work after it may take longer than 3 s.

    Slash commands get a "thinking…" placeholder (``ephemeral`` or public) that the reply
    then fills; button and select clicks get a silent deferred update (the reply comes as
    a followup). Does nothing if the interaction is already acknowledged.
    """
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
        interaction.extras[_DEFER_KEY] = "update"
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras[_DEFER_KEY] = "ephemeral" if ephemeral else "public"


def deferred_as(interaction: discord.Interaction) -> DeferKind | None:
    """How ``interaction`` was deferred by `defer`, or None if it was not."""
    kind: DeferKind | None = interaction.extras.get(_DEFER_KEY)
    return kind


async def send_to_interaction(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    images: Sequence[Image] = (),
    view: discord.ui.View | None = None,
    embeds: Sequence[Embed] = (),
) -> None:
    """Answer ``interaction`` with ``text`` (split at 2000 characters), whatever its state.

    Not yet acknowledged: the response itself. Deferred with a placeholder: the
    placeholder is filled when its visibility matches ``ephemeral``, else deleted and
    replaced by a followup of the right visibility. Otherwise: a followup.
    Images, embeds and the view go with the last piece.

    :raises discord.HTTPException: when Discord refuses the message.
    """
    pieces = split_text(text or ("" if images or view or embeds else "Done."))
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        await _send_piece(
            interaction,
            piece,
            ephemeral=ephemeral,
            files=make_files(images) if last else [],
            view=view if last else None,
            embeds=make_embeds(embeds) if last else [],
        )


async def _send_piece(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File],
    view: discord.ui.View | None,
    embeds: list[discord.Embed],
) -> None:
    if not interaction.response.is_done():
        await _respond(
            interaction, text, ephemeral=ephemeral, files=files, view=view, embeds=embeds
        )
        interaction.extras[_ORIGINAL_USED_KEY] = True
        return
    kind = deferred_as(interaction)
    placeholder = kind in ("ephemeral", "public") and not interaction.extras.get(_ORIGINAL_USED_KEY)
    if placeholder and (kind == "ephemeral") != ephemeral:
        log.debug(
            "%s: the reply's visibility differs from the defer's; the placeholder is replaced",
            interaction.command.qualified_name if interaction.command else "an interaction",
        )
        await interaction.delete_original_response()
        interaction.extras[_ORIGINAL_USED_KEY] = True
    elif placeholder:
        interaction.extras[_ORIGINAL_USED_KEY] = True
    await _follow_up(interaction, text, ephemeral=ephemeral, files=files, view=view, embeds=embeds)


async def _respond(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File],
    view: discord.ui.View | None,
    embeds: list[discord.Embed],
) -> None:
    """The interaction's first response (discord.py's overloads want ``view`` present
    or absent, never None)."""
    if view is None:
        await interaction.response.send_message(
            text, ephemeral=ephemeral, files=files, embeds=embeds, allowed_mentions=NO_MENTIONS
        )
    else:
        await interaction.response.send_message(
            text,
            ephemeral=ephemeral,
            files=files,
            embeds=embeds,
            allowed_mentions=NO_MENTIONS,
            view=view,
        )


async def _follow_up(
    interaction: discord.Interaction,
    text: str,
    *,
    ephemeral: bool,
    files: list[discord.File],
    view: discord.ui.View | None,
    embeds: list[discord.Embed],
) -> None:
    """A followup message (the first one after a "thinking…" defer fills the placeholder)."""
    if view is None:
        await interaction.followup.send(
            text, ephemeral=ephemeral, files=files, embeds=embeds, allowed_mentions=NO_MENTIONS
        )
    else:
        await interaction.followup.send(
            text,
            ephemeral=ephemeral,
            files=files,
            embeds=embeds,
            allowed_mentions=NO_MENTIONS,
            view=view,
        )


async def send_message(
    channel: discord.abc.Messageable,
    text: str | None,
    *,
    files: list[discord.File],
    view: discord.ui.View | None,
    mentions: discord.AllowedMentions,
) -> discord.Message:
    """Send a message to a channel or DM channel (``view`` only when there is one)."""
    if view is None:
        return await channel.send(text, files=files, allowed_mentions=mentions)
    return await channel.send(text, files=files, allowed_mentions=mentions, view=view)


async def finish_interaction(interaction: discord.Interaction) -> None:
    """Make sure a deferred slash command does not stay "thinking…" forever."""
    kind = deferred_as(interaction)
    if kind in ("ephemeral", "public") and not interaction.extras.get(_ORIGINAL_USED_KEY):
        await send_to_interaction(interaction, "Done.", ephemeral=kind == "ephemeral")


@dataclass
class DeliveryReport:
    """What a delivery could not do (ids only: nothing private).

    Attributes:
        failed_posts: channel ids where a post was refused (missing permissions...).
        closed_dms: user ids whose DMs were closed.
    """

    failed_posts: list[int] = field(default_factory=list)
    closed_dms: list[int] = field(default_factory=list)


class Deliverer:
    """Turns `Outbox` items into Discord messages (see the module docstring).

    Args:
        client: the logged-in bot.
        refs: where the ids of editable messages are remembered.
        reachability: where closed DMs are recorded.
        build_view: turns the service's components into a discord.py View.
        build_panel: turns a panel post's text, images and components into a Components
            V2 layout (`bot.discord_components.build_panel`).
        game_version: the version a game is at now in storage (``(game id, its channel
            id)``; None when unknown): with several bot processes, a post showing a
            position another process has already moved past goes without its buttons and
            leaves the newer post's alone (`_show_decision`). None: this process's own
            deliveries are compared only.
        clock: monotonic seconds (the refresh of `HELD_USERS_FOR`; tests pass their own).
        shared: other bot processes deliver to the same channels (a sharded bot:
            docs/DEPLOY.md), so what this process last sent or showed may be out of date:
            a log line is not appended to the game's last log message (another process
            may have posted after it), and a panel edit without pictures reads the
            panel's current ones (another may have changed them) instead of remembering.
    """

    def __init__(
        self,
        client: discord.Client,
        refs: MessageRefStore,
        reachability: DmReachability,
        build_view: ViewBuilder,
        build_panel: PanelBuilder = build_panel_view,
        *,
        game_version: GameVersion | None = None,
        clock: Callable[[], float] = time.monotonic,
        shared: bool = False,
    ) -> None:
        self.client = client
        self.refs = refs
        self.reachability = reachability
        self.build_view = build_view
        self.build_panel = build_panel
        self.game_version = game_version
        self.shared = shared
        self._clock = clock
        self._holding: set[int] | None = None
        self._holding_at = 0.0
        self._decision_locks: dict[int, asyncio.Lock] = {}
        self._last_sent: dict[int, int] = {}  # channel id -> the last message sent there
        self._logs: dict[int, tuple[MessageRef, str]] = {}  # game id -> its last log message
        self._panel_pictures: dict[int, tuple[Image, ...]] = {}  # game id -> shown (no bytes)
        self._decision_versions: dict[int, int] = {}

    # -------------------------------------------------------------- entry point
    async def deliver(
        self, outbox: Outbox, interaction: discord.Interaction | None = None
    ) -> DeliveryReport:
        """Send everything in ``outbox``; ``interaction`` (if any) receives the reply.

        A refused post or DM does not stop the rest, and neither does a refused reply (the
        posts and DMs are news the others are owed). With an interaction, DMs that could
        not reach its user (now or earlier) follow as ephemeral messages. Each `Receipt`
        is confirmed after the last item carrying it was handed to Discord (whatever
        Discord answered: a refused post is reported, not retried).

        :raises discord.HTTPException: when the reply itself was refused (after the rest
            was delivered).
        """
        report = DeliveryReport()
        refused: discord.HTTPException | None = None
        if interaction is not None and outbox.reply is not None:
            try:
                await self.reply(interaction, outbox.reply)
            except discord.HTTPException as error:
                refused = error
        last = _last_items(outbox)
        for index, post in enumerate(outbox.posts):
            await self._post_safely(post, report)
            await self._confirm(last.get(index, ()))
        for index, dm in enumerate(outbox.dms, start=len(outbox.posts)):
            await self._dm_safely(dm, report)
            await self._confirm(last.get(index, ()))
        if refused is not None:
            raise refused
        if interaction is not None:
            await self._after_interaction(interaction, report)
        elif outbox.reply is not None:
            log.debug("A reply without an interaction was dropped")
        return report

    async def _confirm(self, receipts: Sequence[Receipt]) -> None:
        for receipt in receipts:
            await self.reachability.news_delivered(receipt)

    async def reply(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Send ``reply`` as the answer to ``interaction``.

        :raises discord.HTTPException: when Discord refuses it.
        """
        view = self.build_view(reply.components)
        await send_to_interaction(
            interaction,
            reply.text,
            ephemeral=reply.ephemeral,
            images=reply.images,
            view=view,
            embeds=reply.embeds,
        )

    async def _after_interaction(
        self, interaction: discord.Interaction, report: DeliveryReport
    ) -> None:
        await finish_interaction(interaction)
        if report.failed_posts:
            await self._warn_failed_posts(interaction, report.failed_posts)
        await self.flush_undelivered(interaction)

    async def _warn_failed_posts(
        self, interaction: discord.Interaction, channel_ids: list[int]
    ) -> None:
        channels = ", ".join(f"<#{cid}>" for cid in dict.fromkeys(channel_ids))
        text = (
            f"I could not post in {channels}: I need View Channel, Send Messages, Attach "
            "Files and Embed Links there. Ask a moderator to check my permissions."
        )
        try:
            await send_to_interaction(interaction, text, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("Could not warn about a refused post (code %s)", error.code)

    # ------------------------------------------------------------ channel posts
    async def _post_safely(self, post: ChannelPost, report: DeliveryReport) -> None:
        try:
            await self.post(post)
        except discord.HTTPException as error:
            log.warning(
                "Post to channel %s refused: HTTP %s code %s",
                post.channel_id,
                error.status,
                error.code,
            )
            report.failed_posts.append(post.channel_id)

    async def post(self, post: ChannelPost) -> discord.Message | discord.PartialMessage | None:
        """Send ``post`` to its channel, or edit the message remembered under its key; a
        post showing its game's position now (``decision_of``) also takes the buttons off
        the previous one (`_show_decision`).

        :returns: the (last) message sent or edited; None for an empty ``decision_of``
            post, or an ``edit_only`` one with no message to edit (nothing is sent).
        :raises discord.HTTPException: when Discord refuses it.
        """
        if post.retire is not None:
            await self._retire_passing(*post.retire)
        if post.thread_stage is not None:
            thread = self.client.get_channel(post.channel_id)
            if isinstance(thread, discord.Thread):
                await set_stage(thread, post.thread_stage)
        if post.edit_only:
            return await self._edit_only(post)
        if post.decision_of is None:
            message = await self._send_post(post)
            if post.passing is not None and post.components:
                await self._remember_passing(post.passing, message)
            return message
        lock = self._decision_locks.setdefault(post.decision_of, asyncio.Lock())
        async with lock:
            return await self._show_decision(post, post.decision_of)

    async def _show_decision(
        self, post: ChannelPost, game_id: int
    ) -> discord.Message | discord.PartialMessage | None:
        """Send ``post`` (game ``game_id``'s position now) and take the components off the
        game's previous such post, remembered in `DECISION_SCOPE` — only when that one had
        components (no call otherwise), and only once: a post is remembered there only
        while it has any. A post of an older version than one already shown in this
        process (two deliveries of one game at once) goes without its components and
        leaves the remembered one alone; so does one of a version storage has moved past
        (`game_version`: another bot process moved the game, checked before sending and,
        should it move while this is sent, again before touching the remembered post,
        which may then be that process's newer one). Cost: one read of the remembered
        post, two of the game's version, at most one edit (of the previous post) and one
        write. A previous post that cannot be edited keeps its buttons (a click on them
        gets the stale reply); that is logged."""
        version = post.receipt.version if post.receipt is not None else None
        shown = self._decision_versions.get(game_id)
        if version is not None and (
            (shown is not None and version < shown)
            or await self._moved_past(game_id, post.channel_id, version)
        ):
            if post.panel_of is not None:  # the panel already shows a later position
                return None
            past = replace(post, components=(), decision_of=None)
            return None if past.empty else await self._send_post(past)
        message = None if post.empty else await self._send_post(post)
        if version is not None:
            self._decision_versions[game_id] = version
        receipt = post.receipt
        if receipt is not None and receipt.version > receipt.after_version >= 0:
            for kind in PASSING_KINDS:  # they held at the version the game left
                await self._retire_passing(game_id, receipt.after_version, kind)
        scope = DECISION_SCOPE.format(game_id=game_id)
        previous = await self.refs.get(scope, DECISION_KEY)
        if (
            previous is not None
            and (message is None or previous.message_id != message.id)
            and version is not None
            and await self._moved_past(game_id, post.channel_id, version)
        ):
            # Another process moved the game on while this was sent: the remembered post
            # may be its newer one, whose buttons stay; this one's go (they are past).
            if message is not None and post.components:
                await self._take_components_off(MessageRef(post.channel_id, message.id))
            return message
        if previous is not None and (message is None or previous.message_id != message.id):
            await self._take_components_off(previous)
        if message is not None and post.components:
            if previous is None or previous.message_id != message.id:
                await self.refs.put(scope, DECISION_KEY, MessageRef(post.channel_id, message.id))
        elif previous is not None:
            await self.refs.forget(scope, DECISION_KEY)
        return message

    async def _remember_passing(
        self, passing: tuple[int, int, str], message: discord.Message | discord.PartialMessage
    ) -> None:
        """Remember ``message`` (a post whose buttons hold at one version) as the next of
        its kind in `PASSING_SCOPE` (one read per one already there, one write)."""
        game_id, version, kind = passing
        scope = PASSING_SCOPE.format(game_id=game_id, version=version)
        number = 0
        while await self.refs.get(scope, f"{kind}:{number}") is not None:
            number += 1
        await self.refs.put(scope, f"{kind}:{number}", MessageRef(message.channel.id, message.id))

    async def _retire_passing(self, game_id: int, version: int, kind: str) -> None:
        """Take the buttons off game ``game_id``'s posts of ``kind`` remembered at
        ``version`` (`_remember_passing`) and forget them: one read when there is none,
        else a read, an edit and a delete per post (and the read that finds the end)."""
        scope = PASSING_SCOPE.format(game_id=game_id, version=version)
        number = 0
        while (ref := await self.refs.get(scope, f"{kind}:{number}")) is not None:
            await self._take_components_off(ref)
            await self.refs.forget(scope, f"{kind}:{number}")
            number += 1

    async def _take_components_off(self, ref: MessageRef) -> None:
        """Edit the remembered message to have no buttons or selects (text, embeds and
        attachments unchanged: one PATCH with ``components: []``). A message gone or not
        editable is left as it is (logged by id and code)."""
        partial = self.client.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        try:
            await partial.edit(view=None)
        except discord.HTTPException as error:
            log.info(
                "Could not take the buttons off message %s: HTTP %s code %s",
                ref.message_id,
                error.status,
                error.code,
            )

    async def _edit_only(
        self, post: ChannelPost
    ) -> discord.Message | discord.PartialMessage | None:
        """Edit the message remembered under ``post.key`` in ``post:{channel_id}`` to
        ``post`` (one read, at most one PATCH; a text longer than one message keeps its
        first message's worth); None, sending nothing, when no message is remembered
        there or it is gone.

        :raises discord.HTTPException: when Discord refuses the edit.
        """
        if post.key is None:
            return None
        ref = await self.refs.get(f"post:{post.channel_id}", post.key)
        if ref is None:
            return None
        mentions = only_mentions(post.mention_user_ids, post.mention_role_ids)
        text = with_mentions(post.text, post.mention_user_ids, post.mention_role_ids)
        view = self.build_view(post.components)
        return await self._edit(ref, split_text(text)[0], post.images, view, mentions)

    async def _send_panel(self, post: ChannelPost) -> discord.Message | discord.PartialMessage:
        """Edit game ``post.panel_of``'s status panel (remembered in `PANEL_SCOPE`) to
        ``post``, or send it (and remember it) when there is none or it was deleted (a
        moderator's cleaning): one read and one PATCH, or a POST and a write. A panel
        post without pictures keeps the panel's current ones (their names are learnt from
        the edits, or by one GET after a restart). Pings nobody.

        :raises discord.HTTPException: when Discord refuses it.
        """
        game_id = post.panel_of
        assert game_id is not None
        scope = PANEL_SCOPE.format(game_id=game_id)
        ref = await self.refs.get(scope, PANEL_KEY)
        if ref is not None:
            partial = self.client.get_partial_messageable(ref.channel_id).get_partial_message(
                ref.message_id
            )
            try:
                if post.images:
                    view = self.build_panel(post.text, post.images, post.components)
                    edited = await partial.edit(
                        view=view, attachments=make_files(post.images), allowed_mentions=NO_MENTIONS
                    )
                else:  # the picture stays: its attachments are kept as they are
                    kept = None if self.shared else self._panel_pictures.get(game_id)
                    if kept is None:
                        kept = _pictures_of(await partial.fetch())
                    view = self.build_panel(post.text, kept, post.components)
                    edited = await partial.edit(view=view, allowed_mentions=NO_MENTIONS)
                self._panel_pictures[game_id] = _pictures_of(edited)
                return edited
            except discord.NotFound:
                log.info("The panel of game %s is gone: it is sent anew", game_id)
        view = self.build_panel(post.text, post.images, post.components)
        channel = self.client.get_partial_messageable(post.channel_id)
        message = await channel.send(
            view=view, files=make_files(post.images), allowed_mentions=NO_MENTIONS
        )
        self._last_sent[post.channel_id] = message.id
        self._panel_pictures[game_id] = _pictures_of(message)
        await self.refs.put(scope, PANEL_KEY, MessageRef(post.channel_id, message.id))
        return message

    async def _panel_link(self, post: ChannelPost) -> str:
        """``post``'s text ended with the jump link of game ``post.panel_link``'s panel
        (unchanged when no panel is remembered)."""
        if post.panel_link is None:
            return post.text
        ref = await self.refs.get(PANEL_SCOPE.format(game_id=post.panel_link), PANEL_KEY)
        if ref is None:
            return post.text
        url = JUMP_URL.format(
            guild=post.guild_id or "@me", channel_id=ref.channel_id, message_id=ref.message_id
        )
        return f"{post.text} {url}".strip()

    async def _send_post(self, post: ChannelPost) -> discord.Message | discord.PartialMessage:
        """Send ``post``, or edit the message remembered under its key (a panel post:
        `_send_panel`).

        :raises discord.HTTPException: when Discord refuses it.
        """
        if post.panel_of is not None:
            return await self._send_panel(post)
        text = with_mentions(
            await self._panel_link(post), post.mention_user_ids, post.mention_role_ids
        )
        appended = await self._append_to_log(post, text)
        if appended is not None:
            return appended
        pieces = split_text(text)
        channel = self.client.get_partial_messageable(post.channel_id)
        mentions = only_mentions(post.mention_user_ids, post.mention_role_ids)
        for piece in pieces[:-1]:
            sent = await channel.send(piece, allowed_mentions=mentions)
            self._last_sent[post.channel_id] = sent.id
        last = pieces[-1]
        view = self.build_view(post.components)
        receipt = post.receipt
        scope = receipt.scope if receipt is not None else f"post:{post.channel_id}"
        # the first delivery of news has nothing to edit: no read
        fresh = receipt is not None and not receipt.again
        if post.key is not None and len(pieces) == 1 and not fresh:
            ref = await self.refs.get(scope, post.key)
            if ref is not None:
                edited = await self._edit(ref, last, post.images, view, mentions)
                if edited is not None:
                    return edited
        message = await send_message(
            channel, last or None, files=make_files(post.images), view=view, mentions=mentions
        )
        self._last_sent[post.channel_id] = message.id
        if post.log_of is not None and len(pieces) == 1:
            self._logs[post.log_of] = (MessageRef(post.channel_id, message.id), last)
        if post.key is not None:
            await self.refs.put(scope, post.key, MessageRef(post.channel_id, message.id))
        return message

    async def _append_to_log(
        self, post: ChannelPost, text: str
    ) -> discord.Message | discord.PartialMessage | None:
        """Add ``text`` (a log post of game ``post.log_of`` that pings nobody, without
        pictures or components) to the end of the game's last log message sent by this
        process — one edit, which notifies nobody — when that message is still the last
        the bot sent in the channel and both fit in one message; None (nothing done)
        otherwise, when that message is gone, or when the deliverer is `shared` (another
        process may have posted since). A redelivery never appends (its lines
        may be there already), and an appended post's id is not kept under its key: a
        second delivery after a restart posts it anew."""
        if (
            self.shared
            or post.log_of is None
            or post.mention_user_ids
            or post.mention_role_ids
            or post.images
            or post.components
            or (post.receipt is not None and post.receipt.again)
        ):
            return None
        known = self._logs.get(post.log_of)
        if known is None:
            return None
        ref, shown = known
        joined = f"{shown}\n{text}"
        if (
            ref.channel_id != post.channel_id
            or self._last_sent.get(post.channel_id) != ref.message_id
            or len(joined) > MESSAGE_LIMIT
        ):
            return None
        partial = self.client.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        try:
            edited = await partial.edit(content=joined, allowed_mentions=NO_MENTIONS)
        except discord.NotFound:
            self._logs.pop(post.log_of, None)
            return None
        self._logs[post.log_of] = (ref, joined)
        return edited

    async def _edit(
        self,
        ref: MessageRef,
        text: str,
        images: Sequence[Image],
        view: discord.ui.View | None,
        mentions: discord.AllowedMentions,
    ) -> discord.Message | discord.PartialMessage | None:
        """Edit the remembered message; None when it is gone (then a new one is sent)."""
        partial = self.client.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        try:
            return await partial.edit(
                content=text or None,
                attachments=make_files(images),
                view=view,
                allowed_mentions=mentions,
            )
        except discord.NotFound:
            return None

    # ---------------------------------------------------------------------- DMs
    async def _dm_safely(self, dm: DirectMessage, report: DeliveryReport) -> None:
        if dm.user_id in report.closed_dms:  # one refusal per delivery is enough
            await self._keep_undelivered(dm)
            return
        try:
            await self.direct_message(dm)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                log.warning("DM to user %s refused: code %s", dm.user_id, error.code)
            await self._dm_closed(dm, report)
        except discord.HTTPException as error:
            log.warning(
                "DM to user %s failed: HTTP %s code %s", dm.user_id, error.status, error.code
            )
            await self._keep_undelivered(dm)

    async def direct_message(self, dm: DirectMessage) -> discord.Message | discord.PartialMessage:
        """Send ``dm``, editing the user's previous DM of the same slot when there is one —
        or, for news (``dm.notify``), deleting it and sending anew so the user is pinged.

        :raises discord.Forbidden: code 50007 when the user's DMs are closed.
        :raises discord.HTTPException: for other refusals.
        """
        pieces = split_text(dm.text)
        view = self.build_view(dm.components)
        scope = f"dm:{dm.user_id}:{dm.game_id}"
        ref = await self.refs.get(scope, dm.slot) if dm.slot != "notice" else None
        if ref is not None and not dm.notify and len(pieces) == 1:
            edited = await self._edit(ref, pieces[0], dm.images, view, NO_MENTIONS)
            if edited is not None:
                await self.reachability.dm_delivered(dm.user_id, dm.game_id)
                return edited
        elif ref is not None:
            await self._delete(ref)
        channel = await self.client.create_dm(discord.Object(dm.user_id))
        for piece in pieces[:-1]:
            await channel.send(piece, allowed_mentions=NO_MENTIONS)
        message = await send_message(
            channel,
            pieces[-1] or None,
            files=make_files(dm.images),
            view=view,
            mentions=NO_MENTIONS,
        )
        if dm.slot != "notice":
            await self.refs.put(scope, dm.slot, MessageRef(channel.id, message.id))
        await self.reachability.dm_delivered(dm.user_id, dm.game_id)
        await self._forget_undelivered(dm)
        return message

    async def _delete(self, ref: MessageRef) -> None:
        """Delete a remembered message (already gone or not deletable: nothing to do)."""
        partial = self.client.get_partial_messageable(ref.channel_id).get_partial_message(
            ref.message_id
        )
        try:
            await partial.delete()
        except discord.HTTPException as error:
            log.debug("Could not delete message %s: code %s", ref.message_id, error.code)

    async def _dm_closed(self, dm: DirectMessage, report: DeliveryReport) -> None:
        report.closed_dms.append(dm.user_id)
        await self._keep_undelivered(dm)
        log.info("DMs to user %s are closed (game %s)", dm.user_id, dm.game_id)
        notice = await self.reachability.dm_failed(dm.user_id, dm.game_id)
        for post in notice.posts:
            await self._post_safely(post, report)

    async def _moved_past(self, game_id: int, channel_id: int, version: int) -> bool:
        """Whether storage has game ``game_id`` at a later version than ``version`` (moved
        on by another process; False without `game_version`)."""
        if self.game_version is None:
            return False
        now = await self.game_version(game_id, channel_id)
        return now is not None and now > version

    async def _held_users(self) -> set[int]:
        """The users with DMs kept for them: asked of storage, then kept up to date here
        (so a delivered DM or an interaction costs no query for everyone else) and asked
        again after `HELD_USERS_FOR` seconds, since another bot process may have kept DMs
        for someone meanwhile."""
        now = self._clock()
        if self._holding is None or now - self._holding_at >= HELD_USERS_FOR:
            self._holding = await self.reachability.holding()
            self._holding_at = now
        return self._holding

    async def _keep_undelivered(self, dm: DirectMessage) -> None:
        """Keep ``dm`` in the database for the user's next interaction: the latest per
        (game, slot), and the last few notices (`DmReachability.hold`)."""
        await self.reachability.hold(dm.user_id, dm.game_id, dm.slot, dump_direct_message(dm))
        (await self._held_users()).add(dm.user_id)

    async def _forget_undelivered(self, dm: DirectMessage) -> None:
        if dm.slot != "notice" and dm.user_id in await self._held_users():
            await self.reachability.drop_held(dm.user_id, dm.game_id, dm.slot)

    async def undelivered(self, user_id: int) -> list[DirectMessage]:
        """The DMs that could not reach ``user_id`` and wait for their next interaction."""
        return [load_direct_message(text) for text in await self.reachability.held(user_id)]

    async def flush_undelivered(self, interaction: discord.Interaction) -> None:
        """Show ``interaction``'s user, ephemerally, the DMs that could not reach them —
        only those of games where they still hold a seat (the others are dropped)."""
        user_id = interaction.user.id
        holding = await self._held_users()
        if user_id not in holding:
            return
        holding.discard(user_id)
        waiting = [load_direct_message(text) for text in await self.reachability.take_held(user_id)]
        seated: dict[int, bool] = {}
        pending: list[DirectMessage] = []
        for dm in waiting:
            if dm.game_id not in seated:
                seated[dm.game_id] = await self.reachability.holds_seat(dm.user_id, dm.game_id)
            if seated[dm.game_id]:
                pending.append(dm)
        for index, dm in enumerate(pending):
            view = self.build_view(dm.components)
            try:
                await send_to_interaction(
                    interaction, dm.text, ephemeral=True, images=dm.images, view=view
                )
            except discord.HTTPException as error:
                log.warning(
                    "Ephemeral fallback for user %s failed: code %s",
                    interaction.user.id,
                    error.code,
                )
                for kept in pending[index:]:  # shown at the next interaction instead
                    await self._keep_undelivered(kept)
                return


def _pictures_of(message: discord.Message | discord.PartialMessage) -> tuple[Image, ...]:
    """The pictures a panel message shows (names and descriptions; no bytes): its image
    attachments."""
    attachments = getattr(message, "attachments", None) or []
    return tuple(
        Image(a.filename, b"", a.description or "")
        for a in attachments
        if (a.content_type or "image/").startswith("image/")
    )


def _last_items(outbox: Outbox) -> dict[int, tuple[Receipt, ...]]:
    """For each receipt in ``outbox``, the index of the last item carrying it (posts
    first, then DMs, as they are delivered): ``{index: receipts confirmed after it}``."""
    last: dict[Receipt, int] = {}
    items: list[ChannelPost | DirectMessage] = [*outbox.posts, *outbox.dms]
    for index, item in enumerate(items):
        if item.receipt is not None:
            last[item.receipt] = index
    found: dict[int, tuple[Receipt, ...]] = {}
    for receipt, index in last.items():
        found[index] = (*found.get(index, ()), receipt)
    return found
