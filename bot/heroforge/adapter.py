"""What the bot knows about Hero Forge: its commands, words, texts and pictures.

Rule sections: heroforge:inventory (the inventory text and sheet), heroforge:turns (which
pictures follow which moves), every decision of heroforge (buttons and labels).

Hero Forge has no hidden information: every decision is answered in the channel, and
``/hand`` shows the player's own inventory sheet (anyone could read it at the table).
Importing this module registers `HeroforgeAdapter` in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from bot.adapters import (
    ADAPTERS,
    CommandTable,
    DecisionUI,
    Picture,
    PlayRequest,
    RulesetAdapter,
    decision_buttons,
    focus_first,
)
from bot.command_table import Choice, OptionSpec
from bot.heroforge import commands as table
from engine.core.model import Command, Decision, GameState, seat_name
from engine.heroforge import commands as c
from engine.heroforge.catalog import EnchantmentSpec, load_catalog

if TYPE_CHECKING:
    from bot.render import Renderer
    from engine.heroforge.state import HeroforgeState

ENDS = ("end_buying", "end_turn", "skip_move", "stay", "skip_shift", "let_go")
"""Commands shown as their own green button when a decision has many choices."""

STEP_WORDS = {
    "buy1": "buying before moving",
    "move": "moving",
    "moving": "moving (rolled)",
    "buy2": "buying after moving",
    "combat": "combat",
}

_ORDER = {
    "attack": 0,
    "fight_back": 0,
    "move": 1,
    "buy_unit": 2,
    "buy_fort": 3,
    "man_fort": 4,
    "unman_fort": 5,
    "shift": 6,
    "pass_enchantment": 7,
}


def _state(state: GameState) -> Any:
    from engine.heroforge.state import HeroforgeState

    assert isinstance(state, HeroforgeState)
    return state


def describe(state: GameState, command: Command) -> str:
    """One line for a Hero Forge command (``"Buy 2 Archer (level 3)"``)."""
    hf = _state(state)
    request = PlayRequest(state, 0, (), None)
    catalog = load_catalog()
    if isinstance(command, c.ChooseHero):
        hero = catalog.heroes.get(command.hero)
        if hero is None:
            return f"Choose {command.hero}"
        return f"Choose {hero.name} ({hero.faction or 'no faction'}, cap {hero.cap}, speed {hero.speed:+d})"
    if isinstance(command, c.PlaceHero):
        return f"Start on plate {command.plate}"
    if isinstance(command, c.Shift):
        return f"Shift plate {command.plate} {command.direction}"
    if isinstance(command, c.BuyUnit):
        unit = catalog.units[command.level]
        many = f"{command.count} " if command.count > 1 else ""
        price = ""
        if hf.phase == "play" and hf.player(hf.active).hero is not None:
            from engine.heroforge import effects

            price = f", {effects.unit_price(hf, hf.active, command.level)}e"
        return f"Buy {many}{unit.name} (level {command.level}{price})"
    if isinstance(command, c.BuyFort):
        price = _fort_price(hf)
        return f"Build a fort here{price}, step {command.step}"
    if isinstance(command, c.ManFort | c.UnmanFort):
        units = " ".join(f"#{u}" for u in command.units)
        verb = "Man" if isinstance(command, c.ManFort) else "Unman"
        return (
            f"{verb} F{command.fort} with {units}"
            if verb == "Man"
            else f"Take {units} from F{command.fort}"
        )
    if isinstance(command, c.PassEnchantment):
        return f"Pay 1000e: pass the enchantment to {seat_name(command.to)}"
    if isinstance(command, c.Move):
        return f"Move {command.distance} {command.direction}{_move_end(hf, command)}"
    if isinstance(command, c.Attack):
        return f"Attack {table.target_label(request, command.target)}"
    if isinstance(command, c.FightBack):
        return f"Fight back at {table.target_label(request, command.target)}"
    words = {
        "skip_shift": "Do not shift",
        "steal": "Pay 1000e: steal it",
        "let_go": "Let it go",
        "end_buying": _end_buying_label(hf),
        "roll_move": "Roll the D6 to move",
        "skip_move": "Do not move",
        "stay": "Stay",
        "end_turn": "End the turn",
        "retreat": f"Retreat (D10 over {_retreat_needs(hf)})",
    }
    return words.get(command.type, command.type)


def _end_buying_label(hf: HeroforgeState) -> str:
    """What ending a buying step leads to: moving (the first), combat when an enemy hero
    or fort is on the hero's plate (the second), else the end of the turn."""
    from engine.heroforge import combat

    if hf.step == "buy1":
        return "End buying (to moving)"
    if hf.phase == "play" and combat.attack_targets(hf, hf.active):
        return "End buying (to combat)"
    return "End buying (ends the turn)"


def _no_buying(hf: HeroforgeState, seat: int) -> str:
    """`` Nothing to buy: …`` — why a buying step offers only its end (in combat, a
    contested or foreign plate, a full unit cap, too little economy); '' when unknown."""
    from engine.heroforge import purchase

    if hf.player(seat).at is None:
        return ""
    problem = purchase.trade_problem(hf, seat) or purchase.buy_unit_problem(hf, seat, 1, 1)
    return f" Nothing to buy: {problem}" if problem else ""


def _fort_price(hf: HeroforgeState) -> str:
    """`` (400e)``: what a fort on the active hero's plate costs now ('' when unknown)."""
    from engine.heroforge import effects

    player = hf.player(hf.active)
    if hf.phase != "play" or player.at is None:
        return ""
    price = effects.fort_price(hf, hf.active, player.at.plate)
    return "" if price is None else f" ({price}e)"


def _move_end(hf: HeroforgeState, command: c.Move) -> str:
    """`` to plate B``: where a legal move ends ('' when it is not one now)."""
    from engine.heroforge import movement

    if hf.phase != "play" or hf.step != "moving" or hf.player(hf.active).at is None:
        return ""
    try:
        walked = movement.path(hf, hf.active, command.direction, command.distance)
    except ValueError:
        return ""
    return f" to plate {walked[-1].plate}" if walked else ""


def _retreat_needs(hf: HeroforgeState) -> int:
    """The D10 roll the defender must beat to retreat (5, Kestrel 3)."""
    from engine.heroforge import effects

    seat = hf.defence.defender if hf.defence is not None else hf.active
    return effects.retreat_needs(hf, seat) if hf.player(seat).hero else effects.DEFAULT_RETREAT


def inventory_text(state: GameState, seat: int) -> list[str]:
    """The inventory of ``seat`` in lines (heroforge:inventory), then the game's two
    enchantment lists with what each enchantment does (heroforge:enchantment-lists: a
    written list is seen nowhere else in full)."""
    from engine.heroforge import effects

    hf = _state(state)
    player = hf.player(seat)
    if player.hero is None:
        return [
            f"{seat_name(seat)}: no hero chosen yet; economy {player.economy}e.",
            *_list_lines(hf, 60),
        ]
    hero = effects.hero_of(hf, seat)
    lines = [
        f"**{seat_name(seat)} — {hero.name}** ({hero.faction or 'no faction'})"
        + ("" if player.alive else " — killed")
    ]
    if not player.alive:
        return lines + _list_lines(hf, sum(len(line) + 1 for line in lines))
    where = f"plate {player.at.plate}" if player.at else "not placed"
    lines.append(
        f"Economy {player.economy}e · units {effects.military(hf, seat)}/cap "
        f"{effects.cap(hf, seat)} · speed {hero.speed:+d} (now "
        f"{effects.speed(hf, seat) if player.at else hero.speed:+d}) · on {where}"
    )
    if player.at is not None:
        army = (
            ", ".join(f"#{u.id} L{level}" for u, level in effects.army_levels(hf, seat)) or "none"
        )
        lines.append(f"Army: {army}")
    forts = [f for f in hf.forts if f.owner == seat]
    if forts:
        lines.append(
            "Forts: "
            + "; ".join(
                f"F{f.id} on {f.at.plate} "
                + (
                    ("(" + " ".join(f"#{u.id} L{u.level}" for u in f.units) + ")")
                    if f.units
                    else "(unmanned)"
                )
                for f in forts
            )
        )
    carried = player.enchantment
    lines.append("Enchantment: " + (carried.spec.stacked(carried.count) if carried else "none"))
    lines += [f"• {a.text}" for a in hero.abilities]
    return lines + _list_lines(hf, sum(len(line) + 1 for line in lines))


LISTS_BUDGET = 1400
"""Characters the inventory text may reach with the lists; the rest of a 2000-character
message is left for the decision owed, which `/hand` appends."""


def _list_lines(hf: Any, used: int = 0) -> list[str]:
    """The two enchantment lists, each enchantment with what it does; shorter forms (no
    kind and faction tags, then names only) when the full one would pass `LISTS_BUDGET`
    after ``used`` characters."""

    def lines(entry: Callable[[EnchantmentSpec], str]) -> list[str]:
        return [
            f"Enchantment list {scenario} ({lst.name}, scenario roll {scenario}): "
            + "; ".join(f"{i}. {entry(spec)}" for i, spec in enumerate(lst.enchantments, 1))
            for scenario, lst in ((1, hf.list1), (5, hf.list5))
        ]

    forms: list[Callable[[EnchantmentSpec], str]] = [
        lambda spec: spec.summary(),
        lambda spec: f"{spec.name}: {spec.effect_text()}",
        lambda spec: spec.name,
    ]
    for form in forms:
        found = lines(form)
        if used + sum(len(line) + 1 for line in found) <= LISTS_BUDGET:
            return found
    return lines(forms[-1])


class HeroforgeAdapter(RulesetAdapter):
    """Hero Forge's commands (`bot.heroforge.commands`), texts and pictures."""

    ruleset: ClassVar[str] = "heroforge"
    lobby_options: ClassVar[tuple[str, ...]] = ("layout", "board", "list1", "list5")
    lobby_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "layout",
            "Hero Forge: a ready-made board (auto: one made for the player count)",
            choices=tuple(Choice(name, value) for name, value in table.LAYOUT_CHOICES),
        ),
        OptionSpec(
            "board",
            "Hero Forge: your own grid of plates, e.g. PL GR PL / FO . HI / PL S PL",
            max_length=2000,
        ),
        OptionSpec(
            "list1",
            "Hero Forge: list for roll 1: fortunes, omens, shifting_sands or 10 of Name: effect +N",
            max_length=4000,
        ),
        OptionSpec(
            "list5",
            "Hero Forge: list for roll 5 (same forms as list1)",
            max_length=4000,
        ),
    )
    """The Hero Forge settings of the options: text of /game new and /game options."""
    options_example: ClassVar[str] = "layout:frontier list1:shifting_sands"
    command_table: ClassVar[CommandTable | None] = table

    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``board`` is the engine's ``grid`` (a custom board); the rest keep their names."""
        options = super().engine_options(values)
        if "board" in options:
            options["grid"] = options.pop("board")
            options["layout"] = "custom"
        return options

    def engine_keys(self, setting: str) -> tuple[str, ...]:
        """``board`` is the engine's ``grid`` and makes the layout custom: ``board:none``
        goes back to a ready-made board."""
        return ("grid", "layout") if setting == "board" else (setting,)

    def options_summary(self, options: Mapping[str, Any]) -> str:
        """The board (a custom grid as typed, rows joined by ``/``) and the two lists."""
        grid = str(options.get("grid") or "")
        rows = [" ".join(row.split()) for row in re.split(r"[/\n]", grid) if row.strip()]
        board = (
            f"custom board {' / '.join(rows)}" if rows else f"board {options.get('layout', 'auto')}"
        )
        lists = []
        for key in ("list1", "list5"):
            value = str(options.get(key) or ("fortunes" if key == "list1" else "omens"))
            lists.append(value if ":" not in value else "a written list")
        return f"{board}, enchantment lists {lists[0]} (roll 1) and {lists[1]} (roll 5)"

    def describe(self, state: GameState, command: Command) -> str:
        """`describe`."""
        return describe(state, command)

    def decision_ui(
        self,
        state: GameState,
        seat: int,
        decision: Decision,
        game_id: int,
        legal: Sequence[Command],
        default: Command | None,
    ) -> DecisionUI:
        """Buttons (a select menu when there are many choices) from the legal commands;
        a defender who may not retreat, or a buyer who may buy nothing, is told why
        (heroforge:combat, heroforge:economy)."""
        ui = decision_buttons(
            decision,
            game_id,
            state.version,
            legal,
            default,
            lambda cmd: describe(state, cmd),
            typed=self.typed_command,
            ends=ENDS,
            priority=lambda cmd: (
                _ORDER.get(cmd.type, 9),
                getattr(cmd, "level", 0),
                describe(state, cmd),
            ),
        )
        note = ""
        if decision.kind == "defend" and not any(cmd.type == "retreat" for cmd in legal):
            note = (
                " No retreat: you own no uncontested land (a plate with your fort and no "
                "hero on it) to retreat to."
            )
        if decision.kind == "buy" and all(cmd.type == "end_buying" for cmd in legal):
            note = _no_buying(_state(state), seat)
        return DecisionUI(ui.text + note, ui.components, ui.private) if note else ui

    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """Round, whose turn, each player's inventory in one line, combats, the lists."""
        lines = [
            f"Round {view.round}, turn {view.turn + 1}: **{seat_name(view.active)}** — "
            f"{STEP_WORDS.get(view.step, view.step)}."
            if view.phase == "play"
            else f"Setting up: {view.phase.replace('_', ' ')}."
        ]
        for p in view.players:
            who = names.get(p.seat, p.colour)
            if p.hero_name is None:
                lines.append(f"{p.colour} ({who}): choosing a hero")
                continue
            if not p.alive:
                lines.append(f"{p.colour} ({who}): {p.hero_name} — killed")
                continue
            ench = f", {p.enchantment.summary}" if p.enchantment else ""
            lands = f", lands {','.join(p.lands)}" if p.lands else ""
            lines.append(
                f"{p.colour} ({who}): {p.hero_name} on {p.plate}, {p.economy}e, units "
                f"{p.military}/{p.cap}{lands}{ench}"
            )
        for combat in view.combats:
            other = (
                f"fort F{combat.fort}" if combat.fort else f"{seat_name(combat.defender)}'s hero"
            )
            lines.append(
                f"⚔️ {seat_name(combat.attacker)} is in combat with {other} on {combat.plate}."
            )
        for title, lst in (("List 1", view.list1), ("List 5", view.list5)):
            names_only = ", ".join(f"{i}. {e.split(':')[0]}" for i, e in enumerate(lst.entries, 1))
            lines.append(f"{title} ({lst.name}): {names_only}")
        return lines

    def card_lookup(self, name: str) -> tuple[str, str] | None:
        """A land, unit, hero or ready-made enchantment by name, code or id
        (`bot.heroforge.components.lookup`); None for any other name (/card then refuses,
        naming the closest: never another game's card)."""
        from bot.heroforge.components import lookup

        return lookup(name)

    def card_names(self, current: str) -> list[tuple[str, str]]:
        """Lands, units, heroes and ready-made enchantments matching ``current``."""
        from bot.heroforge.components import suggestions

        return suggestions(current)

    def hand_text(self, state: GameState, seat: int, *, game_id: int, channel_id: int) -> str:
        """The seat's inventory (nothing in Hero Forge is hidden)."""
        head = f"Game #{game_id} (<#{channel_id}>): your inventory"
        return "\n".join([head, *inventory_text(state, seat)])

    def picture_after(
        self, before: GameState | None, after: GameState, commands: Sequence[Command]
    ) -> str | None:
        """The board when the turn passes, a hero or plate moves, a fort is built or
        combat is fought, or the game starts or ends; None after plain purchases."""
        hf = _state(after)
        if before is None or hf.phase == "over":
            return "board"
        old = _state(before)
        if old.active != hf.active or old.turn != hf.turn or old.phase != hf.phase:
            return "board"
        shown = {"move", "place_hero", "shift", "buy_fort", "attack", "fight_back", "retreat"}
        return "board" if any(cmd.type in shown for cmd in commands) else None

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Picture | None:
        """The board of land plates (`rendering.heroforge`)."""
        return renderer.draw(self.ruleset, "board", view)

    def pictures(self, renderer: Renderer, kind: str, view: Any) -> tuple[Picture, ...]:
        """The plates around the active hero, then the whole board (`focus_first`)."""
        return focus_first(renderer, self.ruleset, "board", view)

    def hand_picture(self, renderer: Renderer, view: Any) -> Picture | None:
        """The seat's inventory sheet."""
        return renderer.draw(self.ruleset, "hand", view)


ADAPTERS[HeroforgeAdapter.ruleset] = HeroforgeAdapter()
