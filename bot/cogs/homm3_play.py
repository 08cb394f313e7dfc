"""Every homm3 player action as ``/homm3 <group> <command>`` (rule sections: every player
action of homm3, see `bot.homm3.commands`).

One top-level command, ``/homm3``, with a subcommand group per part of the game: ``choice``
(answer a choice), ``adventure`` (the Adventure turn), ``combat`` (the Battlefield) and
``card`` (Might & Magic and Morale cards). Each callback declares its options and
forwards them, unread, to ``GameService.run``; texts, choices and autocomplete sources come
from the homm3 command table.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common
from bot.homm3.commands import GROUPS, TOP, TOP_DESCRIPTION

CHOICE_PICK = (TOP, "choice", "pick")
ADV_REDRAW = (TOP, "adventure", "redraw")
ADV_RESOLVE = (TOP, "adventure", "resolve")
ADV_FIGHT = (TOP, "adventure", "fight")
ADV_BUILD = (TOP, "adventure", "build")
ADV_MUSTER = (TOP, "adventure", "muster")
ADV_SPELL = (TOP, "adventure", "spell")
ADV_BLACKSMITH = (TOP, "adventure", "blacksmith")
ADV_USE = (TOP, "adventure", "use")
ADV_END = (TOP, "adventure", "end")
ADV_START_COMBAT = (TOP, "adventure", "start-combat")
COMBAT_OBSTACLE = (TOP, "combat", "obstacle")
COMBAT_NO_OBSTACLE = (TOP, "combat", "no-obstacle")
COMBAT_DEPLOY = (TOP, "combat", "deploy")
COMBAT_ACTIVATE = (TOP, "combat", "activate")
COMBAT_MOVE = (TOP, "combat", "move")
COMBAT_ATTACK = (TOP, "combat", "attack")
COMBAT_WALL = (TOP, "combat", "wall")
COMBAT_DEFEND = (TOP, "combat", "defend")
COMBAT_END = (TOP, "combat", "end")
COMBAT_PASS = (TOP, "combat", "pass")
COMBAT_ORDERS = (TOP, "combat", "orders")
CARD_PLAY = (TOP, "card", "play")
CARD_MORALE = (TOP, "card", "morale")


Unit = app_commands.Range[int, 1, 99]


@app_commands.guild_only()
class Homm3Commands(
    common.PlayCog, commands.GroupCog, group_name=TOP, group_description=TOP_DESCRIPTION
):
    """/homm3 ...: Play Heroes III Battlefield."""

    choice_group = common.group("choice", GROUPS)
    adventure_group = common.group("adventure", GROUPS)
    combat_group = common.group("combat", GROUPS)
    card_group = common.group("card", GROUPS)

    @common.subcommand(choice_group, CHOICE_PICK)
    async def choice_pick(
        self, interaction: discord.Interaction, option: app_commands.Range[int, 0, 99]
    ) -> None:
        """Answer your open choice."""
        await self._run(interaction, CHOICE_PICK, option=option)

    @common.subcommand(adventure_group, ADV_REDRAW)
    async def adventure_redraw(
        self, interaction: discord.Interaction, cards: str, source: str | None = None
    ) -> None:
        """Swap drawn Adventure cards with a Movement card."""
        await self._run(interaction, ADV_REDRAW, cards=cards, source=source)

    @common.subcommand(adventure_group, ADV_RESOLVE)
    async def adventure_resolve(self, interaction: discord.Interaction, card: str) -> None:
        """Resolve an Adventure-Event card."""
        await self._run(interaction, ADV_RESOLVE, card=card)

    @common.subcommand(adventure_group, ADV_FIGHT)
    async def adventure_fight(
        self,
        interaction: discord.Interaction,
        card: str,
        level: app_commands.Range[int, 1, 3],
        units: str,
    ) -> None:
        """Fight an Adventure-Combat card."""
        await self._run(interaction, ADV_FIGHT, card=card, level=level, units=units)

    @common.subcommand(adventure_group, ADV_BUILD)
    async def adventure_build(self, interaction: discord.Interaction, building: str) -> None:
        """Build with your Build Token."""
        await self._run(interaction, ADV_BUILD, building=building)

    @common.subcommand(adventure_group, ADV_MUSTER)
    async def adventure_muster(
        self,
        interaction: discord.Interaction,
        recruit: str | None = None,
        reinforce: str | None = None,
        discount: str | None = None,
    ) -> None:
        """Recruit and reinforce with your Population Token."""
        await self._run(
            interaction, ADV_MUSTER, recruit=recruit, reinforce=reinforce, discount=discount
        )

    @common.subcommand(adventure_group, ADV_SPELL)
    async def adventure_spell(
        self, interaction: discord.Interaction, wisdom: str | None = None
    ) -> None:
        """Buy a Spell with your Spell Book Token."""
        await self._run(interaction, ADV_SPELL, wisdom=wisdom)

    @common.subcommand(adventure_group, ADV_BLACKSMITH)
    async def adventure_blacksmith(self, interaction: discord.Interaction) -> None:
        """Use the Castle Blacksmith."""
        await self._run(interaction, ADV_BLACKSMITH)

    @common.subcommand(adventure_group, ADV_USE)
    async def adventure_use(
        self,
        interaction: discord.Interaction,
        card: str,
        option: app_commands.Range[int, 0, 1] | None = None,
    ) -> None:
        """Use a set-aside card."""
        await self._run(interaction, ADV_USE, card=card, option=option)

    @common.subcommand(adventure_group, ADV_END)
    async def adventure_end(self, interaction: discord.Interaction) -> None:
        """End your Adventure turn."""
        await self._run(interaction, ADV_END)

    @common.subcommand(adventure_group, ADV_START_COMBAT)
    async def adventure_start_combat(self, interaction: discord.Interaction) -> None:
        """Take no more Town actions: let the final Combat be set up."""
        await self._run(interaction, ADV_START_COMBAT)

    @common.subcommand(combat_group, COMBAT_OBSTACLE)
    async def combat_obstacle(
        self, interaction: discord.Interaction, token: app_commands.Range[int, 1, 10], hex: str
    ) -> None:
        """Place an Obstacle token."""
        await self._run(interaction, COMBAT_OBSTACLE, token=token, hex=hex)

    @common.subcommand(combat_group, COMBAT_NO_OBSTACLE)
    async def combat_no_obstacle(self, interaction: discord.Interaction) -> None:
        """Place no Obstacle."""
        await self._run(interaction, COMBAT_NO_OBSTACLE)

    @common.subcommand(combat_group, COMBAT_DEPLOY)
    async def combat_deploy(self, interaction: discord.Interaction, unit: Unit, hex: str) -> None:
        """Place a unit in your zone."""
        await self._run(interaction, COMBAT_DEPLOY, unit=unit, hex=hex)

    @common.subcommand(combat_group, COMBAT_ACTIVATE)
    async def combat_activate(self, interaction: discord.Interaction, unit: Unit) -> None:
        """Choose the unit that activates."""
        await self._run(interaction, COMBAT_ACTIVATE, unit=unit)

    @common.subcommand(combat_group, COMBAT_MOVE)
    async def combat_move(self, interaction: discord.Interaction, hex: str) -> None:
        """Move the active unit."""
        await self._run(interaction, COMBAT_MOVE, hex=hex)

    @common.subcommand(combat_group, COMBAT_ATTACK)
    async def combat_attack(
        self, interaction: discord.Interaction, target: Unit, hex: str | None = None
    ) -> None:
        """Attack with the active unit."""
        await self._run(interaction, COMBAT_ATTACK, target=target, hex=hex)

    @common.subcommand(combat_group, COMBAT_WALL)
    async def combat_wall(
        self, interaction: discord.Interaction, hex: str, move: str | None = None
    ) -> None:
        """Destroy a Wall or the Gate."""
        await self._run(interaction, COMBAT_WALL, hex=hex, move=move)

    @common.subcommand(combat_group, COMBAT_DEFEND)
    async def combat_defend(self, interaction: discord.Interaction) -> None:
        """Defend with the active unit."""
        await self._run(interaction, COMBAT_DEFEND)

    @common.subcommand(combat_group, COMBAT_END)
    async def combat_end(self, interaction: discord.Interaction) -> None:
        """End the activation."""
        await self._run(interaction, COMBAT_END)

    @common.subcommand(combat_group, COMBAT_PASS)
    async def combat_pass(self, interaction: discord.Interaction) -> None:
        """Play no more cards before this attack."""
        await self._run(interaction, COMBAT_PASS)

    @common.subcommand(combat_group, COMBAT_ORDERS)
    async def combat_orders(
        self,
        interaction: discord.Interaction,
        cards: str | None = None,
        obstacles: str | None = None,
        deploy: str | None = None,
    ) -> None:
        """Set standing orders."""
        await self._run(interaction, COMBAT_ORDERS, cards=cards, obstacles=obstacles, deploy=deploy)

    @common.subcommand(card_group, CARD_PLAY)
    async def card_play(
        self,
        interaction: discord.Interaction,
        card: str,
        option: app_commands.Range[int, 0, 2] | None = None,
        unit: Unit | None = None,
        units: str | None = None,
        hex: str | None = None,
        hexes: str | None = None,
        stat: str | None = None,
        power: str | None = None,
        expert_power: str | None = None,
        discard: str | None = None,
        take: str | None = None,
        school: str | None = None,
    ) -> None:
        """Play a card."""
        await self._run(
            interaction,
            CARD_PLAY,
            card=card,
            option=option,
            unit=unit,
            units=units,
            hex=hex,
            hexes=hexes,
            stat=stat,
            power=power,
            **{"expert-power": expert_power},
            discard=discard,
            take=take,
            school=school,
        )

    @common.subcommand(card_group, CARD_MORALE)
    async def card_morale(
        self,
        interaction: discord.Interaction,
        card: str | None = None,
        option: app_commands.Range[int, 0, 1] | None = None,
        unit: Unit | None = None,
        discard: str | None = None,
    ) -> None:
        """Use Positive Morale."""
        await self._run(
            interaction, CARD_MORALE, card=card, option=option, unit=unit, discard=discard
        )


PLAY_COGS = (Homm3Commands,)
"""The homm3 cogs (one top-level command)."""
