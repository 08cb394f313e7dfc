"""Every Hero Forge player action as ``/heroforge <group> <command>`` (rule sections: every
player action of heroforge, see `bot.heroforge.commands`).

One top-level command, ``/heroforge``, with a subcommand group per part of the turn (set-up,
buy, fort, move, combat, turn, land, enchant). Each callback declares its options and
forwards them, unread, to ``GameService.run``; texts, choices and autocomplete sources
come from the Hero Forge command table.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common
from bot.heroforge.commands import GROUPS, TOP, TOP_DESCRIPTION

SETUP_HERO = (TOP, "setup", "hero")
SETUP_PLACE = (TOP, "setup", "place")
BUY_UNIT = (TOP, "buy", "unit")
BUY_DONE = (TOP, "buy", "done")
FORT_BUY = (TOP, "fort", "buy")
FORT_MAN = (TOP, "fort", "man")
FORT_UNMAN = (TOP, "fort", "unman")
MOVE_ROLL = (TOP, "move", "roll")
MOVE_SKIP = (TOP, "move", "skip")
MOVE_GO = (TOP, "move", "go")
MOVE_STAY = (TOP, "move", "stay")
COMBAT_ATTACK = (TOP, "combat", "attack")
COMBAT_FIGHT = (TOP, "combat", "fight")
COMBAT_RETREAT = (TOP, "combat", "retreat")
TURN_END = (TOP, "turn", "end")
LAND_SHIFT = (TOP, "land", "shift")
LAND_KEEP = (TOP, "land", "keep")
ENCHANT_PASS = (TOP, "enchant", "pass")
ENCHANT_STEAL = (TOP, "enchant", "steal")
ENCHANT_LET_GO = (TOP, "enchant", "let-go")


@app_commands.guild_only()
class HeroforgeCommands(
    common.PlayCog, commands.GroupCog, group_name=TOP, group_description=TOP_DESCRIPTION
):
    """/heroforge ...: Play Hero Forge."""

    setup_group = common.group("setup", GROUPS)
    buy_group = common.group("buy", GROUPS)
    fort_group = common.group("fort", GROUPS)
    move_group = common.group("move", GROUPS)
    combat_group = common.group("combat", GROUPS)
    turn_group = common.group("turn", GROUPS)
    land_group = common.group("land", GROUPS)
    enchant_group = common.group("enchant", GROUPS)

    @common.subcommand(setup_group, SETUP_HERO)
    async def setup_hero(self, interaction: discord.Interaction, hero: str) -> None:
        """Choose your hero."""
        await self._run(interaction, SETUP_HERO, hero=hero)

    @common.subcommand(setup_group, SETUP_PLACE)
    async def setup_place(self, interaction: discord.Interaction, plate: str) -> None:
        """Place your hero in the centre of a free Plain Land."""
        await self._run(interaction, SETUP_PLACE, plate=plate)

    @common.subcommand(buy_group, BUY_UNIT)
    async def buy_unit(
        self,
        interaction: discord.Interaction,
        level: app_commands.Range[int, 1, 10],
        count: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        """Buy units into your hero's army."""
        await self._run(interaction, BUY_UNIT, level=level, count=count)

    @common.subcommand(buy_group, BUY_DONE)
    async def buy_done(self, interaction: discord.Interaction) -> None:
        """End this buying step."""
        await self._run(interaction, BUY_DONE)

    @common.subcommand(fort_group, FORT_BUY)
    async def fort_buy(self, interaction: discord.Interaction, step: str) -> None:
        """Build a fort on your hero's square."""
        await self._run(interaction, FORT_BUY, step=step)

    @common.subcommand(fort_group, FORT_MAN)
    async def fort_man(self, interaction: discord.Interaction, fort: str, units: str) -> None:
        """Man your fort."""
        await self._run(interaction, FORT_MAN, fort=fort, units=units)

    @common.subcommand(fort_group, FORT_UNMAN)
    async def fort_unman(self, interaction: discord.Interaction, fort: str, units: str) -> None:
        """Unman your fort."""
        await self._run(interaction, FORT_UNMAN, fort=fort, units=units)

    @common.subcommand(move_group, MOVE_ROLL)
    async def move_roll(self, interaction: discord.Interaction) -> None:
        """Roll the D6 to move."""
        await self._run(interaction, MOVE_ROLL)

    @common.subcommand(move_group, MOVE_SKIP)
    async def move_skip(self, interaction: discord.Interaction) -> None:
        """Do not move."""
        await self._run(interaction, MOVE_SKIP)

    @common.subcommand(move_group, MOVE_GO)
    async def move_go(
        self,
        interaction: discord.Interaction,
        direction: str,
        distance: app_commands.Range[int, 1, 20],
    ) -> None:
        """Move after rolling."""
        await self._run(interaction, MOVE_GO, direction=direction, distance=distance)

    @common.subcommand(move_group, MOVE_STAY)
    async def move_stay(self, interaction: discord.Interaction) -> None:
        """Stay after rolling."""
        await self._run(interaction, MOVE_STAY)

    @common.subcommand(combat_group, COMBAT_ATTACK)
    async def combat_attack(
        self, interaction: discord.Interaction, target: str | None = None
    ) -> None:
        """Attack a hero or fort on your plate."""
        await self._run(interaction, COMBAT_ATTACK, target=target)

    @common.subcommand(combat_group, COMBAT_FIGHT)
    async def combat_fight(
        self, interaction: discord.Interaction, target: str | None = None
    ) -> None:
        """Fight back."""
        await self._run(interaction, COMBAT_FIGHT, target=target)

    @common.subcommand(combat_group, COMBAT_RETREAT)
    async def combat_retreat(self, interaction: discord.Interaction) -> None:
        """Try to retreat."""
        await self._run(interaction, COMBAT_RETREAT)

    @common.subcommand(turn_group, TURN_END)
    async def turn_end(self, interaction: discord.Interaction) -> None:
        """End your turn."""
        await self._run(interaction, TURN_END)

    @common.subcommand(land_group, LAND_SHIFT)
    async def land_shift(
        self, interaction: discord.Interaction, plate: str, direction: str
    ) -> None:
        """Shift a land plate."""
        await self._run(interaction, LAND_SHIFT, plate=plate, direction=direction)

    @common.subcommand(land_group, LAND_KEEP)
    async def land_keep(self, interaction: discord.Interaction) -> None:
        """Do not shift."""
        await self._run(interaction, LAND_KEEP)

    @common.subcommand(enchant_group, ENCHANT_PASS)
    async def enchant_pass(self, interaction: discord.Interaction, to: str) -> None:
        """Pass your enchantment on."""
        await self._run(interaction, ENCHANT_PASS, to=to)

    @common.subcommand(enchant_group, ENCHANT_STEAL)
    async def enchant_steal(self, interaction: discord.Interaction) -> None:
        """Steal the enchantment on offer."""
        await self._run(interaction, ENCHANT_STEAL)

    @common.subcommand(enchant_group, ENCHANT_LET_GO)
    async def enchant_let_go(self, interaction: discord.Interaction) -> None:
        """Let the enchantment go."""
        await self._run(interaction, ENCHANT_LET_GO)


PLAY_COGS = (HeroforgeCommands,)
"""The Hero Forge cogs (one top-level command)."""
