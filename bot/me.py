"""``/me``: a person's own view across every server — ``/me games`` (every game they sit
in, whose turn it is, their deadline and a link to the game's channel) and ``/me notify``
(how they are told: a channel ping, a DM or both, and quiet hours in their time zone;
the turn ping and the reminders follow them through `bot.notify`).

Both commands work in a DM with the bot too, and answer only the person asking
(ephemeral). Nothing here changes a game.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from math import inf

from bot.actors import Actor
from bot.errors import BadOption
from bot.notify import describe, jump_link, read_quiet_hours, read_zone, zone_suggestions
from bot.outbox import Outbox, Reply
from bot.paging import page_of
from bot.service_core import ServiceCore, chunks, discord_time
from engine.core.model import seat_name
from engine.core.ruleset import get_ruleset
from storage.records import (
    Deadline,
    Game,
    GameStatus,
    PingMode,
    Seat,
    UserSeat,
)

GAMES_PAGE = 8
"""Games per page of ``/me games``."""

ME_GAMES = "me"
"""The custom id action of ``/me games``' page buttons (``ht:0:0:me:<page>``: of no game;
`GameService.click` sends it here)."""

_STATUS_ORDER = {GameStatus.ACTIVE: 0, GameStatus.PAUSED: 1, GameStatus.LOBBY: 2}


class MeMixin(ServiceCore):
    """``/me games`` and ``/me notify`` of the `GameService`."""

    # ------------------------------------------------------------------ /me games
    async def me_games(
        self, actor: Actor, channel_id: int | None, *, page: int | None = None
    ) -> Outbox:
        """``/me games``: every open game ``actor`` sits in, on every server — the active
        ones first, those with a decision deadline of theirs soonest first, then paused
        games and lobbies (each group most recently moved first otherwise) —
        `GAMES_PAGE` per page (``page`` from 1), each with whose
        decision the game waits for, the person's deadline as a Discord timestamp and a
        jump link to its channel. An ephemeral reply (in DMs too), with buttons to the
        pages before and after (`ME_GAMES`).

        :raises BadOption: for a page before the first or past the last one (naming how
            many there are).
        """
        mine = await self.repo.games_for_user(actor.user_id)
        if not mine:
            return Outbox(
                reply=Reply(
                    "You sit in no open game. Open one with /game new in a server channel, "
                    "or take a seat in a lobby there with /game join."
                )
            )
        due = {us.game.id: await self._own_deadline(us) for us in mine}

        def order(us: UserSeat) -> tuple[int, float]:
            when = due[us.game.id]
            return _STATUS_ORDER.get(us.game.status, 3), when.timestamp() if when else inf

        mine.sort(key=order)  # stable: otherwise most recently moved first
        shown = page_of(mine, page, GAMES_PAGE, command="/me games", whose="You have")
        lines = [f"**Your games** ({len(mine)}, on every server)"]
        for us in shown.shown:
            lines += await self._game_lines(us, due[us.game.id])
        lines += shown.footer("/me games")
        buttons = shown.buttons(ME_GAMES)
        return Outbox(reply=Reply(chunks(lines)[0], components=tuple(buttons)))

    async def _own_deadline(self, us: UserSeat) -> datetime | None:
        """The decision deadline of ``us``'s seat in its game, if any."""
        if us.game.status is not GameStatus.ACTIVE:
            return None
        found: list[Deadline] = await self.repo.deadlines(us.game.id)
        return next((d.due_at for d in found if d.seat == us.seat.seat and d.kind == "turn"), None)

    async def _game_lines(self, us: UserSeat, due: datetime | None) -> list[str]:
        """Two lines about one of the person's games for ``/me games``."""
        summary, mine = us.game, us.seat
        title = get_ruleset(summary.ruleset).title
        link = jump_link(summary.guild_id, summary.channel_id)
        head = f"**#{summary.id} {title}** · {seat_name(mine.seat)} · {link}"
        if summary.status is GameStatus.LOBBY:
            return [head, "  in the lobby: the host starts it with /game start"]
        game = await self.repo.get_game(summary.id)
        seats = await self.repo.seats(game.id)
        waiting = self._waiting_for(game, seats, mine)
        paused = "⏸️ paused by a moderator · " if game.status is GameStatus.PAUSED else ""
        when = (
            f" · your deadline {discord_time(due)} ({discord_time(due, 'f')})"
            if due is not None
            else ""
        )
        return [head, f"  {paused}waiting for: {waiting}{when}"]

    def _waiting_for(self, game: Game, seats: list[Seat], mine: Seat) -> str:
        """Who ``game`` waits for, in words (``**you** (Red), Blue (bob)``)."""
        position = self.kept(game)
        names = {s.seat: s for s in seats}
        owing = list(dict.fromkeys(d.seat for d in position.pending))
        if not owing:
            return "nobody (the game is over)" if position.result.finished else "nobody"
        parts = []
        for number in owing:
            seat = names.get(number)
            if number == mine.seat:
                parts.append(f"**you** ({seat_name(number)})")
            elif seat is None or seat.is_ai:
                parts.append(f"{seat_name(number)} (computer)")
            else:
                parts.append(f"{seat_name(number)} ({seat.display_name})")
        return ", ".join(parts)

    # ------------------------------------------------------------------ /me notify
    async def me_notify(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        ping: str | None = None,
        time_zone: str | None = None,
        quiet: str | None = None,
    ) -> Outbox:
        """``/me notify``: show, or change, how ``actor`` is told of a decision and
        reminded (``ping``: ``channel``, ``dm`` or ``both``), their ``time_zone`` (an IANA
        name) and their ``quiet`` hours (``22-7``, ``22:00-07:30``, ``off``) in that zone,
        for every server. Every option is read before anything is saved.

        :raises BadOption: for an unknown ping mode or time zone, or hours that cannot be
            read (nothing is changed then).
        """
        current = (await self.repo.notify_settings([actor.user_id]))[actor.user_id]
        chosen = current
        if ping is not None:
            try:
                chosen = replace(chosen, ping=PingMode(ping.strip().lower()))
            except ValueError:
                raise BadOption(
                    f"ping: is one of channel, dm or both, not {ping.strip()[:20]!r}; "
                    "nothing was changed."
                ) from None
        if time_zone is not None:
            chosen = replace(chosen, time_zone=read_zone(time_zone))
        if quiet is not None:
            hours = read_quiet_hours(quiet)
            start, end = hours if hours is not None else (None, None)
            chosen = replace(chosen, quiet_start=start, quiet_end=end)
        if chosen != current:
            await self.repo.save_notify_settings(chosen)
        moment = self.clock()
        lines = ["✅ Saved." if chosen != current else "Your settings (the same on every server):"]
        lines += describe(chosen, moment)
        if chosen.quiet_start is not None and chosen.time_zone is None:
            lines.append("Quiet hours are read in UTC until you give time-zone:.")
        lines += await self._next_deadline(actor.user_id)
        if chosen == current and ping is None and time_zone is None and quiet is None:
            lines.append(
                "Change them with /me notify ping: time-zone: quiet: (e.g. quiet:22-7, or "
                "quiet:off)."
            )
        return Outbox(reply=Reply(chunks(lines)[0]))

    async def _next_deadline(self, user_id: int) -> list[str]:
        """A line naming the person's soonest decision deadline (quiet hours never move
        it), or none."""
        soonest: tuple[datetime, int] | None = None
        for us in await self.repo.games_for_user(user_id):
            due = await self._own_deadline(us)
            if due is not None and (soonest is None or due < soonest[0]):
                soonest = (due, us.game.id)
        if soonest is None:
            return []
        due, game_id = soonest
        return [
            f"Your next deadline: game #{game_id}, {discord_time(due)} ({discord_time(due, 'f')})."
        ]

    def time_zone_suggestions(self, current: str) -> list[tuple[str, str]]:
        """Autocomplete of ``/me notify time-zone:`` (`bot.notify.zone_suggestions`)."""
        return zone_suggestions(current)
