"""What the bot knows about mmh: its command table, button labels, texts and pictures.

Rule sections: every decision of mmh (labels and buttons); DESIGN "Private information":
scrolls are held face down and the cards drawn for a keep-one choice reach only their
owner, so those choices (keep a card, make room for a scroll, search a Dragon Vein) are
answered by DM (the engine builds them ``private``), and a scroll is never offered on a channel button (players type
``/mmh battle card`` — an ephemeral reply — or read the command in their hand DM).
Importing this module registers `MmhAdapter` in `bot.adapters.ADAPTERS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
)
from bot.command_table import Choice, OptionSpec
from bot.mmh import commands as table
from engine.core.model import Command, Decision, GameState, seat_name
from engine.core.words import plural
from engine.mmh import commands as c
from engine.mmh.content import load_content

if TYPE_CHECKING:
    from bot.render import Renderer
    from engine.mmh.state import MmhState

ENDS = ("end_action", "pass_window", "fight_on", "decline")
ACTION_WORDS = {
    "hero": "Activate Hero",
    "build": "Build",
    "gather": "Gather Resources",
    "recruit": "Recruit",
    "pass": "pass",
}
_ORDER = {
    "play_action": 0,
    "move": 0,
    "attack": 0,
    "assign": 0,
    "build": 0,
    "recruit": 0,
    "keep": 0,
}


def _state(state: GameState) -> MmhState:
    from engine.mmh.state import MmhState

    assert isinstance(state, MmhState)
    return state


def _unit(state: MmhState, number: int | None) -> str:
    from engine.mmh.battle import unit_name

    if number is None or state.battle is None or not 0 <= number < len(state.battle.units):
        return f"[{number}]"
    return unit_name(state, state.battle.units[number])


def _creature(creature: str, elite: bool = False) -> str:
    kind = load_content().creature(creature)
    return (kind.elite if elite else kind.basic).name


def describe(state: GameState, command: Command) -> str:
    """One line for an mmh command (may name the acting seat's own scrolls)."""
    s = _state(state)
    content = load_content()
    if isinstance(command, c.PlayAction):
        card = next((x for x in s.seats[s.active].cards if x.number == command.card), None)
        both = " / ".join(ACTION_WORDS[a] for a in card.actions) if card else ""
        extra = f" (+3 {command.bonus})" if command.bonus else ""
        if command.action == "pass":
            return f"Card {command.card}: pass ({both})"
        return f"Card {command.card}: {ACTION_WORDS[command.action]}{extra}"
    if isinstance(command, c.Build):
        if command.building == "level":
            return "Raise the capital one level"
        building = content.building(command.building)
        cost = (
            f"{building.resources} {command.pay or 'res'}"
            if building.either
            else f"{building.resources} res" + (f" + {building.gold} gold" if building.gold else "")
        )
        return f"Build the {building.name} ({cost})"
    if isinstance(command, c.RecruitCreature):
        return f"Recruit {_creature(command.creature, command.elite)} for {content.hero(command.hero).name}"
    if isinstance(command, c.RecruitHero):
        return f"Hire {content.hero(command.hero).name}"
    if isinstance(command, c.Upgrade):
        return f"Upgrade a {_creature(command.creature)} of {content.hero(command.hero).name}"
    if isinstance(command, c.Dismiss):
        return f"Dismiss a {_creature(command.creature, command.elite)} of {content.hero(command.hero).name}"
    if isinstance(command, c.Activate):
        return f"Activate {content.hero(command.hero).name}"
    if isinstance(command, c.Move):
        return "Into the capital" if command.to == "capital" else f"Move to {command.to}"
    if isinstance(command, c.LevelUp):
        trophies = f" (trophies {' '.join(map(str, command.trophies))})" if command.trophies else ""
        return f"Level up {content.hero(command.hero).name}: {command.deck} deck{trophies}"
    if isinstance(command, c.Trade):
        other = "resources" if command.give == "gold" else "gold"
        return f"Trade {command.amount} {command.give} for {command.amount // 2} {other}"
    if isinstance(command, c.SellScroll):
        return f"Sell {content.card_name(command.scroll)}"
    if isinstance(command, c.PlaceTile):
        return f"Tile at column {command.column}, row {command.row}, turned {command.rotation}"
    if isinstance(command, c.PlaceCapital):
        return f"Capital at {command.space}"
    if isinstance(command, c.ChooseHero):
        sheet = content.hero(command.hero)
        return f"{sheet.name} (Might {sheet.might}, Magic {sheet.magic}, Leadership {sheet.leadership})"
    if isinstance(command, c.Keep):
        return f"Keep {content.card_name(command.card)}"
    if isinstance(command, c.MakeRoom):
        return f"Discard {content.card_name(command.scroll)}"
    if isinstance(command, c.ChooseFields):
        prompt = s.queue[0] if s.queue else None
        card = getattr(prompt, "card", None)
        if card is not None:
            from engine.mmh.text import card_text

            lines = card_text(card)[1:]
            return "; ".join(lines[f - 1].split(". ", 1)[1] for f in command.fields)
        return "Fields " + " ".join(map(str, command.fields))
    if isinstance(command, c.ChooseDeck):
        return f"Draw from the {command.deck} deck"
    if isinstance(command, c.Search):
        return f"Take {content.card_name(command.card)} ({command.pile})"
    if isinstance(command, c.ArenaRecruitCmd):
        return f"Recruit {_creature(command.creature, command.elite)}"
    if isinstance(command, c.RaiseCreature):
        return f"{command.mode.capitalize()} {_creature(command.creature)}"
    if isinstance(command, c.ChooseReward):
        if command.artefact:
            return f"Take {content.card_name(command.artefact)}"
        return f"A {command.deck} skill card"
    if isinstance(command, c.Honor):
        return "Everyone rolls the elite die" if command.elite_die else "No one rolls the elite die"
    if isinstance(command, c.UseCard):
        target = f" on {_unit(s, command.target)}" if command.target is not None else ""
        part = "" if command.part == "primary" else f" ({command.part})"
        return f"Use {content.card_name(command.card)}{part}{target}"
    if isinstance(command, c.Attack):
        how = "with the elite die" if command.elite else "without the elite die"
        target = f", focus {_unit(s, command.target)}" if command.target is not None else ""
        return f"Attack {how}{target}"
    if isinstance(command, c.SpendLuck):
        return {
            "negate": "Spend luck: negate Bad Luck",
            "missed": "Spend luck: reroll the misses",
            "elite": "Spend luck: reroll the elite die",
            "none": "Keep the roll",
        }[command.choice]
    if isinstance(command, c.Laurel):
        return "Upgrade a creature" if command.choice == "upgrade" else "RAISE DEAD 1"
    if isinstance(command, c.Assign):
        first = "flip elite first" if command.order == "elite" else "lose basic first"
        return f"Damage to {_unit(s, command.unit)} ({first})"
    if isinstance(command, c.Retreat):
        lost = ", ".join(_creature(x.rstrip("+"), x.endswith("+")) for x in command.losses or ())
        return f"Retreat (lose {lost})" if lost else "Retreat"
    if isinstance(command, c.GuardianAngel):
        if command.use:
            return "Call the Guardian Angel: ignore the elite die's damage"
        return "Take the damage, keep the Angel for later"
    if isinstance(command, c.ReturnCreatures):
        names = ", ".join(_creature(x.rstrip("+"), x.endswith("+")) for x in command.creatures)
        return f"Send back {names}"
    offered = _offered_space(s)
    if offered is not None and command.type == "take_control":
        return f"Take control of {offered}"
    if offered is not None and command.type == "decline":
        return f"Leave {offered} as it is"
    words = {
        "end_action": "End the action",
        "explore": "Explore here",
        "take_control": "Take control here",
        "decline": "Decline",
        "pass_window": "No (more) cards",
        "fight_on": "Fight on",
    }
    return words.get(command.type, command.type.replace("_", " "))


def _offered_space(state: MmhState) -> str | None:
    """The label of the location a pending `ControlChoice` offers, if one is pending."""
    from engine.mmh.board import space_label
    from engine.mmh.state import ControlChoice

    head = state.queue[0] if state.queue else None
    return space_label(state, head.space) if isinstance(head, ControlChoice) else None


def order_command(
    state: MmhState, seat: int, decision: Decision, orders: Mapping[str, str]
) -> Command | None:
    """The command ``seat``'s standing orders give for ``decision``, or None to ask.

    Orders (mmh:course-of-play.battles): ``attack`` ``weakest`` / ``strongest`` answers the
    turn of a marker the seat commands (its stacks and hero, an encounter marker it
    controls): attack with the elite die whenever allowed, a Focused Attack at the enemy
    with the fewest creatures / the most expected hits; and the laurel wreath like the
    computer. A hero's turn is still asked while he may use a card In Battle, unless
    ``cards`` is ``never``: then every card window is passed and the hero always attacks.
    ``cards`` ``windows`` answers the card windows (Before the Battle, At the Start of
    Battle, After the Exchange, After the Battle) with no cards but still asks at the
    hero's In Battle turn. ``retreat`` ``never``
    fights on; ``assign`` ``cheapest`` puts damage on the lowest-level stack; ``luck``
    ``never`` keeps luck markers; ``angel`` ``always`` calls the Guardian Angel.

    Only public facts and the orders decide whether an order answers (house rule 6): a
    hero's turn is asked whenever he holds any scroll, usable or not.
    """
    from engine.mmh import ai
    from engine.mmh import battle as fight
    from engine.mmh.content import Window

    b = state.battle
    if b is None:
        return None
    kind = decision.kind
    attack = orders.get("attack", "ask")
    never_cards = orders.get("cards") == "never"
    if kind == "battle_window" and orders.get("cards") in ("never", "windows"):
        return c.PassWindow()
    if kind == "battle_turn" and attack in ("weakest", "strongest"):
        unit = b.units[b.order[b.pos]]
        if (
            unit.kind == "hero"
            and not never_cards
            and fight.may_use_cards(state, seat, Window.IN_BATTLE)
        ):
            return None
        targets = fight.focus_targets(state, unit)
        pick = ai.weakest if attack == "weakest" else ai.strongest
        return c.Attack(
            elite=fight.can_elite(state, unit), target=pick(state, targets) if targets else None
        )
    if kind == "battle_laurel" and attack != "ask" and b.roll is not None:
        wreath = fight.laurel_options(state, b.units[b.roll.unit])
        return c.Laurel(choice="raise" if "raise" in wreath else wreath[0])
    if kind == "battle_retreat" and orders.get("retreat") == "never":
        return c.FightOn()
    if kind == "battle_assign" and orders.get("assign") == "cheapest":
        return ai.cheapest_assign(state, fight.assign_options(state))
    if kind in ("battle_negate", "battle_luck") and orders.get("luck") == "never":
        return c.SpendLuck(choice="none")
    if kind == "battle_angel" and orders.get("angel") == "always":
        return c.GuardianAngel(use=True)
    return None


def hidden_cards(state: GameState, seat: int) -> tuple[str, ...]:
    """Card ids only ``seat`` may see now: its heroes' scrolls and its draw-to-keep cards."""
    from engine.mmh.state import KeepCard

    s = _state(state)
    found = [card for h in s.seats[seat].heroes for card in s.heroes[h].scrolls]
    for prompt in s.queue:
        if isinstance(prompt, KeepCard) and prompt.seat == seat:
            found += prompt.cards
    return tuple(found)


class MmhAdapter(RulesetAdapter):
    """mmh's commands (`bot.mmh.commands`), labels, texts and pictures."""

    ruleset: ClassVar[str] = "mmh"
    lobby_options: ClassVar[tuple[str, ...]] = ("length", "assembly", "factions")
    lobby_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "length",
            "Might & Magic Heroes: 3, 4 or 5 week cards per moon phase",
            choices=(
                Choice("quick", "quick"),
                Choice("standard", "standard"),
                Choice("epic", "epic"),
            ),
        ),
        OptionSpec(
            "factions",
            "Might & Magic Heroes: one per seat, e.g. haven, necropolis (none: dealt)",
            max_length=100,
        ),
    )
    """The Might & Magic Heroes settings of the options: text of /game new and /game
    options (it also reads the shared ``assembly``: quick or manual tile placement)."""
    options_example: ClassVar[str] = "length:quick factions:haven,necropolis"
    command_table: ClassVar[CommandTable | None] = table

    def order_kinds(self) -> Mapping[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """`bot.mmh.commands.ORDER_KINDS` (battle decisions)."""
        return table.ORDER_KINDS

    def order_command(
        self, state: GameState, seat: int, decision: Decision, orders: Mapping[str, str]
    ) -> Command | None:
        """`order_command`."""
        return order_command(_state(state), seat, decision, orders)

    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``factions`` is typed as a list of names (``haven, necropolis``)."""
        options = super().engine_options(values)
        if isinstance(options.get("factions"), str):
            options["factions"] = [
                f.strip().lower()
                for f in options["factions"].replace(";", ",").split(",")
                if f.strip()
            ]
        return options

    def options_summary(self, options: Mapping[str, Any]) -> str:
        """Game length, tile assembly and factions."""
        text = f"{options.get('length', 'standard')} game, {options.get('assembly', 'quick')} map assembly"
        if options.get("factions"):
            text += ", factions " + ", ".join(str(f) for f in options["factions"])
        return text

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
        """Buttons from the legal commands; in the channel, commands naming a held scroll
        are left out (``/mmh battle card`` or the hand DM)."""
        s = _state(state)
        private = decision.private
        offered = offered_commands(state, seat, decision, legal)
        ui = decision_buttons(
            decision,
            game_id,
            state.version,
            offered,
            default if default in offered else None,
            lambda cmd: describe(s, cmd),
            typed=self.typed_command,
            ends=ENDS,
            priority=lambda cmd: (_ORDER.get(cmd.type, 5), describe(s, cmd)),
        )
        return DecisionUI(ui.text, ui.components, private)

    def status_lines(self, view: Any, names: Mapping[int, str]) -> list[str]:
        """The round and week, each player in one line, the battle in progress."""
        content = load_content()
        if view.result.finished:
            lines = [f"Game over: {view.result.reason}"]
        elif view.phase != "play":
            lines = [f"Setting up ({view.phase})."]
        else:
            week = content.week(view.week).name if view.week else "no week card yet"
            dark = " — **Dark Times**" if view.dark_times else ""
            lines = [
                f"Round {view.round} ({week}{dark}); {plural(view.weeks_left, 'week card')} "
                f"left; "
                f"{view.threshold} VP win. **{seat_name(view.active)}** to play."
            ]
        for seat in view.seats:
            who = names.get(seat.seat, seat_name(seat.seat))
            cards = " ".join(str(card.number) for card in seat.cards if not card.used) or "none"
            heroes = ", ".join(
                f"{h.name} ({h.space or 'capital'}, {plural(len(h.army), 'creature')})"
                for h in view.heroes
                if h.owner == seat.seat
            )
            lines.append(
                f"{seat_name(seat.seat)} ({who}, {content.faction(seat.faction).name}): {seat.vp} VP, "
                f"{seat.gold} gold, {seat.resources} res, capital level {seat.level}, cards {cards}; {heroes}"
            )
        if view.battle is not None:
            lines.append(
                f"Battle at {view.battle.space}, exchange {view.battle.exchange}: "
                + ", ".join(f"[{u.id}] {u.name}" for u in view.battle.units if u.alive)
            )
        return lines

    def hand_text(self, state: GameState, seat: int, *, game_id: int, channel_id: int) -> str:
        """The seat's scrolls (with their text), cards drawn for its choice, and the
        scroll commands it can type now."""
        from engine.mmh import decisions
        from engine.mmh.state import DragonVein, KeepCard
        from engine.mmh.text import card_text

        s = _state(state)
        content = load_content()
        lines = [f"**{seat_name(seat)}** in game #{game_id} (<#{channel_id}>)"]
        for hid in s.seats[seat].heroes:
            hero = s.heroes[hid]
            scrolls = hero.scrolls
            lines.append(
                f"{content.hero(hid).name}'s scrolls ({len(scrolls)}):"
                if scrolls
                else f"{content.hero(hid).name}: no scrolls."
            )
            for card in scrolls:
                text = card_text(card)
                lines.append(f"• {content.card_name(card)} — {text[0]}: {text[1]} / {text[2]}")
        if s.queue and s.queue[0].seat == seat:
            head = s.queue[0]
            if isinstance(head, KeepCard):
                lines.append("Keep one of: " + ", ".join(content.card_name(x) for x in head.cards))
                lines.append("Answer with /mmh choice keep card:<name> (or the buttons).")
            if isinstance(head, DragonVein):
                lines.append(
                    "Discard piles: "
                    + "; ".join(
                        f"{pile}: " + (", ".join(content.card_name(x) for x in cards) or "empty")
                        for pile, cards in (
                            ("treasure", s.treasure_discard),
                            ("scroll", s.scroll_discard),
                            ("artefact", s.artefact_discard),
                        )
                    )
                )
        owed = [d for d in decisions.pending(s) if d.seat == seat]
        if owed and s.battle is not None:
            plays = [
                cmd
                for cmd in decisions.legal_commands(s, seat)
                if decisions.names_held_scroll(s, cmd)
            ]
            if plays:
                lines.append("Scrolls you can use now (type the command):")
                for cmd in plays[:10]:
                    path, options = table.slash_for(cmd)
                    typed = " ".join(f"{k}:{v}" for k, v in options.items())
                    lines.append(f"• {describe(s, cmd)} — `/{' '.join(path)} {typed}`")
        return clip("\n".join(lines), 1900)

    def seat_hidden(self, state: GameState, seat: int) -> tuple[Any, ...]:
        """The seat's scrolls and drawn cards."""
        return hidden_cards(state, seat)

    def has_private_hand(self) -> bool:
        """Scrolls are held face down."""
        return True

    def card_lookup(self, name: str) -> tuple[str, str] | None:
        """Any mmh card, hero sheet, creature or building by name or id, in our own text."""
        return component_text(name)

    def card_names(self, current: str) -> list[tuple[str, str]]:
        """Names of mmh cards, heroes, creatures and buildings matching ``current``."""
        needle = current.strip().lower()
        found = [
            (label, value)
            for label, value in _components()
            if needle in label.split(" (")[0].lower() or value.startswith(needle)
        ]
        found.sort(key=lambda pair: (not pair[0].lower().startswith(needle), pair[0]))
        return fit_choices(found)

    def picture_after(
        self, before: GameState | None, after: GameState, commands: Sequence[Command]
    ) -> str | None:
        """The initiative track after attacks and at a battle's start, the board after a
        hero's move, a battle's end, a new round and the end of set-up or the game."""
        s = _state(after)
        if before is None or s.phase == "over":
            return "board"
        old = _state(before)
        if s.battle is not None:
            if old.battle is None or any(
                cmd.type in ("attack", "use_card", "assign", "fight_on") for cmd in commands
            ):
                return "battle"
            return None
        if old.battle is not None or old.round != s.round or old.phase != s.phase:
            return "board"
        if any(
            cmd.type in ("move", "place_capital", "place_tile", "explore", "take_control")
            for cmd in commands
        ):
            return "board"
        return None

    def status_picture(self, state: GameState) -> str:
        """The initiative track during a battle, else the board."""
        return "battle" if _state(state).battle is not None else "board"

    def picture(self, renderer: Renderer, kind: str, view: Any) -> Picture | None:
        """The board or the initiative track (`rendering.mmh`, public views only)."""
        shown = "battle" if kind == "battle" and view.battle is not None else "board"
        try:
            return renderer.draw(self.ruleset, shown, view)
        except ValueError:
            return None

    def pictures(self, renderer: Renderer, kind: str, view: Any) -> tuple[Picture, ...]:
        """The map around the active hero or the track around the marker due, then the
        whole picture (`focus_first`); none before any tile is laid."""
        shown = "battle" if kind == "battle" and view.battle is not None else "board"
        try:
            return focus_first(renderer, self.ruleset, shown, view)
        except ValueError:
            return ()

    def hand_picture(self, renderer: Renderer, view: Any) -> Picture | None:
        """The seat's capital board and hero sheets with their scrolls (DM only)."""
        try:
            return renderer.draw(self.ruleset, "hand", view)
        except ValueError:
            return None


BUILDING_EFFECTS: dict[str, str] = {
    "hall_of_heroes": "recruit new heroes for 5 gold.",
    "town_hall": "3 more gold or resources on every Gather Resources.",
    "marketplace": "the fourth action card (Build / Gather Resources) and 2:1 trading.",
    "temple": "3 VP; needs the Tear of Asha, which stays under it.",
    "barracks": "recruit elite creatures and upgrade basic ones.",
    "garrison": "recruit up to 5 markers per Recruit action.",
    "academy": "Leadership +1 for all your heroes.",
    "town_portal": "heroes move between the capital and any portal.",
    "guardian_angel": "once per exchange of blows, the elite die's damage to you is ignored.",
    "necromancy": "RAISE DEAD 2 after every battle one of your heroes fights.",
    "blood_rage": "your markers go first on ties of initiative.",
    "honor": "before a battle you decide: everyone rolls the elite die, or no one.",
}
"""What each building does, in words (for /card)."""


def _components() -> list[tuple[str, str]]:
    """(label, id) of every card and sheet a player may look up."""
    c = load_content()
    found: list[tuple[str, str]] = []
    for kind, table_ in (
        ("scroll", c.scrolls),
        ("artefact", c.artefacts),
        ("treasure", c.treasures),
        ("week", c.weeks),
    ):
        found += [(f"{card.name} ({kind})", card.id) for card in table_]
    found += [(f"{s.name} ({s.faction} {s.deck} skill)", s.id) for s in c.skills]
    found += [(f"{h.name} (hero, {h.faction})", h.id) for h in c.heroes]
    found += [(f"{k.basic.name} / {k.elite.name} (creature)", k.id) for k in c.creatures]
    found += [(f"{b.name} (building)", b.id) for b in c.buildings]
    return found


def component_text(name: str) -> tuple[str, str] | None:
    """``(title, text)`` of the card, hero, creature or building ``name`` (name or id)."""
    from engine.mmh.text import card_text, hero_ability_text

    c = load_content()
    key = name.strip().lower()
    for label, ident in _components():
        names = {n.strip().lower() for n in label.split(" (")[0].split(" / ")}
        if key != ident.lower() and key not in names:
            continue
        if any(h.id == ident for h in c.heroes):
            h = c.hero(ident)
            extra = [f"Master of {c.creature(h.master).basic.name}s"] if h.master else []
            extra += [f"{c.creature(h.leader).basic.name} Leader"] if h.leader else []
            text = (
                f"{c.faction(h.faction).name} hero. Might {h.might}, Magic {h.magic}, Initiative "
                f"{h.initiative}, Leadership {h.leadership}. {hero_ability_text(h.ability)}"
                + ("; " + ", ".join(extra) if extra else "")
                + "."
            )
            return h.name, text
        if any(k.id == ident for k in c.creatures):
            k = c.creature(ident)
            sides = []
            for side in (k.basic, k.elite):
                abilities = ", ".join(side.abilities) or "no ability"
                res = f", resilience {side.resilience}" if side.resilience else ""
                sides.append(f"{side.name}: might {side.might}, {abilities}{res}")
            return f"{k.basic.name} / {k.elite.name}", (
                f"{c.faction(k.faction).name}, capital level {k.level}, initiative {k.initiative}, "
                f"{k.markers} markers. " + "; ".join(sides) + "."
            )
        if any(b.id == ident for b in c.buildings):
            b = c.building(ident)
            cost = f"{b.resources} gold or resources" if b.either else f"{b.resources} resources"
            cost += f" and {b.gold} gold" if b.gold else ""
            return (
                b.name,
                f"Building (capital level {b.level}, {cost}): {BUILDING_EFFECTS[b.effect]}",
            )
        return label.split(" (")[0], "\n".join(card_text(ident))
    return None


ADAPTERS[MmhAdapter.ruleset] = MmhAdapter()
