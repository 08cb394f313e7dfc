"""The fake's REST API under ``/api/v10``: login, command sync, channels, messages, DMs,
threads, interaction callbacks and webhooks (followups), with fault injection."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from .faults import RateLimitRule
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    CallbackAttempt,
    InitialResponse,
    InteractionResult,
)
from .limits import Problem, autocomplete_problems, command_problems, modal_problems
from .messages import Body, MessageWriter, UploadedFile, read_body
from .world import (
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeMessage,
    Json,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
MANAGE_MESSAGES = discord.Permissions(manage_messages=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
CREATE_PRIVATE_THREADS = discord.Permissions(create_private_threads=True).value

#: Which callback types each interaction type may receive.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response with ``Content-Type: application/json`` exactly (no charset: discord.py
    compares the header verbatim and would otherwise treat the body as text)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error_response(
    status: int, code: int, message: str, problems: list[Problem] | None = None
) -> web.Response:
    """A Discord error body; ``problems`` become the ``errors`` tree discord.py flattens."""
    body: Json = {"message": message, "code": code}
    if problems:
        body["errors"] = {
            path: {"_errors": [{"code": "FAKE_DISCORD_LIMIT", "message": text}]}
            for path, text in problems
        }
    return json_response(body, status)


def no_content() -> web.Response:
    """204 No Content."""
    return web.Response(status=204)


class RestApi:
    """The REST routes; state lives on the FakeDiscord it serves."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world
        self.writer = MessageWriter(fake.world)

    # -- plumbing --------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        """Every endpoint the fake serves."""
        a = API
        return [
            web.get(f"{a}/users/@me", self.get_me),
            web.get(f"{a}/users/{{user_id}}", self.get_user),
            web.post(f"{a}/users/@me/channels", self.create_dm),
            web.get(f"{a}/oauth2/applications/@me", self.get_application),
            web.get(f"{a}/applications/@me", self.get_application),
            web.get(f"{a}/gateway", self.get_gateway),
            web.get(f"{a}/gateway/bot", self.get_gateway_bot),
            web.put(f"{a}/applications/{{app_id}}/commands", self.put_commands),
            web.get(f"{a}/applications/{{app_id}}/commands", self.get_commands),
            web.put(f"{a}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.put_commands),
            web.get(f"{a}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.get_commands),
            web.get(f"{a}/channels/{{channel_id}}", self.get_channel),
            web.patch(f"{a}/channels/{{channel_id}}", self.edit_channel),
            web.post(f"{a}/channels/{{channel_id}}/typing", self.typing),
            web.get(f"{a}/channels/{{channel_id}}/messages", self.list_messages),
            web.post(f"{a}/channels/{{channel_id}}/messages", self.create_message),
            web.get(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.get_message),
            web.patch(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.edit_message),
            web.delete(f"{a}/channels/{{channel_id}}/messages/{{message_id}}", self.delete_message),
            web.put(
                f"{a}/channels/{{channel_id}}/messages/{{message_id}}/reactions/{{emoji}}/@me",
                self.add_reaction,
            ),
            web.delete(
                f"{a}/channels/{{channel_id}}/messages/{{message_id}}/reactions/{{emoji}}/@me",
                self.remove_reaction,
            ),
            web.post(f"{a}/channels/{{channel_id}}/threads", self.create_thread),
            web.post(
                f"{a}/channels/{{channel_id}}/messages/{{message_id}}/threads", self.create_thread
            ),
            web.put(
                f"{a}/channels/{{channel_id}}/thread-members/{{user_id}}", self.add_thread_member
            ),
            web.get(f"{a}/guilds/{{guild_id}}", self.get_guild),
            web.get(f"{a}/guilds/{{guild_id}}/channels", self.get_guild_channels),
            web.get(f"{a}/guilds/{{guild_id}}/roles", self.get_roles),
            web.get(f"{a}/guilds/{{guild_id}}/members", self.list_members),
            web.get(f"{a}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member),
            web.post(f"{a}/interactions/{{interaction_id}}/{{token}}/callback", self.callback),
            web.post(f"{a}/webhooks/{{app_id}}/{{token}}", self.followup),
            web.get(
                f"{a}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.get_webhook_message,
            ),
            web.patch(
                f"{a}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.edit_webhook_message,
            ),
            web.delete(
                f"{a}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.delete_webhook_message,
            ),
            web.get("/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Rate-limit injection, unhandled-route detection and the request log."""
        if not request.path.startswith(API):
            return await handler(request)
        path = request.path[len(API) :]
        limited = [rule for rule in self.fake.rate_limits if rule.matches(request.method, path)]
        if any([rule.take() for rule in limited]):
            self.fake.record_request(request.method, path, 429)
            return self._rate_limited(next(r for r in limited if r.served))
        if request.match_info.http_exception is not None:
            detail = "the fake (and maybe Discord) has no such endpoint"
            self.fake.violation("unhandled_route", f"{request.method} {path}", detail)
            self.fake.record_request(request.method, path, 404)
            return error_response(404, 0, "404: Not Found")
        response = await handler(request)
        self.fake.record_request(request.method, path, response.status)
        return response

    @staticmethod
    def _rate_limited(rule: RateLimitRule) -> web.Response:
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(math.ceil(rule.retry_after)),
            "X-RateLimit-Scope": "global" if rule.is_global else "user",
        }
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": rule.retry_after}
        return json_response(body | {"global": rule.is_global, "code": 0}, 429, headers)

    def _refuse(self, route: str, problems: list[Problem]) -> web.Response:
        for path, text in problems:
            self.fake.violation("limit", route, f"{path}: {text}")
        return error_response(400, 50035, "Invalid Form Body", problems)

    def _channel(self, request: web.Request) -> FakeChannel | None:
        return self.world.channels.get(int(request.match_info["channel_id"]))

    def _message(self, channel: FakeChannel, request: web.Request) -> FakeMessage | None:
        message = self.world.messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.channel is not channel
            or message.deleted
            or message.ephemeral
        ):
            return None
        return message

    # -- users, application, gateway -----------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        """``GET /users/@me``: the bot user (login)."""
        me = self.world.bot_user.payload() | {"verified": True, "mfa_enabled": False}
        return json_response(me)

    async def get_user(self, request: web.Request) -> web.Response:
        """``GET /users/{id}``."""
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            return error_response(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        """``POST /users/@me/channels``: open (or reuse) the DM channel with a user."""
        body = await read_body(request)
        user = self.world.users.get(int(body.json.get("recipient_id", 0)))
        if user is None or user is self.world.bot_user:
            return error_response(400, 50033, "Invalid Recipient(s)")
        return json_response(self.world.dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        """``GET /oauth2/applications/@me``: application info (gives the application id)."""
        bot = self.world.bot_user
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot": bot.payload(),
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.world.app_owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "rpc_origins": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """``GET /gateway``."""
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """``GET /gateway/bot`` (used by AutoShardedBot): url, shard count, session limits."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.shard_count,
                "session_start_limit": limit,
            }
        )

    # -- application commands ----------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | web.Response | None:
        if int(request.match_info["app_id"]) != self.world.application_id:
            return error_response(403, 50001, "Missing Access")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        if int(guild_id) not in self.world.guilds:
            return error_response(403, 50001, "Missing Access")
        return int(guild_id)

    async def put_commands(self, request: web.Request) -> web.Response:
        """``PUT .../commands``: bulk overwrite, validated against Discord's limits."""
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        body = await read_body(request)
        commands = body.data if isinstance(body.data, list) else []
        label = "global" if scope is None else f"guild {scope}"
        problems = body.problems + command_problems(commands, scope=label)
        if not isinstance(body.data, list):
            problems.append(("body", "expected a JSON array of commands"))
        if problems:
            return self._refuse(_route(request), problems)
        return json_response(self.fake.store_commands(scope, commands))

    async def get_commands(self, request: web.Request) -> web.Response:
        """``GET .../commands``: what was synced."""
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        return json_response(self.fake.commands(scope))

    # -- channels and messages ----------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}``."""
        channel = self._channel(request)
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        return json_response(channel.payload())

    async def typing(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/typing``."""
        return (
            no_content()
            if self._channel(request)
            else error_response(404, 10003, "Unknown Channel")
        )

    def _send_refusal(
        self, channel: FakeChannel, files: dict[int, UploadedFile]
    ) -> web.Response | None:
        if channel.is_private:  # the bot is not in a group DM of people
            return error_response(403, 50001, "Missing Access")
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.dms_open or channel.recipient.bot:
                return error_response(403, 50007, "Cannot send messages to this user")
            return None
        if channel.is_forum:  # a forum holds posts (threads), no messages of its own
            return error_response(400, 50008, "Cannot send messages in a non-text channel")
        perms = self.world.permissions_in(channel, self.world.bot_user)
        needed = VIEW_CHANNEL | (SEND_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        if files:
            needed |= ATTACH_FILES
        if perms & needed != needed:
            return error_response(403, 50013, "Missing Permissions")
        return None

    async def create_message(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/messages`` (JSON or multipart with files)."""
        channel = self._channel(request)
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        body = await read_body(request)
        refusal = self._send_refusal(channel, body.files)
        if refusal is not None:
            return refusal
        created = self.writer.create(channel, self.world.bot_user, body.json, body.files)
        if isinstance(created, list):
            return self._refuse(_route(request), body.problems + created)
        self.fake.message_changed(created)
        return json_response(created.payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages`` (limit, before, after): newest first."""
        channel = self._channel(request)
        if channel is None:
            return error_response(404, 10003, "Unknown Channel")
        messages = channel.public_messages()
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        newest = list(reversed(messages))
        if "after" in request.query:
            newest = list(reversed(messages[:limit]))
        return json_response([m.payload() for m in newest[:limit]])

    async def get_message(self, request: web.Request) -> web.Response:
        """``GET /channels/{id}/messages/{id}``."""
        channel = self._channel(request)
        message = channel and self._message(channel, request)
        if not message:
            return error_response(404, 10008, "Unknown Message")
        return json_response(message.payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{id}/messages/{id}``: only the bot's own messages."""
        channel = self._channel(request)
        message = channel and self._message(channel, request)
        if not message:
            return error_response(404, 10008, "Unknown Message")
        if message.author is not self.world.bot_user:
            return error_response(403, 50005, "Cannot edit a message authored by another user")
        body = await read_body(request)
        problems = body.problems + self.writer.edit(message, body.json, body.files)
        if problems:
            return self._refuse(_route(request), problems)
        self.fake.message_changed(message)
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        """``DELETE /channels/{id}/messages/{id}``: own messages, or with Manage Messages."""
        channel = self._channel(request)
        message = channel and self._message(channel, request)
        if not message or channel is None:
            return error_response(404, 10008, "Unknown Message")
        own = message.author is self.world.bot_user
        can_manage = self.world.permissions_in(channel, self.world.bot_user) & MANAGE_MESSAGES
        if not own and (channel.is_dm or not can_manage):
            return error_response(403, 50003 if channel.is_dm else 50013, "Missing Permissions")
        message.deleted = True
        self.fake.message_changed(message)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        """``PUT .../reactions/{emoji}/@me``."""
        channel = self._channel(request)
        message = channel and self._message(channel, request)
        if not message:
            return error_response(404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        """``DELETE .../reactions/{emoji}/@me``."""
        channel = self._channel(request)
        message = channel and self._message(channel, request)
        if not message:
            return error_response(404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return no_content()

    async def create_thread(self, request: web.Request) -> web.Response:
        """``POST /channels/{id}/threads`` and ``.../messages/{id}/threads`` (the thread then
        takes the message's id, as on Discord); dispatches THREAD_CREATE. Under a text
        channel the bot needs Create Public Threads (Create Private Threads for a private
        one); in a forum channel, Send Messages, and the body's ``message`` becomes the
        post's starter message (its id is the thread's, as on Discord; answered with the
        thread under ``message``)."""
        parent = self._channel(request)
        if parent is None or parent.guild is None or parent.is_thread:
            return error_response(404, 10003, "Unknown Channel")
        body = await read_body(request)
        name = body.json.get("name") or ""
        if not 1 <= len(name) <= 100:
            return self._refuse(_route(request), [("name", "must be 1-100 characters")])
        private = body.json.get("type") == PRIVATE_THREAD and not parent.is_forum
        perms = self.world.permissions_in(parent, self.world.bot_user)
        if parent.is_forum:
            needed = VIEW_CHANNEL | SEND_MESSAGES
        else:
            needed = VIEW_CHANNEL | (CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        if perms & needed != needed:
            return error_response(403, 50013, "Missing Permissions")
        starter = body.json.get("message")
        if parent.is_forum and not isinstance(starter, dict):
            return self._refuse(_route(request), [("message", "a forum post needs a message")])
        tags = body.json.get("applied_tags") or []
        problems = _tag_problems(parent, tags) if parent.is_forum else []
        if problems:
            return self._refuse(_route(request), problems)
        thread = parent.guild.create_thread(parent, name, private=private)
        thread.applied_tags = [int(t) for t in tags]
        if "message_id" in request.match_info:
            source = self._message(parent, request)
            if source is None:
                return error_response(404, 10008, "Unknown Message")
            self._rekey_channel(thread, source.id)
        first = None
        if parent.is_forum:
            assert isinstance(starter, dict)
            made = self.writer.create(thread, self.world.bot_user, starter, body.files)
            if isinstance(made, list):
                return self._refuse(_route(request), body.problems + made)
            first = made
            self._rekey_channel(thread, first.id)
        payload = thread.payload() | {"newly_created": True}
        await self.fake.dispatch_quietly("THREAD_CREATE", payload, guild_id=parent.guild.id)
        answer = thread.payload() | {"type": PRIVATE_THREAD if private else PUBLIC_THREAD}
        if first is not None:
            self.fake.message_changed(first)
            answer["message"] = first.payload()
        return json_response(answer)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """``PUT /channels/{id}/thread-members/{user}``: add a member of the server to a
        thread the bot may post in (kept in ``thread_members``, once)."""
        thread = self._channel(request)
        if thread is None or not thread.is_thread or thread.guild is None:
            return error_response(404, 10003, "Unknown Channel")
        user_id = int(request.match_info["user_id"])
        if user_id not in thread.guild.members:
            return error_response(404, 10013, "Unknown User")
        perms = self.world.permissions_in(thread, self.world.bot_user)
        if perms & (VIEW_CHANNEL | SEND_IN_THREADS) != VIEW_CHANNEL | SEND_IN_THREADS:
            return error_response(403, 50013, "Missing Permissions")
        if user_id not in thread.thread_members:
            thread.thread_members.append(user_id)
        return no_content()

    async def edit_channel(self, request: web.Request) -> web.Response:
        """``PATCH /channels/{id}``: a new ``name`` (1-100 characters) for a thread the bot
        made or may manage (Manage Threads), or a channel it may manage (Manage Channels),
        and ``applied_tags`` for a forum post (`_tag_problems`); dispatches THREAD_UPDATE
        or CHANNEL_UPDATE."""
        channel = self._channel(request)
        if channel is None or channel.guild is None:
            return error_response(404, 10003, "Unknown Channel")
        perms = self.world.permissions_in(channel, self.world.bot_user)
        owns = channel.is_thread and channel.owner_id == self.world.bot_user.id
        may = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        if not owns and perms & may != may:
            return error_response(403, 50013, "Missing Permissions")
        body = await read_body(request)
        name = body.json.get("name", channel.name)
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            return self._refuse(_route(request), [("name", "must be 1-100 characters")])
        tags = body.json.get("applied_tags")
        if tags is not None:
            forum = channel.parent if channel.is_thread else None
            if forum is None or not forum.is_forum:
                return self._refuse(_route(request), [("applied_tags", "only a forum post")])
            problems = _tag_problems(forum, tags)
            if problems:
                return self._refuse(_route(request), problems)
            channel.applied_tags = [int(t) for t in tags]
        channel.name = name
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self.fake.dispatch_quietly(event, channel.payload(), guild_id=channel.guild.id)
        return json_response(channel.payload())

    def _rekey_channel(self, channel: FakeChannel, new_id: int) -> None:
        del self.world.channels[channel.id]
        assert channel.guild is not None
        del channel.guild.channels[channel.id]
        channel.id = new_id
        self.world.register_channel(channel)

    async def get_attachment(self, request: web.Request) -> web.Response:
        """``GET /attachments/...``: the CDN serving attachment bytes."""
        attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        ctype = attachment.content_type or "application/octet-stream"
        return web.Response(body=attachment.data, headers={"Content-Type": ctype})

    # -- guilds ----------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> Any:
        return self.world.guilds.get(int(request.match_info["guild_id"]))

    async def get_guild(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}``."""
        guild = self._guild(request)
        if guild is None:
            return error_response(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        data["approximate_member_count"] = len(guild.members)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/channels``."""
        guild = self._guild(request)
        if guild is None:
            return error_response(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def get_roles(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/roles``."""
        guild = self._guild(request)
        if guild is None:
            return error_response(404, 10004, "Unknown Guild")
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/members`` (limit, after)."""
        guild = self._guild(request)
        if guild is None:
            return error_response(404, 10004, "Unknown Guild")
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return json_response([m.payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        """``GET /guilds/{id}/members/{user_id}``."""
        guild = self._guild(request)
        if guild is None:
            return error_response(404, 10004, "Unknown Guild")
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            return error_response(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- interactions ------------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        """``POST /interactions/{id}/{token}/callback``: the initial response, with the
        acknowledgement deadline (10062), the single-ack rule (40060) and limits enforced."""
        result = self.fake.interaction_by_id(int(request.match_info["interaction_id"]))
        route = _route(request)
        if result is None or result.token != request.match_info["token"]:
            self.fake.violation("unknown_interaction", route, "no interaction with that id/token")
            return error_response(404, 10062, "Unknown interaction")
        body = await read_body(request)
        kind = body.json.get("type")
        elapsed = asyncio_time() - (result.dispatched_at or 0.0)

        def attempt(status: int, code: int | None) -> None:
            result.callbacks.append(CallbackAttempt(elapsed, status, code, kind))
            result.notify()

        if result.response is not None:
            self.fake.violation(
                "double_ack", route, f"second callback (type {kind}) for {result.id}"
            )
            attempt(400, 40060)
            return error_response(400, 40060, "Interaction has already been acknowledged.")
        if result.expired or elapsed > result.ack_timeout:
            result.expired = True
            detail = f"callback type {kind} after {elapsed:.3f}s > {result.ack_timeout}s"
            self.fake.violation("late_ack", route, detail)
            attempt(404, 10062)
            return error_response(404, 10062, "Unknown interaction")
        if kind not in ALLOWED_CALLBACKS.get(result.kind, set()):
            detail = f"callback type {kind} is not valid for interaction type {result.kind}"
            self.fake.violation("bad_response", route, detail)
            attempt(400, 50035)
            return error_response(400, 50035, "Invalid Form Body", [("type", detail)])
        response = await self._respond(result, kind, body, route)
        attempt(response.status, None if response.status < 300 else 50035)
        return response

    def _interaction_message(
        self, result: InteractionResult, payload: Json, files: Any, extra_flags: int
    ) -> FakeMessage | list[Problem]:
        return self.writer.create(
            result.channel,
            self.world.bot_user,
            payload,
            files,
            extra_flags=extra_flags,
            type=20 if result.kind == APPLICATION_COMMAND else 0,
            webhook_id=self.world.application_id,
            application_id=self.world.application_id,
            interaction_metadata=self.fake.interaction_metadata(result),
        )

    async def _respond(
        self, result: InteractionResult, kind: int, body: Body, route: str
    ) -> web.Response:
        data = body.json.get("data") or {}
        problems: list[Problem] = list(body.problems)
        files: list[Any] = []
        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            made = self._interaction_message(result, data, body.files, 0)
            if isinstance(made, list):
                return self._refuse(route, problems + made)
            message = made
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)
            message = self.world.new_message(
                result.channel,
                self.world.bot_user,
                flags=flags,
                type=20 if result.kind == APPLICATION_COMMAND else 0,
                webhook_id=self.world.application_id,
                application_id=self.world.application_id,
                interaction_metadata=self.fake.interaction_metadata(result),
            )
        elif kind == UPDATE_MESSAGE:
            message = result.source_message
            if message is None:
                return self._refuse(route, [("type", "UPDATE_MESSAGE needs a message")])
            problems += self.writer.edit(message, data, body.files)
            if problems:
                return self._refuse(route, problems)
        elif kind == DEFERRED_UPDATE_MESSAGE:
            message = result.source_message
            if message is None:
                return self._refuse(route, [("type", "DEFERRED_UPDATE_MESSAGE needs a message")])
        elif kind == AUTOCOMPLETE_RESULT:
            problems += autocomplete_problems(data.get("choices") or [])
        elif kind == MODAL:
            problems += modal_problems(data)
        if problems:
            return self._refuse(route, problems)
        if message is not None:
            files = message.attachments if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE) else []
            result.original = message
        elapsed = asyncio_time() - (result.dispatched_at or 0.0)
        result.response = InitialResponse(kind, data, list(files), elapsed=elapsed)
        if message is not None and kind != DEFERRED_UPDATE_MESSAGE:
            self.fake.message_changed(message)
            result.touched(message)
        return self._callback_body(result, kind, message)

    @staticmethod
    def _callback_body(
        result: InteractionResult, kind: int, message: FakeMessage | None
    ) -> web.Response:
        interaction: Json = {"id": str(result.id), "type": result.kind}
        body: Json = {"interaction": interaction}
        if message is not None and kind != DEFERRED_UPDATE_MESSAGE:
            interaction |= {
                "response_message_id": str(message.id),
                "response_message_loading": message.loading,
                "response_message_ephemeral": message.ephemeral,
            }
            body["resource"] = {"type": kind, "message": message.payload()}
        else:
            body["resource"] = {"type": kind}
        return json_response(body)

    def _webhook_result(self, request: web.Request) -> InteractionResult | web.Response:
        result = self.fake.interaction_by_token(request.match_info["token"])
        route = _route(request)
        if int(request.match_info["app_id"]) != self.world.application_id or result is None:
            self.fake.violation("unknown_webhook", route, "no interaction with that token")
            return error_response(404, 10015, "Unknown Webhook")
        if result.response is None or result.expired:
            self.fake.violation(
                "unknown_webhook", route, f"interaction {result.id} was never acknowledged"
            )
            return error_response(404, 10015, "Unknown Webhook")
        return result

    async def followup(self, request: web.Request) -> web.Response:
        """``POST /webhooks/{app}/{token}``: a followup message (after the acknowledgement).

        Right after a type 5 defer, Discord does not create a message: the followup edits
        the loading message, keeping the defer's ephemeral flag (documented, deprecated
        behaviour that discord.py's ``defer()`` + ``followup.send()`` relies on).
        """
        result = self._webhook_result(request)
        if isinstance(result, web.Response):
            return result
        body = await read_body(request)
        payload = dict(body.json)
        original = result.original
        if original is not None and original.loading and not original.deleted:
            payload.pop("flags", None)
            problems = body.problems + self.writer.edit(original, payload, body.files)
            if problems:
                return self._refuse(_route(request), problems)
            result.original_edits += 1
            message = original
        else:
            made = self._interaction_message(result, payload, body.files, 0)
            if isinstance(made, list):
                return self._refuse(_route(request), body.problems + made)
            result.followups.append(made)
            message = made
        self.fake.message_changed(message)
        result.touched(message)
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(message.payload())
        return no_content()

    def _webhook_message(self, result: InteractionResult, ident: str) -> FakeMessage | None:
        if ident == "@original":
            original = result.original
            if result.response is None or result.response.type in (AUTOCOMPLETE_RESULT, MODAL):
                return None
            return original if original is not None and not original.deleted else None
        return next((m for m in result.followups if str(m.id) == ident and not m.deleted), None)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """``GET /webhooks/{app}/{token}/messages/{id|@original}``."""
        result = self._webhook_result(request)
        if isinstance(result, web.Response):
            return result
        message = self._webhook_message(result, request.match_info["message_id"])
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        return json_response(message.payload())

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """``PATCH /webhooks/{app}/{token}/messages/{id|@original}``: edit the response."""
        result = self._webhook_result(request)
        if isinstance(result, web.Response):
            return result
        ident = request.match_info["message_id"]
        message = self._webhook_message(result, ident)
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        body = await read_body(request)
        problems = body.problems + self.writer.edit(message, body.json, body.files)
        if problems:
            return self._refuse(_route(request), problems)
        if ident == "@original":
            result.original_edits += 1
        self.fake.message_changed(message)
        result.touched(message)
        return json_response(message.payload())

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """``DELETE /webhooks/{app}/{token}/messages/{id|@original}``."""
        result = self._webhook_result(request)
        if isinstance(result, web.Response):
            return result
        message = self._webhook_message(result, request.match_info["message_id"])
        if message is None:
            return error_response(404, 10008, "Unknown Message")
        message.deleted = True
        self.fake.message_changed(message)
        result.notify()
        return no_content()


def _route(request: web.Request) -> str:
    """``METHOD /template`` of the matched route (ids and tokens left as placeholders)."""
    resource = request.match_info.route.resource
    template = resource.canonical if resource is not None else request.path
    return f"{request.method} {template.removeprefix(API)}"


def asyncio_time() -> float:
    """The running loop's clock (the one ack deadlines are measured on)."""
    return asyncio.get_running_loop().time()


def _tag_problems(forum: FakeChannel, tags: Any) -> list[tuple[str, str]]:
    """What Discord refuses in a forum post's ``applied_tags``: not a list, more than 5,
    a repeated one, or an id that is not one of the forum's tags."""
    if not isinstance(tags, list):
        return [("applied_tags", "must be a list of tag ids")]
    known = {str(t["id"]) for t in forum.available_tags}
    problems = []
    if len(tags) > 5:
        problems.append(("applied_tags", f"{len(tags)} tags, at most 5"))
    if len(set(map(str, tags))) != len(tags):
        problems.append(("applied_tags", "a tag is applied twice"))
    unknown = [t for t in tags if str(t) not in known]
    if unknown:
        problems.append(("applied_tags", f"{unknown} are not tags of #{forum.name}"))
    return problems
