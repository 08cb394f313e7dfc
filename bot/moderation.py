"""Moderator commands: pause, resume, skip, undo, replace, kick, end, deadline, verify
(``/mod ...``) and the server's settings (``/settings``). Every action is checked here (the caller's `Actor.is_moderator` comes from
Manage Server or the guild's moderator role), stored in the game log with who and why,
and announced in the game's channel.

Kick: the seat becomes a computer seat and the game goes on (the computer plays its
decisions at once); the kicked member keeps no access to the seat's cards. A moderator who
would rather keep a person in the seat uses replace instead.
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import timedelta

from bot.actors import Actor
from bot.command_table import UserRef
from bot.deadlines import POLICY_WORDS
from bot.errors import BadOption, NotModerator, WrongStage
from bot.outbox import ChannelPost, Outbox, Receipt, Reply, stamped
from bot.play_commands import read_seat
from bot.service_core import Batch, Position, ServiceCore
from engine.core.errors import IllegalMove, InvalidInput, NotYourDecision, StaleState
from engine.core.model import Command, GameState, seat_name
from engine.core.words import plural
from storage.records import DEADLINE_POLICIES, DeadlineSpec, GameStatus, GuildSettings
from storage.replay import undo_last_commands, verify_game

log = logging.getLogger(__name__)

MODERATOR_SKIP = "moderator skip"
"""How the log reason of a command a moderator gave for a seat (/mod skip) starts:
``"moderator skip: <why>"``; the game log shows such entries with the moderator."""


def settings_text(settings: GuildSettings) -> tuple[str, str, str]:
    """The moderator role, decision deadline and reminder cadence of ``settings`` in words
    (``"<@&5>"``, ``"24 h"``, ``"every 6 h"``)."""
    role = (
        f"<@&{settings.moderator_role_id}>"
        if settings.moderator_role_id
        else "none (Manage Server only)"
    )
    turn = settings.turn_deadline
    every = settings.reminder_every
    turn_text = f"{int(turn.total_seconds() // 3600)} h" if turn else "none"
    every_text = (
        f"every {int(every.total_seconds() // 3600)} h" if every else "once, at 75% of the deadline"
    )
    return role, turn_text, every_text


def policy_text(settings: GuildSettings) -> tuple[str, str, str, str]:
    """The deadline policy, away threshold, away cap and extension caps of ``settings`` in
    words (``"remind the moderators"``, ``"after 2 missed deadlines in a row"``, ``"up to
    72 h"``, ``"2 per game, up to 24 h each"``)."""
    away_hours = int(settings.away_max.total_seconds() // 3600)
    longest = int(settings.extension_max.total_seconds() // 3600)
    return (
        POLICY_WORDS.get(settings.deadline_policy, settings.deadline_policy),
        f"after {plural(settings.away_after, 'missed deadline')} in a row",
        f"up to {away_hours} h" if away_hours else "off",
        f"{settings.extensions} per game, up to {longest} h each" if settings.extensions else "off",
    )


class ModerationMixin(ServiceCore):
    """Moderator commands of the `GameService`."""

    @staticmethod
    def require_moderator(actor: Actor, doing: str) -> None:
        """:raises NotModerator: unless ``actor`` may moderate (says who may)."""
        if not actor.is_moderator:
            raise NotModerator(
                f"Only moderators may {doing}: members with Manage Server or the server's "
                "moderator role (see /settings). Players can ask one in the channel."
            )

    @staticmethod
    def _announce(channel_id: int, actor: Actor, what: str, reason: str) -> ChannelPost:
        why = f" Reason: {reason}" if reason else ""
        return ChannelPost(
            channel_id, f"🛡️ Moderator {actor.display_name} (<@{actor.user_id}>) {what}.{why}"
        )

    async def mod_pause(self, actor: Actor, channel_id: int | None, *, reason: str = "") -> Outbox:
        """Pause the channel's game: moves are refused and deadlines wait.

        :raises NotModerator | NoGameHere | WrongGameStatus:
        """
        self.require_moderator(actor, "pause a game")
        game = await self.game_here(channel_id)
        async with self.lock(game.id):
            await self.repo.pause(game.id, moderator_user_id=actor.user_id, reason=reason)
        return Outbox(
            reply=Reply("Paused."),
            posts=[self._announce(game.channel_id, actor, f"paused game #{game.id}", reason)],
        )

    async def mod_resume(self, actor: Actor, channel_id: int | None, *, reason: str = "") -> Outbox:
        """Resume the channel's paused game; the deadlines restart from now.

        :raises NotModerator | NoGameHere | WrongGameStatus:
        """
        self.require_moderator(actor, "resume a game")
        game = await self.game_here(channel_id)
        async with self.lock(game.id):
            await self.repo.resume(game.id, moderator_user_id=actor.user_id, reason=reason)
            await self.repo.clear_deadlines(game.id)
            batch = await self.new_batch(game.id)
            assert batch.after is not None
            for spec in await self.deadline_specs(batch.game, batch.after, batch.seats, []):
                await self.repo.set_deadline(game.id, spec)
            await self.play_automatic(batch)
            batch.game = await self.repo.get_game(game.id)
            batch.deadlines = {
                d.seat: d.due_at for d in await self.repo.deadlines(game.id) if d.kind == "turn"
            }
            batch.before = batch.after if not batch.steps else batch.before
        out = await self.narrate(batch, None)
        out.posts.insert(
            0, self._announce(game.channel_id, actor, f"resumed game #{game.id}", reason)
        )
        out.reply = Reply("Resumed.")
        return out

    async def mod_skip(
        self, actor: Actor, channel_id: int | None, *, seat: str | None = None, reason: str = ""
    ) -> Outbox:
        """Answer an overdue decision with the ruleset's documented default command.

        It goes with the version read when it arrived, as a button does: if the game moved
        before the lock was taken, nothing is skipped (two skips sent at once skip once).

        :param seat: whose decision (colour or number; default: the first person owing one).
        :raises NotModerator | NoGameHere | GamePaused | BadOption | StaleState:
        """
        self.require_moderator(actor, "skip a decision")
        game = await self.game_here(channel_id)
        self.require_active(game)
        rules = self.rules(game)
        state = self.state_of(game)
        owing = [d.seat for d in rules.pending(state)]
        if not owing:
            raise BadOption("Nobody owes a decision now.")
        chosen = owing[0] if seat is None else read_seat(seat, state.players, who="the seat")
        if chosen not in owing:
            raise BadOption(
                f"{seat_name(chosen)} owes no decision now; waiting for: {', '.join(seat_name(s) for s in owing)}."
            )

        def default(fresh: Position) -> Command:
            try:
                command: Command = rules.default_command(fresh.state, chosen)
                return command
            except NotYourDecision:
                raise BadOption(f"{seat_name(chosen)} no longer owes a decision.") from None

        why = reason or "deadline passed"
        try:
            batch = await self.act(
                game.id,
                chosen,
                default,
                actor_user_id=actor.user_id,
                expected_version=state.version,
                by="moderator",
                reason=f"{MODERATOR_SKIP}: {why}",
            )
        except (IllegalMove, InvalidInput) as error:
            # The moderator is not that seat: the refusal's words may name its Hand cards.
            raise BadOption(
                f"The rules refused {seat_name(chosen)}'s default answer "
                f"({type(error).__name__}); /mod deadline gives the player more time."
            ) from None
        out = await self.narrate(batch, None)
        out.posts.insert(
            0,
            self._announce(
                game.channel_id,
                actor,
                f"skipped {seat_name(chosen)}'s decision (the default answer was played)",
                reason,
            ),
        )
        # /mod replies may be public: no private line of the moderator's own seat here.
        out.reply = Reply(f"Skipped {seat_name(chosen)}'s decision.", ephemeral=True)
        return out

    async def mod_undo(
        self, actor: Actor, channel_id: int | None, *, count: int = 1, reason: str = ""
    ) -> Outbox:
        """Undo the last ``count`` commands in effect (replayed from the log; each undo is
        logged). Computer seats do not move again until the next action or /game status,
        so several moves (a player's and the computer's answers) can be undone at once.

        Undo restores the random generator too: the same command rolls the same dice.
        The undo goes with the version read when it arrived: if the game moved before the
        lock was taken (another moderator's undo, a player's move), nothing is undone —
        two undos sent at once undo one move, not two.

        :raises NotModerator | NoGameHere | NothingToUndo | WrongGameStatus | BadOption:
        :raises StaleState: when the game moved since the command arrived.
        """
        self.require_moderator(actor, "undo a move")
        if not 1 <= count <= 50:
            raise BadOption("Undo 1 to 50 moves at a time.")
        game = await self.game_here(channel_id)
        async with self.lock(game.id):
            fresh = await self.repo.get_game(game.id)
            if fresh.version != game.version:
                raise StaleState(
                    f"The game moved from move {game.version} to move {fresh.version} "
                    "while this undo waited (another moderator's undo or a player's "
                    "move), so nothing was undone. Look at /game log and undo again if "
                    "it is still needed."
                )
            seats = await self.repo.seats(game.id)

            async def deadlines(state: GameState) -> list[DeadlineSpec]:
                """Fresh deadlines for whoever owes a decision in the restored position."""
                return await self.deadline_specs(fresh, state, seats, [])

            try:  # one commit for all of them and the deadlines: never half undone
                logged = await undo_last_commands(
                    self.repo,
                    game.id,
                    count=count,
                    expected_version=fresh.version,
                    moderator_user_id=actor.user_id,
                    reason=reason or "moderator undo",
                    deadlines=deadlines,
                )
            except (IllegalMove, InvalidInput) as error:
                # The replay's refusal may name a seat's Hand cards (see mod_verify).
                raise BadOption(
                    "The rules now refuse a logged command, so the game cannot be "
                    f"replayed without the last one ({type(error).__name__}); /mod verify "
                    "tells more."
                ) from None
            undone = [e.undoes for e in logged if e.undoes is not None]
            receipt = Receipt(game.id, fresh.version, fresh.version + len(logged))
            fresh = await self.repo.get_game(game.id)
            state = self.state_of(fresh)
        batch = Batch(game=fresh, seats=seats, before=state, after=state)
        batch.deadlines = {
            d.seat: d.due_at for d in await self.repo.deadlines(game.id) if d.kind == "turn"
        }
        out = await self.narrate(batch, None)
        images, _ = await self.drawn_pictures(
            game.id, "battle" if getattr(state, "battle", None) is not None else "board", state
        )
        entries = ", ".join(f"#{seq}" for seq in undone)
        out.posts.insert(
            0,
            ChannelPost(
                game.channel_id,
                self._announce(
                    game.channel_id,
                    actor,
                    f"undid log entr{'y' if len(undone) == 1 else 'ies'} {entries}",
                    reason,
                ).text,
                images=images,
            ),
        )
        out.reply = Reply(f"Undone: log entries {entries}.")
        # The undo's commits are owed news (`Repository.record_undos`) until these went out.
        return stamped(out, receipt)

    async def mod_replace(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        seat: str,
        user: UserRef | int,
        reason: str = "",
    ) -> Outbox:
        """Give a seat to another member (their cards follow by DM).

        :raises NotModerator | NoGameHere | BadOption | AlreadySeated | SeatNotFound:
        """
        self.require_moderator(actor, "replace a player")
        game = await self.game_here(channel_id)
        ref = user if isinstance(user, UserRef) else UserRef(int(user), f"User {user}")
        players = game.players or len(await self.repo.seats(game.id))
        number = read_seat(seat, players, who="the seat")
        async with self.lock(game.id):
            await self.repo.replace_seat(
                game.id,
                number,
                user_id=ref.id,
                display_name=ref.display_name,
                moderator_user_id=actor.user_id,
                reason=reason,
            )
        out = Outbox(
            reply=Reply(f"{seat_name(number)} is now played by {ref.display_name}."),
            posts=[
                self._announce(
                    game.channel_id, actor, f"gave {seat_name(number)} to <@{ref.id}>", reason
                )
            ],
        )
        if game.status is not GameStatus.LOBBY and game.state_json is not None:
            fresh = await self.repo.get_game(game.id)
            state = self.state_of(fresh)
            seats = await self.repo.seats(game.id)
            batch = Batch(game=fresh, seats=seats, before=state, after=state, started=True)
            extra = await self.narrate(batch, None)
            out.posts += extra.posts
            out.dms += [dm for dm in extra.dms if dm.user_id == ref.id]
        return out

    async def mod_kick(
        self, actor: Actor, channel_id: int | None, *, seat: str, reason: str = ""
    ) -> Outbox:
        """Remove a seat's player: in the lobby the seat goes; in a game the computer takes
        the seat over and plays on at once.

        :raises NotModerator | NoGameHere | BadOption | SeatNotFound:
        """
        self.require_moderator(actor, "kick a player")
        game = await self.game_here(channel_id)
        players = game.players or len(await self.repo.seats(game.id))
        number = read_seat(seat, players, who="the seat")
        async with self.lock(game.id):
            await self.repo.kick(game.id, number, moderator_user_id=actor.user_id, reason=reason)
        out = Outbox(
            reply=Reply(f"{seat_name(number)} was kicked."),
            posts=[
                self._announce(
                    game.channel_id,
                    actor,
                    f"kicked {seat_name(number)}"
                    + (
                        ""
                        if game.status is GameStatus.LOBBY
                        else "; the computer plays that seat now"
                    ),
                    reason,
                )
            ],
        )
        if game.status is GameStatus.ACTIVE:
            await self.continue_automatic_into(out, game.id)
        return out

    async def mod_end(self, actor: Actor, channel_id: int | None, *, reason: str = "") -> Outbox:
        """End the channel's game without a winner (abandoned); the channel is free again.

        :raises NotModerator | NoGameHere:
        """
        self.require_moderator(actor, "end a game")
        game = await self.game_here(channel_id)
        async with self.lock(game.id):
            await self.repo.end_game(game.id, moderator_user_id=actor.user_id, reason=reason)
        announce = self._announce(
            game.channel_id, actor, f"ended game #{game.id} (abandoned)", reason
        )
        # a forum post's stage tag says so; the vote and undo buttons of the game's last
        # position are taken off
        posts = [
            dataclasses.replace(
                announce,
                thread_stage="finished",
                retire=(game.id, game.version, "undo"),
            )
        ]
        if game.status is not GameStatus.LOBBY:  # the panel shows the end, no buttons
            posts.insert(
                0,
                ChannelPost(
                    game.channel_id,
                    f"## {game.ruleset} · game #{game.id}\n🛡️ Ended by a moderator "
                    "(abandoned): no winner. /game log shows how it went.",
                    decision_of=game.id,
                    panel_of=game.id,
                    retire=(game.id, game.version, "vote"),
                ),
            )
        if game.status is GameStatus.LOBBY:  # the lobby post keeps no Join or Start button
            posts.insert(
                0,
                ChannelPost(
                    game.channel_id,
                    f"Game #{game.id} (lobby ended by a moderator).",
                    key="lobby",
                    edit_only=True,
                ),
            )
        return Outbox(reply=Reply("Ended."), posts=posts)

    async def mod_deadline(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        hours: int,
        seat: str | None = None,
        reason: str = "",
    ) -> Outbox:
        """Set a seat's decision deadline to ``hours`` from now (default seat: the first
        person owing a decision). Uncapped (unlike a player's /game extend) and logged;
        refused for a seat that owes no decision.

        :raises NotModerator | NoGameHere | BadOption | WrongGameStatus:
        """
        self.require_moderator(actor, "set deadlines")
        if not 1 <= hours <= 24 * 30:
            raise BadOption("Give 1 to 720 hours.")
        game = await self.game_here(channel_id)
        state = self.state_of(game)
        owing = [d.seat for d in self.rules(game).pending(state)]
        number = (
            read_seat(seat, state.players, who="the seat")
            if seat
            else (owing[0] if owing else None)
        )
        if number is None:
            raise BadOption("Nobody owes a decision now, so there is no deadline to set.")
        if number not in owing:
            waiting = ", ".join(seat_name(s) for s in owing) or "nobody"
            raise BadOption(
                f"{seat_name(number)} owes no decision now, so it can have no deadline; "
                f"waiting for: {waiting}."
            )
        due = self.clock() + timedelta(hours=hours)
        _, cadence = await self.deadline_length(game)
        async with self.lock(game.id):
            await self.repo.moderator_deadline(
                game.id,
                DeadlineSpec(number, "turn", due),
                moderator_user_id=actor.user_id,
                reason=reason,
            )
            reminder = self.first_reminder(self.clock(), timedelta(hours=hours), cadence)
            await self.repo.set_deadline(game.id, DeadlineSpec(number, "reminder", reminder))
        from bot.service_core import discord_time

        return Outbox(
            reply=Reply("Deadline set."),
            posts=[
                self._announce(
                    game.channel_id,
                    actor,
                    f"set {seat_name(number)}'s deadline to {discord_time(due)}",
                    reason,
                )
            ],
        )

    async def mod_verify(self, actor: Actor, channel_id: int | None, *, reason: str = "") -> Outbox:
        """Replay the channel's game from its seed and log and compare it with the stored
        position; the outcome is logged and posted.

        :raises NotModerator | NoGameHere | StorageError:
        """
        self.require_moderator(actor, "verify a game")
        game = await self.latest_game_here(channel_id)
        if game.state_json is None:
            raise WrongStage("The game has not started; there is nothing to verify.")
        outcome = await verify_game(self.repo, game.id)
        await self.repo.record_verification(
            game.id,
            ok=outcome.ok,
            difference=outcome.difference,
            moderator_user_id=actor.user_id,
            reason=reason,
        )
        if outcome.ok:
            done = plural(outcome.commands, "command")
            text = f"verified game #{game.id}: replaying {done} gives exactly the stored position"
        elif outcome.error:
            # Not the refusal's words: they may name a seat's Hand cards (house rule 6).
            text = (
                f"verified game #{game.id}: the replay FAILED (the rules now refuse a logged "
                "command)"
            )
        else:
            text = f"verified game #{game.id}: the replay DIFFERS from the stored position at {outcome.difference or 'formatting only'}"
        return Outbox(
            reply=Reply("Verified: ok." if outcome.ok else "Verification found a problem."),
            posts=[self._announce(game.channel_id, actor, text, reason)],
        )

    async def server_settings(
        self,
        actor: Actor,
        channel_id: int | None = None,
        *,
        guild_id: int | None = None,
        role: int | None = None,
        deadline_hours: int | None = None,
        reminder_hours: int | None = None,
        deadline_policy: str | None = None,
        away_after: int | None = None,
        away_hours: int | None = None,
        extensions: int | None = None,
        extension_hours: int | None = None,
        clear_role: bool = False,
        reason: str = "",
    ) -> Outbox:
        """``/settings``: show or change the server's settings: moderator role, default
        decision deadline (0 = none) and reminder cadence (0 = only one reminder, at 75% of
        the deadline), and what deadlines do (`bot.deadlines`): the default deadline policy
        (``remind``, ``default``, ``computer``), the missed deadlines in a row after which a
        seat is away (1-20), how far ahead /game away may reach (hours, 0 = off), and the
        /game extend caps (per seat and game, 0 = off; hours each, 1-720). Any moderator may see them and change the deadline and reminders;
        only members with Manage Server choose (or clear) the moderator role. A change is
        announced in the channel with who, what (old → new) and why, and logged (INFO,
        ``bot.moderation``: guild, user, change, reason); the settings belong to the server,
        not to a game, so no game log holds them.

        :raises NotModerator | BadOption | WrongStage:
        """
        self.require_moderator(actor, "see or change the server's settings")
        if guild_id is None:
            raise WrongStage("Server settings are changed in a server channel.")
        if (role is not None or clear_role) and not actor.manages_server:
            raise NotModerator(
                "Only members with Manage Server choose the moderator role; you may change "
                "deadline-hours and reminder-hours."
            )
        current = await self.repo.guild_settings(guild_id)
        turn = current.turn_deadline
        every = current.reminder_every
        if deadline_hours is not None:
            if not 0 <= deadline_hours <= 24 * 30:
                raise BadOption("The deadline is 0 (none) to 720 hours.")
            turn = timedelta(hours=deadline_hours) if deadline_hours else None
        if reminder_hours is not None:
            if not 0 <= reminder_hours <= 24 * 30:
                raise BadOption("The reminder cadence is 0 (one reminder) to 720 hours.")
            every = timedelta(hours=reminder_hours) if reminder_hours else None
        if deadline_policy is not None and deadline_policy not in DEADLINE_POLICIES:
            raise BadOption(f"The deadline policy is one of: {', '.join(DEADLINE_POLICIES)}.")
        for name, value, lo in (
            ("away-after", away_after, 1),
            ("away-hours", away_hours, 0),
            ("extensions", extensions, 0),
            ("extension-hours", extension_hours, 1),
        ):
            top = 20 if name in ("away-after", "extensions") else 24 * 30
            if value is not None and not lo <= value <= top:
                raise BadOption(f"{name} is {lo} to {top}.")
        new_role = None if clear_role else (role if role is not None else current.moderator_role_id)
        updated = dataclasses.replace(
            current,
            moderator_role_id=new_role,
            turn_deadline=turn,
            reminder_every=every,
            deadline_policy=deadline_policy or current.deadline_policy,
            away_after=away_after if away_after is not None else current.away_after,
            away_max=timedelta(hours=away_hours) if away_hours is not None else current.away_max,
            extensions=extensions if extensions is not None else current.extensions,
            extension_max=timedelta(hours=extension_hours)
            if extension_hours is not None
            else current.extension_max,
        )
        changed = updated != current
        role_text, turn_text, every_text = settings_text(updated)
        policy, away_text, away_cap, extend_text = policy_text(updated)
        text = "\n".join(
            (
                f"Moderator role: {role_text}",
                f"Decision deadline: {turn_text}; reminders: {every_text}",
                f"When a deadline passes: {policy}",
                f"Away (the computer plays the seat): {away_text}",
                f"/game away: {away_cap}; /game extend: {extend_text}",
            )
        )
        out = Outbox(reply=Reply(("✅ Saved.\n" if changed else "") + text, ephemeral=True))
        if not changed:
            return out
        await self.repo.save_guild_settings(updated)
        names = (
            "moderator role",
            "decision deadline",
            "reminders",
            "deadline policy",
            "away",
            "/game away",
            "/game extend",
        )
        changes = "; ".join(
            f"{name} {old} → {new}"
            for name, old, new in zip(
                names,
                (*settings_text(current), *policy_text(current)),
                (*settings_text(updated), *policy_text(updated)),
                strict=True,
            )
            if old != new
        )
        log.info(
            "settings changed: guild %s, moderator %s, %s; reason: %s",
            guild_id,
            actor.user_id,
            changes,
            reason or "-",
        )
        if channel_id is not None:
            out.posts.append(
                self._announce(
                    channel_id, actor, f"changed this server's settings: {changes}", reason
                )
            )
        return out
