"""/deck import's form: what a /deck command does beyond forwarding its options.

The /deck commands themselves are generated from the table like every other
(`common.table_cogs`). ``/deck import`` without ``text`` opens a form (a modal) with a
paragraph field instead (`import_deck`), since a slash option cannot hold line breaks;
the form's custom id carries the deck name (``htdeck:<name>``) and its submission is
answered by `DeckForms`' ``on_interaction`` listener, not by the modal object, so a form
opened before a restart still works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cogs import common

if TYPE_CHECKING:
    from bot.discord_bot import HeroesBot

DECK_IMPORT = ("deck", "import")

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


async def import_deck(
    interaction: discord.Interaction, path: tuple[str, ...], options: dict[str, Any]
) -> None:
    """/deck import (a `common.Run`): without ``text``, the form for the named deck (the
    form is the acknowledgement: sent at once, nothing read before it); else forwarded."""
    name, text = options.get("name"), options.get("text")
    if text is None and isinstance(name, str) and name.strip():
        await interaction.response.send_modal(deck_form(name.strip()))
        return
    await common.forward(interaction, path, options)


class DeckForms(commands.Cog):
    """Answers a submitted /deck import form (sent by `import_deck`)."""

    def __init__(self, bot: HeroesBot) -> None:
        self.bot = bot

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
