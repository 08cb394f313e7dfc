"""The homm3 conservation invariants: every card instance lies in exactly one zone, every
living unit on the board stands on its own hex, no count goes negative, and every unit an
open moment of the Combat names (the attack window, the activation...) is still on the
Battlefield, none staying open once the Combat is over.

Used by random playouts and ``heroes-table simulate --ruleset homm3``.
"""

from __future__ import annotations

from collections import Counter

from engine.homm3.state import Homm3State


def zones(state: Homm3State) -> dict[str, list[int]]:
    """Every card zone by name (``"seat0.hand"``, ``"spell_deck"``...) -> its instances.

    Rule: none (bookkeeping: conservation invariants)"""
    out: dict[str, list[int]] = {}
    for player in state.seats:
        for zone in (
            "deck",
            "hand",
            "discard",
            "removed",
            "aside",
            "scroll",
            "permanent",
            "positive",
            "negative",
            "adventure_hand",
            "resolved",
        ):
            out[f"seat{player.seat}.{zone}"] = list(getattr(player, zone))
    for zone in (
        "ability_deck", "ability_discard", "artifact_deck", "artifact_discard", "spell_deck", "spell_discard",
        "adventure_deck", "adventure_discard", "positive_deck", "negative_deck",
    ):  # fmt: skip
        out[zone] = list(getattr(state, zone))
    for seat, cards in state.looking.items():
        out[f"looking{seat}"] = list(cards)
    if state.adventure is not None:
        looked = {c for cards in state.looking.values() for c in cards}
        out["adventure.drawn"] = [c for c in state.adventure.drawn if c not in looked]
    return out


def problems(state: Homm3State) -> list[str]:
    """Broken invariants of ``state`` (empty when sound).

    Rule: none (bookkeeping: conservation invariants)"""
    found: list[str] = []
    where: dict[int, list[str]] = {}
    for zone, cards in zones(state).items():
        for card in cards:
            where.setdefault(card, []).append(zone)
    for card in state.cards:
        places = where.get(card, [])
        if len(places) != 1:
            found.append(f"card #{card} ({state.cards[card]}) is in {len(places)} zones: {places}")
    for card in where:
        if card not in state.cards:
            found.append(f"unknown card #{card} in {where[card]}")
    for player in state.seats:
        res = player.resources
        if min(res.gold, res.materials, res.valuables) < 0:
            found.append(f"seat {player.seat} has negative Resources")
        if player.experts < 0:
            found.append(f"seat {player.seat} has negative Expert uses")
        if len(player.permanent) > 1:
            found.append(f"seat {player.seat} has more than one Permanent card")
        if len(player.positive) > 2:
            found.append(f"seat {player.seat} holds more than 2 Positive Morale cards")
    if state.combat is not None:
        spots = Counter(u.hex for u in state.combat.units if u.alive and u.hex is not None)
        for hex_label, count in spots.items():
            if count > 1:
                found.append(f"{count} units stand on {hex_label}")
        for unit in state.combat.units:
            if unit.alive and unit.damage < 0:
                found.append(f"unit {unit.number} has negative damage")
        found += gone_units(state)
    return found


def named_units(state: Homm3State) -> list[tuple[str, int]]:
    """``(what, unit number)`` for every unit an open moment of the Combat names: the attack
    window's attacker and target, the active unit, the units a Spell waiting for its answer
    targets, and those of an open Death Cloud or Guardian Angel choice.

    Rule: none (bookkeeping: what must still stand on the Battlefield)"""
    combat = state.combat
    if combat is None:
        return []
    named: list[tuple[str, int]] = []
    if combat.window is not None:
        named += [
            ("the attack window's attacker", combat.window.attacker),
            ("the attack window's target", combat.window.target),
        ]
    if combat.active is not None:
        named.append(("the active unit", combat.active))
    if combat.reaction is not None:
        command = combat.reaction.command
        targets = [command["unit"]] if command.get("unit") is not None else []
        named += [
            ("the waiting Spell's target", int(n)) for n in targets + list(command.get("units", ()))
        ]
    for seat, choice in state.choice.items():
        if choice.kind == "death_cloud":
            named += [(f"seat {seat}'s Death Cloud choice", int(n)) for n in choice.data["units"]]
        elif choice.kind == "guardian_angel":
            named.append((f"seat {seat}'s Guardian Angel choice", int(choice.data["angel"])))
    return named


def gone_units(state: Homm3State) -> list[str]:
    """Problems of a Combat whose open moments name a unit that is no longer on the
    Battlefield (defeated, or never there), or a finished Combat that left one open.

    Rule: none (bookkeeping: a defeated unit leaves the board, homm3bf:battlefield-combat)"""
    combat = state.combat
    if combat is None:
        return []
    found: list[str] = []
    standing = {u.number for u in combat.units if u.alive}
    for what, number in named_units(state):
        if number not in standing:
            found.append(f"{what} [{number}] is not on the Battlefield")
    if state.phase == "over" or combat.stage == "over":
        still = [
            name
            for name, value in (
                ("an attack window", combat.window),
                ("a Spell waiting for its answer", combat.reaction),
                ("the Combat's start", combat.opening),
                ("an activation", combat.active),
                ("the choice of the next unit", combat.chooser),
            )
            if value is not None
        ]
        if still:
            found.append(f"the Combat is over but {', '.join(still)} is still open")
        if (state.phase == "over") != (combat.stage == "over"):
            found.append(f"the game's phase is {state.phase} and the Combat's stage {combat.stage}")
    return found
