"""/deck: a player's saved decks (import, show, list, delete); works in DMs too.

Every callback forwards its options unread to ``GameService.run``. ``/deck import``
without ``text`` opens a form (a modal) with a paragraph field, since a slash option
cannot hold line breaks; the form's custom id carries the deck name (``htdeck:<name>``)
and its submission is answered by this cog's ``on_interaction`` listener, not by the
modal object, so a form opened before a restart still works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

DECK_IMPORT = ("deck", "import")
DECK_SHOW = ("deck", "show")
DECK_LIST = ("deck", "list")
DECK_DELETE = ("deck", "delete")

FORM_PREFIX = "htdeck:"
"""Custom id prefix of the /deck import form; the deck name follows."""
FORM_FIELD = "text"
"""Custom id of the form's card list field."""


def deck_form(name: str) -> discord.ui.Modal:
    """The /deck import form for a deck called ``name``: one paragraph field (4000
    characters, Discord's limit) for the pasted card list."""
    form = discord.ui.Modal(
        title=f"Import deck {name}"[:45], custom_id=f"{FORM_PREFIX}{name}"[:100], timeout=900
    )
    form.add_item(
        discord.ui.TextInput(
            label="Card list, one card per line",
            style=discord.TextStyle.paragraph,
            placeholder="3x Orc\n2x Wolf\nAsylum",
            max_length=4000,
            custom_id=FORM_FIELD,
        )
    )
    return form


def form_value(components: list[dict[str, Any]], custom_id: str) -> str | None:
    """The value of the text input ``custom_id`` in a modal submission's components
    (inside action rows or labels), or None."""
    for component in components:
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        inner = component.get("components") or (
            [component["component"]] if "component" in component else []
        )
        found = form_value(inner, custom_id)
        if found is not None:
            return found
    return None


class DeckCommands(
    commands.GroupCog,
    group_name="deck",
    group_description="Your saved decks: import, show, list, delete",
):
    """/deck ...: Your saved decks: import, show, list, delete."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

    @common.command(DECK_IMPORT)
    async def import_(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, None, 60],
        text: app_commands.Range[str, None, 6000] | None = None,
    ) -> None:
        """Save a deck from a pasted card list, e.g. 3x Orc; 2x Wolf; Asylum."""
        if text is None and name.strip():
            # The form is the acknowledgement (sent at once, nothing read before it).
            await interaction.response.send_modal(deck_form(name.strip()))
            return
        await self.bot.run_command(interaction, DECK_IMPORT, {"name": name, "text": text})

    @commands.Cog.listener("on_interaction")
    async def form_submitted(self, interaction: discord.Interaction) -> None:
        """A /deck import form was sent: save the deck it names (as the command would)."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(FORM_PREFIX):
            return
        text = form_value(list(data.get("components") or []), FORM_FIELD)
        name = custom_id.removeprefix(FORM_PREFIX)
        await self.bot.run_command(interaction, DECK_IMPORT, {"name": name, "text": text})

    @common.command(DECK_SHOW)
    async def show(
        self,
        interaction: discord.Interaction,
        name: str,
    ) -> None:
        """Show one of your saved decks as a list."""
        await self.bot.run_command(interaction, DECK_SHOW, {"name": name})

    @common.command(DECK_LIST)
    async def list_(
        self,
        interaction: discord.Interaction,
    ) -> None:
        """List your saved decks and the ready-made ones."""
        await self.bot.run_command(interaction, DECK_LIST, {})

    @common.command(DECK_DELETE)
    async def delete(
        self,
        interaction: discord.Interaction,
        name: str,
    ) -> None:
        """Delete one of your saved decks."""
        await self.bot.run_command(interaction, DECK_DELETE, {"name": name})
