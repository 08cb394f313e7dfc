"""Every mmh player action as ``/mmh <group> <command>`` (rule sections: every player
action of mmh, see `bot.mmh.commands`).

One top-level command, ``/mmh``, with a subcommand group per part of the game: ``setup``,
``turn`` (action cards), ``capital`` (Build, Recruit), ``hero`` (Activate Hero),
``choice`` (cards, treasure, raise dead, rewards) and ``battle``. Each callback declares
its options and forwards them, unread, to ``GameService.run``; texts, choices and
autocomplete sources come from the mmh command table.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common
from bot.mmh.commands import GROUPS, TOP, TOP_DESCRIPTION

Track = app_commands.Range[int, 0, 40]


def _p(group: str, name: str) -> tuple[str, str, str]:
    return (TOP, group, name)


@app_commands.guild_only()
class MmhCommands(
    common.PlayCog, commands.GroupCog, group_name=TOP, group_description=TOP_DESCRIPTION
):
    """/mmh ...: Play Might & Magic Heroes."""

    setup_group = common.group("setup", GROUPS)
    turn_group = common.group("turn", GROUPS)
    capital_group = common.group("capital", GROUPS)
    hero_group = common.group("hero", GROUPS)
    choice_group = common.group("choice", GROUPS)
    battle_group = common.group("battle", GROUPS)

    # ------------------------------------------------------------------ setup
    @common.subcommand(setup_group, _p("setup", "tile"))
    async def setup_tile(
        self,
        interaction: discord.Interaction,
        column: app_commands.Range[int, 1, 4],
        row: app_commands.Range[int, 1, 4],
        rotation: app_commands.Range[int, 0, 3],
    ) -> None:
        """Lay the next map tile."""
        await self._run(interaction, _p("setup", "tile"), column=column, row=row, rotation=rotation)

    @common.subcommand(setup_group, _p("setup", "capital"))
    async def setup_capital(self, interaction: discord.Interaction, space: str) -> None:
        """Place your capital."""
        await self._run(interaction, _p("setup", "capital"), space=space)

    @common.subcommand(setup_group, _p("setup", "hero"))
    async def setup_hero(self, interaction: discord.Interaction, hero: str) -> None:
        """Choose your starting hero."""
        await self._run(interaction, _p("setup", "hero"), hero=hero)

    # ------------------------------------------------------------------ turn
    @common.subcommand(turn_group, _p("turn", "play"))
    async def turn_play(
        self,
        interaction: discord.Interaction,
        card: app_commands.Range[int, 1, 4],
        action: str,
        bonus: str | None = None,
    ) -> None:
        """Play an action card."""
        await self._run(interaction, _p("turn", "play"), card=card, action=action, bonus=bonus)

    @common.subcommand(turn_group, _p("turn", "end"))
    async def turn_end(self, interaction: discord.Interaction) -> None:
        """End your action."""
        await self._run(interaction, _p("turn", "end"))

    @common.subcommand(turn_group, _p("turn", "trade"))
    async def turn_trade(
        self, interaction: discord.Interaction, give: str, amount: app_commands.Range[int, 2, 200]
    ) -> None:
        """Trade at the Marketplace."""
        await self._run(interaction, _p("turn", "trade"), give=give, amount=amount)

    @common.subcommand(turn_group, _p("turn", "sell"))
    async def turn_sell(self, interaction: discord.Interaction, hero: str, scroll: str) -> None:
        """Sell a scroll."""
        await self._run(interaction, _p("turn", "sell"), hero=hero, scroll=scroll)

    @common.subcommand(turn_group, _p("turn", "level-up"))
    async def turn_level_up(
        self, interaction: discord.Interaction, hero: str, deck: str, trophies: str | None = None
    ) -> None:
        """Level a hero up."""
        await self._run(
            interaction, _p("turn", "level-up"), hero=hero, deck=deck, trophies=trophies
        )

    # ------------------------------------------------------------------ capital
    @common.subcommand(capital_group, _p("capital", "build"))
    async def capital_build(
        self, interaction: discord.Interaction, building: str, pay: str | None = None
    ) -> None:
        """Build."""
        await self._run(interaction, _p("capital", "build"), building=building, pay=pay)

    @common.subcommand(capital_group, _p("capital", "recruit"))
    async def capital_recruit(
        self, interaction: discord.Interaction, hero: str, creature: str, elite: bool | None = None
    ) -> None:
        """Recruit a creature."""
        await self._run(
            interaction, _p("capital", "recruit"), hero=hero, creature=creature, elite=elite
        )

    @common.subcommand(capital_group, _p("capital", "hire"))
    async def capital_hire(self, interaction: discord.Interaction, hero: str) -> None:
        """Recruit a hero."""
        await self._run(interaction, _p("capital", "hire"), hero=hero)

    @common.subcommand(capital_group, _p("capital", "upgrade"))
    async def capital_upgrade(
        self, interaction: discord.Interaction, hero: str, creature: str
    ) -> None:
        """Upgrade a creature."""
        await self._run(interaction, _p("capital", "upgrade"), hero=hero, creature=creature)

    @common.subcommand(capital_group, _p("capital", "dismiss"))
    async def capital_dismiss(
        self, interaction: discord.Interaction, hero: str, creature: str, elite: bool | None = None
    ) -> None:
        """Dismiss a creature."""
        await self._run(
            interaction, _p("capital", "dismiss"), hero=hero, creature=creature, elite=elite
        )

    # ------------------------------------------------------------------ hero
    @common.subcommand(hero_group, _p("hero", "activate"))
    async def hero_activate(self, interaction: discord.Interaction, hero: str) -> None:
        """Activate a hero."""
        await self._run(interaction, _p("hero", "activate"), hero=hero)

    @common.subcommand(hero_group, _p("hero", "move"))
    async def hero_move(self, interaction: discord.Interaction, to: str) -> None:
        """Move the active hero."""
        await self._run(interaction, _p("hero", "move"), to=to)

    @common.subcommand(hero_group, _p("hero", "explore"))
    async def hero_explore(self, interaction: discord.Interaction) -> None:
        """Explore here."""
        await self._run(interaction, _p("hero", "explore"))

    @common.subcommand(hero_group, _p("hero", "control"))
    async def hero_control(self, interaction: discord.Interaction) -> None:
        """Take control here."""
        await self._run(interaction, _p("hero", "control"))

    # ------------------------------------------------------------------ choice
    @common.subcommand(choice_group, _p("choice", "keep"))
    async def choice_keep(self, interaction: discord.Interaction, card: str) -> None:
        """Keep a drawn card."""
        await self._run(interaction, _p("choice", "keep"), card=card)

    @common.subcommand(choice_group, _p("choice", "discard-scroll"))
    async def choice_discard_scroll(self, interaction: discord.Interaction, scroll: str) -> None:
        """Make room for a scroll."""
        await self._run(interaction, _p("choice", "discard-scroll"), scroll=scroll)

    @common.subcommand(choice_group, _p("choice", "fields"))
    async def choice_fields(self, interaction: discord.Interaction, fields: str) -> None:
        """Take treasure fields."""
        await self._run(interaction, _p("choice", "fields"), fields=fields)

    @common.subcommand(choice_group, _p("choice", "deck"))
    async def choice_deck(self, interaction: discord.Interaction, deck: str) -> None:
        """Pick the skill deck."""
        await self._run(interaction, _p("choice", "deck"), deck=deck)

    @common.subcommand(choice_group, _p("choice", "search"))
    async def choice_search(self, interaction: discord.Interaction, pile: str, card: str) -> None:
        """Search a discard pile."""
        await self._run(interaction, _p("choice", "search"), pile=pile, card=card)

    @common.subcommand(choice_group, _p("choice", "arena"))
    async def choice_arena(
        self, interaction: discord.Interaction, creature: str, elite: bool | None = None
    ) -> None:
        """Recruit at the Arena."""
        await self._run(interaction, _p("choice", "arena"), creature=creature, elite=elite)

    @common.subcommand(choice_group, _p("choice", "raise"))
    async def choice_raise(
        self, interaction: discord.Interaction, creature: str, mode: str
    ) -> None:
        """Raise the dead."""
        await self._run(interaction, _p("choice", "raise"), creature=creature, mode=mode)

    @common.subcommand(choice_group, _p("choice", "reward"))
    async def choice_reward(
        self, interaction: discord.Interaction, deck: str | None = None, artefact: str | None = None
    ) -> None:
        """Take the reward of victory."""
        await self._run(interaction, _p("choice", "reward"), deck=deck, artefact=artefact)

    @common.subcommand(choice_group, _p("choice", "return"))
    async def choice_return(self, interaction: discord.Interaction, creatures: str) -> None:
        """Send creatures back to the reserve."""
        await self._run(interaction, _p("choice", "return"), creatures=creatures)

    @common.subcommand(choice_group, _p("choice", "decline"))
    async def choice_decline(self, interaction: discord.Interaction) -> None:
        """Pass on an optional choice."""
        await self._run(interaction, _p("choice", "decline"))

    # ------------------------------------------------------------------ battle
    @common.subcommand(battle_group, _p("battle", "honor"))
    async def battle_honor(self, interaction: discord.Interaction, elite_die: bool) -> None:
        """Decide Honor."""
        await self._run(interaction, _p("battle", "honor"), **{"elite-die": elite_die})

    @common.subcommand(battle_group, _p("battle", "card"))
    async def battle_card(
        self,
        interaction: discord.Interaction,
        card: str,
        part: str | None = None,
        target: Track | None = None,
    ) -> None:
        """Use a card."""
        await self._run(interaction, _p("battle", "card"), card=card, part=part, target=target)

    @common.subcommand(battle_group, _p("battle", "pass"))
    async def battle_pass(self, interaction: discord.Interaction) -> None:
        """Use no more cards."""
        await self._run(interaction, _p("battle", "pass"))

    @common.subcommand(battle_group, _p("battle", "attack"))
    async def battle_attack(
        self,
        interaction: discord.Interaction,
        elite: bool | None = None,
        target: Track | None = None,
    ) -> None:
        """Attack."""
        await self._run(interaction, _p("battle", "attack"), elite=elite, target=target)

    @common.subcommand(battle_group, _p("battle", "luck"))
    async def battle_luck(self, interaction: discord.Interaction, choice: str) -> None:
        """Spend luck."""
        await self._run(interaction, _p("battle", "luck"), choice=choice)

    @common.subcommand(battle_group, _p("battle", "laurel"))
    async def battle_laurel(self, interaction: discord.Interaction, choice: str) -> None:
        """Resolve the laurel wreath."""
        await self._run(interaction, _p("battle", "laurel"), choice=choice)

    @common.subcommand(battle_group, _p("battle", "angel"))
    async def battle_angel(self, interaction: discord.Interaction, use: bool) -> None:
        """Answer the Guardian Angel."""
        await self._run(interaction, _p("battle", "angel"), use=use)

    @common.subcommand(battle_group, _p("battle", "assign"))
    async def battle_assign(
        self, interaction: discord.Interaction, unit: Track, order: str | None = None
    ) -> None:
        """Assign damage."""
        await self._run(interaction, _p("battle", "assign"), unit=unit, order=order)

    @common.subcommand(battle_group, _p("battle", "retreat"))
    async def battle_retreat(
        self, interaction: discord.Interaction, losses: str | None = None
    ) -> None:
        """Retreat."""
        await self._run(interaction, _p("battle", "retreat"), losses=losses)

    @common.subcommand(battle_group, _p("battle", "fight"))
    async def battle_fight(self, interaction: discord.Interaction) -> None:
        """Fight on."""
        await self._run(interaction, _p("battle", "fight"))

    @common.subcommand(battle_group, _p("battle", "orders"))
    async def battle_orders(
        self,
        interaction: discord.Interaction,
        attack: str | None = None,
        cards: str | None = None,
        retreat: str | None = None,
        assign: str | None = None,
        luck: str | None = None,
        angel: str | None = None,
    ) -> None:
        """Set standing orders."""
        await self._run(
            interaction,
            _p("battle", "orders"),
            attack=attack,
            cards=cards,
            retreat=retreat,
            assign=assign,
            luck=luck,
            angel=angel,
        )


PLAY_COGS = (MmhCommands,)
"""The mmh cogs (one top-level command)."""
