"""Buttons and select menus that keep working after a restart: one `DynamicItem` for all.

Every component the service sends carries a custom id made by `bot.customids`
(``ht:<game>:<version>:<action>[:<arg>...]``): everything a click needs is in it, so no
View lives in memory. `GameComponent` matches those ids (registered once with
``bot.add_dynamic_items``), acknowledges the click at once (a deferred update: the
clicked message stays as it is) and hands the custom id and the chosen values to
`GameService.click`; the answer — or the reason an old button no longer applies — comes
back as an ephemeral followup. No rule is decided here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import discord

from bot.customids import MAX_LENGTH, PREFIX
from bot.outbox import Button, Component, Image, Select


@runtime_checkable
class ClickTarget(Protocol):
    """The bot side of a click: defer, call the service, deliver (see `HeroesBot`)."""

    async def handle_click(
        self, interaction: discord.Interaction, custom_id: str, values: tuple[str, ...]
    ) -> None:
        """Handle a click on one of our components (``values``: a select's choices)."""
        ...


_STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

LABEL_LIMIT = 80
"""Discord's limit on a button label."""

OPTIONS_LIMIT = 25
"""Discord's limit on the options of a select menu."""

ROWS_LIMIT = 5
"""Discord's limit on action rows per message."""

TEMPLATE = PREFIX + r":[0-9a-z]+:[0-9a-z]+:[A-Za-z0-9_.+\-~:]+"
"""The custom ids `GameComponent` answers (those `bot.customids.encode` makes)."""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def discord_button(button: Button) -> discord.ui.Button[Any]:
    """The discord.py button for the service's ``button`` (label clipped to 80)."""
    return discord.ui.Button(
        label=_clip(button.label, LABEL_LIMIT) or "…",
        custom_id=button.custom_id[:MAX_LENGTH],
        style=_STYLES.get(button.style, discord.ButtonStyle.secondary),
        disabled=button.disabled,
    )


def discord_select(select: Select) -> discord.ui.Select[Any]:
    """The discord.py select menu for the service's ``select`` (at most 25 options)."""
    options = [
        discord.SelectOption(
            label=_clip(option.label, 100) or option.value,
            value=option.value[:100],
            description=_clip(option.description, 100) or None,
        )
        for option in select.options[:OPTIONS_LIMIT]
    ]
    return discord.ui.Select(
        custom_id=select.custom_id[:MAX_LENGTH],
        placeholder=_clip(select.placeholder, 150) or None,
        options=options,
        min_values=min(select.min_values, len(options)),
        max_values=max(1, min(select.max_values, len(options))),
    )


class GameComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Any of our buttons or select menus; the click goes to the bot's ``handle_click``.

    The bot is ``interaction.client`` (a `ClickTarget`), so two bots in one process (a
    restart test) never share state.
    """

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameComponent:
        """Wrap the clicked component as it arrived (its custom id says everything)."""
        return cls(item)

    @property
    def custom_id_text(self) -> str:
        """The component's custom id."""
        return str(getattr(self.item, "custom_id", "") or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Pass the click to the bot (which defers at once and calls the service)."""
        values: tuple[str, ...] = ()
        if isinstance(self.item, discord.ui.Select):
            values = tuple(str(v) for v in self.item.values)
        client = interaction.client
        if not isinstance(client, ClickTarget):
            await interaction.response.send_message(
                "This button cannot be used right now; try again in a minute.", ephemeral=True
            )
            return
        await client.handle_click(interaction, self.custom_id_text, values)


def component_rows(components: Sequence[Component]) -> list[list[GameComponent]]:
    """``components`` as `GameComponent` items in rows: buttons fill rows of five in
    order, a select menu takes a row of its own; items past Discord's five rows are left
    out (the service keeps within them)."""
    rows: list[list[GameComponent]] = []
    used = 5
    for component in components:
        item: discord.ui.Item[Any]
        if isinstance(component, Select):
            width, item = 5, discord_select(component)
        else:
            width, item = 1, discord_button(component)
        if used + width > 5:
            if len(rows) >= ROWS_LIMIT:
                break
            rows.append([])
            used = 0
        rows[-1].append(GameComponent(item))
        used += width
    return rows


def build_view(components: Sequence[Component]) -> discord.ui.View | None:
    """A View of `GameComponent` items for ``components`` (None when there are none),
    laid out by `component_rows`."""
    if not components:
        return None
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(component_rows(components)):
        for wrapped in row:
            wrapped.row = number
            view.add_item(wrapped)
    return view


PANEL_TEXT = 4000
"""Discord's limit on the characters of all text displays of one Components V2 message."""

GALLERY_LIMIT = 10
"""Discord's limit on the items of a media gallery."""

PANEL_COLOUR = 0xC9A227
"""The panel's accent colour (the gold of the tables' frames)."""


def build_panel(
    text: str, images: Sequence[Image], components: Sequence[Component]
) -> discord.ui.LayoutView:
    """A game's status panel as a Components V2 layout (sent with the IS_COMPONENTS_V2
    flag, which discord.py sets for a `LayoutView`): one container holding the first line
    of ``text`` (the heading) and the rest as text displays (together clipped to 4000
    characters) — in a section with the button beside them when ``components`` is one
    button — then ``images`` (sent as attachments of the same names) in a media gallery
    (at most 10), then a separator and the ``components`` in action rows (at most five:
    `component_rows`). At most 34 components in all, within Discord's 40."""
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=PANEL_COLOUR
    )
    head, _, body = text.strip().partition("\n")
    head = _clip(head or "…", PANEL_TEXT)
    body = _clip(body.strip(), PANEL_TEXT - len(head)) if len(head) < PANEL_TEXT - 1 else ""
    lone = components[0] if len(components) == 1 else None
    if isinstance(lone, Button):  # one button: beside the text, in a section
        texts = [discord.ui.TextDisplay[discord.ui.LayoutView](t) for t in (head, body) if t]
        item = GameComponent(discord_button(lone))
        container.add_item(discord.ui.Section(*texts, accessory=item))
        components = ()
    else:
        container.add_item(discord.ui.TextDisplay(head))
        if body:
            container.add_item(discord.ui.TextDisplay(body))
    if images:
        items = [
            discord.MediaGalleryItem(
                f"attachment://{image.filename}", description=_clip(image.description, 256) or None
            )
            for image in images[:GALLERY_LIMIT]
        ]
        container.add_item(discord.ui.MediaGallery(*items))
    rows = component_rows(components)
    if rows:
        container.add_item(discord.ui.Separator())
    for row in rows:
        container.add_item(discord.ui.ActionRow(*row))
    view.add_item(container)
    return view
