"""The Discord side of turn reminders and deadlines: a loop that asks the service what is due.

Deadlines and reminders live in the database (`storage` ``deadlines``), so they survive a
restart: every ``interval`` seconds (a minute by default) the loop calls
``service.due_reminders(now)`` and delivers the Outbox it returns (a reminder post that
pings the waiting player, a DM, or what a passed deadline does), then confirms the posts
of held deadlines (``settle``: a reminder not confirmed is posted again, editing the first
in place, so a restart between the two neither loses nor doubles it). What is due, and
what happens then, is the service's decision. One failing tick is logged and the loop
goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime

from discord.ext import tasks

from bot.errors import failure_text
from bot.outbox import Outbox
from storage.records import PostSettle

log = logging.getLogger(__name__)

DueReminders = Callable[..., Awaitable[Outbox | Iterable[Outbox] | None]]
"""``service.due_reminders``: the Outbox (or Outboxes) of everything due at ``now``
(called ``(now)``, or ``(now, held=True)`` when the loop settles the posts)."""

Deliver = Callable[[Outbox], Awaitable[object]]
"""Sends one Outbox (the deliverer, with no interaction)."""

Settle = Callable[[Sequence[PostSettle]], Awaitable[object]]
"""``service.deadline_posts_delivered``: confirms the held deadlines of delivered posts."""


def utc_now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class ReminderLoop:
    """Calls ``due_reminders(now)`` every ``interval`` seconds and delivers the result.

    Args:
        due_reminders: the service's query (see `DueReminders`).
        deliver: sends an Outbox.
        interval: seconds between ticks (60 in production; tests use less).
        clock: the time source (UTC).
        before_first: awaited once before the first tick (the bot's ``wait_until_ready``).
        settle: called with an Outbox's ``settles`` once it was delivered (a reminder
            posted, then confirmed: `bot.deadlines`); None confirms nothing.
    """

    def __init__(
        self,
        due_reminders: DueReminders,
        deliver: Deliver,
        *,
        interval: float = 60.0,
        clock: Callable[[], datetime] = utc_now,
        before_first: Callable[[], Awaitable[object]] | None = None,
        settle: Settle | None = None,
    ) -> None:
        self._due = due_reminders
        self._deliver = deliver
        self._settle = settle
        self._clock = clock
        self._before_first = before_first
        self.ticks = 0
        self._loop = tasks.loop(seconds=interval)(self._tick)
        self._loop.before_loop(self._wait)

    async def _wait(self) -> None:
        if self._before_first is not None:
            await self._before_first()

    async def _tick(self) -> None:
        try:
            await self.tick()
        except Exception as error:  # one bad tick must not stop reminders for every game
            log.error("Reminder tick failed: %s", failure_text(error))

    async def tick(self, now: datetime | None = None) -> int:
        """Deliver everything due at ``now`` (default: the clock); return the Outbox count."""
        moment = now or self._clock()
        found = await (self._due(moment) if self._settle is None else self._due(moment, held=True))
        self.ticks += 1
        if found is None:
            return 0
        outboxes = [found] if isinstance(found, Outbox) else list(found)
        for outbox in outboxes:
            await self._deliver(outbox)
            if outbox.settles and self._settle is not None:
                await self._settle(outbox.settles)
        return len(outboxes)

    def start(self) -> None:
        """Start ticking (the first tick waits for ``before_first``)."""
        if not self._loop.is_running():
            self._loop.start()

    def stop(self) -> None:
        """Stop after the current tick (if any)."""
        self._loop.cancel()

    @property
    def running(self) -> bool:
        """Whether the loop is running."""
        return bool(self._loop.is_running())
