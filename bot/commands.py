"""Every slash command of the bot, as one table: the service commands (lobby, status, log,
hand, cards, decks, moderators) and each game's own commands and lobby options, read from
its adapter (`bot.adapters.RulesetAdapter.specs`, ``lobby_specs``) for every game of
`bot.registry`, in its order.

`all_specs` is what the Discord layer registers and the console parses (`ALL_SPECS`: the
same for the shipped games). Each service
entry's ``handler`` names the `GameService` method that `GameService.run` calls with the
options as keyword arguments (option names with ``-`` become ``_``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import registry
from bot.adapters import adapter_for
from bot.command_table import Choice, CommandSpec, OptionSpec, check_table


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
_TOPIC = _s(
    "topic",
    "part of a rule's name, e.g. grouping or risk stack (none: the list)",
    auto=True,
    max_length=100,
)
_DECK = _s("deck", "a ready-made deck (haven, academy...) or one of your saved decks", auto=True)
_POLICY = OptionSpec(
    "deadline-policy",
    "when a deadline passes",
    choices=(
        Choice("remind moderators", "remind"),
        Choice("play the default", "default"),
        Choice("computer plays", "computer"),
    ),
)

_LEVEL = OptionSpec(
    "level",
    "how well they play (default: normal)",
    choices=(
        Choice("easy: quick and simple", "easy"),
        Choice("normal: looks one move ahead", "normal"),
        Choice("hard: searches a second per move", "hard"),
    ),
)


def _lobby_settings(deadline: str) -> tuple[OptionSpec, ...]:
    """The lobby settings /game new and /game options share (seats, board, deadline,
    decks), in their order; ``deadline`` is the deadline option's description."""
    return (
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
        _i("deadline-hours", deadline, 0, 720),
        _POLICY,
        OptionSpec(
            "deck-rule",
            "which decks are allowed",
            choices=(
                Choice("any legal deck", "any"),
                Choice("ready-made decks only", "ready-made"),
            ),
        ),
    )


GAME_OPTIONS = OptionSpec(
    "options",
    "the game's own options, e.g. mode:adventure size:medium (homm3); see /help game new",
    autocomplete=True,
    max_length=6000,
)
"""The one ``options:`` text of /game new and /game options for every game: each game
reads it (`bot.adapters.RulesetAdapter.read_options_text`) and suggests its words, so a
game's settings take no Discord option of their own."""


def _service_specs(games: Sequence[registry.Game]) -> tuple[CommandSpec, ...]:
    """The commands every game shares, for ``games``: /game new's ruleset choice lists
    them; their own settings go in the one `GAME_OPTIONS` text."""
    return _service_table(tuple(Choice(g.choice, g.ruleset) for g in games))


def _service_table(rulesets: tuple[Choice, ...]) -> tuple[CommandSpec, ...]:
    return (
        # ---- lobby and game
        CommandSpec(
            ("game", "new"),
            "Open a new game in its own thread (you host it and take the first seat)",
            (
                OptionSpec(
                    "ruleset",
                    "which game",
                    choices=rulesets,
                ),
                *_lobby_settings("hours per decision (0: none; default: the server's)"),
                _DECK,
                GAME_OPTIONS,
                OptionSpec(
                    "where",
                    "here: this channel (no thread)",
                    choices=(Choice("thread", "thread"), Choice("here", "here")),
                ),
                OptionSpec("forum", "a new post there", "forum"),
            ),
            handler="new_game",
            gathers="options",
        ),
        CommandSpec(
            ("game", "join"), "Take a seat in this channel's lobby", (_DECK,), handler="join"
        ),
        CommandSpec(
            ("game", "list"),
            "This server's open lobbies and running games, with links (join from the list)",
            (_i("page", "which page of the list (1: the first)", 1, 1000),),
            handler="game_list",
        ),
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
            (
                _i("count", "how many (1-5)", 1, 5),
                _s("deck", "a ready-made deck for them", auto=True),
                _LEVEL,
            ),
            handler="add_ai",
        ),
        CommandSpec(
            ("game", "options"),
            "Host: change the lobby's options before the start",
            (
                *_lobby_settings("hours per decision (0: none)"),
                GAME_OPTIONS,
            ),
            handler="set_options",
            gathers="options",
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
            ("game", "extend"),
            "More time for your decision (once a turn)",
            (_i("hours", "how many (default: most allowed)", 1, 720),),
            handler="extend",
        ),
        CommandSpec(
            ("game", "away"),
            "The computer plays for you until then",
            (
                _s(
                    "until",
                    "hours (36), days (2d) or a UTC date and time (2026-12-24 18:00)",
                    required=True,
                    max_length=40,
                ),
            ),
            handler="away",
        ),
        CommandSpec(("game", "back"), "Play your seat again", handler="back"),
        CommandSpec(
            ("game", "log"),
            "The game's public log, page by page",
            (_i("before", "show entries before this number (older)", 1, 10**9),),
            handler="log",
        ),
        CommandSpec(
            ("game", "rules"),
            "Look up a rule of this channel's game (a summary in our own words)",
            (_TOPIC,),
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
            ("rules",),
            "Look up a rule (of this channel's game; elsewhere of the Heroes IV card game)",
            (_TOPIC,),
            handler="rules_topic",
            # /game rules anywhere: /game is guild-only, and Discord sets where a command
            # may be used per top-level command, so a lookup in a DM needs its own.
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
        CommandSpec(
            ("help",),
            "What you can type now, or how to write one command's options",
            (
                _s(
                    "command",
                    "a command, e.g. game new (its options, their values and an example)",
                    auto=True,
                    max_length=60,
                ),
            ),
            handler="help",
            in_dm=True,
        ),
        # ---- you, on every server (in DMs too)
        CommandSpec(
            ("me", "games"),
            "Every game you sit in, on every server: whose turn, your deadline, a link",
            (_i("page", "which page of your games (1: the first)", 1, 1000),),
            handler="me_games",
            in_dm=True,
        ),
        CommandSpec(
            ("me", "notify"),
            "How you are told it is your turn (channel ping, DM, both) and quiet hours",
            (
                OptionSpec(
                    "ping",
                    "how you are told of a decision and reminded",
                    choices=(
                        Choice("a ping in the game's channel", "channel"),
                        Choice("a direct message", "dm"),
                        Choice("both", "both"),
                    ),
                ),
                _s("time-zone", "your time zone, e.g. Europe/Berlin", auto=True, max_length=64),
                _s(
                    "quiet",
                    "quiet hours, your time: 22-7 or 22:00-07:30 (off: none)",
                    max_length=20,
                ),
            ),
            handler="me_notify",
            in_dm=True,
        ),
        CommandSpec(
            ("undo",),
            "Take back your last move (at once, or when the players concerned agree)",
            handler="undo",
        ),
        # ---- the server (moderators; hidden from others like /mod)
        CommandSpec(
            ("settings",),
            "Moderators: show or change this server's moderator role, deadline and reminders",
            (
                OptionSpec("role", "the moderator role (Manage Server only)", "role"),
                _i("deadline-hours", "default hours per decision (0: none)", 0, 720),
                _i("reminder-hours", "remind every N hours (0: once, at 75%)", 0, 720),
                _POLICY,
                _i("away-after", "missed deadlines in a row before a seat is away", 1, 20),
                _i("away-hours", "how far ahead /game away may reach (0: off)", 0, 720),
                _i("extensions", "/game extend per seat and game (0: off)", 0, 20),
                _i("extension-hours", "the longest /game extend", 1, 720),
                OptionSpec(
                    "clear-role", "remove the moderator role (Manage Server only)", "boolean"
                ),
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
            (
                _SEAT,
                OptionSpec("user", "the member taking the seat", "user", required=True),
                _REASON,
            ),
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


SERVICE_GROUPS: dict[tuple[str, ...], str] = {
    ("game",): "Open, join, start and follow the game in this channel",
    ("deck",): "Your saved decks: import, show, list, delete",
    ("mod",): "Moderators: pause, undo, skip, replace players, deadlines, verify",
    ("me",): "You on every server: your games, how and when you are told",
}
"""The descriptions of the service commands' top-level groups."""


_TABLES: dict[
    tuple[registry.Game, ...], tuple[tuple[CommandSpec, ...], dict[tuple[str, ...], str]]
] = {}


def _table() -> tuple[tuple[CommandSpec, ...], dict[tuple[str, ...], str]]:
    """Every command and group description for the games of `bot.registry` now (made once
    per set of games)."""
    key = registry.load()
    found = _TABLES.get(key)
    if found is None:
        games = [adapter_for(game.ruleset) for game in key]
        specs = (*_service_specs(key), *(s for game in games for s in game.specs()))
        groups = dict(SERVICE_GROUPS)
        for game in games:
            groups.update(game.group_descriptions())
        found = _TABLES[key] = (specs, groups)
    return found


def all_specs() -> tuple[CommandSpec, ...]:
    """Every command the bot offers for the games of `bot.registry`: the shared ones, then
    each game's (register these; the console parses them)."""
    return _table()[0]


def group_descriptions() -> dict[tuple[str, ...], str]:
    """The description of every top-level group and subcommand group, by path, for the
    games of `bot.registry` (the command rows describe themselves)."""
    return _table()[1]


registry.load()
_SHIPPED = [adapter_for(game.ruleset) for game in registry.SHIPPED]

SERVICE_SPECS: tuple[CommandSpec, ...] = _service_specs(registry.SHIPPED)
"""The commands every game shares (with the shipped games' lobby options)."""

PLAY_SPECS: tuple[CommandSpec, ...] = tuple(s for game in _SHIPPED for s in game.specs())
"""The shipped games' own commands (player actions and standing orders), game by game."""

ALL_SPECS: tuple[CommandSpec, ...] = (*SERVICE_SPECS, *PLAY_SPECS)
"""Every command of the shipped games (`all_specs` once only they are registered)."""

PLAY_GROUPS: dict[tuple[str, ...], str] = {
    path: text for game in _SHIPPED for path, text in game.group_descriptions().items()
}
"""The descriptions of the shipped games' top-level commands and subcommand groups."""

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {**SERVICE_GROUPS, **PLAY_GROUPS}
"""The description of every top-level group and subcommand group, by path (the command
rows describe themselves)."""


def spec_for(path: tuple[str, ...]) -> CommandSpec:
    """The command at ``path``. :raises KeyError: if there is none."""
    for spec in all_specs():
        if spec.path == path:
            return spec
    raise KeyError(" ".join(path))


def table_problems() -> list[str]:
    """Discord-limit and clash problems of `all_specs` (empty when fine)."""
    return check_table(all_specs())
