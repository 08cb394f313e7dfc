"""Scouting and identifying sites, stolen intelligence, and chipping in for the Guard.

Rule sections: homm4:movement-phase.scouting-terrain, homm4:movement-phase.towns,
homm4:movement-phase.creature-dwellings, homm4:movement-phase.objects,
homm4:chipping-in-for-the-guard.

Flow: a moving Army stops when an unidentified icon comes within its Sight Radius; one
`ScoutOffer` per such site is queued. The scout is asked first; on a pass, every other
seat in turn from the scout's left (clockwise) may steal the intelligence. When nobody
identifies it, the site stays unidentified and is not offered to that scout again this
turn. A (non-free) identification starts the chip-in: the Guard Player is found by
discarding deck tops from the left of the Identifying Player, three more cards may join
the Guard, and a `ChipIn` decision lets the Guard Player reinforce it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import board, zones
from engine.homm4.cards import ArtifactCard, Faction, ObjectCard, TownCard, UnitCard
from engine.homm4.hexes import distance
from engine.homm4.state import Army, ChipIn, Homm4State, ScoutOffer, Site


def _living(state: Homm4State, seat: int) -> bool:
    return not state.players_state[seat].eliminated


def offered_sites(state: Homm4State) -> set[int]:
    """Return the ids of sites with a pending scouting offer.

    Rule: homm4:movement-phase.scouting-terrain.
    """
    return {i.site for i in state.interrupts if isinstance(i, ScoutOffer)}


def sites_in_sight(state: Homm4State, army: Army) -> list[Site]:
    """Return the unidentified sites within ``army``'s Sight Radius that its owner has not
    passed on this turn and that are not already being offered, by site id.
    Rule: homm4:movement-phase.scouting-terrain.
    """
    radius = army_rules.sight_radius(state, army)
    pending = offered_sites(state)
    return [
        s
        for s in state.sites
        if s.card is None
        and not s.spent
        and not s.found
        and army.owner not in s.declined
        and s.id not in pending
        and distance(s.hex, army.hex) <= radius
    ]


def open_offers(state: Homm4State, army: Army, sites: Sequence[Site]) -> list[Event]:
    """Queue one `ScoutOffer` per site, asking the scout first. An underground entrance
    is not identified: it is found, and its Guard is chipped in at once with the scout as
    the Identifying Player (homm4:terrain-map-sections-with-underground)."""
    events = []
    for site in sites:
        if site.entrance is not None:
            site.found = True
            events.append(
                Event(
                    kind="entrance_found",
                    text=f"{seat_name(army.owner)}'s {army_rules.army_label(army)} finds an entrance to "
                    f"{'the surface' if _below(state, site) else 'the underground'} at "
                    f"{board.label(state, site.hex)} (coin {site.entrance}).",
                    data={"seat": army.owner, "site": site.id, "entrance": site.entrance},
                )
            )
            events += chip_in(state, site, army.owner)
            continue
        state.interrupts.append(
            ScoutOffer(site=site.id, scout=army.owner, offeree=army.owner, asked=[])
        )
        events.append(
            Event(
                kind="scouted",
                text=f"{seat_name(army.owner)}'s {army_rules.army_label(army)} sights an unidentified "
                f"{_kind_name(site)} icon at {board.label(state, site.hex)}.",
                data={
                    "seat": army.owner,
                    "army": army.id,
                    "site": site.id,
                    "hex": board.label(state, site.hex),
                },
            )
        )
    return events


def _below(state: Homm4State, site: Site) -> bool:
    return site.hex in board.board_of(state).underground


def _kind_name(site: Site) -> str:
    return {"town": "Town", "dwelling": "Creature Dwelling", "object": "Object"}[site.kind]


def site_by_label(state: Homm4State, text: str) -> Site:
    """Return the site on the hex named ``text``.

    :raises InvalidInput | IllegalMove: if the label is bad or no icon is there.
    Rule: homm4:movement-phase.scouting-terrain.
    """
    where = board.parse_hex(state, text)
    found = zones.site_at(state, where)
    if found is None:
        raise IllegalMove(
            f"There is no Town, Dwelling or Object icon at {board.label(state, where)}."
        )
    return found


def identify_options(state: Homm4State, seat: int, site: Site) -> list[int]:
    """Return the cards ``seat`` may identify ``site`` with, sorted: its free Town card for
    a Town; Town cards, Unit cards with a numeric cost, or Strategic Object / Artifact cards
    from its Hand and Risk Stack, by site kind.
    Rule: homm4:movement-phase.scouting-terrain.
    """
    player = state.players_state[seat]
    options: list[int] = []
    for instance in sorted(player.hand + player.risk):
        found = zones.card(state, instance)
        if (
            (site.kind == "town" and isinstance(found, TownCard))
            or (site.kind == "dwelling" and isinstance(found, UnitCard) and found.cost is not None)
            or (site.kind == "object" and isinstance(found, ObjectCard | ArtifactCard))
        ):
            options.append(instance)
    if site.kind == "town" and player.free_town is not None:
        options.append(player.free_town)
    return options


def _current_offer(state: Homm4State, seat: int, site: Site) -> ScoutOffer:
    head = state.interrupts[0] if state.interrupts else None
    if not isinstance(head, ScoutOffer) or head.offeree != seat:
        raise IllegalMove("You are not being asked to identify a site now.")
    if head.site != site.id:
        wanted = board.label(state, state.sites[head.site].hex)
        raise IllegalMove(
            f"The site being offered is at {wanted}, not {board.label(state, site.hex)}."
        )
    return head


def advance_offer(state: Homm4State, offer: ScoutOffer) -> bool:
    """Mark the current offeree as asked and pass the offer clockwise to the next seat in
    the game not yet asked. :returns: False when everyone has been asked (the site is then
    marked as declined by the scout for this turn).
    Rule: homm4:movement-phase.towns.
    """
    if offer.offeree not in offer.asked:
        offer.asked.append(offer.offeree)
    n = state.players
    for step in range(1, n):
        candidate = (offer.scout + step) % n
        if candidate not in offer.asked and _living(state, candidate):
            offer.offeree = candidate
            return True
    site = state.sites[offer.site]
    if offer.scout not in site.declined:
        site.declined.append(offer.scout)
    return False


def pass_identify(state: Homm4State, seat: int, site_label: str) -> list[Event]:
    """Decline to identify the offered site; the next seat clockwise may steal the
    intelligence (homm4:movement-phase.towns, Stolen intelligence).

    :raises IllegalMove: if ``seat`` is not being asked about this site.
    """
    site = site_by_label(state, site_label)
    offer = _current_offer(state, seat, site)
    where = board.label(state, site.hex)
    events = [
        Event(
            kind="pass_identify",
            text=f"{seat_name(seat)} does not identify the {_kind_name(site)} at {where}.",
            data={"seat": seat, "site": site.id, "hex": where},
        )
    ]
    if not advance_offer(state, offer):
        state.interrupts.pop(0)
        events.append(
            Event(
                kind="unidentified",
                text=f"Nobody identifies the {_kind_name(site)} at {where}; it stays unidentified.",
                data={"site": site.id, "hex": where},
            )
        )
    return events


def identify(state: Homm4State, seat: int, site_label: str, instance: int) -> list[Event]:
    """Identify the offered site with ``instance`` (face up: public), then chip in for
    the Guard unless it was a free Town card.

    The Identifying Player for the chip-in is the scout, also when another seat stole the
    intelligence ("play continues as if it had been identified by the player who scouted").

    :raises IllegalMove: if the card is not one ``seat`` may identify this site with.
    Rule: homm4:chipping-in-for-the-guard.
    """
    site = site_by_label(state, site_label)
    offer = _current_offer(state, seat, site)
    if instance not in identify_options(state, seat, site):
        raise IllegalMove(_wrong_card_message(state, seat, site, instance))
    player = state.players_state[seat]
    free = instance == player.free_town and site.kind == "town"
    if free:
        player.free_town = None
    else:
        zones.take_from_hand_or_risk(state, seat, instance)
    state.interrupts.pop(0)
    site.card = instance
    site.free_town = free
    site.owner = None
    site.level = 1
    where = board.label(state, site.hex)
    stolen = "" if seat == offer.scout else f" (stealing {seat_name(offer.scout)}'s intelligence)"
    events = [
        Event(
            kind="identify",
            text=f"{seat_name(seat)} identifies the {_kind_name(site)} at {where} with "
            f"{'the free Town card ' if free else ''}{zones.name(state, instance)}{stolen}.",
            data={"seat": seat, "site": site.id, "hex": where, "card": instance, "free_town": free},
        )
    ]
    if free:
        events.append(
            Event(
                kind="no_guard",
                text=f"A free Town card is never guarded: the Town at {where} waits for an Army to enter it.",
                data={"site": site.id},
            )
        )
        return events
    return events + chip_in(state, site, offer.scout)


def _wrong_card_message(state: Homm4State, seat: int, site: Site, instance: int) -> str:
    need = {
        "town": "a Town card from your Hand or Risk Stack, or your free Town card",
        "dwelling": "a Unit card with a numeric cost from your Hand or Risk Stack",
        "object": "a Strategic Object or Artifact card from your Hand or Risk Stack",
    }[site.kind]
    return f"Card #{instance} cannot identify this {_kind_name(site)}; use {need}."


# ------------------------------------------------------------------ chip in
def _can_turn_up_unit(state: Homm4State, seat: int) -> bool:
    player = state.players_state[seat]
    return any(zones.is_unit(state, c) for c in player.deck + player.discard)


def chip_in(state: Homm4State, site: Site, identifier: int) -> list[Event]:
    """Chip in for the Guard of ``site`` (homm4:chipping-in-for-the-guard).

    Starting with the seat to the left of ``identifier`` and going clockwise round the
    table (the Identifying Player included when the turn comes back to them), each seat in
    the game discards its deck's top card (reshuffling an empty deck; a seat with no deck
    and no discard pile is passed over) until a Unit card turns up: that seat is the Guard
    Player and sets the Unit aside. If no seat has a Unit card left in deck or discard
    pile, no Guard is formed. The Guard Player then discards three more cards; Units of the
    first card's faction among them join the Guard. A `ChipIn` decision follows.
    """
    where = board.label(state, site.hex)
    order = [(identifier + step) % state.players for step in range(1, state.players + 1)]
    order = [s for s in order if _living(state, s)]
    events: list[Event] = []
    if not any(_can_turn_up_unit(state, s) for s in order):
        return [
            Event(
                kind="no_guard",
                text=f"No Unit card can turn up in any deck: the {_kind_name(site)} at {where} has no Guard.",
                data={"site": site.id},
            )
        ]
    turned: list[tuple[int, int]] = []
    first: int | None = None
    guard_player = order[0]
    index = 0
    while first is None:
        seat = order[index % len(order)]
        index += 1
        top, shuffled = zones.take_top(state, seat)
        events.extend(shuffled)
        if top is None:
            continue
        turned.append((seat, top))
        if zones.is_unit(state, top):
            first = top
            guard_player = seat
        else:
            zones.to_discard(state, top)
    shown = "; ".join(f"{seat_name(s)} {zones.name(state, c)}" for s, c in turned)
    events.append(
        Event(
            kind="chip_in",
            text=f"Chipping in for the Guard at {where}: {shown}. {seat_name(guard_player)} is the Guard Player.",
            data={
                "site": site.id,
                "turned": [[s, c] for s, c in turned],
                "guard_player": guard_player,
            },
        )
    )
    faction = _faction(state, first)
    guard = [first]
    extra: list[int] = []
    for _ in range(3):
        top, shuffled = zones.take_top(state, guard_player)
        events.extend(shuffled)
        if top is None:
            break
        extra.append(top)
        if zones.is_unit(state, top) and _faction(state, top) == faction:
            guard.append(top)
        else:
            zones.to_discard(state, top)
    joined = [c for c in extra if c in guard]
    events.append(
        Event(
            kind="guard_formed",
            text=f"{seat_name(guard_player)} discards three more cards ("
            + (", ".join(zones.name(state, c) for c in extra) or "none left")
            + f"); the Guard is {', '.join(zones.name(state, c) for c in guard)}.",
            data={"site": site.id, "extra": extra, "joined": joined, "guard": list(guard)},
        )
    )
    state.interrupts.insert(
        0, ChipIn(site=site.id, identifier=identifier, guard_player=guard_player, guard=guard)
    )
    return events


def _faction(state: Homm4State, instance: int) -> Faction | None:
    found = zones.card_as(state, instance, UnitCard)
    return found.faction if found is not None else None


def guard_faction(state: Homm4State, chip: ChipIn) -> Faction | None:
    """Return the faction of a Guard being formed (its first card's).

    Rule: homm4:chipping-in-for-the-guard.
    """
    return _faction(state, chip.guard[0]) if chip.guard else None


def reinforce_options(state: Homm4State, seat: int) -> list[int]:
    """Return the Hand and Risk Stack Unit cards of the Guard's faction ``seat`` may add.

    Rule: homm4:chipping-in-for-the-guard.
    """
    head = state.interrupts[0] if state.interrupts else None
    if not isinstance(head, ChipIn) or head.guard_player != seat:
        return []
    faction = guard_faction(state, head)
    player = state.players_state[seat]
    return [
        c
        for c in sorted(player.hand + player.risk)
        if zones.is_unit(state, c) and _faction(state, c) == faction
    ]


def reinforce_guard(state: Homm4State, seat: int, cards: Sequence[int]) -> list[Event]:
    """As Guard Player, add ``cards`` (Units of the Guard's faction from Hand or Risk
    Stack, possibly none) and set the Guard Stack on its site.

    :raises IllegalMove: naming a card that may not reinforce the Guard.
    Rule: homm4:chipping-in-for-the-guard.
    """
    head = state.interrupts[0]
    assert isinstance(head, ChipIn)
    allowed = set(reinforce_options(state, seat))
    if len(set(cards)) != len(cards):
        raise IllegalMove("Each card can be added only once.")
    for instance in cards:
        if instance not in allowed:
            raise IllegalMove(
                f"Card #{instance} cannot reinforce this Guard: add only Unit cards of the Guard's faction "
                "from your Hand or Risk Stack."
            )
    for instance in cards:
        zones.take_from_hand_or_risk(state, seat, instance)
    state.interrupts.pop(0)
    site = state.sites[head.site]
    site.guard = [*head.guard, *cards]
    site.guard_player = seat
    where = board.label(state, site.hex)
    added = ", ".join(zones.name(state, c) for c in cards)
    return [
        Event(
            kind="reinforce_guard",
            text=f"{seat_name(seat)} reinforces the Guard at {where}"
            + (f" with {added}." if cards else " with nothing.")
            + f" The Guard Stack has {len(site.guard)} card{'s' if len(site.guard) != 1 else ''}.",
            data={"seat": seat, "site": site.id, "added": list(cards), "guard": list(site.guard)},
        )
    ]


def guard_controller(state: Homm4State, site: Site, attacker: int) -> int:
    """Return the seat that commands ``site``'s Guard Stack against ``attacker``: the Guard
    Player, or the next seat to its left still in the game when the Guard Player attacks
    (or is out of the game) (homm4:chipping-in-for-the-guard). With Team Play the
    attacker's teammates never command the Guard against it (the first seat to the left
    not on its team does; homm4:game-variants.team-play)."""
    start = site.guard_player if site.guard_player is not None else attacker
    n = state.players
    for step in range(n):
        candidate = (start + step) % n
        if not state.options.allies(candidate, attacker) and _living(state, candidate):
            return candidate
    for step in range(n):
        candidate = (start + step) % n
        if candidate != attacker and _living(state, candidate):
            return candidate
    return start
