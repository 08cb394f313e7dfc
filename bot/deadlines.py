"""Deadlines that act (issue 15): what the reminder loop does when a decision's time runs
out, away seats, ``/game extend``, ``/game away``, ``/game back`` and the vote to skip.

A passed decision deadline does what the game's *deadline policy* says
(`storage.records.DEADLINE_POLICIES`; the game's choice at /game new or /game options,
else the server's /settings default):

* ``remind``: the moderators are named (they may /mod skip or /mod deadline) and the other
  seated players get a button to vote to play the default answer now; a majority of them
  decides (`DeadlineMixin.vote_skip`). The miss is counted with the notice.
* ``default``: the ruleset's default answer for the overdue decision is played for the
  seat (`Ruleset.default_command`, what /mod skip plays).
* ``computer``: the computer player answers for the seat (at the away level:
  `bot.computer`, `bot.service_core.ServiceCore.computer_choice`).

The command a deadline plays is committed like any other, and the same commit replaces the
game's deadlines (the passed one goes), so a deadline acts exactly once even when the bot
restarts between its time and its action, or two processes tick at once (the commit's
version guard lets one through). Its log entry's reason starts ``deadline missed:`` and
names the policy and who chose it; schema 6's trigger counts such entries per seat (the
``remind`` notice counts its miss itself, `Repository.claim_deadline`). After
`DeadlineRules.away_after` of them in a row the seat is *away*: the computer plays it at
once (`ServiceCore.away_seats`) until its player gives a command or says /game back.

A reminder, or the ``remind`` policy's notice, is a post: it is taken from the database
(`Repository.claim_deadline`: another tick or process finds it gone) and *held* as
``reminder:sent`` / ``turn:sent`` for `HOLD`; its post is keyed, and the reminder loop
confirms it once delivered (`Outbox.settles`, `Repository.settle_deadline_posts`). A bot
stopped in between finds the held deadline due again after the restart and posts it again
under the same key, which edits the first post in place: neither lost nor doubled. (A
reminder by DM cannot be edited in place, so it is taken at once: at most once.) A
reminder for a decision that is no longer owed is dropped without a post. Where a reminder
goes (the channel, a DM or both), and whether the player's quiet hours hold it until they
end, is the player's ``/me notify`` choice (`bot.notify`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot import customids, notify
from bot.actors import Actor
from bot.errors import BadOption, GamePaused, NotSeated, WrongStage, failure_text
from bot.news import insert_lead, overdue_line, vote_line
from bot.outbox import Button, ChannelPost, Outbox, Reply
from bot.service_core import (
    REMINDER_SHARE,
    DeadlineRules,
    Position,
    ServiceCore,
    discord_time,
    stale,
)
from engine.core.errors import RuleViolation, StaleState
from engine.core.model import Command, seat_name
from storage.errors import StorageError
from storage.records import SENT, Deadline, DeadlineSpec, Game, GameStatus, PostSettle, Seat

log = logging.getLogger(__name__)

DEADLINE_MISSED = "deadline missed"
"""How the log reason of a command a passed deadline played starts (schema 6's trigger
counts these as missed deadlines)."""

HOLD = timedelta(minutes=5)
"""How long a reminder or a passed deadline's notice is held after it was taken: delivered
and confirmed by then, else it is posted again (editing the first post in place)."""

VOTE_SKIP = "vote to skip"
"""How the log reason of a command a vote to skip played starts."""

POLICY_WORDS = {
    "remind": "remind the moderators",
    "default": "play the default answer",
    "computer": "the computer plays",
}
"""Each deadline policy in a few words (/settings, /game new)."""

_HOURS = re.compile(r"^(\d{1,9}(?:\.\d+)?)\s*(h|hr|hrs|hour|hours)?$")
_DAYS = re.compile(r"^(\d{1,4})\s*(d|day|days)$")
_STAMP = re.compile(r"^<t:(\d{1,12})(?::[tTdDfFR])?>$")


def parse_until(text: str, now: datetime) -> datetime:
    """When ``/game away until:`` ends: a number of hours (``36``, ``36h``, ``1.5 hours``),
    days (``2d``) or an ISO date and time (``2026-12-24 18:00``, ``2026-12-24T18:00+01:00``,
    ``2026-12-24`` = midnight), read as UTC unless it names its offset, or a Discord
    timestamp (``<t:1798135200:f>``, as /game status shows deadlines).

    :returns: a timezone-aware UTC moment (not checked against ``now`` or a cap).
    :raises BadOption: when ``text`` is none of these.
    """
    cleaned = text.strip().lower()
    hours: float | None = None
    if found := _HOURS.match(cleaned):
        hours = float(found.group(1))
    elif found := _DAYS.match(cleaned):
        hours = 24.0 * int(found.group(1))
    if stamp := _STAMP.match(text.strip()):
        return datetime.fromtimestamp(int(stamp.group(1)), UTC)
    if hours is not None:
        if hours > 24 * 366:
            raise BadOption("That is more than a year away; give fewer hours.")
        return now + timedelta(hours=hours)
    try:
        moment = datetime.fromisoformat(text.strip().upper().replace("Z", "+00:00"))
    except ValueError:
        raise BadOption(
            f"I cannot read {text.strip()[:40]!r} as a time: give hours (36 or 36h), days "
            "(2d) or a UTC date and time like 2026-12-24 18:00."
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def hours_text(length: timedelta) -> str:
    """A length in whole hours (``"24 h"``)."""
    return f"{int(length.total_seconds() // 3600)} h"


class DeadlineMixin(ServiceCore):
    """Passed deadlines, away seats, extensions and votes to skip of the `GameService`."""

    # ------------------------------------------------------------------ the loop
    async def fire_deadlines(self, moment: datetime, *, held: bool = False) -> Outbox:
        """Everything the deadlines due at ``moment`` call for (see the module docstring):
        reminders, the ``remind`` notice with its vote button, or the commands the
        ``default`` and ``computer`` policies play. One game's failure is logged and the
        others go on (its deadline stays, so it is tried again at the next tick).

        :param held: hold the posts until confirmed (`HOLD`, ``Outbox.settles``: the
            reminder loop settles them); else they are taken at once.
        """
        out = Outbox()
        for deadline in await self.repo.due_deadlines(moment):
            try:
                more = await self.fire_deadline(deadline, moment, held=held)
            except StorageError as error:
                log.warning(
                    "game %s: the %s deadline of seat %s could not be handled now (%s)",
                    deadline.game_id,
                    deadline.kind,
                    deadline.seat,
                    type(error).__name__,
                )
                continue
            except Exception as error:  # one game's bug must not stop every game's deadlines
                log.error(
                    "game %s: the %s deadline of seat %s failed: %s",
                    deadline.game_id,
                    deadline.kind,
                    deadline.seat,
                    failure_text(error),
                )
                continue
            out.extend(more)
        return out

    async def fire_deadline(
        self, deadline: Deadline, moment: datetime, *, held: bool = False
    ) -> Outbox:
        """Act on one due deadline (once: see the module docstring)."""
        game, seats = await self.repo.game_with_seats(deadline.game_id)
        if game.status is not GameStatus.ACTIVE:
            return Outbox()
        position = self.kept(game)
        seat = next((s for s in seats if s.seat == deadline.seat), None)
        owes = any(d.seat == deadline.seat for d in position.pending)
        if not owes or seat is None or seat.is_ai or seat.user_id is None:
            # Answered (or the computer's now): nothing is sent for it.
            if deadline.kind.endswith(SENT):
                await self.repo.settle_deadline_posts([self.post_settle(game, deadline)])
            else:
                await self.repo.claim_deadline(deadline, clear_seat=True)
            return Outbox()
        if deadline.kind in ("reminder", "reminder" + SENT):
            return await self._remind(game, seat, deadline, moment, held=held)
        if deadline.kind == "turn" + SENT:  # its notice may not have gone out: again
            return await self._overdue_notice(game, seats, seat, deadline, position, held=held)
        if deadline.kind != "turn":
            log.warning("game %s: unknown deadline kind %r dropped", game.id, deadline.kind)
            await self.repo.claim_deadline(deadline)
            return Outbox()
        rules = await self.deadline_rules(game)
        if rules.policy == "remind":
            return await self._overdue_notice(game, seats, seat, deadline, position, held=held)
        return await self._overdue_play(game, seat, deadline, rules)

    async def _remind(
        self, game: Game, seat: Seat, deadline: Deadline, moment: datetime, *, held: bool
    ) -> Outbox:
        plan = await notify.plan_for(self.repo, seat, moment)
        if plan.hold_until is not None:  # the player's quiet hours (/me notify): sent then
            later = DeadlineSpec(deadline.seat, "reminder", plan.hold_until)
            await self.repo.claim_deadline(deadline, then=later)
            return Outbox()
        turn = next(
            (
                d
                for d in await self.repo.deadlines(game.id)
                if d.seat == deadline.seat and d.kind == "turn"
            ),
            None,
        )
        if turn is not None and turn.due_at <= moment:
            # The deadline itself is due in this tick too: its notice says it all.
            await self.repo.claim_deadline(deadline)
            return Outbox()
        _, cadence = await self.deadline_length(game)
        then = None
        again = deadline.kind.endswith(SENT)  # the next one was set the first time
        if (
            not again
            and turn is not None
            and cadence is not None
            and moment + cadence < turn.due_at
        ):
            then = DeadlineSpec(deadline.seat, "reminder", moment + cadence)
        # A post is held until it was delivered (then edited in place if sent again); a DM
        # cannot be, so a reminder by DM is taken at once.
        hold = moment + HOLD if held and not plan.dm else None
        if not await self.repo.claim_deadline(deadline, then=then, hold_until=hold):
            return Outbox()
        when = f" The deadline is {discord_time(turn.due_at)}." if turn else ""
        text = (
            f"⏰ {self._who(seat)}, game #{game.id} is waiting for you.{when} "
            "(/game status shows the decision; /game extend asks for more time.)"
        )
        out = notify.reminder_messages(game, seat, text, plan)
        return await self.held(out, game, deadline) if hold is not None else out

    @staticmethod
    def post_settle(game: Game, deadline: Deadline) -> PostSettle:
        """How the post of ``deadline`` (held: `SENT`) is confirmed: its held kind and its
        key in the deliverer's scope of unkeyed news (``post:<channel>``)."""
        base = deadline.kind.removesuffix(SENT)
        return PostSettle(
            game.id,
            deadline.seat,
            base + SENT,
            f"post:{game.channel_id}",
            f"deadline:{game.id}:{deadline.seat}:{base}",
        )

    async def held(self, out: Outbox, game: Game, deadline: Deadline) -> Outbox:
        """``out``'s channel post keyed for ``deadline`` (a second delivery edits the first)
        and its confirmation in ``settles`` (the reminder loop settles it once delivered).
        A deadline taken for the first time forgets what an earlier post left under that
        key (one whose confirmation was lost), so that its post is a new message."""
        settle = self.post_settle(game, deadline)
        if not deadline.kind.endswith(SENT):
            await self.repo.forget_message_ref(settle.scope, settle.key)
        out.posts = [dataclasses.replace(post, key=settle.key) for post in out.posts]
        out.settles.append(settle)
        return out

    async def deadline_posts_delivered(self, settles: Sequence[PostSettle]) -> None:
        """The reminder loop delivered the posts of these held deadlines: confirm them
        (`Repository.settle_deadline_posts`)."""
        await self.repo.settle_deadline_posts(settles)

    @staticmethod
    def _who(seat: Seat) -> str:
        return f"<@{seat.user_id}> **{seat_name(seat.seat)}**"

    async def _overdue_notice(
        self,
        game: Game,
        seats: list[Seat],
        seat: Seat,
        deadline: Deadline,
        position: Position,
        *,
        held: bool,
    ) -> Outbox:
        """The ``remind`` policy: name the moderators; offer the other players the vote.
        The miss is counted with the claim; the one that makes the seat away lets the
        computer play it at once."""
        hold = self.clock() + HOLD if held else None
        fresh = not deadline.kind.endswith(SENT)  # not a notice posted again
        if not await self.repo.claim_deadline(
            deadline, clear_seat=True, hold_until=hold, missed=fresh
        ):
            return Outbox()
        rules = await self.deadline_rules(game)
        missed = seat.missed + 1 if fresh else seat.missed
        away = missed >= rules.away_after
        role = None
        if game.guild_id is not None:
            role = (await self.repo.guild_settings(game.guild_id)).moderator_role_id
        mods = f"<@&{role}>" if role else "Moderators"
        voters = self.skip_voters(seats, seat.seat)
        components: tuple[Button, ...] = ()
        vote = ""
        if voters:
            needed = len(voters) // 2 + 1
            vote = (
                f"\nThe other players may vote with the button below: {needed} of "
                f"{len(voters)} votes play the default answer now."
            )
            components = (
                Button(
                    f"Vote: play {seat_name(seat.seat)}'s default now",
                    customids.encode(game.id, position.version, "skipv", seat.seat),
                    "secondary",
                ),
            )
        text = (
            f"⌛ {self._who(seat)}'s time for a decision in game #{game.id} has run out. {mods}: "
            f"/mod skip plays the default answer, /mod deadline gives more time.{vote}"
        )
        if away:
            components = ()
            text = (
                f"⌛ {self._who(seat)}'s time for a decision in game #{game.id} has run out.\n"
                f"💤 {seat_name(seat.seat)} missed {missed} deadlines in a row and is away: the "
                "computer plays for them at once until they give a command or type /game back."
            )
        out = Outbox(
            posts=[
                ChannelPost(
                    game.channel_id,
                    text,
                    components=components,
                    mention_user_ids=(seat.user_id or 0,),
                    mention_role_ids=(role,) if role and not away else (),
                    # the vote button holds at this version: off once the game moves
                    passing=(game.id, position.version, "vote") if components else None,
                )
            ]
        )
        out = await self.held(out, game, deadline) if held else out
        if away:
            await self.continue_automatic_into(out, game.id)
        return out

    async def _overdue_play(
        self, game: Game, seat: Seat, deadline: Deadline, rules: DeadlineRules
    ) -> Outbox:
        """The ``default`` and ``computer`` policies: one commit plays the seat's answer and
        drops the passed deadline (a fresh one is set if the seat still owes a decision)."""
        number = seat.seat
        async with self.lock(game.id):
            try:
                batch = await self.new_batch(game.id)
            except (GamePaused, WrongStage):
                return Outbox()
            fresh = await self.repo.deadlines(game.id)
            if not any(
                d.seat == number and d.kind == "turn" and d.due_at == deadline.due_at for d in fresh
            ):
                return Outbox()  # acted on already (another tick or process) or moved
            assert batch.after is not None
            position = batch.position(batch.after)
            if not any(d.seat == number for d in position.pending):
                await self.repo.claim_deadline(deadline, clear_seat=True)
                return Outbox()
            batch.rules = rules
            batch.kept_deadlines = [
                DeadlineSpec(d.seat, d.kind, d.due_at) for d in fresh if d.seat != number
            ]
            command, what = await self._overdue_command(game, position, seat, rules.policy)
            missed = seat.missed + 1
            # The commit's trigger counts the miss; the batch's copy of the seat follows it.
            batch.seats = [
                dataclasses.replace(s, missed=missed) if s.seat == number else s
                for s in batch.seats
            ]
            reason = (
                f"{DEADLINE_MISSED}: {what}, by the deadline policy '{rules.policy}' "
                f"({'chosen for this game' if rules.policy_source == 'game' else 'the server default'})"
            )
            try:
                await self.commit_step(
                    batch, number, command, actor_user_id=None, by="deadline", reason=reason
                )
            except StaleState:
                return Outbox()  # another process moved the game first; the next tick looks again
            except RuleViolation as error:
                # The refusal's words may name the seat's Hand cards (house rule 6): not shown.
                log.warning(
                    "game %s: the overdue %s for seat %s was refused (%s)",
                    game.id,
                    rules.policy,
                    number,
                    type(error).__name__,
                )
                await self.repo.claim_deadline(deadline, clear_seat=True)
                return Outbox(
                    posts=[
                        ChannelPost(
                            game.channel_id,
                            f"⌛ {self._who(seat)}'s time ran out, but the rules refused the "
                            "answer the deadline policy gives. Moderators: /mod skip or /mod "
                            "deadline.",
                            mention_user_ids=(seat.user_id or 0,),
                        )
                    ]
                )
            await self.play_automatic(batch)
        out = await self.narrate(batch, None)
        lines = [overdue_line(self._who(seat), game.id, what)]
        if missed >= rules.away_after:
            lines.append(
                f"💤 {seat_name(number)} missed {missed} deadlines in a row and is away: the "
                "computer plays for them at once until they give a command or type /game back."
            )
        insert_lead(out, batch, "\n".join(lines), mention_user_ids=(seat.user_id or 0,))
        return out

    async def _overdue_command(
        self, game: Game, position: Position, seat: Seat, policy: str
    ) -> tuple[Command, str]:
        """The command a passed deadline plays for ``seat`` and how it is called."""
        if policy == "default":
            command = position.default(seat.seat)
            if command is not None:
                return command, "the default answer"
        rules = self.rules(game)
        chosen = await self.computer_choice(rules, position.state, seat, game.seed)
        if policy == "default":
            return chosen, "the computer player's answer (the rules give no default here)"
        return chosen, "the computer player's answer"

    # ------------------------------------------------------------------ votes to skip
    @staticmethod
    def skip_voters(seats: list[Seat], target: int) -> list[Seat]:
        """Who may vote to skip ``target``'s overdue decision: the other seated people."""
        return [s for s in seats if not s.is_ai and s.user_id is not None and s.seat != target]

    async def vote_skip(self, actor: Actor, cid: customids.CustomId) -> Outbox:
        """A click on the vote button of an overdue decision (custom id action ``skipv``,
        argument: the seat). The vote holds for the version the button was made at; when
        more than half of the other seated players have voted, the ruleset's default
        answer is played for the seat (logged with the count).

        :raises StaleState: the game moved since the button was posted.
        :raises NotSeated | BadOption | WrongStage | GamePaused:
        """
        game, seats = await self.repo.game_with_seats(cid.game_id)
        self.require_active(game)
        if not cid.args:
            raise customids.CustomIdError("a vote without its seat")
        target = customids.arg_int(cid.args[0])
        voter = self.seat_of(seats, actor.user_id)
        if voter is None or voter.is_ai:
            raise NotSeated(f"Only the players seated in game #{game.id} may vote.")
        if voter.seat == target:
            raise BadOption(
                "You cannot vote to skip your own decision: answer it, or /game extend."
            )
        if cid.version != game.version:
            raise stale(cid.version, game.version)
        position = self.kept(game)
        if not any(d.seat == target for d in position.pending):
            raise BadOption(f"{seat_name(target)} owes no decision now; nothing to skip.")
        turn = next(
            (
                d
                for d in await self.repo.deadlines(game.id)
                if d.seat == target and d.kind == "turn"
            ),
            None,
        )
        if turn is not None and turn.due_at > self.clock():
            raise BadOption(
                f"{seat_name(target)} has time until {discord_time(turn.due_at)}; a vote "
                "counts once the deadline has passed."
            )
        voters = self.skip_voters(seats, target)
        needed = len(voters) // 2 + 1
        count = await self.repo.record_skip_vote(game.id, target, cid.version, actor.user_id)
        if count < needed:
            return Outbox(
                reply=Reply(f"Your vote counts: {count} of {needed} needed.", ephemeral=True),
                posts=[
                    ChannelPost(
                        game.channel_id,
                        f"🗳️ {voter.display_name} votes to play {seat_name(target)}'s default "
                        f"answer now ({count} of {needed} needed).",
                    )
                ],
            )

        def default(fresh: Position) -> Command:
            command = fresh.default(target)
            if command is None:
                raise BadOption(f"The rules give no default answer for {seat_name(target)} now.")
            return command

        try:
            batch = await self.act(
                game.id,
                target,
                default,
                actor_user_id=actor.user_id,
                expected_version=cid.version,
                by="vote",
                reason=(
                    f"{VOTE_SKIP}: {count} of {len(voters)} other players voted after the "
                    "deadline passed; the default answer"
                ),
            )
        except RuleViolation as error:
            if isinstance(error, StaleState):
                raise
            # The refusal's words may name the target's Hand cards, and the voter is
            # another player (house rule 6): only its kind is told.
            raise BadOption(
                f"The rules refused {seat_name(target)}'s default answer "
                f"({type(error).__name__}); nothing was played. A moderator can /mod skip."
            ) from None
        out = await self.narrate(batch, None)
        insert_lead(out, batch, vote_line(seat_name(target), count, len(voters)))
        out.reply = Reply("Your vote decided: the default answer was played.", ephemeral=True)
        return out

    # ------------------------------------------------------------------ players' commands
    async def extend(
        self, actor: Actor, channel_id: int | None, *, hours: int | None = None
    ) -> Outbox:
        """``/game extend``: more time for the decision you owe, once per turn, at most
        `DeadlineRules.extensions` times per game and `DeadlineRules.extension_max` each
        (``hours``; default: the most allowed). Posted in the channel.

        :raises NoGameHere | NotSeated | WrongStage | GamePaused | BadOption:
        :raises ExtensionRefused: no deadline, already extended this turn, none left.
        """
        game = await self.game_here(channel_id)
        seat, _ = await self.require_seat(game, actor)
        self.require_active(game)
        position = self.kept(game)
        if not any(d.seat == seat.seat for d in position.pending):
            raise BadOption(
                f"You owe no decision in game #{game.id} now, so there is no deadline to extend."
            )
        rules = await self.deadline_rules(game)
        most = int(rules.extension_max.total_seconds() // 3600)
        if rules.extensions <= 0 or most <= 0:
            raise BadOption("Extensions are turned off on this server (/settings).")
        asked = most if hours is None else hours
        if not 1 <= asked <= most:
            raise BadOption(f"An extension is 1 to {most} hours here.")
        kinds = {d.kind for d in await self.repo.deadlines(game.id) if d.seat == seat.seat}
        if "turn" not in kinds:
            if rules.length is None:
                raise BadOption(
                    f"Game #{game.id} has no decision deadlines, so there is none to extend."
                )
            raise BadOption(
                "Your deadline has already passed, so it cannot be extended: play your "
                "decision now (a moderator can give more time with /mod deadline)."
            )
        lead = rules.length * (1 - REMINDER_SHARE) if rules.length is not None else None
        async with self.lock(game.id):
            granted = await self.repo.extend_deadline(
                game.id,
                seat.seat,
                turn=position.turn.turn,
                by=timedelta(hours=asked),
                max_count=rules.extensions,
                reminder=lead,
            )
        text = (
            f"⏳ {self._who(seat)} asked for {asked} h more: the deadline is now "
            f"{discord_time(granted.due_at)} (extension {granted.used} of {rules.extensions})."
        )
        return Outbox(
            reply=Reply(
                f"✅ Your deadline is now {discord_time(granted.due_at, 'f')} (extension "
                f"{granted.used} of {rules.extensions} in this game).",
                ephemeral=True,
            ),
            posts=[ChannelPost(game.channel_id, text)],
        )

    async def away(self, actor: Actor, channel_id: int | None, *, until: str) -> Outbox:
        """``/game away until:``: the computer plays your seat until then (hours, days or
        a UTC date and time: `parse_until`), at most `DeadlineRules.away_max` ahead;
        /game back or any command of yours ends it sooner. Refused when every other seat
        is the computer's or away: the computer would then play the game to its end alone.

        :raises NoGameHere | NotSeated | WrongStage | BadOption:
        """
        game = await self.game_here(channel_id)
        seat, seats = await self.require_seat(game, actor)
        if game.status is GameStatus.LOBBY:
            raise WrongStage("The game has not started; leave the lobby with /game leave.")
        now = self.clock()
        moment = parse_until(until, now)
        if moment <= now:
            raise BadOption(f"{discord_time(moment, 'f')} has passed; give a later time.")
        rules = await self.deadline_rules(game)
        if moment - now > rules.away_max:
            raise BadOption(
                f"You can be away at most {hours_text(rules.away_max)} ahead in this game "
                f"(until {discord_time(now + rules.away_max, 'f')})."
            )
        away = self.away_seats(seats, rules.away_after)
        if not any(
            not s.is_ai and s.user_id is not None and s.seat not in away
            for s in seats
            if s.seat != seat.seat
        ):
            raise BadOption(
                "Every other seat is the computer's or away, so the computer would play this "
                "game to its end alone; nothing changed. The game waits for you: play when "
                "you can."
            )
        async with self.lock(game.id):
            await self.repo.set_away(game.id, seat.seat, moment)
        out = Outbox(
            reply=Reply(f"You are away until {discord_time(moment, 'f')}.", ephemeral=True),
            posts=[
                ChannelPost(
                    game.channel_id,
                    f"💤 {seat_name(seat.seat)} ({seat.display_name}) is away until "
                    f"{discord_time(moment, 'f')}: the computer plays for them (/game back "
                    "returns sooner).",
                )
            ],
        )
        if game.status is GameStatus.ACTIVE:
            await self.continue_automatic_into(out, game.id)
        return out

    async def back(self, actor: Actor, channel_id: int | None) -> Outbox:
        """``/game back``: you play your seat again (ends an away period and the count of
        missed deadlines).

        :raises NoGameHere | NotSeated | BadOption:
        """
        game = await self.game_here(channel_id)
        seat, _ = await self.require_seat(game, actor)
        if seat.missed == 0 and (seat.away_until is None or seat.away_until <= self.clock()):
            raise BadOption(f"You are not away in game #{game.id}; nothing changed.")
        async with self.lock(game.id):
            await self.repo.set_away(game.id, seat.seat, None)
        return Outbox(
            reply=Reply("Welcome back: your decisions wait for you again.", ephemeral=True),
            posts=[
                ChannelPost(
                    game.channel_id,
                    f"👋 {seat_name(seat.seat)} ({seat.display_name}) is back: their "
                    "decisions wait for them again.",
                )
            ],
        )

    async def away_line(self, game: Game, seats: list[Seat]) -> str | None:
        """The status line naming the away seats (None when nobody is away)."""
        if not self.maybe_away(seats):
            return None
        rules = await self.deadline_rules(game)
        away = self.away_seats(seats, rules.away_after)
        if not away:
            return None
        return away_text(seats, away, self.clock())


def away_text(seats: list[Seat], away: frozenset[int], now: datetime) -> str:
    """``💤 Away (the computer plays for them): Red (ann), ...`` for the seats in ``away``
    (with the end of a chosen away period still to come at ``now``)."""
    named = ", ".join(
        f"{seat_name(s.seat)} ({s.display_name})"
        + (
            f" until {discord_time(s.away_until)}"
            if s.away_until is not None and s.away_until > now
            else ""
        )
        for s in seats
        if s.seat in away
    )
    return f"💤 Away (the computer plays for them; /game back returns): {named}"
