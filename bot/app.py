"""`heroes-table run`: the composition root of the Discord bot.

settings → `open_repository` → `GameService` → `HeroesBot` → ``bot.start(token)``. Each
resource is opened here and closed here, in reverse order, whatever happens. The module
imports only the standard library at import time (``heroes-table --help`` builds every
subcommand's parser); discord.py, storage and the service are imported when the bot runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.computer import ComputerPlayers
    from bot.discord_bot import HeroesBot
    from bot.service import GameService
    from bot.settings import Settings

log = logging.getLogger("bot.app")

NO_TOKEN_HELP = """\
heroes-table run: no Discord bot token is configured.

Set DISCORD_TOKEN, either in the environment or in the settings file {env_file}
(copy .env.example there and fill it in):

    DISCORD_TOKEN=your-bot-token

Where to get it: https://discord.com/developers/applications -> your application ->
Bot -> Reset Token (create an application first with "New Application"). The README's
"Discord setup" section explains the invite link and the permissions the bot needs.
While developing, also set HEROES_DEV_GUILD_ID to your test server's id so that slash
commands appear there at once instead of after Discord's global propagation.
Without a token, `heroes-table local` plays in the terminal.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``run`` options to ``parser``."""
    parser.add_argument(
        "--env-file",
        default=".env",
        help="settings file read after the environment (default: .env; 'none' to skip)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help=(
            "an SQLite database path or a postgresql:// URL (default: HEROES_DATABASE_URL, "
            "else HEROES_DB_PATH, else data/heroes-table.db)"
        ),
    )


def main(args: argparse.Namespace) -> int:
    """Run the bot until it is stopped (Ctrl-C or SIGTERM).

    :returns: 0 after a clean stop; 2 when the token or another setting is missing or
        bad (the reason is printed to stderr); 1 when Discord refuses the token or the
        database cannot be opened.
    """
    from bot.settings import SettingsError, load_settings

    env_file = None if str(getattr(args, "env_file", ".env")).lower() == "none" else args.env_file
    try:
        settings = load_settings(env_file)
    except SettingsError as error:
        print(f"heroes-table run: {error}", file=sys.stderr)
        return 2
    if getattr(args, "db", None) is not None:
        settings = with_database(settings, str(args.db))
    if settings.discord_token is None:
        where = "(none: --env-file none)" if env_file is None else str(Path(env_file).resolve())
        print(NO_TOKEN_HELP.format(env_file=where), file=sys.stderr, end="")
        return 2
    configure_logging(settings.log_level)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


def with_database(settings: Settings, target: str) -> Settings:
    """``settings`` keeping its games at ``target`` (``run --db``) instead of the
    configured store: a ``postgresql://`` URL (it replaces HEROES_DATABASE_URL) or an SQLite
    path (HEROES_DATABASE_URL is then not used)."""
    from pydantic import SecretStr

    from storage.postgres import is_postgres_url

    if is_postgres_url(target):
        return settings.model_copy(update={"database_url": SecretStr(target.strip())})
    return settings.model_copy(update={"db_path": Path(target), "database_url": None})


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``; libraries at `library_log_levels`."""
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", stream=sys.stderr
    )
    for name, library_level in library_log_levels(level).items():
        logging.getLogger(name).setLevel(library_level)


def library_log_levels(level: str) -> dict[str, int]:
    """The levels of libraries' loggers when the bot logs at ``level``.

    discord.py's chatter at WARNING, or INFO when ``level`` is DEBUG; aiosqlite at INFO.
    Never DEBUG: there discord.py logs every request body and gateway payload (the text of
    DMs with hands, the options a player typed) and aiosqlite every SQL parameter (a
    game's whole state), and private cards never reach a log line (house rule 6).
    """
    return {
        "discord": logging.INFO if level == "DEBUG" else logging.WARNING,
        "aiosqlite": logging.INFO,
    }


async def run(settings: Settings) -> int:
    """Open the database, build the bot, log in and serve until closed; once the bot is
    ready, check the database file for damage in the background (`check_when_ready`).

    SIGTERM and SIGINT close the bot gracefully (actions in flight finish sending, then
    the database is closed), as a service manager or Ctrl-C expect.

    :returns: the process exit code (see `main`).
    """
    import discord

    from storage.errors import StorageError

    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    try:
        bot, closers = await build_bot(settings)
    except StorageError as error:
        print(f"heroes-table run: {error}", file=sys.stderr)
        return 1
    unhook = stop_on_signals(bot)
    check: asyncio.Task[list[str]] | None = None
    try:
        async with bot:
            if settings.database_url is None:  # PostgreSQL checks its own pages
                check = asyncio.create_task(check_when_ready(bot, settings.db_path))
            await bot.start(token)
    except discord.LoginFailure:
        print(
            "heroes-table run: Discord refused the token. Copy it again from the developer "
            "portal (Bot -> Reset Token) into DISCORD_TOKEN.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("heroes-table run: Discord refused the gateway intents.", file=sys.stderr)
        return 1
    except OSError as error:  # aiohttp's connection errors: no network, DNS, TLS
        print(
            f"heroes-table run: cannot reach Discord ({error}). Check the network connection "
            "and try again.",
            file=sys.stderr,
        )
        return 1
    finally:
        unhook()
        if check is not None:
            await _cancel(check)
        for close in reversed(closers):
            await close()
    return 0


def stop_on_signals(bot: HeroesBot) -> Callable[[], None]:
    """Close ``bot`` on SIGTERM or SIGINT (where the event loop supports signal handlers).

    :returns: a function removing the handlers again.
    """
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for number in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(number, lambda: asyncio.ensure_future(bot.close()))
        except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
            break
        installed.append(number)

    def remove() -> None:
        for number in installed:
            loop.remove_signal_handler(number)

    return remove


async def build_bot(
    settings: Settings,
    *,
    service_options: Mapping[str, Any] | None = None,
    **bot_options: Any,
) -> tuple[HeroesBot, list[Callable[[], Awaitable[None]]]]:
    """Open the repository and build the bot on it (the message ids live there too).

    ``service_options`` go to `GameService` (tests pass ``renderer``, ``clock``); without a
    ``renderer`` there, pictures are drawn by a `PictureRenderer` with
    ``settings.render_processes`` worker processes (closed with the rest);
    ``bot_options`` go to `HeroesBot` (tests pass ``guild_ready_timeout``,
    ``reminder_interval``...). With ``HEROES_SHARD_COUNT`` set the bot is sharded
    (`bot.discord_bot.bot_class`: the shards ``HEROES_SHARD_IDS`` in this process).
    Returns the bot and the close functions to await, in opening order, once the bot has
    stopped.

    :raises StorageError: when the database cannot be opened.
    """
    from bot.discord_bot import HeroesBot, bot_class, shard_options
    from bot.discord_refs import RepositoryRefStore

    options = {"computer": computer_players(settings), **(service_options or {})}
    service, closers = await open_service(settings.database(), settings.render_processes, **options)
    try:
        refs = RepositoryRefStore(service.repo)
        sharding = shard_options(settings.shard_count, settings.shard_ids)
        cls = bot_class(HeroesBot, sharded=bool(sharding))
        bot = cls(service, refs=refs, dev_guild_id=settings.dev_guild_id, **sharding, **bot_options)
    except BaseException:
        for close in reversed(closers):
            await close()
        raise
    log.info("Database %s opened", _where(settings.database()))
    if sharding:
        log.info("Shards %s of %d in this process", bot.owned_shards(), settings.shard_count)
    return bot, closers


def computer_players(settings: Settings) -> ComputerPlayers:
    """How this process's computer players play (``HEROES_AI_BUDGET_S``,
    ``HEROES_AI_AWAY_LEVEL``, ``HEROES_AI_LEVEL``: `bot.computer`)."""
    from bot.computer import ComputerPlayers
    from engine.core.search import Budget

    return ComputerPlayers(
        budget=Budget(seconds=settings.ai_budget_s),
        away_level=settings.ai_away_level,
        seat_level=settings.ai_level,
    )


def _where(database: str | Path) -> str:
    """The database for a log line (a URL without its password)."""
    from storage.postgres import redact_url

    return redact_url(database) if isinstance(database, str) else str(database)


async def open_service(
    db_path: Path | str, render_processes: int = 0, **service_options: Any
) -> tuple[GameService, list[Callable[[], Awaitable[None]]]]:
    """Open the database as the bot does and build the `GameService` on it: ``db_path``
    is the SQLite file, or a ``postgresql://`` URL (`storage.opening.open_database`).

    The file is opened and migrated without reading it all: the integrity check runs once
    the bot is ready (`check_when_ready`) or with ``heroes-table verify``, so a start-up
    does not grow with the stored games. ``service_options`` go to `GameService`; without
    a ``renderer`` there, a `PictureRenderer` with ``render_processes`` worker processes,
    its cache sized for the games active now (`PictureRenderer.fit`) and refitted every
    minute while the bot runs (`bot.render.keep_fitted`; its task is cancelled by the
    close functions).
    Returns the service and the close functions to await, in opening order.

    :raises StorageError: when the database cannot be opened.
    """
    from bot.render import PictureRenderer, keep_fitted
    from bot.service import GameService
    from storage.opening import open_database

    repo = await open_database(db_path, check_integrity=False)
    closers: list[Callable[[], Awaitable[None]]] = [repo.close]
    try:
        options = dict(service_options)
        if "renderer" not in options:
            renderer = PictureRenderer(processes=render_processes, warm_when_idle=True)
            renderer.fit(await repo.count_active_games())
            closers.append(lambda: asyncio.to_thread(renderer.close))
            refit = asyncio.create_task(keep_fitted(renderer, repo.count_active_games))
            closers.append(lambda: _cancel(refit))
            options["renderer"] = renderer
        service = GameService(repo, **options)
    except BaseException:
        for close in reversed(closers):
            await close()
        raise
    return service, closers


async def check_when_ready(bot: HeroesBot, db_path: Path) -> list[str]:
    """Once ``bot`` is ready, run the quick integrity check of ``db_path`` in a worker
    thread (`storage.sqlite.integrity_problems`) and log the outcome: an error naming
    the damage and saying to restore from a backup, else one info line.

    :returns: the problems found (empty: the file is sound, or it could not be checked;
        that is logged too).
    """
    from storage.errors import DatabaseUnusable
    from storage.sqlite import integrity_problems

    await bot.wait_until_ready()
    started = time.perf_counter()
    try:
        problems = await integrity_problems(db_path)
    except DatabaseUnusable as error:
        log.error("The integrity check could not run: %s", error)
        return []
    if problems:
        log.error(
            "The database %s is damaged (quick_check: %s). Stop the bot and restore it from "
            "a backup (heroes-table verify checks it again).",
            db_path,
            "; ".join(problems),
        )
    else:
        log.info(
            "Database %s passed its integrity check (%.1f s)",
            db_path,
            time.perf_counter() - started,
        )
    return problems


async def _cancel(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
