"""The lobby: creating a game, taking seats, adding computer seats, options, and the start.

Rule: none (each game's set-up is its engine's; decks through its adapter's
`bot.adapters.DeckHooks`, what an earlier game left through its `bot.adapters.CarryOver`).
A channel or thread holds one open game; on Discord /game new in a text channel (or with a
forum) opens the game in a new thread of its own (`ThreadOpener`), so a channel hosts many
games. The creator is the host and takes the first seat; others join (with a
ready-made deck, a saved deck, or none: a ready-made deck is dealt at the start). Only the
host (or a moderator) changes options, adds computer seats and starts the game. The game's
seed comes from storage's secure random source and is kept in the game row.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from typing import Any

from bot import customids, registry
from bot.actors import Actor
from bot.adapters import DeckHooks, adapter_for
from bot.deadlines import POLICY_WORDS
from bot.errors import BadOption, BotLacksPermissions, DeckProblem, NotHost, WrongStage
from bot.notify import jump_link
from bot.outbox import Button, ChannelPost, Outbox, Reply
from bot.paging import page_of
from bot.service_core import Batch, ServiceCore, chunks
from engine.core.model import seat_name
from engine.core.ruleset import Ruleset
from engine.core.search import LEVELS
from engine.core.words import plural
from storage.errors import DeckNotFound
from storage.records import (
    DEADLINE_POLICIES,
    OPEN_STATUSES,
    Game,
    GameSettings,
    GameStatus,
    SavedDeck,
    Seat,
)

AI_NAMES = (
    "Computer Gelu",
    "Computer Tarnum",
    "Computer Lysander",
    "Computer Solmyr",
    "Computer Kilgor",
)
"""Display names of computer seats, in order of arrival."""

DECK_RULES = ("any", "ready-made")
"""``any``: ready-made or saved decks; ``ready-made``: ready-made decks only."""

LIST_PAGE = 8
"""Games per page of ``/game list``."""

GAME_LIST = "gl"
"""The custom id action of ``/game list``'s page buttons (``ht:0:0:gl:<page>``: of no
game; `GameService.click` sends it to `LobbyMixin.game_list`)."""

SETUP_LINES = 12
"""Set-up event lines the game's first post shows at most."""


def _setup_summary(lines: list[str]) -> list[str]:
    """At most `SETUP_LINES` lines of the set-up events: when there are more, the first and
    the last ones (where the set-up ends: who is first, what comes next) around a line
    pointing to /game log for the rest."""
    if len(lines) <= SETUP_LINES:
        return lines
    head = (SETUP_LINES - 1) // 2
    tail = SETUP_LINES - 1 - head
    hidden = len(lines) - head - tail
    return [*lines[:head], f"… {hidden} more set-up lines in /game log …", *lines[-tail:]]


def seat_range(rules: Ruleset[Any], options: Mapping[str, Any]) -> tuple[int, int]:
    """The fewest and most seats of a game of ``rules`` with the lobby's ``options`` (the
    validated dict `LobbyService._engine_options` keeps): `Ruleset.seat_range` (homm3's
    map game takes 2 or 3 players, its other modes 2).

    :raises InvalidInput: for options the ruleset refuses (checked when they were set)."""
    return rules.seat_range(rules.parse_options(options))


def _counted(fewest: int, most: int) -> str:
    """``2 players`` or ``2 to 3 players``."""
    return f"{most} players" if fewest == most else f"{fewest} to {most} players"


def _and(names: tuple[str, ...]) -> str:
    """``the permission A``, ``the permissions A and B``, ``... A, B and C``."""
    if len(names) == 1:
        return f"the permission {names[0]}"
    return f"the permissions {', '.join(names[:-1])} and {names[-1]}"


ThreadOpener = Callable[[str, str], Awaitable[int]]
"""How the Discord layer opens a game's own thread: ``await place(name, opening)`` creates a
public thread under the channel where /game new was typed, or a post in the forum named
by its ``forum`` option (``opening`` is then the post's first message; a thread in a text
channel does not use it), and returns its channel id. ``name`` is 1-100 characters.
Raises what creating it raised (a Discord error): then no game was created."""

WHERE = ("thread", "here")
"""/game new's ``where``: ``thread`` (default) opens the game in a new thread of the text
channel; ``here`` keeps it in the channel itself (one open game per channel)."""


def thread_name(ruleset: str, host: str) -> str:
    """The name of a game's own thread or forum post before its number is known:
    ``mmh — ann's game`` (at most 100 characters, Discord's limit)."""
    return f"{ruleset} — {host}'s game"[:100]


def numbered_thread_name(ruleset: str, game_id: int, host: str) -> str:
    """The name a game's own thread or forum post gets once the game exists:
    ``mmh #12 — ann's game`` (at most 100 characters)."""
    return f"{ruleset} #{game_id} — {host}'s game"[:100]


class LobbyMixin(ServiceCore):
    """Lobby commands of the `GameService`."""

    # ------------------------------------------------------------------ creating
    async def new_game(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        guild_id: int | None = None,
        ruleset: str | None = None,
        players: int | None = None,
        deadline_hours: int | None = None,
        deadline_policy: str | None = None,
        deck_rule: str | None = None,
        deck: str | None = None,
        seed: int | None = None,
        where: str | None = None,
        forum: int | None = None,
        place: ThreadOpener | None = None,
        **game_options: Any,
    ) -> Outbox:
        """Open a lobby in ``channel_id`` with ``actor`` as host in the first seat, or in a
        thread of its own.

        A game gets its own thread when the Discord layer can make one and passes
        ``place`` (`ThreadOpener`): /game new typed in a text channel (``where`` left out
        or ``thread``), or with ``forum`` (a new post there). Everything is checked first,
        then ``place`` is called, then the game is created with the new thread as its
        channel; so one channel hosts many games. Typed in a thread, with ``where:here``,
        or at the console (no ``place``), the game opens in ``channel_id`` as before.

        :param ruleset: the game (default: the flagship, `bot.registry.flagship`).
        :param players: how many seats the lobby offers (2-6; default: up to 6).
        :param game_options: the ruleset's own settings (its adapter's ``lobby_options``,
            e.g. ``map_sections`` and ``assembly``), and ``options``: the ``options:``
            text of /game new, read by the game's adapter (``mode:adventure size:medium``).
        :param deadline_hours: hours per decision (0: none; default: the guild's setting).
        :param deadline_policy: what a passed deadline does (``remind``, ``default``,
            ``computer``: `bot.deadlines`; default: the guild's setting).
        :param deck_rule: ``any`` (default) or ``ready-made``.
        :param deck: the host's deck (a ready-made deck or a saved deck name).
        :param seed: a fixed seed (console and tests); default: a secure random one.
        :param where: ``thread`` (default) or ``here`` (`WHERE`).
        :param forum: the id of a forum channel to open the game in as a new post.
        :param place: opens the game's thread (`ThreadOpener`); given by the Discord layer
            only (it is no option of the command).
        :returns: the lobby post (public, in the game's channel) and a short reply (with a
            jump link to the new thread when one was opened).
        :raises BotLacksPermissions: when the bot lacks channel permissions a game needs
            (``actor.bot_missing``: where it opens a thread, also Create Public Threads or
            Send Messages in Threads), naming them; nothing is created.
        :raises ChannelBusy: if the game stays in a channel that has an open game.
        :raises InvalidInput | BadOption: for bad options (also ``forum`` with
            ``where:here``, or ``forum`` where no forum post can be made: the console).
        """
        if channel_id is None or actor.in_dm:
            raise WrongStage("Create games in a server channel (or a thread), not in a DM.")
        if where is not None and where not in WHERE:
            raise BadOption(f"where must be one of {', '.join(WHERE)}, not {where!r}.")
        if forum is not None and where == "here":
            raise BadOption(
                "Choose where:here or a forum, not both: with forum: the game opens as a new "
                "post there."
            )
        if forum is not None and place is None:
            raise BadOption("Forum posts can be opened on Discord only; leave out forum:.")
        if actor.bot_missing and forum is not None:
            raise BotLacksPermissions(
                f"I cannot open a game in <#{forum}>: I lack {_and(actor.bot_missing)} there. "
                "Someone who manages the server can grant them to my role (the forum's "
                "settings, Permissions), or open the game in a channel. Nothing was created."
            )
        if actor.bot_missing:
            raise BotLacksPermissions(
                f"I cannot run a game in this channel: I lack {_and(actor.bot_missing)} here. "
                "Someone who manages the server can grant them to my role (the channel's "
                "settings, Permissions), or open the game in another channel. Nothing was "
                "created."
            )
        rules = self.rules_by_id(ruleset or registry.flagship())
        if players is not None and not rules.min_players <= players <= rules.max_players:
            raise BadOption(
                f"{rules.title} is played by {rules.min_players} to {rules.max_players} players."
            )
        options = self._engine_options(rules.id, {}, **game_options)
        fewest, most = seat_range(rules, options)
        if players is not None and not fewest <= players <= most:
            raise BadOption(
                f"{rules.title} with these options is played by {_counted(fewest, most)}, "
                f"not {players}. Nothing was created."
            )
        deadline = self._deadline(deadline_hours)
        policy = self._policy(deadline_policy)
        rule = self._deck_rule(deck_rule or "any")
        ready, saved = await self._deck_choice(actor, rules.id, options, rule, deck)
        opened = place is not None and (forum is not None or where != "here")
        if opened:
            assert place is not None
            opening = (
                f"{actor.display_name} opened a game of {rules.title}: the lobby follows. "
                "Take a seat with /game join here."
            )
            channel_id = await place(thread_name(rules.id, actor.display_name), opening)
        game = await self.repo.create_game(
            channel_id,
            ruleset=rules.id,
            guild_id=guild_id,
            host_user_id=actor.user_id,
            options=options,
            seed=seed,
        )
        await self.repo.save_game_settings(
            GameSettings(game.id, players, deadline, rule, deadline_policy=policy)
        )
        await self.repo.join_game(
            game.id,
            user_id=actor.user_id,
            display_name=actor.display_name,
            ready_deck=ready,
            saved_deck_id=saved,
            max_seats=players or most,
        )
        out = await self.lobby_post(game.id, f"{actor.display_name} opened the lobby.")
        out.reply = Reply(
            f"Game #{game.id} is open. Others join with /game join; start it with /game start."
        )
        if opened:
            out.reply = Reply(
                f"Game #{game.id} is open in its own thread: {jump_link(guild_id, channel_id)}. "
                "Others join there with /game join (or from /game list); start it there with "
                "/game start."
            )
        return out

    async def game_list(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        guild_id: int | None = None,
        page: int | None = None,
    ) -> Outbox:
        """``/game list``: the server's open lobbies (first) and running or paused games,
        newest first within each, `LIST_PAGE` per page (``page`` from 1): each with its
        game, seats, host or players and a jump link to its channel
        (`bot.notify.jump_link`), and a Join button for each lobby with a free seat (the
        lobby post's own custom id: the click joins through `join` with the lobby's
        channel). Private, with ◀ / ▶ buttons to the other pages (`GAME_LIST`). At the
        console (no guild) it lists every open game of the database.

        :raises BadOption: for a page before the first or past the last one.
        """
        found = await self.repo.list_games(guild_id=guild_id, statuses=OPEN_STATUSES, limit=500)
        found.sort(key=lambda g: g.status is not GameStatus.LOBBY)  # stable: newest first
        if not found:
            return Outbox(
                reply=Reply(
                    "No open lobby or running game on this server. Open one with /game new "
                    "in a channel or thread."
                )
            )
        shown = page_of(found, page, LIST_PAGE, command="/game list", whose="This server has")
        lobbies = sum(g.status is GameStatus.LOBBY for g in found)
        lines = [
            f"**Games on this server**: {plural(lobbies, 'open lobby', 'open lobbies')}, "
            f"{len(found) - lobbies} running"
        ]
        buttons: list[Button] = []
        for game in shown.shown:
            rules = self.rules_by_id(game.ruleset)
            seats = await self.repo.seats(game.id)
            link = jump_link(game.guild_id, game.channel_id)
            head = f"**#{game.id} {rules.title}**"
            if game.status is GameStatus.LOBBY:
                settings = await self.repo.game_settings(game.id)
                most = settings.seats_wanted or seat_range(rules, game.options)[1]
                host = next((s.display_name for s in seats if s.user_id == game.host_user_id), None)
                hosted = f" · host {host}" if host else ""
                full = " (full)" if len(seats) >= most else ""
                lines.append(f"{head} · lobby · seats {len(seats)}/{most}{full}{hosted} · {link}")
                if not full:
                    buttons.append(
                        Button(f"Join #{game.id}", customids.encode(game.id, 0, "join"), "success")
                    )
                continue
            people = ", ".join(s.display_name for s in seats if not s.is_ai)
            state = "paused" if game.status is GameStatus.PAUSED else "running"
            lines.append(f"{head} · {state} · {plural(len(seats), 'player')} ({people}) · {link}")
        lines += shown.footer("/game list")
        if buttons:
            lines.append("Join a lobby with its button, or with /game join in its channel.")
        buttons += shown.buttons(GAME_LIST)
        return Outbox(reply=Reply(chunks(lines)[0], components=tuple(buttons)))

    @staticmethod
    def rules_by_id(ruleset: str) -> Any:
        """The ruleset ``ruleset``. :raises InvalidInput: naming the known ones."""
        from engine.core.ruleset import get_ruleset

        return get_ruleset(ruleset)

    @staticmethod
    def _deadline(hours: int | None) -> timedelta | None:
        if hours is None:
            return None
        if hours < 0 or hours > 24 * 30:
            raise BadOption("The deadline is 0 (none) to 720 hours.")
        return timedelta(hours=hours)

    @staticmethod
    def _policy(policy: str | None) -> str | None:
        """A deadline policy option checked (None: the server's default).

        :raises BadOption: naming the policies."""
        if policy is None or policy in DEADLINE_POLICIES:
            return policy
        raise BadOption(f"The deadline policy is one of: {', '.join(DEADLINE_POLICIES)}.")

    @staticmethod
    def _deck_rule(rule: str) -> str:
        if rule not in DECK_RULES:
            raise BadOption(f"The deck rule is one of: {', '.join(DECK_RULES)}.")
        return rule

    def _engine_options(
        self, ruleset: str, current: Mapping[str, Any], **changes: Any
    ) -> dict[str, Any]:
        """Merge option changes into ``current`` and validate them with the ruleset.
        ``changes`` are lobby settings by keyword, and ``options``: the game's options
        text (`bot.adapters.RulesetAdapter.read_options_text`; a setting it gives as
        ``none`` goes back to the engine's default).

        :raises InvalidInput: naming the bad option.
        """
        adapter = adapter_for(ruleset)
        rules = self.rules_by_id(ruleset)
        text = changes.pop("options", None)
        given = {k: v for k, v in changes.items() if v is not None}
        cleared: set[str] = set()
        if text is not None:
            for key, value in adapter.read_options_text(str(text)).items():
                if value is None:
                    cleared.update(adapter.engine_keys(key))
                else:
                    given[key] = value
        foreign = [k for k in given if k not in adapter.lobby_options]
        if foreign:
            mine = ", ".join(o.replace("_", "-") for o in adapter.lobby_options) or "none"
            raise BadOption(
                f"{foreign[0].replace('_', '-')} is not an option of {rules.title} "
                f"(its options: {mine})."
            )
        merged = {k: v for k, v in current.items() if k not in cleared}
        merged.update(adapter.engine_options(given))
        parsed = rules.parse_options(merged)
        adapter.check_options(parsed)
        dumped: dict[str, Any] = parsed.model_dump(mode="json", exclude={"decks"})
        return dumped

    # ------------------------------------------------------------------ seats
    async def _lobby(self, channel_id: int | None) -> Game:
        game = await self.game_here(channel_id)
        if game.status is not GameStatus.LOBBY:
            raise WrongStage(
                f"Game #{game.id} has already started; lobby commands are over. "
                "A moderator can give a seat to someone else with /mod replace."
            )
        return game

    def _require_host(self, game: Game, actor: Actor, doing: str) -> None:
        if actor.user_id != game.host_user_id and not actor.is_moderator:
            raise NotHost(f"Only the host (<@{game.host_user_id}>) or a moderator may {doing}.")

    async def join(
        self, actor: Actor, channel_id: int | None, *, deck: str | None = None
    ) -> Outbox:
        """Take a seat in the channel's lobby, optionally with a deck.

        :param deck: a ready-made deck (``haven`` or ``deck_haven``) or one of your saved
            decks (name or ``#id``); none: a ready-made deck is dealt at the start.
        :raises NoGameHere | WrongStage | AlreadySeated | LobbyFull | DeckProblem:
        """
        game = await self._lobby(channel_id)
        settings = await self.repo.game_settings(game.id)
        rules = self.rules(game)
        ready, saved = await self._deck_choice(
            actor, game.ruleset, game.options, settings.deck_rule, deck
        )
        await self.repo.join_game(
            game.id,
            user_id=actor.user_id,
            display_name=actor.display_name,
            ready_deck=ready,
            saved_deck_id=saved,
            max_seats=settings.seats_wanted or seat_range(rules, game.options)[1],
        )
        out = await self.lobby_post(game.id, f"{actor.display_name} joined.")
        out.reply = Reply("You have a seat. The host starts the game with /game start.")
        return out

    async def leave(self, actor: Actor, channel_id: int | None) -> Outbox:
        """Give up your seat in the lobby (the host leaving keeps hosting rights).

        :raises NoGameHere | WrongStage | SeatNotFound:
        """
        game = await self._lobby(channel_id)
        await self.repo.leave_game(game.id, actor.user_id)
        out = await self.lobby_post(game.id, f"{actor.display_name} left.")
        out.reply = Reply("You left the lobby.")
        return out

    async def choose_deck(
        self, actor: Actor, channel_id: int | None, *, deck: str | None = None
    ) -> Outbox:
        """Change your deck in the lobby (none: a ready-made deck is dealt at the start).

        :raises NoGameHere | WrongStage | NotSeated | DeckProblem:
        """
        game = await self._lobby(channel_id)
        seat, _ = await self.require_seat(game, actor)
        settings = await self.repo.game_settings(game.id)
        ready, saved = await self._deck_choice(
            actor, game.ruleset, game.options, settings.deck_rule, deck
        )
        await self.repo.choose_deck(game.id, seat.seat, ready_deck=ready, saved_deck_id=saved)
        out = await self.lobby_post(game.id, f"{actor.display_name} chose a deck.")
        out.reply = Reply("Deck chosen." if deck else "You will be dealt a ready-made deck.")
        return out

    async def add_ai(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        count: int = 1,
        deck: str | None = None,
        level: str | None = None,
    ) -> Outbox:
        """Add ``count`` computer seats (host or moderator only).

        :param deck: a ready-made deck for them (none: dealt at the start).
        :param level: how they play: ``easy``, ``normal`` or ``hard`` (`bot.computer`;
            none: the bot's ``HEROES_AI_LEVEL``).
        :raises NoGameHere | WrongStage | NotHost | LobbyFull | DeckProblem | BadOption:
        """
        game = await self._lobby(channel_id)
        self._require_host(game, actor, "add computer players")
        if not 1 <= count <= 5:
            raise BadOption("Add 1 to 5 computer players at a time.")
        if level is not None and level.strip().lower() not in LEVELS:
            raise BadOption(f"The level is one of: {', '.join(LEVELS)}.")
        chosen = level.strip().lower() if level is not None else self.computer.seat_level
        hooks = self.adapter(game).decks
        if deck and hooks is None:
            raise DeckProblem(f"{self.rules(game).title} is played without decks.")
        ready = self._ready_deck_id(hooks, deck) if deck and hooks is not None else None
        if deck and hooks is not None and ready is None:
            raise DeckProblem(
                f"{deck!r} is not a ready-made deck. Ready-made decks: {self._ready_names(hooks)}."
            )
        settings = await self.repo.game_settings(game.id)
        rules = self.rules(game)
        seats = await self.repo.seats(game.id)
        taken = {s.display_name for s in seats}
        names = [n for n in AI_NAMES if n not in taken]
        for number in range(count):
            name = names[number] if number < len(names) else f"Computer {len(seats) + number + 1}"
            await self.repo.add_ai_seat(
                game.id,
                display_name=name,
                ready_deck=ready,
                max_seats=settings.seats_wanted or seat_range(rules, game.options)[1],
                ai_level=chosen,
            )
        players = plural(count, "computer player") + (f" ({chosen})" if level else "")
        out = await self.lobby_post(game.id, f"{actor.display_name} added {players}.")
        out.reply = Reply(f"Added {players}.")
        return out

    async def set_options(
        self,
        actor: Actor,
        channel_id: int | None,
        *,
        players: int | None = None,
        deadline_hours: int | None = None,
        deadline_policy: str | None = None,
        deck_rule: str | None = None,
        **game_options: Any,
    ) -> Outbox:
        """Change the lobby's options (host or moderator only; before the start only);
        ``game_options`` are the ruleset's own (see `new_game`).

        :raises NoGameHere | WrongStage | NotHost | BadOption | InvalidInput:
        """
        game = await self._lobby(channel_id)
        self._require_host(game, actor, "change the options")
        policy = self._policy(deadline_policy)
        rules = self.rules(game)
        options = self._engine_options(game.ruleset, game.options, **game_options)
        settings = await self.repo.game_settings(game.id)
        seats = await self.repo.seats(game.id)
        fewest, most = seat_range(rules, options)
        if players is not None:
            if not fewest <= players <= most:
                raise BadOption(
                    f"{rules.title} with these options is played by {_counted(fewest, most)}, "
                    f"not {players}. Nothing was changed."
                )
            if players < len(seats):
                raise BadOption(
                    f"{len(seats)} seats are already taken; the lobby cannot shrink below that."
                )
        elif settings.seats_wanted is not None and settings.seats_wanted > most:
            raise BadOption(
                f"This lobby is for {settings.seats_wanted} players; {rules.title} with these "
                f"options is played by {_counted(fewest, most)}. Give players: too. Nothing "
                "was changed."
            )
        if len(seats) > most:
            raise BadOption(
                f"{len(seats)} seats are taken; {rules.title} with these options is played by "
                f"{_counted(fewest, most)}. Nothing was changed."
            )
        await self.repo.update_options(game.id, options)
        await self.repo.save_game_settings(
            GameSettings(
                game.id,
                players if players is not None else settings.seats_wanted,
                self._deadline(deadline_hours)
                if deadline_hours is not None
                else settings.turn_deadline,
                self._deck_rule(deck_rule) if deck_rule is not None else settings.deck_rule,
                deadline_policy=policy if policy is not None else settings.deadline_policy,
            )
        )
        out = await self.lobby_post(game.id, f"{actor.display_name} changed the options.")
        out.reply = Reply("Options changed.")
        return out

    # ------------------------------------------------------------------ decks
    @staticmethod
    def _ready_names(hooks: DeckHooks) -> str:
        return ", ".join(deck_id.removeprefix("deck_") for deck_id in hooks.ready_decks())

    @staticmethod
    def _ready_deck_id(hooks: DeckHooks, text: str) -> str | None:
        wanted = text.strip().lower().replace(" ", "_")
        for deck_id, name in hooks.ready_decks().items():
            if wanted in (deck_id, deck_id.removeprefix("deck_"), name.lower().replace(" ", "_")):
                return deck_id
        return None

    async def find_saved_deck(self, user_id: int, ruleset: str, text: str) -> SavedDeck | None:
        """The user's saved deck named ``text`` (or ``#id`` / id), if any."""
        decks = await self.repo.list_decks(user_id, ruleset=ruleset)
        wanted = text.strip()
        for deck in decks:
            if deck.name.lower() == wanted.lower() or wanted.lstrip("#") == str(deck.id):
                return deck
        return None

    async def _deck_choice(
        self,
        actor: Actor,
        ruleset: str,
        options: Mapping[str, Any],
        deck_rule: str,
        text: str | None,
    ) -> tuple[str | None, int | None]:
        """Read a deck option into ``(ready-made id, saved deck id)``.

        :raises DeckProblem: for an unknown deck, a saved deck in a ready-made-only game,
            or a saved deck that is not legal for this board (the problems listed).
        """
        if not text:
            return None, None
        hooks = adapter_for(ruleset).decks
        if hooks is None:
            raise DeckProblem(f"{self.rules_by_id(ruleset).title} is played without decks.")
        ready = self._ready_deck_id(hooks, text)
        if ready is not None:
            return ready, None
        saved = await self.find_saved_deck(actor.user_id, ruleset, text)
        if saved is None:
            raise DeckProblem(
                f"No deck called {text!r}. Ready-made decks: {self._ready_names(hooks)}; "
                "your saved decks: /deck list."
            )
        if deck_rule == "ready-made":
            raise DeckProblem(f"This game uses ready-made decks only: {self._ready_names(hooks)}.")
        self._check_saved(hooks, saved, options)
        return None, saved.id

    @staticmethod
    def _check_saved(
        hooks: DeckHooks, saved: SavedDeck, options: Mapping[str, Any]
    ) -> dict[str, int]:
        cards: dict[str, int] = {}
        for card_id in saved.cards:
            cards[card_id] = cards.get(card_id, 0) + 1
        problems = hooks.game_problems(cards, options)
        if problems:
            raise DeckProblem(f"Your deck {saved.name!r} is {problems}")
        return cards

    async def _deck_options(
        self, hooks: DeckHooks, game: Game, seats: list[Seat]
    ) -> list[dict[str, Any]]:
        """One deck choice per seat for the engine's options; seats without a choice get
        a ready-made deck, dealt from the game's seed (each a different one while they last)."""
        dealer = random.Random(game.seed)
        ready_decks = hooks.ready_decks
        free = [
            deck_id for deck_id in ready_decks() if deck_id not in {s.ready_deck for s in seats}
        ]
        dealer.shuffle(free)
        choices: list[dict[str, Any]] = []
        for seat in seats:
            if seat.saved_deck_id is not None:
                try:
                    saved = await self.repo.get_deck(seat.saved_deck_id)
                except DeckNotFound:
                    saved = None
                if saved is not None:
                    cards = self._check_saved(hooks, saved, game.options)
                    choices.append(hooks.deck_option(None, cards))
                    continue
            deck_id = seat.ready_deck
            if deck_id is None:
                deck_id = free.pop() if free else dealer.choice(sorted(ready_decks()))
            choices.append(hooks.deck_option(deck_id, None))
        return choices

    # ------------------------------------------------------------------ start
    async def start(self, actor: Actor, channel_id: int | None) -> Outbox:
        """Start the lobby's game (host or moderator): decks dealt, the board built, hands
        sent by DM, and the computer seats play on.

        :raises NoGameHere | WrongStage | NotHost | BadOption | DeckProblem | InvalidInput:
        """
        game = await self._lobby(channel_id)
        self._require_host(game, actor, "start the game")
        rules = self.rules(game)
        async with self.lock(game.id):
            game = await self.repo.get_game(game.id)
            if game.status is not GameStatus.LOBBY:
                raise WrongStage(f"Game #{game.id} has already started.")
            seats = await self.repo.seats(game.id)
            fewest, most = seat_range(rules, game.options)
            if len(seats) < fewest:
                raise BadOption(
                    f"{rules.title} needs at least {fewest} players; {len(seats)} seated. "
                    "Others join with /game join, or add computer players with /game add-ai."
                )
            if len(seats) > most:
                raise BadOption(
                    f"{rules.title} with these options is played by {_counted(fewest, most)}; "
                    f"{len(seats)} seated. Someone leaves with /game leave, or the host changes "
                    "the options with /game options."
                )
            raw = dict(game.options)
            adapter = self.adapter(game)
            if adapter.decks is not None:
                raw["decks"] = await self._deck_options(adapter.decks, game, seats)
            if adapter.carry_over is not None:
                raw = await adapter.carry_over.start_options(self.repo, game, seats, raw)
            options = rules.parse_options(raw)
            state, events = rules.new_game(options, len(seats), game.seed)
            game = await self.repo.start_game(
                game.id, state=state, events=events, options=options, actor_user_id=actor.user_id
            )
            seats = await self.repo.seats(game.id)
            batch = Batch(game=game, seats=seats, before=state, after=state, started=True)
            existing = await self.repo.deadlines(game.id)
            for spec in await self.deadline_specs(game, batch.position(state), seats, existing):
                await self.repo.set_deadline(game.id, spec)
            await self.play_automatic(batch)
            batch.game = await self.repo.get_game(game.id)
            if batch.after is not None:
                self.keep(batch.game, batch.position(batch.after))
            deadlines = await self.repo.deadlines(game.id)
            batch.deadlines = {d.seat: d.due_at for d in deadlines if d.kind == "turn"}
        lineup = ", ".join(f"{seat_name(s.seat)}: {s.display_name}" for s in seats)
        setup_lines = _setup_summary([e.text for e in events if e.text])
        out = await self.narrate(batch, actor)
        closing = await self.lobby_post(game.id, "", closed="started")
        by_moderator = (
            ""
            if actor.user_id == game.host_user_id
            else f" 🛡️ Started by moderator {actor.display_name} (<@{actor.user_id}>) "
            f"for the host <@{game.host_user_id}>."
        )
        out.posts.insert(
            0,
            ChannelPost(
                game.channel_id,
                f"⚔️ **Game #{game.id} begins.**{by_moderator} {lineup}.\n" + "\n".join(setup_lines),
            ),
        )
        out.posts[1:1] = closing.posts  # after the start post: the lobby's buttons go
        out.reply = Reply(
            "The game has started. Your cards come by DM (or use /hand)."
            if self.adapter(game).has_private_hand()
            else "The game has started."
        )
        return out

    # ------------------------------------------------------------------ the post
    async def lobby_post(self, game_id: int, news: str, *, closed: str | None = None) -> Outbox:
        """The lobby message (edited in place: key ``lobby``) with its buttons.

        :param closed: the lobby is over (``"started"``, ``"ended"``): the post names that
            instead of "lobby", has no buttons and only edits the lobby message
            (``ChannelPost.edit_only``), so no Join or Start button stays live.
        """
        game = await self.repo.get_game(game_id)
        seats = await self.repo.seats(game.id)
        settings = await self.repo.game_settings(game.id)
        rules = self.rules(game)
        adapter = self.adapter(game)
        fewest, widest = seat_range(rules, game.options)
        most = settings.seats_wanted or widest
        deadline = await self.deadline_rules(game)
        length = deadline.length
        lines = [
            f"**{rules.title}** — game #{game.id} ({closed or 'lobby'}). {news}",
            f"Host: <@{game.host_user_id}>. Seats {len(seats)}/{most} (at least {fewest} to start).",
        ]
        for seat in seats:
            deck = (
                seat.ready_deck.removeprefix("deck_")
                if seat.ready_deck
                else ("a saved deck" if seat.saved_deck_id else "dealt at the start")
            )
            kind = "computer" if seat.is_ai else f"<@{seat.user_id}>"
            decked = f" — deck: {deck}" if adapter.uses_decks else ""
            lines.append(f"• {seat_name(seat.seat)}: {seat.display_name} ({kind}){decked}")
        decks = f"decks: {settings.deck_rule}, " if adapter.uses_decks else ""
        lines.append(
            f"Options: {adapter.options_summary(game.options)}, {decks}deadline: "
            + (
                f"{int(length.total_seconds() // 3600)} h per decision, then "
                f"{POLICY_WORDS[deadline.policy]}"
                if length
                else "none"
            )
            + "."
        )
        buttons = (
            Button("Join", customids.encode(game.id, 0, "join"), "success"),
            Button("Leave", customids.encode(game.id, 0, "leave"), "secondary"),
            Button("Add a computer player", customids.encode(game.id, 0, "ai"), "secondary"),
            Button("Start (host)", customids.encode(game.id, 0, "start"), "primary"),
        )
        post = ChannelPost(
            game.channel_id,
            "\n".join(lines),
            components=() if closed else buttons,
            key="lobby",
            edit_only=closed is not None,
        )
        return Outbox(posts=[post])
