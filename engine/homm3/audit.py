"""The homm3 conservation invariants: every card instance lies in exactly one zone, every
living unit on the board stands on its own hex, and no count goes negative.

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
    return found
