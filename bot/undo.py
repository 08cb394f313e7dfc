"""``/undo``: a player takes back their own last move (issue 15, "Undo by players").

What is undone: the player's last command still in effect (applied as their seat by
them) and every command in effect after it — the log's undo entries cancel commands from
the newest back (`storage.replay.undo_last_command`, the same path as ``/mod undo``), each
logged with who asked and who agreed.

When it applies at once: when nothing those commands did revealed hidden information
(the engine's word: `Ruleset.reveals_hidden` — a die roll, a shuffle, a draw, a card
turned up) and no other person's seat acted among them. Otherwise the players concerned
must agree by button in the channel: everyone else seated (people, not computer seats)
after a reveal, else the people whose seats' moves would be undone. Any one of them may
refuse (so may the asker, withdrawing it). The request is kept in storage
(`Repository.save_undo_request`) and belongs to the game's version when it was made: once
the game moves on (a move, an undo) its buttons are stale and it has lapsed. Computer
seats are never asked: their moves among those undone are undone with the rest.

Undo never re-rolls: the restored position is rebuilt by replaying the log from the
game's seed without the undone commands, so the random generator is back where it was
(`engine.core.rng.Rng` lives in the state), and the same command played again rolls the
same dice.

Privacy (house rule 6): the channel hears who undid what by log entry numbers and seats,
never the undone moves' texts or commands (a card played from a Hand goes back to it).
The asker and every person whose hidden cards the undo changed get a fresh Hand DM.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import customids
from bot.actors import Actor
from bot.digest import PLAYER_UNDO
from bot.errors import BadOption
from bot.moderation import MODERATOR_SKIP
from bot.news import insert_lead
from bot.outbox import Button, ChannelPost, Image, Outbox, Reply
from bot.service_core import Batch, ServiceCore, chunks
from engine.core.errors import IllegalMove, InvalidInput, StaleState
from engine.core.model import GameState, seat_name
from engine.core.ruleset import Ruleset
from storage.errors import NothingToUndo
from storage.records import DeadlineSpec, Game, LogEntry, LogKind, Seat, UndoRequest
from storage.replay import read_full_log, rebuild, undo_last_commands

UNDO_ACTION = "undo"
"""The custom id action of the consent buttons: ``ht:<game>:<version>:undo:<y|n>:<seq>``."""


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What ``/undo`` would take back, and whose agreement it needs.

    Attributes:
        seat: the asking seat.
        targets: the asker's last command in effect and every command in effect after it,
            in log order.
        revealed: whether any of them revealed hidden information (`Ruleset.reveals_hidden`).
        acted: the other people's seats among the targets' seats, in seat order.
        needed: the seats whose players must agree (empty: it applies at once).
    """

    seat: int
    targets: tuple[LogEntry, ...]
    revealed: bool
    acted: tuple[int, ...]
    needed: tuple[int, ...]


def plan_undo(
    rules: Ruleset[Any],
    game: Game,
    entries: Sequence[LogEntry],
    seats: Sequence[Seat],
    seat: int,
    user_id: int,
) -> UndoPlan:
    """Find what ``user_id`` (holding ``seat``) would undo in ``game`` (its whole log,
    unredacted) and whose consent that needs. Pure engine work: run it in a thread.

    :raises NothingToUndo: if the player has no command of their own in effect.
    :raises RuleViolation: if the log no longer replays (a moderator's /mod verify tells).
    """
    undone = {e.undoes for e in entries if e.undoes is not None}
    in_effect = [e for e in entries if e.kind is LogKind.COMMAND and e.seq not in undone]
    mine = [
        i
        for i, e in enumerate(in_effect)
        if e.seat == seat
        and e.actor_user_id == user_id
        and not (e.reason or "").startswith(MODERATOR_SKIP)
    ]
    if not mine:
        raise NothingToUndo(
            f"You have no move of yours to take back in game #{game.id} (moves made for "
            f"{seat_name(seat)} by the computer, standing orders or a moderator are not yours; "
            "a moderator can /mod undo)."
        )
    targets = tuple(in_effect[mine[-1] :])
    state = rebuild(rules, game, entries, skip=frozenset(e.seq for e in targets))
    revealed = False
    for entry in targets:
        assert entry.seat is not None and entry.command_json is not None
        state.version = entry.version_after - 1
        command = rules.parse_command(entry.command_json)
        after, events = rules.apply(state, entry.seat, command)
        revealed = revealed or rules.reveals_hidden(state, entry.seat, command, after, events)
        state = after
    people = {s.seat for s in seats if not s.is_ai and s.user_id is not None} - {seat}
    acted = tuple(sorted({e.seat for e in targets if e.seat is not None} & people))
    needed = tuple(sorted(people)) if revealed else acted
    return UndoPlan(seat, targets, revealed, acted, needed)


def _names(seats: Sequence[Seat], numbers: Sequence[int]) -> str:
    """``<@1> **Blue** and <@2> **Green**`` for the seats ``numbers`` (``nobody``: none)."""
    if not numbers:
        return "nobody"
    by_seat = {s.seat: s for s in seats}
    parts = [
        f"<@{by_seat[n].user_id}> **{seat_name(n)}**"
        if n in by_seat and by_seat[n].user_id
        else f"**{seat_name(n)}**"
        for n in numbers
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _entries(targets: Sequence[LogEntry]) -> str:
    """``log entry #12`` / ``log entries #12, #13``."""
    seqs = ", ".join(f"#{e.seq}" for e in targets)
    return f"log entr{'y' if len(targets) == 1 else 'ies'} {seqs}"


class UndoMixin(ServiceCore):
    """``/undo`` and its consent buttons, for the `GameService`."""

    async def undo(self, actor: Actor, channel_id: int | None) -> Outbox:
        """``/undo``: take back your own last move in the channel's game — at once when
        nothing since revealed hidden information and no other person's seat acted, else
        by asking the players concerned (buttons in the channel). It goes with the version
        read when it arrived: if the game moved before the lock was taken, nothing is
        undone (two undos sent at once undo one move).

        :raises NoGameHere | NotSeated | GamePaused | WrongStage: see `ServiceCore`.
        :raises NothingToUndo: when you have no move of your own in effect.
        :raises BadOption: when another seat's undo request waits in this game (your own
            is asked again: its buttons are posted anew, the agreements kept).
        :raises StaleState: when the game moved since the command arrived.
        """
        game = await self.game_here(channel_id)
        self.require_active(game)
        seat, _ = await self.require_seat(game, actor)
        async with self.lock(game.id):
            fresh, seats = await self.repo.game_with_seats(game.id)
            self.require_active(fresh)
            if fresh.version != game.version:
                raise StaleState(
                    f"The game moved from move {game.version} to move {fresh.version} while "
                    "this undo waited, so nothing was undone. Look at the latest message and "
                    "use /undo again if you still want to."
                )
            self.require_holder(Batch(fresh, seats, None, None), seat.seat, actor.user_id)
            waiting = await self.repo.undo_request(fresh.id)
            if (
                waiting is not None
                and waiting.version == fresh.version
                and waiting.seat == seat.seat
                and waiting.user_id == actor.user_id
            ):
                # Asked again: post the request's buttons again (the first post may have
                # been lost to a crash after the request was stored; the same ids work).
                plan = await self._plan(fresh, seats, seat.seat, actor.user_id)
                if plan.targets[0].seq == waiting.from_seq:
                    out = self._asking(fresh, seats, plan, waiting)
                    out.reply = Reply(
                        "Your undo request already waits for "
                        f"{_names(seats, waiting.waiting_for)}; its buttons are posted again.",
                        ephemeral=True,
                    )
                    return out
            if waiting is not None and waiting.version == fresh.version:
                names = _names(seats, waiting.waiting_for)
                whose = "Your" if waiting.seat == seat.seat else f"{seat_name(waiting.seat)}'s"
                raise BadOption(
                    f"{whose} undo request already waits for {names}; it is answered by its "
                    "buttons, or lapses at the next move."
                )
            plan = await self._plan(fresh, seats, seat.seat, actor.user_id)
            if not plan.needed:
                return await self._carry_out(fresh, seats, plan, actor, agreed=())
            request = UndoRequest(
                game_id=fresh.id,
                version=fresh.version,
                seat=seat.seat,
                user_id=actor.user_id,
                from_seq=plan.targets[0].seq,
                needed=plan.needed,
                agreed=(),
                created_at=self.clock(),
            )
            await self.repo.save_undo_request(request)
        return self._asking(fresh, seats, plan, request)

    async def _plan(self, game: Game, seats: Sequence[Seat], seat: int, user_id: int) -> UndoPlan:
        """`plan_undo` for the game as stored now (log read, replay in a thread).

        :raises NothingToUndo | BadOption:
        """
        entries = await read_full_log(self.repo, game.id)
        try:
            return await asyncio.to_thread(
                plan_undo, self.rules(game), game, entries, seats, seat, user_id
            )
        except (IllegalMove, InvalidInput) as error:
            # The refusal's words may name a seat's Hand cards (house rule 6).
            raise BadOption(
                "The rules now refuse a logged command, so the game cannot be replayed "
                f"without your move ({type(error).__name__}); a moderator's /mod verify "
                "tells more."
            ) from None

    def _asking(
        self, game: Game, seats: Sequence[Seat], plan: UndoPlan, request: UndoRequest
    ) -> Outbox:
        """The channel post asking the players concerned, with Agree / Refuse buttons."""
        why = (
            "hidden information came out since (a die roll, a draw, a shuffle or a card turned up)"
            if plan.revealed
            else f"{_names(seats, plan.acted)} moved since"
        )
        asker = _names(seats, [plan.seat])
        text = (
            f"↩️ {asker} asks to take back their last move ({_entries(plan.targets)}"
            f"{' and the moves after it' if len(plan.targets) > 1 else ''}). Because {why}, "
            f"it needs the agreement of {_names(seats, plan.needed)}"
            f"{'; any of them may refuse' if len(plan.needed) > 1 else ', who may refuse'}. "
            "The request lapses when the game moves on."
        )
        by_seat = {s.seat: s for s in seats}
        mentions = tuple(
            by_seat[n].user_id for n in plan.needed if n in by_seat and by_seat[n].user_id
        )
        components = (
            Button(
                "Agree to the undo",
                customids.encode(game.id, game.version, UNDO_ACTION, "y", request.from_seq),
                "success",
            ),
            Button(
                "Refuse",
                customids.encode(game.id, game.version, UNDO_ACTION, "n", request.from_seq),
                "danger",
            ),
        )
        return Outbox(
            reply=Reply(
                f"Asked: {_names(seats, plan.needed)} must agree before your move is taken back.",
                ephemeral=True,
            ),
            posts=[
                ChannelPost(
                    game.channel_id,
                    chunks([text])[0],
                    components=components,
                    mention_user_ids=tuple(m for m in mentions if m is not None),
                    # the buttons hold at this version: off once it moves or is answered
                    passing=(game.id, game.version, "undo"),
                )
            ],
        )

    async def undo_answer(self, actor: Actor, cid: customids.CustomId) -> Outbox:
        """A click on an undo request's Agree or Refuse button (``cid.args``: ``y`` or
        ``n``, then the asker's command's seq). The last agreement carries the undo out;
        a refusal drops the request and changes nothing else.

        :raises NotSeated | GamePaused | WrongStage | BadOption | NothingToUndo:
        :raises StaleState: when the game moved on since the request (it lapsed).
        """
        if len(cid.args) != 2 or cid.args[0] not in ("y", "n"):
            raise customids.CustomIdError(f"bad undo button arguments {cid.args!r}")
        agree = cid.args[0] == "y"
        from_seq = customids.arg_int(cid.args[1])
        game, seats = await self.repo.game_with_seats(cid.game_id)
        seat, _ = await self.require_seat(game, actor, seats)
        self.require_active(game)
        async with self.lock(game.id):
            fresh, seats = await self.repo.game_with_seats(game.id)
            self.require_active(fresh)
            if fresh.version != cid.version:
                await self.repo.drop_undo_request(fresh.id, version=cid.version)
                raise StaleState(
                    f"This undo was asked at move {cid.version}, but the game is at move "
                    f"{fresh.version} now: it moved on, so the request lapsed and nothing was "
                    "undone. The player may /undo again."
                )
            request = await self.repo.undo_request(fresh.id)
            if request is None or request.version != cid.version or request.from_seq != from_seq:
                raise NothingToUndo(
                    "This undo request was already answered (refused or withdrawn); nothing "
                    "was undone."
                )
            mine = seat.seat
            if not agree:
                if mine != request.seat and mine not in request.needed:
                    raise BadOption(
                        f"Only {_names(seats, request.needed)} answer this undo request."
                    )
                await self.repo.drop_undo_request(fresh.id, version=request.version)
                what = (
                    "withdrew their undo request"
                    if mine == request.seat
                    else f"refused {seat_name(request.seat)}'s undo"
                )
                return Outbox(
                    reply=Reply("Done: nothing was undone.", ephemeral=True),
                    posts=[
                        ChannelPost(
                            fresh.channel_id,
                            f"↩️ {_names(seats, [mine])} {what}; nothing changed.",
                            retire=(fresh.id, request.version, "undo"),
                        )
                    ],
                )
            if mine == request.seat:
                raise BadOption(
                    f"You asked for this undo; it waits for {_names(seats, request.waiting_for)}."
                )
            if mine not in request.needed:
                raise BadOption(f"Only {_names(seats, request.needed)} answer this undo request.")
            request = await self.repo.agree_to_undo(fresh.id, version=request.version, seat=mine)
            if request.waiting_for:
                return Outbox(
                    reply=Reply("Agreed.", ephemeral=True),
                    posts=[
                        ChannelPost(
                            fresh.channel_id,
                            f"↩️ {_names(seats, [mine])} agrees to {seat_name(request.seat)}'s "
                            f"undo; it still waits for {_names(seats, request.waiting_for)}.",
                        )
                    ],
                )
            asker = next((s for s in seats if s.seat == request.seat), None)
            if asker is None or asker.user_id != request.user_id or asker.is_ai:
                await self.repo.drop_undo_request(fresh.id)
                raise BadOption(
                    f"{seat_name(request.seat)} has another player now, so this undo request "
                    "lapsed; nothing was undone."
                )
            plan = await self._plan(fresh, seats, request.seat, request.user_id)
            if plan.targets[0].seq != request.from_seq:
                await self.repo.drop_undo_request(fresh.id)
                raise NothingToUndo(
                    "This undo request no longer matches the log; nothing was undone."
                )
            return await self._carry_out(fresh, seats, plan, actor, agreed=request.agreed)

    async def _carry_out(
        self,
        game: Game,
        seats: Sequence[Seat],
        plan: UndoPlan,
        actor: Actor,
        *,
        agreed: Sequence[int],
    ) -> Outbox:
        """Undo ``plan.targets`` (newest first; called under the game's lock, with ``game``
        read under it), give the seats owing a decision again their deadlines, and build
        the posts and DMs.

        :raises BadOption: if the log no longer replays.
        :raises StaleState | NothingToUndo: if the game moved meanwhile (another process).
        """
        rules = self.rules(game)
        before: GameState = self.state_of(game)
        asker = next(s for s in seats if s.seat == plan.seat)
        consent = f"; agreed: {', '.join(seat_name(s) for s in agreed)}" if agreed else ""
        reason = f"{PLAYER_UNDO}: {seat_name(plan.seat)} took back their move{consent}"
        existing = await self.repo.deadlines(game.id)
        specs: list[DeadlineSpec] = []

        async def deadlines(state: GameState) -> list[DeadlineSpec]:
            """The restored position's deadlines (a seat owing again keeps its own)."""
            specs[:] = await self.deadline_specs(game, state, seats, existing)
            return specs

        try:  # one commit for every target and the deadlines: never half undone
            await undo_last_commands(
                self.repo,
                game.id,
                count=len(plan.targets),
                expected_version=game.version,
                moderator_user_id=asker.user_id,
                reason=reason,
                ruleset=rules,
                expected_seqs=[t.seq for t in reversed(plan.targets)],
                deadlines=deadlines,
            )
        except (IllegalMove, InvalidInput) as error:
            raise BadOption(
                "The rules now refuse a logged command, so the game cannot be replayed "
                f"without it ({type(error).__name__}); a moderator's /mod verify tells more."
            ) from None
        await self.repo.drop_undo_request(game.id)
        fresh = await self.repo.get_game(game.id)
        position = self.kept(fresh)
        restored = position.state
        batch = Batch(game=fresh, seats=list(seats), before=before, after=restored)
        batch.adopt(position)
        batch.deadlines = {s.seat: s.due_at for s in specs if s.kind == "turn"}
        batch.hand_refresh = {plan.seat}
        batch.acted_by = asker.user_id  # the asker gets no digest of their own undo
        out = await self.narrate(batch, None)  # every prompt in the channel, fresh buttons
        has_picture = any(p.images for p in out.posts)
        images: tuple[Image, ...] = ()
        if not has_picture:
            images, _ = await self.drawn_pictures(
                game.id, self.adapter(fresh).status_picture(restored), position
            )
        others = [s for s in {e.seat for e in plan.targets} if s is not None and s != plan.seat]
        also = (
            f" (with the moves after it, by {', '.join(seat_name(s) for s in sorted(others))})"
            if others
            else (" and the moves after it" if len(plan.targets) > 1 else "")
        )
        agreed_text = f", with the agreement of {_names(seats, agreed)}" if agreed else ""
        text = (
            f"↩️ {_names(seats, [plan.seat])} took back their last move{also}{agreed_text} "
            f"({_entries(plan.targets)} in /game log). The position before it is back; the "
            "same move played again gives the same dice and draws."
        )
        insert_lead(out, batch, chunks([text])[0], images=images)
        out.reply = Reply(
            f"Done: your move is taken back ({_entries(plan.targets)} in /game log). "
            "It is your decision again."
            if actor.user_id == asker.user_id
            else f"Agreed: {seat_name(plan.seat)}'s move is taken back.",
            ephemeral=True,
        )
        return out
