"""Battlefield Combat basics: unit values with their modifiers, occupancy, damage, the
Pack/Few flip and the victory check.

Rule sections: homm3bf:battlefield-combat (units are models on hexes; every model and
Obstacle blocks non-flying movement), homm3bf:...unit-movement (Movement equals current
Initiative), homm3bf:adventure-mode.victory-condition and homm3bf:skirmish-mode.victory-
condition (defeat every unit the other player deployed); core: a Pack reduced to 0 Health
flips to Few with the excess damage carried over, a Few at 0 is removed; Paralysis is
removed when the unit is attacked or damaged; Spell damage ignores Defense.
"""

from __future__ import annotations

from engine.core.errors import InvalidInput
from engine.core.model import Event, seat_name
from engine.homm3 import hexes
from engine.homm3.content import TIER_ORDER, UnitCard, load_content
from engine.homm3.state import CombatState, CombatUnit, Homm3State

TOWER = "arrow_tower"
"""Unit id of the Arrow Tower in a Siege."""

FLEETING_FLAGS = ("bless", "lucky", "triple", "cloud")
"""Flags that last until the unit's next attack resolves or the activation ends."""


def combat(state: Homm3State) -> CombatState:
    """The running Combat. :raises InvalidInput: when no Combat is running.

    Rule: none (bookkeeping)"""
    if state.combat is None:
        raise InvalidInput("There is no Combat now.")
    return state.combat


def unit_card(unit: CombatUnit) -> UnitCard | None:
    """The unit card (None for the Arrow Tower).

    Rule: none (bookkeeping)"""
    return load_content().units.get(unit.unit)


def unit_name(unit: CombatUnit) -> str:
    """``"[3] Pack of Griffins"`` (the Arrow Tower: ``"[9] Arrow Tower"``).

    Rule: none (label)"""
    card = unit_card(unit)
    if card is None:
        return f"[{unit.number}] Arrow Tower"
    return f"[{unit.number}] {'Pack' if unit.pack else 'Few'} of {card.name}"


def kind(unit: CombatUnit) -> str:
    """``ground`` / ``ranged`` / ``flying`` (the Arrow Tower is Ranged).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement,
        homm3bf:battlefield-combat.changes-to-combat-rules.ranged-units"""
    card = unit_card(unit)
    return "ranged" if card is None else card.kind


def tier(unit: CombatUnit) -> int:
    """Tier rank 1-3 (the Arrow Tower counts as Gold).

    Rule: none (core game: unit tiers)"""
    card = unit_card(unit)
    return 3 if card is None else TIER_ORDER[card.tier]


def ability(unit: CombatUnit) -> str | None:
    """The unit's special ability on its current side (None when disrupted).

    Rule: none (core game: unit abilities)"""
    card = unit_card(unit)
    if card is None or "disrupted" in unit.flags:
        return None
    return card.side(unit.pack).ability


def _mods(unit: CombatUnit, stat: str) -> int:
    return sum(m.amount for m in unit.modifiers if m.stat == stat)


def base(unit: CombatUnit) -> tuple[int, int, int, int]:
    """Printed ``(Attack, Defense, Health, Initiative)`` of the unit's current side.

    Rule: none (core game: unit card values)"""
    card = unit_card(unit)
    if card is None:
        tower = load_content().arrow_tower
        return tower.attack, tower.defense, tower.health, tower.initiative
    side = card.side(unit.pack)
    return side.attack, side.defense, side.health, side.initiative


def health(unit: CombatUnit) -> int:
    """Current Health (printed + modifiers, at least 1).

    Rule: none (core game: Health and its modifiers)"""
    return max(1, base(unit)[2] + _mods(unit, "health"))


def initiative(state: Homm3State, unit: CombatUnit) -> int:
    """Current Initiative (printed + modifiers + side bonuses, at least 0).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    value = base(unit)[3] + _mods(unit, "initiative")
    if state.combat is not None and kind(unit) == "ground":
        value += sum(
            b.attack
            for b in state.combat.bonuses
            if b.seat == unit.seat and b.kind == "ground_initiative"
        )
    return max(0, value)


def defense(state: Homm3State, unit: CombatUnit) -> int:
    """Current Defense (printed + modifiers + Archery's Defense, at least 0).

    Rule: none (core game: Defense and its modifiers)"""
    value = base(unit)[1] + _mods(unit, "defense")
    if state.combat is not None and kind(unit) == "ranged":
        value += sum(
            b.defense for b in state.combat.bonuses if b.seat == unit.seat and b.kind == "archery"
        )
    return max(0, value)


def attack(state: Homm3State, unit: CombatUnit, target: CombatUnit | None = None) -> int:
    """Current Attack against ``target`` (printed + modifiers + Archery where it applies;
    at least 0).
    Rule: none (core game: Attack and its modifiers)"""
    value = base(unit)[0] + _mods(unit, "attack")
    if target is not None and state.combat is not None:
        near = (
            unit.hex is not None and target.hex is not None and hexes.adjacent(unit.hex, target.hex)
        )
        if kind(unit) == "ranged" and not near:
            value += sum(
                b.attack
                for b in state.combat.bonuses
                if b.seat == unit.seat and b.kind == "archery"
            )
    return max(0, value)


def living(state: Homm3State, seat: int | None = None, *, tower: bool = True) -> list[CombatUnit]:
    """Units still standing (optionally of one seat; ``tower=False`` leaves the Arrow Tower
    out), in number order.
    Rule: homm3bf:adventure-mode.victory-condition, homm3bf:skirmish-mode.victory-condition"""
    units = [u for u in combat(state).units if u.alive and (seat is None or u.seat == seat)]
    return [u for u in units if tower or u.unit != TOWER]


def unit_at(state: Homm3State, hex_label: str) -> CombatUnit | None:
    """The living unit on ``hex_label``, if any.

    Rule: homm3bf:battlefield-combat"""
    return next((u for u in combat(state).units if u.alive and u.hex == hex_label), None)


def get_unit(state: Homm3State, number: int) -> CombatUnit:
    """The unit numbered ``number``. :raises InvalidInput: naming the numbers in play.

    Rule: none (bookkeeping)"""
    for unit in combat(state).units:
        if unit.number == number and unit.alive:
            return unit
    numbers = ", ".join(str(u.number) for u in combat(state).units if u.alive)
    raise InvalidInput(f"There is no unit [{number}] on the Battlefield; units: {numbers}.")


def blocked_by_obstacle(state: Homm3State, hex_label: str, seat: int | None = None) -> bool:
    """Whether an Obstacle, Wall, Gate (except for its defender) or Force Field stands on
    the hex. Fire Walls do not block.
    Rule: homm3bf:battlefield-combat.place-obstacles,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege"""
    for placed in combat(state).placed:
        if hex_label not in placed.hexes:
            continue
        if placed.kind == "gate" and seat is not None and seat == combat(state).siege:
            continue
        if placed.kind in ("obstacle", "wall", "gate", "force_field"):
            return True
    return False


def empty(state: Homm3State, hex_label: str, seat: int | None = None) -> bool:
    """No unit and no blocking Obstacle on the hex (the defender may stand on its Gate).

    Rule: homm3bf:battlefield-combat.place-obstacles,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege"""
    return unit_at(state, hex_label) is None and not blocked_by_obstacle(state, hex_label, seat)


def fire_wall_at(state: Homm3State, hex_label: str) -> int:
    """The damage of a Fire Wall on the hex (0 when none).

    Rule: homm3bf:battlefield-combat.place-obstacles"""
    return max(
        (p.damage for p in combat(state).placed if p.kind == "fire_wall" and hex_label in p.hexes),
        default=0,
    )


def spell_immune(unit: CombatUnit) -> bool:
    """A Pack of Black Dragons' Magic Immunity: Spells cannot target or damage it.

    Rule: none (core game: Black Dragons' Magic Immunity)"""
    return ability(unit) == "spell_immunity"


DRAGON_HIDE = 2
"""Spell damage a Few of Black Dragons ignores."""


def magic_damage(unit: CombatUnit, amount: int, kind: str) -> int:
    """The damage ``unit`` takes from a card of ``kind`` (``spell``, ``specialty`` or
    another) dealing ``amount``: none to Magic Immunity from a Spell or a Specialty card,
    2 less (at least 0) to Dragon Hide from a Spell.
    Rule: none (core game: Spell damage ignores Defense)"""
    skill = ability(unit)
    if skill == "spell_immunity" and kind in ("spell", "specialty"):
        return 0
    if skill == "dragon_hide" and kind == "spell":
        return max(0, amount - DRAGON_HIDE)
    return amount


def deal_damage(state: Homm3State, unit: CombatUnit, amount: int, source: str) -> list[Event]:
    """Put ``amount`` damage on ``unit``: a Pack at 0 Health flips to Few with the excess
    carried over, a Few at 0 is defeated and leaves the board. Removes Paralysis.
    Rule: none (core game: damage and the Pack/Few flip)"""
    if amount <= 0 or not unit.alive:
        return []
    unit.paralysed = False
    unit.damage += amount
    events = [
        Event(
            kind="damage",
            text=f"{unit_name(unit)} suffers {amount} damage ({source}).",
            data={"unit": unit.number, "amount": amount, "seat": unit.seat},
        )
    ]
    return events + settle_health(unit)


def settle_health(unit: CombatUnit) -> list[Event]:
    """Flip or remove ``unit`` when its damage reaches its Health (after damage, or after
    its Health was lowered).
    Rule: none (core game: the Pack/Few flip)"""
    events: list[Event] = []
    before = unit_name(unit)
    while unit.alive and unit.damage >= health(unit):
        if unit.pack:
            unit.damage -= health(unit)
            unit.pack = False
            events.append(
                Event(
                    kind="flip",
                    text=f"{before} is reduced to a Few ({unit.damage} damage carried over).",
                    data={"unit": unit.number},
                )
            )
        else:
            unit.alive = False
            unit.hex = None
            unit.damage = 0
            events.append(
                Event(
                    kind="defeated",
                    text=f"{before} is defeated.",
                    data={"unit": unit.number, "seat": unit.seat},
                )
            )
    return events


def heal(unit: CombatUnit, amount: int) -> int:
    """Remove up to ``amount`` damage; returns how much was removed.

    Rule: none (core game: healing)"""
    removed = min(unit.damage, max(0, amount))
    unit.damage -= removed
    return removed


def check_victory(state: Homm3State, acting: int) -> list[Event]:
    """End the game when a side has no unit left (the Arrow Tower does not count): the
    other side wins (homm3bf:skirmish-mode.victory-condition). When both fall at once, the
    side that acted wins."""
    if state.phase == "over" or state.combat is None or state.combat.stage != "round":
        return []
    standing = [seat for seat in range(state.players) if living(state, seat, tower=False)]
    if len(standing) == 2:
        return []
    winner = standing[0] if standing else acting
    loser = 1 - winner
    state.phase = "over"
    state.combat.end()
    state.winners = [winner]
    state.reason = f"{seat_name(winner)} has defeated every unit {seat_name(loser)} deployed."
    state.choice.clear()
    state.queue.clear()
    return [Event(kind="victory", text=state.reason, data={"winner": winner})]


def paralyse(unit: CombatUnit) -> bool:
    """Put a Paralysis token on ``unit`` (Troglodytes' Sightless refuses it).

    Rule: none (core game: Paralysis)"""
    if ability(unit) == "sightless":
        return False
    unit.paralysed = True
    return True


def expire(state: Homm3State, *, activation_end: bool = False) -> None:
    """Drop modifiers that end with the activation (``attack`` and ``defended`` ones) and
    the fleeting flags (Bless, Lucky Strike, Centaur's Axe).
    Rule: none (core game: how long card effects last)"""
    if not activation_end:
        return
    for unit in combat(state).units:
        unit.modifiers = [m for m in unit.modifiers if m.until not in ("attack", "defended")]
        unit.flags = [f for f in unit.flags if f.split(":")[0] not in FLEETING_FLAGS]


def spells_left(state: Homm3State, seat: int) -> int:
    """Spells ``seat`` may still cast this Combat round (1, plus Knowledge's Expert).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic (and core
        game: one Spell per Combat round)"""
    found = combat(state)
    return 1 + found.spell_bonus.get(seat, 0) - found.spells.get(seat, 0)
