"""Who owes which decision now, the finite list of legal commands, and the documented
default answer a moderator's skip plays.

Rule sections: homm3bf:adventure-mode.round-structure (whose turn), homm3bf:battlefield-
combat.place-obstacles / .place-units (placing in turns), homm3bf:...initiative-token
(who activates), core card timing (who may play cards before an attack). Open choices
(a Search, dice to keep, set-up picks) come first; several seats may owe one at once.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.errors import NotYourDecision
from engine.core.model import Command, Decision, TurnRecord, seat_name
from engine.homm3 import adventure, cardplay, combat_attack, combat_flow, effects, hexes
from engine.homm3 import combat_core as core
from engine.homm3 import commands as c
from engine.homm3.content import load_content
from engine.homm3.rules import other, who
from engine.homm3.state import CombatUnit, Homm3State

CHOICE_KINDS: tuple[str, ...] = (
    "search_mode", "search_pick", "dice_pick", "option", "income", "statistic", "remove_card",
    "trade", "morale_search", "setup_remove", "adventure_keep", "adventure_keep2",
    "astrologers", "city_hall", "stun", "amplifier", "necromancy", "magic_spring", "reroll",
    "eagle_eye", "mana_vortex", "vortex_pick", "braced_pikes", "guardian_angel", "death_cloud",
    "settlement", "time_limit", "secondary_defeat",
)  # fmt: skip
"""Every kind of `Choice` the engine sets (each owed as a ``choose_<kind>`` decision and
answered by ``choose``), so that a player's interface can answer each one."""

PRIVATE_CHOICES: frozenset[str] = frozenset(
    {
        "search_mode", "search_pick", "setup_remove", "morale_search", "remove_card",
        "adventure_keep", "adventure_keep2", "necromancy", "eagle_eye", "mana_vortex",
        "vortex_pick", "braced_pikes",
    }
)  # fmt: skip
"""Choice kinds whose options name hidden cards (a Search, the Adventure cards drawn, a
Hand to play from): their ``choose_<kind>`` decisions are private, as are those of any
choice created ``private`` (its labels are shown to its seat alone)."""

CARD_COMMANDS: frozenset[str] = frozenset(
    {"play", "morale", "resolve", "fight", "use_aside", "redraw", "buy_spell", "muster"}
)
"""Command types that may name a hidden card (`Homm3Ruleset.names_hidden_card`)."""

PHASE_NAMES: dict[str, str] = {
    "setup": "Battlefield Setup",
    "adventure": "Adventure Mode",
    "combat": "Battlefield Combat",
    "over": "Victory Condition",
}
"""The rulebook's name of each value of `Homm3State.phase`."""

COMBAT_STAGE_NAMES: dict[str, str] = {
    "obstacles": "Place Obstacles",
    "deploy": "Place Units",
}
"""The rulebook's name of the Combat's set-up stages (homm3bf:battlefield-combat)."""


def turn_record(state: Homm3State) -> TurnRecord:
    """The turn (Adventure turns plus Combat activations), the round (the Adventure round,
    or the Combat round once in Combat), the seat whose turn it is and the phase's name.

    Active: the seat taking its Adventure turn (or reacting to the Combat, then placing
    Obstacles or units, then whose unit activates or who chooses the next unit, else the
    Initiative token's holder, as at a Combat round's start); outside turns (set-up, the
    round's drawing of Adventure cards), the seats with an open choice.

    Rule: homm3bf:adventure-mode.round-structure, homm3turn:reacting-to-combat,
    homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token.
    """
    phase = PHASE_NAMES[state.phase]
    round_number = state.round
    active: tuple[int, ...] = tuple(sorted(state.choice))
    adv, combat = state.adventure, state.combat
    if state.phase == "over":
        active = ()
    elif state.phase == "adventure" and adv is not None and adv.stage == "turns":
        active = (adv.active,)
    elif state.phase == "adventure" and adv is not None and adv.stage == "react":
        phase = "Reacting to Combat"
        active = tuple(adv.reacting[:1])
    elif state.phase == "combat" and combat is not None:
        round_number = combat.round
        phase = COMBAT_STAGE_NAMES.get(combat.stage, phase)
        if combat.stage in ("obstacles", "deploy"):
            active = (combat.placing,)
        elif combat.active is not None:
            active = (core.get_unit(state, combat.active).seat,)
        elif combat.chooser is not None:
            active = (combat.chooser,)
        elif combat.stage == "round":
            active = (combat.token,)
    return TurnRecord(turn=state.turn, round=round_number, active=active, phase=phase)


def pending(state: Homm3State) -> list[Decision]:
    """The decisions owed now (empty once the game is over).

    Rule: none (bookkeeping: decisions owed)"""
    if state.phase == "over":
        return []
    if state.choice:
        out = []
        for seat in sorted(state.choice):
            choice = state.choice[seat]
            commands: tuple[str, ...] = ("choose",)
            if (
                choice.kind == "adventure_keep"
                and adventure.movement_sources(state, seat)
                and state.adventure
                and not state.adventure.redrawn
            ):
                commands = ("choose", "redraw")
            if choice.kind == "reroll":
                commands = ("choose",)
            out.append(
                Decision(
                    seat=seat,
                    kind=f"choose_{choice.kind}",
                    prompt=choice.prompt,
                    commands=commands,
                    private=choice.private or choice.kind in PRIVATE_CHOICES,
                )
            )
        return out
    if (
        state.phase == "adventure"
        and state.adventure is not None
        and state.adventure.stage == "turns"
    ):
        seat = state.adventure.active
        return [
            Decision(
                seat=seat,
                kind="adventure_turn",
                prompt=f"{who(state, seat)} takes their Adventure turn (round {state.round} of {state.rounds}).",
                commands=c.ADVENTURE_TURN,
                private=True,
            )
        ]
    if (
        state.phase == "adventure"
        and state.adventure is not None
        and state.adventure.stage == "react"
        and state.adventure.reacting
    ):
        seat = state.adventure.reacting[0]
        return [
            Decision(
                seat=seat,
                kind="town_reaction",
                prompt=f"Before the final Combat is set up, {who(state, seat)} may take Town "
                "actions (Build, Population, Spell Book) or start the Combat.",
                commands=c.TOWN_REACTION,
                private=True,
            )
        ]
    combat = state.combat
    if state.phase != "combat" or combat is None:
        return []
    if combat.stage == "obstacles":
        return [
            Decision(
                seat=combat.placing,
                kind="place_obstacle",
                prompt=f"{seat_name(combat.placing)} places an Obstacle or passes.",
                commands=("place_obstacle", "pass_obstacles"),
            )
        ]
    if combat.stage == "deploy":
        return [
            Decision(
                seat=combat.placing,
                kind="deploy",
                prompt=f"{seat_name(combat.placing)} places a unit in their deployment zone.",
                commands=("deploy",),
            )
        ]
    if combat.reaction is not None:
        reaction = combat.reaction
        return [
            Decision(
                seat=reaction.seat,
                kind="spell_reaction",
                prompt=f"{seat_name(reaction.caster)} casts {load_content().card_name(state.cards[reaction.card])}: "
                f"{seat_name(reaction.seat)} may answer it with a card or let it resolve.",
                commands=c.REACTION,
            )
        ]
    if combat.opening is not None:
        opening = combat.opening
        return [
            Decision(
                seat=opening.priority,
                kind="combat_start",
                prompt=(
                    f"{seat_name(opening.priority)} casts a Spell before any unit activates, or passes."
                    if opening.cast == opening.priority
                    else f"Before any unit activates: {seat_name(opening.priority)} may play a card "
                    "of the Combat's start, or pass."
                ),
                commands=c.REACTION,
            )
        ]
    if combat.window is not None:
        window = combat.window
        att = core.get_unit(state, window.attacker)
        tgt = core.get_unit(state, window.target)
        if window.stage == "resurrection":
            return [
                Decision(
                    seat=window.priority,
                    kind="resurrection_window",
                    prompt=f"{core.unit_name(att)}'s attack would bring {core.unit_name(tgt)} to 0 Health: "
                    f"{seat_name(window.priority)} may answer with a Spell or pass.",
                    commands=c.REACTION,
                )
            ]
        return [
            Decision(
                seat=window.priority,
                kind="attack_window",
                prompt=f"{core.unit_name(att)} {'retaliates against' if window.retaliation else 'attacks'} {core.unit_name(tgt)}: "
                f"{seat_name(window.priority)} may play Instant cards or pass.",
                commands=c.WINDOW,
            )
        ]
    if combat.active is not None:
        unit = core.get_unit(state, combat.active)
        return [
            Decision(
                seat=unit.seat,
                kind="activation",
                prompt=f"{core.unit_name(unit)} ({seat_name(unit.seat)}) is activating: move, attack, Defend, play cards or end.",
                commands=c.ACTIVATION,
            )
        ]
    if combat.chooser is not None:
        return [
            Decision(
                seat=combat.chooser,
                kind="activate",
                prompt=f"{seat_name(combat.chooser)} chooses which of their units activates next.",
                commands=("activate",),
            )
        ]
    return []


def legal_commands(state: Homm3State, seat: int) -> list[Command]:
    """A finite list of commands ``seat`` may issue now, each accepted by apply.

    Rule: none (bookkeeping: command enumeration)"""
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        return []
    decision = owed[0]
    if decision.kind.startswith("choose_"):
        choice = state.choice[seat]
        out: list[Command] = [
            c.Choose(option=i)
            for i in range(len(choice.options))
            if effects.option_problem(state, seat, choice, i) is None
        ]
        if "redraw" in decision.commands and state.adventure is not None:
            for source in adventure.movement_sources(state, seat):
                drawn = state.adventure.drawn
                out += [c.Redraw(cards=(card,), source=source) for card in drawn]
                out.append(c.Redraw(cards=tuple(drawn), source=source))
        return out
    if decision.kind == "adventure_turn":
        return adventure_commands(state, seat)
    if decision.kind == "town_reaction":
        return [*adventure.town_commands(state, seat), c.StartCombat()]
    if decision.kind == "place_obstacle":
        return [c.PlaceObstacle(token=t, hex=h) for t, h in combat_flow.legal_obstacles(state)] + [
            c.PassObstacles()
        ]
    if decision.kind == "deploy":
        return [
            c.Deploy(unit=u.number, hex=h)
            for u in combat_flow.undeployed(state, seat)
            for h in combat_flow.deploy_hexes(state, seat)
        ]
    if decision.kind == "activate":
        nxt = combat_flow.due(state)
        return [c.Activate(unit=u.number) for u in (nxt[1] if nxt else [])]
    if decision.kind == "attack_window":
        return [c.PassWindow(), *card_commands(state, seat), *morale_commands(state, seat)]
    if decision.kind in CARD_WINDOWS:
        return [c.PassWindow(), *card_commands(state, seat)]
    return activation_commands(state, seat)


CARD_WINDOWS: tuple[str, ...] = ("spell_reaction", "combat_start", "resurrection_window")
"""Decisions answered by one card or a pass: Resistance right after an enemy Spell, the
Combat's start (Intelligence, Tactics), Resurrection before an attack's damage."""


def adventure_commands(state: Homm3State, seat: int) -> list[Command]:
    """Every Adventure-turn command ``seat`` may issue (representatives for musters).

    Rule: homm3turn:action-types"""
    content = load_content()
    player = state.player(seat)
    out: list[Command] = []
    if not player.resolved_this_round:
        for card in player.adventure_hand:
            card_id = state.cards[card]
            if card_id in content.events:
                out.append(c.ResolveEvent(card=card))
            elif player.army:  # a Combat needs a unit to fight with (README)
                need = min(2, len(player.army))
                for units in combinations([u.unit for u in player.army], need):
                    for level in (1, 2, 3):
                        out.append(c.FightAdventure(card=card, level=level, units=units))
    out += adventure.town_commands(state, seat)
    if (
        "blacksmith" in player.buildings
        and not player.blacksmith_used
        and player.resources.gold >= adventure.BLACKSMITH_COST
    ):
        out.append(c.Blacksmith())
    for card in player.aside:
        spec = content.cards[state.cards[card]]
        for index, expert, effect in spec.effects():
            if effect.effect not in adventure.USABLE_ASIDE or (expert and player.experts < 1):
                continue
            if effect.effect == "scholar" and not any(
                state.cards[d] in ("attack", "defense", "power", "knowledge") for d in player.deck
            ):
                continue
            out.append(c.UseAside(card=card, option=index))
    out += morale_commands(state, seat)
    out.append(c.EndTurn())
    return out


def morale_commands(state: Homm3State, seat: int) -> list[Command]:
    """Uses of ``seat``'s Positive Morale cards (and token) that apply now.

    Rule: homm3turn:spending-positive-morale"""
    player = state.player(seat)
    out: list[Command] = []
    in_combat = cardplay.context(state, seat) is not None
    positives = load_content().positive
    for card in player.positive:
        spec = positives[state.cards[card]]
        if not in_combat:
            if spec.effect == "gain":
                out.append(c.UseMorale(card=card))
            continue
        if spec.effect in ("stat", "heal", "initiative", "lucky"):
            out += [
                c.UseMorale(card=card, unit=u.number)
                for u in core.living(state, seat, tower=False)
                if u.hex
            ]
        elif spec.effect == "unparalyse":
            out += [
                c.UseMorale(card=card, unit=u.number)
                for u in core.living(state, seat)
                if u.paralysed
            ]
        elif spec.effect == "cycle":
            out.append(c.UseMorale(card=card, discard=tuple(player.hand)))
        else:
            out.append(c.UseMorale(card=card))
    if player.positive_token and in_combat:
        out += [c.UseMorale(option=0), c.UseMorale(option=1, discard=tuple(player.hand))]
    return out


def activation_commands(state: Homm3State, seat: int) -> list[Command]:
    """Moves, attacks, Defend, end, card plays and Morale uses of the active unit.

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    combat = core.combat(state)
    unit = combat_attack.active_unit(state, seat)
    out: list[Command] = []
    reach = {} if combat.acted or combat.attacks else combat_attack.reachable(state, unit)
    if not combat.attacks:
        if core.kind(unit) == "ranged":
            if not combat.acted:
                out += [c.Attack(target=t.number) for t in combat_attack.targets(state, unit, None)]
        else:
            for target in combat_attack.targets(state, unit, None):
                out.append(c.Attack(target=target.number))
            for hex_label in hexes.sort_labels(reach):
                for target in combat_attack.targets(state, unit, hex_label):
                    out.append(c.Attack(target=target.number, hex=hex_label))
            if combat.siege is not None:
                for placed in combat.placed:
                    if placed.kind not in ("wall", "gate"):
                        continue
                    spots = [unit.hex] + ([] if combat.acted else list(reach))
                    for spot in spots:
                        if spot is not None and any(hexes.adjacent(spot, h) for h in placed.hexes):
                            out.append(
                                c.AttackWall(
                                    hex=placed.hexes[0], move=None if spot == unit.hex else spot
                                )
                            )
                            break
        out += [c.Move(hex=h) for h in hexes.sort_labels(reach)]
        out.append(c.Defend())
    out.append(c.EndActivation())
    out += card_commands(state, seat)
    out += morale_commands(state, seat)
    return out


def card_commands(state: Homm3State, seat: int) -> list[Command]:
    """Representative card plays ``seat`` may make now (each checked by the card rules).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic"""
    return [cmd for cmd in _card_candidates(state, seat) if cardplay.allowed(state, seat, cmd)]


def _card_candidates(state: Homm3State, seat: int) -> list[c.Play]:
    content = load_content()
    player = state.player(seat)
    own = [u for u in core.living(state, seat, tower=False) if u.hex]
    foes = [u for u in core.living(state, other(seat), tower=False) if u.hex]
    out: list[c.Play] = []
    power_cards = tuple(
        card
        for card in player.hand
        if content.cards[state.cards[card]].kind == "spell"
        or any(
            e.timing == "power" and not x for _i, x, e in content.cards[state.cards[card]].effects()
        )
    )
    for card in list(player.hand) + list(player.scroll):
        spec = content.cards[state.cards[card]]
        for index, expert, effect in spec.effects():
            if expert and player.experts < 1:
                continue
            powers: list[tuple[int, ...]] = [()]
            if effect.levels:
                full = tuple(p for p in power_cards if p != card)
                if full:
                    powers.append(full)
            for power in powers:
                base = {"card": card, "option": index, "power": power}
                out += _targets(state, seat, effect.effect, base, own, foes)
    return out


def _targets(
    state: Homm3State,
    seat: int,
    effect: str,
    base: dict[str, object],
    own: list[CombatUnit],
    foes: list[CombatUnit],
) -> list[c.Play]:
    player = state.player(seat)
    card = base["card"]
    assert isinstance(card, int)
    others = [h for h in player.hand if h != card]
    units_all = own + foes

    def make(**extra: object) -> c.Play:
        return c.Play.model_validate({**base, **extra})

    if effect in ("stat", "spec_stat", "heal", "triple_die", "spec_health", "counterstrike"):
        return [make(unit=u.number) for u in own]
    if effect == "initiative":
        return [make(unit=u.number) for u in units_all]
    if effect in ("damage", "chain", "paralyse", "disrupt", "artillery"):
        return [make(unit=u.number) for u in foes]
    if effect in ("spell_stat", "bless", "cure", "anti_magic", "fire_shield"):
        return [make(unit=u.number) for u in units_all]
    if effect == "prayer":
        return [
            make(unit=u.number, stat=s) for u in own for s in ("attack", "defense", "initiative")
        ]
    if effect == "stat_discard":
        return [make(unit=u.number, discard=(others[0],)) for u in own] if others else []
    if effect in ("step", "teleport"):
        out = []
        for u in own:
            spots = (
                hexes.neighbours(u.hex)
                if effect == "step" and u.hex
                else [h for f in foes if f.hex for h in hexes.neighbours(f.hex)]
            )
            out += [make(unit=u.number, hex=h) for h in sorted(set(spots)) if core.empty(state, h)]
        return out
    if effect in ("fire_wall", "force_field"):
        spots = sorted(
            {h for f in foes if f.hex for h in hexes.neighbours(f.hex) if core.empty(state, h)}
        )
        return [make(hex=h) for h in spots]
    if effect == "ring":
        need = 1 if state.cards[card] == "adelaide_1" else 2
        if len(others) < need:
            return []
        spots = sorted({h for f in foes if f.hex for h in hexes.neighbours(f.hex)})
        return [make(hex=h, discard=tuple(others[:need])) for h in spots]
    if effect == "frost_ring":
        out = []
        for f in foes:
            assert f.hex is not None
            for h in hexes.neighbours(f.hex):
                near = [g.number for g in foes if g.hex and hexes.adjacent(h, g.hex)][:2]
                out.append(make(hex=h, units=tuple(near)))
        return out
    if effect == "fireball":
        return [make(hexes=(f.hex, n)) for f in foes if f.hex for n in hexes.neighbours(f.hex)]
    if effect == "meteor":
        out = []
        for f in foes:
            near_units = tuple(
                g.number
                for g in foes
                if g is not f and f.hex and g.hex and hexes.adjacent(f.hex, g.hex)
            )
            out.append(make(unit=f.number, units=near_units[:2]))
        return out
    if effect == "tactics":
        return [make(units=(a.number, b.number)) for a, b in combinations(own, 2)]
    if effect == "recall":
        return [make(take=d) for d in player.discard]
    if effect == "ballista" and base["option"] == 0 and state.combat is not None:
        return [make(hex=p.hexes[0]) for p in state.combat.placed if p.kind in ("wall", "gate")]
    return [make()]


def default_command(state: Homm3State, seat: int) -> Command:
    """The documented default answer: the first option of a choice; pass an Obstacle, an
    attack window, an enemy Spell, the Combat's start or a Resurrection; the first unit and
    hex for a deployment; the first unit to activate; Defend for an activation; end the
    Adventure turn; start the final Combat (take no Town action before it).

    :raises NotYourDecision: if ``seat`` owes nothing.
    Rule: none (bookkeeping: default answers)
    """
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    kind = owed[0].kind
    if kind.startswith("choose_"):
        return c.Choose(option=0)
    if kind == "adventure_turn":
        return c.EndTurn()
    if kind == "town_reaction":
        return c.StartCombat()
    if kind == "place_obstacle":
        return c.PassObstacles()
    if kind == "attack_window" or kind in CARD_WINDOWS:
        return c.PassWindow()
    if kind == "activation":
        return c.Defend() if not core.combat(state).attacks else c.EndActivation()
    commands = legal_commands(state, seat)
    return commands[0]
