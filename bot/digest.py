"""The "coming back" digest: when a seat's decision opens, its player gets one DM saying
what happened since they last acted — the public log lines, their own private lines, the
decision now owed with its deadline, and the current board picture.

Privacy (house rule 6): the log is read as the seat may see it, and `digest_text` redacts
every entry to its seat again (`storage.records.LogEntry.for_seat`), so another seat's
private line cannot reach the text whatever it is given; the picture is drawn from the
public view. The DM goes only to the seat's own player.

One message per seat and game (DM slot ``digest``), edited in place while several
decisions open in a row (the seat has not acted since the last digest: the same
`storage.records.DigestMark`). After the seat has acted, the next digest replaces the old
one as news (sent anew, so a person told by DM is pinged). The digest is short: the newest
`DIGEST_LINES` lines, and how many earlier ones ``/game log`` holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.notify import jump_link
from bot.outbox import DirectMessage, Image
from engine.core.model import Decision, seat_name
from engine.core.words import plural
from storage.records import DigestMark, LogEntry, LogKind, NotifySettings, Seat
from storage.repository import Repository

DIGEST_LINES = 12
"""The newest lines a digest shows; the earlier ones are counted and left to /game log."""

DIGEST_READ = 200
"""The most log entries read for one digest (a longer absence is counted, not read)."""

DIGEST_TEXT = 1900
"""A digest fits one Discord message (2000 characters) with room to spare."""

LINE_TEXT = 200
"""Longer log lines are cut (with …) in a digest."""

_NEWEST = 2**62
"""A seq past every log entry (``before_seq`` for the newest page)."""

PLAYER_UNDO = "player undo"
"""How the log reason of an undo a player asked for starts (``"player undo: Red took back
their move"``, `bot.undo`); the game log and the digest show such entries with ↩️ and the
player's words instead of the moderator's shield."""


def _clip(text: str, limit: int = LINE_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def entry_lines(entry: LogEntry, seat: int) -> list[str]:
    """The lines ``seat`` may read of one log entry: its events' public texts, each
    followed by the seat's own private line (🔒) if it has one; a moderator's action in
    one line, and a player's own ``/undo`` as what it did (``↩️ Red took back their
    move``). The entry is redacted to ``seat`` here (never another seat's line)."""
    own = entry.for_seat(seat)
    if own.kind is LogKind.MODERATOR and (own.reason or "").startswith(PLAYER_UNDO):
        return [_clip("↩️ " + (own.reason or "").removeprefix(PLAYER_UNDO).lstrip(": "))]
    if own.kind is LogKind.MODERATOR:
        target = f" ({seat_name(own.seat)})" if own.seat is not None else ""
        why = f": {own.reason}" if own.reason else ""
        action = own.action.value if own.action else "action"
        return [_clip(f"🛡️ A moderator: {action}{target}{why}")]
    reason = own.reason or ""
    tag = (
        "🤖 "
        if reason == "computer player"
        else ("📜 " if reason == "standing orders" else ("🛡️ " if reason else ""))
    )
    lines: list[str] = []
    for event in own.events:
        if event.text:
            lines.append(_clip(f"{tag}{event.text}"))
            tag = ""
        mine = event.private.get(seat)
        if mine:
            lines.append(_clip(f"🔒 {mine}"))
    return lines


def digest_text(
    *,
    game_id: int,
    link: str,
    seat: int,
    entries: Iterable[LogEntry],
    unread: int,
    owed: Sequence[Decision],
    deadline: str = "",
) -> str:
    """The digest's text for ``seat``: a heading with the jump ``link``, the newest
    `DIGEST_LINES` lines of ``entries`` (the log since the seat last acted, oldest first;
    redacted to ``seat`` here), a count of the earlier ones (plus ``unread`` entries not
    read at all) pointing to /game log, and the decisions ``owed`` now, each followed by
    ``deadline`` (the deadline in words, e.g. `` (deadline <t:1893456000:R>)``, or "").
    At most `DIGEST_TEXT` characters."""
    lines = [line for entry in entries for line in entry_lines(entry, seat)]
    heading = f"📬 **Game #{game_id}** ({link}): since you last acted"
    tail = [f"➡️ {seat_name(seat)}, now: {_clip(d.prompt, 300)}{deadline}" for d in owed]
    shown = lines[-DIGEST_LINES:]
    while True:
        earlier = len(lines) - len(shown)
        more = "more than " if unread else ""
        hidden = earlier + unread
        note = [f"… {more}{plural(hidden, 'earlier line')}: /game log"] if hidden else []
        body = shown or ["(nothing new happened in the game)"]
        text = "\n".join([heading + ":", *note, *(f"• {line}" for line in body), *tail])
        if len(text) <= DIGEST_TEXT or not shown:
            return text[:DIGEST_TEXT]
        shown = shown[1:]


@dataclass(frozen=True, slots=True)
class Opening:
    """A seat whose decision opened in a batch, with what it owes now.

    Attributes:
        seat: the seat (a person's, with a user id).
        owed: every decision the seat owes now (at least one new).
        deadline: its decision deadline in words (`` (deadline <t:…:R>)``), or "".
    """

    seat: Seat
    owed: tuple[Decision, ...]
    deadline: str


def openings(
    before: Sequence[Decision],
    after: Sequence[Decision],
    seats: Sequence[Seat],
    deadlines: Mapping[int, str],
    *,
    skip: int | None,
) -> list[Opening]:
    """The people whose decision opened between two positions: a decision is pending
    ``after`` that was not ``before`` (by seat, kind and prompt). Computer seats, empty
    seats and seat ``skip`` (the person who just acted: they see the result) are left out;
    whether DMs reach them is the caller's filter."""
    was = {(d.seat, d.kind, d.prompt) for d in before}
    new = {d.seat for d in after if (d.seat, d.kind, d.prompt) not in was}
    found: list[Opening] = []
    for seat in seats:
        if seat.seat not in new or seat.is_ai or seat.user_id is None or seat.seat == skip:
            continue
        owed = tuple(d for d in after if d.seat == seat.seat)
        found.append(Opening(seat, owed, deadlines.get(seat.seat, "")))
    return found


async def digest_dm(
    repo: Repository,
    game_id: int,
    channel_id: int,
    guild_id: int | None,
    opening: Opening,
    settings: NotifySettings,
    image: Image | None,
) -> DirectMessage:
    """The digest DM of one `Opening`: reads the seat's log since its player's last own
    command (at most `DIGEST_READ` entries), compares with the seat's last `DigestMark`
    (the same: edit in place; else news, pinging a person told by DM) and records the new
    mark. The picture is the public board (``image``, drawn by the caller)."""
    seat = opening.seat
    assert seat.user_id is not None
    since = await repo.last_own_command(game_id, seat.seat, seat.user_id)
    page = await repo.read_log_for_seat(game_id, seat.seat, after_seq=since, limit=DIGEST_READ)
    unread = 0
    if page.has_more:  # a long absence: the newest entries, and how many were not read
        page = await repo.read_log_for_seat(
            game_id, seat.seat, before_seq=_NEWEST, limit=DIGEST_READ
        )
        first = page.first_seq
        unread = max(0, first - since - 1) if first is not None else 0
    entries = [e for e in page.entries if e.seq > since]
    text = digest_text(
        game_id=game_id,
        link=jump_link(guild_id, channel_id),
        seat=seat.seat,
        entries=entries,
        unread=unread,
        owed=opening.owed,
        deadline=opening.deadline,
    )
    mark = DigestMark(seat.user_id, since)
    in_a_row = await repo.digest_mark(game_id, seat.seat) == mark
    if not in_a_row:
        await repo.set_digest_mark(game_id, seat.seat, mark)
    return DirectMessage(
        user_id=seat.user_id,
        game_id=game_id,
        slot="digest",
        text=text,
        images=(image,) if image is not None else (),
        fallback_channel_id=channel_id,
        notify=not in_a_row and settings.ping.by_dm,
    )


def place(dms: list[DirectMessage], digest: DirectMessage) -> None:
    """Put ``digest`` before the other DMs to its person in ``dms`` (read first: what
    happened, then the hand and the choices), else at the end."""
    at = next((i for i, dm in enumerate(dms) if dm.user_id == digest.user_id), len(dms))
    dms.insert(at, digest)
