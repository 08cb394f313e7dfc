"""The fake gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME, dispatches.

Sessions outlive connections like Discord's: a connection closed with a code other than
1000/1001 leaves its session resumable, events dispatched meanwhile are buffered and
replayed on RESUME. A clean close (``bot.close()``) ends the session.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .world import FakeGuild, Json, World

HELLO, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT = 10, 1, 2, 3, 4, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 8, 9, 11, 0

#: Intent bits the fake looks at.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


@dataclass
class GatewaySession:
    """One identified gateway session (a bot process or one shard of it)."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    token: str
    seq: int = 0
    connection: GatewayConnection | None = None
    ended: bool = False
    resumes: int = 0
    sent: list[tuple[int, Json]] = field(default_factory=list)

    @property
    def connected(self) -> bool:
        """Whether a live websocket is attached."""
        return self.connection is not None and not self.connection.ws.closed

    def has_intent(self, bit: int) -> bool:
        """Whether the session identified with the intent ``bit``."""
        return bool(self.intents & bit)

    async def dispatch(self, event: str, data: Json) -> None:
        """Send (or, while disconnected, buffer for RESUME) a DISPATCH event."""
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append((self.seq, frame))
        if self.connected:
            assert self.connection is not None
            await self.connection.send(frame)

    async def replay(self, after: int) -> None:
        """Send every buffered event with a sequence number above ``after``."""
        assert self.connection is not None
        for seq, frame in self.sent:
            if seq > after:
                await self.connection.send(frame)


class GatewayConnection:
    """One websocket, before and after it is bound to a session."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self._lock = asyncio.Lock()

    async def send(self, frame: Json) -> None:
        """Send one JSON frame as text (discord.py accepts uncompressed text frames)."""
        async with self._lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(frame))


class GatewayHub:
    """Serves ``/gateway`` and routes dispatches to the right session."""

    def __init__(
        self,
        world: World,
        *,
        url: Callable[[], str],
        shard_count: Callable[[], int],
        heartbeat_interval_ms: int,
        on_violation: Callable[[str, str, str], None],
    ) -> None:
        self.world = world
        self._url = url
        self._shard_count = shard_count
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self._violation = on_violation
        self.sessions: list[GatewaySession] = []
        self.connections: list[GatewayConnection] = []
        self.heartbeats = 0
        self.identifies = 0
        self._ready_waiters: list[asyncio.Future[GatewaySession]] = []

    # -- routing ---------------------------------------------------------------------------

    def shard_of(self, guild_id: int | None) -> int:
        """Discord's shard formula: (guild_id >> 22) % shard_count; DMs go to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self._shard_count()

    def session_for(self, guild_id: int | None) -> GatewaySession:
        """The newest live session serving ``guild_id`` (None: DMs).

        :raises RuntimeError: no bot is connected (or resuming) for that shard.
        """
        shard = self.shard_of(guild_id)
        for session in reversed(self.sessions):
            if not session.ended and session.shard_id == shard:
                return session
        raise RuntimeError(f"no gateway session for shard {shard}: is the bot running?")

    def live_sessions(self) -> list[GatewaySession]:
        """Sessions not ended (connected or resumable)."""
        return [s for s in self.sessions if not s.ended]

    async def dispatch(self, event: str, data: Json, *, guild_id: int | None = None) -> None:
        """Dispatch ``event`` to the session serving ``guild_id``."""
        await self.session_for(guild_id).dispatch(event, data)

    async def wait_ready(self, timeout: float) -> GatewaySession:
        """Wait for the next READY (a new IDENTIFY) and return its session."""
        future: asyncio.Future[GatewaySession] = asyncio.get_running_loop().create_future()
        self._ready_waiters.append(future)
        return await asyncio.wait_for(future, timeout)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on every live connection (the client then RESUMEs)."""
        for connection in list(self.connections):
            await connection.send({"op": RECONNECT, "d": None})

    async def close_all(self) -> None:
        """Close every websocket (server shutdown)."""
        for connection in list(self.connections):
            await connection.ws.close(code=1001)

    # -- the websocket -----------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for ``GET /gateway`` (upgraded to a websocket)."""
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(ws)
        self.connections.append(connection)
        await connection.send(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    self._violation("gateway", "ws", f"unexpected frame type {message.type}")
                    continue
                await self._receive(connection, message.data)
        finally:
            self.connections.remove(connection)
            self._closed(connection, ws.close_code)
        return ws

    def _closed(self, connection: GatewayConnection, code: int | None) -> None:
        session = connection.session
        if session is None or session.connection is not connection:
            return
        session.connection = None
        if code in (1000, 1001):
            session.ended = True

    async def _receive(self, connection: GatewayConnection, raw: str) -> None:
        try:
            frame = json.loads(raw)
            op, data = frame["op"], frame.get("d")
        except (ValueError, KeyError, TypeError) as exc:
            self._violation("gateway", "ws", f"malformed frame {raw[:200]!r}: {exc}")
            return
        if op == HEARTBEAT:
            connection.heartbeats += 1
            self.heartbeats += 1
            await connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            await self._request_members(connection, data)
        elif op not in (PRESENCE, VOICE):
            self._violation("gateway", "ws", f"unknown op {op}: {raw[:200]}")

    async def _identify(self, connection: GatewayConnection, data: Any) -> None:
        self.identifies += 1
        shard_id, shard_count = (data.get("shard") or [0, 1]) if isinstance(data, dict) else (0, 1)
        if not isinstance(data, dict) or not data.get("token"):
            self._violation("gateway", "IDENTIFY", f"bad identify payload {data!r}")
            await connection.ws.close(code=4004)
            return
        if shard_count != self._shard_count() or not 0 <= shard_id < shard_count:
            self._violation("gateway", "IDENTIFY", f"shard {[shard_id, shard_count]} invalid")
            await connection.ws.close(code=4010)
            return
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            shard_id=shard_id,
            shard_count=shard_count,
            intents=int(data.get("intents", 0)),
            token=data["token"],
            connection=connection,
        )
        connection.session = session
        self.sessions.append(session)
        await session.dispatch("READY", self._ready_payload(session))
        for guild in self.world.guilds.values():
            if self.shard_of(guild.id) == shard_id:
                await session.dispatch("GUILD_CREATE", self._guild_create(session, guild))
        for future in self._ready_waiters:
            if not future.done():
                future.set_result(session)
        self._ready_waiters.clear()

    def _guild_create(self, session: GatewaySession, guild: FakeGuild) -> Json:
        """GUILD_CREATE: every member with the GUILD_MEMBERS intent, else only the bot's own
        (as Discord does; ``member_count`` is always the full count)."""
        data = guild.payload()
        if not session.has_intent(INTENT_GUILD_MEMBERS):
            bot_id = str(self.world.bot_user.id)
            data["members"] = [m for m in data["members"] if m["user"]["id"] == bot_id]
        return data

    def _ready_payload(self, session: GatewaySession) -> Json:
        user = self.world.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
        }
        return {
            "v": 10,
            "user": user,
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in self.world.guilds.values()
                if self.shard_of(g.id) == session.shard_id
            ],
            "session_id": session.session_id,
            "resume_gateway_url": self._url(),
            "shard": [session.shard_id, session.shard_count],
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }

    async def _resume(self, connection: GatewayConnection, data: Any) -> None:
        wanted = data.get("session_id") if isinstance(data, dict) else None
        session = next(
            (
                s
                for s in self.sessions
                if s.session_id == wanted and not s.ended and not s.connected
            ),
            None,
        )
        if session is None:
            await connection.send({"op": INVALID_SESSION, "d": False})
            return
        session.connection = connection
        session.resumes += 1
        connection.session = session
        await session.replay(int(data.get("seq") or 0))
        await session.dispatch("RESUMED", {})

    async def _request_members(self, connection: GatewayConnection, data: Any) -> None:
        session = connection.session
        guild = self.world.guilds.get(int(data.get("guild_id", 0))) if session else None
        if session is None or guild is None:
            self._violation("gateway", "REQUEST_GUILD_MEMBERS", f"bad request {data!r}")
            return
        query = (data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.id in wanted) and m.user.name.lower().startswith(query)
        ]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
