"""`GameService`: every game decision of the bot, for Discord and the local console alike.

The service never imports discord.py. Callers build an `Actor` (who acts, whether they
may moderate, whether in a DM), call one coroutine, and deliver the `Outbox` it returns
(a reply to the actor, public channel posts, DMs). Errors a player should read are raised
as `bot.errors.USER_ERRORS` (the engine's `RuleViolation`, storage's `StorageError`, the
service's `ServiceError`); `bot.errors.error_reply` turns them into an ephemeral reply.
Anything else is a bug: it propagates and the game is unchanged (commits are atomic);
once a move is committed, a failure while showing it is reported as applied instead.

Entry points (all coroutines returning an `Outbox` unless noted):

* lobby: `new_game`, `join`, `leave`, `choose_deck`, `add_ai`, `set_options`, `start`;
* following a game: `status`, `log`, `hand` (ephemeral; in DMs too), `rules_topic`;
* playing: `play(actor, channel_id, path, options)` for every command of the ruleset's
  table, `autocomplete(...) -> list[(name, value)]`, `click(actor, custom_id, values)`
  for buttons and select menus, `set_orders` (standing orders), `undo` (a player takes
  back their own last move; `bot.undo`);
* cards and decks: `card`, `deck_import`, `deck_show`, `deck_list`, `deck_delete`;
* moderators: `mod_pause`, `mod_resume`, `mod_skip`, `mod_undo`, `mod_replace`,
  `mod_kick`, `mod_end`, `mod_deadline`, `mod_verify`, `server_settings` (``/settings``);
* delivery feedback and timers: `record_dm_result`, `due_reminders(now)`, `recover()`,
  `redeliver()` and `news_delivered(receipt)` (news owed after a restart: `bot.news`);
* generic: `run(actor, path, options, channel_id=, guild_id=)` dispatches any command of
  `bot.commands.all_specs` (what the Discord cogs and the console call).
"""

from __future__ import annotations

import difflib
import inspect
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from bot import customids, registry, rules_help
from bot.actors import Actor
from bot.adapters import DeckHooks, PlayRequest, adapter_for, clip, deck_adapter
from bot.command_table import (
    CommandSpec,
    LineError,
    choice_suggestions,
    choice_value,
    command_help,
    help_lines,
    help_overview,
)
from bot.commands import all_specs, spec_for
from bot.deadlines import DEADLINE_MISSED, VOTE_SKIP, DeadlineMixin
from bot.digest import PLAYER_UNDO
from bot.errors import BadOption, ChooseGame, DeckProblem, NotSeated, UnknownCommand, WrongStage
from bot.lobby import GAME_LIST, LobbyMixin
from bot.me import ME_GAMES, MeMixin
from bot.moderation import MODERATOR_SKIP, ModerationMixin
from bot.news import NewsMixin
from bot.outbox import Button, ChannelPost, Embed, Image, Outbox, Reply
from bot.service_core import REPLY_TEXT, Batch, Position, chunks, discord_time
from bot.undo import UNDO_ACTION, UndoMixin
from engine.core.errors import InvalidInput, RuleViolation
from engine.core.model import GameState, seat_name
from storage.records import GameStatus, LogEntry, LogKind

LOG_PAGE = 15
"""Log entries per /game log page."""

MAX_LOG_SEQ = 2**62
"""No log entry number is above this (SQLite integers stop at 2**63 - 1): a page before a
larger one is refused rather than asked of the database."""

PLAY_ACTIONS = frozenset({"opt", "pick", "cards"})
"""Component actions that answer a decision (a button, a select of commands or of cards):
they apply a move (`GameService.click`)."""

_COUNT_AHEAD = re.compile(r"(?<!\S)(?=\d+\s*[x×]\s)", re.IGNORECASE)
"""Where an entry like ``3x Orc`` starts inside a line (a count, then ``x``)."""


def deck_lines(text: str) -> str:
    """A pasted deck list as one entry per line, for the deck game's `DeckHooks.read_deck`.

    A slash command option has no line breaks: Discord turns a pasted list's breaks into
    spaces. So ``;``, ``,`` and ``|`` separate entries too (no card name has one), and
    a line naming two or more ``3x Orc``-style entries (``3x Orc 2x Wolf 1x Asylum``) is
    split before each count.
    """
    for separator in ";,|":
        text = text.replace(separator, "\n")
    lines: list[str] = []
    for line in text.splitlines():
        starts = [m.start() for m in _COUNT_AHEAD.finditer(line)]
        if len(starts) < 2:
            lines.append(line)
            continue
        bounds = [0, *starts, len(line)] if starts[0] > 0 else [*starts, len(line)]
        lines += [line[a:b] for a, b in itertools.pairwise(bounds)]
    return "\n".join(lines)


class GameService(LobbyMixin, ModerationMixin, UndoMixin, NewsMixin, MeMixin, DeadlineMixin):
    """Lobby, play, decisions, private hands, deadlines and moderation over a `Repository`.

    Build it with ``GameService(repo, renderer=..., clock=...)`` (see
    `bot.service_core.ServiceCore.__init__`). One instance per process; it keeps only
    locks and a note of games whose computer seats still have moves to make — everything
    else is in the database, so a restart loses nothing (call `recover` at start).
    """

    # ------------------------------------------------------------------ the table
    @staticmethod
    def specs() -> tuple[CommandSpec, ...]:
        """Every command (service and play) to register or parse."""
        return all_specs()

    async def run(
        self,
        actor: Actor,
        path: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Outbox:
        """Run the command at ``path`` (``("purchase", "buy")``) with its ``options``.

        Option names may use ``-`` as in the table (``map-sections``); None values are
        dropped (options the user left out).

        :raises UnknownCommand: for a path not in the table.
        :raises RuleViolation | StorageError | ServiceError: the user's error.
        """
        try:
            spec = spec_for(tuple(path))
        except KeyError:
            raise UnknownCommand(f"There is no command /{' '.join(path)}; see /help.") from None
        values = {k.replace("-", "_"): v for k, v in (options or {}).items() if v is not None}
        for option in spec.options:
            # Choices offered by autocomplete arrive as typed: only a choice is accepted.
            key = option.name.replace("-", "_")
            if option.suggest_choices and option.choices and key in values:
                try:
                    values[key] = choice_value(option, str(values[key]))
                except LineError as error:
                    raise BadOption(str(error)) from None
        if spec.kind == "play":
            return await self.play(actor, channel_id, spec.path, values)
        if spec.moderator:
            self.require_moderator(actor, f"use /{spec.qualified}")
        if actor.in_dm and not spec.in_dm:
            raise WrongStage(f"/{spec.qualified} works in the game's channel, not in a DM.")
        method = getattr(self, spec.handler)
        accepted = inspect.signature(method).parameters
        if "guild_id" in accepted:
            values["guild_id"] = guild_id
        open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
        unknown = [] if open_ended else [k for k in values if k not in accepted]
        if unknown:
            raise BadOption(f"/{spec.qualified} has no option {unknown[0]!r}.")
        result: Outbox = await method(actor, channel_id, **values)
        return result

    async def help(
        self, actor: Actor, channel_id: int | None, *, command: str | None = None
    ) -> Outbox:
        """What to type: the commands answering your current decision in full, then every
        command family in one line each (`bot.command_table.help_overview`, the console's
        words too; an ephemeral reply under 2000 characters).

        :param command: a command (``game new``, ``/battle deploy``): each of its options'
            format, allowed values and default, and an example (`help_command`); a group
            (``mod``) lists its commands.
        :raises BadOption: for a command there is not, naming the closest ones.
        """
        if command:
            return Outbox(
                reply=Reply(
                    chunks(await self.help_command(command, channel_id), REPLY_TEXT)[0],
                    ephemeral=True,
                )
            )
        lines = await self.help_owed(actor, channel_id) + help_overview(all_specs())
        return Outbox(reply=Reply(chunks(lines)[0], ephemeral=True))

    async def help_command(self, command: str, channel_id: int | None) -> list[str]:
        """The lines of /help COMMAND (see `help`): `bot.command_table.command_help`, and
        for /game new and /game options the words of the ``options:`` text — of the
        channel's game when it has one, else of every game — with an example.

        :raises BadOption: for a command there is not, naming the closest ones.
        """
        words = tuple(command.strip().lstrip("/").lower().split())
        specs = all_specs()
        spec = next((s for s in specs if s.path == words), None)
        if spec is None:
            group = [s for s in specs if s.path[: len(words)] == words]
            if words and group:
                return [
                    f"**/{' '.join(words)}** — /help {' '.join(words)} <command> for one:",
                    *help_lines(group),
                ]
            names = [s.qualified for s in specs]
            close = difflib.get_close_matches(" ".join(words), names, n=3, cutoff=0.5)
            hint = f" Did you mean {', '.join('/' + c for c in close)}?" if close else ""
            raise BadOption(f"There is no command /{' '.join(words)}.{hint} /help lists them.")
        if spec.path not in (("game", "new"), ("game", "options")):
            return [
                *command_help(spec),
                "(Values with spaces: as they are in Discord, in double quotes at the console.)",
            ]
        game = await self.repo.game_in_channel(channel_id) if channel_id is not None else None
        rulesets = [game.ruleset] if game is not None else [g.ruleset for g in registry.games()]
        first = adapter_for(rulesets[0])
        example = {"ruleset": first.ruleset} if spec.path == ("game", "new") else {}
        if first.options_example:
            example["options"] = first.options_example
        lines = command_help(spec, example)
        lines.append("The options: text, game by game (words separated by spaces):")
        for ruleset in rulesets:
            adapter = adapter_for(ruleset)
            forms = adapter.options_forms()
            title = self.rules_by_id(ruleset).title
            sample = f" e.g. options:{adapter.options_example}" if adapter.options_example else ""
            if not forms:
                lines.append(f"{ruleset} ({title}): no options of its own.")
            elif len(rulesets) == 1 and len(forms) <= 8:
                lines += [f"{ruleset} ({title}):{sample}", *(f"• {f}" for f in forms)]
            else:
                words_only = ", ".join(f.split(" — ")[0] for f in forms)
                lines.append(f"{ruleset}: {words_only};{sample}")
        lines.append("(In Discord, type the options: text without the quotes.)")
        return lines

    async def help_owed(self, actor: Actor, channel_id: int | None) -> list[str]:
        """The part of /help for the decisions ``actor`` owes now in the channel's game: per
        decision a ``**Now:** <prompt>`` line, then its commands (`help_lines`); ``[]`` when
        they owe none or the channel has no started game."""
        lines: list[str] = []
        if channel_id is None:
            return lines
        game = await self.repo.game_in_channel(channel_id)
        if game is None or game.state_json is None:
            return lines
        seats = await self.repo.seats(game.id)
        mine = self.seat_of(seats, actor.user_id)
        state = self.state_of(game)
        for decision in self.rules(game).pending(state):
            if mine is not None and decision.seat == mine.seat:
                lines.append(f"**Now:** {decision.prompt}")
                lines += help_lines(self.adapter(game).specs_for(decision))
        return lines

    # ------------------------------------------------------------------ rules
    async def rules_topic(
        self, actor: Actor, channel_id: int | None, *, topic: str | None = None
    ) -> Outbox:
        """``/game rules``: a rule topic of the channel's game (else the flagship's,
        `bot.registry.flagship`) as an embed —
        its summary in our own words and the commands it uses — or, without ``topic``,
        the list of top-level topics. Private (an ephemeral reply).

        A ``topic`` that names no topic exactly shows the closest one (saying so).

        :raises UnknownTopic: when nothing is even close to ``topic``.
        :raises UnknownRuleset: if the game's ruleset has no rule topics yet.
        """
        ruleset = await self._ruleset_here(channel_id)
        if topic is None or not topic.strip():
            listed = rules_help.search(ruleset, "")
            lines = [f"• {item.title}" for item in listed]
            embed = Embed(
                f"Rule topics ({ruleset})",
                "\n".join(lines)[:4000],
                "/game rules topic: (anywhere, DMs too: /rules topic:) and type part of a "
                "name; subtopics are suggested too.",
            )
            return Outbox(reply=Reply("", embeds=(embed,)))
        note = ""
        try:
            item = rules_help.topic(ruleset, topic)
        except rules_help.UnknownTopic:
            close = rules_help.search(ruleset, topic, limit=4)
            if not close:
                raise
            item = close[0]
            others = "; ".join(t.title for t in close[1:])
            note = f"No topic is called {topic.strip()!r}; this is the closest." + (
                f" Also close: {others}." if others else ""
            )
        embed = Embed(
            rules_help.choice_name(ruleset, item),
            rules_help.description(item),
            f"{item.id} · a summary in our own words; the rulebook decides.",
        )
        return Outbox(reply=Reply(note, embeds=(embed,)))

    async def _ruleset_here(self, channel_id: int | None) -> str:
        """The ruleset of the channel's open game, else the flagship (`bot.registry`)."""
        game = await self.repo.game_in_channel(channel_id) if channel_id is not None else None
        return game.ruleset if game is not None else registry.flagship()

    # ------------------------------------------------------------------ playing
    @staticmethod
    def _request(position: Position, seat: int) -> PlayRequest:
        """What a play command's builder or autocomplete sees for ``seat``."""
        owed = next((d for d in position.pending if d.seat == seat), None)
        legal = position.legal(seat) if owed is not None else []
        return PlayRequest(state=position.state, seat=seat, legal=legal, decision=owed)

    async def play(
        self, actor: Actor, channel_id: int | None, path: Sequence[str], options: Mapping[str, Any]
    ) -> Outbox:
        """Apply a play command of the ruleset's table as the actor's seat in the
        channel's game, then let computer seats and standing orders answer.

        The game's version read here, as the command arrives, goes with it: if the seat
        has had a command committed since when the game's lock is taken, this one was
        sent before its sender could see that one and is refused (`ServiceCore.act`:
        a command sent twice at once applies once).

        :raises NoGameHere | NotSeated | GamePaused | WrongStage | BadOption: service refusals.
        :raises RuleViolation: the engine's refusal (illegal, not your decision, sent again
            before the first one's result: `StaleState`...).
        """
        game = await self.game_here(channel_id)
        seat, _ = await self.require_seat(game, actor)
        self.require_active(game)
        key = tuple(path)
        adapter = self.adapter(game)
        if key not in adapter.play_paths():
            raise UnknownCommand(f"/{' '.join(path)} is not a command of this game.")

        def build(position: Position) -> dict[str, Any]:
            return adapter.build_command(key, self._request(position, seat.seat), options)

        batch = await self.act(
            game.id, seat.seat, build, actor_user_id=actor.user_id, seen_version=game.version
        )
        return await self.narrate(batch, actor)

    async def autocomplete(
        self,
        actor: Actor,
        path: Sequence[str],
        option: str,
        current: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> list[tuple[str, str]]:
        """Up to 25 ``(name, value)`` suggestions for ``option`` of the command at
        ``path``. Suggestions only: every value is checked again when the command runs.
        Never raises for a user error (an empty list instead)."""
        key = tuple(path)
        values = {k.replace("-", "_"): v for k, v in (options or {}).items() if v is not None}
        opt = option.replace("-", "_")
        try:
            found = next((s for s in all_specs() if s.path == key), None)
            fixed = None if found is None else found.option(option)
            if fixed is not None and fixed.suggest_choices:
                return choice_suggestions(fixed, current)
            if key == ("card",) and opt == "name":
                # Only the channel's game's names (its lobby's too); elsewhere the flagship's,
                # as /card then shows: never another game's.
                return adapter_for(await self._ruleset_here(channel_id)).card_names(current)
            if key in (("game", "new"), ("game", "options")) or (
                opt == "deck" and key[0] == "game"
            ):
                # The chosen ruleset's own words (/game new ruleset:, else the default;
                # otherwise the channel's game or lobby).
                ruleset = (
                    str(values.get("ruleset") or registry.flagship())
                    if key == ("game", "new")
                    else await self._ruleset_here(channel_id)
                )
                if opt != "deck":
                    return adapter_for(ruleset).lobby_suggestions(opt, current)
                if not adapter_for(ruleset).uses_decks:
                    return []
            if opt == "deck" or (key[0] == "deck" and opt == "name"):
                return await self._deck_suggestions(actor, current, saved_only=key[0] == "deck")
            if key == ("me", "notify") and opt == "time_zone":
                return self.time_zone_suggestions(current)
            if key == ("help",) and opt == "command":
                wanted = current.strip().lstrip("/").lower()
                return [
                    (f"/{s.qualified} — {s.description}", s.qualified)
                    for s in all_specs()
                    if s.qualified.startswith(wanted) or (wanted and wanted in s.qualified)
                ][:25]
            if key == ("hand",) and opt == "game":
                return await self._game_suggestions(actor)
            if key in (("game", "rules"), ("rules",)) and opt == "topic":
                return rules_help.choices(await self._ruleset_here(channel_id), current)
            if channel_id is None:
                return []
            game = await self.repo.game_in_channel(channel_id)
            if game is None or game.state_json is None:
                return []
            adapter = self.adapter(game)
            if key not in adapter.play_paths():
                return []
            seats = await self.repo.seats(game.id)
            seat = self.seat_of(seats, actor.user_id)
            if seat is None:
                return []
            position = Position(self.state_of(game), self.rules(game))
            return adapter.suggest(key, self._request(position, seat.seat), option, current, values)
        except (RuleViolation, BadOption, NotSeated, WrongStage):
            return []

    async def click(
        self,
        actor: Actor,
        custom_id: str,
        values: Sequence[str] = (),
        *,
        channel_id: int | None = None,
        guild_id: int | None = None,
    ) -> Outbox:
        """Handle a button or select menu made by this service.

        The custom id carries the game and the state version: a click on an older
        position is refused with the reason (the engine's `StaleState`). ``channel_id``
        and ``guild_id`` say where the click happened (informative: the game comes from
        the custom id, so clicks work in DMs too).

        :raises CustomIdError: for a custom id this bot did not make.
        :raises RuleViolation | StorageError | ServiceError: the user's error.
        """
        cid = customids.decode(custom_id)
        if cid.action == ME_GAMES:  # /me games' pages: of no game
            page = customids.arg_int(cid.args[0]) if cid.args else None
            return await self.me_games(actor, None, page=page)
        if cid.action == GAME_LIST:  # /game list's pages: of no game
            page = customids.arg_int(cid.args[0]) if cid.args else None
            return await self.game_list(actor, channel_id, guild_id=guild_id, page=page)
        if cid.action in PLAY_ACTIONS:
            return await self._play_click(actor, cid, values)
        game, seats = await self.repo.game_with_seats(cid.game_id)
        if cid.action in ("join", "leave", "ai", "start"):
            return await self._lobby_click(actor, cid.action, game.channel_id)
        if cid.action == "log":
            try:
                before = customids.arg_int(cid.args[0]) if cid.args else None
            except customids.CustomIdError:
                raise BadOption(
                    "That log page does not exist; /game log shows the newest."
                ) from None
            return await self.log(actor, game.channel_id, before=before)
        if cid.action == "skipv":
            return await self.vote_skip(actor, cid)
        if cid.action == "hand":
            return await self.hand(
                actor, game.channel_id if not actor.in_dm else None, game=game.id
            )
        if cid.action == "status":
            return await self.status(actor, game.channel_id)
        if cid.action == UNDO_ACTION:
            return await self.undo_answer(actor, cid)
        await self.require_seat(game, actor, seats)
        self.require_active(game)
        raise customids.CustomIdError(f"unknown component action {cid.action!r}")

    async def _play_click(
        self, actor: Actor, cid: customids.CustomId, values: Sequence[str]
    ) -> Outbox:
        """A decision's button or select (`PLAY_ACTIONS`): the game and its seats are read
        once, inside the game's lock, and the move is applied on that read (`act`'s ``batch``)."""
        async with self.lock(cid.game_id):
            game, seats = await self.repo.game_with_seats(cid.game_id)
            seat, _ = await self.require_seat(game, actor, seats)
            self.require_active(game)
            command: Any
            if cid.action == "cards":
                try:
                    command = self.adapter(game).command_from_selection(
                        cid.args[0] if cid.args else "", values
                    )
                except ValueError:
                    raise InvalidInput("That selection could not be read; choose again.") from None
            else:
                token = (
                    cid.args[0]
                    if cid.action == "opt" and cid.args
                    else (values[0] if values else "")
                )
                index, digest = customids.read_option_token(token)

                def chosen(position: Position) -> Any:
                    legal = position.legal(seat.seat)
                    if not legal:
                        position.rules.check_decision(position.state, seat.seat, "")
                    found = customids.find_option(
                        [cmd.model_dump_json() for cmd in legal], index, digest
                    )
                    if found is None:
                        raise InvalidInput(
                            "That choice no longer matches the game; look at the latest message and choose again."
                        )
                    return legal[found]

                command = chosen
            batch = await self.act(
                game.id,
                seat.seat,
                command,
                actor_user_id=actor.user_id,
                expected_version=cid.version,
                batch=self.batch_of(game, seats),
            )
        return await self.narrate(batch, actor)

    async def _lobby_click(self, actor: Actor, action: str, channel_id: int) -> Outbox:
        if action == "join":
            return await self.join(actor, channel_id)
        if action == "leave":
            return await self.leave(actor, channel_id)
        if action == "ai":
            return await self.add_ai(actor, channel_id)
        return await self.start(actor, channel_id)

    # ------------------------------------------------------------------ standing orders
    async def set_orders(self, actor: Actor, channel_id: int | None, **orders: str) -> Outbox:
        """Set your standing orders for battles in the channel's game (``ask`` clears one);
        with no option, show them. The service then answers matching decisions for you.

        :raises NoGameHere | NotSeated | BadOption:
        """
        game = await self.game_here(channel_id)
        seat, _ = await self.require_seat(game, actor)
        kinds = self.adapter(game).order_kinds()
        for kind, value in orders.items():
            allowed = {v for _, v in kinds.get(kind, ("", ()))[1]}
            if value not in allowed:
                raise BadOption(
                    f"{kind} orders are one of: {', '.join(sorted(allowed)) or 'none'}."
                )
        if orders:
            async with self.lock(game.id):  # the seat may have changed hands meanwhile
                seats = await self.repo.seats(game.id)
                holder = next((s for s in seats if s.seat == seat.seat), None)
                if holder is None or holder.user_id != actor.user_id or holder.is_ai:
                    raise NotSeated(
                        f"You no longer hold {seat_name(seat.seat)} in game #{game.id}, so "
                        "your standing orders were not changed."
                    )
                for kind, value in orders.items():
                    await self.repo.set_standing_order(
                        game.id, seat.seat, kind, None if value == "ask" else value
                    )
        current = (await self.repo.standing_orders(game.id)).get(seat.seat, {})
        shown = (
            ", ".join(f"{k}: {v}" for k, v in sorted(current.items()))
            or "none (you are asked every time)"
        )
        text = f"Your standing orders: {shown}."
        if not orders:
            where = next(
                (s.qualified for s in self.adapter(game).specs() if s.handler == "set_orders"),
                "battle orders",
            )
            example = " ".join(
                f"{kind}:{choices[-1][1]}" for kind, (_, choices) in list(kinds.items())[:2]
            )
            text += f"\nSet one with /{where} and any of: " + "; ".join(
                f"{kind} " + "|".join(v for _, v in choices) for kind, (_, choices) in kinds.items()
            )
            text += f" (ask: ask me again). E.g. /{where} {example}."
        out = Outbox(reply=Reply(text))
        if orders and game.status is GameStatus.ACTIVE:
            await self.continue_automatic_into(out, game.id, actor)
        return out

    # ------------------------------------------------------------------ following
    async def status(self, actor: Actor, channel_id: int | None) -> Outbox:
        """The position (board or battlefield image), whose turn and phase it is, who owes
        which decision and by when (a public reply)."""
        game = await self.latest_game_here(channel_id)
        if game.status is GameStatus.LOBBY:
            out = await self.lobby_post(game.id, "")
            post = out.posts[0]
            return Outbox(reply=Reply(post.text, ephemeral=False, components=post.components))
        more = Outbox()
        resumed = await self.resume_automatic(game.id) if game.status is GameStatus.ACTIVE else None
        if resumed is not None and resumed.after is not None:
            # the game, seats and position as read under the lock, not read again
            game, seats = resumed.game, resumed.seats
            position = resumed.position(resumed.after)
            if resumed.steps:
                more = await self.narrate(resumed, None)
        else:
            seats = await self.repo.seats(game.id)
            position = self.kept(game)  # the view, pending and result asked once
        state = position.state
        names = {s.seat: s.display_name for s in seats}
        view = position.public_view
        lines = [
            f"**Game #{game.id}** ({game.status.value})",
            *self.adapter(game).status_lines(view, names),
        ]
        deadlines = {
            d.seat: d.due_at for d in await self.repo.deadlines(game.id) if d.kind == "turn"
        }
        by_seat = {s.seat: s for s in seats}
        for decision in position.pending:
            seat = by_seat.get(decision.seat)
            who = "computer" if seat is None or seat.is_ai else f"<@{seat.user_id}>"
            due = deadlines.get(decision.seat)
            lines.append(
                f"⏳ {seat_name(decision.seat)} ({who}): {decision.prompt}"
                + (f" — deadline {discord_time(due)}" if due else "")
            )
        result = position.result
        if result.finished:
            lines.append(f"🏆 {result.reason}")
        elif game.status is GameStatus.ACTIVE:
            away = await self.away_line(game, seats)
            if away:
                lines.append(away)
        kind = self.adapter(game).status_picture(state)
        images = await self.pictures(kind, position)
        reply = Reply(chunks(lines)[0], ephemeral=False, images=images)
        more.reply = reply
        return more

    async def log(
        self, actor: Actor, channel_id: int | None, *, before: int | None = None
    ) -> Outbox:
        """One page of the public log (newest page first; a button pages back). Public
        lines only: never a private line or a command's hidden choice."""
        if before is not None and not 1 <= before <= MAX_LOG_SEQ:
            raise BadOption(
                f"There is no log entry {before}; /game log shows the newest page."
                if before > 0
                else "Log entries are numbered from 1; /game log shows the newest page."
            )
        game = await self.latest_game_here(channel_id)
        page = (
            await self.repo.read_log(game.id, before_seq=before, limit=LOG_PAGE) if before else None
        )
        if page is None:
            newest = await self.repo.read_log(game.id, before_seq=10**12, limit=LOG_PAGE)
            page = newest
        header = f"**Log of game #{game.id}**"
        shown: list[str] = []
        first_shown: int | None = None
        budget = 1900 - len(header)
        for entry in reversed(page.entries):
            block = self._log_lines(entry)
            size = sum(len(line) + 1 for line in block)
            if shown and size > budget:
                break
            shown = block + shown
            budget -= size
            first_shown = entry.seq
        if not shown:
            shown = ["(nothing yet)"]
        more = page.has_more or (first_shown is not None and first_shown != page.first_seq)
        components: tuple[Button, ...] = ()
        if more and first_shown is not None:
            components = (
                Button(
                    "Older",
                    customids.encode(game.id, game.version, "log", first_shown),
                    "secondary",
                ),
            )
        text = "\n".join([header, *shown])
        return Outbox(reply=Reply(chunks([text])[0], components=components))

    @staticmethod
    def _log_lines(entry: LogEntry) -> list[str]:
        if entry.kind is LogKind.MODERATOR and (entry.reason or "").startswith(PLAYER_UNDO):
            target = f" ({seat_name(entry.seat)})" if entry.seat is not None else ""
            why = (entry.reason or "").removeprefix(PLAYER_UNDO).lstrip(": ")
            return [
                f"`{entry.seq}` ↩️ <@{entry.actor_user_id}> undid #{entry.undoes}{target} — {why}"
            ]
        if entry.kind is LogKind.MODERATOR:
            why = f" — {entry.reason}" if entry.reason else ""
            target = f" ({seat_name(entry.seat)})" if entry.seat is not None else ""
            return [
                f"`{entry.seq}` 🛡️ <@{entry.actor_user_id}> {entry.action.value if entry.action else ''}{target}{why}"
            ]
        texts = [e.text for e in entry.events if e.text]
        if entry.kind is LogKind.SETUP:
            return [
                f"`{entry.seq}` setup: " + " ".join(texts[:3]) + (" …" if len(texts) > 3 else "")
            ]
        who = seat_name(entry.seat) if entry.seat is not None else "?"
        undone = " (undone)" if entry.undone_by is not None else ""
        if entry.reason and entry.reason.startswith(f"{MODERATOR_SKIP}:"):
            who += f" (🛡️ <@{entry.actor_user_id}> {entry.reason})"
        elif entry.reason and entry.reason.startswith((DEADLINE_MISSED, VOTE_SKIP, "away:")):
            who += f" ({entry.reason})"
        return [f"`{entry.seq}` {who}{undone}: " + clip(" ".join(texts), 300)]

    async def hand(
        self, actor: Actor, channel_id: int | None, *, game: int | None = None
    ) -> Outbox:
        """Your Hand and Risk Stack, privately (an ephemeral reply), with the choices of a
        decision you owe that shows private cards. In a DM (or outside the game's channel)
        with several games, name the game with ``game``.

        :raises ChooseGame | NotSeated | NoGameHere:
        """
        target = None
        if channel_id is not None and not actor.in_dm and game is None:
            target = await self.repo.game_in_channel(channel_id)
        if target is None:
            mine = [
                us
                for us in await self.repo.games_for_user(actor.user_id)
                if us.game.status is not GameStatus.LOBBY
            ]
            if game is not None:
                mine = [us for us in mine if us.game.id == game]
            if not mine:
                raise NotSeated(
                    "You have no seat in a started game" + (f" #{game}." if game else ".")
                )
            if len(mine) > 1:
                listed = ", ".join(f"#{us.game.id} (<#{us.game.channel_id}>)" for us in mine)
                raise ChooseGame(f"You play several games: {listed}. Say which with game:.")
            target = await self.repo.get_game(mine[0].game.id)
        seat, _ = await self.require_seat(target, actor)
        if actor.in_dm and seat.dm_reachable is not True:
            await self.repo.set_dm_reachable(actor.user_id, True)
        position = self.kept(target)  # the narration's pending and buttons, if kept
        text = self.adapter(target).hand_text(
            position.state, seat.seat, game_id=target.id, channel_id=target.channel_id
        )
        components: tuple[Any, ...] = ()
        for decision in position.pending:
            if decision.seat == seat.seat and target.status is GameStatus.ACTIVE:
                ui = self.decision_ui(target, position, decision)
                text += f"\n➡️ {ui.text}"
                components = ui.components
        image = await self.hand_picture(position, seat.seat)
        return Outbox(
            reply=Reply(
                chunks([text])[0],
                ephemeral=True,
                images=(image,) if image else (),
                components=components,
            )
        )

    # ------------------------------------------------------------------ cards and decks
    async def card(self, actor: Actor, channel_id: int | None, *, name: str) -> Outbox:
        """A card (or other component) of the channel's game (its lobby's too) in words;
        outside a game's channel (the flagship's, `bot.registry`), and in a game whose
        seats bring decks, a card of its pool (`DeckHooks.pool_card`) as an
        image (name or card id; the closest name is tried). Never another game's card.

        :raises BadOption: when nothing of that game has that name (naming the closest).
        """
        ruleset = await self._ruleset_here(channel_id)
        adapter = adapter_for(ruleset)
        hooks = adapter.decks
        if hooks is None:
            found = adapter.card_lookup(name)
            if found is None:
                close = ", ".join(label.split(" (")[0] for label, _ in adapter.card_names(name)[:5])
                raise BadOption(
                    f"{self.rules_by_id(ruleset).title} has nothing called {name.strip()!r}"
                    + (f"; closest: {close}." if close else ".")
                    + " Start typing a name to see suggestions."
                )
            title, text = found
            return Outbox(reply=Reply(f"**{title}**\n{text}"[:1900], ephemeral=True))
        card = hooks.pool_card(name)
        if card is None:
            matches = adapter.card_names(name)
            if len(matches) == 0:
                anywhere = (
                    await self.repo.game_in_channel(channel_id) if channel_id is not None else None
                )
                where = (
                    ""
                    if anywhere is not None
                    else " (outside a game's channel /card looks in the pool of "
                    f"{self.rules_by_id(ruleset).title})"
                )
                raise BadOption(
                    f"No card is called {name.strip()!r}{where}. Start typing a name to see "
                    "suggestions."
                )
            card = hooks.pool_card_by_id(matches[0][1])
        images: tuple[Image, ...] = ()
        if self.renderer is not None:
            import asyncio

            from rendering.pictures import CardFace

            face = await asyncio.to_thread(
                self.renderer.draw, ruleset, "card", CardFace(card=card.id)
            )
            images = (Image(f"{card.id}.png", face.data, card.name),)
        text = f"**{card.name}** ({card.type})" + (f": {card.text}" if card.text else "")
        return Outbox(reply=Reply(text[:1900], ephemeral=True, images=images))

    async def deck_import(
        self, actor: Actor, channel_id: int | None, *, name: str, text: str | None = None
    ) -> Outbox:
        """Save a deck from a pasted list (one card per line; ``;`` and ``,`` also separate
        entries because slash command text has no line breaks: `deck_lines`). Only legal
        decks are saved; every problem is listed (privately: deck contents are yours).

        :raises DeckProblem: listing what could not be read or what makes it illegal.
        """
        name = name.strip()
        if not 1 <= len(name) <= 60:
            raise DeckProblem("Give the deck a name of 1 to 60 characters.")
        if text is None or not text.strip():
            raise DeckProblem(
                "Give the card list in text:, entries separated by ; or , "
                '(e.g. text:"3x Orc; 2x Wolf; Asylum").'
            )
        ruleset, hooks = self._deck_game()
        cards, summary = hooks.read_deck(deck_lines(text))
        flat = [card_id for card_id, count in sorted(cards.items()) for _ in range(count)]
        saved = await self.repo.save_deck(actor.user_id, ruleset=ruleset, name=name, cards=flat)
        return Outbox(
            reply=Reply(
                f"Saved deck **{saved.name}** (#{saved.id}): {summary} "
                f"Use it with /game join deck:{saved.name}."
            )
        )

    @staticmethod
    def _deck_game() -> tuple[str, DeckHooks]:
        """The game of /deck's saved decks (`bot.adapters.deck_adapter`) and its hooks.

        :raises DeckProblem: when no game is played with decks.
        """
        adapter = deck_adapter()
        if adapter is None or adapter.decks is None:
            raise DeckProblem("No game here is played with decks.")
        return adapter.ruleset, adapter.decks

    async def deck_show(self, actor: Actor, channel_id: int | None, *, name: str) -> Outbox:
        """One of your saved decks as a list (or a ready-made deck). :raises DeckProblem:"""
        ruleset, hooks = self._deck_game()
        saved = await self.find_saved_deck(actor.user_id, ruleset, name)
        if saved is None:
            ready = self._ready_deck_id(hooks, name)
            if ready is None:
                raise DeckProblem(f"You have no deck called {name!r}; see /deck list.")
            deck_name, cards = hooks.ready_deck_cards(ready)
            title = f"Ready-made deck {deck_name}"
        else:
            cards = {}
            for card_id in saved.cards:
                cards[card_id] = cards.get(card_id, 0) + 1
            title = f"Deck {saved.name} (#{saved.id})"
        body = hooks.deck_text(cards)
        return Outbox(reply=Reply(chunks([f"**{title}** — {sum(cards.values())} cards", body])[0]))

    async def deck_list(self, actor: Actor, channel_id: int | None) -> Outbox:
        """Your saved decks and the ready-made ones."""
        ruleset, hooks = self._deck_game()
        decks = await self.repo.list_decks(actor.user_id, ruleset=ruleset)
        lines = (
            ["**Your decks:**"] + [f"• {d.name} (#{d.id}, {len(d.cards)} cards)" for d in decks]
            if decks
            else ["You have no saved decks; /deck import saves one."]
        )
        lines.append(
            "**Ready-made decks:** "
            + ", ".join(f"{k.removeprefix('deck_')} ({v})" for k, v in hooks.ready_decks().items())
        )
        return Outbox(reply=Reply("\n".join(lines)[:1900]))

    async def deck_delete(self, actor: Actor, channel_id: int | None, *, name: str) -> Outbox:
        """Delete one of your saved decks. :raises DeckProblem: if you have none by that name."""
        ruleset, _ = self._deck_game()
        saved = await self.find_saved_deck(actor.user_id, ruleset, name)
        if saved is None or not await self.repo.delete_deck(saved.id, user_id=actor.user_id):
            raise DeckProblem(f"You have no deck called {name!r}; see /deck list.")
        return Outbox(reply=Reply(f"Deleted deck {saved.name}."))

    async def _deck_suggestions(
        self, actor: Actor, current: str, *, saved_only: bool
    ) -> list[tuple[str, str]]:
        adapter = deck_adapter()
        if adapter is None or adapter.decks is None:
            return []
        hooks = adapter.decks
        pairs = [
            (f"{d.name} (saved, {len(d.cards)} cards)", d.name)
            for d in await self.repo.list_decks(actor.user_id, ruleset=adapter.ruleset)
        ]
        if not saved_only:
            pairs += [
                (f"{v} (ready-made)", k.removeprefix("deck_"))
                for k, v in hooks.ready_decks().items()
            ]
        needle = current.lower()
        return [p for p in pairs if needle in p[0].lower()][:25]

    async def _game_suggestions(self, actor: Actor) -> list[tuple[str, str]]:
        mine = await self.repo.games_for_user(actor.user_id)
        return [
            (
                f"Game #{us.game.id} ({us.game.status.value}, {seat_name(us.seat.seat)})",
                str(us.game.id),
            )
            for us in mine
        ][:25]

    # ------------------------------------------------------------------ delivery and time
    async def record_dm_result(
        self, user_id: int, *, delivered: bool, game_id: int | None = None
    ) -> Outbox:
        """The deliverer reports whether a DM reached ``user_id``. A failure is stored on
        the user's seats (later private choices are announced in the channel, pointing to
        /hand) and a notice without any private detail is posted in the game's channel."""
        await self.repo.set_dm_reachable(user_id, delivered)
        if delivered or game_id is None:
            return Outbox()
        game = await self.repo.get_game(game_id)
        text = (
            f"<@{user_id}> I cannot send you direct messages (your DMs are closed). "
            "Use /hand in this channel to see your cards and choices; only you will see the reply."
        )
        return Outbox(posts=[ChannelPost(game.channel_id, text, mention_user_ids=(user_id,))])

    async def due_reminders(self, now: datetime | None = None, *, held: bool = False) -> Outbox:
        """Post and do what the clock calls for: reminders for decisions owed, passed
        deadlines (what the game's deadline policy says: `bot.deadlines`), and the moves
        of computer seats left over from a long automatic sequence. Call it every minute
        or so; the deadlines are in the database, so they survive restarts, and each acts
        once. ``held``: the caller confirms the reminder posts once delivered
        (``Outbox.settles``, `deadline_posts_delivered`: the reminder loop), so that one a
        restart interrupted is posted again, in place (`bot.deadlines`)."""
        moment = now or self.clock()
        out = await self.fire_deadlines(moment, held=held)
        for game_id in sorted(self._unfinished):
            await self.continue_automatic_into(out, game_id)
        return out

    async def recover(self, *, owns: Callable[[int | None], bool] | None = None) -> Outbox:
        """At start-up: finish the automatic moves of every active game where a computer
        seat, an away seat or a standing order still owes a decision (e.g. after a crash);
        with ``owns``, only of the games whose guild id it accepts (with several bot
        processes: this one's shards, `HeroesBot.recovering`).

        Only the games that can owe such a move are read (`Repository.games_to_resume`:
        active, with a computer seat, a standing order or a seat that may be away, found
        through the index of the open games), so a restart reads no finished game and no
        game of present humans only; the deadlines are the reminders' (`due_reminders`),
        which read only the due ones.
        """
        out = Outbox()
        for game_id in await self.repo.games_to_resume():
            if owns is not None and not owns((await self.repo.get_game(game_id)).guild_id):
                continue
            await self.continue_automatic_into(out, game_id)
        return out

    # ------------------------------------------------------------------ inspection
    async def describe_pending(self, game_id: int) -> list[str]:
        """Plain lines saying who owes what in a game (for the console and tests)."""
        game = await self.repo.get_game(game_id)
        state = self.state_of(game)
        return [f"{seat_name(d.seat)}: {d.prompt}" for d in self.rules(game).pending(state)]

    @staticmethod
    def describe_command(state: GameState, command: Any) -> str:
        """One line for a command (may name the acting seat's private cards)."""
        from bot.adapters import adapter_for

        return adapter_for(state.ruleset).describe(state, command)


__all__ = ["Batch", "GameService"]
