"""Every slash command of the bot, as one table: the service commands (lobby, status, log,
hand, cards, decks, moderators) and each ruleset's play commands (`bot.homm4.commands`).

`ALL_SPECS` is what the Discord layer registers and the console parses. Each service
entry's ``handler`` names the `GameService` method that `GameService.run` calls with the
options as keyword arguments (option names with ``-`` become ``_``).
"""

from __future__ import annotations

from bot.command_table import Choice, CommandSpec, OptionSpec, check_table
from bot.heroforge import commands as heroforge_commands
from bot.homm3 import commands as homm3_commands
from bot.homm4 import commands as homm4_commands
from bot.mmh import commands as mmh_commands


def _s(
    name: str,
    description: str,
    *,
    required: bool = False,
    auto: bool = False,
    max_length: int | None = None,
) -> OptionSpec:
    return OptionSpec(
        name, description, "string", required=required, autocomplete=auto, max_length=max_length
    )


def _i(name: str, description: str, lo: int, hi: int, *, required: bool = False) -> OptionSpec:
    return OptionSpec(name, description, "integer", required=required, min_value=lo, max_value=hi)


_REASON = _s("reason", "why (shown in the channel and kept in the log)", max_length=300)
_SEAT = _s("seat", "the seat: colour (Red, Blue...) or number (1 = Red)", required=True)
_DECK = _s("deck", "a ready-made deck (haven, academy...) or one of your saved decks", auto=True)

HOMM4_OPTIONS: tuple[OptionSpec, ...] = (
    _s(
        "options",
        "homm4 advanced rules and variants, e.g. morale luck flying teams=1+3/2+4 (none: base)",
        auto=True,
        max_length=400,
    ),
)
"""The homm4 Advanced Rules / Game Variants text of /game new and /game options
(`bot.homm4.options_text`)."""

HEROFORGE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "layout",
        "Hero Forge: a ready-made board (auto: one made for the player count)",
        choices=tuple(Choice(name, value) for name, value in heroforge_commands.LAYOUT_CHOICES),
    ),
    _s(
        "board",
        "Hero Forge: your own grid of plates, e.g. PL GR PL / FO . HI / PL S PL",
        max_length=2000,
    ),
    _s(
        "list1",
        "Hero Forge: list for roll 1: fortunes, omens, shifting_sands or 10 of Name: effect +N",
        max_length=4000,
    ),
    _s(
        "list5",
        "Hero Forge: list for roll 5 (same forms as list1)",
        max_length=4000,
    ),
)
"""The Hero Forge lobby options of /game new and /game options."""

HOMM3_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "mode",
        "Heroes III: Skirmish (straight to the Combat) or Adventure (rounds first)",
        choices=(Choice("Skirmish", "skirmish"), Choice("Adventure", "adventure")),
    ),
    OptionSpec(
        "size",
        "Heroes III: short, medium or large (template, or 9/13/16 Adventure rounds)",
        choices=(Choice("short", "short"), Choice("medium", "medium"), Choice("large", "large")),
    ),
    _s(
        "heroes",
        "Heroes III: one hero per seat, e.g. Catherine, Deemer (none: dealt)",
        max_length=100,
    ),
    OptionSpec(
        "siege", "Heroes III: the final Combat is a Siege of the second player's Town", "boolean"
    ),
)
"""The Heroes III lobby options of /game new and /game options."""

MMH_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "length",
        "Might & Magic Heroes: 3, 4 or 5 week cards per moon phase",
        choices=(Choice("quick", "quick"), Choice("standard", "standard"), Choice("epic", "epic")),
    ),
    _s(
        "factions",
        "Might & Magic Heroes: one per seat, e.g. haven, necropolis (none: dealt)",
        max_length=100,
    ),
)
"""The Might & Magic Heroes lobby options of /game new and /game options (it also reads
``assembly``: quick or manual tile placement)."""

SERVICE_SPECS: tuple[CommandSpec, ...] = (
    # ---- lobby and game
    CommandSpec(
        ("game", "new"),
        "Open a new game in this channel (you host it and take the first seat)",
        (
            OptionSpec(
                "ruleset",
                "which game",
                choices=(
                    Choice("Heroes of Might & Magic IV card game", "homm4"),
                    Choice("Hero Forge", "heroforge"),
                    Choice("Heroes III Battlefield (Adventure and Skirmish)", "homm3"),
                    Choice("Might & Magic Heroes", "mmh"),
                ),
            ),
            _i("players", "how many seats the lobby offers (2-6)", 2, 6),
            _i("map-sections", "Terrain Map Sections on the board (4-7)", 4, 12),
            OptionSpec(
                "assembly",
                "how the board is built",
                choices=(
                    Choice("quick (random, legal)", "quick"),
                    Choice("manual (players attach sections)", "manual"),
                ),
            ),
            _i("deadline-hours", "hours per decision (0: none; default: the server's)", 0, 720),
            OptionSpec(
                "deck-rule",
                "which decks are allowed",
                choices=(
                    Choice("any legal deck", "any"),
                    Choice("ready-made decks only", "ready-made"),
                ),
            ),
            _DECK,
            *HOMM4_OPTIONS,
            *HEROFORGE_OPTIONS,
            *HOMM3_OPTIONS,
            *MMH_OPTIONS,
        ),
        handler="new_game",
    ),
    CommandSpec(("game", "join"), "Take a seat in this channel's lobby", (_DECK,), handler="join"),
    CommandSpec(("game", "leave"), "Give up your seat in the lobby", handler="leave"),
    CommandSpec(
        ("game", "deck"),
        "Choose your deck in the lobby (none: dealt at the start)",
        (_DECK,),
        handler="choose_deck",
    ),
    CommandSpec(
        ("game", "add-ai"),
        "Host: add computer players to the lobby",
        (_i("count", "how many (1-5)", 1, 5), _s("deck", "a ready-made deck for them", auto=True)),
        handler="add_ai",
    ),
    CommandSpec(
        ("game", "options"),
        "Host: change the lobby's options before the start",
        (
            _i("players", "how many seats the lobby offers (2-6)", 2, 6),
            _i("map-sections", "Terrain Map Sections on the board (4-7)", 4, 12),
            OptionSpec(
                "assembly",
                "how the board is built",
                choices=(
                    Choice("quick (random, legal)", "quick"),
                    Choice("manual (players attach sections)", "manual"),
                ),
            ),
            _i("deadline-hours", "hours per decision (0: none)", 0, 720),
            OptionSpec(
                "deck-rule",
                "which decks are allowed",
                choices=(
                    Choice("any legal deck", "any"),
                    Choice("ready-made decks only", "ready-made"),
                ),
            ),
            *HOMM4_OPTIONS,
            *HEROFORGE_OPTIONS,
            *HOMM3_OPTIONS,
            *MMH_OPTIONS,
        ),
        handler="set_options",
    ),
    CommandSpec(
        ("game", "start"),
        "Host: start the game (hands come by DM)",
        handler="start",
    ),
    CommandSpec(
        ("game", "status"),
        "The board, whose turn it is, who owes which decision, deadlines",
        handler="status",
        ephemeral=False,
    ),
    CommandSpec(
        ("game", "log"),
        "The game's public log, page by page",
        (_i("before", "show entries before this number (older)", 1, 10**9),),
        handler="log",
    ),
    CommandSpec(
        ("game", "rules"),
        "Look up a rule of this channel's game (a summary in our own words)",
        (
            _s(
                "topic",
                "part of a rule's name, e.g. grouping or risk stack (none: the list)",
                auto=True,
                max_length=100,
            ),
        ),
        handler="rules_topic",
        # Private: rules are public knowledge, but a lookup is for the asker, and a
        # 1500-character answer posted publicly would push the board and the prompt of a
        # busy game channel out of sight. A player who wants to quote it can.
    ),
    # ---- private and reference
    CommandSpec(
        ("hand",),
        "Your private cards and the choices you owe; only you see them (in DMs too)",
        (
            OptionSpec(
                "game",
                "which game, when you play several",
                "integer",
                autocomplete=True,
                min_value=1,
            ),
        ),
        handler="hand",
        in_dm=True,
    ),
    CommandSpec(
        ("card",),
        "Show a card of this channel's game (elsewhere: of the Heroes IV card game)",
        (_s("name", "the card's name", required=True, auto=True),),
        handler="card",
        in_dm=True,
    ),
    CommandSpec(
        ("deck", "import"),
        "Save a deck from a pasted card list, e.g. 3x Orc; 2x Wolf; Asylum",
        (
            _s("name", "a name for the deck", required=True, max_length=60),
            _s(
                "text",
                "the cards, e.g. 3x Orc; 2x Wolf; Asylum (leave out to paste a list with line breaks)",
                max_length=6000,
            ),
        ),
        handler="deck_import",
        in_dm=True,
    ),
    CommandSpec(
        ("deck", "show"),
        "Show one of your saved decks as a list",
        (_s("name", "the deck's name", required=True, auto=True),),
        handler="deck_show",
        in_dm=True,
    ),
    CommandSpec(
        ("deck", "list"),
        "List your saved decks and the ready-made ones",
        handler="deck_list",
        in_dm=True,
    ),
    CommandSpec(
        ("deck", "delete"),
        "Delete one of your saved decks",
        (_s("name", "the deck's name", required=True, auto=True),),
        handler="deck_delete",
        in_dm=True,
    ),
    CommandSpec(("help",), "What you can type now", handler="help", in_dm=True),
    # ---- the server (moderators; hidden from others like /mod)
    CommandSpec(
        ("settings",),
        "Moderators: show or change this server's moderator role, deadline and reminders",
        (
            OptionSpec("role", "the moderator role (Manage Server only)", "role"),
            _i("deadline-hours", "default hours per decision (0: none)", 0, 720),
            _i("reminder-hours", "remind every N hours (0: once, at 75%)", 0, 720),
            OptionSpec("clear-role", "remove the moderator role (Manage Server only)", "boolean"),
            _REASON,
        ),
        handler="server_settings",
        moderator=True,
    ),
    # ---- moderators
    CommandSpec(
        ("mod", "pause"),
        "Pause this channel's game",
        (_REASON,),
        handler="mod_pause",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "resume"),
        "Resume this channel's paused game",
        (_REASON,),
        handler="mod_resume",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "skip"),
        "Play the default answer for an overdue decision",
        (_s("seat", "whose decision (default: the first owing one)"), _REASON),
        handler="mod_skip",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "undo"),
        "Undo the last move, or the last count: moves (each undo is logged)",
        (_i("count", "how many moves (default 1)", 1, 50), _REASON),
        handler="mod_undo",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "replace"),
        "Give a seat to another member",
        (_SEAT, OptionSpec("user", "the member taking the seat", "user", required=True), _REASON),
        handler="mod_replace",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "kick"),
        "Remove a player; the computer plays the seat from now on",
        (_SEAT, _REASON),
        handler="mod_kick",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "end"),
        "End this channel's game without a winner",
        (_REASON,),
        handler="mod_end",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "deadline"),
        "Set a seat's decision deadline, in hours from now",
        (
            _i("hours", "hours from now (1-720)", 1, 720, required=True),
            _s("seat", "whose (default: the first owing)"),
            _REASON,
        ),
        handler="mod_deadline",
        moderator=True,
    ),
    CommandSpec(
        ("mod", "verify"),
        "Replay the game from its log and compare with the stored position",
        (_REASON,),
        handler="mod_verify",
        moderator=True,
    ),
)
"""The commands every ruleset shares."""

PLAY_SPECS: tuple[CommandSpec, ...] = (
    *homm4_commands.SPECS,
    *heroforge_commands.SPECS,
    *homm3_commands.SPECS,
    *mmh_commands.SPECS,
)
"""Every ruleset's commands (player actions and standing orders), ruleset by ruleset."""

ALL_SPECS: tuple[CommandSpec, ...] = (*SERVICE_SPECS, *PLAY_SPECS)
"""Every command the bot offers (register these; the console parses them)."""

PLAY_GROUPS: dict[tuple[str, ...], str] = {
    **homm4_commands.GROUP_DESCRIPTIONS,
    **heroforge_commands.GROUP_DESCRIPTIONS,
    **homm3_commands.GROUP_DESCRIPTIONS,
    **mmh_commands.GROUP_DESCRIPTIONS,
}
"""The descriptions of the rulesets' top-level commands and subcommand groups, by path."""

SERVICE_GROUPS: dict[tuple[str, ...], str] = {
    ("game",): "Open, join, start and follow the game in this channel",
    ("deck",): "Your saved decks: import, show, list, delete",
    ("mod",): "Moderators: pause, undo, skip, replace players, deadlines, verify",
}
"""The descriptions of the service commands' top-level groups."""

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {**SERVICE_GROUPS, **PLAY_GROUPS}
"""The description of every top-level group and subcommand group, by path (the command
rows describe themselves)."""


def spec_for(path: tuple[str, ...]) -> CommandSpec:
    """The command at ``path``. :raises KeyError: if there is none."""
    for spec in ALL_SPECS:
        if spec.path == path:
            return spec
    raise KeyError(" ".join(path))


def table_problems() -> list[str]:
    """Discord-limit and clash problems of `ALL_SPECS` (empty when fine)."""
    return check_table(ALL_SPECS)
