"""State audits for tests and simulations: every card instance is in exactly one zone.

Rule section: homm4:setup (every card belongs to a deck, a discard pile, a Hand, a Risk
Stack or the table). The zones are listed in `engine.homm4.state`'s module docstring;
battle records (creatures, fallen cards) only refer to cards that lie in those zones.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.homm4.state import ArtifactRoom, ChipIn, Homm4State


def card_zones(state: Homm4State) -> Iterator[tuple[str, int]]:
    """Yield ``(zone name, instance)`` for every card in every zone of ``state``.

    Rule: homm4:setup (the zones a card lies in).
    """
    for player in state.players_state:
        seat = player.seat
        for zone in ("deck", "discard", "hand", "risk", "starting_stack"):
            for instance in getattr(player, zone):
                yield f"seat {seat} {zone}", instance
        if player.free_town is not None:
            yield f"seat {seat} free_town", player.free_town
    for army in state.armies:
        for instance in army.cards:
            yield f"army {army.id}", instance
    for hero, inv in sorted(state.inventories.items()):
        for instance in inv.skills:
            yield f"hero {hero} skills", instance
        for instance in inv.spells:
            yield f"hero {hero} spells", instance
        for instance in sorted(inv.artifacts):
            yield f"hero {hero} artifacts", instance
    for site in state.sites:
        if site.card is not None:
            yield f"site {site.id} card", site.card
        for instance in site.guard:
            yield f"site {site.id} guard", instance
        for instance in site.garrison:
            yield f"site {site.id} garrison", instance
    for item in state.interrupts:
        if isinstance(item, ChipIn):
            for instance in item.guard:
                yield f"chip-in {item.site}", instance
    for instance in state.limbo:
        yield "limbo", instance
    for fallen in state.fallen_heroes:
        yield f"fallen hero at {fallen.hex}", fallen.hero
    if state.battle is not None:
        for hero, _ in state.battle.dead_heroes:
            yield "dead in battle", hero


def zone_problems(state: Homm4State) -> list[str]:
    """Return every breach of "each card instance is in exactly one zone", or ``[]``.

    Also checks that every Hero with an inventory is itself in play (an Army, a garrison,
    or face down as a fallen Hero) and that an Artifact waiting for room is in limbo.

    Rule: homm4:setup (the zones a card lies in).
    """
    seen: dict[int, str] = {}
    problems: list[str] = []
    for zone, instance in card_zones(state):
        if instance in seen:
            problems.append(f"card #{instance} is in {seen[instance]} and in {zone}")
        seen[instance] = zone
    total = len(state.card_defs)
    missing = [i for i in range(total) if i not in seen]
    if missing:
        problems.append(f"cards in no zone: {missing[:10]}")
    extra = [i for i in seen if not 0 <= i < total]
    if extra:
        problems.append(f"unknown card numbers in zones: {extra[:10]}")
    for hero in state.inventories:
        where = seen.get(hero, "")
        if not (
            where.startswith(("army", "fallen hero", "dead in battle"))
            or where.endswith("garrison")
            or where.endswith("starting_stack")
        ):
            problems.append(f"hero #{hero} has an inventory but lies in {where or 'no zone'}")
    for item in state.interrupts:
        if isinstance(item, ArtifactRoom) and item.artifact not in state.limbo:
            problems.append(f"artifact #{item.artifact} waiting for room is not in limbo")
    return problems
