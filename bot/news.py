"""Nothing a commit owes the players is lost: the news of every commit is delivered at
least once, also when the bot was killed between the commit and its messages (issue 15).

How (a transactional outbox, without storing any message twice):

1. *With the commit.* Storage keeps one row per logged command (and per game setup) in
   ``undelivered_commits``, written by a trigger inside the very statement that logs the
   command (schema 8): a move is never stored without the note that its news is owed.
   No extra round trip.
2. *Delivered.* `ServiceCore.narrate` stamps every channel post and DM of a batch's news
   with the batch's `Receipt` (its first and last version) and keys the posts; the
   deliverer confirms the receipt once the last of them was handed to Discord
   (`NewsMixin.news_delivered`: one DELETE). Until then the ids of the posts sent are
   remembered in the receipt's scope (`bot.discord_delivery`).
3. *After a restart.* `NewsMixin.redeliver` reads the rows left (one indexed read; a
   handful of rows, whatever the number of games), and rebuilds each run of versions'
   news from what storage keeps anyway: the log entries in the run (their public and
   private event lines, the commands, who acted) and the positions before and after it,
   replayed from the log (`storage.replay.rebuild`). That is the same `narrate` as the
   first time, so the channel gets the public lines, whose turn it is and the ping, and
   the players their DMs, pictures redrawn. The reply to the interaction that made the
   move is not sent again (that interaction is gone; the player's own private lines are
   in their hand DM). Posts that went out the first time are edited in place (their ids
   are in the receipt's scope), DMs edit their slot's message: a second delivery is
   harmless.

Why not store the built Outbox: its pictures would have to be redrawn anyway (their bytes
are too large to keep per move), and its text is a function of the log and the positions,
which storage keeps exactly; storing it would cost a write of every message's text per
move, and would put a channel message's text in a second place to be kept free of private
cards. A rebuild that fails (a log that no longer replays) still posts a plain public line
that the game moved on, and confirms the receipt.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import groupby

from bot.digest import PLAYER_UNDO
from bot.errors import failure_text
from bot.outbox import ChannelPost, Image, Outbox, Receipt
from bot.service_core import Batch, ServiceCore, Step
from engine.core.model import GameState, seat_name
from storage.records import Game, LogEntry, LogKind, ModeratorAction, Seat
from storage.replay import read_full_log, rebuild

log = logging.getLogger(__name__)

REDELIVERED_AT_ONCE = 1000
"""How many owed commits one `NewsMixin.redeliver` call reads (the rest: the next call)."""

_BY_REASON = {"computer player": "computer", "standing orders": "orders"}
"""`Step.by` of a logged command, from its logged reason (else a moderator's skip or a
person: see `step_by`)."""


LEAD_KEY = "lead"
"""The key of the post that leads a batch's news when it says what the batch was (a
passed deadline's "⌛ ... ran out", an undo's "↩️ ... took back"): the first delivery and a
redelivery post it under this key in the receipt's scope, so the second edits the first."""


def insert_lead(
    out: Outbox,
    batch: Batch,
    text: str,
    *,
    mention_user_ids: tuple[int, ...] = (),
    images: tuple[Image, ...] = (),
) -> None:
    """Put the post saying what ``batch`` was (``text``, at most one message) first in
    ``out``, its narration: under `LEAD_KEY` with the batch's receipt when ``out`` carries
    news (so a redelivery, `NewsMixin.lead_post`, edits it), else unkeyed."""
    receipt = batch.receipt() if out.posts or out.dms else None
    out.posts.insert(
        0,
        ChannelPost(
            batch.game.channel_id,
            text,
            images=images,
            mention_user_ids=mention_user_ids,
            key=LEAD_KEY if receipt is not None else None,
            receipt=receipt,
        ),
    )


_POLICY = ", by the deadline policy '"


def overdue_line(who: str, game_id: int, what: str) -> str:
    """The public line of a passed deadline's move: ``who`` (a mention and seat name), the
    game and ``what`` was played (the policy's words — "the default answer", "the computer
    player's answer" — never the command: a card's name may be private)."""
    return f"⌛ {who}'s time for a decision in game #{game_id} ran out: {what} was played for them."


def vote_line(seat: str, count: int, voters: int) -> str:
    """The public line of a vote to skip that played ``seat``'s default answer: ``count``
    of ``voters`` other players voted."""
    return f"🗳️ {count} of {voters} players voted: {seat}'s default answer was played."


_VOTES = re.compile(r"^vote to skip: (\d+) of (\d+) ")


def lead_lines(entries: Sequence[LogEntry], seats: Sequence[Seat], game_id: int) -> list[str]:
    """The leading lines a redelivery rebuilds from the log ``entries`` of a run: for each
    command a passed deadline played, its `overdue_line` (from the logged reason), for
    each a vote to skip played, its `vote_line`; for each
    run of undo entries with one reason, who took back what (log entry numbers only, never
    an undone move's text). Public by construction: reasons are the bot's own words, or a
    moderator's typed reason, which /game log shows anyway."""
    by_seat = {s.seat: s for s in seats}
    lines: list[str] = []
    undone: list[LogEntry] = []

    def flush() -> None:
        if not undone:
            return
        seqs = ", ".join(f"#{e.undoes}" for e in undone)
        what = f"log entr{'y' if len(undone) == 1 else 'ies'} {seqs} undone"
        reason = undone[0].reason or ""
        if reason.startswith(PLAYER_UNDO):
            lines.append(f"↩️ {reason.removeprefix(PLAYER_UNDO).lstrip(': ')}: {what}.")
        else:
            by = f"<@{undone[0].actor_user_id}>" if undone[0].actor_user_id else "A moderator"
            lines.append(f"🛡️ {by} undid a move: {what}. Reason: {reason}")
        undone.clear()

    for entry in entries:
        if entry.kind is LogKind.MODERATOR and entry.action is ModeratorAction.UNDO:
            if undone and undone[0].reason != entry.reason:
                flush()
            undone.append(entry)
            continue
        flush()
        reason = entry.reason or ""
        if entry.kind is LogKind.COMMAND and step_by(entry) == "deadline" and _POLICY in reason:
            what = reason.partition(": ")[2].partition(_POLICY)[0]
            seat = by_seat.get(entry.seat) if entry.seat is not None else None
            who = (
                f"<@{seat.user_id}> **{seat_name(seat.seat)}**"
                if seat is not None and seat.user_id
                else f"**{seat_name(entry.seat or 0)}**"
            )
            lines.append(overdue_line(who, game_id, what))
        votes = _VOTES.match(reason) if entry.kind is LogKind.COMMAND else None
        if votes is not None and entry.seat is not None:
            lines.append(vote_line(seat_name(entry.seat), int(votes[1]), int(votes[2])))
    flush()
    return lines


def runs(versions: list[int]) -> list[tuple[int, int]]:
    """Consecutive versions grouped: ``[(first, last), ...]`` (``[1, 2, 3, 7] -> [(1, 3),
    (7, 7)]``), for a sorted list."""
    found: list[tuple[int, int]] = []
    for version in versions:
        if found and found[-1][1] == version - 1:
            found[-1] = (found[-1][0], version)
        else:
            found.append((version, version))
    return found


def step_by(entry: LogEntry) -> str | None:
    """Who chose a logged command, as `Step.by` says it: ``"computer"``, ``"orders"``,
    ``"moderator"`` (a /mod skip) or None (a person)."""
    reason = entry.reason or ""
    if reason in _BY_REASON:
        return _BY_REASON[reason]
    if reason.startswith("moderator skip"):
        return "moderator"
    if reason.startswith("away:"):  # the computer for an away seat (bot.deadlines)
        return "away"
    if reason.startswith("deadline missed"):  # a passed deadline's policy (bot.deadlines)
        return "deadline"
    if reason.startswith("vote to skip"):  # the other players' vote (bot.deadlines)
        return "vote"
    return None


def past_position(out: Outbox) -> Outbox:
    """``out`` (news of a position the game has moved past since: a commit whose delivery
    was cut short while later ones went out) without buttons or selects in its channel
    posts, none of them taking over as the post showing the game's position now
    (`ChannelPost.decision_of`), and without the game's panel (a later news edits it);
    DMs as they are."""
    posts = [
        replace(post, components=(), decision_of=None)
        for post in out.posts
        if post.panel_of is None  # the panel shows the later position
    ]
    return Outbox(reply=out.reply, posts=[p for p in posts if not p.empty], dms=out.dms)


class NewsMixin(ServiceCore):
    """Confirming delivered news and delivering it again after a restart (see the module
    docstring)."""

    async def news_delivered(self, receipt: Receipt) -> None:
        """The deliverer handed every message of ``receipt``'s news to Discord: storage
        forgets that it was owed (one statement; harmless when repeated)."""
        await self.repo.news_delivered(receipt.game_id, receipt.after_version, receipt.version)

    async def redeliver(self, *, owns: Callable[[int | None], bool] | None = None) -> Outbox:
        """At start-up (after the Discord client is ready): the news of every commit whose
        delivery was not confirmed — a bot killed after a commit and before its messages.
        Costs one indexed read of the owed rows, then a rebuild per game that has any.

        :param owns: with several bot processes, whether this one recovers the games of a
            guild id (its own shards', under their leader locks: `HeroesBot.recovering`);
            the others' owed news is left to them (a live process is delivering it, or
            the owner delivers it when it starts again). None: every game.
        :returns: the news to deliver (each item carries its `Receipt`, ``again=True``).
        """
        owed = await self.repo.undelivered_news(REDELIVERED_AT_ONCE)
        out = Outbox()
        for game_id, rows in groupby(owed, key=lambda row: row[0]):
            if owns is not None and not owns((await self.repo.get_game(game_id)).guild_id):
                continue
            for first, last in runs([version for _, version in rows]):
                more = await self.news_again(game_id, first - 1, last)
                out.posts += more.posts
                out.dms += more.dms
        return out

    async def news_again(self, game_id: int, after_version: int, version: int) -> Outbox:
        """The news of game ``game_id``'s commits that left versions ``after_version + 1
        .. version``, rebuilt from the log (``after_version`` -1: the game's setup too).
        Never raises for a game that exists: a rebuild that fails gives a plain public
        line that the game moved on (logged without its message).

        :raises GameNotFound: for an unknown game.
        """
        game, seats = await self.repo.game_with_seats(game_id)
        try:
            batch = await self.rebuilt_batch(game, seats, after_version, version)
        except Exception as error:  # the commits stand: say so rather than nothing
            log.error(
                "game %s: rebuilding the news of moves %s-%s failed: %s",
                game_id,
                after_version + 1,
                version,
                failure_text(error),
            )
            receipt = Receipt(game_id, after_version, version, again=True)
            text = (
                f"Game #{game_id} moved on to move {version} while I was away, but I could not "
                "show how (logged). /game status shows the position and whose turn it is."
            )
            latest = game.id if version == game.version else None
            post = ChannelPost(game.channel_id, text, key="0", receipt=receipt, decision_of=latest)
            return Outbox(posts=[post])
        out = await self.narrate(batch, None)
        if version != game.version:
            out = past_position(out)
        return await self.lead_post(out, batch, after_version, version)

    async def lead_post(
        self, out: Outbox, batch: Batch, after_version: int, version: int
    ) -> Outbox:
        """``out`` (a redelivery's narration of versions ``after_version + 1 .. version``)
        with the leading post of `lead_lines` first, under `LEAD_KEY` and the news's
        receipt (so it edits the first delivery's), pinging the players whose deadline
        passed; unchanged when the run has no such entry. Reads the game's log once."""
        logged = await read_full_log(self.repo, batch.game.id)
        entries = [e for e in logged if after_version < e.version_after <= version]
        lines = lead_lines(entries, batch.seats, batch.game.id)
        if not lines:
            return out
        receipt = Receipt(batch.game.id, after_version, version, again=True)
        pinged = tuple(
            s.user_id
            for s in batch.seats
            if s.user_id and any(e.seat == s.seat and step_by(e) == "deadline" for e in entries)
        )
        lead = ChannelPost(
            batch.game.channel_id,
            "\n".join(lines)[:2000],
            mention_user_ids=pinged,
            key=LEAD_KEY,
            receipt=receipt,
        )
        return Outbox(reply=out.reply, posts=[lead, *out.posts], dms=out.dms)

    async def rebuilt_batch(
        self, game: Game, seats: list[Seat], after_version: int, version: int
    ) -> Batch:
        """The `Batch` the commits of versions ``after_version + 1 .. version`` made: the
        states before and after (replayed from the log; the stored one when ``version``
        is the game's), their steps from the log, the game's turn deadlines.

        :raises StorageError | RuleViolation: when the log does not replay.
        """
        rules = self.rules(game)
        entries = await read_full_log(self.repo, game.id)
        started = after_version < 0

        def state_at(at: int) -> GameState:
            return rebuild(rules, game, [e for e in entries if e.version_after <= at])

        before = await asyncio.to_thread(state_at, max(after_version, 0))
        after = (
            self.state_of(game)
            if version == game.version
            else await asyncio.to_thread(state_at, version)
        )
        within = [e for e in entries if e.version_after <= version]
        undone = {e.undoes for e in within if e.undoes is not None}
        steps = [
            Step(e.seat, rules.parse_command(e.command_json), list(e.events), step_by(e))
            for e in within
            if e.kind is LogKind.COMMAND
            and e.version_after > after_version
            and e.seq not in undone
            and e.seat is not None
            and e.command_json is not None
        ]
        first_own = next(
            (
                e.actor_user_id
                for e in within
                if e.kind is LogKind.COMMAND
                and e.version_after > after_version
                and step_by(e) is None
                and e.actor_user_id is not None
            ),
            None,
        )
        batch = Batch(
            game=game,
            seats=seats,
            before=before,
            after=after,
            steps=steps,
            started=started,
            again=True,
            acted_by=first_own,
        )
        batch.deadlines = {
            d.seat: d.due_at for d in await self.repo.deadlines(game.id) if d.kind == "turn"
        }
        return batch
