"""`heroes-table local`: play in the terminal through the same `GameService` as Discord.

You type the same slash commands as in Discord (``/purchase buy card:#12 town:C4``,
``/battle attack target:5``); values with spaces go in quotes
(``/battle deploy stacks:"#12 #13 melee; #20 ranged"``). Buttons and select menus are
listed with numbers: ``!2`` presses button 2, ``!3.1`` picks option 1 of select 3,
``!3.1,4,5`` picks several. Pictures are written to ``--out`` and their paths printed.

Every human seat is a console user (``Player 1``...). Hot-seat play is the default: before
each line the console acts as the person who owes the decision (``/as 2`` picks one by
hand and turns hot-seat off; ``/as auto`` turns it back on). Direct messages are printed
under ``[DM to Blue]`` — in hot-seat play everyone at the keyboard sees every hand, which
is fine for a local game. The console user is also a moderator (``/mod ...`` and
``/settings`` work).

Plain line input (no curses), so it works in any terminal, over SSH and under tmux.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot import registry
from bot.actors import Actor
from bot.command_table import CommandSpec, LineError, help_overview, parse_console_line
from bot.errors import USER_ERRORS, user_message
from bot.outbox import Button, Component, Outbox, Receipt, Select
from engine.core.model import seat_name
from engine.core.search import LEVELS
from engine.core.words import plural
from storage.records import GameStatus

CHANNEL_ID = 1
"""The console's one game channel."""
GUILD_ID = 1
"""The console's guild (for /settings)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``local`` options to ``parser``."""
    flagship = registry.flagship()
    parser.add_argument("--ruleset", default=flagship, help=f"the game (default: {flagship})")
    parser.add_argument("--players", type=int, default=2, help="seats in the game (default: 2)")
    parser.add_argument(
        "--ai",
        type=int,
        default=None,
        help="how many seats the computer plays (default: all but one when --players > 1)",
    )
    parser.add_argument(
        "--ai-level",
        choices=LEVELS,
        default="easy",
        help="how well the computer plays: easy, normal or hard (default: easy; "
        "normal and hard think up to HEROES_AI_BUDGET_S, 1 s, a move)",
    )
    parser.add_argument("--seed", type=int, default=None, help="a fixed seed (default: random)")
    parser.add_argument("--map-sections", type=int, default=None, help="board size (default 4)")
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for pictures (default: a temporary one)"
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help="database file (default: one per game in your data folder, resumed next time)",
    )
    parser.add_argument("--no-images", action="store_true", help="do not draw pictures (faster)")
    parser.add_argument(
        "--options",
        default="",
        help="the game's own options as typed after /game new, e.g. "
        "'mode:adventure size:medium' (see /help in the game)",
    )


@dataclass
class Console:
    """A terminal session: the service, the console users and the numbered components.

    Use `start` once, then `handle(line)` for each line typed; both return the text to
    print. ``write`` receives image files' bytes (tests may skip writing).
    """

    service: object
    humans: int
    ai: int
    out_dir: Path
    seed: int | None = None
    map_sections: int | None = None
    game_options: dict[str, Any] = field(default_factory=dict)
    acting: int = 1
    ruleset: str = field(default_factory=registry.flagship)
    hot_seat: bool = True
    ai_level: str | None = None
    names: dict[int, str] = field(default_factory=dict)
    components: list[Component] = field(default_factory=list)
    game_id: int | None = None
    images_written: list[Path] = field(default_factory=list)
    dm_slots: set[tuple[int, int, str]] = field(default_factory=set)
    panels: set[int] = field(default_factory=set)
    """The games whose panel was shown (later panels are edits of it on Discord)."""
    shown: set[Receipt] = field(default_factory=set)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))

    def actor(self, number: int | None = None) -> Actor:
        """The console user ``number`` (default: the one acting) as an `Actor` (moderator)."""
        user = number or self.acting
        return Actor(
            user, self.names.get(user, f"Player {user}"), is_moderator=True, manages_server=True
        )

    async def start(self) -> str:
        """Open the lobby, seat everyone, start the game; return what to print."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        for number in range(1, self.humans + 1):
            self.names[number] = f"Player {number}"
        lines: list[str] = []
        existing = await self.service.repo.game_in_channel(CHANNEL_ID)
        if existing is not None and existing.status is not GameStatus.LOBBY:
            return await self.resume(existing.id)
        if existing is not None:
            await self.service.mod_end(self.actor(1), CHANNEL_ID, reason="an unfinished lobby")
        # No decision deadlines at a terminal, for this game and any the user opens with
        # /game new later (the server default would give 48 h and dated reminders).
        settings = await self.service.repo.guild_settings(GUILD_ID)
        if settings.turn_deadline is not None:
            await self.service.repo.save_guild_settings(replace(settings, turn_deadline=None))
        lines += self.show(
            await self.service.new_game(
                self.actor(1),
                CHANNEL_ID,
                guild_id=GUILD_ID,
                ruleset=self.ruleset,
                players=self.humans + self.ai,
                deadline_hours=0,
                map_sections=self.map_sections,
                seed=self.seed,
                **self.game_options,
            )
        )
        for number in range(2, self.humans + 1):
            lines += self.show(await self.service.join(self.actor(number), CHANNEL_ID))
        if self.ai:
            added = await self.service.add_ai(
                self.actor(1), CHANNEL_ID, count=self.ai, level=self.ai_level
            )
            lines += self.show(added)
        started = await self.service.start(self.actor(1), CHANNEL_ID)
        game = await self.service.repo.game_in_channel(CHANNEL_ID)
        self.game_id = game.id if game is not None else None
        await self.refresh_colours()
        lines += self.show(started)
        await self.confirm_shown()
        await self.follow_turn()
        lines.append(self.prompt_line())
        return "\n".join(lines)

    async def resume(self, game_id: int) -> str:
        """Continue the game already in the database (``--db`` of an earlier session)."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        self.game_id = game_id
        for seat in await self.service.repo.seats(game_id):
            if seat.user_id is not None:
                self.names[seat.user_id] = seat.display_name
        await self.refresh_colours()
        lines = [f"Resuming game #{game_id} from the database."]
        lines += self.show(await self.service.status(self.actor(1), CHANNEL_ID))
        await self.confirm_shown()
        await self.follow_turn()
        lines += self.show(await self.service.hand(self.actor(), CHANNEL_ID))
        lines.append(self.prompt_line())
        return "\n".join(lines)

    async def confirm_shown(self) -> None:
        """The news printed so far is delivered (`bot.outbox.Receipt`): tell the service,
        so storage stops keeping it as owed."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        while self.shown:
            await self.service.news_delivered(self.shown.pop())

    async def follow_turn(self) -> None:
        """In hot-seat play, act as the person who owes the first decision."""
        if not self.hot_seat or self.game_id is None:
            return
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        game = await self.service.repo.get_game(self.game_id)
        if game.state_json is None:
            return
        seats = {s.seat: s for s in await self.service.repo.seats(game.id)}
        state = self.service.state_of(game)
        for decision in self.service.rules(game).pending(state):
            seat = seats.get(decision.seat)
            if seat is not None and seat.user_id is not None:
                self.acting = seat.user_id
                return

    def prompt_line(self) -> str:
        """``Player 1 (Red)>``: who the next line acts as."""
        return f"[you are {self.names.get(self.acting, self.acting)}]"

    async def handle(self, line: str) -> str:
        """Carry out one typed line; return what to print."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        text = line.strip()
        if not text:
            return ""
        try:
            if text.startswith("!"):
                output = await self.press(text[1:])
            elif text.lower().startswith("/as"):
                output = self.switch(text[3:].strip())
            elif text.lower() in ("/help", "help", "?"):
                output = self.help_text() + await self.help_now()
            elif text.lower() in ("/quit", "/exit", "quit", "exit"):
                return "Bye."
            else:
                parsed = parse_console_line(text, self.service.specs())
                result = await self.service.run(
                    self.actor(),
                    parsed.spec.path,
                    parsed.options,
                    channel_id=CHANNEL_ID,
                    guild_id=GUILD_ID,
                )
                output = "\n".join(self.show(result))
        except LineError as error:
            output = f"✗ {error}"
        except Exception as error:  # the console reports user errors and re-raises bugs
            message = user_message(error)
            if message is None:
                raise
            output = f"✗ {self.plain(message)}"
        await self.confirm_shown()
        await self.follow_turn()
        return f"{output}\n{self.prompt_line()}"

    def switch(self, who: str) -> str:
        """``/as 2`` acts as Player 2 (hot-seat off); ``/as auto`` follows the turn."""
        if who.lower() in ("auto", "hot", "hot-seat"):
            self.hot_seat = True
            return "Hot-seat: you act as whoever owes the decision."
        digits = re.sub(r"[^0-9]", "", who)
        if not digits or int(digits) not in self.names:
            users = ", ".join(f"{n} ({name})" for n, name in self.names.items())
            return (
                f"✗ There is no console user {who!s}. Console users: {users} "
                "(start the console with --players and --ai for more people)."
            )
        self.acting = int(digits)
        self.hot_seat = False
        return f"You now act as {self.names[self.acting]} (hot-seat off; /as auto turns it on)."

    def help_text(self) -> str:
        """The console's own commands and the overview of this game's slash commands, in
        Discord's words (`bot.command_table.help_overview`): the families of every game
        (lobby, decks, moderators...) and of its ruleset, not the other games' ones;
        ``/help COMMAND`` gives one command in full."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        own = [
            "Console: !N presses button N; !N.K picks option K of select N (!N.K,L for several);",
            "/as N acts as Player N; /as auto follows the turn (hot-seat); /quit leaves.",
            f"Slash commands of a {self.ruleset} game (type them as in Discord, options as "
            "name:value or in order; quote values with spaces).",
        ]
        specs = [s for s in self.service.specs() if s.ruleset in (None, self.ruleset)]
        overview = help_overview(help_specs(specs, self.ruleset))
        return self.plain("\n".join(own + overview))

    async def help_now(self) -> str:
        """The commands answering the decision the acting person owes now (as Discord's
        /help starts with), after a blank line; empty when they owe none."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        head = "\n".join(await self.service.help_owed(self.actor(), CHANNEL_ID))
        return f"\n\n{self.plain(head)}" if head else ""

    async def press(self, spec: str) -> str:
        """Press a numbered button or pick from a numbered select."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        head, _, picks = spec.partition(".")
        if not head.strip().isdigit() or not 1 <= int(head) <= len(self.components):
            return f"✗ There is no component {head.strip()!r}; the last message listed {len(self.components)}."
        component = self.components[int(head) - 1]
        if isinstance(component, Button):
            result = await self.service.click(self.actor(), component.custom_id)
            return "\n".join(self.show(result))
        numbers = [p for p in re.split(r"[,\s]+", picks) if p]
        if not numbers or not all(
            n.isdigit() and 1 <= int(n) <= len(component.options) for n in numbers
        ):
            return f"✗ Pick options of select {head} like !{head}.1 (1-{len(component.options)})."
        values = [component.options[int(n) - 1].value for n in numbers]
        result = await self.service.click(self.actor(), component.custom_id, values)
        return "\n".join(self.show(result))

    # ------------------------------------------------------------------ printing
    def show(self, out: Outbox) -> list[str]:
        """Render an outbox as console lines (and write its pictures). Each message's
        buttons and selects are listed under it, numbered across the whole outbox; one
        shown twice (the same custom id in the reply and in a DM) is listed once, where it
        first appears."""
        lines: list[str] = []
        fresh: list[Component] = []

        def listed(components: tuple[Component, ...]) -> list[str]:
            seen = {c.custom_id for c in fresh}
            new = _first_of_each([c for c in components if c.custom_id not in seen])
            shown = self.list_components(new, start=len(fresh) + 1)
            fresh.extend(new)
            return shown

        if out.reply is not None:
            scope = " (only you)" if out.reply.ephemeral else ""
            lines.append(
                f"[reply to {self.names.get(self.acting, self.acting)}{scope}] {self.plain(out.reply.text)}"
            )
            for embed in out.reply.embeds:
                lines.append(f"  ┃ {embed.title}")
                lines += [f"  ┃ {line}" for line in self.plain(embed.description).splitlines()]
                if embed.footer:
                    lines.append(f"  ┃ ({embed.footer})")
            lines += self.files(out.reply.images)
            lines += listed(out.reply.components)
        self.shown |= {post.receipt for post in out.posts if post.receipt is not None}
        self.shown |= {dm.receipt for dm in out.dms if dm.receipt is not None}
        for post in out.posts:
            if post.empty or post.edit_only:  # only retires an earlier post's buttons
                continue
            if post.panel_of is not None:  # Discord edits the game's one panel in place
                how = "edited in place" if post.panel_of in self.panels else "new"
                self.panels.add(post.panel_of)
                lines.append(f"[#game panel of game #{post.panel_of}, {how}]")
                lines += [f"  ┃ {line}" for line in self.plain(post.text).splitlines()]
            else:
                link = " (↑ the panel)" if post.panel_link is not None else ""
                lines.append(f"[#game] {self.plain(post.text)}{link}")
            lines += self.files(post.images)
            lines += listed(post.components)
        for dm in out.dms:
            who = self.seat_label(dm.user_id)
            slot = (dm.user_id, dm.game_id, dm.slot)
            # Discord edits the slot's last DM in place (or, for a new decision, replaces it).
            edited = dm.slot != "notice" and slot in self.dm_slots
            how = ", replacing the last one" if edited else ""
            self.dm_slots.add(slot)
            lines.append(f"[DM to {who}{how}] {self.plain(dm.text)}")
            lines += self.files(dm.images)
            lines += listed(dm.components)
        if fresh:
            self.components = fresh
        return lines

    def seat_label(self, user_id: int) -> str:
        """``Blue (Player 2)`` for a console user, from the game's seats when known."""
        name = self.names.get(user_id, f"user {user_id}")
        colour = self._colours.get(user_id)
        return f"{colour} ({name})" if colour else name

    @property
    def _colours(self) -> dict[int, str]:
        return getattr(self, "_colour_cache", {})

    async def refresh_colours(self) -> None:
        """Learn which colour each console user plays (for the DM prefix)."""
        from bot.service import GameService

        assert isinstance(self.service, GameService)
        if self.game_id is None:
            return
        seats = await self.service.repo.seats(self.game_id)
        self._colour_cache = {s.user_id: seat_name(s.seat) for s in seats if s.user_id is not None}

    @staticmethod
    def list_components(components: list[Component], start: int = 1) -> list[str]:
        """Number the buttons and selects from ``start``: ``!1 [End the Purchase Phase]``."""
        lines = []
        for number, component in enumerate(components, start=start):
            if isinstance(component, Button):
                lines.append(f"  !{number} [{component.label}]")
            elif isinstance(component, Select):
                many = (
                    f" (pick {component.min_values}-{component.max_values})"
                    if component.max_values > 1
                    else ""
                )
                lines.append(f"  !{number} {component.placeholder}{many}:")
                lines += [
                    f"     !{number}.{k} {option.label}"
                    for k, option in enumerate(component.options, start=1)
                ]
        return lines

    def files(self, images: tuple[object, ...]) -> list[str]:
        """Write images to the output folder; return the lines naming them."""
        lines = []
        for image in images:
            data = getattr(image, "data", b"")
            name = getattr(image, "filename", "image.png")
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f"{self._next_image_number():04d}-{name}"
            path.write_bytes(data)
            self.images_written.append(path)
            lines.append(f"  🖼  {path}")
        return lines

    def _next_image_number(self) -> int:
        """The next picture's number: after this session's, and after the pictures an
        earlier session left in the folder (a resumed game overwrites none of them)."""
        if self.images_written:
            return int(self.images_written[-1].name[:4]) + 1
        earlier = [
            int(path.name[:4])
            for path in self.out_dir.glob("[0-9][0-9][0-9][0-9]-*")
            if path.name[:4].isdigit()
        ]
        return max(earlier, default=0) + 1

    def plain(self, text: str) -> str:
        """Discord markup for a terminal: mentions become names, timestamps dates (a
        relative one, ``<t:…:R>``, the time from the console's clock: ``in 23 h 59 min``)."""

        def user(match: re.Match[str]) -> str:
            number = int(match.group(1))
            return "@" + self.names.get(number, f"user {number}")

        def when(match: re.Match[str]) -> str:
            moment = datetime.fromtimestamp(int(match.group(1)), UTC)
            if match.group(2) == "R":
                return relative_time(moment, self.clock())
            return moment.strftime("%Y-%m-%d %H:%M UTC")

        text = re.sub(r"<@!?(\d+)>", user, text)
        text = re.sub(r"<@&(\d+)>", "@moderators", text)
        text = re.sub(r"<#(\d+)>", "#game", text)
        text = re.sub(r"<t:(\d+):(\w)>", when, text)
        return text.replace("**", "")


def relative_time(moment: datetime, now: datetime) -> str:
    """``moment`` seen from ``now`` as Discord shows a ``<t:…:R>`` timestamp, to the
    minute: ``in 2 d 3 h``, ``in 23 h 59 min``, ``in 5 min``, ``now``, ``10 min ago``."""
    minutes = round((moment - now).total_seconds() / 60)
    days, rest = divmod(abs(minutes), 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        span = f"{days} d {hours} h" if hours else f"{days} d"
    elif hours:
        span = f"{hours} h {mins} min" if mins else f"{hours} h"
    elif mins:
        span = f"{mins} min"
    else:
        return "now"
    return f"in {span}" if minutes > 0 else f"{span} ago"


async def _session(
    args: argparse.Namespace, lines_in: Callable[[], str | None], out: Callable[[str], None]
) -> int:
    from bot.render import DEFAULT_RENDERER
    from bot.service import GameService
    from storage import open_repository
    from storage.errors import StorageError

    temp = tempfile.TemporaryDirectory(prefix="heroes-table-")
    db = args.db or default_database(args.ruleset)
    again = None if args.db else _again_command(args.ruleset)
    out_dir = args.out or Path(temp.name) / "images"
    players = args.players
    ai = args.ai if args.ai is not None else max(0, players - 1)
    humans = players - ai
    if humans < 1 or ai < 0:
        out("✗ At least one seat must be a person (--ai is at most --players - 1).")
        return 2
    try:
        game_options = _game_options(getattr(args, "options", ""))
    except LineError as error:
        out(f"✗ --options: {error}")
        return 2
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        repo = await open_repository(db)
    except OSError as error:
        out(f"✗ Cannot make the folder {db.parent} for the game: {error.strerror}; pass --db FILE.")
        temp.cleanup()
        return 1
    except StorageError as error:
        out(f"✗ {error}")
        temp.cleanup()
        return 1
    started = False
    try:
        service = GameService(repo, renderer=None if args.no_images else DEFAULT_RENDERER)
        console = Console(
            service,
            humans,
            ai,
            out_dir,
            seed=args.seed,
            map_sections=args.map_sections,
            ruleset=args.ruleset,
            game_options=game_options,
            ai_level=args.ai_level,
        )
        people = plural(humans, "person", "people")
        computers = plural(ai, "computer")
        out(f"Heroes Table — local game ({args.ruleset}, {people}, {computers}). Database: {db}")
        if again is not None:
            out(f"The game is kept there: {again} resumes it after /quit (--db FILE for another).")
        out(f"Pictures go to {out_dir}. Type /help for commands, /quit to leave.")
        if humans > 1:
            out("Hot-seat play: private cards of every seat are shown here (fine at one table).")
        earlier = await repo.game_in_channel(CHANNEL_ID)
        try:
            out(await console.start())
            started = True
        except USER_ERRORS as error:
            out(f"✗ {user_message(error)}")
            if earlier is not None and earlier.status is not GameStatus.LOBBY:
                out(
                    f"The game in {db} cannot be continued; pass another --db to start anew"
                    + (f" (or remove {db})." if again is not None else ".")
                )
            return 1
        while True:
            line = await asyncio.to_thread(lines_in)
            if line is None:
                break
            reply = await console.handle(line)
            out(reply)
            if reply.startswith("Bye."):
                break
        return 0
    finally:
        await repo.close()
        out(_closing_line(db, args.out, temp.name, resumable=started, again=again))
        temp.cleanup()


def default_database(ruleset: str) -> Path:
    """Where the console keeps a ``ruleset`` game when no ``--db`` is given: one file per
    game in the user's data folder (`platformdirs.user_data_path`: on Linux
    ``$XDG_DATA_HOME/heroes-table``, by default ``~/.local/share/heroes-table``), so that
    the next session resumes it."""
    import platformdirs

    return platformdirs.user_data_path("heroes-table", appauthor=False) / f"console-{ruleset}.db"


def _program() -> str:
    """How the person started ``heroes-table``: ``heroes-table`` when that name on the
    PATH is the program running (or it runs under another name, as in tests), else the
    path as typed (``.venv/bin/heroes-table`` in a fresh clone without an activated venv)."""
    launched = Path(sys.argv[0])
    if launched.name != "heroes-table":
        return "heroes-table"
    found = shutil.which("heroes-table")
    if found is not None and Path(found).resolve() == launched.resolve():
        return "heroes-table"
    return sys.argv[0]


def _again_command(ruleset: str) -> str:
    """The command that opens the console on ``ruleset``'s default database again (with
    the program as it was started, `_program`)."""
    program = _program()
    return program if ruleset == registry.flagship() else f"{program} local --ruleset {ruleset}"


def _game_options(text: str) -> dict[str, Any]:
    """The ``--options`` text, keyed as `GameService.new_game` takes it: the game's
    options text (``mode:adventure size:medium``, ``morale luck``), or, when it names an
    option of /game new itself (``assembly:manual options:"morale luck"``), those options
    as typed after /game new; the seats come from --players and --ai.

    :raises LineError: for an option /game new does not have or a value it refuses (the
        game's own words are checked by its adapter when the lobby opens).
    """
    from bot.commands import all_specs, spec_for

    if not text.strip():
        return {}
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise LineError(f"Could not read that line: {error}.") from None
    own = {o.name for o in spec_for(("game", "new")).options}
    if not any(w.partition(":")[0].lower() in own for w in words if ":" in w):
        return {"options": text}
    parsed = parse_console_line(f"/game new {text}", all_specs())
    skipped = {"ruleset", "players"}
    given = [name for name in parsed.options if name in skipped]
    if given:
        raise LineError(f"{', '.join(given)} come from --ruleset, --players and --ai.")
    if "map-sections" in parsed.options:
        raise LineError("map-sections comes from --map-sections.")
    if "deadline-hours" in parsed.options:
        raise LineError("deadline-hours: a game at the console has no decision deadlines.")
    return {name.replace("-", "_"): value for name, value in parsed.options.items()}


def _closing_line(
    db: Path, out_dir: Path | None, temp: str, *, resumable: bool, again: str | None = None
) -> str:
    """The session's last line: where the game is kept (``db``; ``resumable``: its game
    can be continued, by ``again`` for the default database, else with ``--db``) and the
    pictures (``--out DIR``, else the temporary folder ``temp``, removed with them)."""
    if not resumable:
        kept = [f"the database {db} is kept"]
    elif again is not None:
        kept = [f"the game is kept in {db}; {again} resumes it"]
    else:
        kept = [f"the game is kept in {db}; resume it with --db {db}"]
    if out_dir is not None:
        kept.append(f"the pictures are kept in {out_dir}")
    else:
        kept.append(
            f"the temporary folder {temp} is removed with its pictures; "
            "pass --out DIR to keep the pictures"
        )
    return f"({'; '.join(kept)})"


def _read_line() -> str | None:
    try:
        return input("> ")
    except EOFError:
        return None


def main(args: argparse.Namespace) -> int:
    """Run the console until /quit or end of input; return the exit code."""
    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import registered

    if args.ruleset not in registered():
        known = ", ".join(registered())
        print(f"✗ Unknown game {args.ruleset!r}; the console plays {known}.", file=sys.stderr)
        return 2
    return asyncio.run(_session(args, _read_line, lambda text: print(text, flush=True)))


def help_specs(specs: list[CommandSpec], ruleset: str) -> list[CommandSpec]:
    """``specs`` as the console's /help shows them for a ``ruleset`` game: without the
    other games' lobby options (one game's map-sections in another's...), and without the
    deck commands and options for a game whose seats bring no deck."""
    from bot.adapters import adapter_for, all_adapters

    adapter = adapter_for(ruleset)
    foreign = {o for other in all_adapters() for o in other.lobby_options}
    foreign -= {*adapter.lobby_options, "options"}  # the options: text is every game's
    foreign |= {"where", "forum"}  # the console has no threads or forums
    if not adapter.uses_decks:
        foreign |= {"deck", "deck_rule"}
    shown: list[CommandSpec] = []
    for spec in specs:
        if not adapter.uses_decks and (spec.path[0] == "deck" or spec.path == ("game", "deck")):
            continue
        options = tuple(o for o in spec.options if o.name.replace("-", "_") not in foreign)
        shown.append(replace(spec, options=options) if spec.path[0] == "game" else spec)
    return shown


def _first_of_each(components: list[Component]) -> list[Component]:
    """``components`` without repeats: the same select or button shown in the reply and
    in a DM (same custom id) is listed once, where it first appeared."""
    seen: set[str] = set()
    kept: list[Component] = []
    for component in components:
        if component.custom_id not in seen:
            seen.add(component.custom_id)
            kept.append(component)
    return kept
