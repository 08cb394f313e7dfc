"""Slash commands generated from table rows (`bot.cogs.common.table_cogs`): a row that no
cog was written for becomes a command with the row's types, bounds, choices, names and
visibility, and invoking it hands its options on under their table names.

The rows here are an example table (a dice game's), not one of the bot's rulesets: a new
game's rows need no Discord code of their own.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import table_cogs, table_command
from bot.command_table import Choice, CommandSpec, OptionSpec

ROLL = CommandSpec(
    ("dice", "turn", "roll"),
    "Roll the dice",
    (
        OptionSpec(
            "dice", "how many dice, 1-5", "integer", required=True, min_value=1, max_value=5
        ),
        OptionSpec("with", "your other player joining, e.g. Blue", autocomplete=True),
        OptionSpec("keep-high", "keep the highest die", "boolean"),
        OptionSpec(
            "colour", "the dice colour", choices=(Choice("Red dice", "red"), Choice("Blue", "blue"))
        ),
        OptionSpec("note", "a note for the log", max_length=50),
    ),
    kind="play",
    handler="roll",
    ruleset="dice",
)
PASS = CommandSpec(("dice", "pass"), "Pass your turn", kind="play", handler="pass", ruleset="dice")
TABLE_HELP = CommandSpec(("dicehelp",), "How to play dice", in_dm=True)
KICK = CommandSpec(
    ("dicemod", "kick"),
    "Remove a player",
    (OptionSpec("user", "the member", "user", required=True), OptionSpec("role", "a role", "role")),
    moderator=True,
)
GROUPS = {
    ("dice",): "Play dice",
    ("dice", "turn"): "Your turn",
    ("dicemod",): "Dice moderators",
}


async def payloads(cogs: tuple[type[commands.Cog], ...]) -> dict[str, dict[str, Any]]:
    """The synced payload of each top-level command the cogs hold, by name."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for cog in cogs:
        await bot.add_cog(cog(bot))
    return {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}


async def test_a_row_becomes_a_command_with_its_options() -> None:
    synced = await payloads(table_cogs([ROLL, PASS, TABLE_HELP, KICK], GROUPS))
    assert sorted(synced) == ["dice", "dicehelp", "dicemod"]
    dice = synced["dice"]
    assert dice["description"] == "Play dice"
    assert [o["name"] for o in dice["options"]] == ["turn", "pass"]
    turn = dice["options"][0]
    assert (turn["type"], turn["description"]) == (2, "Your turn")
    roll = turn["options"][0]
    assert (roll["name"], roll["description"]) == ("roll", "Roll the dice")
    options = {o["name"]: o for o in roll["options"]}
    assert list(options) == ["dice", "with", "keep-high", "colour", "note"]
    assert options["dice"] == {
        "type": 4,
        "name": "dice",
        "description": "how many dice, 1-5",
        "required": True,
        "min_value": 1,
        "max_value": 5,
    }
    assert (options["with"]["type"], options["with"]["autocomplete"]) == (3, True)
    assert (options["keep-high"]["type"], options["keep-high"]["required"]) == (5, False)
    assert options["colour"]["choices"] == [
        {"name": "Red dice", "value": "red"},
        {"name": "Blue", "value": "blue"},
    ]
    assert options["note"]["max_length"] == 50
    kick = synced["dicemod"]["options"][0]
    assert [(o["name"], o["type"]) for o in kick["options"]] == [("user", 6), ("role", 8)]


async def test_visibility_follows_the_rows() -> None:
    synced = await payloads(table_cogs([ROLL, PASS, TABLE_HELP, KICK], GROUPS))
    manage_guild = discord.Permissions(manage_guild=True).value
    assert synced["dice"]["contexts"] == [0]  # guild only: a row is not in_dm
    assert synced["dice"]["integration_types"] == [0]  # installed with the server only
    assert synced["dice"]["default_member_permissions"] is None
    assert synced["dicehelp"]["dm_permission"] is True  # DMs too: every row is in_dm
    assert synced["dicehelp"]["contexts"] == [0, 1, 2]  # servers, the bot's DM, other DMs
    assert synced["dicehelp"]["integration_types"] == [0, 1]  # user-installable too
    assert synced["dicemod"]["default_member_permissions"] == manage_guild


def test_a_group_mixing_moderator_and_player_rows_is_refused() -> None:
    player_row = CommandSpec(("dicemod", "look"), "Look at the dice")
    with pytest.raises(ValueError, match="/dicemod mixes moderator and player commands"):
        table_cogs([KICK, player_row], GROUPS)


def test_an_undescribed_group_is_refused() -> None:
    with pytest.raises(KeyError):
        table_cogs([ROLL], {("dice",): "Play dice"})


async def test_invoking_hands_on_the_options_under_their_table_names() -> None:
    received: list[tuple[tuple[str, ...], dict[str, Any]]] = []

    async def run(
        interaction: discord.Interaction, path: tuple[str, ...], options: dict[str, Any]
    ) -> None:
        received.append((path, options))

    made: app_commands.Command[Any, Any, Any] = table_command(ROLL, run)
    callback: Any = made.callback  # what discord.py calls: (cog, interaction, **values)
    await callback(None, object(), dice=3, with_="Blue", keep_high=True, colour="red", note=None)
    assert received == [
        (
            ("dice", "turn", "roll"),
            {"dice": 3, "with": "Blue", "keep-high": True, "colour": "red", "note": None},
        )
    ]
