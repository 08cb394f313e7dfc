"""``FakeDiscord``: the aiohttp server (REST + gateway) and the helpers tests drive it with."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from aiohttp import web

from .bot import BotRunner, run_bot
from .faults import RateLimitRule, Violation
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    GatewayHub,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
)
from .rest import RestApi
from .schema import ImpossibleInteraction, InvocationContext, build_command_data
from .world import (
    BOT_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Json,
    World,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
SELECT_TYPES = {3: "string", 5: "user", 6: "role", 7: "mentionable", 8: "channel"}


@dataclass(frozen=True)
class RecordedRequest:
    """One REST request the bot made: method, path (relative to /api/v10), status answered."""

    method: str
    path: str
    status: int


class FakeDiscord:
    """A fake Discord (REST under ``/api/v10`` + gateway) on 127.0.0.1 with a free port.

    Build the world (``create_guild``, ``create_user``, ``guild.add_member`` …), ``start``
    (which patches discord.py's REST base and gateway URL), run a bot with ``run_bot``,
    then act as users: ``slash``, ``autocomplete``, ``click``, ``select``, ``submit_modal``,
    ``send_message``. Everything the bot sends is stored (``world``) and checked against
    Discord's limits (``violations``).

    :param ack_timeout: seconds the bot has to acknowledge an interaction (Discord: 3).
    :param response_timeout: default seconds helpers wait for the bot (a guard against a
        hang, long enough for a loaded machine: never a timing the bot must meet).
    :param shard_count: shards announced by ``GET /gateway/bot`` (AutoShardedBot).
    :param heartbeat_interval_ms: announced in HELLO.
    """

    def __init__(
        self,
        *,
        ack_timeout: float = 3.0,
        response_timeout: float = 60.0,
        shard_count: int = 1,
        heartbeat_interval_ms: int = 41_250,
        bot_name: str = "Heroes Table",
    ) -> None:
        self.world = World(bot_name=bot_name)
        self.ack_timeout = ack_timeout
        self.response_timeout = response_timeout
        self.shard_count = shard_count
        self.violations: list[Violation] = []
        self.requests: list[RecordedRequest] = []
        self.rate_limits: list[RateLimitRule] = []
        self.command_syncs = 0
        self._commands: dict[int | None, list[Json]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._interactions: dict[int, InteractionResult] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self._messages_changed = asyncio.Event()
        self.gateway = GatewayHub(
            self.world,
            url=lambda: self.gateway_url,
            shard_count=lambda: self.shard_count,
            heartbeat_interval_ms=heartbeat_interval_ms,
            on_violation=self.violation,
        )
        self._rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self._monkeypatch: pytest.MonkeyPatch | None = None
        self._own_monkeypatch = False
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        """The REST base discord.py's ``Route.BASE`` is pointed at."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The websocket URL (``DEFAULT_GATEWAY`` and READY's ``resume_gateway_url``)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self, monkeypatch: pytest.MonkeyPatch | None = None) -> FakeDiscord:
        """Serve on a free port of 127.0.0.1 and point discord.py at it.

        The two URLs are patched with ``monkeypatch`` (pytest's fixture, undone after the
        test); without one, a private MonkeyPatch is used and undone by ``stop``.
        """
        app = web.Application(middlewares=[self._rest.middleware], client_max_size=64 * 1024 * 1024)
        app.add_routes(self._rest.routes())
        app.router.add_get("/gateway", self.gateway.handle)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=0.5
        )
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.world.cdn_base = self.base_url
        self._own_monkeypatch = monkeypatch is None
        self._monkeypatch = monkeypatch or pytest.MonkeyPatch()
        self._monkeypatch.setattr(discord.http.Route, "BASE", self.api_url)
        self._monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url)
        )
        return self

    async def stop(self) -> None:
        """Close every websocket and the server; undo a private monkeypatch."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._own_monkeypatch and self._monkeypatch is not None:
            self._monkeypatch.undo()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def run_bot(
        self, bot: discord.Client, *, token: str = "fake-token", ready_timeout: float = 60.0
    ) -> contextlib.AbstractAsyncContextManager[BotRunner]:
        """``async with fake.run_bot(bot) as runner:`` — start ``bot.start(token)`` in a task,
        wait for ``on_ready``, yield a ``BotRunner``; on exit assert the bot task is still
        alive, then close the bot. See ``bot.run_bot``."""
        return run_bot(bot, token=token, ready_timeout=ready_timeout)

    # -- the world -----------------------------------------------------------------------------

    @property
    def bot_user(self) -> FakeUser:
        """The bot's own user (its id is the application id)."""
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        """The application id (answered by ``GET /oauth2/applications/@me``)."""
        return self.world.application_id

    def create_user(self, name: str, *, bot: bool = False) -> FakeUser:
        """Add an account (then ``guild.add_member`` it)."""
        return self.world.create_user(name, bot=bot)

    def create_guild(
        self,
        name: str = "Heroes Tavern",
        *,
        owner: FakeUser | None = None,
        bot_permissions: int | discord.Permissions = BOT_PERMISSIONS,
        shard: int | None = None,
    ) -> FakeGuild:
        """Add a guild the bot is in (with a ``general`` text channel). Create guilds before
        the bot connects: they are announced in GUILD_CREATE at IDENTIFY. ``shard``: give
        it an id on that shard of `shard_count` (`shard_of`), for tests of several
        shards or bot processes.

        :raises ValueError: for a shard that is not one of `shard_count`.
        """
        guild_id = None
        if shard is not None:
            guild_id = self.world.ids.next_on_shard(shard, self.shard_count)
        return self.world.create_guild(
            name, owner=owner, bot_permissions=bot_permissions, guild_id=guild_id
        )

    def shard_of(self, guild: FakeGuild | None) -> int:
        """The shard ``guild``'s events and interactions go to (None: DMs, shard 0)."""
        return self.gateway.shard_of(None if guild is None else guild.id)

    def create_moderator_role(self, guild: FakeGuild, name: str = "Moderator") -> FakeRole:
        """A role with Manage Server, as moderators of a game server have."""
        return guild.create_role(name, discord.Permissions(manage_guild=True))

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created if needed)."""
        return self.world.dm_channel(user)

    def close_dms(self, user: FakeUser) -> None:
        """From now on the bot's DMs to ``user`` fail with 403 code 50007."""
        user.dms_open = False

    def deny(
        self, channel: FakeChannel, user: FakeUser, permissions: int | discord.Permissions
    ) -> None:
        """Deny ``user`` (the bot: ``fake.bot_user``) ``permissions`` in the text channel
        ``channel`` and its threads, as a member permission overwrite does: interactions
        there carry the reduced ``app_permissions``, and the REST checks follow them."""
        bits = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        channel.denied[user.id] = channel.denied.get(user.id, 0) | int(bits)

    def install_for(self, user: FakeUser) -> None:
        """``user`` adds the app to their account (a user install)."""
        user.installed_app = True

    def private_channel(self, *users: FakeUser) -> FakeChannel:
        """A group DM of ``users`` without the bot: only a user-installed app's commands
        that allow private channels can be used there (``install_for``); the bot's own
        posts to it are refused with 403 code 50001."""
        return self.world.private_channel(*users)

    def open_dms(self, user: FakeUser) -> None:
        """Undo ``close_dms``."""
        user.dms_open = True

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Every message in the bot's DM channel with ``user`` (not deleted), oldest first."""
        channel = self.world.dm_channels.get(user.id)
        return channel.history() if channel else []

    async def member_joins(
        self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = ()
    ) -> FakeMember:
        """Add a member while the bot runs: GUILD_MEMBER_ADD reaches a bot with the members
        intent (the way to grow a guild after ``run_bot``)."""
        member = guild.add_member(user, roles=roles)
        try:
            session = self.gateway.session_for(guild.id)
        except RuntimeError:
            return member
        if session.has_intent(INTENT_GUILD_MEMBERS):
            await session.dispatch(
                "GUILD_MEMBER_ADD", member.payload() | {"guild_id": str(guild.id)}
            )
        return member

    async def channel_created(self, channel: FakeChannel) -> None:
        """Announce a channel or thread made with ``guild.create_*`` after ``run_bot``
        (CHANNEL_CREATE / THREAD_CREATE), so the bot's cache knows it."""
        if channel.guild is None:
            raise ValueError("DM channels are not announced")
        event, payload = "CHANNEL_CREATE", channel.payload()
        if channel.is_thread:
            event, payload = "THREAD_CREATE", payload | {"newly_created": True}
        await self.dispatch_quietly(event, payload, guild_id=channel.guild.id)

    # -- bookkeeping used by the REST layer --------------------------------------------------

    def violation(self, kind: str, route: str, detail: str) -> None:
        """Record something Discord would refuse (see ``Violation``)."""
        self.violations.append(Violation(kind, route, detail))

    def record_request(self, method: str, path: str, status: int) -> None:
        """Log one REST request."""
        self.requests.append(RecordedRequest(method, path, status))

    def message_changed(self, message: FakeMessage) -> None:
        """Wake ``wait_for_message`` waiters (a message was created, edited or deleted)."""
        self._messages_changed.set()
        self._messages_changed = asyncio.Event()

    def interaction_by_id(self, interaction_id: int) -> InteractionResult | None:
        """The interaction the fake sent with this id."""
        return self._interactions.get(interaction_id)

    def interaction_by_token(self, token: str) -> InteractionResult | None:
        """The interaction the fake sent with this token."""
        return self._by_token.get(token)

    def interaction_metadata(self, result: InteractionResult) -> Json:
        """``interaction_metadata`` of messages created in answer to ``result``."""
        data: Json = {
            "id": str(result.id),
            "type": result.kind,
            "user": result.user.payload(),
            "authorizing_integration_owners": result.payload["authorizing_integration_owners"],
        }
        if result.kind == APPLICATION_COMMAND:
            data["name"] = result.payload["data"]["name"]
        if result.source_message is not None:
            data["interacted_message_id"] = str(result.source_message.id)
        return data

    async def dispatch_quietly(self, event: str, data: Json, *, guild_id: int | None) -> None:
        """Dispatch ``event`` if a bot session serves ``guild_id``; otherwise drop it."""
        try:
            session = self.gateway.session_for(guild_id)
        except RuntimeError:
            return
        await session.dispatch(event, data)

    # -- checks ------------------------------------------------------------------------------

    def assert_no_violations(self, *, ignore: Iterable[str] = ()) -> None:
        """:raises AssertionError: listing every recorded violation whose kind is not ignored."""
        skipped = set(ignore)
        found = [v for v in self.violations if v.kind not in skipped]
        if found:
            raise AssertionError("Discord rules broken:\n" + "\n".join(map(str, found)))

    def requests_to(self, method: str, path: str) -> list[RecordedRequest]:
        """Logged requests matching ``method`` and ``path`` (a template like
        ``/channels/{channel_id}/messages`` or a concrete path)."""
        rule = RateLimitRule(method, path, times=0)
        return [r for r in self.requests if rule.matches(r.method, r.path)]

    # -- fault injection ---------------------------------------------------------------------

    def rate_limit(
        self,
        method: str,
        path: str,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> RateLimitRule:
        """Answer the next ``times`` matching requests with 429 (+ ``Via`` and ``retry_after``
        seconds, so discord.py retries). ``path`` is relative to /api/v10, a template or
        concrete. The returned rule counts ``served`` 429s and ``retries``."""
        rule = RateLimitRule(
            method, path, times=times, retry_after=retry_after, is_global=is_global
        )
        self.rate_limits.append(rule)
        return rule

    async def reconnect_gateway(self) -> None:
        """Ask connected bots to reconnect (op 7); they come back with RESUME."""
        await self.gateway.request_reconnect()

    # -- synced commands ---------------------------------------------------------------------

    def store_commands(self, guild_id: int | None, commands: list[Json]) -> list[Json]:
        """Store a bulk overwrite as Discord would (ids kept per name) and return it."""
        stored = []
        for command in commands:
            kind = command.get("type", 1)
            key = (guild_id, kind, command["name"])
            command_id = self._command_ids.setdefault(key, self.world.ids.next())
            item = dict(command) | {
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self.world.ids.next()),
                "type": kind,
            }
            permissions = command.get("default_member_permissions")
            item["default_member_permissions"] = None if permissions is None else str(permissions)
            if guild_id is not None:
                item["guild_id"] = str(guild_id)
            stored.append(item)
        self._commands[guild_id] = stored
        self.command_syncs += 1
        return stored

    def commands(self, guild_id: int | None = None) -> list[Json]:
        """The synced commands: global ones, or those of guild ``guild_id``."""
        return list(self._commands.get(guild_id, []))

    def find_command(self, name: str, channel: FakeChannel) -> Json:
        """The synced command ``name`` usable in ``channel`` (guild commands first).

        :raises ImpossibleInteraction: no such command was synced.
        """
        scopes: list[int | None] = [None]
        if channel.guild is not None:
            scopes.insert(0, channel.guild.id)
        for scope in scopes:
            for command in self._commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        known = sorted({c["name"] for s in scopes for c in self._commands.get(s, [])})
        raise ImpossibleInteraction(f"no synced command /{name} here; synced: {known}")

    # -- sending interactions ----------------------------------------------------------------

    @staticmethod
    def _check_presence(user: FakeUser, channel: FakeChannel) -> None:
        guild = channel.guild
        if channel.is_private:
            if user not in channel.recipients or not user.installed_app:
                raise ImpossibleInteraction(
                    f"{user.name} cannot use the app in {channel.name!r} (not in it, or "
                    "the app is not installed to their account)"
                )
            return
        if guild is None and (not channel.is_dm or channel.recipient is not user):
            raise ImpossibleInteraction(f"{user.name} cannot act in another user's DM channel")
        if guild is not None and user.id not in guild.members:
            raise ImpossibleInteraction(f"{user.name} is not a member of {guild.name!r}")

    def _base_payload(self, kind: int, user: FakeUser, channel: FakeChannel, data: Json) -> Json:
        self._check_presence(user, channel)
        interaction_id = self.world.ids.next()
        channel_data = channel.payload()
        guild = channel.guild
        channel_data["permissions"] = str(self.world.permissions_in(channel, user))
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": f"fake-{secrets.token_urlsafe(24)}",
            "version": 1,
            "data": data,
            "channel": channel_data,
            "channel_id": str(channel.id),
            "app_permissions": str(self.world.permissions_in(channel, self.bot_user)),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 0 if guild else 1,
        }
        if channel.is_private:  # only a user install reaches it: owned by the user
            payload |= {"authorizing_integration_owners": {"1": str(user.id)}, "context": 2}
        if guild is not None:
            payload |= {
                "guild_id": str(guild.id),
                "guild_locale": "en-US",
                "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                "member": guild.member(user).payload(with_permissions=True),
            }
        else:
            payload["user"] = user.payload()
        return payload

    async def send_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        *,
        message: FakeMessage | None = None,
    ) -> InteractionResult:
        """Send an INTERACTION_CREATE over the gateway and return its (live) result.

        Low level: prefer ``slash``, ``click``, ``select``… which build ``data`` from what
        the bot synced or sent. The acknowledgement clock starts now.
        """
        payload = self._base_payload(kind, user, channel, data)
        if message is not None:
            payload["message"] = message.payload()
        result = InteractionResult(
            interaction_id=int(payload["id"]),
            token=payload["token"],
            kind=kind,
            user=user,
            channel=channel,
            payload=payload,
            message=message,
            default_timeout=self.response_timeout,
            ack_timeout=self.ack_timeout,
        )
        session = self.gateway.session_for(channel.guild.id if channel.guild else None)
        self._interactions[result.id] = result
        self._by_token[result.token] = result
        result.dispatched_at = asyncio.get_running_loop().time()
        await session.dispatch("INTERACTION_CREATE", payload)
        return result

    async def _answered(self, result: InteractionResult, wait: bool) -> InteractionResult:
        if wait:
            await result.wait_callback()
        return result

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any],
        focused: str | None = None,
    ) -> Json:
        self._check_presence(user, channel)
        name, *path = command.strip().lstrip("/").split()
        ctx = InvocationContext(self.world, user, channel)
        return build_command_data(
            self.find_command(name, channel), path, options, ctx, focused=focused
        )

    async def slash(
        self, user: FakeUser, channel: FakeChannel, command: str, /, **options: Any
    ) -> InteractionResult:
        """Invoke ``/command`` (e.g. ``"game new"``) as ``user`` in ``channel`` with ``options``
        (names as synced; values str/int/float/bool, FakeUser/FakeMember, FakeChannel,
        FakeRole, FakeAttachment or ``Upload``), as Discord's client would, and wait for the
        bot's first callback (accepted or refused).

        :raises ImpossibleInteraction: the client would not send this (see ``schema``).
        :raises TimeoutError: the bot did not call back within ``response_timeout``.
        """
        data = self._command_data(user, channel, command, options)
        result = await self.send_interaction(APPLICATION_COMMAND, user, channel, data)
        return await self._answered(result, True)

    async def send_slash(
        self, user: FakeUser, channel: FakeChannel, command: str, /, **options: Any
    ) -> InteractionResult:
        """Like ``slash`` but returns at once, without waiting for the bot."""
        data = self._command_data(user, channel, command, options)
        return await self.send_interaction(APPLICATION_COMMAND, user, channel, data)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel, command: str, focused: str, /, **options: Any
    ) -> InteractionResult:
        """Type into option ``focused`` of ``/command``: ``options[focused]`` is the text typed
        so far, other options what is already filled in. Returns after the bot answers;
        ``result.choices`` holds what it offered.

        :raises ImpossibleInteraction: unknown command/option, or no autocomplete there.
        """
        data = self._command_data(user, channel, command, options, focused=focused)
        result = await self.send_interaction(AUTOCOMPLETE, user, channel, data)
        return await self._answered(result, True)

    def _check_clickable(self, user: FakeUser, message: FakeMessage) -> None:
        if message.deleted:
            raise ImpossibleInteraction(f"message {message.id} was deleted")
        owner = (message.interaction_metadata or {}).get("user", {}).get("id")
        if message.ephemeral and owner != str(user.id):
            raise ImpossibleInteraction(f"{user.name} cannot see ephemeral message {message.id}")

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
    ) -> InteractionResult:
        """Press the button with ``custom_id`` (or ``label``) on ``message`` as ``user``.

        :raises ImpossibleInteraction: no such button, disabled, a link, or not visible.
        """
        self._check_clickable(user, message)
        button = message.find_component(custom_id, label=label)
        if button.get("type") != 2:
            raise ImpossibleInteraction(f"component {button.get('custom_id')!r} is not a button")
        if button.get("disabled"):
            raise ImpossibleInteraction(f"button {button.get('custom_id')!r} is disabled")
        if "custom_id" not in button:
            raise ImpossibleInteraction("link and premium buttons send no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        result = await self.send_interaction(
            MESSAGE_COMPONENT, user, message.channel, data, message=message
        )
        return await self._answered(result, wait)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[Any],
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id`` of ``message`` as ``user``:
        option values (str) for a string select; FakeUser/FakeRole/FakeChannel for the
        user, role, mentionable and channel selects.

        :raises ImpossibleInteraction: unknown menu, disabled, a value not offered, or a
            count outside ``min_values``..``max_values``.
        """
        self._check_clickable(user, message)
        menu = message.find_component(custom_id)
        kind = menu.get("type")
        if kind not in SELECT_TYPES:
            raise ImpossibleInteraction(f"component {custom_id!r} is not a select menu")
        if menu.get("disabled"):
            raise ImpossibleInteraction(f"select {custom_id!r} is disabled")
        data: Json = {"custom_id": custom_id, "component_type": kind}
        data |= _select_values(menu, list(values), self.world, message.channel, user)
        result = await self.send_interaction(
            MESSAGE_COMPONENT, user, message.channel, data, message=message
        )
        return await self._answered(result, wait)

    async def submit_modal(
        self,
        user: FakeUser,
        opened: InteractionResult,
        values: Mapping[str, str | Sequence[str]],
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened``: ``values``
        maps text input (or select) custom ids to what the user enters.

        :raises ImpossibleInteraction: unknown field, a required field empty, a length
            outside the input's bounds, or a different user submitting.
        """
        if user is not opened.user:
            raise ImpossibleInteraction("only the user the modal was shown to can submit it")
        modal = opened.modal
        components = _modal_components(modal.get("components") or [], dict(values))
        data = {"custom_id": modal["custom_id"], "components": components}
        result = await self.send_interaction(
            MODAL_SUBMIT, user, opened.channel, data, message=opened.source_message
        )
        return await self._answered(result, wait)

    # -- plain messages ----------------------------------------------------------------------

    async def send_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """``user`` posts ``content`` in ``channel``: stored, and MESSAGE_CREATE is dispatched
        if the bot's intents ask for it (content blanked without the message_content
        intent, except in DMs and when the bot is mentioned)."""
        message = self.world.new_message(channel, user, content=content)
        self.message_changed(message)
        guild_id = channel.guild.id if channel.guild else None
        try:
            session = self.gateway.session_for(guild_id)
        except RuntimeError:
            return message
        needed = INTENT_GUILD_MESSAGES if guild_id else INTENT_DIRECT_MESSAGES
        if not session.has_intent(needed):
            return message
        payload = message.payload()
        mentioned = self.bot_user.mention in content
        if guild_id and not mentioned and not session.has_intent(INTENT_MESSAGE_CONTENT):
            payload |= {"content": "", "embeds": [], "attachments": [], "components": []}
        if channel.guild is not None:
            member = channel.guild.member(user).payload()
            member.pop("user")
            payload["member"] = member
        await session.dispatch("MESSAGE_CREATE", payload)
        return message

    async def wait_for_message(
        self,
        channel: FakeChannel | None = None,
        *,
        check: Callable[[FakeMessage], bool] | None = None,
        author: FakeUser | None = None,
        after: int = 0,
        timeout: float | None = None,
    ) -> FakeMessage:
        """The first stored message (optionally in ``channel``, by ``author``, passing
        ``check``) created after message number ``after`` (see ``world.message_seq``),
        waiting up to ``timeout`` seconds for one to arrive.

        :raises TimeoutError: none arrived.
        """
        author = author or self.bot_user
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.response_timeout if timeout is None else timeout)

        def found() -> FakeMessage | None:
            pool = channel.messages if channel is not None else self.world.messages.values()
            for message in pool:
                if message.seq <= after or message.deleted or message.author is not author:
                    continue
                if check is None or check(message):
                    return message
            return None

        while (message := found()) is None:
            remaining = deadline - loop.time()
            if remaining <= 0:
                where = channel.name if channel else "any channel"
                raise TimeoutError(f"no matching message from {author.name} in {where}")
            try:
                await asyncio.wait_for(self._messages_changed.wait(), remaining)
            except TimeoutError:
                continue
        return message


def _select_values(
    menu: Json, values: list[Any], world: World, channel: FakeChannel, user: FakeUser
) -> Json:
    custom_id = menu.get("custom_id")
    low, high = menu.get("min_values", 1), menu.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ImpossibleInteraction(
            f"select {custom_id!r} takes {low}-{high} values, got {len(values)}"
        )
    if menu["type"] == 3:
        offered = [o["value"] for o in menu.get("options", [])]
        for value in values:
            if value not in offered:
                raise ImpossibleInteraction(f"select {custom_id!r}: {value!r} not in {offered}")
        return {"values": list(values)}
    resolved: dict[str, dict[str, Json]] = {}
    ids: list[str] = []
    for value in values:
        if isinstance(value, FakeUser) and menu["type"] in (5, 7):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if channel.guild is not None and value.id in channel.guild.members:
                member = channel.guild.members[value.id].payload(with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
        elif isinstance(value, FakeRole) and menu["type"] in (6, 7):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, FakeChannel) and menu["type"] == 8:
            data = value.payload() | {"permissions": str(world.permissions_in(value, user))}
            resolved.setdefault("channels", {})[str(value.id)] = data
        else:
            kind = SELECT_TYPES[menu["type"]]
            raise ImpossibleInteraction(f"{kind} select {custom_id!r} cannot take {value!r}")
        ids.append(str(value.id))
    return {"values": ids, "resolved": resolved}


def _text_value(component: Json, values: dict[str, str | Sequence[str]]) -> Json:
    custom_id = component["custom_id"]
    value = values.pop(custom_id, component.get("value") or "")
    if not isinstance(value, str):
        raise ImpossibleInteraction(f"text input {custom_id!r} takes a string, got {value!r}")
    if component.get("required", True) and not value:
        raise ImpossibleInteraction(f"text input {custom_id!r} is required")
    low, high = component.get("min_length", 0), component.get("max_length", 4000)
    if value and not low <= len(value) <= high:
        raise ImpossibleInteraction(
            f"text input {custom_id!r}: length {len(value)} not in [{low}, {high}]"
        )
    return {"type": 4, "custom_id": custom_id, "value": value}


def _modal_input(component: Json, values: dict[str, str | Sequence[str]]) -> Json | None:
    kind = component.get("type")
    if kind == 4:
        return _text_value(component, values)
    if kind == 3:
        custom_id = component["custom_id"]
        chosen = list(values.pop(custom_id, []))
        offered = [o["value"] for o in component.get("options", [])]
        if any(v not in offered for v in chosen):
            raise ImpossibleInteraction(f"select {custom_id!r}: {chosen} not all in {offered}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if (chosen or component.get("required", True)) and not low <= len(chosen) <= high:
            raise ImpossibleInteraction(f"select {custom_id!r} takes {low}-{high} values: {chosen}")
        return {"type": 3, "custom_id": custom_id, "values": chosen}
    return None


def _modal_components(components: list[Json], values: dict[str, str | Sequence[str]]) -> list[Json]:
    submitted: list[Json] = []
    for component in components:
        if component.get("type") == 1:
            inner = [_modal_input(c, values) for c in component.get("components", [])]
            submitted.append({"type": 1, "components": [c for c in inner if c is not None]})
        elif component.get("type") == 18:
            child = _modal_input(component["component"], values)
            if child is not None:
                submitted.append({"type": 18, "component": child})
    if values:
        raise ImpossibleInteraction(f"the modal has no fields {sorted(values)}")
    return submitted
