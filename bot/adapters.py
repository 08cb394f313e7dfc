"""What the bot needs to know about each ruleset beyond the engine protocol.

The `GameService` is one service for every game. Where it must know a game — its slash
commands, how options become engine commands, the buttons offered for a decision, the
status and hand texts, the pictures, the lobby options — it asks the game's
`RulesetAdapter` (`adapter_for(game.ruleset)`), never ``if ruleset == ...``. Which
decisions and commands show hidden cards is the engine's word (`Decision.private`,
`Ruleset.names_hidden_card`), never an adapter's table. The base class gives sensible
defaults (no decks, a board picture after every change, buttons built from
`Ruleset.legal_commands` without those naming hidden cards); each ruleset overrides what
it needs:

* its command table (`CommandTable`), buttons, texts and pictures;
* optional hooks: `DeckHooks` for a game whose seats bring decks, `CarryOver` for one
  whose finished game leaves something to the channel's next (a campaign's survivors).

Each game's adapter lives in its own ``bot/<game>/adapter.py`` and registers itself in
`ADAPTERS` when imported; `bot.registry` lists the games (one line each). Nothing here
names a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from bot import customids, registry
from bot.command_table import CommandSpec, OptionSpec
from bot.game_options import read_words, suggest_words, value_form
from bot.outbox import Button, Component, Image, Select, SelectOption
from engine.core.model import Command, Decision, GameState, seat_name
from engine.core.ruleset import get_ruleset

if TYPE_CHECKING:
    from bot.render import Renderer
    from storage.records import Game, Seat
    from storage.repository import Repository

_log = logging.getLogger(__name__)

MAX_BUTTONS = 5
"""Up to this many choices are shown as buttons; more go into a select menu."""


@dataclass(frozen=True)
class DecisionUI:
    """The components offered for one decision.

    Attributes:
        text: one line introducing them (may name private cards when ``private``).
        components: buttons and select menus (custom ids from `bot.customids`).
        private: whether they name private cards (send by DM only).
    """

    text: str
    components: tuple[Component, ...]
    private: bool


@dataclass(frozen=True)
class PlayRequest:
    """What a play command's builder or autocomplete may look at.

    Attributes:
        state: the current game state (never changed here).
        seat: the acting seat.
        legal: ``ruleset.legal_commands(state, seat)``.
        decision: the decision ``seat`` owes now, or None.
    """

    state: GameState
    seat: int
    legal: Sequence[Command]
    decision: Decision | None


def offered_commands(
    state: GameState, seat: int, decision: Decision, legal: Sequence[Command]
) -> list[Command]:
    """The commands a UI for ``seat``'s ``decision`` may show: every legal one when the
    engine built the decision ``private`` (its UI goes to the seat alone, by DM or an
    ephemeral reply), else those the engine says name no hidden card
    (`Ruleset.names_hidden_card`): a channel button never tells a Hand card (DESIGN
    "Private information")."""
    if decision.private:
        return list(legal)
    rules = get_ruleset(state.ruleset)
    return [cmd for cmd in legal if not rules.names_hidden_card(state, seat, cmd)]


Picture = Image
"""An encoded picture an adapter draws: file name, bytes, alt text (the outbox's `Image`,
posted as it is)."""


def focus_first(renderer: Renderer, ruleset: str, kind: str, view: Any) -> tuple[Picture, ...]:
    """The channel pictures of ``ruleset``'s public picture ``kind`` in gallery order
    (issue 16): its focus picture first (what the decision needs, readable at a phone's
    400 px: `rendering.focus`), then the whole picture; the whole one alone when the
    ruleset registers no focus for ``kind``.

    :raises ValueError: when there is nothing to draw (as `Renderer.draw`).
    """
    from rendering.pictures import focus_of

    whole = renderer.draw(ruleset, kind, view)
    focus = focus_of(ruleset, kind)
    if focus is None:
        return (whole,)
    return (renderer.draw(ruleset, focus, view), whole)


def ranked_names(
    pairs: Iterable[tuple[str, str]],
    current: str,
    *,
    searched: Callable[[str, str], tuple[str, ...]] = lambda label, value: (label,),
    limit: int = 25,
) -> list[tuple[str, str]]:
    """The ``(label, value)`` pairs whose searched texts (``searched(label, value)``; by
    default the label) contain ``current`` (any case), labels starting with it first, then
    by label; at most ``limit`` (Discord's 25 autocomplete choices). /card's suggestions of
    every ruleset.

    >>> ranked_names([("Black Dragon (unit)", "b"), ("Dragon Fly (unit)", "d")], "drag")
    [('Dragon Fly (unit)', 'd'), ('Black Dragon (unit)', 'b')]
    """
    needle = current.strip().lower()
    found = [
        (label, value)
        for label, value in pairs
        if any(needle in text.lower() for text in searched(label, value))
    ]
    found.sort(key=lambda pair: (not pair[0].lower().startswith(needle), pair[0]))
    return found[:limit]


def clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: cut at a word boundary and ended with "…" when
    too long (a button label's 80, a select option's 100), never in the middle of a name.

    >>> clip("Deploy: Melee: Squire ×2, Pikeman; Ranged: Crossbowman", 40)
    'Deploy: Melee: Squire ×2, Pikeman…'
    """
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


CHOICE_LIMIT = 100
"""Discord's limit for an autocomplete choice's name and for a string choice's value."""

MAX_CHOICES = 25
"""Discord's limit for the choices of one autocomplete answer."""


def fit_choices(
    pairs: Iterable[tuple[str, str]], where: str = "autocomplete"
) -> list[tuple[str, str]]:
    """``pairs`` of ``(name, value)`` as Discord accepts an autocomplete answer: at most
    `MAX_CHOICES`, each name and value 1–`CHOICE_LIMIT` characters.

    A name is trimmed and cut at a word with "…" (`clip`); an empty name shows the value.
    A value cannot be cut (a cut value is another command, e.g. a card list missing its
    last card), so a pair whose value is empty or too long is left out; the first of
    those is logged as a warning naming ``where`` (e.g. ``/army move with``) and the
    lengths only — never the text, which may name a seat's private cards.

    >>> [(len(n), v) for n, v in fit_choices([("", "2 3"), ("Army 2", ""), ("x" * 120, "7")])]
    [(3, '2 3'), (100, '7')]
    """
    fitted: list[tuple[str, str]] = []
    dropped: list[int] = []
    for name, value in pairs:
        value = str(value).strip()
        if not 1 <= len(value) <= CHOICE_LIMIT:
            dropped.append(len(value))
            continue
        fitted.append((clip(str(name).strip() or value, CHOICE_LIMIT), value))
        if len(fitted) == MAX_CHOICES:
            break
    if dropped:
        _log.warning(
            "%s: left out %d suggestion(s) whose value Discord refuses (lengths %s)",
            where,
            len(dropped),
            dropped[:5],
        )
    return fitted


def typed_command(path: Sequence[str], options: Mapping[str, Any]) -> str:
    """A command as typed, in Discord and at the console alike:
    ``/army recruit army:2 card:#12``; a value with spaces in double quotes."""
    parts = ["/" + " ".join(path)]
    for name, value in options.items():
        text = str(value)
        parts.append(f'{name}:"{text}"' if " " in text else f"{name}:{text}")
    return " ".join(parts)


LEFT_OUT_LIMIT = 900
"""Characters of a decision's text given to the commands a select menu left out."""


def left_out_text(
    left: Sequence[Command],
    label: Callable[[Command], str],
    typed: Callable[[Command], str | None] | None = None,
) -> str:
    """One line naming the commands a select menu cut at 25 left out, each with how it
    is typed (``typed``: e.g. `RulesetAdapter.typed_command`), within `LEFT_OUT_LIMIT`
    characters ("… N more" after that); "" when none was left out. ``label`` must be the
    one the menu uses, so the line names nothing the menu would not show.

    Commands that differ only in their last value (label ``Place the Army token on G4``,
    typed ``/setup army hex:G4``) share one entry, the values written as /help writes a
    choice: ``Place the Army token on: /setup army hex:G4|Q4|A5`` — on a phone the
    panel then shows a few short entries, not one long line repeating the same words."""
    if not left:
        return ""
    groups: dict[tuple[str, str], list[str]] = {}
    entries: list[tuple[str, str | None, tuple[str, str] | None]] = []
    for cmd in left:
        name, how = label(cmd), (typed(cmd) if typed is not None else None)
        head, sep, value = (how or "").rpartition(":")
        if sep and value and value.isalnum() and name.endswith(value) and " " in head:
            key = (name[: -len(value)].rstrip(), head)
            if key not in groups:
                groups[key] = []
                entries.append((name, how, key))
            groups[key].append(value)
        else:
            entries.append((name, how, None))
    text = f"Not in the menu ({len(left)}), typed as shown: "
    shown = placed = 0
    for name, how, group in entries:
        values = groups[group] if group is not None else []
        if group is not None and len(values) > 1:
            entry = f"{group[0]}: {group[1]}:{'|'.join(values)}"
        else:
            entry = f"{name}: {how}" if how else name
        if len(text) + len(entry) + 2 > LEFT_OUT_LIMIT:
            break
        text += ("; " if shown else "") + entry
        shown += 1
        placed += max(1, len(values))
    if placed < len(left):
        text += f"{'; ' if shown else ''}… {len(left) - placed} more (see /help)"
    return text


def decision_buttons(
    decision: Decision,
    game_id: int,
    version: int,
    legal: Sequence[Command],
    default: Command | None,
    label: Callable[[Command], str],
    *,
    ends: Sequence[str] = (),
    priority: Callable[[Command], Any] | None = None,
    typed: Callable[[Command], str | None] | None = None,
) -> DecisionUI:
    """Generic buttons for a public decision, built from the legal commands.

    Up to `MAX_BUTTONS` choices become buttons (the default first, in blue). More become
    one select menu (at most 25: the default, then by ``priority``; when more are legal its
    placeholder says how many are shown, and the text names those left out and how each
    is typed: `left_out_text` with ``typed``), plus a green button for each command whose
    type is in ``ends`` (e.g. "end buying") and a blue one for the default. Each carries
    an option token: the command's index and hash, checked again when clicked
    (`GameService.click`).
    """
    tokens = {
        id(cmd): customids.option_token(i, cmd.model_dump_json()) for i, cmd in enumerate(legal)
    }
    offered = list(legal)
    default_cmd = next((cmd for cmd in offered if default is not None and cmd == default), None)
    if default_cmd is not None:
        offered.remove(default_cmd)
        offered.insert(0, default_cmd)

    def button(cmd: Command, style: Literal["primary", "secondary", "success"]) -> Button:
        return Button(
            label=clip(label(cmd), 80),
            custom_id=customids.encode(game_id, version, "opt", tokens[id(cmd)]),
            style=style,
        )

    components: list[Component] = []
    if len(offered) <= MAX_BUTTONS:
        components = [
            button(cmd, "primary" if cmd is default_cmd else "secondary") for cmd in offered
        ]
        return DecisionUI(decision.prompt, tuple(components), False)
    finals = [cmd for cmd in offered if cmd.type in ends]
    rest = [cmd for cmd in offered if cmd not in finals]
    head = [default_cmd] if default_cmd is not None and default_cmd in rest else []
    tail = [cmd for cmd in rest if cmd not in head]
    if priority is not None:
        tail.sort(key=priority)
    choices = (head + tail)[:25]
    placeholder = (
        "Choose…"
        if len(rest) <= 25
        else f"Choose (25 of {len(rest)} shown; the others are typed, as the message says)…"
    )
    left = left_out_text((head + tail)[25:], label, typed)
    components.append(
        Select(
            custom_id=customids.encode(game_id, version, "pick"),
            placeholder=placeholder,
            options=tuple(
                SelectOption(
                    label=clip(label(cmd), 100),
                    value=tokens[id(cmd)],
                    description="the default" if cmd is default_cmd else "",
                )
                for cmd in choices
            ),
        )
    )
    components += [button(cmd, "success") for cmd in finals]
    if default_cmd is not None and default_cmd not in finals:
        components.append(
            Button(
                label=clip("Default: " + label(default_cmd), 80),
                custom_id=customids.encode(game_id, version, "opt", tokens[id(default_cmd)]),
                style="primary",
            )
        )
    text = f"{decision.prompt}\n{left}" if left else decision.prompt
    return DecisionUI(text, tuple(components), False)


class CommandTable(Protocol):
    """A ruleset's command-table module as its adapter reads it (its
    ``bot/<game>/commands.py``)."""

    SPECS: tuple[CommandSpec, ...]
    GROUP_DESCRIPTIONS: dict[tuple[str, ...], str]

    def build_command(
        self, path: tuple[str, ...], request: PlayRequest, options: Mapping[str, Any], /
    ) -> dict[str, Any]:
        """See `RulesetAdapter.build_command`."""
        ...

    def suggest(
        self,
        path: tuple[str, ...],
        request: PlayRequest,
        option: str,
        current: str,
        given: Mapping[str, Any],
        /,
    ) -> list[tuple[str, str]]:
        """See `RulesetAdapter.suggest`."""
        ...


@dataclass(frozen=True)
class PoolCard:
    """One card of a game's card pool, as /card shows it.

    Attributes:
        id: the card id (``"pikeman"``), also the ``card`` of its `CardFace` picture.
        name: its printed name.
        type: its card type (``"unit"``, ``"spell"``...).
        text: its rules text ("" for none).
    """

    id: str
    name: str
    type: str
    text: str


class DeckHooks(Protocol):
    """What the shared bot asks a game whose seats bring decks: its ready-made decks, how
    a pasted deck list reads and whether a deck is legal, the engine option of a seat's
    deck, and its card pool (/card draws those cards as pictures). A game sets its
    adapter's `RulesetAdapter.decks` to an object with these methods."""

    def ready_decks(self) -> Mapping[str, str]:
        """The ready-made decks: deck id (``"deck_haven"``) -> name, in a fixed order."""

    def ready_deck_cards(self, deck_id: str) -> tuple[str, dict[str, int]]:
        """The name and cards (card id -> copies) of ready-made deck ``deck_id`` (one of
        `ready_decks`). :raises KeyError: for another id."""

    def read_deck(self, lines: str) -> tuple[dict[str, int], str]:
        """A pasted deck list (one entry per line) read into card id -> copies, and a
        sentence describing it for the player (size, what it is playable on).

        :raises DeckProblem: listing what could not be read or what makes it illegal.
        """

    def game_problems(self, cards: Mapping[str, int], options: Mapping[str, Any]) -> str:
        """Why the deck ``cards`` is not legal in a game with engine ``options`` ("" when it
        is): the words after "Your deck 'name' is ", e.g. "not legal on a board of 4
        sections:" and one "- problem" line each."""

    def deck_option(self, deck_id: str | None, cards: Mapping[str, int] | None) -> dict[str, Any]:
        """One seat's entry of the engine's ``decks`` option: ready-made deck ``deck_id``,
        or the saved deck ``cards``."""

    def deck_text(self, cards: Mapping[str, int]) -> str:
        """A deck's list as text, one line per card (/deck show)."""

    def pool_card(self, name: str) -> PoolCard | None:
        """The pool's card whose id or name is ``name`` (any case), or None."""

    def pool_card_by_id(self, card_id: str) -> PoolCard:
        """The pool's card ``card_id``. :raises KeyError: for an unknown id."""


class CarryOver(Protocol):
    """What a game keeps from one game to the channel's next (a campaign: the surviving
    Heroes). A game sets its adapter's `RulesetAdapter.carry_over` to an object
    with these."""

    failure_note: str
    """The mover's note when `save` fails after the game's end was committed."""

    async def save(
        self, repo: Repository, game: Game, state: GameState, seats: Sequence[Seat]
    ) -> int:
        """Keep what the finished game ``state`` carries over for the channel's next game.
        :returns: how many things were kept."""

    async def start_options(
        self, repo: Repository, game: Game, seats: Sequence[Seat], options: dict[str, Any]
    ) -> dict[str, Any]:
        """The engine options of a game about to start, with what the channel's earlier
        game left given to ``seats`` when the options ask for it (else ``options``)."""


class RulesetAdapter:
    """The bot's view of one ruleset, with defaults for a game without hidden information.

    Class attributes:
        ruleset: the ruleset id.
        decks: the game's deck hooks when seats bring decks (the lobby's deck choices,
            /deck, /card's pictures of its pool); None: played without decks.
        carry_over: what a finished game leaves to the channel's next one; None: nothing.
        lobby_options: names of the lobby settings this ruleset reads (passed to
            `engine_options`, ``-`` written ``_``).
        lobby_specs: this game's own settings, written in the one ``options:`` text of
            /game new and /game options (`bot.game_options`: ``name:value`` words).
        options_example: an options text for /help (``mode:adventure size:medium``).
        command_table: the module whose ``SPECS``, ``build_command`` and ``suggest``
            `specs`, `build_command` and `suggest` use (None: no commands of its own).
    """

    ruleset: ClassVar[str] = ""
    decks: ClassVar[DeckHooks | None] = None
    carry_over: ClassVar[CarryOver | None] = None
    lobby_options: ClassVar[tuple[str, ...]] = ()
    lobby_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    options_example: ClassVar[str] = ""
    command_table: ClassVar[CommandTable | None] = None

    @property
    def uses_decks(self) -> bool:
        """Whether seats bring decks (`decks` is given)."""
        return self.decks is not None

    # ------------------------------------------------------------------ the table
    def specs(self) -> tuple[CommandSpec, ...]:
        """Every slash command of this ruleset (play commands and its own service ones)."""
        return self.command_table.SPECS if self.command_table is not None else ()

    def group_descriptions(self) -> Mapping[tuple[str, ...], str]:
        """The descriptions of this game's top-level commands and subcommand groups."""
        return self.command_table.GROUP_DESCRIPTIONS if self.command_table is not None else {}

    def play_paths(self) -> frozenset[tuple[str, ...]]:
        """The paths of this ruleset's play commands."""
        return frozenset(s.path for s in self.specs() if s.kind == "play")

    def specs_for(self, decision: Decision) -> list[CommandSpec]:
        """The play commands answering ``decision`` (for /help)."""
        return [s for s in self.specs() if decision.kind in s.phase]

    def build_command(
        self, path: tuple[str, ...], request: PlayRequest, options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Turn a play command's options into an engine command dict.

        :raises BadOption | WrongStage: when an option cannot be read.
        :raises KeyError: for a path that is not a play command of this ruleset.
        """
        if self.command_table is None:
            raise KeyError(" ".join(path))
        return self.command_table.build_command(path, request, options)

    def suggest(
        self,
        path: tuple[str, ...],
        request: PlayRequest,
        option: str,
        current: str,
        given: Mapping[str, Any],
    ) -> list[tuple[str, str]]:
        """Autocomplete pairs ``(name, value)`` (at most 25) for ``option``; none by default."""
        if self.command_table is None:
            return []
        return self.command_table.suggest(path, request, option, current, given)

    # ------------------------------------------------------------------ standing orders
    def order_kinds(self) -> Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """Standing order kinds: kind -> (title, (choice label, value)...); none by default."""
        return {}

    def order_command(
        self, state: GameState, seat: int, decision: Decision, orders: Mapping[str, str]
    ) -> Command | None:
        """The command ``seat``'s standing orders give for ``decision``, or None to ask."""
        return None

    # ------------------------------------------------------------------ lobby
    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The engine options for lobby option values (only `lobby_options` are read)."""
        return {k: v for k, v in values.items() if k in self.lobby_options and v is not None}

    def check_options(self, options: Any) -> None:
        """Refuse parsed engine ``options`` the bot cannot set up (nothing by default).

        :raises BadOption: saying what is wrong.
        """

    def read_options_text(self, text: str) -> dict[str, Any]:
        """The lobby settings (keys of `lobby_options`) an ``options:`` text of /game new
        or /game options gives: by default its ``name:value`` words for `lobby_specs`
        (`bot.game_options.read_words`).

        :raises BadOption: for a word that is not this game's, naming the valid ones.
        """
        return read_words(text, self.lobby_specs, get_ruleset(self.ruleset).title)

    def engine_keys(self, setting: str) -> tuple[str, ...]:
        """The engine options a lobby ``setting`` (a `lobby_options` name) sets, which
        ``setting:none`` puts back to their defaults (by default the setting's own name)."""
        return (setting,)

    def options_forms(self) -> list[str]:
        """How each of this game's option words is written, one line each, for /help
        (``mode:skirmish|adventure — …``)."""
        return [f"{s.name}:{value_form(s)} — {s.description}" for s in self.lobby_specs]

    def lobby_suggestions(self, option: str, current: str) -> list[tuple[str, str]]:
        """Autocomplete ``(name, value)`` pairs (≤ 25) for ``option`` of /game new and
        /game options while the host types ``current``: for ``options``, this game's
        words (`bot.game_options.suggest_words`); nothing for the other options."""
        return suggest_words(current, self.lobby_specs) if option == "options" else []

    def options_summary(self, options: Mapping[str, Any]) -> str:
        """One line describing a lobby's engine options."""
        shown = [f"{k.replace('_', ' ')}: {v}" for k, v in sorted(options.items()) if v]
        return ", ".join(shown) or "the defaults"

    # ------------------------------------------------------------------ decisions
    def describe(self, state: GameState, command: Command) -> str:
        """One line for a command (may name the acting seat's private cards)."""
        fields = command.model_dump(exclude={"type"})
        shown = " ".join(f"{k}={v}" for k, v in fields.items() if v is not None)
        return f"{command.type.replace('_', ' ')} {shown}".strip()

    def describe_for(self, state: GameState, seat: int, command: Command) -> str:
        """One line for ``seat``'s command, for that seat's own eyes (its reply): by
        default `describe`. A ruleset whose words depend on who acts overrides it (e.g.:
        an answer names an option of the seat's own open choice, never another seat's)."""
        return self.describe(state, command)

    def decision_ui(
        self,
        state: GameState,
        seat: int,
        decision: Decision,
        game_id: int,
        legal: Sequence[Command],
        default: Command | None,
    ) -> DecisionUI:
        """Buttons and select menus for ``decision`` (default: `decision_buttons` over
        `offered_commands`; private when the engine built the decision private)."""
        offered = offered_commands(state, seat, decision, legal)
        ui = decision_buttons(
            decision,
            game_id,
            state.version,
            offered,
            default if default in offered else None,
            lambda c: self.describe(state, c),
            typed=self.typed_command,
        )
        return DecisionUI(ui.text, ui.components, decision.private)

    def typed_command(self, command: Command) -> str | None:
        """How ``command`` is typed (``/army recruit army:2 card:#12``), from the command
        table's ``slash_for`` when it has one; None when it cannot be typed."""
        slash_for = getattr(self.command_table, "slash_for", None)
        if slash_for is None:
            return None
        try:
            path, options = slash_for(command)
        except (KeyError, ValueError):
            return None
        return typed_command(path, options)

    def command_from_selection(self, which: str, values: Sequence[str]) -> dict[str, Any]:
        """The command of a multi-select (custom id action ``cards``).

        :raises ValueError: when this ruleset has no such selection.
        """
        raise ValueError(f"unknown selection {which!r}")

    def move_note(self, after: GameState, command: Command) -> str:
        """A note for the mover's reply when a command did less than asked ("" if none)."""
        return ""

    # ------------------------------------------------------------------ texts
    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """Public status lines of a public view (default: whose turn it is)."""
        active = getattr(view, "active", None)
        turn = getattr(view, "turn", None)
        if active is None:
            return []
        return [f"Turn {turn}: **{seat_name(active)}** to play."]

    def hand_text(self, state: GameState, seat: int, *, game_id: int, channel_id: int) -> str:
        """The private text for ``seat`` (/hand and the hand DM)."""
        return f"**{seat_name(seat)}** in game #{game_id} (<#{channel_id}>): nothing is hidden."

    def seat_hidden(self, state: GameState, seat: int) -> tuple[Any, ...]:
        """What ``seat`` alone sees (a change sends a fresh hand DM); nothing by default."""
        return ()

    def has_private_hand(self) -> bool:
        """Whether seats have private information worth a DM (hands, face-down cards)."""
        return False

    # ------------------------------------------------------------------ /card
    def card_lookup(self, name: str) -> tuple[str, str] | None:
        """``(title, text)`` of this ruleset's card (or other component) called ``name``
        (name or id), for /card in a channel playing it or holding its lobby; None: not
        one of its cards (/card then refuses: it never shows another game's card)."""
        return None

    def card_names(self, current: str) -> list[tuple[str, str]]:
        """Autocomplete ``(label, value)`` pairs (≤ 25) for /card in a channel playing
        this ruleset or holding its lobby: only this ruleset's names (empty when none
        matches; never another game's)."""
        return []

    # ------------------------------------------------------------------ pictures
    def picture_after(
        self, before: GameState | None, after: GameState, commands: Sequence[Command]
    ) -> str | None:
        """Which picture to post after ``commands`` (``"board"``...), or None."""
        return "board"

    def status_picture(self, state: GameState) -> str:
        """Which picture /game status shows."""
        return "board"

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Picture | None:
        """Draw picture ``kind`` of a public view (in a worker thread), or None."""
        return None

    def pictures(self, renderer: Renderer, kind: str, view: Any) -> tuple[Picture, ...]:
        """The channel pictures of ``kind`` of a public view, in gallery order (in a worker
        thread): a game with focus pictures gives ``(focus, whole)`` (`focus_first`);
        by default the one `picture`, or none."""
        found = self.picture(renderer, kind, view)
        return (found,) if found is not None else ()

    def hand_picture(self, renderer: Renderer, view: Any) -> Picture | None:
        """Draw a seat's private picture of its seat view (in a worker thread), or None."""
        return None


ADAPTERS: dict[str, RulesetAdapter] = {}
"""Every game's adapter by ruleset id: a game's adapter module adds its own on import
(``ADAPTERS[MyAdapter.ruleset] = MyAdapter()``); `bot.registry` lists which modules."""


def adapter_for(ruleset: str) -> RulesetAdapter:
    """The adapter of ``ruleset`` (the generic defaults for one without its own)."""
    registry.load()
    return ADAPTERS.get(ruleset) or RulesetAdapter()


def all_adapters() -> list[RulesetAdapter]:
    """The adapter of every game of `bot.registry`, in its order (the flagship first)."""
    return [adapter_for(game.ruleset) for game in registry.load()]


def deck_adapter() -> RulesetAdapter | None:
    """The adapter of the first game of `bot.registry` whose seats bring decks (the game
    of /deck's saved decks), or None when no game uses decks."""
    return next((a for a in all_adapters() if a.decks is not None), None)
