"""The fake Discord's world: users, guilds, roles, members, channels, threads, DMs and messages.

Everything here is plain in-memory state plus the JSON payloads Discord would send for it;
the REST and gateway layers read and change it, and tests inspect it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from .snowflake import SnowflakeFactory

Json = dict[str, Any]

#: Every permission bit, as an owner or an administrator has them.
ALL_PERMISSIONS: int = discord.Permissions.all().value

#: What @everyone may do on a fresh server (roughly Discord's defaults for a text server).
EVERYONE_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    create_instant_invite=True,
).value

#: What the bot's own managed role grants on top of @everyone.
BOT_PERMISSIONS: int = (
    discord.Permissions(
        manage_messages=True, manage_threads=True, create_private_threads=True
    ).value
    | EVERYONE_PERMISSIONS
)

#: The permissions Discord reports for the bot inside a DM channel.
DM_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

TEXT_CHANNEL = 0
DM_CHANNEL = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
FORUM_CHANNEL = 15

MESSAGE_FLAG_EPHEMERAL = 64
MESSAGE_FLAG_LOADING = 128
MESSAGE_FLAG_COMPONENTS_V2 = 32768


def iso_now() -> str:
    """The current UTC time as the ISO 8601 string Discord puts in payloads."""
    return dt.datetime.now(dt.UTC).isoformat()


def _permissions_value(permissions: int | discord.Permissions) -> int:
    return permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)


@dataclass(eq=False)
class FakeUser:
    """A Discord account. ``dms_open=False`` makes DMs to it fail with 403 code 50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    installed_app: bool = False
    """Whether the user added the app to their account (a user install): its commands
    that allow it are then offered in any server and in private channels."""

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return f"<@{self.id}>"

    def payload(self) -> Json:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role. The @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        """The ``<@&id>`` mention string."""
        return f"<@&{self.id}>"

    def payload(self) -> Json:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership of one guild, with its roles."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    @property
    def permissions(self) -> int:
        """Guild-level permission bits: @everyone | roles; all bits for the owner or an admin."""
        if self.guild.owner is not None and self.guild.owner.id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return value

    def has(self, permissions: int | discord.Permissions) -> bool:
        """Whether the member holds every bit of ``permissions``."""
        wanted = _permissions_value(permissions)
        return self.permissions & wanted == wanted

    def payload(self, *, with_permissions: bool = False) -> Json:
        """The guild member object (with its ``user``); ``permissions`` as in interactions."""
        data: Json = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "roles": [str(role.id) for role in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message, keeping its bytes so tests can inspect images."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    channel_id: int = 0
    cdn_base: str = ""

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    @property
    def is_png(self) -> bool:
        """Whether the bytes carry the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    @property
    def url(self) -> str:
        """Where the fake serves the bytes (``GET`` works, like Discord's CDN)."""
        return f"{self.cdn_base}/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> Json:
        """The attachment object as Discord sends it."""
        data: Json = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        content_type = sniffed_type(self.data) or self.content_type
        if content_type:
            data["content_type"] = content_type
        if self.description:
            data["description"] = self.description
        return data


_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
)


def sniffed_type(data: bytes) -> str | None:
    """The image type Discord reports for uploaded ``data`` whatever the upload declared
    (it looks at the bytes: discord.py uploads files as application/octet-stream); None
    for bytes that are not a PNG, JPEG, GIF or WebP picture."""
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return next((kind for magic, kind in _SIGNATURES if data.startswith(magic)), None)


def iter_components(components: Iterable[Json]) -> Iterator[Json]:
    """Walk a component tree depth first (action rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


@dataclass(eq=False)
class FakeMessage:
    """A message in a channel, as the fake stores it; ``edits`` keeps every earlier version."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    seq: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: Json | None = None
    reference_id: int | None = None
    reactions: list[str] = field(default_factory=list)
    edited_at: str | None = None
    deleted: bool = False
    edits: list[Json] = field(default_factory=list)
    created_at: str = field(default_factory=iso_now)

    @property
    def ephemeral(self) -> bool:
        """Whether only the interacting user can see it (flag 64)."""
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def panel(self) -> bool:
        """Whether it is a Components V2 message (flag 1 << 15: no content or embeds, its
        text in text displays)."""
        return bool(self.flags & MESSAGE_FLAG_COMPONENTS_V2)

    @property
    def loading(self) -> bool:
        """Whether it is a deferred "thinking…" placeholder not yet filled in (flag 128)."""
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields, footer and author, joined."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
            parts.append(embed.get("author", {}).get("name", ""))
        for component in self.all_components():
            if component.get("type") == 10:
                parts.append(component.get("content", ""))
        return "\n".join(part for part in parts if part)

    def all_components(self) -> list[Json]:
        """Every component in the message, depth first."""
        return list(iter_components(self.components))

    def buttons(self) -> list[Json]:
        """Every button (type 2) in the message."""
        return [c for c in self.all_components() if c.get("type") == 2]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> Json:
        """The component with this custom_id (or, for buttons, this label).

        :raises LookupError: nothing matches; the message lists what it has.
        """
        for component in self.all_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and component.get("label") == label:
                return component
        have = [(c.get("custom_id"), c.get("label")) for c in self.all_components() if "type" in c]
        raise LookupError(f"no component custom_id={custom_id!r} label={label!r} in {have}")

    def attachment(self, filename: str) -> FakeAttachment:
        """The attachment with this filename. :raises LookupError: none has it."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise LookupError(f"no attachment {filename!r} in {names}")

    def snapshot(self) -> Json:
        """The fields an edit can change, as they are now (kept in ``edits`` before a change)."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def payload(self) -> Json:
        """The message object as Discord sends it."""
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.reference_id is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel.id),
            }
        return data

    def __repr__(self) -> str:
        return (
            f"<FakeMessage id={self.id} channel={self.channel.name!r} author={self.author.name!r}"
            f" content={self.content[:40]!r} embeds={len(self.embeds)}"
            f" files={[a.filename for a in self.attachments]} flags={self.flags}>"
        )


@dataclass(eq=False)
class FakeChannel:
    """A text channel, a forum channel, a thread (a forum's posts are threads) or a DM
    channel, with the messages posted in it."""

    id: int
    type: int
    name: str
    guild: FakeGuild | None = None
    parent: FakeChannel | None = None
    recipient: FakeUser | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    messages: list[FakeMessage] = field(default_factory=list)
    recipients: list[FakeUser] = field(default_factory=list)
    """The people in a private channel (`GROUP_DM`) the bot is not in."""
    thread_members: list[int] = field(default_factory=list)
    """The user ids added to a thread (``PUT /channels/{id}/thread-members/{user}``)."""
    denied: dict[int, int] = field(default_factory=dict)
    """Member permission overwrites of a text channel: user id -> the bits denied to them
    here (a thread follows its parent's); set with ``FakeDiscord.deny``."""
    available_tags: list[Json] = field(default_factory=list)
    """A forum's tags (``{"id", "name", "moderated", "emoji_id", "emoji_name"}``)."""
    applied_tags: list[int] = field(default_factory=list)
    """The ids of the forum tags on a forum post (at most 5)."""

    def tag_names(self) -> list[str]:
        """The names of the tags applied to this forum post, in order."""
        assert self.parent is not None
        names = {int(t["id"]): str(t["name"]) for t in self.parent.available_tags}
        return [names[t] for t in self.applied_tags]

    @property
    def is_dm(self) -> bool:
        """Whether this is a DM channel."""
        return self.type == DM_CHANNEL

    @property
    def is_private(self) -> bool:
        """Whether this is a private channel between people, without the bot (a group DM:
        only a user-installed app's commands reach it)."""
        return self.type == GROUP_DM

    @property
    def is_forum(self) -> bool:
        """Whether this is a forum channel (it holds posts, no messages of its own)."""
        return self.type == FORUM_CHANNEL

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        """The ``<#id>`` mention string."""
        return f"<#{self.id}>"

    def history(self) -> list[FakeMessage]:
        """Messages not deleted, oldest first (ephemeral ones included)."""
        return [m for m in self.messages if not m.deleted]

    def public_messages(self) -> list[FakeMessage]:
        """Messages everyone in the channel can see: not deleted, not ephemeral."""
        return [m for m in self.history() if not m.ephemeral]

    def last_message(self) -> FakeMessage | None:
        """The newest message not deleted, or None."""
        history = self.history()
        return history[-1] if history else None

    def payload(self) -> Json:
        """The channel object as Discord sends it."""
        last = self.last_message()
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(last.id) if last else None,
            "flags": 0,
        }
        if self.is_dm:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.payload()]
            return data
        if self.is_private:
            data |= {
                "name": self.name,
                "owner_id": str(self.recipients[0].id),
                "recipients": [user.payload() for user in self.recipients],
                "icon": None,
            }
            return data
        assert self.guild is not None
        data |= {
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(user_id), "type": 1, "allow": "0", "deny": str(bits)}
                for user_id, bits in self.denied.items()
            ],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent.id) if self.parent else None,
        }
        if self.is_thread:
            if self.parent is not None and self.parent.is_forum:
                data["applied_tags"] = [str(t) for t in self.applied_tags]
            data |= {
                "owner_id": str(self.owner_id or 0),
                "message_count": len(self.history()),
                "member_count": 1,
                "total_message_sent": len(self.messages),
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                },
            }
        else:
            data["topic"] = self.topic
        if self.is_forum:
            data |= {
                "available_tags": self.available_tags,
                "default_reaction_emoji": None,
                "default_thread_rate_limit_per_user": 0,
                "default_sort_order": None,
                "default_forum_layout": 0,
            }
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} type={self.type} name={self.name!r}>"


class FakeGuild:
    """A server: its roles, members, channels and threads."""

    def __init__(self, world: World, guild_id: int, name: str, owner: FakeUser | None) -> None:
        self.world = world
        self.id = guild_id
        self.name = name
        self.owner = owner
        self.everyone = FakeRole(guild_id, guild_id, "@everyone", EVERYONE_PERMISSIONS)
        self.roles: dict[int, FakeRole] = {guild_id: self.everyone}
        self.members: dict[int, FakeMember] = {}
        self.channels: dict[int, FakeChannel] = {}

    def __repr__(self) -> str:
        return f"<FakeGuild id={self.id} name={self.name!r} members={len(self.members)}>"

    def create_role(
        self, name: str, permissions: int | discord.Permissions = 0, *, managed: bool = False
    ) -> FakeRole:
        """Add a role above the existing ones; ``permissions`` as bits or discord.Permissions."""
        role = FakeRole(
            self.world.ids.next(),
            self.id,
            name,
            _permissions_value(permissions),
            position=len(self.roles),
            managed=managed,
        )
        self.roles[role.id] = role
        return role

    def add_member(
        self, user: FakeUser, *, roles: Iterable[FakeRole] = (), nick: str | None = None
    ) -> FakeMember:
        """Make ``user`` a member with ``roles`` (besides @everyone); returns the membership."""
        member = FakeMember(user, self, list(roles), nick)
        self.members[user.id] = member
        return member

    def member(self, user: FakeUser | int) -> FakeMember:
        """The membership of a user. :raises LookupError: not a member."""
        user_id = user if isinstance(user, int) else user.id
        try:
            return self.members[user_id]
        except KeyError:
            raise LookupError(f"user {user_id} is not a member of {self.name!r}") from None

    def create_text_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        """Add a text channel."""
        channel = FakeChannel(
            self.world.ids.next(),
            TEXT_CHANNEL,
            name,
            guild=self,
            position=len(self.text_channels()),
            topic=topic,
        )
        return self.world.register_channel(channel)

    def create_forum_channel(
        self, name: str, *, topic: str | None = None, tags: Sequence[str] = ()
    ) -> FakeChannel:
        """Add a forum channel (its posts are threads: `create_thread` with it as parent)
        with the forum tags named ``tags`` (at most 20, as on Discord)."""
        assert len(tags) <= 20, "a forum has at most 20 tags"
        channel = FakeChannel(
            self.world.ids.next(),
            FORUM_CHANNEL,
            name,
            guild=self,
            position=len(self.text_channels()),
            topic=topic,
            available_tags=[
                {
                    "id": str(self.world.ids.next()),
                    "name": tag,
                    "moderated": False,
                    "emoji_id": None,
                    "emoji_name": None,
                }
                for tag in tags
            ],
        )
        return self.world.register_channel(channel)

    def create_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser | None = None,
        private: bool = False,
    ) -> FakeChannel:
        """Add a thread under the text channel ``parent`` (a post, under a forum channel)."""
        owner_id = (owner or self.world.bot_user).id
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        channel = FakeChannel(
            self.world.ids.next(), kind, name, guild=self, parent=parent, owner_id=owner_id
        )
        return self.world.register_channel(channel)

    def text_channels(self) -> list[FakeChannel]:
        """The text channels, in creation order."""
        return [c for c in self.channels.values() if c.type == TEXT_CHANNEL]

    def threads(self) -> list[FakeChannel]:
        """The threads, in creation order."""
        return [c for c in self.channels.values() if c.is_thread]

    def channel_named(self, name: str) -> FakeChannel:
        """The channel or thread with this name. :raises LookupError: none has it."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel {name!r} in {self.name!r}")

    def payload(self) -> Json:
        """The full GUILD_CREATE payload: roles, every member, channels and threads."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str((self.owner or self.world.app_owner).id),
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.members),
            "members": [member.payload() for member in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.threads()],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(),
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_id": None,
            "afk_timeout": 300,
        }


class World:
    """All users, guilds, channels and messages of one fake Discord, indexed by id."""

    def __init__(self, *, bot_name: str = "Heroes Table") -> None:
        self.ids = SnowflakeFactory()
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.app_owner = FakeUser(self.ids.next(), "app-owner")
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.cdn_base = ""
        self._message_seq = 0

    def create_user(self, name: str, *, bot: bool = False) -> FakeUser:
        """Add an account."""
        user = FakeUser(self.ids.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        bot_permissions: int | discord.Permissions = BOT_PERMISSIONS,
        guild_id: int | None = None,
    ) -> FakeGuild:
        """Add a guild the bot has joined, with the bot's managed role and a #general channel
        (its id ``guild_id``, else a new snowflake)."""
        guild = FakeGuild(self, guild_id or self.ids.next(), name, owner)
        self.guilds[guild.id] = guild
        bot_role = guild.create_role(self.bot_user.name, bot_permissions, managed=True)
        guild.add_member(self.bot_user, roles=[bot_role])
        if owner is not None:
            guild.add_member(owner)
        guild.create_text_channel("general")
        return guild

    def register_channel(self, channel: FakeChannel) -> FakeChannel:
        """Index a new channel (and add it to its guild)."""
        self.channels[channel.id] = channel
        if channel.guild is not None:
            channel.guild.channels[channel.id] = channel
        return channel

    def private_channel(self, *users: FakeUser) -> FakeChannel:
        """A group DM of ``users`` (the bot is not in it)."""
        names = "-".join(user.name for user in users)
        channel = FakeChannel(self.ids.next(), GROUP_DM, names, recipients=list(users))
        return self.register_channel(channel)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user``, made on first use (POST /users/@me/channels)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.ids.next(), DM_CHANNEL, f"dm-{user.name}", recipient=user)
            self.dm_channels[user.id] = channel
            self.register_channel(channel)
        return channel

    def new_attachment(
        self,
        channel: FakeChannel,
        filename: str,
        data: bytes,
        *,
        content_type: str | None = None,
        description: str | None = None,
    ) -> FakeAttachment:
        """Store uploaded bytes as an attachment of ``channel``."""
        attachment = FakeAttachment(
            self.ids.next(),
            filename,
            data,
            content_type,
            description,
            channel.id,
            self.cdn_base,
        )
        self.attachments[attachment.id] = attachment
        return attachment

    def new_message(self, channel: FakeChannel, author: FakeUser, **fields: Any) -> FakeMessage:
        """Store a new message in ``channel``; ``fields`` are FakeMessage attributes."""
        self._message_seq += 1
        message = FakeMessage(self.ids.next(), channel, author, seq=self._message_seq, **fields)
        channel.messages.append(message)
        self.messages[message.id] = message
        return message

    @property
    def message_seq(self) -> int:
        """How many messages were ever created (use as ``after=`` for waits)."""
        return self._message_seq

    def permissions_in(self, channel: FakeChannel, user: FakeUser) -> int:
        """The user's permission bits in the channel: guild level less what the channel's
        member overwrite denies them (a thread's parent's; none for an owner or admin).
        DMs get DM_PERMISSIONS."""
        if channel.guild is None:
            return DM_PERMISSIONS
        value = channel.guild.member(user).permissions
        if value == ALL_PERMISSIONS:
            return value
        source = channel.parent if channel.is_thread and channel.parent else channel
        return value & ~source.denied.get(user.id, 0)
