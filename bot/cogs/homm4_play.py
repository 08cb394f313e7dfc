"""Every homm4 player action as a slash command: /setup, /purchase, /army, /scout, /guard,
/battle, /hero, /deal, /turn (rule sections: every player action of homm4, see
`bot.homm4.commands`).

Each callback declares its options explicitly and forwards them, unread, to
``GameService.run``: turning ``#17`` or ``Orc`` into a card, checking that it is the
player's decision and applying the rules are the service's and the engine's work. The
texts, fixed choices and autocomplete sources come from the homm4 command table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

SETUP_SECTION = ("setup", "section")
SETUP_DEVELOP = ("setup", "develop")
SETUP_ENTRANCE = ("setup", "entrance")
SETUP_RISK = ("setup", "risk")
SETUP_ARMY = ("setup", "army")
PURCHASE_BUY = ("purchase", "buy")
PURCHASE_UPGRADE = ("purchase", "upgrade")
PURCHASE_ARTIFACT = ("purchase", "artifact")
PURCHASE_SKILL = ("purchase", "skill")
PURCHASE_SPELL = ("purchase", "spell")
PURCHASE_DONE = ("purchase", "done")
ARMY_MOVE = ("army", "move")
ARMY_SPLIT = ("army", "split")
ARMY_FORM = ("army", "form")
ARMY_TRANSFER = ("army", "transfer")
ARMY_GIVE_ARTIFACT = ("army", "give-artifact")
ARMY_DROP_ARTIFACT = ("army", "drop-artifact")
ARMY_RECRUIT = ("army", "recruit")
ARMY_SPELL = ("army", "spell")
ARMY_DONE = ("army", "done")
SCOUT_IDENTIFY = ("scout", "identify")
SCOUT_PASS = ("scout", "pass")
GUARD_REINFORCE = ("guard", "reinforce")
BATTLE_DEPLOY = ("battle", "deploy")
BATTLE_ATTACK = ("battle", "attack")
BATTLE_SUPPORT = ("battle", "support")
BATTLE_GROUP = ("battle", "group")
BATTLE_DEFEND = ("battle", "defend")
BATTLE_REGROUP = ("battle", "regroup")
BATTLE_CAST = ("battle", "cast")
BATTLE_COUNTER = ("battle", "counter")
BATTLE_FILL = ("battle", "fill")
BATTLE_RETREAT = ("battle", "retreat")
BATTLE_SURRENDER = ("battle", "surrender")
BATTLE_ANSWER = ("battle", "answer")
HERO_LEARN_SKILL = ("hero", "learn-skill")
HERO_MAKE_ROOM = ("hero", "make-room")
HERO_LOOT = ("hero", "loot")
DEAL_PAY = ("deal", "pay")
DEAL_ARMY = ("deal", "army")
DEAL_SELL = ("deal", "sell")
TURN_CLOSE = ("turn", "close")
BATTLE_ORDERS = ("battle", "orders")


@app_commands.guild_only()
class SetupCommands(
    commands.GroupCog,
    group_name="setup",
    group_description="Set up a homm4 game: Heroes, map sections, entrances, Risk Stack, first Army",
):
    """/setup ...: Set up a homm4 game: Heroes, map sections, entrances, Risk Stack, first Army."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(SETUP_SECTION)
    async def section(
        self,
        interaction: discord.Interaction,
        slot: str,
        rotation: app_commands.Range[int, 0, 5],
    ) -> None:
        """Attach the revealed Terrain Map Section (manual assembly)."""
        await self.bot.run_command(interaction, SETUP_SECTION, {"slot": slot, "rotation": rotation})

    @common.command(SETUP_DEVELOP)
    async def develop(
        self,
        interaction: discord.Interaction,
        cards: str,
        hero: str | None = None,
    ) -> None:
        """Pre-developed Heroes: give your starting Hero cards from your deck."""
        await self.bot.run_command(interaction, SETUP_DEVELOP, {"cards": cards, "hero": hero})

    @common.command(SETUP_ENTRANCE)
    async def entrance(
        self,
        interaction: discord.Interaction,
        surface: str,
        underground: str,
    ) -> None:
        """Underground: place the next entrance coin pair on two Object icons."""
        await self.bot.run_command(
            interaction, SETUP_ENTRANCE, {"surface": surface, "underground": underground}
        )

    @common.command(SETUP_RISK)
    async def risk(
        self,
        interaction: discord.Interaction,
        cards: str,
    ) -> None:
        """Choose 5 of the 8 drawn cards as your Risk Stack."""
        await self.bot.run_command(interaction, SETUP_RISK, {"cards": cards})

    @common.command(SETUP_ARMY)
    async def army(
        self,
        interaction: discord.Interaction,
        hex: str,
    ) -> None:
        """Place your first Army token on an edge hex."""
        await self.bot.run_command(interaction, SETUP_ARMY, {"hex": hex})


@app_commands.guild_only()
class PurchaseCommands(
    commands.GroupCog,
    group_name="purchase",
    group_description="homm4 Purchase Phase: buy Units, Heroes, Artifacts, Skills; upgrade Towns",
):
    """/purchase ...: homm4 Purchase Phase: buy Units, Heroes, Artifacts, Skills; upgrade Towns."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(PURCHASE_BUY)
    async def buy(
        self,
        interaction: discord.Interaction,
        card: str,
        town: str | None = None,
        into: str | None = None,
        pay: str | None = None,
    ) -> None:
        """Buy a Unit or Hero in one of your Towns."""
        await self.bot.run_command(
            interaction,
            PURCHASE_BUY,
            {"card": card, "town": town, "into": into, "pay": pay},
        )

    @common.command(PURCHASE_UPGRADE)
    async def upgrade(
        self,
        interaction: discord.Interaction,
        town: str | None = None,
        pay: str | None = None,
    ) -> None:
        """Raise a Town's level by one (pay level + 1 cards)."""
        await self.bot.run_command(interaction, PURCHASE_UPGRADE, {"town": town, "pay": pay})

    @common.command(PURCHASE_ARTIFACT)
    async def artifact(
        self,
        interaction: discord.Interaction,
        card: str,
        hero: str,
        pay: str | None = None,
    ) -> None:
        """Buy an Artifact for a Hero standing in your Town."""
        await self.bot.run_command(
            interaction, PURCHASE_ARTIFACT, {"card": card, "hero": hero, "pay": pay}
        )

    @common.command(PURCHASE_SKILL)
    async def skill(
        self,
        interaction: discord.Interaction,
        card: str,
        hero: str,
        pay: str | None = None,
    ) -> None:
        """Buy a Skill a Town sells for a Hero standing there."""
        await self.bot.run_command(
            interaction, PURCHASE_SKILL, {"card": card, "hero": hero, "pay": pay}
        )

    @common.command(PURCHASE_SPELL)
    async def spell(
        self,
        interaction: discord.Interaction,
        card: str,
        hero: str,
    ) -> None:
        """Teach a Spell to a Hero in a Town (free; Movement Phase too)."""
        await self.bot.run_command(interaction, PURCHASE_SPELL, {"card": card, "hero": hero})

    @common.command(PURCHASE_DONE)
    async def done(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """End the Purchase Phase and start moving."""
        await self.bot.run_command(interaction, PURCHASE_DONE, {})


@app_commands.guild_only()
class ArmyCommands(
    commands.GroupCog,
    group_name="army",
    group_description="homm4 Movement Phase: move, split, form and merge Armies",
):
    """/army ...: homm4 Movement Phase: move, split, form and merge Armies."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(ARMY_MOVE)
    async def move(
        self,
        interaction: discord.Interaction,
        army: str,
        to: str,
        with_: str | None = None,
    ) -> None:
        """Move an Army to a hex along its cheapest path."""
        await self.bot.run_command(interaction, ARMY_MOVE, {"army": army, "to": to, "with": with_})

    @common.command(ARMY_SPLIT)
    async def split(
        self,
        interaction: discord.Interaction,
        army: str,
        cards: str,
    ) -> None:
        """Split cards off an Army into a new Army on the same hex."""
        await self.bot.run_command(interaction, ARMY_SPLIT, {"army": army, "cards": cards})

    @common.command(ARMY_FORM)
    async def form(
        self,
        interaction: discord.Interaction,
        town: str,
        cards: str,
    ) -> None:
        """Form a new Army from cards under one of your Town cards."""
        await self.bot.run_command(interaction, ARMY_FORM, {"town": town, "cards": cards})

    @common.command(ARMY_TRANSFER)
    async def transfer(
        self,
        interaction: discord.Interaction,
        source: str,
        target: str,
        cards: str | None = None,
    ) -> None:
        """Move cards between two of your Armies on one hex (ends both moves)."""
        await self.bot.run_command(
            interaction,
            ARMY_TRANSFER,
            {"source": source, "target": target, "cards": cards},
        )

    @common.command(ARMY_GIVE_ARTIFACT)
    async def give_artifact(
        self,
        interaction: discord.Interaction,
        artifact: str,
        hero: str,
    ) -> None:
        """Give an Artifact to another Hero on the same hex."""
        await self.bot.run_command(
            interaction, ARMY_GIVE_ARTIFACT, {"artifact": artifact, "hero": hero}
        )

    @common.command(ARMY_DROP_ARTIFACT)
    async def drop_artifact(
        self,
        interaction: discord.Interaction,
        artifact: str,
    ) -> None:
        """Discard an Artifact from a Hero to free its slot."""
        await self.bot.run_command(interaction, ARMY_DROP_ARTIFACT, {"artifact": artifact})

    @common.command(ARMY_RECRUIT)
    async def recruit(
        self,
        interaction: discord.Interaction,
        army: str,
        card: str,
        pay: str | None = None,
    ) -> None:
        """Recruit at a Creature Dwelling your Army visits."""
        await self.bot.run_command(
            interaction, ARMY_RECRUIT, {"army": army, "card": card, "pay": pay}
        )

    @common.command(ARMY_SPELL)
    async def spell(
        self,
        interaction: discord.Interaction,
        hero: str,
        spell: str,
    ) -> None:
        """A Hero casts an adventure Spell (once per Hero per turn)."""
        await self.bot.run_command(interaction, ARMY_SPELL, {"hero": hero, "spell": spell})

    @common.command(ARMY_DONE)
    async def done(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """End the Movement Phase."""
        await self.bot.run_command(interaction, ARMY_DONE, {})


@app_commands.guild_only()
class ScoutCommands(
    commands.GroupCog,
    group_name="scout",
    group_description="homm4 scouting: identify the scouted icon, or pass",
):
    """/scout ...: homm4 scouting: identify the scouted icon, or pass."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(SCOUT_IDENTIFY)
    async def identify(
        self,
        interaction: discord.Interaction,
        card: str,
        site: str | None = None,
    ) -> None:
        """Identify the scouted icon with a card."""
        await self.bot.run_command(interaction, SCOUT_IDENTIFY, {"card": card, "site": site})

    @common.command(SCOUT_PASS)
    async def pass_(
        self,
        interaction: discord.Interaction,
        site: str | None = None,
    ) -> None:
        """Do not identify the scouted icon."""
        await self.bot.run_command(interaction, SCOUT_PASS, {"site": site})


@app_commands.guild_only()
class GuardCommands(
    commands.GroupCog,
    group_name="guard",
    group_description="homm4 chipping in: reinforce the Guard you play",
):
    """/guard ...: homm4 chipping in: reinforce the Guard you play."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(GUARD_REINFORCE)
    async def reinforce(
        self,
        interaction: discord.Interaction,
        cards: str | None = None,
    ) -> None:
        """As Guard Player, add Units of the Guard's faction."""
        await self.bot.run_command(interaction, GUARD_REINFORCE, {"cards": cards})


@app_commands.guild_only()
class BattleCommands(
    commands.GroupCog,
    group_name="battle",
    group_description="homm4 battles: deploy, attack, support and the end-of-Round choices",
):
    """/battle ...: homm4 battles: deploy, attack, support and the end-of-Round choices."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(BATTLE_DEPLOY)
    async def deploy(
        self,
        interaction: discord.Interaction,
        stacks: str,
    ) -> None:
        """Deploy your Creature Stacks on the Melee and Ranged Lines."""
        await self.bot.run_command(interaction, BATTLE_DEPLOY, {"stacks": stacks})

    @common.command(BATTLE_ATTACK)
    async def attack(
        self,
        interaction: discord.Interaction,
        target: str,
        creature: str | None = None,
        mode: str | None = None,
        count: app_commands.Range[int, 1, 40] | None = None,
    ) -> None:
        """Attack with a Creature (melee, ranged or spell)."""
        await self.bot.run_command(
            interaction,
            BATTLE_ATTACK,
            {"target": target, "creature": creature, "mode": mode, "count": count},
        )

    @common.command(BATTLE_SUPPORT)
    async def support(
        self,
        interaction: discord.Interaction,
        target: str,
        creature: str | None = None,
    ) -> None:
        """Give up this attack to support a friend's next attack."""
        await self.bot.run_command(
            interaction, BATTLE_SUPPORT, {"target": target, "creature": creature}
        )

    @common.command(BATTLE_GROUP)
    async def group(
        self,
        interaction: discord.Interaction,
        creature: str | None = None,
    ) -> None:
        """Give up this attack to double the next one (Grouping)."""
        await self.bot.run_command(interaction, BATTLE_GROUP, {"creature": creature})

    @common.command(BATTLE_DEFEND)
    async def defend(
        self,
        interaction: discord.Interaction,
        creature: str | None = None,
    ) -> None:
        """Give up this attack to add the level to Defense."""
        await self.bot.run_command(interaction, BATTLE_DEFEND, {"creature": creature})

    @common.command(BATTLE_REGROUP)
    async def regroup(
        self,
        interaction: discord.Interaction,
        creature: str | None = None,
    ) -> None:
        """Give up this attack to switch lines."""
        await self.bot.run_command(interaction, BATTLE_REGROUP, {"creature": creature})

    @common.command(BATTLE_CAST)
    async def cast(
        self,
        interaction: discord.Interaction,
        spell: str,
        target: str | None = None,
        creature: str | None = None,
        count: app_commands.Range[int, 1, 40] | None = None,
    ) -> None:
        """A Hero gives up its attack to cast a battle Spell."""
        await self.bot.run_command(
            interaction,
            BATTLE_CAST,
            {"spell": spell, "target": target, "creature": creature, "count": count},
        )

    @common.command(BATTLE_COUNTER)
    async def counter(
        self,
        interaction: discord.Interaction,
        answer: str | None = None,
    ) -> None:
        """Counterattack the attack just survived, or decline."""
        await self.bot.run_command(interaction, BATTLE_COUNTER, {"answer": answer})

    @common.command(BATTLE_FILL)
    async def fill(
        self,
        interaction: discord.Interaction,
        creature: str,
    ) -> None:
        """Move a back-line Creature up to the Melee Line."""
        await self.bot.run_command(interaction, BATTLE_FILL, {"creature": creature})

    @common.command(BATTLE_RETREAT)
    async def retreat(
        self,
        interaction: discord.Interaction,
        answer: str | None = None,
    ) -> None:
        """End of Round: retreat with your Heroes, or fight on."""
        await self.bot.run_command(interaction, BATTLE_RETREAT, {"answer": answer})

    @common.command(BATTLE_SURRENDER)
    async def surrender(
        self,
        interaction: discord.Interaction,
        cards: app_commands.Range[int, 0, 99] | None = None,
        pay: str | None = None,
    ) -> None:
        """End of Round: offer Hand cards for a safe withdrawal."""
        await self.bot.run_command(interaction, BATTLE_SURRENDER, {"cards": cards, "pay": pay})

    @common.command(BATTLE_ANSWER)
    async def answer(
        self,
        interaction: discord.Interaction,
        answer: str,
    ) -> None:
        """Accept or reject the surrender offered to you."""
        await self.bot.run_command(interaction, BATTLE_ANSWER, {"answer": answer})

    @common.command(BATTLE_ORDERS)
    async def orders(
        self,
        interaction: discord.Interaction,
        deploy: str | None = None,
        attack: str | None = None,
        counter: str | None = None,
        fill: str | None = None,
        retreat: str | None = None,
        surrender: str | None = None,
        answer: str | None = None,
    ) -> None:
        """Standing orders: answer battle decisions for you automatically."""
        await self.bot.run_command(
            interaction,
            BATTLE_ORDERS,
            {
                "deploy": deploy,
                "attack": attack,
                "counter": counter,
                "fill": fill,
                "retreat": retreat,
                "surrender": surrender,
                "answer": answer,
            },
        )


@app_commands.guild_only()
class HeroCommands(
    commands.GroupCog,
    group_name="hero",
    group_description="homm4 Heroes: Skills after a won battle, room for Artifacts",
):
    """/hero ...: homm4 Heroes: Skills after a won battle, room for Artifacts."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(HERO_LEARN_SKILL)
    async def learn_skill(
        self,
        interaction: discord.Interaction,
        card: str | None = None,
        hero: str | None = None,
    ) -> None:
        """After a won battle, play a Skill card for a Hero (or skip)."""
        await self.bot.run_command(interaction, HERO_LEARN_SKILL, {"card": card, "hero": hero})

    @common.command(HERO_MAKE_ROOM)
    async def make_room(
        self,
        interaction: discord.Interaction,
        artifact: str | None = None,
    ) -> None:
        """Discard an Artifact to make room for a captured one."""
        await self.bot.run_command(interaction, HERO_MAKE_ROOM, {"artifact": artifact})

    @common.command(HERO_LOOT)
    async def loot(
        self,
        interaction: discord.Interaction,
        army: str,
        hero: str,
    ) -> None:
        """Take the Artifacts of an enemy dead Hero lying where your Army stands."""
        await self.bot.run_command(interaction, HERO_LOOT, {"army": army, "hero": hero})


@app_commands.guild_only()
class DealCommands(
    commands.GroupCog,
    group_name="deal",
    group_description="homm4 deals (advanced rules): pay a player, hand over an Army, sell an Object",
):
    """/deal ...: homm4 deals (advanced rules): pay a player, hand over an Army, sell an Object."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(DEAL_PAY)
    async def pay(
        self,
        interaction: discord.Interaction,
        player: str,
        cards: app_commands.Range[int, 1, 99],
        pay: str | None = None,
    ) -> None:
        """Diplomacy: pay Hand cards to a player (they draw as many)."""
        await self.bot.run_command(
            interaction, DEAL_PAY, {"player": player, "cards": cards, "pay": pay}
        )

    @common.command(DEAL_ARMY)
    async def army(
        self,
        interaction: discord.Interaction,
        army: str,
        player: str,
    ) -> None:
        """Diplomacy: hand an Army that has not moved this turn to a player."""
        await self.bot.run_command(interaction, DEAL_ARMY, {"army": army, "player": player})

    @common.command(DEAL_SELL)
    async def sell(
        self,
        interaction: discord.Interaction,
        object: str,
        player: str,
    ) -> None:
        """Resource Trading: a player uses your Object's bonus until your next turn ends."""
        await self.bot.run_command(interaction, DEAL_SELL, {"object": object, "player": player})


@app_commands.guild_only()
class TurnCommands(commands.GroupCog, group_name="turn", group_description="homm4 Closing Phase"):
    """/turn ...: homm4 Closing Phase."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(TURN_CLOSE)
    async def close(
        self,
        interaction: discord.Interaction,
        card: str | None = None,
    ) -> None:
        """Closing Phase: put a Hand card into the Risk Stack and draw."""
        await self.bot.run_command(interaction, TURN_CLOSE, {"card": card})


PLAY_COGS = (
    SetupCommands,
    PurchaseCommands,
    ArmyCommands,
    ScoutCommands,
    GuardCommands,
    BattleCommands,
    HeroCommands,
    DealCommands,
    TurnCommands,
)
