"""How and when a person is told about their games: the ping mode and the quiet hours of
``/me notify`` (`storage.records.NotifySettings`), asked by the turn ping and the reminders.

Pure functions of a person's settings and a moment (timezone-aware UTC): `reminder_plan`
says whether a reminder goes out now, and where (the game's channel, a DM or both), or
until when quiet hours hold it; `pinged_in_channel` says whether the channel line of a new
decision pings them. Quiet hours hold reminders only: a deadline is never moved by them.

Time zones are IANA names (``Europe/Berlin``) through the standard library's `zoneinfo`
(the system's time zone database, or the ``tzdata`` package where the system has none).
Typed options are read here too, with a clear refusal for what cannot be read
(`read_zone`, `read_quiet_hours`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.errors import BadOption
from bot.outbox import ChannelPost, DirectMessage, Outbox
from storage.records import Game, NotifySettings, PingMode, Seat
from storage.repository import Repository

MINUTES_PER_DAY = 24 * 60
"""Quiet hours are stored as minutes after local midnight, 0..1439."""

_QUIET = re.compile(
    r"^\s*(?P<sh>\d{1,2})(?::(?P<sm>\d{2}))?\s*(?:-|–|to)\s*(?P<eh>\d{1,2})(?::(?P<em>\d{2}))?\s*$",
    re.IGNORECASE,
)
"""``22-7``, ``22:00-07:30``, ``22:00 to 7:00``."""

QUIET_OFF = frozenset({"off", "none", "no"})
"""What ``quiet:`` accepts to clear the quiet hours."""


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name the system knows, sorted (read once)."""
    return tuple(sorted(available_timezones() | {"UTC"}))


@cache
def _zones_by_folded_name() -> dict[str, str]:
    return {name.casefold(): name for name in zone_names()}


def read_zone(text: str) -> str:
    """The IANA time zone ``text`` names, spelled in any case (``europe/berlin``), or by
    its city alone when only one zone has that city (``berlin``, ``new york``).

    :raises BadOption: for a name the time zone database does not have (with the zones
        whose names start or contain it, else examples).
    """
    folded = text.strip().replace(" ", "_").casefold()
    name = _zones_by_folded_name().get(folded)
    if name is None and folded and "/" not in folded:
        cities = [n for n in zone_names() if "/" in n and n.casefold().rsplit("/", 1)[1] == folded]
        name = cities[0] if len(cities) == 1 else None
    if name is None:
        near = [n for n, _ in zone_suggestions(text, 3)] if folded else []
        hint = (
            f"Did you mean {' or '.join(near)}?"
            if near
            else "Use an IANA name such as Europe/Berlin, America/New_York or Asia/Tokyo."
        )
        raise BadOption(
            f"{text.strip()[:64]!r} is not a time zone I know. {hint} (Start typing to see "
            "suggestions.) Nothing was changed."
        )
    return name


def zone_suggestions(current: str, limit: int = 25) -> list[tuple[str, str]]:
    """Up to ``limit`` ``(name, value)`` time zones containing ``current`` (any case;
    ``new york`` finds America/New_York), those starting with it first."""
    needle = current.strip().replace(" ", "_").casefold()
    names = zone_names()
    starting = [n for n in names if n.casefold().startswith(needle)]
    inside = [n for n in names if needle in n.casefold() and n not in starting]
    if "/" not in needle:  # "berlin" starts the city part of Europe/Berlin
        starting = [n for n in names if n.casefold().split("/")[-1].startswith(needle)] + [
            n for n in starting if not n.casefold().split("/")[-1].startswith(needle)
        ]
        inside = [n for n in inside if n not in starting]
    return [(n, n) for n in [*starting, *inside][:limit]]


def _minutes(hours: str, minutes: str | None, text: str) -> int:
    hour, minute = int(hours), int(minutes or 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise BadOption(
            f"{text.strip()!r}: {hours}:{minutes or '00'} is not a time of day (hours 0-23, "
            "minutes 0-59); nothing was changed."
        )
    return hour * 60 + minute


def read_quiet_hours(text: str) -> tuple[int, int] | None:
    """Quiet hours typed as ``22-7``, ``22:00-07:30`` or ``22:00 to 7:00`` (local time), as
    minutes after midnight ``(start, end)``; None for ``off`` (no quiet hours).

    :raises BadOption: for a text that is no such range, a time that is no time of day
        (``25:00``, ``7:75``), or a range that starts where it ends.
    """
    if text.strip().casefold() in QUIET_OFF:
        return None
    match = _QUIET.match(text)
    if match is None:
        raise BadOption(
            f"{text.strip()[:40]!r} is not a range of hours: write it like 22-7 or "
            "22:00-07:30 (from, to; local time), or off; nothing was changed."
        )
    start = _minutes(match["sh"], match["sm"], text)
    end = _minutes(match["eh"], match["em"], text)
    if start == end:
        raise BadOption(
            f"Quiet hours from {clock_text(start)} to {clock_text(end)} would be empty; give "
            "two different times, or off; nothing was changed."
        )
    return start, end


def clock_text(minutes: int) -> str:
    """Minutes after midnight as ``HH:MM``."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def zone_of(settings: NotifySettings) -> tzinfo:
    """The person's time zone: UTC when they chose none, or when the time zone database
    no longer knows it (or the host has none: then every name but UTC is refused)."""
    if settings.time_zone and settings.time_zone != "UTC":
        try:
            return ZoneInfo(settings.time_zone)
        except (ZoneInfoNotFoundError, ValueError):  # dropped from the database since saved
            pass
    return UTC


def quiet_until(settings: NotifySettings, moment: datetime) -> datetime | None:
    """When the quiet hours that ``moment`` falls in end (UTC), or None when ``moment`` is
    outside quiet hours (or the person has none). A range whose end is before its start
    runs across midnight (22:00-07:00). Local times come from the person's time zone, so a
    change to or from summer time moves the end as the wall clock does."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = zone_of(settings)
    local = moment.astimezone(zone)
    now = local.hour * 60 + local.minute
    inside = start <= now < end if start < end else (now >= start or now < end)
    if not inside:
        return None
    day = local.date()
    if start > end and now >= start:  # across midnight: the quiet hours end tomorrow
        day += timedelta(days=1)
    ends = datetime.combine(day, time(end // 60, end % 60), tzinfo=zone).astimezone(UTC)
    if ends <= moment:  # a summer-time jump swallowed the end: the next day's end
        ends = datetime.combine(
            day + timedelta(days=1), time(end // 60, end % 60), tzinfo=zone
        ).astimezone(UTC)
    return ends


@dataclass(frozen=True, slots=True)
class ReminderPlan:
    """What to do with a reminder that falls due.

    Attributes:
        hold_until: when quiet hours end (UTC): send it then, not now; None: send now.
        channel: post it in the game's channel, pinging the person.
        dm: send it by direct message.
    """

    hold_until: datetime | None
    channel: bool
    dm: bool


def reminder_plan(
    settings: NotifySettings, moment: datetime, *, dm_reachable: bool | None
) -> ReminderPlan:
    """Whether the reminder of a decision the person owes goes out at ``moment``, and where.

    In quiet hours it is held until they end (`quiet_until`); otherwise it goes where the
    ping mode says (`PingMode`). A person whose DMs are known to be closed is reminded in
    the channel whatever the mode, so nobody is left untold.
    """
    held = quiet_until(settings, moment)
    if held is not None:
        return ReminderPlan(held, channel=False, dm=False)
    dm = settings.ping.by_dm and dm_reachable is not False
    return ReminderPlan(None, channel=settings.ping.in_channel or not dm, dm=dm)


async def plan_for(repo: Repository, seat: Seat, moment: datetime) -> ReminderPlan:
    """`reminder_plan` for the player of ``seat`` by their stored settings (a computer or
    empty seat: the channel, now). The caller holds a reminder by moving it to
    ``hold_until`` (it is then sent when quiet hours end — unless the decision is answered
    first: a commit replaces the seat's deadlines)."""
    if seat.is_ai or seat.user_id is None:
        return ReminderPlan(None, channel=True, dm=False)
    settings = (await repo.notify_settings([seat.user_id]))[seat.user_id]
    return reminder_plan(settings, moment, dm_reachable=seat.dm_reachable)


def reminder_messages(game: Game, seat: Seat, text: str, plan: ReminderPlan) -> Outbox:
    """The reminder ``text`` where ``plan`` says: a channel post pinging the player, and/or
    a DM to them (with the link to the game's channel)."""
    out = Outbox()
    user = seat.user_id
    if plan.channel or user is None:
        out.posts.append(
            ChannelPost(game.channel_id, text, mention_user_ids=(user,) if user else ())
        )
    if plan.dm and user is not None:
        out.dms.append(
            DirectMessage(
                user_id=user,
                game_id=game.id,
                slot="notice",
                text=f"{text} {jump_link(game.guild_id, game.channel_id)}",
                fallback_channel_id=game.channel_id,
                notify=True,
            )
        )
    return out


def jump_link(guild_id: int | None, channel_id: int) -> str:
    """A link that opens the game's channel or thread from anywhere (a DM, another server):
    ``https://discord.com/channels/<guild>/<channel>``; a game without a guild (the local
    console) gets the channel mention ``<#channel>``."""
    if guild_id is None:
        return f"<#{channel_id}>"
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def pinged_in_channel(settings: NotifySettings, *, dm_reachable: bool | None) -> bool:
    """Whether the channel line asking the person for a decision pings them: not when they
    are told by DM only (``ping: dm``) and their DMs are not known to be closed."""
    return settings.ping.in_channel or dm_reachable is False


def describe(settings: NotifySettings, moment: datetime) -> list[str]:
    """The person's settings in words, for ``/me notify`` (the time zone's time now and
    whether quiet hours hold reminders at ``moment``)."""
    how = {
        PingMode.CHANNEL: "a ping in the game's channel",
        PingMode.DM: "a direct message (the channel line names you without a ping)",
        PingMode.BOTH: "a ping in the game's channel and a direct message",
    }[settings.ping]
    zone = zone_of(settings)
    local = moment.astimezone(zone)
    lines = [
        f"**You are told** of a decision and reminded by {how}.",
        f"**Time zone:** {settings.time_zone or 'UTC'} (it is {local:%H:%M} there now).",
    ]
    if settings.quiet_start is None or settings.quiet_end is None:
        lines.append("**Quiet hours:** none (reminders come at any hour).")
        return lines
    span = f"{clock_text(settings.quiet_start)}-{clock_text(settings.quiet_end)}"
    held = quiet_until(settings, moment)
    now = (
        f" It is quiet now: reminders wait until {held.astimezone(zone):%H:%M}."
        if held is not None
        else ""
    )
    lines.append(
        f"**Quiet hours:** {span} your time: no reminders then (one that falls due waits "
        f"until they end).{now} Deadlines are not moved by quiet hours."
    )
    return lines
