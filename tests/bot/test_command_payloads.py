"""The slash commands the real bot syncs: within Discord's limits, exactly the table, and
byte for byte the stored snapshot.

The bot logs in to the fake Discord, syncs once in ``setup_hook``, and this walks the
payloads Discord received (`FakeDiscord.commands`) the way Discord would judge them:
names (1-32, lower case), descriptions (1-100), at most 25 options / choices /
subcommands, at most 100 global commands, 4000 characters per command, required options
first. It compares them, option by option, with the command table the service and the
console use (`bot.commands.ALL_SPECS`), which checks how `bot.cogs.common` turns a row
into a command, and with ``payloads.json``: what players' Discord clients are sent
changes only when that file changes too (rewrite it with
``.venv/bin/python -m tests.bot.test_command_payloads`` and review the diff).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.command_table import CommandSpec, OptionSpec
from bot.commands import ALL_SPECS
from bot.discord_components import build_view
from bot.outbox import Button, Select, SelectOption
from tests.bot.discord_helpers import Table, heroes_bot, running_bot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401  (fixture fake_discord)

Json = dict[str, Any]

SNAPSHOT = Path(__file__).with_name("payloads.json")
"""Every synced command payload, sorted by name, as the bot sent them."""

ADDED_BY_DISCORD = ("id", "application_id", "version")
"""Fields Discord adds to a stored command (not part of what the bot sends)."""

NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
OPTION_TYPES = {"string": 3, "integer": 4, "boolean": 5, "user": 6, "role": 8, "forum": 7}


def _length(command: Json) -> int:
    """Discord's 4000-character budget: names, descriptions, choice names and values."""
    total = len(command.get("name", "")) + len(command.get("description", ""))
    for option in command.get("options", []) or []:
        total += _length(option)
        for choice in option.get("choices", []) or []:
            total += len(choice["name"]) + len(str(choice["value"]))
    return total


def discord_problems(commands: list[Json]) -> list[str]:
    """Everything Discord would refuse in a bulk overwrite of ``commands``."""
    problems: list[str] = []
    if len(commands) > 100:
        problems.append(f"{len(commands)} global commands (100 allowed)")
    for command in commands:
        problems += _node_problems(command, f"/{command['name']}")
        if _length(command) > 4000:
            problems.append(f"/{command['name']}: {_length(command)} characters (4000 allowed)")
    return problems


def _node_problems(node: Json, where: str) -> list[str]:
    problems: list[str] = []
    name = node.get("name", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: bad name {name!r}")
    if not 1 <= len(node.get("description", "")) <= 100:
        problems.append(f"{where}: description of {len(node.get('description', ''))} characters")
    options = node.get("options", []) or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options or subcommands (25 allowed)")
    optional_seen = False
    for option in options:
        inner = f"{where} {option.get('name')}"
        problems += _node_problems(option, inner)
        if option["type"] in (SUBCOMMAND, GROUP):
            continue
        choices = option.get("choices", []) or []
        if len(choices) > 25:
            problems.append(f"{inner}: {len(choices)} choices (25 allowed)")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100:
                problems.append(f"{inner}: choice name {choice['name']!r}")
        if choices and option.get("autocomplete"):
            problems.append(f"{inner}: choices and autocomplete together")
        if option.get("required") and optional_seen:
            problems.append(f"{inner}: required after an optional option")
        optional_seen = optional_seen or not option.get("required")
    return problems


def leaves(commands: list[Json]) -> dict[tuple[str, ...], tuple[Json, Json]]:
    """``{path: (top-level command, leaf)}`` for every invocable command."""
    found: dict[tuple[str, ...], tuple[Json, Json]] = {}
    for top in commands:
        subs = [o for o in top.get("options", []) or [] if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            found[(top["name"],)] = (top, top)
        for sub in subs:
            if sub["type"] == GROUP:
                for leaf in sub.get("options", []) or []:
                    found[(top["name"], sub["name"], leaf["name"])] = (top, leaf)
                continue
            found[(top["name"], sub["name"])] = (top, sub)
    return found


def expected_option(option: OptionSpec) -> Json:
    """What Discord should have received for a table option."""
    want: Json = {
        "name": option.name,
        "description": option.description,
        "type": OPTION_TYPES[option.type],
        "required": option.required,
        "autocomplete": option.suggested,
        "choices": [{"name": c.name, "value": c.value} for c in option.sent_choices],
        "min_value": option.min_value,
        "max_value": option.max_value,
        "max_length": option.max_length,
    }
    return want


def synced_option(option: Json) -> Json:
    """The same fields of a synced option (absent ones as their defaults)."""
    return {
        "name": option["name"],
        "description": option["description"],
        "type": option["type"],
        "required": bool(option.get("required", False)),
        "autocomplete": bool(option.get("autocomplete", False)),
        "choices": [
            {"name": c["name"], "value": c["value"]} for c in option.get("choices", []) or []
        ],
        "min_value": option.get("min_value"),
        "max_value": option.get("max_value"),
        "max_length": option.get("max_length"),
    }


def usable_in_dms(top: Json) -> bool:
    """Whether Discord offers ``top`` in a DM with the bot."""
    contexts = top.get("contexts")
    if contexts is not None:
        return 1 in contexts
    return top.get("dm_permission", True) is not False


@pytest.fixture
async def synced(fake_discord: FakeDiscord, tmp_path: Path) -> list[Json]:
    """The global commands the bot synced at start (the bot is stopped again)."""
    Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db") as runner:
        assert fake_discord.command_syncs == 1
        assert len(heroes_bot(runner).synced) == len(fake_discord.commands())
        runner.assert_no_errors()
    fake_discord.assert_no_violations()
    return fake_discord.commands()


def as_sent(stored: Json) -> Json:
    """A command as Discord stores it (`FakeDiscord.commands`) back as the bot sent it:
    without the fields Discord adds, the permission bits a number again."""
    sent = {k: v for k, v in stored.items() if k not in ADDED_BY_DISCORD}
    if isinstance(sent.get("default_member_permissions"), str):
        sent["default_member_permissions"] = int(sent["default_member_permissions"])
    return sent


def snapshot_text(commands: list[Json]) -> str:
    """Sent ``commands`` as the snapshot file holds them: sorted by name, JSON indented by
    one space, a final newline."""
    ordered = sorted(commands, key=lambda c: str(c["name"]))
    return json.dumps(ordered, indent=1, ensure_ascii=False) + "\n"


async def built_payloads() -> list[Json]:
    """The payloads the bot's command tree sends on sync (``Command.to_dict(tree)``),
    built without connecting: the cogs of `bot.cogs.all_cogs` on a bare bot."""
    from discord.ext import commands

    from bot.cogs import all_cogs

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for cog in all_cogs(bot):  # type: ignore[arg-type]  # the cogs only keep the bot
        await bot.add_cog(cog)
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


def test_synced_payloads_are_the_snapshot(synced: list[Json]) -> None:
    sent = [as_sent(command) for command in synced]
    assert snapshot_text(sent) == SNAPSHOT.read_text(encoding="utf-8")


async def test_the_snapshot_writer_builds_what_is_synced(synced: list[Json]) -> None:
    assert await built_payloads() == [as_sent(command) for command in synced]


def test_synced_commands_are_within_discords_limits(synced: list[Json]) -> None:
    assert discord_problems(synced) == []


def test_every_table_command_is_synced_exactly(synced: list[Json]) -> None:
    found = leaves(synced)
    table: dict[tuple[str, ...], CommandSpec] = {spec.path: spec for spec in ALL_SPECS}
    assert sorted(found) == sorted(table)
    for path, spec in table.items():
        _, leaf = found[path]
        assert leaf["description"] == spec.description, path
        got = [synced_option(o) for o in leaf.get("options", []) or []]
        assert got == [expected_option(o) for o in spec.options], path


def test_dm_availability_follows_the_table(synced: list[Json]) -> None:
    tops = {top["name"]: top for top in synced}
    for spec in ALL_SPECS:
        siblings = [s for s in ALL_SPECS if s.path[0] == spec.path[0]]
        assert usable_in_dms(tops[spec.path[0]]) == all(s.in_dm for s in siblings), spec.path


def test_personal_commands_are_user_installable_and_game_commands_guild_only(
    synced: list[Json],
) -> None:
    # integration_types: 0 = installed to a server, 1 = to a user; contexts: 0 = a server,
    # 1 = the bot's DM, 2 = other DMs and group DMs (issue 16)
    where = {top["name"]: (top["integration_types"], top["contexts"]) for top in synced}
    personal = {"card", "deck", "hand", "help", "me", "rules"}
    assert {name for name, found in where.items() if found == ([0, 1], [0, 1, 2])} == personal
    assert all(where[name] == ([0], [0]) for name in set(where) - personal), where
    assert where["game"] == ([0], [0]), "/game rules stays in /game, guild-only"


def test_moderator_commands_are_hidden_at_the_top_level(synced: list[Json]) -> None:
    tops = {top["name"]: top for top in synced}
    manage_guild = str(discord.Permissions(manage_guild=True).value)
    moderator_groups = {s.path[0] for s in ALL_SPECS if s.moderator}
    assert moderator_groups == {"mod", "settings"}
    for name in moderator_groups:
        assert tops[name]["default_member_permissions"] == manage_guild
        assert all(s.moderator for s in ALL_SPECS if s.path[0] == name), name
    for name, top in tops.items():
        if name not in moderator_groups:
            assert top.get("default_member_permissions") in (None, "0"), name
        for sub in top.get("options", []) or []:
            assert "default_member_permissions" not in sub


async def test_a_member_without_rights_cannot_even_invoke_mod(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    from tests.fakediscord import ImpossibleInteraction

    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db"):
        with pytest.raises(ImpossibleInteraction):
            await fake_discord.slash(table.ann, table.channel, "mod pause")
        with pytest.raises(ImpossibleInteraction):
            await fake_discord.slash(table.ann, table.channel, "settings")
    fake_discord.assert_no_violations()


async def test_dev_guild_sync_is_instant_and_leaves_global_alone(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table.create(fake_discord)
    async with running_bot(fake_discord, tmp_path / "heroes.db", dev_guild_id=table.guild.id):
        pass
    assert fake_discord.commands() == []
    in_guild = fake_discord.commands(table.guild.id)
    assert {c["name"] for c in in_guild} == {s.path[0] for s in ALL_SPECS}
    assert discord_problems(in_guild) == []
    assert fake_discord.command_syncs == 1


def test_every_command_leaves_room_under_discords_budget(synced: list[Json]) -> None:
    """Issue 16: every synced command stays within 3,500 of Discord's 4,000 characters
    (names, descriptions, choice names and values), so a game's next commands fit."""
    over = {c["name"]: _length(c) for c in synced if _length(c) > 3500}
    assert over == {}


def test_components_are_clipped_to_discords_limits() -> None:
    long_id = "ht:1:2:opt:" + "x" * 120
    view = build_view(
        [
            Button("L" * 120, long_id),
            Select(
                "ht:1:2:pick", "p" * 200, tuple(SelectOption(f"o{i}", str(i)) for i in range(30))
            ),
        ]
    )
    assert view is not None
    payload = view.to_components()
    button = payload[0]["components"][0]
    select = payload[1]["components"][0]
    assert len(button["label"]) == 80 and len(button["custom_id"]) == 100
    assert len(select["options"]) == 25 and len(select["placeholder"]) <= 150


if __name__ == "__main__":
    SNAPSHOT.write_text(snapshot_text(asyncio.run(built_payloads())), encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
