"""What the bot knows about homm3: its command table, button labels, texts and pictures.

Rule sections: every decision of homm3 (labels and buttons), DESIGN "Private information":
choices among hidden cards, the Adventure turn (it names the Adventure and set-aside cards)
are answered by DM (the engine builds them ``private``); the Combat's moves, attacks and
passes in the channel, card plays with
``/homm3 card play`` (an ephemeral reply) or from the hand DM's list. Importing this
module registers `Homm3Adapter` in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from bot.adapters import (
    ADAPTERS,
    CommandTable,
    DecisionUI,
    Picture,
    RulesetAdapter,
    clip,
    decision_buttons,
    fit_choices,
    focus_first,
    offered_commands,
    ranked_names,
)
from bot.command_table import Choice, OptionSpec
from bot.homm3 import commands as table
from engine.core.model import Command, Decision, GameState, seat_name
from engine.core.words import plural
from engine.homm3 import commands as c
from engine.homm3 import map_commands as mc
from engine.homm3.content import load_content
from engine.homm3.map_turns import HIRE_GOLD

if TYPE_CHECKING:
    from bot.render import Renderer
    from engine.homm3.state import Homm3State

ENDS = ("end_turn", "start_combat", "end_activation", "defend", "pass", "pass_obstacles")

_ORDER = {
    "attack": 0,
    "attack_wall": 1,
    "move": 2,
    "defend": 3,
    "end_activation": 4,
    "pass": 0,
    "choose": 0,
    "deploy": 0,
    "place_obstacle": 1,
}


def select_order(state: Homm3State, legal: Sequence[Command]) -> dict[int, tuple[int, str]]:
    """Sort keys (by ``id`` of the command) that spread a long Battlefield select menu over
    its subjects: each Obstacle token, each unit to deploy, each attack target gets its
    best hex in turn (rank 0 for all of them, then rank 1...; the ranks come before the kind
    of command), so the 25 options Discord shows name every token, unit, target and a few
    moves instead of one token on 25 hexes. Keys are ``(rank, subject)``. "Best":
    Obstacles nearest the board's centre, deployments nearest the middle of the zone's front
    column, attacks with the shortest move, moves ending nearest an enemy unit. Other
    commands get no key (they keep the plain order).
    """
    from engine.homm3 import hexes

    combat = _battle(state).combat
    if combat is None:
        return {}
    centre = "G5"
    active = next((u for u in combat.units if u.number == combat.active), None)
    enemies = [
        u.hex
        for u in combat.units
        if u.alive and u.hex is not None and active is not None and u.seat != active.seat
    ]
    groups: dict[tuple[str, str], list[tuple[int, str, Command]]] = {}
    for cmd in legal:
        subject, hex_label = "", None
        if isinstance(cmd, c.PlaceObstacle):
            subject, hex_label = f"{cmd.token:02d}", cmd.hex
            score = hexes.distance(hex_label, centre)
        elif isinstance(cmd, c.Deploy):
            subject, hex_label = f"{cmd.unit:02d}", cmd.hex
            fronts = {"west": "B5", "east": "L5"}
            owner = next((u.seat for u in combat.units if u.number == cmd.unit), None)
            side = combat.zones.get(owner) if owner is not None else None
            targets = [fronts[side]] if side else list(fronts.values())
            score = min(hexes.distance(hex_label, t) for t in targets)
        elif isinstance(cmd, c.Attack):
            subject = f"{cmd.target:02d}"
            start = active.hex if active is not None else None
            score = 0 if cmd.hex is None or start is None else hexes.distance(start, cmd.hex)
            hex_label = cmd.hex or ""
        elif isinstance(cmd, c.Move):
            hex_label = cmd.hex
            score = min((hexes.distance(cmd.hex, e) for e in enemies), default=0)
        else:
            continue
        groups.setdefault((cmd.type, subject), []).append((score, hex_label or "", cmd))
    keys: dict[int, tuple[int, str]] = {}
    for (_kind, subject), items in groups.items():
        items.sort(key=lambda item: (item[0], item[1]))
        for rank, (_score, _hex, cmd) in enumerate(items):
            keys[id(cmd)] = (rank, subject)
    return keys


def _state(state: GameState) -> Homm3State:
    from engine.homm3.state import Homm3State

    assert isinstance(state, Homm3State)
    return state


def _battle(state: Homm3State) -> Homm3State:
    """The state whose ``combat`` is the Battlefield being fought: a map game's Combat
    board (`engine.homm3.map_combat`), else the game itself (Skirmish, Adventure)."""
    if state.map is not None and state.board is not None:
        return state.board
    return state


def _map_hero(state: Homm3State, which: str) -> Any:
    """The acting seat's ``which`` hero of a map game (None: none, or not a map game)."""
    game = state.map
    if game is None:
        return None
    return next(
        (h for h in game.heroes if h.seat == game.active and h.main == (which == "main")), None
    )


def _way(state: Homm3State, which: str, field: str) -> str:
    """``"north-west "``: the way from the acting seat's hero to ``field`` as the map
    picture shows it (empty when the hero is not found)."""
    from engine.homm3 import map_board

    hero = _map_hero(state, which)
    if hero is None or hero.field == field:
        return ""
    return f"{map_board.compass(hero.field, field)} "


def _tile_centre(pos: tuple[int, int]) -> str:
    from engine.homm3 import map_board

    return map_board.key(*map_board.centre(pos))


def _field_label(state: Homm3State, field: str) -> str:
    """``"Mine (Gold), guarded (I), "``: what a revealed Field holds, with whose Town it
    is (empty for a Field of no revealed tile)."""
    from engine.homm3 import map_board

    game = state.map
    if game is None:
        return ""
    spec = map_board.field_spec(game, field)
    if spec is None:
        return ""
    text = spec.label()
    starts = [t.pos for t in game.tiles if t.kind == "start"]
    owner = next((s for s, p in enumerate(starts) if map_board.tile_fields(p)[0] == field), None)
    if spec.kind == "town" and owner is not None:
        text = "your Town" if owner == game.active else f"{seat_name(owner)}'s Town"
        mark = game.marks.get(field)
        if mark is not None and mark.flag is not None and mark.flag != owner:
            text += f", held by {'you' if mark.flag == game.active else seat_name(mark.flag)}"
    return f"{text}, "


def _unit(state: Homm3State, number: int) -> str:
    from engine.homm3 import combat_core as core

    state = _battle(state)
    if state.combat is None:
        return f"[{number}]"
    for unit in state.combat.units:
        if unit.number == number:
            return core.unit_name(unit)
    return f"[{number}]"


def _card(state: Homm3State, number: int | None) -> str:
    if not number:
        return "City Hall Movement"
    return f"{load_content().card_name(state.cards[number])} #{number}"


def _hero(hero: str) -> str:
    return "Main hero" if hero == "main" else "Secondary hero"


def describe(state: GameState, command: Command, seat: int | None = None) -> str:
    """One line for ``seat``'s homm3 command (may name that seat's own cards).

    A choice's option is read from ``seat``'s open choice only: two seats may choose at
    once (a Skirmish template's set-up Removals), and the other seat's options name its
    private cards. Without ``seat``, only a choice no other seat could mean is read.
    """
    h3 = _state(state)
    content = load_content()
    if isinstance(command, c.Choose):
        if seat is not None:
            choice = h3.choice.get(seat)
        else:
            choice = next(iter(h3.choice.values())) if len(h3.choice) == 1 else None
        # the option's own words, unnumbered: a button's place is its number (the
        # console's !N counts every component of a post); typed answers count from 1
        if choice is not None and command.option < len(choice.options):
            return choice.options[command.option]
        return f"Option {command.option + 1}"
    if isinstance(command, c.Redraw):
        return f"Swap {', '.join(_card(h3, x) for x in command.cards)} using {_card(h3, command.source)}"
    if isinstance(command, c.ResolveEvent):
        return f"Resolve {_card(h3, command.card)}"
    if isinstance(command, c.FightAdventure):
        card = content.combats.get(h3.cards[command.card])
        power = card.levels[command.level - 1].power if card else command.level
        return f"Fight {_card(h3, command.card)} at Combat Power {power} with " + ", ".join(
            content.units[u].name for u in command.units
        )
    if isinstance(command, c.Build):
        for player in h3.seats:
            found = content.factions[player.faction].get(command.building)
            if found is not None:
                return f"Build {found.name} ({found.cost.label()})"
        return f"Build {command.building}"
    if isinstance(command, c.Muster):
        parts = [f"recruit {content.units[u].name}" for u in command.recruit] + [
            f"reinforce {content.units[u].name}" for u in command.reinforce
        ]
        text = "Muster: " + ", ".join(parts)
        return text + (
            f" (discount {', '.join(_card(h3, d) for d in command.discount)})"
            if command.discount
            else ""
        )
    if isinstance(command, c.BuySpell):
        return "Buy a Spell at the Mage Guild" + (
            f" with {_card(h3, command.wisdom)}" if command.wisdom else ""
        )
    if isinstance(command, c.UseAside):
        return (
            f"Use {_card(h3, command.card)} ({'Expert/bottom' if command.option else 'basic/top'})"
        )
    if isinstance(command, mc.MapMove):
        return (
            f"{_hero(command.hero)}: move {_way(h3, command.hero, command.field)}to "
            f"{command.field} ({_field_label(h3, command.field)}1 MP)"
        )
    if isinstance(command, mc.Discover):
        return (
            f"{_hero(command.hero)}: turn up the face-down tile "
            f"{_way(h3, command.hero, _tile_centre(command.pos))}(tile {command.pos[0]},"
            f"{command.pos[1]}; rotation {command.rotation}, 1 MP)"
        )
    if isinstance(command, mc.PlaceTile):
        return (
            f"{_hero(command.hero)}: place your Far tile "
            f"{_way(h3, command.hero, _tile_centre(command.pos))}(tile {command.pos[0]},"
            f"{command.pos[1]}; rotation {command.rotation}, 1 MP)"
        )
    if isinstance(command, mc.Revisit):
        here = _map_hero(h3, command.hero)
        name = _field_label(h3, here.field).rstrip(", ") if here is not None else ""
        return f"{_hero(command.hero)}: Visit {name or 'this Field'} again (1 MP)"
    if isinstance(command, mc.HireHero):
        return (
            f"Hire a Secondary hero on {command.field} "
            f"({_field_label(h3, command.field)}{HIRE_GOLD} Gold)"
        )
    if isinstance(command, mc.RefreshHand):
        if command.discard:
            return (
                f"Discard {', '.join(_card(h3, x) for x in command.discard)}, then draw up to "
                "the Hand Limit"
            )
        return "Draw up to the Hand Limit"
    if isinstance(command, c.PlaceObstacle):
        token = next(t for t in content.board.token if t.number == command.token)
        return f"Place the {token.obstacle.name} (token {command.token}) on {command.hex}"
    if isinstance(command, c.Deploy):
        return f"Deploy {_unit(h3, command.unit)} on {command.hex}"
    if isinstance(command, c.Activate):
        return f"Activate {_unit(h3, command.unit)}"
    if isinstance(command, c.Move):
        return f"Move to {command.hex}"
    if isinstance(command, c.Attack):
        return f"Attack {_unit(h3, command.target)}" + (
            f" from {command.hex}" if command.hex else ""
        )
    if isinstance(command, c.AttackWall):
        return f"Destroy the Wall/Gate at {command.hex}" + (
            f" from {command.move}" if command.move else ""
        )
    if isinstance(command, c.Play):
        target = f" on {_unit(h3, command.unit)}" if command.unit else ""
        if command.hex:
            target += f" at {command.hex}"
        if command.hexes:
            target += f" at {' '.join(command.hexes)}"
        spent = len(command.power)
        paid = f", Empower with {plural(spent, 'card')}" if spent else ""
        return (
            f"Play {_card(h3, command.card)}{' (Expert)' if command.option else ''}{target}{paid}"
        )
    if isinstance(command, c.UseMorale):
        if command.card is None:
            return "Spend the Positive token: " + (
                "draw a card" if command.option == 0 else "cycle cards"
            )
        return f"Use {_card(h3, command.card)}" + (
            f" on {_unit(h3, command.unit)}" if command.unit else ""
        )
    words = {
        "blacksmith": "Blacksmith: pay 6 Gold, Search(2) Artifacts",
        "end_turn": "End the map turn" if h3.map is not None else "End the Adventure turn",
        "start_combat": "Start the Combat (no more Town actions)",
        "pass_obstacles": "Place no Obstacle",
        "defend": "Defend (Defense token)",
        "end_activation": "End the activation",
        "pass": "Play no more cards",
    }
    return words.get(command.type, command.type.replace("_", " "))


def hidden_cards(state: GameState, seat: int) -> tuple[int, ...]:
    """The card numbers only ``seat`` may know: hand, set-aside cards, Scroll, Adventure
    hand, looked-at cards."""
    h3 = _state(state)
    player = h3.player(seat)
    return tuple(
        player.hand
        + player.aside
        + player.scroll
        + player.adventure_hand
        + h3.looking.get(seat, [])
    )


def private_cards(state: GameState) -> set[int]:
    """Every card number hidden from the table (hands, decks, set-aside, Scrolls, looked-at
    cards, the Adventure hands and every face-down deck)."""
    h3 = _state(state)
    out: set[int] = set()
    for player in h3.seats:
        out |= (
            set(player.deck)
            | set(player.hand)
            | set(player.aside)
            | set(player.scroll)
            | set(player.adventure_hand)
        )
    for cards in h3.looking.values():
        out |= set(cards)
    out |= (
        set(h3.ability_deck) | set(h3.artifact_deck) | set(h3.spell_deck) | set(h3.adventure_deck)
    )
    out |= set(h3.positive_deck) | set(h3.negative_deck)
    return out


class Homm3Adapter(RulesetAdapter):
    """homm3's commands (`bot.homm3.commands`), labels, texts and pictures."""

    ruleset: ClassVar[str] = "homm3"
    lobby_options: ClassVar[tuple[str, ...]] = ("mode", "size", "heroes", "siege", "time_limit")
    lobby_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "mode",
            "Heroes III: Skirmish (Combat), Adventure (rounds first) or Map (tiles)",
            choices=(
                Choice("Skirmish", "skirmish"),
                Choice("Adventure", "adventure"),
                Choice("Map", "map"),
            ),
        ),
        OptionSpec(
            "size",
            "Heroes III: short, medium or large (template, or 9/13/16 Adventure rounds)",
            choices=(
                Choice("short", "short"),
                Choice("medium", "medium"),
                Choice("large", "large"),
            ),
        ),
        OptionSpec(
            "heroes",
            "Heroes III: one hero per seat, e.g. Catherine, Deemer (none: dealt)",
            max_length=100,
        ),
        OptionSpec(
            "siege",
            "Heroes III: the final Combat is a Siege of the second player's Town",
            "boolean",
        ),
        OptionSpec(
            "time_limit",
            "Heroes III map game: Combats against Neutral Units keep the time limit",
            "boolean",
        ),
    )
    """The Heroes III settings of the options: text of /game new and /game options."""
    options_example: ClassVar[str] = "mode:adventure size:medium heroes:Catherine,Deemer"
    command_table: ClassVar[CommandTable | None] = table

    def order_kinds(self) -> Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """`bot.homm3.commands.ORDER_KINDS` (card windows, Obstacles, deployment)."""
        return table.ORDER_KINDS

    def order_command(
        self, state: GameState, seat: int, decision: Decision, orders: Mapping[str, str]
    ) -> Command | None:
        """Pass a card window (an attack, an enemy Spell, the Combat's start, a
        Resurrection) or the Obstacle placing, or deploy like the computer, when the seat's
        standing orders say so."""
        if (
            decision.kind in ("attack_window", *table.CARD_WINDOWS)
            and orders.get("cards") == "pass"
        ):
            return c.PassWindow()
        if decision.kind == "place_obstacle" and orders.get("obstacles") == "pass":
            return c.PassObstacles()
        if decision.kind == "deploy" and orders.get("deploy") == "auto":
            import random

            from engine.homm3 import ai

            return ai.ai_command(_state(state), seat, random.Random(state.version))
        return None

    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``heroes`` is typed as a list of hero names (``Catherine, Sandro``)."""
        options = super().engine_options(values)
        if "heroes" in options and isinstance(options["heroes"], str):
            names = [
                h.strip().lower()
                for h in options["heroes"].replace(";", ",").split(",")
                if h.strip()
            ]
            options["heroes"] = names
        return options

    def options_summary(self, options: Mapping[str, Any]) -> str:
        """Mode, size, heroes and Siege (the map game: its scenario and time limit)."""
        mode = options.get("mode", "skirmish")
        if mode == "map":
            from engine.homm3.map_content import load_map

            scenario = options.get("scenario", "border-clash")
            found = load_map().scenarios.get(scenario)
            text = f"Map game, {found.name if found else scenario}"
            if options.get("heroes"):
                text += ", heroes " + ", ".join(str(h) for h in options["heroes"])
            if options.get("time_limit"):
                text += ", Neutral Combats keep the time limit"
            return text
        size = options.get("size", "short")
        text = f"{mode.capitalize()}, {size}" + (
            " (9/13/16 rounds by size)" if mode == "adventure" else " template"
        )
        if options.get("heroes"):
            text += ", heroes " + ", ".join(str(h) for h in options["heroes"])
        if options.get("siege"):
            text += ", final Combat is a Siege"
        return text

    def card_lookup(self, name: str) -> tuple[str, str] | None:
        """A homm3 unit (both sides and abilities), hero, Might & Magic card, Adventure or
        Morale card, Town building or the Arrow Tower, by name or id, in our own text."""
        return component_text(name)

    def card_names(self, current: str) -> list[tuple[str, str]]:
        """Names of homm3 components matching ``current`` (≤ 25, name starts first); each
        value is the component's key (``event:scholar_event``), as names repeat across
        kinds (the Scholar Ability and the Scholar Adventure card)."""
        found = ranked_names(
            _components(), current, searched=lambda label, key: (label.split(" (")[0],)
        )
        return fit_choices(found)

    def describe(self, state: GameState, command: Command) -> str:
        """`describe` (a choice's option only when one seat is choosing)."""
        return describe(state, command)

    def describe_for(self, state: GameState, seat: int, command: Command) -> str:
        """`describe` of ``seat``'s command (its own choice's option)."""
        return describe(state, command, seat)

    def decision_ui(
        self,
        state: GameState,
        seat: int,
        decision: Decision,
        game_id: int,
        legal: Sequence[Command],
        default: Command | None,
    ) -> DecisionUI:
        """Buttons from the legal commands; in the channel, commands naming cards are left
        out (play cards with ``/homm3 card play`` or from your hand DM)."""
        private = decision.private
        offered = offered_commands(state, seat, decision, legal)
        h3 = _state(state)
        spread = select_order(h3, offered)
        ui = decision_buttons(
            decision,
            game_id,
            state.version,
            offered,
            default if default in offered else None,
            lambda cmd: describe(h3, cmd, seat),
            typed=self.typed_command,
            ends=ENDS,
            priority=lambda cmd: (
                spread.get(id(cmd), (0, ""))[0],
                _ORDER.get(cmd.type, 9),
                spread.get(id(cmd), (0, ""))[1],
                describe(h3, cmd, seat),
            ),
        )
        return DecisionUI(ui.text, ui.components, private)

    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """Mode and round, each player in one line, the Combat's state (the map game: its
        heroes' Fields and MP)."""
        if view.phase == "over":
            head = f"Game over: {view.reason}"
        elif view.map is not None and view.combat is None:
            head = f"Map game, round {view.round} of {view.map.rounds}: {seat_name(view.map.active)} to act."
        elif view.mode == "adventure" and view.phase == "adventure":
            head = f"Adventure round {view.round} of {view.rounds}."
        elif view.combat is not None:
            head = f"Battlefield Combat, round {view.combat.round}; Initiative token: {seat_name(view.combat.token)}."
        else:
            head = f"{view.mode.capitalize()} ({view.template}): preparing the decks."
        lines = [head]
        for p in view.players:
            who = names.get(p.seat, p.colour)
            army = (
                ", ".join(f"{'Pack' if u.pack else 'Few'} of {u.name}" for u in p.army)
                or "no units"
            )
            line = (
                f"{p.colour} ({who}): {p.hero_name} Level {p.level} — hand {p.hand}, deck {p.deck}"
            )
            if view.map is not None:
                heroes = [h for h in view.map.heroes if h.seat == p.seat]
                line += "".join(
                    f" — {'Main' if h.main else 'Secondary'} hero on {h.field} ({h.mp} MP)"
                    for h in heroes
                )
                line += f" — {_wealth(p)}"
            if view.mode == "adventure" and view.phase == "adventure":
                line += f" — {_wealth(p)}; {army}"
            if p.positive or p.negative:
                line += " — Morale: " + ", ".join(
                    [c.name for c in p.positive] + [f"-{c.name}" for c in p.negative]
                )
            lines.append(line)
        if view.combat is not None and view.combat.stage == "round":
            lines.append("Next: " + ", ".join(f"[{n}]" for n in view.combat.order[:8]))
            if view.combat.last_attack:
                lines.append(f"Last attack: {view.combat.last_attack}")
        return lines

    def hand_text(self, state: GameState, seat: int, *, game_id: int, channel_id: int) -> str:
        """The seat's hand, set-aside cards, Scroll, Adventure cards, open choice and the
        cards it can play now (with the command to type)."""
        from engine.homm3 import decisions

        h3 = _state(state)
        player = h3.player(seat)
        lines = [f"**{seat_name(seat)}** in game #{game_id} (<#{channel_id}>)"]

        def listing(title: str, cards: list[int]) -> None:
            if cards:
                lines.append(f"{title}: " + ", ".join(_card(h3, x) for x in cards))

        listing("Hand", player.hand)
        if not player.hand:
            lines.append("Hand: empty")
        listing("Set aside", player.aside)
        listing("Spell Scroll", player.scroll)
        listing("Adventure cards", player.adventure_hand)
        listing("Looking at", h3.looking.get(seat, []))
        choice = h3.choice.get(seat)
        if choice is not None:
            lines.append(f"Choice: {choice.prompt}")
            lines += [f"  {i}: {text}" for i, text in enumerate(choice.options[:15], start=1)]
            lines.append("Answer with /homm3 choice pick option:N")
        owed = [d for d in decisions.pending(h3) if d.seat == seat]
        if owed and owed[0].kind in ("activation", "attack_window", *table.CARD_WINDOWS):
            plays = [
                cmd for cmd in decisions.legal_commands(h3, seat) if cmd.type in ("play", "morale")
            ]
            if plays:
                lines.append("You can play now (type the command):")
                for cmd in plays[:10]:
                    path, options = table.slash_for(cmd)
                    typed = " ".join(f"{k}:{v}" for k, v in options.items())
                    lines.append(f"• {describe(h3, cmd, seat)} — `/{' '.join(path)} {typed}`")
        return clip("\n".join(lines), 1900)

    def seat_hidden(self, state: GameState, seat: int) -> tuple[Any, ...]:
        """The seat's hidden cards and its open choice."""
        h3 = _state(state)
        choice = h3.choice.get(seat)
        return (hidden_cards(state, seat), choice.model_dump_json() if choice else None)

    def has_private_hand(self) -> bool:
        """Hands, decks, set-aside cards and Adventure cards are private."""
        return True

    def picture_after(
        self, before: GameState | None, after: GameState, commands: Sequence[Command]
    ) -> str | None:
        """The Battlefield after Combat moves (placing, moving, attacking, a new round),
        the Adventure state at each new round and when the game ends; in the map game the
        map after every move on it (the Battlefield during its Combats)."""
        h3 = _state(after)
        if h3.map is not None:
            return _map_picture(before, h3, commands)
        if before is None or h3.phase == "over":
            return "battle" if h3.combat is not None else "adventure"
        old = _state(before)
        if h3.phase == "combat":
            if old.phase != "combat" or (
                old.combat and h3.combat and old.combat.round != h3.combat.round
            ):
                return "battle"
            shown = {
                "move",
                "attack",
                "attack_wall",
                "deploy",
                "pass",
                "play",
                "place_obstacle",
                "choose",
            }
            if (
                any(cmd.type in shown for cmd in commands)
                and h3.combat is not None
                and h3.combat.stage != "obstacles"
            ):
                return "battle"
            return None
        if old.round != h3.round or old.phase != h3.phase:
            return "adventure"
        return None

    def status_picture(self, state: GameState) -> str:
        """The Battlefield during the Combat, else the map (map game) or the Adventure
        state."""
        h3 = _state(state)
        if h3.map is not None:
            return "battle" if h3.board is not None else "map"
        return "battle" if h3.combat is not None else "adventure"

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Picture | None:
        """The Battlefield, the map or the Adventure state (`rendering.homm3`, public views
        only)."""
        return renderer.draw(self.ruleset, _shown(kind, view), view)

    def pictures(self, renderer: Renderer, kind: str, view: Any) -> tuple[Picture, ...]:
        """The Battlefield around the active unit, the map around the acting Main hero or
        the Adventure panel of the player to act, then the whole picture (`focus_first`)."""
        return focus_first(renderer, self.ruleset, _shown(kind, view), view)

    def hand_picture(self, renderer: Renderer, view: Any) -> Picture | None:
        """The seat's private cards."""
        return renderer.draw(self.ruleset, "hand", view)


_MAP_SHOWN = frozenset(
    {"map_move", "discover", "place_tile", "revisit", "hire_hero", "end_turn", "refresh"}
)
"""Map-game commands after which the map is posted again."""
_BATTLE_SHOWN = frozenset(
    {"move", "attack", "attack_wall", "deploy", "pass", "play", "place_obstacle", "choose"}
)
"""Combat commands after which the Battlefield is posted again."""


def _map_picture(
    before: GameState | None, after: Homm3State, commands: Sequence[Command]
) -> str | None:
    """The map game's picture after ``commands``: the Battlefield when a Combat starts, at a
    new Combat round and after moves on it; the map when a Combat ends, at the game's end
    and after every move of a map turn."""
    old = _state(before) if before is not None else None
    board = after.board
    if board is not None and board.combat is not None:
        old_board = old.board if old is not None else None
        if old_board is None or old_board.combat is None:
            return "battle"
        if old_board.combat.round != board.combat.round:
            return "battle"
        shown = any(cmd.type in _BATTLE_SHOWN for cmd in commands)
        return "battle" if shown and board.combat.stage != "obstacles" else None
    if old is None or after.phase == "over" or old.board is not None:
        return "map"
    return "map" if any(cmd.type in _MAP_SHOWN for cmd in commands) else None


def _shown(kind: str, view: Any) -> str:
    """The picture kind drawn for a requested ``kind``: the Battlefield only while a
    Combat runs, else the map (map game) or the Adventure state."""
    if kind == "battle" and view.combat is not None:
        return "battle"
    return "map" if view.map is not None else "adventure"


def _cost(cost: Any) -> str:
    parts = [
        f"{cost.gold} Gold" if cost.gold else "",
        f"{cost.materials} Building Materials" if cost.materials else "",
        plural(cost.valuables, "Valuable") if cost.valuables else "",
    ]
    return ", ".join(p for p in parts if p) or "nothing"


def _wealth(player: Any) -> str:
    """``"7 Gold, 2 Building Materials, 1 Valuable"``: a player's Resources in a view."""
    return (
        f"{player.gold} Gold, {player.materials} Building Materials, "
        f"{plural(player.valuables, 'Valuable')}"
    )


_HALL = {
    "movement": "+1 Movement for this round's redraw of Adventure cards",
    "reinforce_bronze": "a free Reinforcement of a Bronze unit on its Few side",
    "valuables": "1 Valuable",
}

_BUILDING_TEXT = {
    "citadel": "Needed to Reinforce units (Few to Pack); in a Siege it gives the Walls, "
    "the Gate and the Arrow Tower.",
    "morale_income": "Positive Morale at each Resource round.",
    "blacksmith": "Once per turn: pay 6 Gold to Search(2) the Artifact deck.",
    "amplifier": "At the start of each of your Adventure turns you may take a Necromancy "
    "card from the Ability deck.",
    "cover": "When the final Combat begins, the enemy discards a random card.",
    "vortex": "At the start of each Combat round you may discard a card, shuffle your "
    "discard pile into your deck and Search(3) it.",
}
"""What each Town building does (our words; the City Hall, Mage Guild and Dwellings are
described from their faction's numbers)."""


def _building_text(faction: Any, building: Any) -> str:
    if building.effect == "city_hall":
        hall = faction.city_hall
        return f"Each Resource round: {hall.gold} Gold, or {_HALL[hall.alternative]}."
    if building.effect == "mage_guild":
        return (
            "When built, Search(2) the Spell deck twice; from the next round the Spell Book "
            f"Token buys a Spell for {faction.spell_cost} Gold (Search(2) the Spell deck)."
        )
    if building.effect == "dwelling":
        tier = str(building.tier).capitalize()
        return f"Lets the Population Token recruit the faction's {tier} units."
    return _BUILDING_TEXT[building.effect]


@cache
def _components() -> tuple[tuple[str, str], ...]:
    """``(label, key)`` of every homm3 component a player may look up with /card (built
    once)."""
    c = load_content()
    found = [
        (f"{u.name} (unit, {c.factions[u.faction].name})", f"unit:{u.id}") for u in c.units.values()
    ]
    found += [
        (f"{h.name} (hero, {c.factions[h.faction].name})", f"hero:{h.id}")
        for h in c.heroes.values()
    ]
    found += [(f"{card.name} ({card.type_line})", f"card:{card.id}") for card in c.cards.values()]
    found += [(f"{e.name} (Adventure Event)", f"event:{e.id}") for e in c.events.values()]
    found += [(f"{k.name} (Adventure Combat)", f"combat:{k.id}") for k in c.combats.values()]
    found += [(f"{m.name} (Positive Morale)", f"positive:{m.id}") for m in c.positive.values()]
    found += [(f"{m.name} (Negative Morale)", f"negative:{m.id}") for m in c.negative.values()]
    for faction_id, faction in c.factions.items():
        found += [
            (f"{b.name} ({faction.name} building)", f"building:{faction_id}:{b.id}")
            for b in faction.building
        ]
    found.append(("Arrow Tower (Siege)", "tower:arrow_tower"))
    return tuple(found)


def _unit_text(unit: Any) -> str:
    c = load_content()
    lines = [
        f"{c.factions[unit.faction].name}, {unit.tier.capitalize()}, {unit.kind.capitalize()}. "
        f"Recruit (Few): {_cost(unit.recruit)}; Reinforce (to Pack): {_cost(unit.reinforce)}."
    ]
    for label, side in (("Few", unit.few), ("Pack", unit.pack)):
        line = (
            f"{label}: Attack {side.attack}, Defense {side.defense}, Health {side.health}, "
            f"Initiative {side.initiative}"
        )
        if side.ability:
            ability = c.unit_abilities[side.ability]
            line += f"; {ability.name} ({ability.trigger}): {ability.text}"
        lines.append(line.rstrip(".") + ".")
    return "\n".join(lines)


def component_text(name: str) -> tuple[str, str] | None:
    """``(title, text)`` of the homm3 unit, hero, card, Adventure or Morale card, building
    or the Arrow Tower called ``name`` (its name, id or /card key); None when none is."""
    c = load_content()
    wanted = name.strip().lower()
    for label, key in _components():
        kind, _, ident = key.partition(":")
        title = label.split(" (")[0]
        if wanted not in (title.lower(), key.lower(), ident.lower()):
            continue
        if kind == "unit":
            return title, _unit_text(c.units[ident])
        if kind == "hero":
            h = c.heroes[ident]
            ability = c.cards[h.ability].name
            specialty = ", ".join(c.cards[s].name for s in h.specialty)
            return title, (
                f"{c.factions[h.faction].name} {h.hero_class}, a {h.type.capitalize()} hero. "
                f"Starting deck: {h.attack} Attack, {h.defense} Defense, {h.power} Power, "
                f"{h.knowledge} Knowledge, {1 if h.type == 'might' else 2} Magic Arrow, "
                f"{ability} and the Level I Specialty card. Specialty cards: {specialty}."
            )
        if kind == "card":
            card = c.cards[ident]
            lines = [card.type_line]
            for _index, expert, effect in card.effects():
                lines.append(("Expert: " if expert else "") + effect.text)
            if card.kind == "spell":
                lines.append("Or discard it: +1 Empower.")
            return title, "\n".join(lines)
        if kind == "event":
            return title, "Adventure Event. " + c.events[ident].text
        if kind == "combat":
            combat = c.combats[ident]
            levels = "; ".join(f"Combat Power {lv.power}: {lv.text}" for lv in combat.levels)
            return title, f"Adventure Combat. {levels}."
        if kind in ("positive", "negative"):
            morale = (c.positive if kind == "positive" else c.negative)[ident]
            return title, f"{kind.capitalize()} Morale card. {morale.text}"
        if kind == "building":
            faction_id, _, building_id = ident.partition(":")
            faction = c.factions[faction_id]
            building = next(b for b in faction.building if b.id == building_id)
            return title, (
                f"{faction.name} building, costs {_cost(building.cost)}. "
                + _building_text(faction, building)
            )
        tower = c.arrow_tower
        return title, (
            f"The Siege defender's Ranged unit off the board: Attack {tower.attack}, Defense "
            f"{tower.defense}, Health {tower.health}, Initiative {tower.initiative}; never "
            "penalised, hit only by Ranged attacks and cards, falls with the last Wall or Gate."
        )
    return None


ADAPTERS[Homm3Adapter.ruleset] = Homm3Adapter()
