"""Moving and attacking on the Battlefield: reachable hexes, moves through Fire Walls, the
attack window for cards, the Attack die (two dice keeping the lower for the Ranged
penalty), damage, unit abilities, Retaliation, Defend and the Siege Walls.

Rule sections: homm3bf:...unit-movement (Movement equals Initiative; Flying units ignore
Obstacles), homm3bf:...ranged-units (move or attack; penalty against an adjacent unit or
one 8 or more hexes away), homm3bf:battlefield-in-regular-games.changes-to-combat-rules.
siege (a Wall or the Gate falls to an adjacent attack; defenders pass the Gate), core
Retaliation (once per Combat round, adjacent attacks only), Defend and Paralysis.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.homm3 import combat_core as core
from engine.homm3 import combat_flow, dice, effects, hexes, morale, zones
from engine.homm3.content import load_content
from engine.homm3.rules import other
from engine.homm3.state import AttackWindow, Choice, CombatUnit, Homm3State, LastAttack

FAR = 8
"""Ranged attacks at this distance or more suffer the Combat penalty."""


def active_unit(state: Homm3State, seat: int) -> CombatUnit:
    """The unit ``seat`` is activating. :raises IllegalMove: when none is.

    Rule: none (bookkeeping)"""
    combat = core.combat(state)
    if combat.active is None or combat.window is not None:
        raise IllegalMove("None of your units is activating now.")
    unit = core.get_unit(state, combat.active)
    if unit.seat != seat:
        raise IllegalMove("None of your units is activating now.")
    return unit


def movement(unit: CombatUnit, state: Homm3State) -> int:
    """Hexes the unit may move this activation: its Initiative (halved by Faltering Step).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    value = core.initiative(state, unit)
    return value // 2 if "faltering" in unit.flags else value


def reachable(state: Homm3State, unit: CombatUnit) -> dict[str, int]:
    """Hexes the unit may end a move on, each with the Fire Wall damage the cheapest route
    costs (Ground and Ranged units walk around Obstacles and units; Flying units need only
    an empty end hex within range).
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement (and core game: Fire
        Wall)"""
    if unit.hex is None:
        return {}
    steps = movement(unit, state)
    if core.kind(unit) == "flying":
        out = {}
        for hex_label in hexes.all_hexes():
            if (
                hex_label != unit.hex
                and hexes.distance(unit.hex, hex_label) <= steps
                and core.empty(state, hex_label, unit.seat)
            ):
                out[hex_label] = core.fire_wall_at(state, hex_label)
        return out
    best: dict[str, int] = {unit.hex: 0}
    frontier = {unit.hex: 0}
    for _ in range(steps):
        nxt: dict[str, int] = {}
        for here, fire in frontier.items():
            for step in hexes.neighbours(here):
                if not core.empty(state, step, unit.seat):
                    continue
                cost = fire + core.fire_wall_at(state, step)
                if cost < nxt.get(step, 10**6) and cost < best.get(step, 10**6):
                    nxt[step] = cost
        for here, fire in nxt.items():
            best[here] = min(best.get(here, 10**6), fire)
        frontier = nxt
        if not frontier:
            break
    best.pop(unit.hex, None)
    return best


def _move(state: Homm3State, unit: CombatUnit, hex_label: str, fire: int) -> list[Event]:
    start = unit.hex
    assert start is not None
    unit.moved = (
        hexes.distance(start, hex_label)
        if core.kind(unit) == "flying"
        else _steps(state, unit, hex_label)
    )
    unit.hex = hex_label
    core.combat(state).acted = True
    events = [
        Event(
            kind="move",
            text=f"{core.unit_name(unit)} moves from {start} to {hex_label}.",
            data={"unit": unit.number, "from": start, "to": hex_label},
        )
    ]
    if fire:
        events += core.deal_damage(state, unit, fire, "Fire Wall")
        events += core.check_victory(state, other(unit.seat))
    return events


def _steps(state: Homm3State, unit: CombatUnit, goal: str) -> int:
    assert unit.hex is not None
    route = hexes.path(unit.hex, goal, lambda h: core.empty(state, h, unit.seat))
    return len(route) if route is not None else hexes.distance(unit.hex, goal)


def _check_move(state: Homm3State, unit: CombatUnit, hex_label: str) -> tuple[str, int]:
    combat = core.combat(state)
    normal = hexes.normalize(hex_label)
    if normal is None:
        raise InvalidInput(f"{hex_label!r} is not a hex of the Battlefield (A1 to M9).")
    if combat.acted or combat.attacks:
        raise IllegalMove(f"{core.unit_name(unit)} has already moved or attacked this activation.")
    reach = reachable(state, unit)
    if normal not in reach:
        raise IllegalMove(
            f"{core.unit_name(unit)} cannot reach {normal}: it moves up to {movement(unit, state)} hexes"
            + (
                " over anything to an empty hex."
                if core.kind(unit) == "flying"
                else " through empty hexes."
            )
        )
    return normal, reach[normal]


def move(state: Homm3State, seat: int, hex_label: str) -> list[Event]:
    """Move the active unit; a Ranged unit that moves ends its activation.

    :raises IllegalMove | InvalidInput: for a hex out of reach or a second move.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement,
        homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units
    """
    unit = active_unit(state, seat)
    normal, fire = _check_move(state, unit, hex_label)
    events = _move(state, unit, normal, fire)
    if state.phase != "combat":
        return events
    if core.kind(unit) == "ranged" or not unit.alive:
        events += combat_flow.end_activation(state)
    return events


def targets(state: Homm3State, unit: CombatUnit, from_hex: str | None) -> list[CombatUnit]:
    """Enemy units ``unit`` may attack from ``from_hex`` (its own hex when None): Ground and
    Flying units adjacent ones; Ranged units any, but an adjacent enemy first (core);
    the Arrow Tower only by Ranged units.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units"""
    place = from_hex or unit.hex
    foes = core.living(state, other(unit.seat))
    if core.kind(unit) == "ranged":
        if unit.unit == core.TOWER or place is None:
            return [f for f in foes if f.hex is not None]
        near = [f for f in foes if f.hex is not None and hexes.adjacent(place, f.hex)]
        return near or foes
    if place is None:
        return []
    return [f for f in foes if f.hex is not None and hexes.adjacent(place, f.hex)]


def attack(state: Homm3State, seat: int, target: int, from_hex: str | None) -> list[Event]:
    """Declare an attack by the active unit (after an optional move); both players may then
    play cards before the Attack die is rolled.

    :raises IllegalMove | InvalidInput: for a target or hex the rules do not allow.
    Rule: none (core game: declaring an attack, with an optional move first)
    """
    unit = active_unit(state, seat)
    combat = core.combat(state)
    if combat.attacks:
        raise IllegalMove(f"{core.unit_name(unit)} has already attacked this activation.")
    fire = 0
    place = None
    if from_hex is not None:
        normal = hexes.normalize(from_hex)
        if normal is None:
            raise InvalidInput(f"{from_hex!r} is not a hex of the Battlefield (A1 to M9).")
        if normal != unit.hex:
            if core.kind(unit) == "ranged":
                raise IllegalMove("A Ranged unit either moves or attacks, not both.")
            place, fire = _check_move(state, unit, normal)
    if core.kind(unit) == "ranged" and combat.acted:
        raise IllegalMove("A Ranged unit either moves or attacks, not both.")
    foe = core.get_unit(state, target)
    allowed = targets(state, unit, place)
    if foe not in allowed:
        raise IllegalMove(
            f"{core.unit_name(unit)} cannot attack {core.unit_name(foe)} from {place or unit.hex}; it may attack: "
            + (", ".join(core.unit_name(f) for f in allowed) or "nobody")
            + "."
        )
    events: list[Event] = []
    if place is not None:
        events += _move(state, unit, place, fire)
        if not unit.alive or state.phase != "combat":
            return events + (combat_flow.end_activation(state) if state.phase == "combat" else [])
    combat.attacks = 1
    combat.target = foe.number
    events.append(
        Event(
            kind="attack",
            text=f"{core.unit_name(unit)} attacks {core.unit_name(foe)}.",
            data={"unit": unit.number, "target": foe.number},
        )
    )
    return events + open_window(state, unit, foe)


def can_play(state: Homm3State, seat: int) -> bool:
    """Whether ``seat`` holds anything to play in an attack window (public facts only:
    cards in hand, face-up Positive Morale, the Positive token, a Spell Scroll).
    Rule: none (core game: the card window before an attack)"""
    player = state.player(seat)
    return bool(player.hand or player.positive or player.positive_token or player.scroll)


def open_window(
    state: Homm3State,
    attacker: CombatUnit,
    target: CombatUnit,
    *,
    retaliation: bool = False,
    second: bool = False,
) -> list[Event]:
    """Open the card window before an attack is rolled: the defending side may answer the
    declaration first; the window closes after two passes in a row.
    Rule: none (core game: the card window before an attack)"""
    combat = core.combat(state)
    combat.window = AttackWindow(
        attacker=attacker.number,
        target=target.number,
        retaliation=retaliation,
        second=second,
        priority=target.seat,
        passes=0 if retaliation else 1,
    )
    return settle(state)


def settle(state: Homm3State) -> list[Event]:
    """Pass automatically for a seat with nothing to play; resolve after two passes.

    Rule: none (core game: the card window before an attack)"""
    combat = core.combat(state)
    window = combat.window
    events: list[Event] = []
    while window is not None and combat.window is window and window.die is None:
        if window.passes >= 2:
            return events + resolve(state)
        if can_play(state, window.priority):
            return events
        window.passes += 1
        window.priority = other(window.priority)
    return events


def pass_window(state: Homm3State, seat: int) -> list[Event]:
    """Play no more cards before this attack.

    :raises IllegalMove: when it is not your turn to answer the attack.
    Rule: none (core game: the card window before an attack)
    """
    combat = core.combat(state)
    window = combat.window
    if window is None or window.priority != seat or window.stage != "cards":
        raise IllegalMove("No attack is waiting for your cards.")
    window.passes += 1
    window.priority = other(seat)
    return [
        Event(kind="pass", text=f"{seat_name(seat)} plays no more cards.", data={"seat": seat}),
        *settle(state),
    ]


def played_in_window(state: Homm3State) -> None:
    """A card was played in the window: the other side gets another chance afterwards.

    Rule: none (core game: the card window before an attack)"""
    window = core.combat(state).window
    if window is not None:
        window.passes = 0


def after_card(state: Homm3State) -> list[Event]:
    """After a card or Morale effect: an attack waiting for Resurrection goes on (the Spell
    was cast), a waiting attack whose attacker or target fell is dropped (the activation
    goes on), and an active unit that fell ends its activation.
    Rule: none (core game: Resurrection during an attack)"""
    if state.phase != "combat" or state.combat is None:
        return []
    combat = state.combat
    window = combat.window
    if window is not None and window.stage == "resurrection" and combat.reaction is None:
        return finish(state)
    if window is not None and window.die is None:
        att = next(u for u in combat.units if u.number == window.attacker)
        tgt = next(u for u in combat.units if u.number == window.target)
        if not att.alive or not tgt.alive:
            combat.window = None
            return after_attack(state, window.retaliation)
    if combat.window is None and combat.active is not None:
        unit = next(u for u in combat.units if u.number == combat.active)
        if not unit.alive:
            return combat_flow.end_activation(state)
    return []


def _penalty(state: Homm3State, att: CombatUnit, tgt: CombatUnit) -> bool:
    if core.kind(att) != "ranged" or att.unit == core.TOWER or tgt.unit == core.TOWER:
        return False
    if any(b.seat == att.seat and b.kind == "no_penalty" for b in core.combat(state).bonuses):
        return False
    if att.hex is None or tgt.hex is None:
        return False
    distance = hexes.distance(att.hex, tgt.hex)
    if distance == 1:
        return core.ability(att) not in ("no_close_penalty", "petrifying_gaze")
    return distance >= FAR


def resolve(state: Homm3State) -> list[Event]:
    """Roll the Attack die for the waiting attack (two dice keeping the lower under the
    Ranged penalty or Shaking Hands); the attacker's owner may then reroll a die with the
    Positive token or Expert Luck (`engine.homm3.dice`).
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units (and core game: the Attack
        die)"""
    combat = core.combat(state)
    window = combat.window
    assert window is not None
    att = next(u for u in combat.units if u.number == window.attacker)
    tgt = next(u for u in combat.units if u.number == window.target)
    if not att.alive or not tgt.alive:
        combat.window = None
        return after_attack(state, window.retaliation)
    events: list[Event] = []
    window.stage = "rolled"
    if "lucky" in att.flags:
        window.die = 1
        events.append(
            Event(kind="ability", text="Lucky Strike: the Attack die counts as +1.", data={})
        )
    elif any(f.startswith("bless") for f in att.flags):
        window.die = 0
        events.append(Event(kind="ability", text="Bless: the Attack die is ignored.", data={}))
    else:
        count = 2 if _penalty(state, att, tgt) else 1
        if window.retaliation and core.ability(tgt) == "dread":
            count = 2
            events.append(
                Event(
                    kind="ability",
                    text=f"Dread: {core.unit_name(att)} retaliates with two dice, the lower counts.",
                    data={},
                )
            )
        if morale.trigger(state, att.seat, "attack"):
            count = 2
            events.append(
                Event(
                    kind="morale",
                    text=f"{seat_name(att.seat)}'s Shaking Hands: two dice, the lower counts.",
                    data={},
                )
            )
        faces = []
        for _ in range(count):
            face, event = dice.roll_attack_face(state, "attack", seat_name(att.seat))
            faces.append(face)
            events.append(event)
        window.rolls = [dice.attack_value(f) for f in faces]
        window.die = min(window.rolls)
        if dice.offer(
            state,
            att.seat,
            die="attack",
            faces=faces,
            then="attack",
            args={"stage": "rolled"},
            best=1,
            **_free_reroll(att, window),
        ):
            return events
        events += _lower_die(window)
    return events + finish(state)


def first_attack(window: AttackWindow) -> bool:
    """Whether ``window`` is the first attack of the active unit's activation: the one its
    attack-icon ability acts on (core: "in case of multiple attacks, resolve the effect for
    the first attack only"; a Retaliation is not an attack during the unit's activation).
    Rule: none (core game: abilities of an activation's first attack)"""
    return not window.retaliation and not window.second


def _free_reroll(att: CombatUnit, window: AttackWindow) -> dict[str, Any]:
    """The reroll a unit's own attack gets from its ability: Crusade (every die showing 0)
    or Charge (one die, when it attacks from another hex than it began on)."""
    if not first_attack(window):
        return {}
    skill = core.ability(att)
    if skill == "crusade":
        return {"free": "Crusade", "free_values": (0,)}
    if skill == "charge" and att.start_hex is not None and att.hex != att.start_hex:
        return {"free": "Charge", "free_once": True}
    return {}


def _lower_die(window: AttackWindow) -> list[Event]:
    if len(window.rolls) != 2:
        return []
    return [
        Event(
            kind="penalty",
            text=f"The lower die counts: {window.die:+d}.",
            data={"die": window.die},
        )
    ]


def _dice_kept(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, object]
) -> list[Event]:
    """The thrower keeps its dice (`engine.homm3.dice` continuation): store them in the
    attack and go on resolving it."""
    window = core.combat(state).window
    assert window is not None
    values = [dice.attack_value(f) for f in faces]
    stage = args.get("stage")
    events: list[Event] = []
    if stage == "rolled":
        window.rolls = values
        window.die = min(values)
        events += _lower_die(window)
    elif stage == "guarded":
        window.guard = values[0]
    elif stage == "blow":
        window.blow = values[0]
    else:
        window.gaze = values[0]
    return events + finish(state)


def _protected(state: Homm3State, att: CombatUnit, tgt: CombatUnit) -> bool:
    combat = core.combat(state)
    if combat.siege is None or tgt.seat != combat.siege or core.kind(att) != "ranged":
        return False
    if att.hex is None or tgt.hex is None:
        return False
    wall = load_content().board.wall_column
    side = combat.zones.get(tgt.seat)
    own_half = hexes.column(tgt.hex) > wall if side == "east" else hexes.column(tgt.hex) < wall
    their_half = hexes.column(att.hex) < wall if side == "east" else hexes.column(att.hex) > wall
    standing = {hexes.row(h) for p in combat.placed if p.kind in ("wall", "gate") for h in p.hexes}
    return own_half and their_half and hexes.row(tgt.hex) in standing


def lethal(unit: CombatUnit, damage: int) -> bool:
    """Whether ``damage`` would bring ``unit``'s current side to 0 Health (a Pack flips, a
    Few is defeated): the attack Resurrection may cancel.
    Rule: none (core game: the Pack/Few flip)"""
    return damage > 0 and damage >= core.health(unit) - unit.damage


def resurrection_open(state: Homm3State, seat: int) -> bool:
    """Whether ``seat`` might cast Resurrection now, from public facts only: a Resurrection
    card not known to lie face up, and a card in hand while a Spell is left this round, or
    a Spell Scroll (its Spell counts toward no limit).
    Rule: none (core game: Resurrection)"""
    player = state.player(seat)
    if not zones.unseen(state, ("resurrection",)):
        return False
    return bool(player.scroll) or (bool(player.hand) and core.spells_left(state, seat) > 0)


def finish(state: Homm3State) -> list[Event]:
    """Resolve the rolled attack in stages, each once (a die thrown may pause it for a
    reroll, a choice for Braced Pikes or the Guardian Angel, the damage for Resurrection):
    Braced Pikes, the Defense token's die (+1 Defense on a +1), Attack + die - Defense, the
    result, the Guardian Angel and the window for Resurrection when the target would reach
    0 Health, the damage and abilities, Stone Gaze's die, then Retaliation or the rest of
    the activation.
    Rule: none (core game: attack damage, abilities and Retaliation)"""
    combat = core.combat(state)
    window = combat.window
    assert window is not None and window.die is not None
    att = next(u for u in combat.units if u.number == window.attacker)
    tgt = next(u for u in combat.units if u.number == window.target)
    events: list[Event] = []
    if window.stage == "rolled":
        window.stage = "braced"
        if _offer_brace(state, window, att, tgt):
            return events
    if window.stage == "braced":
        window.stage = "guarded"
        if tgt.defending:
            if morale.trigger(state, tgt.seat, "defend"):
                events.append(
                    Event(
                        kind="morale",
                        text=f"{seat_name(tgt.seat)}'s Broken Guard: the Defense token gives nothing.",
                        data={},
                    )
                )
            else:
                face, event = dice.roll_attack_face(state, "defense_token", seat_name(tgt.seat))
                events.append(event)
                window.guard = dice.attack_value(face)
                if dice.offer(
                    state,
                    tgt.seat,
                    die="attack",
                    faces=[face],
                    then="attack",
                    args={"stage": "guarded"},
                    best=1,
                ):
                    return events
    if window.stage == "guarded":
        window.stage = "blow"
        events += _compute(state, window, att, tgt)
    if window.stage == "blow":
        window.stage = "angel"
        events += _result(state, window, att, tgt)
        if _offer_angel(state, window, tgt):
            return events
    if window.stage == "angel":
        window.stage = "hit"
        if (
            not window.cancelled
            and lethal(tgt, window.damage or 0)
            and tgt.unit != core.TOWER
            and resurrection_open(state, tgt.seat)
        ):
            window.stage = "resurrection"
            window.priority = tgt.seat
            window.passes = 0
            return events
    if window.stage == "resurrection":
        window.stage = "hit"
    if window.stage == "hit":
        window.stage = "gaze"
        near = att.hex is not None and tgt.hex is not None and hexes.adjacent(att.hex, tgt.hex)
        tgt.paralysed = False
        skill = core.ability(att)
        if window.cancelled:
            events.append(
                Event(
                    kind="resurrection",
                    text=f"The attack on {core.unit_name(tgt)} is cancelled.",
                    data={"unit": tgt.number},
                )
            )
        else:
            center = tgt.hex
            events += core.deal_damage(
                state, tgt, window.damage or 0, f"attack of {core.unit_name(att)}"
            )
            events += _after_hit(state, att, tgt, near)
            if skill == "death_cloud" and not window.retaliation and not window.second:
                combat.splash = center
        if first_attack(window):
            events += _after_own_attack(state, window, att)
        # A gaze needs the Medusas still standing: a Fire Shield on the unit they struck
        # may have defeated them in this Retaliation.
        if (
            window.retaliation
            and skill == "petrifying_gaze"
            and att.alive
            and tgt.alive
            and not window.cancelled
            and core.paralyse(tgt)
        ):
            events.append(
                Event(
                    kind="ability",
                    text=f"Petrifying Gaze: {core.unit_name(tgt)} is Paralysed.",
                    data={},
                )
            )
        if window.retaliation and skill == "stone_gaze" and att.alive and tgt.alive:
            face, event = dice.roll_attack_face(state, "paralysis", seat_name(att.seat))
            events.append(event)
            window.gaze = dice.attack_value(face)
            if dice.offer(
                state,
                att.seat,
                die="attack",
                faces=[face],
                then="attack",
                args={"stage": "gaze"},
                best=GAZE,
            ):
                return events
    if window.gaze == GAZE and att.alive and tgt.alive and core.paralyse(tgt):
        events.append(
            Event(kind="ability", text=f"Stone Gaze: {core.unit_name(tgt)} is Paralysed.", data={})
        )
    return events + _close(state, window, att, tgt)


GAZE = 0
"""The Attack die result on which Stone Gaze Paralyses the unit the Medusas retaliated
against."""

NO_RETALIATION: tuple[str, ...] = ("no_retaliation", "blood_feast", "harpy_raid")
"""Abilities of units whose attacks bring no Retaliation."""


def _offer_brace(state: Homm3State, window: AttackWindow, att: CombatUnit, tgt: CombatUnit) -> bool:
    """Braced Pikes: when the Attack die against the unit counts +1, its owner, holding a
    card, is asked (privately: the options name the hand) whether to discard one to make
    the die count as 0. Returns whether the question was opened."""
    player = state.player(tgt.seat)
    if core.ability(tgt) != "braced_pikes" or window.die != 1 or not player.hand:
        return False
    state.choice[tgt.seat] = Choice(
        kind="braced_pikes",
        prompt=f"{seat_name(tgt.seat)}'s Braced Pikes: discard a card to make the Attack die "
        f"against {core.unit_name(tgt)} count as 0?",
        options=["Keep the die at +1"] + [f"Discard {zones.name(state, c)}" for c in player.hand],
        private=True,
        data={"cards": list(player.hand)},
    )
    return True


def answer_brace(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Braced Pikes answered: option 0 keeps the die, another discards that card and makes
    the die count as 0; the attack then goes on.
    Rule: none (core game: Pikemen's Braced Pikes)"""
    window = core.combat(state).window
    assert window is not None
    events: list[Event] = []
    cards = [int(c) for c in choice.data["cards"]]
    if index > 0:
        card = cards[index - 1]
        events.append(zones.discard_from_hand(state, seat, [card]))
        window.die = 0
        events.append(
            Event(
                kind="ability",
                text="Braced Pikes: the Attack die counts as 0.",
                data={"seat": seat},
            )
        )
    return events + finish(state)


def _angel(state: Homm3State, tgt: CombatUnit) -> CombatUnit | None:
    """A Pack of Archangels of ``tgt``'s side, other than ``tgt``, whose Guardian Angel is
    unused this Combat."""
    return next(
        (
            u
            for u in core.living(state, tgt.seat, tower=False)
            if u is not tgt and core.ability(u) == "guardian_angel" and "angel_used" not in u.flags
        ),
        None,
    )


def _offer_angel(state: Homm3State, window: AttackWindow, tgt: CombatUnit) -> bool:
    """Guardian Angel: when the attack would bring another unit of the Archangels' side to
    0 Health, their owner is asked whether to cancel it (a public choice)."""
    if tgt.unit == core.TOWER or not lethal(tgt, window.damage or 0):
        return False
    angel = _angel(state, tgt)
    if angel is None:
        return False
    state.choice[tgt.seat] = Choice(
        kind="guardian_angel",
        prompt=f"{seat_name(tgt.seat)}'s Guardian Angel ({core.unit_name(angel)}): cancel the "
        f"attack that would bring {core.unit_name(tgt)} to 0 Health (once per Combat)?",
        options=["Cancel the attack", "Let it hit"],
        data={"angel": angel.number},
    )
    return True


def answer_angel(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Guardian Angel answered: option 0 cancels the attack (the Archangels' ability is then
    spent for the Combat); the attack then goes on.
    Rule: none (core game: Archangels' Guardian Angel)"""
    window = core.combat(state).window
    assert window is not None
    events: list[Event] = []
    if index == 0:
        angel = core.get_unit(state, int(choice.data["angel"]))
        angel.flags.append("angel_used")
        window.cancelled = True
        events.append(
            Event(
                kind="ability",
                text=f"Guardian Angel: {core.unit_name(angel)} cancel the attack.",
                data={"unit": angel.number},
            )
        )
    return events + finish(state)


def _after_own_attack(state: Homm3State, window: AttackWindow, att: CombatUnit) -> list[Event]:
    """Abilities acting after a unit's own attack (not its Retaliation): Fury draws a card
    on a -1, Blood Feast removes up to 2 damage."""
    events: list[Event] = []
    skill = core.ability(att)
    if skill == "fury" and window.die == -1 and att.alive:
        events.append(
            Event(
                kind="ability",
                text=f"Fury: {seat_name(att.seat)} draws a card.",
                data={"seat": att.seat},
            )
        )
        events += zones.draw(state, att.seat, 1)
    if skill == "blood_feast" and att.alive:
        healed = core.heal(att, 2)
        if healed:
            events.append(
                Event(
                    kind="ability",
                    text=f"Blood Feast: {core.unit_name(att)} removes {healed} damage.",
                    data={},
                )
            )
    return events


def _compute(
    state: Homm3State, window: AttackWindow, att: CombatUnit, tgt: CombatUnit
) -> list[Event]:
    events: list[Event] = []
    die = window.die or 0
    own = first_attack(window)
    skill = core.ability(att)
    if "triple" in att.flags:
        die *= 3
    if own and skill == "terror_strike":
        die += 1
        events.append(
            Event(kind="ability", text=f"Terror Strike: the Attack die counts {die:+d}.", data={})
        )
    window.die = die
    bless = max((int(f.split(":")[1]) for f in att.flags if f.startswith("bless:")), default=0)
    printed = 2 if "cloud" in att.flags else core.attack(state, att, tgt)
    att_value = printed + bless + die
    if own and skill == "cursed_blade" and die >= 0:
        att_value += 1
        events.append(
            Event(kind="ability", text="Cursed Blade: +1 Attack for this attack.", data={})
        )
    def_value = core.defense(state, tgt)
    hide = core.ability(tgt)
    if (hide == "rotting_hide" and die >= 1) or (hide == "rotting_hide_pack" and die >= 0):
        def_value += 1
        events.append(
            Event(
                kind="ability",
                text=f"Rotting Hide: {core.unit_name(tgt)} has +1 Defense against this attack.",
                data={},
            )
        )
    if own and skill == "piercing_sting" and tgt.unit != core.TOWER:
        def_value = max(0, def_value - core.base(tgt)[1])
        events.append(
            Event(
                kind="ability",
                text=f"Piercing Sting: the Defense printed on {core.unit_name(tgt)} does not count.",
                data={},
            )
        )
    if window.guard == 1:
        def_value += 1
        events.append(
            Event(
                kind="defend",
                text=f"{core.unit_name(tgt)}'s Defense token adds 1 Defense.",
                data={},
            )
        )
    damage = max(0, att_value - def_value)
    note = ""
    if damage and _protected(state, att, tgt):
        damage -= 1
        note = "the Wall protects (-1)"
    window.attack_value = att_value
    window.defense_value = def_value
    window.damage = damage
    window.note = note
    return events


def _result(
    state: Homm3State, window: AttackWindow, att: CombatUnit, tgt: CombatUnit
) -> list[Event]:
    combat = core.combat(state)
    damage = window.damage or 0
    die = window.die or 0
    att_value, def_value, note = window.attack_value, window.defense_value, window.note
    combat.last = LastAttack(
        attacker=att.number,
        target=tgt.number,
        attack=att_value,
        die=die,
        defense=def_value,
        damage=damage,
        note=note,
    )
    return [
        Event(
            kind="attack_result",
            text=f"{core.unit_name(att)}: Attack {att_value - die} {die:+d} = {att_value} against Defense {def_value}: "
            f"{damage} damage" + (f" ({note})" if note else "") + ".",
            data={
                "attacker": att.number,
                "target": tgt.number,
                "attack": att_value,
                "die": die,
                "defense": def_value,
                "damage": damage,
            },
        )
    ]


def _close(
    state: Homm3State, window: AttackWindow, att: CombatUnit, tgt: CombatUnit
) -> list[Event]:
    combat = core.combat(state)
    events: list[Event] = []
    near = att.hex is not None and tgt.hex is not None and hexes.adjacent(att.hex, tgt.hex)
    att.modifiers = [m for m in att.modifiers if m.until != "attack"]
    att.flags = [f for f in att.flags if f.split(":")[0] not in core.FLEETING_FLAGS]
    tgt.modifiers = [m for m in tgt.modifiers if m.until != "defended"]
    combat.window = None
    events += core.check_victory(state, att.seat)
    if state.phase != "combat":
        return events
    if (
        not window.retaliation
        and near
        and att.alive
        and tgt.alive
        and core.ability(att) in NO_RETALIATION
    ):
        events.append(
            Event(
                kind="ability",
                text=f"{core.unit_name(tgt)} cannot retaliate against {core.unit_name(att)}.",
                data={},
            )
        )
    elif not window.retaliation and near and att.alive and tgt.alive:
        retaliate = _retaliation(state, tgt)
        if retaliate:
            events.append(
                Event(
                    kind="retaliation",
                    text=f"{core.unit_name(tgt)} retaliates.",
                    data={"unit": tgt.number},
                )
            )
            return events + open_window(state, tgt, att, retaliation=True)
    return events + after_attack(state, window.retaliation)


def pass_resurrection(state: Homm3State, seat: int) -> list[Event]:
    """Cast no Resurrection: the attack's damage is dealt.

    :raises IllegalMove: when no attack waits for ``seat``'s answer.
    Rule: none (core game: Resurrection)
    """
    window = core.combat(state).window
    if window is None or window.stage != "resurrection" or window.priority != seat:
        raise IllegalMove("No attack waits for your answer.")
    return [
        Event(kind="pass", text=f"{seat_name(seat)} casts no Spell.", data={"seat": seat}),
        *finish(state),
    ]


def _retaliation(state: Homm3State, unit: CombatUnit) -> bool:
    if unit.unit == core.TOWER:
        return False
    free = core.ability(unit) == "unlimited_retaliation"
    if unit.retaliated and not free and not unit.extra_retaliation:
        return False
    if morale.trigger(state, unit.seat, "retaliation"):
        return False
    if unit.retaliated and not free:
        unit.extra_retaliation = False
    unit.retaliated = True
    return True


def _after_hit(state: Homm3State, att: CombatUnit, tgt: CombatUnit, near: bool) -> list[Event]:
    events: list[Event] = []
    for flag in tgt.flags:
        if flag.startswith("fire_shield:") and near and att.alive:
            events += core.deal_damage(state, att, int(flag.split(":")[1]), "Fire Shield")
    return events


def after_attack(state: Homm3State, retaliation: bool) -> list[Event]:
    """After an attack and its Retaliation: the Marksmen's Double Shot, the Liches' Death
    Cloud (its owner names the unit), the Harpies' return flight, then the end of the
    activation.
    Rule: none (core game: Marksmen's Double Shot, Liches' Death Cloud)"""
    combat = core.combat(state)
    if combat.active is None:
        return []
    unit = next(u for u in combat.units if u.number == combat.active)
    splash, combat.splash = combat.splash, None
    if not unit.alive:
        return combat_flow.end_activation(state)
    target = next((u for u in combat.units if u.number == combat.target), None)
    skill = core.ability(unit)
    if (
        combat.attacks == 1
        and skill == "double_shot"
        and target is not None
        and target.alive
        and unit.hex is not None
        and target.hex is not None
        and not hexes.adjacent(unit.hex, target.hex)
        and target in targets(state, unit, None)
    ):
        combat.attacks = 2
        return [
            Event(
                kind="attack", text=f"Double Shot: {core.unit_name(unit)} shoots again.", data={}
            ),
            *open_window(state, unit, target, second=True),
        ]
    if combat.attacks == 1 and skill == "death_cloud" and splash is not None:
        near = cloud_targets(state, unit, splash)
        if near:
            state.choice[unit.seat] = Choice(
                kind="death_cloud",
                prompt=f"{seat_name(unit.seat)}'s Death Cloud: {core.unit_name(unit)} attacks a "
                f"unit next to {splash} with Attack 2.",
                options=["Attack no other unit"]
                + [f"Attack {core.unit_name(u)} on {u.hex}" for u in near],
                data={"units": [u.number for u in near]},
            )
            return []
    events: list[Event] = []
    back = unit.start_hex
    if (
        skill in ("strike_and_return", "harpy_raid")
        and back
        and unit.hex != back
        and core.empty(state, back)
    ):
        events.append(
            Event(kind="move", text=f"{core.unit_name(unit)} flies back to {back}.", data={})
        )
        unit.hex = back
    return events + combat_flow.end_activation(state)


def cloud_targets(state: Homm3State, unit: CombatUnit, center: str) -> list[CombatUnit]:
    """Units a Pack of Liches' Death Cloud may strike: every unit on a hex next to
    ``center`` (the first target's hex) but the Liches themselves, enemies first.
    Rule: none (core game: Liches' Death Cloud)"""
    near = [
        u
        for u in core.living(state, tower=False)
        if u is not unit and u.hex is not None and hexes.adjacent(center, u.hex)
    ]
    return sorted(near, key=lambda u: (u.seat == unit.seat, u.number))


def answer_cloud(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Death Cloud answered: option 0 attacks no other unit; another attacks the named unit
    with Attack 2 (a second attack of the activation, its own card window first).
    Rule: none (core game: Liches' Death Cloud)"""
    combat = core.combat(state)
    numbers = [int(n) for n in choice.data["units"]]
    unit = next(u for u in combat.units if u.number == combat.active)
    if index == 0:
        return [
            Event(
                kind="ability",
                text=f"{seat_name(seat)}'s Death Cloud strikes no other unit.",
                data={},
            ),
            *combat_flow.end_activation(state),
        ]
    victim = core.get_unit(state, numbers[index - 1])
    combat.attacks = 2
    combat.target = victim.number
    unit.flags.append("cloud")
    return [
        Event(
            kind="attack",
            text=f"Death Cloud: {core.unit_name(unit)} attacks {core.unit_name(victim)} with Attack 2.",
            data={"attacker": unit.number, "target": victim.number},
        ),
        *open_window(state, unit, victim, second=True),
    ]


def attack_wall(state: Homm3State, seat: int, hex_label: str, from_hex: str | None) -> list[Event]:
    """The active Ground or Flying unit destroys the adjacent Wall or Gate (always; no die,
    no cards); when no Wall or Gate stands, the Arrow Tower falls too.

    :raises IllegalMove | InvalidInput: outside a Siege, for a Ranged unit, or no adjacent
        Wall or Gate on that hex.
    Rule: homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege
    """
    unit = active_unit(state, seat)
    combat = core.combat(state)
    if combat.attacks:
        raise IllegalMove(f"{core.unit_name(unit)} has already attacked this activation.")
    if core.kind(unit) == "ranged":
        raise IllegalMove("Walls and the Gate fall to Ground or Flying units only.")
    target = hexes.normalize(hex_label)
    placed = next(
        (p for p in combat.placed if p.kind in ("wall", "gate") and target in p.hexes), None
    )
    if target is None or placed is None:
        raise InvalidInput(f"There is no Wall or Gate on {hex_label}.")
    place, fire = unit.hex, 0
    if from_hex is not None and hexes.normalize(from_hex) != unit.hex:
        place, fire = _check_move(state, unit, from_hex)
    assert place is not None
    if not any(hexes.adjacent(place, h) for h in placed.hexes):
        raise IllegalMove(
            f"{core.unit_name(unit)} must stand next to the {placed.name} to destroy it."
        )
    events: list[Event] = []
    if place != unit.hex:
        events += _move(state, unit, place, fire)
        if not unit.alive or state.phase != "combat":
            return events + (combat_flow.end_activation(state) if state.phase == "combat" else [])
    combat.placed.remove(placed)
    combat.attacks = 1
    events.append(
        Event(
            kind="wall",
            text=f"{core.unit_name(unit)} destroys the {placed.name} on {', '.join(placed.hexes)}.",
            data={"hexes": placed.hexes},
        )
    )
    events += walls_down(state)
    return events + combat_flow.end_activation(state)


def walls_down(state: Homm3State) -> list[Event]:
    """With every Wall and the Gate down, the Arrow Tower falls (it stands on the Walls).

    Rule: homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege (and core game: the
        Citadel's Arrow Tower)"""
    combat = core.combat(state)
    if any(p.kind in ("wall", "gate") for p in combat.placed) or combat.tower is None:
        return []
    tower = next(u for u in combat.units if u.number == combat.tower)
    if not tower.alive:
        return []
    tower.alive = False
    return [
        Event(
            kind="defeated",
            text="With every Wall and the Gate down, the Arrow Tower falls.",
            data={},
        )
    ]


def defend(state: Homm3State, seat: int) -> list[Event]:
    """The active unit takes a Defense token instead of attacking and ends its activation.

    :raises IllegalMove: after it attacked.
    Rule: none (core game: Defend)
    """
    unit = active_unit(state, seat)
    if core.combat(state).attacks:
        raise IllegalMove(f"{core.unit_name(unit)} has already attacked; it cannot Defend now.")
    unit.defending = True
    return [
        Event(
            kind="defend",
            text=f"{core.unit_name(unit)} Defends (Defense token).",
            data={"unit": unit.number},
        ),
        *combat_flow.end_activation(state),
    ]


def end(state: Homm3State, seat: int) -> list[Event]:
    """End the active unit's activation.

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    active_unit(state, seat)
    return combat_flow.end_activation(state)


dice.register("attack", _dice_kept)
effects.register_answer("braced_pikes", answer_brace)
effects.register_answer("guardian_angel", answer_angel)
effects.register_answer("death_cloud", answer_cloud)
