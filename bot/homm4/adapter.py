"""What the service needs to know about homm4 beyond the engine protocol.

Rule sections: homm4:battles (standing orders answer battle decisions), homm4:card-types
(decisions among private cards go by DM: the engine builds them ``private``), and every
decision of homm4:game-process.

* the buttons and select menus offered for a decision (`decision_ui`), built from
  `Ruleset.legal_commands` (in the channel without the commands the engine says name
  hidden cards, `Ruleset.names_hidden_card`) and labelled with `bot.homm4.describe`;
* standing orders (`order_command`): a seat's stored answers to battle decisions;
* the text of a seat's Hand and Risk Stack (`hand_text`), of the status (`status_lines`),
  and when a picture is worth posting (`picture_after`);
* `Homm4Adapter`, the shared bot's view of homm4 (registered on import, listed in
  `bot.registry`), with its deck hooks (`Homm4Decks`: homm4:setup) and campaigns
  (`Homm4Campaign`: homm4:game-variants.campaigns).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from bot import customids
from bot.adapters import (
    ADAPTERS,
    MAX_BUTTONS,
    CarryOver,
    DecisionUI,
    DeckHooks,
    PlayRequest,
    PoolCard,
    RulesetAdapter,
    clip,
    focus_first,
    left_out_text,
    offered_commands,
    ranked_names,
    typed_command,
)
from bot.adapters import Picture as Posted
from bot.command_table import CommandSpec
from bot.errors import BadOption, DeckProblem
from bot.game_options import unquote
from bot.homm4 import campaign, commands, options_text
from bot.homm4 import describe as d
from bot.outbox import Button, Component, Select, SelectOption
from engine.core.errors import InvalidInput, RuleViolation
from engine.core.model import Command, Decision, GameState, seat_name
from engine.homm4 import RULESET as HOMM4
from engine.homm4 import battle as battle_rules
from engine.homm4 import board, zones
from engine.homm4 import commands as c
from engine.homm4 import decks as deck_rules
from engine.homm4.cards import load_card_pool
from engine.homm4.options import DeckChoice, Homm4Options
from engine.homm4.state import Homm4State, ScoutOffer
from engine.homm4.views import PublicView
from engine.homm4.words import plural
from storage.records import Game, Seat
from storage.repository import Repository

if TYPE_CHECKING:
    from bot.render import Renderer

MULTI_SELECT: dict[str, str] = {
    "choose_risk_stack": "risk",
    "reinforce_guard": "guard",
    "develop_hero": "develop",
}
"""Decisions answered with a multi-select of cards: decision kind -> custom id argument."""


def _label(state: Homm4State, seat: int, command: Command, private: bool) -> str:
    """A command's label. Commands naming Hand / Risk Stack cards are only ever offered
    in private decisions (see `decision_ui`), so the full description is safe here."""
    if not private and HOMM4.names_hidden_card(state, seat, command):
        return d.public_command(state, command)
    return d.describe(state, command)


def _priority(state: Homm4State, kind: str, command: Command) -> tuple[int, int]:
    """Sort key for select menus with more than 25 choices (smaller first)."""
    order = {
        "attack": 0,
        "cast_spell": 2,
        "defend": 3,
        "group": 4,
        "regroup": 5,
        "support": 6,
        "buy": 0,
        "upgrade_town": 1,
        "buy_artifact": 2,
        "buy_skill": 3,
        "learn_spell": 1,
        "move": 0,
        "form_army": 1,
        "split_army": 3,
        "transfer": 4,
        "transfer_artifact": 5,
        "cast_adventure_spell": 2,
        "discard_artifact": 8,
    }.get(command.type, 7)
    extra = 0
    if isinstance(command, c.Attack):
        extra = (command.count - 1) * 4 + len(command.targets) - 1
        order += 1 if extra else 0
    if isinstance(command, c.CastSpell):
        extra = command.count - 1
    if isinstance(command, c.Move):
        where = d.hex_label(state, command.to)
        extra = 0 if "(" in where else 1
    if isinstance(command, c.PlaceArmy):
        extra = _town_distance(state, command.hex)
    if isinstance(command, c.PlaceEntrance):
        extra = _entrance_rank(state, command)
    return order, extra


def _entrance_rank(state: Homm4State, command: c.PlaceEntrance) -> int:
    """Sort key of an entrance pair in the select menu: the pairs of the first underground
    icon with every surface icon, then of the second..., so the 25 shown reach every
    surface icon (the slash command reaches the rest)."""
    _, below = board.entrance_sites(state)
    labels = [board.label(state, s.hex) for s in below]
    wanted = command.underground.strip().upper()
    return labels.index(wanted) if wanted in labels else len(labels)


def _town_distance(state: Homm4State, label: str) -> int:
    """Hexes from ``label`` to the nearest Town icon (where a first Army wants to go)."""
    from engine.homm4 import board
    from engine.homm4.hexes import distance

    where = board.parse_hex(state, label)
    towns = [s.hex for s in state.sites if s.kind == "town"]
    return min((distance(where, t) for t in towns), default=0)


def decision_ui(
    state: Homm4State,
    seat: int,
    decision: Decision,
    game_id: int,
    legal: Sequence[Command],
    default: Command | None,
) -> DecisionUI:
    """Build the buttons and select menus for ``seat``'s ``decision``.

    Up to `MAX_BUTTONS` choices become buttons (the documented default first, in blue);
    more become one select menu (at most 25 options: the default, then by usefulness)
    plus a button for the default. Risk Stack and Guard reinforcement use a multi-select
    of cards. In the channel only commands without private cards are offered.
    """
    private = decision.private
    version = state.version
    if decision.kind == "place_section" and state.section_pile:
        from engine.homm4 import board

        revealed = board.map_data().sections[state.section_pile[0]].name
        decision = decision.model_copy(
            update={"prompt": f"{decision.prompt} It is {revealed} (just revealed)."}
        )
    offered = offered_commands(state, seat, decision, legal)
    # Numbered among the offered commands: numbers among all legal ones would tell the
    # channel how many Hand cards could be recruited or learnt (`customids.find_option`).
    tokens = {
        id(cmd): customids.option_token(i, cmd.model_dump_json()) for i, cmd in enumerate(offered)
    }
    text = decision.prompt
    components: list[Component] = []
    default_cmd = next((cmd for cmd in offered if default is not None and cmd == default), None)
    if decision.kind in MULTI_SELECT:
        components += _multi_select(state, seat, decision, game_id, legal)
    if default_cmd is not None:
        offered.remove(default_cmd)
        offered.insert(0, default_cmd)
    if decision.kind in MULTI_SELECT:
        if default_cmd is not None:
            components.append(
                _button(
                    game_id,
                    version,
                    tokens[id(default_cmd)],
                    "Suggested: " + _label(state, seat, default_cmd, private),
                    "primary",
                )
            )
        return DecisionUI(text, tuple(components), private)
    if len(offered) <= MAX_BUTTONS:
        for cmd in offered:
            style: Literal["primary", "secondary"] = (
                "primary" if cmd is default_cmd else "secondary"
            )
            components.append(
                _button(game_id, version, tokens[id(cmd)], _label(state, seat, cmd, private), style)
            )
        return DecisionUI(text, tuple(components), private)
    ends = [cmd for cmd in offered if cmd.type in ("end_purchase", "end_movement")]
    rest = [cmd for cmd in offered if cmd not in ends]
    head = [default_cmd] if default_cmd is not None and default_cmd in rest else []
    tail = sorted(
        (cmd for cmd in rest if cmd not in head),
        key=lambda cmd: _priority(state, decision.kind, cmd),
    )
    choices = (head + tail)[:25]
    placeholder = "Choose…"
    if len(rest) > 25:
        from bot.homm4.commands import slash_for

        left = (head + tail)[25:]
        others = sorted({"/" + " ".join(slash_for(cmd)[0]) for cmd in left})
        placeholder = f"Choose (25 of {len(rest)} shown; {', '.join(others)} for the others)"[:150]
        text += "\n" + left_out_text(
            left,
            lambda cmd: _label(state, seat, cmd, private),
            lambda cmd: typed_command(*slash_for(cmd)),
        )
    select = Select(
        custom_id=customids.encode(game_id, version, "pick"),
        placeholder=placeholder,
        options=tuple(
            SelectOption(
                label=clip(_label(state, seat, cmd, private), 100),
                value=tokens[id(cmd)],
                description="the default" if cmd is default_cmd else "",
            )
            for cmd in choices
        ),
    )
    components.append(select)
    for cmd in ends:
        components.append(
            _button(game_id, version, tokens[id(cmd)], _label(state, seat, cmd, private), "success")
        )
    if default_cmd is not None and default_cmd not in ends:
        components.append(
            _button(
                game_id,
                version,
                tokens[id(default_cmd)],
                "Default: " + _label(state, seat, default_cmd, private),
                "primary",
            )
        )
    return DecisionUI(text, tuple(components), private)


def _button(
    game_id: int,
    version: int,
    token: str,
    label: str,
    style: Literal["primary", "secondary", "success", "danger"],
) -> Button:
    return Button(
        label=clip(label, 80),
        custom_id=customids.encode(game_id, version, "opt", token),
        style=style,
    )


def _multi_select(
    state: Homm4State, seat: int, decision: Decision, game_id: int, legal: Sequence[Command]
) -> list[Component]:
    player = state.players_state[seat]
    which = MULTI_SELECT[decision.kind]
    if decision.kind == "develop_hero":
        return _develop_select(state, seat, game_id)
    if decision.kind == "choose_risk_stack":
        cards = sorted(player.hand)
        size = min(5, len(cards))
        low, high = size, size
        placeholder = f"Choose {plural(size, 'card')} for your Risk Stack"
    else:
        cards = sorted({i for cmd in legal if isinstance(cmd, c.ReinforceGuard) for i in cmd.cards})
        if not cards:
            return []
        low, high = 0, len(cards)
        placeholder = "Choose Units to add to the Guard (none: add nothing)"
    if not cards:
        return []
    return [
        Select(
            custom_id=customids.encode(game_id, state.version, "cards", which),
            placeholder=placeholder,
            options=tuple(
                SelectOption(
                    label=d.card_label(state, i)[:100],
                    value=str(i),
                    description=d.card_detail(state, i)[:100],
                )
                for i in cards[:25]
            ),
            min_values=low,
            max_values=min(high, 25),
        )
    ]


def _develop_select(state: Homm4State, seat: int, game_id: int) -> list[Component]:
    """The multi-select of ``seat``'s deck cards for the Hero it develops now (Pre-developed
    Heroes): its custom id carries the Hero (``develop.<hero>``), so a click builds the
    whole ``develop_hero`` command. Private: the seat's own deck, sent by DM."""
    from bot.homm4.commands import develop_candidates

    rule = state.options.pre_developed
    hero = next((h for s, h in state.to_develop if s == seat), None)
    cards = develop_candidates(state, seat)
    if rule is None or hero is None or not cards:
        return []
    skills = rule.primary + rule.secondary
    shown = cards[:25]
    more = f" (25 of {len(cards)} shown; /setup develop for the others)" if len(cards) > 25 else ""
    return [
        Select(
            custom_id=customids.encode(game_id, state.version, "cards", f"develop.{hero}"),
            placeholder=clip(
                f"Cards for {d.card_name(state, hero)}: {plural(skills, 'Skill card')}"
                + (", a Spell per magic level" if rule.spells else "")
                + (
                    f", Artifacts ({rule.treasure} Treasure + {rule.other} other in all)"
                    if rule.treasure or rule.other
                    else ""
                )
                + more,
                150,
            ),
            options=tuple(
                SelectOption(
                    label=d.card_label(state, i)[:100],
                    value=str(i),
                    description=d.card_detail(state, i)[:100],
                )
                for i in shown
            ),
            min_values=min(skills, len(shown)),
            max_values=len(shown),
        )
    ]


def command_from_cards(which: str, values: Sequence[str]) -> dict[str, Any]:
    """Build the command of a card multi-select (``risk``, ``guard`` or ``develop.<hero>``)
    from its values.

    :raises ValueError: for a value that is not a card number.
    """
    cards = tuple(int(v) for v in values)
    if which.startswith("develop."):
        return {"type": "develop_hero", "cards": cards, "hero": int(which.split(".", 1)[1])}
    if which == "risk":
        return {"type": "choose_risk_stack", "cards": cards}
    if which == "guard":
        return {"type": "reinforce_guard", "cards": cards}
    raise ValueError(f"unknown card selection {which!r}")


# ------------------------------------------------------------------ standing orders
ORDER_DECISIONS: dict[str, str] = {
    "battle_deploy": "deploy",
    "battle_act": "attack",
    "battle_counterattack": "counter",
    "battle_fill_front": "fill",
    "battle_retreat": "retreat",
    "battle_surrender_offer": "surrender",
    "battle_surrender_answer": "answer",
}
"""Decision kind -> the standing order kind that can answer it."""


def order_command(
    state: Homm4State, seat: int, decision: Decision, orders: Mapping[str, str]
) -> Command | None:
    """The command ``seat``'s standing orders give for ``decision``, or None to ask.

    Orders (homm4:battles): deploy ``auto`` (the default deployment); attack ``weakest``
    (the default action: the reachable enemy with the lowest Defense, Defend when none)
    or ``strongest`` (the reachable enemy with the highest attack value); counter
    ``always`` / ``never``; fill ``auto`` (the best melee Creature); retreat ``never``;
    surrender ``never`` (no offer); answer ``reject`` / ``accept``.
    """
    kind = ORDER_DECISIONS.get(decision.kind)
    value = orders.get(kind, "ask") if kind else "ask"
    if kind is None or value == "ask" or state.battle is None:
        return None
    default = battle_rules.battle_default(state, seat)
    if kind == "attack":
        return _strongest_attack(state, seat) or default if value == "strongest" else default
    if kind == "counter":
        return c.Counterattack(strike=value == "always")
    if kind == "retreat" and value == "never":
        return c.Retreat(retreat=False)
    if kind == "surrender" and value == "never":
        return c.OfferSurrender(cards=None)
    if kind == "answer":
        return c.AnswerSurrender(accept=value == "accept")
    if kind in ("deploy", "fill") and value == "auto":
        return default
    return None


def _strongest_attack(state: Homm4State, seat: int) -> Command | None:
    view = battle_rules.battle_view(state)
    if view is None:
        return None
    power = {cr.id: max(cr.melee, cr.ranged) for cr in view.creatures}
    attacks = [
        cmd
        for cmd in battle_rules.battle_legal(state, seat)
        if isinstance(cmd, c.Attack) and cmd.count == 1 and len(cmd.targets) == 1
    ]
    if not attacks:
        return None
    return max(
        attacks, key=lambda a: (power.get(a.targets[0], 0), -a.targets[0], a.mode == "melee")
    )


def ai_choice(state: Homm4State, seat: int, seed: int) -> Command:
    """The computer seat's command (the engine's AI) with a generator seeded from the
    game's seed and version, so a replayed or restarted game chooses the same."""
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    return HOMM4.ai_command(state, seat, rng)


# ------------------------------------------------------------------ texts
def private_cards(state: Homm4State) -> set[int]:
    """Every card in any Hand or Risk Stack (or draw deck): what the channel must not name."""
    hidden: set[int] = set()
    for player in state.players_state:
        hidden.update(player.hand, player.risk, player.deck)
    return hidden


def hand_text(state: Homm4State, seat: int, *, game_id: int, channel_id: int) -> str:
    """The DM text of ``seat``'s Hand and Risk Stack (names, numbers, costs). Private."""
    player = state.players_state[seat]
    lines = [f"**{seat_name(seat)} — your cards in game #{game_id}** (<#{channel_id}>)"]
    lines.append(f"**Hand** ({len(player.hand)}): used to pay")
    lines += [f"  {d.card_detail(state, i)}" for i in player.hand] or ["  (empty)"]
    lines.append(f"**Risk Stack** ({len(player.risk)}): played like the Hand, never paid")
    lines += [f"  {d.card_detail(state, i)}" for i in player.risk] or ["  (empty)"]
    if player.free_town is not None:
        lines.append(f"Free Town card (not yet placed): {d.card_detail(state, player.free_town)}")
    left = len(player.deck)
    lines.append(f"Draw deck: {plural(left, 'card')}; discard pile: {len(player.discard)}.")
    return "\n".join(lines)


PHASE_NAMES = {
    "develop": "developing the starting Heroes",
    "assemble": "assembling the Game Board",
    "entrances": "placing the underground entrances",
    "setup": "setting up",
    "purchase": "Purchase Phase",
    "movement": "Movement Phase",
    "closing": "Closing Phase",
    "over": "game over",
}


def status_lines(view: PublicView, names: Mapping[int, str]) -> list[str]:
    """Public status lines: round, whose turn and phase, the Advanced Rules and variants in
    effect, each seat's counts, the battle, dead Heroes awaiting resurrection."""
    lines = [
        f"Round {view.round}, turn {view.turn}: **{seat_name(view.active)}** — "
        f"{PHASE_NAMES.get(view.phase, view.phase)}."
    ]
    if view.rules:
        lines.append("⚙️ Options in effect: " + "; ".join(view.rules) + ".")
    for player in view.players:
        who = names.get(player.seat, seat_name(player.seat))
        gone = " — eliminated" if player.eliminated else ""
        lines.append(
            f"{seat_name(player.seat)} ({who}): Hand {player.hand_size}, Risk Stack "
            f"{player.risk_size}, deck {player.deck_size}, {plural(player.towns, 'Town')}, "
            f"{plural(player.armies, 'Army')}{gone}"
        )
    if view.battle is not None:
        b = view.battle
        lines.append(
            f"Battle at {b.label}: {seat_name(b.attacker)} attacks {seat_name(b.defender)} "
            f"({b.defender_kind}), Round {b.round}, Phase {b.phase}."
        )
    for body in view.fallen:
        where = f"carried by Army {body.army}" if body.army is not None else f"at {body.label}"
        lines.append(f"☠️ {seat_name(body.seat)}'s dead Hero (#{body.hero.id}) lies {where}.")
    return lines


Picture = Literal["board", "battle"]


def move_note(after: Homm4State, command: Command) -> str:
    """Where a Move ended when it stopped before its destination ("" otherwise), for the
    mover's reply: ``" — Army 1 is still at F7: an icon came into sight; scout it, then
    move again."`` The engine stops a move (or does not start it) when an unidentified
    icon comes into sight (homm4:movement-phase.scouting-terrain); the reply then should
    not read as if the Army had arrived."""
    if not isinstance(command, c.Move) or after.battle is not None:
        return ""
    try:
        army = zones.army(after, command.army)
    except RuleViolation:  # merged into another Army or destroyed: the events say so
        return ""
    where = board.label(after, army.hex)
    if where == command.to.strip().upper():
        return ""
    head = after.interrupts[0] if after.interrupts else None
    why = (
        "an unidentified icon came into sight; scout it, then move again"
        if isinstance(head, ScoutOffer)
        else "move it again to go on"
    )
    return f" — Army {army.id} is at {where}: {why}."


def picture_after(
    before: Homm4State | None, after: Homm4State, commands: Sequence[Command]
) -> Picture | None:
    """Which picture to post after an action: the board when a battle begins (where it
    is) and the battlefield once both sides have deployed and after each Phase; the board
    when the turn passes, an Army moves, a battle ends, set-up places something, a site
    changes hands, or the game ends; None otherwise."""
    if after.battle is not None:
        b = after.battle
        if b.stage == "deploy":
            return "board" if before is None or before.battle is None else None
        if before is None or before.battle is None:
            return "battle"
        a = before.battle
        if a.stage == "deploy" or (a.round, a.phase) != (b.round, b.phase):
            return "battle"
        return None
    if before is None or before.battle is not None:
        return "board"
    if after.phase == "over" or before.active != after.active or before.turn != after.turn:
        return "board"
    if (
        before.phase in ("develop", "assemble", "entrances", "setup")
        and after.phase != before.phase
    ):
        return "board"
    if any(
        cmd.type in ("move", "place_army", "place_section", "place_entrance", "form_army")
        for cmd in commands
    ):
        return "board"
    if [s.owner for s in before.sites] != [s.owner for s in after.sites]:
        return "board"  # a site taken without a move (e.g. identified under an Army)
    return None


def seat_hidden(state: Homm4State, seat: int) -> tuple[int, ...]:
    """``seat``'s Hand and Risk Stack as one tuple (to notice when they change)."""
    player = state.players_state[seat]
    return (*player.hand, -1, *player.risk)


def ready_decks() -> dict[str, str]:
    """Ready-made deck id -> display name (``deck_haven`` -> ``Haven``)."""
    return {deck_id: deck.name for deck_id, deck in sorted(zones.pool().decks.items())}


Labeller = Callable[[Homm4State, Command], str]


class Homm4Decks:
    """homm4's decks for the shared bot (`bot.adapters.DeckHooks`; homm4:setup): the
    ready-made decks of the card pool, a pasted list read and checked by
    `engine.homm4.decks`, a saved deck checked against the game's board, and the pool's
    cards for /card."""

    def ready_decks(self) -> Mapping[str, str]:
        """`ready_decks`: deck id -> name, sorted by id."""
        return ready_decks()

    def ready_deck_cards(self, deck_id: str) -> tuple[str, dict[str, int]]:
        """The ready-made deck's name and cards. :raises KeyError: for an unknown id."""
        deck = load_card_pool().decks[deck_id]
        return deck.name, dict(deck.cards)

    def read_deck(self, lines: str) -> tuple[dict[str, int], str]:
        """Read and check a pasted deck list (`deck_rules.parse_deck_text`, then
        `deck_rules.validate_deck` for the smallest board it fits: at least
        `deck_rules.MIN_SECTIONS` sections, one per `deck_rules.CARDS_PER_SECTION` cards).

        :returns: the cards and "N cards, Starting Forces of F; playable on boards of S or
            more sections."
        :raises DeckProblem: for an unreadable entry or an illegal deck (every problem).
        """
        try:
            cards = deck_rules.parse_deck_text(lines)
        except InvalidInput as error:
            raise DeckProblem(f"{error.message}\n{DECK_LIST_FORM}") from None
        total = sum(cards.values())
        sections = max(deck_rules.MIN_SECTIONS, -(-total // deck_rules.CARDS_PER_SECTION))
        problems = deck_rules.validate_deck(cards, sections)
        if problems:
            raise DeckProblem(
                "This deck is not legal, so it was not saved:\n"
                + "\n".join(f"- {p}" for p in problems)
            )
        forces = deck_rules.starting_forces(cards)
        summary = (
            f"{total} cards, Starting Forces of {forces.faction.value.capitalize()}; "
            f"playable on boards of {sections} or more sections."
        )
        return cards, summary

    def game_problems(self, cards: Mapping[str, int], options: Mapping[str, Any]) -> str:
        """Why ``cards`` is not legal for the game's board, deck size and Starting Forces
        ("" when it is)."""
        parsed = Homm4Options.model_validate({k: v for k, v in options.items() if k != "decks"})
        sections = parsed.sections_in_play()
        problems = deck_rules.validate_deck(
            dict(cards), sections, deck_size=parsed.deck_size, forces=parsed.starting_forces
        )
        if not problems:
            return ""
        return f"not legal on a board of {sections} sections:\n" + "\n".join(
            f"- {p}" for p in problems
        )

    def deck_option(self, deck_id: str | None, cards: Mapping[str, int] | None) -> dict[str, Any]:
        """A `DeckChoice` as the engine options hold it."""
        choice = DeckChoice(cards=dict(cards)) if cards is not None else DeckChoice(deck=deck_id)
        dumped: dict[str, Any] = choice.model_dump(mode="json", exclude_none=True)
        return dumped

    def deck_text(self, cards: Mapping[str, int]) -> str:
        """`deck_rules.deck_text`."""
        return deck_rules.deck_text(cards)

    def pool_card(self, name: str) -> PoolCard | None:
        """The card whose id or name (any case) is ``name``."""
        pool = load_card_pool()
        wanted = name.strip().lower()
        card = pool.cards.get(wanted) or next(
            (c for c in pool.cards.values() if c.name.lower() == wanted), None
        )
        return None if card is None else self.pool_card_by_id(card.id)

    def pool_card_by_id(self, card_id: str) -> PoolCard:
        """The pool's card ``card_id``. :raises KeyError: for an unknown id."""
        card = load_card_pool().cards[card_id]
        return PoolCard(card.id, card.name, str(card.type), card.text or "")


class Homm4Campaign:
    """Campaigns (`bot.adapters.CarryOver`; homm4:game-variants.campaigns): a finished
    game's surviving Heroes are kept for its channel (`campaign.save_survivors`), and a
    game started there with the ``campaign`` option gives them back (`campaign.carried_heroes`)."""

    failure_note = (
        "The surviving heroes could not be saved for the campaign's next game "
        "(an error on my side, logged)."
    )

    async def save(
        self, repo: Repository, game: Game, state: GameState, seats: Sequence[Seat]
    ) -> int:
        """`campaign.save_survivors`."""
        return await campaign.save_survivors(repo, game, state, seats)

    async def start_options(
        self, repo: Repository, game: Game, seats: Sequence[Seat], options: dict[str, Any]
    ) -> dict[str, Any]:
        """``options`` with the carried Heroes when the ``campaign`` option is on."""
        if options.get("campaign") is None:
            return options
        heroes = await campaign.carried_heroes(repo, game.channel_id, seats)
        return {**options, "campaign": {"heroes": heroes}}


DECK_LIST_FORM = (
    "A deck list is one card a line (or cards separated by ; or ,), each with its copies: "
    "3x Orc; 2x Wolf; Asylum (one copy). Types may head groups: Units: 3x Orc."
)
"""How a deck list is written (``/deck import``), added to a refusal of one."""


class Homm4Adapter(RulesetAdapter):
    """homm4, the flagship: its command table, buttons and texts (this package), decks
    (`Homm4Decks`) and campaigns (`Homm4Campaign`)."""

    ruleset: ClassVar[str] = "homm4"
    decks: ClassVar[DeckHooks | None] = Homm4Decks()
    carry_over: ClassVar[CarryOver | None] = Homm4Campaign()
    lobby_options: ClassVar[tuple[str, ...]] = ("map_sections", "assembly", "options")
    options_example: ClassVar[str] = "morale luck flying teams=1+3/2+4"

    def read_options_text(self, text: str) -> dict[str, Any]:
        """The text as it is (``options``): `engine_options` reads it with
        `bot.homm4.options_text.parse_options_text` (Advanced Rules and Game Variants)."""
        return {"options": unquote(text)}

    def options_forms(self) -> list[str]:
        """The Advanced Rules' and Game Variants' words (`bot.homm4.options_text`)."""
        return options_text.word_forms()

    def specs_for(self, decision: Decision) -> list[CommandSpec]:
        """The play commands answering ``decision``, without those of advanced rules the
        game does not use (`bot.homm4.commands.available`)."""
        return [s for s in self.specs() if commands.available(s, decision)]

    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Board size and assembly as they are; the ``options`` text (Advanced Rules and
        Game Variants) read by `bot.homm4.options_text.parse_options_text`."""
        found = {
            k: v for k, v in values.items() if k in ("map_sections", "assembly") and v is not None
        }
        text = values.get("options")
        if text is not None:
            found.update(options_text.parse_options_text(str(text)))
        return found

    def check_options(self, options: Any) -> None:
        """Refuse more Terrain Map Sections than the board's (above ground) has.

        :raises BadOption: naming the most.
        """
        if isinstance(options, Homm4Options):
            most = sum(1 for s in board.map_data().sections.values() if not s.underground)
            if options.map_sections > most:
                raise BadOption(f"The board can use at most {most} Terrain Map Sections.")

    def lobby_suggestions(self, option: str, current: str) -> list[tuple[str, str]]:
        """The ``options`` text's words (Advanced Rules and Game Variants,
        `bot.homm4.options_text.suggest_options`); nothing for the other options."""
        return options_text.suggest_options(current) if option == "options" else []

    def options_summary(self, options: Mapping[str, Any]) -> str:
        """Board size, assembly, and the Advanced Rules and variants in effect."""
        base = (
            f"{options.get('map_sections', 4)} Terrain Map Sections, "
            f"{options.get('assembly', 'quick')} assembly"
        )
        extra = options_text.options_text(options)
        return base if extra == "none" else f"{base}, options: {extra}"

    def specs(self) -> tuple[CommandSpec, ...]:
        """`bot.homm4.commands.SPECS`."""
        return commands.SPECS

    def group_descriptions(self) -> Mapping[tuple[str, ...], str]:
        """`bot.homm4.commands.GROUP_DESCRIPTIONS`."""
        return commands.GROUP_DESCRIPTIONS

    def play_paths(self) -> frozenset[tuple[str, ...]]:
        """`bot.homm4.commands.PLAY_COMMANDS`."""
        return frozenset(commands.PLAY_COMMANDS)

    @staticmethod
    def _context(request: PlayRequest) -> commands.PlayContext:
        assert isinstance(request.state, Homm4State)
        return commands.PlayContext(
            state=request.state, seat=request.seat, legal=request.legal, decision=request.decision
        )

    def build_command(
        self, path: tuple[str, ...], request: PlayRequest, options: Mapping[str, Any]
    ) -> dict[str, Any]:
        """`bot.homm4.commands.require_phase`, then `bot.homm4.commands.build_command`."""
        context = self._context(request)
        commands.require_phase(path, context)
        return commands.build_command(path, context, options)

    def suggest(
        self,
        path: tuple[str, ...],
        request: PlayRequest,
        option: str,
        current: str,
        given: Mapping[str, Any],
    ) -> list[tuple[str, str]]:
        """`bot.homm4.commands.suggest`."""
        return commands.suggest(path, self._context(request), option, current, given)

    def order_kinds(self) -> Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """`bot.homm4.commands.ORDER_KINDS` (battle decisions)."""
        return commands.ORDER_KINDS

    def order_command(
        self, state: GameState, seat: int, decision: Decision, orders: Mapping[str, str]
    ) -> Command | None:
        """`order_command` of this module."""
        assert isinstance(state, Homm4State)
        return order_command(state, seat, decision, orders)

    def describe(self, state: GameState, command: Command) -> str:
        """`bot.homm4.describe.describe`."""
        assert isinstance(state, Homm4State)
        return d.describe(state, command)

    def decision_ui(
        self,
        state: GameState,
        seat: int,
        decision: Decision,
        game_id: int,
        legal: Sequence[Command],
        default: Command | None,
    ) -> DecisionUI:
        """`decision_ui` of this module."""
        assert isinstance(state, Homm4State)
        ui = decision_ui(state, seat, decision, game_id, legal, default)
        return DecisionUI(ui.text, ui.components, ui.private)

    def command_from_selection(self, which: str, values: Sequence[str]) -> dict[str, Any]:
        """`command_from_cards` (Risk Stack, Guard reinforcement)."""
        return command_from_cards(which, values)

    def move_note(self, after: GameState, command: Command) -> str:
        """`move_note` of this module (a move stopped early)."""
        assert isinstance(after, Homm4State)
        return move_note(after, command)

    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """`status_lines` of this module."""
        return status_lines(view, names)

    def hand_text(self, state: GameState, seat: int, *, game_id: int, channel_id: int) -> str:
        """`hand_text` of this module (Hand and Risk Stack)."""
        assert isinstance(state, Homm4State)
        return hand_text(state, seat, game_id=game_id, channel_id=channel_id)

    def seat_hidden(self, state: GameState, seat: int) -> tuple[Any, ...]:
        """`seat_hidden` of this module (the seat's Hand and Risk Stack)."""
        assert isinstance(state, Homm4State)
        return seat_hidden(state, seat)

    def has_private_hand(self) -> bool:
        """Hands and Risk Stacks are private."""
        return True

    def card_names(self, current: str) -> list[tuple[str, str]]:
        """Cards of the homm4 card pool whose name or id contains ``current``, names
        starting with it first (≤ 25 ``("Name (type)", card id)`` pairs)."""
        pool = load_card_pool()
        pairs = [(f"{card.name} ({card.type})", card.id) for card in pool.cards.values()]
        return ranked_names(pairs, current, searched=lambda label, cid: (pool.cards[cid].name, cid))

    def picture_after(
        self, before: GameState | None, after: GameState, commands: Sequence[Command]
    ) -> str | None:
        """`picture_after` of this module (board or battlefield, when worth it)."""
        assert isinstance(after, Homm4State)
        earlier = before if isinstance(before, Homm4State) else None
        return picture_after(earlier, after, list(commands))

    def status_picture(self, state: GameState) -> str:
        """The battlefield during a battle, else the board."""
        return "battle" if isinstance(state, Homm4State) and state.battle is not None else "board"

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Posted | None:
        """The board or battlefield through ``renderer`` (None when there is none)."""
        try:
            return renderer.draw(self.ruleset, "battle" if kind == "battle" else "board", view)
        except ValueError:
            return None

    def pictures(self, renderer: Renderer, kind: str, view: Any) -> tuple[Posted, ...]:
        """The focus picture (the hexes around the acting Army, or the Melee Lines), then
        the whole board or battlefield (`focus_first`); none when there is none."""
        try:
            return focus_first(
                renderer, self.ruleset, "battle" if kind == "battle" else "board", view
            )
        except ValueError:
            return ()

    def hand_picture(self, renderer: Renderer, view: Any) -> Posted | None:
        """The Hand and Risk Stack through ``renderer``."""
        return renderer.draw(self.ruleset, "hand", view)


ADAPTERS[Homm4Adapter.ruleset] = Homm4Adapter()
