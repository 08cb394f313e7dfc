"""What became of one interaction the fake sent: its acknowledgement, messages and edits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .world import FakeAttachment, FakeChannel, FakeMessage, FakeUser, Json

# Interaction types (what the fake sends).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types (what the bot answers).
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

RESPONSE_NAMES = {
    CHANNEL_MESSAGE: "message",
    DEFERRED_CHANNEL_MESSAGE: "deferred message",
    DEFERRED_UPDATE_MESSAGE: "deferred update",
    UPDATE_MESSAGE: "update",
    AUTOCOMPLETE_RESULT: "autocomplete result",
    MODAL: "modal",
}


@dataclass(frozen=True)
class CallbackAttempt:
    """One POST to ``/interactions/{id}/{token}/callback``, accepted or not."""

    elapsed: float
    """Seconds between sending INTERACTION_CREATE and the request."""
    status: int
    """HTTP status the fake answered (204/200 accepted, 404 code 10062, 400 code 40060…)."""
    code: int | None
    """Discord error code when refused."""
    type: int | None
    """The callback type the bot asked for."""


@dataclass
class InitialResponse:
    """The accepted initial response (callback) to an interaction."""

    type: int
    data: Json
    files: list[FakeAttachment] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def name(self) -> str:
        """Readable callback type: "message", "deferred message", "modal", …"""
        return RESPONSE_NAMES.get(self.type, str(self.type))

    @property
    def content(self) -> str:
        """Message content of a type 4/7 response ("" otherwise)."""
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[Json]:
        """Embeds of a type 4/7 response."""
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[Json]:
        """Components of a type 4/7 response (or of the modal for type 9)."""
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        """Message flags requested (64 = ephemeral)."""
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the response (or the deferred placeholder) is ephemeral."""
        return bool(self.flags & 64)

    @property
    def choices(self) -> list[Json]:
        """Autocomplete choices offered (type 8): ``[{"name": ..., "value": ...}, ...]``."""
        return self.data.get("choices") or []


class InteractionResult:
    """The outcome of one interaction, filled in while the bot answers.

    Attributes are live: ``response`` (the accepted callback), ``original`` (the message it
    created, or the component's message for update types), ``followups``, ``callbacks``
    (every callback attempt, including refused ones) and ``original_edits``.
    """

    def __init__(
        self,
        *,
        interaction_id: int,
        token: str,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        payload: Json,
        message: FakeMessage | None,
        default_timeout: float,
        ack_timeout: float = 3.0,
    ) -> None:
        self.id = interaction_id
        self.token = token
        self.kind = kind
        self.user = user
        self.channel = channel
        self.payload = payload
        self.source_message = message
        self.default_timeout = default_timeout
        self.ack_timeout = ack_timeout
        self.dispatched_at: float | None = None
        self.callbacks: list[CallbackAttempt] = []
        self.response: InitialResponse | None = None
        self.original: FakeMessage | None = message
        self.followups: list[FakeMessage] = []
        self.original_edits = 0
        self.expired = False
        self._last_touched: FakeMessage | None = None
        self._changed = asyncio.Event()

    def __repr__(self) -> str:
        response = self.response.name if self.response else None
        return (
            f"<InteractionResult id={self.id} kind={self.kind} response={response}"
            f" followups={len(self.followups)} callbacks={[c.status for c in self.callbacks]}>"
        )

    # -- updates from the server ---------------------------------------------------------

    def notify(self) -> None:
        """Wake everything waiting on this interaction (called by the server)."""
        self._changed.set()
        self._changed = asyncio.Event()

    def touched(self, message: FakeMessage) -> None:
        """Record that ``message`` was created or edited for this interaction."""
        self._last_touched = message
        self.notify()

    # -- reading ---------------------------------------------------------------------------

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.response is not None

    @property
    def can_still_ack(self) -> bool:
        """Whether an accepted callback may still come: none yet and the window is open."""
        if self.response is not None or self.expired:
            return False
        if self.dispatched_at is None:
            return True
        return asyncio.get_running_loop().time() - self.dispatched_at <= self.ack_timeout

    @property
    def choices(self) -> list[Json]:
        """Autocomplete choices the bot offered. :raises AssertionError: no type 8 answer."""
        response = self._require_response()
        if response.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"interaction answered with a {response.name}, not choices")
        return response.choices

    @property
    def modal(self) -> Json:
        """The modal the bot opened (custom_id, title, components).

        :raises AssertionError: the response is not a modal.
        """
        response = self._require_response()
        if response.type != MODAL:
            raise AssertionError(f"interaction answered with a {response.name}, not a modal")
        return response.data

    @property
    def messages(self) -> list[FakeMessage]:
        """The original response message (if any) followed by the followups."""
        first = [self.original] if self.original is not None else []
        return first + self.followups

    def _require_response(self) -> InitialResponse:
        if self.response is None:
            raise AssertionError(f"interaction {self.id} was not acknowledged: {self.callbacks}")
        return self.response

    # -- waiting ---------------------------------------------------------------------------

    async def wait_until(
        self, predicate: Callable[[], bool], what: str, timeout: float | None = None
    ) -> None:
        """Wait until ``predicate()`` holds.

        :raises TimeoutError: not within ``timeout`` seconds (default: the fake's); the
            message says ``what`` was awaited and what happened so far.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.default_timeout if timeout is None else timeout)
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out waiting for {what}; so far: {self!r}")
            try:
                # Wake at least every 50 ms: some predicates depend on the clock.
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.05))
            except TimeoutError:
                continue

    async def wait_callback(self, timeout: float | None = None) -> CallbackAttempt:
        """Wait for the first callback attempt (accepted or refused) and return it."""
        await self.wait_until(lambda: bool(self.callbacks), "a callback", timeout)
        return self.callbacks[0]

    async def wait_response(self, timeout: float | None = None) -> InitialResponse:
        """Wait for an accepted initial response. A callback refused for a bad payload
        (400) leaves the interaction open, as on Discord, so a corrected retry still counts.

        :raises AssertionError: the ack window closed without an accepted callback
            (e.g. the bot answered late and got 10062).
        :raises TimeoutError: still nothing accepted after ``timeout`` seconds.
        """
        await self.wait_until(lambda: not self.can_still_ack, "the initial response", timeout)
        return self._require_response()

    def _settled(self) -> bool:
        response = self.response
        if response is None:
            return not self.can_still_ack
        if response.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
            return True
        return self.original_edits > 0 or bool(self.followups)

    async def final_message(self, timeout: float | None = None) -> FakeMessage:
        """The interaction's message once it is complete.

        For a type 4 or 7 answer that is the message right away; after a defer (type 5 or 6)
        it waits for the edit of the original response or a followup. Returns the message
        created or edited last.

        :raises AssertionError: the callback was refused, or the answer was not a message.
        :raises TimeoutError: the deferred answer was not completed in time.
        """
        await self.wait_until(self._settled, "the final message", timeout)
        response = self._require_response()
        if response.type in (AUTOCOMPLETE_RESULT, MODAL):
            raise AssertionError(f"interaction answered with a {response.name}, not a message")
        message = self._last_touched or self.original
        assert message is not None, "settled without a message"
        return message

    async def wait_followups(
        self, count: int = 1, timeout: float | None = None
    ) -> list[FakeMessage]:
        """Wait until at least ``count`` followups exist; return all of them."""
        await self.wait_until(lambda: len(self.followups) >= count, f"{count} followups", timeout)
        return list(self.followups)

    def summary(self) -> dict[str, Any]:
        """A compact dict of what happened, for assertion messages."""
        return {
            "id": self.id,
            "response": self.response.name if self.response else None,
            "callbacks": [(c.status, c.code) for c in self.callbacks],
            "messages": [m.content[:60] for m in self.messages],
        }
