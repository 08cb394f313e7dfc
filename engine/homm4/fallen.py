"""Resurrecting Fallen Heroes (advanced rule): dead Heroes lie face down with their
inventory, are carried by a friendly Army to one of their player's Towns and rise there;
an enemy Army with a Hero may take the Artifacts of one lying on the board.

Rule section: homm4:advanced-rules.resurrecting-fallen-heroes.

Readings:

* A Hero killed in battle (`battle_core.kill_card`) waits face down in
  `Battle.dead_heroes`. When the battle ends (`after_battle`), if its side won and the
  Army it fought in is still on the board, that Army carries it; otherwise it lies on the
  battle hex under a numbered Object token (`FallenHero.token`).
* After every command (`settle`): a carried Hero follows its Army (merging Armies hand it
  on; an Army that leaves the board drops it where it last stood); one lying on a hex is
  picked up by an Army of its own player standing there; a carried Hero whose Army stands
  on a Town of its player rises at once: face up again on top of that Army, inventory
  and all, as if it had never died.
* "Friendly" is read as the Hero's own player (a teammate's Army does not carry it).
* `loot`: while a dead Hero lies on the board, an enemy Army with a Hero standing on that
  hex may take all its Artifacts (a command, ``loot_hero``; each goes to a Hero of the
  Army with a free slot, as a captured Artifact does).
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import artifacts, board, zones
from engine.homm4.commands import LootHero
from engine.homm4.state import Army, FallenHero, Homm4State


def after_battle(state: Homm4State, winner: int) -> list[Event]:
    """Place the Heroes killed in the battle that is ending: carried by their Army when
    their side won and the Army is still on the board, else lying on the battle hex.
    Rule: homm4:advanced-rules.resurrecting-fallen-heroes."""
    battle = state.battle
    if battle is None or not battle.dead_heroes:
        return []
    events: list[Event] = []
    where = board.label(state, battle.hex)
    for hero, army_id in battle.dead_heroes:
        side = 0 if army_id is not None and army_id in battle.attacker_armies else 1
        seat = battle.attacker if side == 0 else battle.defender
        army = next((a for a in state.armies if a.id == army_id and a.cards), None)
        if side == winner and army is not None:
            state.fallen_heroes.append(FallenHero(hero=hero, seat=seat, hex=army.hex, army=army.id))
            events.append(
                Event(
                    kind="hero_carried",
                    text=f"{zones.name(state, hero)} lies dead; {army_rules.army_label(army)} "
                    "carries the body toward a friendly Town to be resurrected.",
                    data={"hero": hero, "seat": seat, "army": army.id},
                )
            )
            continue
        token = state.next_token
        state.next_token += 1
        state.fallen_heroes.append(
            FallenHero(hero=hero, seat=seat, hex=battle.hex, army=None, token=token)
        )
        events.append(
            Event(
                kind="hero_fallen",
                text=f"{zones.name(state, hero)} lies dead at {where} (Object token {token}); "
                f"an Army of {seat_name(seat)} may carry the body to a Town.",
                data={"hero": hero, "seat": seat, "hex": where, "token": token},
            )
        )
    battle.dead_heroes = []
    return events


def _carrier(state: Homm4State, fallen: FallenHero) -> Army | None:
    if fallen.army is None:
        return None
    return next((a for a in state.armies if a.id == fallen.army), None)


def hand_on(state: Homm4State, old_army: int, new_army: int) -> None:
    """The dead Heroes carried by ``old_army`` are now carried by ``new_army`` (the Armies
    merged). Rule: homm4:advanced-rules.resurrecting-fallen-heroes."""
    for fallen in state.fallen_heroes:
        if fallen.army == old_army:
            fallen.army = new_army


def carried_by(state: Homm4State, army_id: int) -> list[int]:
    """Return the dead Heroes ``army_id`` carries.

    Rule: homm4:advanced-rules.resurrecting-fallen-heroes.
    """
    return [f.hero for f in state.fallen_heroes if f.army == army_id]


def settle(state: Homm4State) -> list[Event]:
    """Follow, drop, pick up and resurrect dead Heroes after a command (see the module
    docstring). Rule: homm4:advanced-rules.resurrecting-fallen-heroes."""
    if not state.fallen_heroes or state.battle is not None:
        return []
    events: list[Event] = []
    kept: list[FallenHero] = []
    for fallen in state.fallen_heroes:
        carrier = _carrier(state, fallen)
        if fallen.army is not None and carrier is None:
            fallen.army = None
            fallen.token = state.next_token
            state.next_token += 1
            events.append(
                Event(
                    kind="hero_fallen",
                    text=f"The body of {zones.name(state, fallen.hero)} is left at "
                    f"{board.label(state, fallen.hex)} (Object token {fallen.token}).",
                    data={"hero": fallen.hero, "hex": board.label(state, fallen.hex)},
                )
            )
        if carrier is not None:
            fallen.hex = carrier.hex
        if fallen.army is None:
            friends = [a for a in zones.armies_at(state, fallen.hex) if a.owner == fallen.seat]
            if friends:
                carrier = min(friends, key=lambda a: a.id)
                fallen.army = carrier.id
                fallen.token = 0
                events.append(
                    Event(
                        kind="hero_carried",
                        text=f"{army_rules.army_label(carrier)} picks up the body of "
                        f"{zones.name(state, fallen.hero)}.",
                        data={"hero": fallen.hero, "seat": fallen.seat, "army": carrier.id},
                    )
                )
        if carrier is not None and _in_own_town(state, carrier, fallen.seat):
            events.extend(_resurrect(state, fallen, carrier))
            continue
        kept.append(fallen)
    state.fallen_heroes = kept
    return events


def _in_own_town(state: Homm4State, army: Army, seat: int) -> bool:
    site = zones.site_at(state, army.hex)
    return site is not None and site.kind == "town" and site.owner == seat and army.owner == seat


def _resurrect(state: Homm4State, fallen: FallenHero, army: Army) -> list[Event]:
    army.cards = army_rules.stack_order(state, [fallen.hero, *army.cards])
    inv = state.inventories.get(fallen.hero)
    if inv is not None:
        inv.mana_spent = 0
    return [
        Event(
            kind="hero_resurrected",
            text=f"{zones.name(state, fallen.hero)} is resurrected in the Town at "
            f"{board.label(state, army.hex)} and rejoins {army_rules.army_label(army)}.",
            data={"hero": fallen.hero, "seat": fallen.seat, "army": army.id},
        )
    ]


def lootable(state: Homm4State, seat: int) -> list[tuple[Army, FallenHero]]:
    """Every (Army of ``seat`` with a Hero, enemy dead Hero with Artifacts lying on its
    hex) pair. Rule: homm4:advanced-rules.resurrecting-fallen-heroes."""
    found: list[tuple[Army, FallenHero]] = []
    for fallen in state.fallen_heroes:
        if fallen.army is not None or state.options.allies(seat, fallen.seat):
            continue
        inv = state.inventories.get(fallen.hero)
        if inv is None or not inv.artifacts:
            continue
        for army in zones.armies_at(state, fallen.hex):
            if army.owner == seat and army_rules.army_heroes(state, army):
                found.append((army, fallen))
    return found


def loot_options(state: Homm4State, seat: int) -> list[LootHero]:
    """Every ``loot_hero`` command ``seat`` may give now.

    Rule: homm4:advanced-rules.resurrecting-fallen-heroes.
    """
    if not state.options.resurrection:
        return []
    return [LootHero(army=a.id, hero=f.hero) for a, f in lootable(state, seat)]


def loot(state: Homm4State, seat: int, command: LootHero) -> list[Event]:
    """Take every Artifact of an enemy dead Hero lying where ``command.army`` stands; each
    goes to a Hero of the Army with a free fitting slot (else the top Hero makes room)
    (homm4:advanced-rules.resurrecting-fallen-heroes).

    :raises IllegalMove: without the rule, or when the Army, the Hero or the hex do not fit.
    """
    if not state.options.resurrection:
        raise IllegalMove(
            "Dead Heroes are discarded in this game (Resurrecting Fallen Heroes is off)."
        )
    army = zones.army(state, command.army)
    if army.owner != seat:
        raise IllegalMove(f"Army {command.army} is not yours.")
    match = [f for a, f in lootable(state, seat) if a.id == army.id and f.hero == command.hero]
    if not match:
        raise IllegalMove(
            f"{army_rules.army_label(army)} can loot only an enemy dead Hero lying on its own hex, "
            "with a Hero in the Army and Artifacts to take."
        )
    fallen = match[0]
    inv = state.inventories[fallen.hero]
    taken = sorted(inv.artifacts)
    inv.artifacts = {}
    events = [
        Event(
            kind="hero_looted",
            text=f"{seat_name(seat)}'s {army_rules.army_label(army)} takes the Artifacts of the dead "
            f"{zones.name(state, fallen.hero)}: {', '.join(zones.name(state, a) for a in taken)}.",
            data={"seat": seat, "army": army.id, "hero": fallen.hero, "artifacts": taken},
        )
    ]
    for artifact in taken:
        events += artifacts.give_artifact(state, seat, army, artifact)
    return events
