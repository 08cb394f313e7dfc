"""The Movement Phase: managing Armies, moving along the cheapest path, captures on the
way, starting battles, recruiting at Dwellings and adventure Spells.

Rule sections: homm4:movement-phase, homm4:movement-phase.managing-armies,
homm4:movement-phase.movement-points-and-terrain, homm4:movement-phase.scouting-terrain,
homm4:movement-phase.creature-dwellings, homm4:battles.attackers-and-defenders,
homm4:heroes-levels-skills-and-spells.heroes-and-artifacts.

A move names a destination; the Army walks the cheapest path (Dijkstra on Movement
Points; ties broken by the lower total and then by row/column order of the hexes) step by
step. It stops early when an unidentified icon comes into sight (scouting offers), when a
captured Artifact needs a free slot, or when it enters a hex with an enemy Army, a Guard,
or an enemy Town with defenders: a battle begins there. Hexes that start a battle may be
only the last hex of a path.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4 import (
    adventure,
    artifacts,
    battle,
    board,
    fallen,
    heroes,
    lands,
    payment,
    scouting,
    zones,
)
from engine.homm4 import armies as army_rules
from engine.homm4.cards import SpellCard, UnitCard
from engine.homm4.commands import (
    CastAdventureSpell,
    DiscardArtifact,
    FormArmy,
    Move,
    Recruit,
    SplitArmy,
    TransferArtifact,
    TransferCards,
)
from engine.homm4.hexes import Hex, distance
from engine.homm4.purchase import own_town, unit_problem
from engine.homm4.state import Army, Homm4State, LastMove
from engine.homm4.words import movement_points


# ------------------------------------------------------------------ battles
@dataclass(frozen=True)
class Encounter:
    """Who a seat would fight by entering a hex: the defending seat, its kind, its Armies."""

    defender: int
    kind: Literal["army", "guard", "town"]
    armies: tuple[int, ...]
    site: int | None


def encounter(state: Homm4State, seat: int, where: Hex) -> Encounter | None:
    """Return the battle ``seat`` starts by entering ``where``, or None.

    An enemy Army there is fought first (``town`` when it stands in its own Town, with the
    garrison); else an enemy Town with a garrison; else a Guard Stack, commanded by the
    Guard Player (or the next seat to its left when the Guard Player attacks). An enemy
    Town without defenders is not a battle: it is captured on entering
    (homm4:battles.attackers-and-defenders, homm4:chipping-in-for-the-guard). Team Play:
    teammates' Armies and Towns are never fought (homm4:game-variants.team-play).
    """
    site = zones.site_at(state, where)
    site_id = site.id if site is not None else None
    allies = state.options.allies
    enemies = [a for a in zones.armies_at(state, where) if not allies(seat, a.owner)]
    if enemies:
        defender = min(enemies, key=lambda a: a.id).owner
        ids = tuple(a.id for a in enemies if a.owner == defender)
        in_town = site is not None and site.kind == "town" and site.owner == defender
        return Encounter(defender, "town" if in_town else "army", ids, site_id)
    if site is None:
        return None
    if (
        site.kind == "town"
        and site.owner is not None
        and not allies(seat, site.owner)
        and site.garrison
    ):
        return Encounter(site.owner, "town", (), site.id)
    if site.guard:
        return Encounter(scouting.guard_controller(state, site, seat), "guard", (), site.id)
    return None


# ------------------------------------------------------------------ paths
def battle_hexes(state: Homm4State, seat: int) -> set[Hex]:
    """Return every hex where ``seat`` would start a battle by entering (see `encounter`).

    Rule: homm4:battles.attackers-and-defenders.
    """
    allies = state.options.allies
    found = {a.hex for a in state.armies if not allies(seat, a.owner)}
    for site in state.sites:
        if site.guard or (
            site.kind == "town"
            and site.owner is not None
            and not allies(seat, site.owner)
            and site.garrison
        ):
            found.add(site.hex)
    return found


def reachable(state: Homm4State, army: Army) -> dict[Hex, tuple[int, Hex | None]]:
    """Return hex -> (half Movement Points spent, previous hex) for every hex ``army`` can
    reach this turn; hexes that start a battle are reached but never passed through.

    Step costs follow `lands.step_cost_fn` (Flying Armies, Native Lands, underground
    entrances). A Flying Army's tree also holds the impassable hexes it flies over: use
    `lands.can_stop` before ending a move on one.

    Rule: homm4:movement-phase.movement-points-and-terrain.
    """
    start = army.hex
    cost_of = lands.step_cost_fn(state, army)
    jumps = lands.jump_edges(state)
    stops = battle_hexes(state, army.owner)
    budget = army.mp2
    best: dict[Hex, tuple[int, Hex | None]] = {start: (0, None)}
    heap: list[tuple[int, int, int]] = [(0, start[1], start[0])]
    while heap:
        cost, r, q = heapq.heappop(heap)
        here = (q, r)
        if best[here][0] < cost or (here != start and here in stops):
            continue
        for nxt in lands.step_targets(state, here, jumps):
            step = cost_of(here, nxt)
            if step is None:
                continue
            total = cost + step
            if total > budget:
                continue
            known = best.get(nxt)
            if known is None or total < known[0]:
                best[nxt] = (total, here)
                heapq.heappush(heap, (total, nxt[1], nxt[0]))
    return best


REACHABLE_SHOWN = 12
"""At most this many hexes are named when a move is refused (`reachable_text`)."""


def reachable_text(
    state: Homm4State, army: Army, tree: dict[Hex, tuple[int, Hex | None]] | None = None
) -> str:
    """Name the hexes ``army`` may move to now, nearest first (Movement Points spent, then
    hexes away, then row and column), at most `REACHABLE_SHOWN`: ``"Reachable from C4
    with 3 Movement Points: C5, D5, ... (and 9 more)."`` Hexes it may only fly over are
    left out (homm4:movement-phase.movement-points-and-terrain). Told only to the mover
    (a refusal), so it may name every hex."""
    found = reachable(state, army) if tree is None else tree
    stops = sorted(
        (cost, distance(army.hex, where), where[1], where[0], where)
        for where, (cost, _) in found.items()
        if where != army.hex and lands.can_stop(state, where)
    )
    start = board.label(state, army.hex)
    head = f"Reachable from {start} with {movement_points(army.mp2)}"
    if not stops:
        return f"{head}: no hex."
    shown = ", ".join(board.label(state, entry[4]) for entry in stops[:REACHABLE_SHOWN])
    more = len(stops) - REACHABLE_SHOWN
    return f"{head}: {shown}" + (f" (and {more} more)." if more > 0 else ".")


def path_to(tree: dict[Hex, tuple[int, Hex | None]], target: Hex) -> list[Hex]:
    """Return the hexes from the start to ``target`` (both included) in ``tree``.

    Rule: homm4:movement-phase.movement-points-and-terrain.
    """
    path = [target]
    while True:
        prev = tree[path[-1]][1]
        if prev is None:
            break
        path.append(prev)
    path.reverse()
    return path


def own_army(state: Homm4State, seat: int, army_id: int) -> Army:
    """Return ``seat``'s Army ``army_id``. :raises IllegalMove: if it is not theirs.

    Rule: homm4:movement-phase.
    """
    found = zones.army(state, army_id)
    if found.owner != seat:
        raise IllegalMove(f"Army {army_id} is not yours.")
    return found


def move(state: Homm4State, seat: int, command: Move) -> list[Event]:
    """Move an Army toward ``command.to`` (homm4:movement-phase.movement-points-and-terrain).

    The Army first looks around its start hex, then walks step by step; see the module
    docstring for where it stops. ``with_armies`` (the Merging exception) merges those
    Armies into the mover when it attacks an adjacent hex.

    :raises IllegalMove: if the Army's movement has ended, the hex cannot be reached with
        the Movement Points left, or ``with_armies`` is not allowed.
    """
    army = own_army(state, seat, command.army)
    target = board.parse_hex(state, command.to)
    if army.done:
        raise IllegalMove(f"{army_rules.army_label(army)}'s movement has ended this turn.")
    if target == army.hex:
        raise IllegalMove(f"{army_rules.army_label(army)} is already at {command.to.upper()}.")
    joining = _joining(state, seat, army, target, command.with_armies)
    tree = reachable(state, army)
    if target in tree and not lands.can_stop(state, target):
        raise IllegalMove(
            f"{board.label(state, target)} is impassable: a Flying Army may fly over it but not stop there."
        )
    if target not in tree:
        raise IllegalMove(
            f"{army_rules.army_label(army)} cannot reach {board.label(state, target)} with "
            f"{movement_points(army.mp2)} left (impassable terrain, an enemy on the way, or too "
            f"far). {reachable_text(state, army, tree)}"
        )
    seen = scouting.sites_in_sight(state, army)
    if seen:
        return scouting.open_offers(state, army, seen)
    events: list[Event] = []
    if joining:
        events += _merge_for_attack(state, army, joining)
    path = path_to(tree, target)
    walked = [army.hex]
    cost_of = lands.step_cost_fn(state, army)
    for step in path[1:]:
        army.mp2 = max(0, army.mp2 - (cost_of(army.hex, step) or 0))
        army.hex = step
        army.moved = True
        walked.append(step)
        if not lands.can_stop(state, step):
            continue
        found = encounter(state, seat, step)
        if found is not None:
            events.append(_move_event(state, army, walked))
            state.last_move = LastMove(army=army.id, owner=seat, path=walked)
            army.done = True
            return events + _start_battle(state, army, step, found)
        site = zones.site_at(state, step)
        if site is not None:
            captured = adventure.capture(state, army, site)
            if captured:
                events.append(_move_event(state, army, walked))
                walked = [step]
                events += captured
        if state.interrupts:
            break
        seen = scouting.sites_in_sight(state, army)
        if seen:
            events.append(_move_event(state, army, walked))
            walked = [step]
            events += scouting.open_offers(state, army, seen)
            break
    if len(walked) > 1:
        events.append(_move_event(state, army, walked))
    state.last_move = LastMove(army=army.id, owner=seat, path=path[: path.index(army.hex) + 1])
    return events


def _move_event(state: Homm4State, army: Army, walked: Sequence[Hex]) -> Event:
    labels = [board.label(state, h) for h in walked]
    return Event(
        kind="move",
        text=f"{seat_name(army.owner)} moves {army_rules.army_label(army)} {' -> '.join(labels)} "
        f"({movement_points(army.mp2)} left).",
        data={"seat": army.owner, "army": army.id, "path": labels, "mp_left": army.mp2 / 2},
    )


def _joining(
    state: Homm4State, seat: int, army: Army, target: Hex, ids: Sequence[int]
) -> list[Army]:
    if not ids:
        return []
    if distance(army.hex, target) != 1 or encounter(state, seat, target) is None:
        raise IllegalMove(
            "Armies may join a move only to attack together an adjacent hex with an enemy Army, "
            "a Guard or an enemy Town (the Merging exception)."
        )
    joining: list[Army] = []
    for army_id in ids:
        other = own_army(state, seat, army_id)
        if other.id == army.id or other in joining:
            raise IllegalMove("Name each joining Army once, and not the moving Army itself.")
        if other.hex != army.hex:
            raise IllegalMove(
                f"{army_rules.army_label(other)} is not on the same hex as {army_rules.army_label(army)}."
            )
        if other.done:
            raise IllegalMove(f"{army_rules.army_label(other)}'s movement has ended this turn.")
        joining.append(other)
    return joining


def _merge_for_attack(state: Homm4State, army: Army, joining: Sequence[Army]) -> list[Event]:
    for other in joining:
        army.cards = army_rules.stack_order(state, [*army.cards, *other.cards])
        fallen.hand_on(state, other.id, army.id)
        army_rules.remove_army(state, other.id)
    labels = ", ".join(army_rules.army_label(o) for o in joining)
    return [
        Event(
            kind="merge",
            text=f"{seat_name(army.owner)} merges {labels} into {army_rules.army_label(army)} to attack together.",
            data={"seat": army.owner, "army": army.id, "merged": [o.id for o in joining]},
        )
    ]


def engage_on_site(state: Homm4State, site_id: int) -> list[Event]:
    """Let the active seat's Army already standing on a just-settled site deal with it.

    A site can be identified (and its Guard formed) while an Army stands on its hex: e.g.
    a starting Army token placed on an icon at the board's edge. That Army is inside the
    guarded territory, so the battle begins at once, as if it had just entered; with no
    Guard it captures the site at once (homm4:movement-phase.objects, homm4:battles).
    Only the seat whose Movement Phase it is acts; another seat's Army on the hex meets
    the Guard when it next enters the hex.
    """
    site = state.sites[site_id]
    if state.phase != "movement" or state.battle is not None or state.interrupts:
        return []
    standing = [a for a in zones.armies_at(state, site.hex) if a.owner == state.active]
    if not standing or (site.card is None and site.entrance is None):
        return []
    army = min(standing, key=lambda a: a.id)
    found = encounter(state, army.owner, site.hex)
    if found is not None:
        army.done = True
        return _start_battle(state, army, site.hex, found)
    return adventure.capture(state, army, site)


def _start_battle(state: Homm4State, army: Army, where: Hex, found: Encounter) -> list[Event]:
    return battle.begin_battle(
        state,
        hex=where,
        attacker=army.owner,
        attacker_armies=[army.id],
        defender=found.defender,
        defender_kind=found.kind,
        defender_armies=list(found.armies),
        site=found.site,
    )


def move_options(state: Homm4State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now: each Army not done to each reachable hex, plus,
    for an adjacent battle hex, one move with every other ready Army on the hex joining.
    Rule: homm4:movement-phase.
    """
    options: list[Move] = []
    for army in zones.armies_of(state, seat):
        if army.done or army.mp2 <= 0:
            continue
        tree = reachable(state, army)
        others = tuple(
            o.id
            for o in zones.armies_at(state, army.hex)
            if o.owner == seat and o.id != army.id and not o.done
        )
        for where in sorted(tree, key=lambda h: (h[1], h[0])):
            if where == army.hex or not lands.can_stop(state, where):
                continue
            label_text = board.label(state, where)
            options.append(Move(army=army.id, to=label_text))
            if (
                others
                and distance(where, army.hex) == 1
                and encounter(state, seat, where) is not None
            ):
                options.append(Move(army=army.id, to=label_text, with_armies=others))
    return options


# ------------------------------------------------------------ managing armies
def _check_army_limit(state: Homm4State, seat: int) -> None:
    if len(zones.armies_of(state, seat)) >= army_rules.MAX_ARMIES:
        raise IllegalMove(
            f"You already control {army_rules.MAX_ARMIES} Armies, the most a player may have; merge some first."
        )


def split_army(state: Homm4State, seat: int, command: SplitArmy) -> list[Event]:
    """Split ``cards`` off an Army that has not moved this turn into a new Army on the same
    hex (homm4:movement-phase.managing-armies: at most 4 Armies; a Hero on top, else the
    Unit with the highest Movement). Each part keeps the Movement Points left, up to its
    own new full allowance.

    :raises IllegalMove: if the Army has moved, the cards are not a proper part of it, or
        the limit of 4 Armies is reached.
    """
    army = own_army(state, seat, command.army)
    if army.moved or army.done:
        raise IllegalMove(
            f"{army_rules.army_label(army)} has already moved this turn; split Armies before moving them."
        )
    chosen = list(command.cards)
    if not chosen or len(set(chosen)) != len(chosen) or any(c not in army.cards for c in chosen):
        raise IllegalMove("Name distinct cards of that Army to split off.")
    if len(chosen) == len(army.cards):
        raise IllegalMove("Leave at least one card in the Army you split.")
    _check_army_limit(state, seat)
    left = army.mp2
    army.cards = army_rules.stack_order(state, [c for c in army.cards if c not in chosen])
    army.mp2 = min(left, army_rules.full_mp2(state, army))
    created = army_rules.new_army(state, seat, army.hex, chosen)
    created.mp2 = min(left, army_rules.full_mp2(state, created))
    return [
        Event(
            kind="split_army",
            text=f"{seat_name(seat)} splits {army_rules.army_label(created)} "
            f"({', '.join(zones.name(state, c) for c in created.cards)}) off {army_rules.army_label(army)} "
            f"at {board.label(state, army.hex)}.",
            data={"seat": seat, "army": army.id, "new_army": created.id, "cards": created.cards},
        )
    ]


def form_army(state: Homm4State, seat: int, command: FormArmy) -> list[Event]:
    """Form a new Army from cards under a Town card ``seat`` controls, on the Town's hex
    (homm4:movement-phase.managing-armies, Forming).

    :raises IllegalMove: if the cards are not in that garrison or 4 Armies exist.
    """
    site = own_town(state, seat, command.town)
    chosen = list(command.cards)
    if not chosen or len(set(chosen)) != len(chosen) or any(c not in site.garrison for c in chosen):
        raise IllegalMove(
            f"Name distinct cards lying under the Town card at {board.label(state, site.hex)}."
        )
    _check_army_limit(state, seat)
    site.garrison = [c for c in site.garrison if c not in chosen]
    created = army_rules.new_army(state, seat, site.hex, chosen)
    created.mp2 = army_rules.full_mp2(state, created)
    return [
        Event(
            kind="form_army",
            text=f"{seat_name(seat)} forms {army_rules.army_label(created)} "
            f"({', '.join(zones.name(state, c) for c in created.cards)}) in the Town at {board.label(state, site.hex)}.",
            data={"seat": seat, "army": created.id, "cards": created.cards},
        )
    ]


def transfer(state: Homm4State, seat: int, command: TransferCards) -> list[Event]:
    """Move ``cards`` from one of ``seat``'s Armies to another on the same hex; moving all
    of them merges the Armies. Ends the movement of both (homm4:...managing-armies, Merging).

    :raises IllegalMove: if the Armies are not both yours on one hex or the cards are wrong.
    """
    source = own_army(state, seat, command.source)
    target = own_army(state, seat, command.target)
    if source.id == target.id:
        raise IllegalMove("Choose two different Armies.")
    if source.hex != target.hex:
        raise IllegalMove("Cards pass only between Armies on the same hex.")
    chosen = list(command.cards)
    if not chosen or len(set(chosen)) != len(chosen) or any(c not in source.cards for c in chosen):
        raise IllegalMove(f"Name distinct cards of {army_rules.army_label(source)}.")
    source.cards = [c for c in source.cards if c not in chosen]
    target.cards = army_rules.stack_order(state, [*target.cards, *chosen])
    target.done = True
    merged = not source.cards
    if merged:
        fallen.hand_on(state, source.id, target.id)
        army_rules.remove_army(state, source.id)
    else:
        source.cards = army_rules.stack_order(state, source.cards)
        source.done = True
    verb = "merges" if merged else "moves cards from"
    return [
        Event(
            kind="transfer",
            text=f"{seat_name(seat)} {verb} {army_rules.army_label(source)} into {army_rules.army_label(target)} "
            f"({', '.join(zones.name(state, c) for c in chosen)}); both end their movement.",
            data={
                "seat": seat,
                "source": source.id,
                "target": target.id,
                "cards": chosen,
                "merged": merged,
            },
        )
    ]


def _artifact_holder(state: Homm4State, seat: int, artifact: int) -> tuple[int, Army]:
    for army in zones.armies_of(state, seat):
        for hero in army_rules.army_heroes(state, army):
            inv = state.inventories.get(hero)
            if inv is not None and artifact in inv.artifacts:
                return hero, army
    raise IllegalMove(
        f"Card #{artifact} is not an Artifact carried by one of your Heroes on the board."
    )


def transfer_artifact(state: Homm4State, seat: int, command: TransferArtifact) -> list[Event]:
    """Give an Artifact to another of ``seat``'s Heroes on the same hex; ends the movement
    of the Armies involved (homm4:movement-phase.managing-armies, Merging). With Team
    Play the receiver may be a teammate's Hero on the same hex (the teammate's Army is not
    moving this turn anyway; homm4:game-variants.team-play).

    :raises IllegalMove: if the Heroes are not together or no slot is free.
    """
    giver, source = _artifact_holder(state, seat, command.artifact)
    target = zones.find_hero_army(state, command.to_hero)
    if (
        target is None
        or not state.options.allies(seat, target.owner)
        or not zones.is_hero(state, command.to_hero)
    ):
        raise IllegalMove(
            f"Card #{command.to_hero} is not a Hero in one of your Armies"
            + (" or a teammate's." if state.options.teams else ".")
        )
    if target.hex != source.hex:
        raise IllegalMove("Artifacts pass only between Heroes on the same hex.")
    if command.to_hero == giver:
        raise IllegalMove("That Hero already carries this Artifact.")
    slots = artifacts.fitting_slots(state, command.to_hero, command.artifact)
    if slots is None:
        raise IllegalMove(
            f"{zones.name(state, command.to_hero)} has no free slot for it; discard an Artifact first."
        )
    del heroes.ensure_inventory(state, giver).artifacts[command.artifact]
    heroes.ensure_inventory(state, command.to_hero).artifacts[command.artifact] = slots
    source.done = True
    if target.owner == seat:
        target.done = True
    return [
        Event(
            kind="transfer_artifact",
            text=f"{zones.name(state, giver)} gives {zones.name(state, command.artifact)} to "
            f"{zones.name(state, command.to_hero)}.",
            data={"seat": seat, "artifact": command.artifact, "from": giver, "to": command.to_hero},
        )
    ]


def discard_artifact(state: Homm4State, seat: int, command: DiscardArtifact) -> list[Event]:
    """Discard an Artifact from one of ``seat``'s Heroes to free its slot
    (homm4:heroes-levels-skills-and-spells.heroes-and-artifacts).

    :raises IllegalMove: if no Hero of ``seat`` on the board carries it.
    """
    hero, _ = _artifact_holder(state, seat, command.artifact)
    del heroes.ensure_inventory(state, hero).artifacts[command.artifact]
    zones.to_discard(state, command.artifact)
    return [
        Event(
            kind="discard_artifact",
            text=f"{zones.name(state, hero)} discards the Artifact {zones.name(state, command.artifact)}.",
            data={"seat": seat, "hero": hero, "artifact": command.artifact},
        )
    ]


def recruit(state: Homm4State, seat: int, command: Recruit) -> list[Event]:
    """Buy the Unit a captured Creature Dwelling sells (same card as the one that identified
    it) from Hand or Risk Stack straight into the Army standing there, paid like a purchase
    (homm4:movement-phase.creature-dwellings).

    :raises IllegalMove: if the Army is not on a Dwelling of ``seat`` or the card differs.
    """
    army = own_army(state, seat, command.army)
    site = zones.site_at(state, army.hex)
    if site is None or site.kind != "dwelling" or site.owner != seat or site.card is None:
        raise IllegalMove(
            f"{army_rules.army_label(army)} is not at a Creature Dwelling you control."
        )
    if not zones.in_hand_or_risk(state, seat, command.card):
        raise IllegalMove(f"Card #{command.card} is not in your Hand or Risk Stack.")
    unit = zones.card_as(state, command.card, UnitCard)
    sold = zones.card(state, site.card)
    if unit is None or unit.id != sold.id:
        raise IllegalMove(f"This Dwelling sells only {sold.name} cards.")
    problem = unit_problem(state, seat, unit)
    if problem:
        raise IllegalMove(problem)
    cost = unit.cost or 0
    pay = payment.check_payment(state, seat, cost, command.pay, exclude=[command.card])
    zones.take_from_hand_or_risk(state, seat, command.card)
    events = payment.discard_payment(state, seat, pay, unit.name)
    army.cards = army_rules.stack_order(state, [*army.cards, command.card])
    events.append(
        Event(
            kind="recruit",
            text=f"{seat_name(seat)} recruits {zones.name(state, command.card)} at the Dwelling at "
            f"{board.label(state, army.hex)} into {army_rules.army_label(army)}.",
            data={"seat": seat, "army": army.id, "card": command.card, "cost": cost},
        )
    )
    return events


def recruit_options(state: Homm4State, seat: int) -> list[Recruit]:
    """Every recruitment ``seat`` may make now (default payment).

    Rule: homm4:movement-phase.creature-dwellings.
    """
    options: list[Recruit] = []
    player = state.players_state[seat]
    for army in zones.armies_of(state, seat):
        site = zones.site_at(state, army.hex)
        if site is None or site.kind != "dwelling" or site.owner != seat or site.card is None:
            continue
        sold = state.card_defs[site.card]
        for instance in sorted(player.hand + player.risk):
            unit = zones.card_as(state, instance, UnitCard)
            if (
                unit is not None
                and state.card_defs[instance] == sold
                and unit_problem(state, seat, unit) is None
                and payment.can_afford(state, seat, unit.cost or 0, [instance])
            ):
                options.append(Recruit(army=army.id, card=instance))
    return options


def cast_adventure_spell(state: Homm4State, seat: int, command: CastAdventureSpell) -> list[Event]:
    """Cast a movement or sight Spell the Hero knows, once per Hero per turn; the Hero's
    Mana pool must cover its cost (homm4:heroes-levels-skills-and-spells.casting-spells).

    ``movement`` adds its power in Movement Points to the Hero's Army this turn; ``sight``
    widens the Army's Sight Radius by its power this turn.

    :raises IllegalMove: naming what is missing.
    """
    army = zones.find_hero_army(state, command.hero)
    if army is None or army.owner != seat or not zones.is_hero(state, command.hero):
        raise IllegalMove(f"Card #{command.hero} is not a Hero in one of your Armies.")
    inv = heroes.ensure_inventory(state, command.hero)
    if command.spell not in inv.spells:
        raise IllegalMove(
            f"{zones.name(state, command.hero)} has not learned Spell #{command.spell}."
        )
    spell = zones.card_as(state, command.spell, SpellCard)
    if spell is None or spell.timing != "adventure":
        raise IllegalMove(f"{zones.name(state, command.spell)} is not an adventure Spell.")
    if inv.cast_this_turn:
        raise IllegalMove(
            f"{zones.name(state, command.hero)} has already cast an adventure Spell this turn."
        )
    problem = heroes.spell_problem(state, command.hero, spell)
    if problem:
        raise IllegalMove(problem)
    cost = lands.spell_mana(state, spell, army.hex)
    if heroes.max_mana(state, command.hero) < cost:
        raise IllegalMove(
            f"{spell.name} costs {cost} Mana here; {zones.name(state, command.hero)} has too little."
        )
    inv.cast_this_turn = True
    if spell.effect == "movement":
        army.mp2 += 2 * spell.power
        effect = f"{plural(spell.power, 'more Movement Point')}"
    else:
        army.sight_bonus += spell.power
        effect = f"a Sight Radius {spell.power} wider"
    return [
        Event(
            kind="adventure_spell",
            text=f"{zones.name(state, command.hero)} casts {spell.name}: {army_rules.army_label(army)} gets {effect} this turn.",
            data={"seat": seat, "hero": command.hero, "spell": command.spell, "army": army.id},
        )
    ]


def adventure_spell_options(state: Homm4State, seat: int) -> list[CastAdventureSpell]:
    """Every adventure Spell cast ``seat``'s Heroes may make now.

    Rule: homm4:heroes-levels-skills-and-spells.casting-spells.
    """
    options: list[CastAdventureSpell] = []
    for army in zones.armies_of(state, seat):
        for hero in army_rules.army_heroes(state, army):
            inv = state.inventories.get(hero)
            if inv is None or inv.cast_this_turn:
                continue
            mana = None
            for instance in inv.spells:
                spell = zones.card_as(state, instance, SpellCard)
                if spell is None or spell.timing != "adventure":
                    continue
                if heroes.spell_problem(state, hero, spell) is not None:
                    continue
                mana = heroes.max_mana(state, hero) if mana is None else mana
                if mana >= lands.spell_mana(state, spell, army.hex):
                    options.append(CastAdventureSpell(hero=hero, spell=instance))
    return options
