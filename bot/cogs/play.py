"""Every ruleset's player actions as slash commands, generated from the command tables.

homm4's actions are top-level commands (``/setup``, ``/purchase``, ``/army``, ``/scout``,
``/guard``, ``/battle``, ``/hero``, ``/deal``, ``/turn``); Hero Forge, homm3 and mmh each
have one top-level command (``/heroforge``, ``/homm3``, ``/mmh``) with a subcommand group
per part of the game. Each row of `bot.commands.PLAY_SPECS` becomes one subcommand
(`common.table_cogs`) that forwards its options, unread, to ``GameService.run``; its
texts, types, bounds, choices and autocomplete sources are the row's. Rule sections: every
player action of each ruleset (see `bot.homm4.commands`, `bot.heroforge.commands`,
`bot.homm3.commands`, `bot.mmh.commands`).
"""

from __future__ import annotations

from bot.cogs import common
from bot.commands import PLAY_GROUPS, PLAY_SPECS

PLAY_COGS = common.table_cogs(PLAY_SPECS, PLAY_GROUPS)
"""One cog class per top-level play command, in table order (homm4's nine, then
``/heroforge``, ``/homm3``, ``/mmh``)."""
