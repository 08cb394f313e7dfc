"""The `heroes-table` command line: one entry point, one subcommand per job.

Each subcommand imports its implementation lazily, so `heroes-table simulate` does not load
discord.py and `heroes-table --help` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

# subcommand -> (module, function, help). Each function takes the parsed namespace and
# returns the process exit code; each module also provides `add_arguments(parser)`.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.app", "Start the Discord bot (needs DISCORD_TOKEN)."),
    "local": ("bot.local", "Play in the terminal through the same GameService as Discord."),
    "simulate": ("engine.simulate", "Play complete games between computer seats; print JSON."),
    "render": ("rendering.cli", "Simulate to a mid-game position and write its images."),
    "backup": (
        "bot.backup",
        "Copy the live database (SQLite's online backup; pg_dump for PostgreSQL).",
    ),
    "verify": (
        "bot.verify",
        "Check the database for damage, read only (PostgreSQL: replays every game).",
    ),
    "migrate-db": ("bot.migrate_db", "Copy the SQLite database into PostgreSQL and verify it."),
}

NO_TOKEN_NOTE = (
    "No DISCORD_TOKEN is set (in the environment or .env), so this is the local console. "
    "To run the Discord bot, see `heroes-table run` and the README's 'Discord setup'."
)
"""Printed when the bare command starts the console for want of a token."""


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every subcommand's own arguments added."""
    parser = argparse.ArgumentParser(
        prog="heroes-table",
        description=(
            "Heroes Table: play Heroes of Might and Magic tabletop games on Discord. "
            "With no subcommand: run the bot if DISCORD_TOKEN is set, else the local console."
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        module = importlib.import_module(module_name)
        add_arguments: Callable[[argparse.ArgumentParser], None] = module.add_arguments
        add_arguments(child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``), run the subcommand, return its exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(arguments)
    command = args.command or default_command()
    if args.command is None:
        args = parser.parse_args([command, *arguments])
        if command == "local":
            print(NO_TOKEN_NOTE, file=sys.stderr, flush=True)
    module = importlib.import_module(SUBCOMMANDS[command][0])
    from bot.settings import SettingsError

    try:
        code: int = module.main(args)
    except SettingsError as error:  # a bad variable in the environment or .env: one line
        print(f"heroes-table {command}: {error}", file=sys.stderr)
        return 2
    return code


def default_command() -> str:
    """`run` when a Discord token is configured, otherwise `local`."""
    from bot.settings import token_configured

    return "run" if token_configured() else "local"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
