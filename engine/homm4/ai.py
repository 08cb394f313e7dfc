"""The computer player: a simple, deterministic-given-its-rng policy that makes games end.

Rule sections: every decision of homm4 (it only ever plays commands the rules accept).

Policy, by decision:

* Purchase Phase: upgrade a Town while the Hand stays healthy, buy the strongest Units
  and Heroes the Town sells (into an Army in the Town when there is one), learn Spells,
  buy Artifacts; then end the phase.
* Movement Phase: learn Spells and recruit where possible, form an Army from a garrison,
  then move each Army toward its best goal (unidentified icons to scout, sites to
  capture, enemy Armies and Towns to attack when stronger), one move at a time; end the
  phase when no Army has a useful move.
* Aggression rises with the Round: early on an Army attacks only a clearly weaker enemy,
  later it attacks almost anything, so two players who avoid each other still meet.
* Scouting: the scout identifies whenever it can (its free Town card first); other seats
  steal the intelligence now and then. The Guard Player reinforces a Guard sometimes.
* Battles: attack when possible (a random legal attack), otherwise the battle default.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence

from engine.core.errors import NotYourDecision
from engine.core.model import Command, seat_name
from engine.core.search import material_share
from engine.homm4 import armies as army_rules
from engine.homm4 import (
    battle,
    board,
    decisions,
    fallen,
    heroes,
    lands,
    movement,
    payment,
    purchase,
    scouting,
    setup,
    zones,
)
from engine.homm4.cards import ArtifactCard, HeroCard, ObjectCard, TownCard, UnitCard
from engine.homm4.commands import (
    BuyUnit,
    CloseTurn,
    EndMovement,
    EndPurchase,
    FormArmy,
    Identify,
    LearnSkill,
    Move,
    PassIdentify,
    PlaceArmy,
    PlaceSection,
    ReinforceGuard,
    TransferCards,
    UpgradeTown,
)
from engine.homm4.hexes import Hex, distance
from engine.homm4.state import Army, Homm4State, ScoutOffer


def ai_command(state: Homm4State, seat: int, rng: random.Random) -> Command:
    """Choose a command for computer seat ``seat`` (see the module docstring).

    :raises NotYourDecision: if ``seat`` owes nothing now.
    Rule: homm4:game-process (a computer seat; it chooses only among the legal commands).
    """
    decision = decisions.owed(state, seat)
    if decision is None:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    if state.battle is not None:
        return _battle(state, seat, rng)
    kind = decision.kind
    if kind == "identify":
        return _identify(state, seat, rng)
    if kind == "reinforce_guard":
        options = scouting.reinforce_options(state, seat)
        if options and rng.random() < 0.3:
            return ReinforceGuard(cards=(options[0],))
        return ReinforceGuard(cards=())
    if kind == "learn_skill":
        choices = decisions.skill_award_options(state, seat)
        learn = [c for c in choices if isinstance(c, LearnSkill) and c.card is not None]
        return learn[0] if learn else choices[-1]
    if kind == "place_army":
        return _place_army(state, seat, rng)
    if kind == "purchase":
        return _purchase(state, seat, rng)
    if kind == "movement":
        return _movement(state, seat, rng)
    if kind == "closing":
        return _closing(state, seat)
    if kind == "place_section":
        placements = board.legal_placements(state)
        slot, rotation = placements[rng.randrange(len(placements))]
        return PlaceSection(slot=slot, rotation=rotation)
    return decisions.default_command(state, seat)


# ------------------------------------------------------------------ strength
def card_strength(state: Homm4State, instance: int) -> float:
    """A rough fighting value of one Unit or Hero card (attack, defense and level).

    Rule: none (a computer player's heuristic, not a rule).
    """
    found = zones.card(state, instance)
    if isinstance(found, UnitCard):
        return found.melee + found.ranged + found.defense / 2 + 2 * found.level
    if isinstance(found, HeroCard):
        return (
            found.melee + found.ranged + found.defense / 2 + 3 * heroes.hero_level(state, instance)
        )
    return 0.0


def strength(state: Homm4State, cards: Sequence[int]) -> float:
    """The rough fighting value of a group of cards.

    Rule: none (a computer player's heuristic, not a rule).
    """
    return sum(card_strength(state, c) for c in cards)


def aggression(state: Homm4State) -> float:
    """The strength ratio an Army needs to attack: 1.3 at first, falling to 0.5.

    Rule: none (a computer player's heuristic, not a rule).
    """
    return max(0.5, 1.3 - 0.04 * max(state.round - 1, 0))


# ------------------------------------------------------------------ scouting
def _identify(state: Homm4State, seat: int, rng: random.Random) -> Command:
    head = state.interrupts[0]
    assert isinstance(head, ScoutOffer)
    site = state.sites[head.site]
    where = board.label(state, site.hex)
    options = scouting.identify_options(state, seat, site)
    player = state.players_state[seat]
    if not options:
        return PassIdentify(site=where)
    if seat != head.scout:
        free = player.free_town
        safe = [c for c in options if c != free]
        if safe and rng.random() < 0.25:
            return Identify(site=where, card=safe[0])
        return PassIdentify(site=where)
    if player.free_town in options:
        return Identify(site=where, card=player.free_town)
    return Identify(site=where, card=options[0])


# ------------------------------------------------------------------ set-up
def _place_army(state: Homm4State, seat: int, rng: random.Random) -> Command:
    hexes = setup.army_hexes(state, seat)
    towns = [s.hex for s in state.sites if s.kind == "town"]
    enemies = [a.hex for a in state.armies if a.owner != seat]

    def score(h: Hex) -> tuple[int, int, float]:
        near_town = min((distance(h, t) for t in towns), default=0)
        far_enemy = min((distance(h, e) for e in enemies), default=99)
        return (near_town, -min(far_enemy, 6), rng.random())

    return PlaceArmy(hex=board.label(state, min(hexes, key=score)))


# ------------------------------------------------------------------ purchase
def _purchase(state: Homm4State, seat: int, rng: random.Random) -> Command:
    player = state.players_state[seat]
    spells = purchase.spell_options(state, seat)
    if spells:
        return spells[0]
    buys = purchase.buy_options(state, seat)
    upgrade = _wanted_upgrade(state, seat)
    if upgrade is not None and (not buys or rng.random() < 0.4):
        return upgrade
    if buys:
        risk = set(player.risk)
        from_risk = [b for b in buys if b.card in risk]
        pool = from_risk or buys
        return max(pool, key=lambda b: (_buy_value(state, b), b.into is not None, -b.card))
    extras = [*purchase.skill_options(state, seat), *purchase.artifact_options(state, seat)]
    if extras and rng.random() < 0.7:
        return extras[0]
    return EndPurchase()


def _wanted_upgrade(state: Homm4State, seat: int) -> UpgradeTown | None:
    """An affordable upgrade that makes a held Unit buyable, or any upgrade with a Hand to
    spare; lower levels first."""
    player = state.players_state[seat]
    held = {state.card_defs[c] for c in player.hand + player.risk}
    hand = len(player.hand)
    best: tuple[int, UpgradeTown] | None = None
    for option in purchase.upgrade_options(state, seat):
        site = purchase.own_town(state, seat, option.town)
        town = purchase.town_card(state, site)
        unlocks = set(town.levels[site.level].units) & held
        if (unlocks or hand >= site.level + 3) and (best is None or site.level < best[0]):
            best = (site.level, option)
    return best[1] if best else None


def _buy_value(state: Homm4State, buy: BuyUnit) -> float:
    return card_strength(state, buy.card)


# ------------------------------------------------------------------ movement
def _movement(state: Homm4State, seat: int, rng: random.Random) -> Command:
    spells = purchase.spell_options(state, seat)
    if spells:
        return spells[0]
    recruits = movement.recruit_options(state, seat)
    if recruits and rng.random() < 0.8:
        return recruits[0]
    loots = fallen.loot_options(state, seat)
    if loots:
        return loots[0]
    merge = _merge(state, seat)
    if merge is not None:
        return merge
    count = len(zones.armies_of(state, seat))
    if count < army_rules.MAX_ARMIES:
        for site in zones.towns_of(state, seat):
            if not site.garrison:
                continue
            if (
                count == 0
                or len(site.garrison) >= 3
                or any(zones.is_hero(state, c) for c in site.garrison)
            ):
                return FormArmy(town=board.label(state, site.hex), cards=tuple(site.garrison))
    casts = movement.adventure_spell_options(state, seat)
    if casts and rng.random() < 0.5:
        return casts[0]
    for army in sorted(zones.armies_of(state, seat), key=lambda a: a.id):
        if army.done or army.mp2 <= 0:
            continue
        choice = _army_move(state, army, rng)
        if choice is not None:
            return choice
    return EndMovement()


def _merge(state: Homm4State, seat: int) -> TransferCards | None:
    """Merge two of ``seat``'s Armies that share a hex and have not moved yet."""
    mine = [a for a in zones.armies_of(state, seat) if not a.moved and not a.done]
    for first in mine:
        for second in mine:
            if first.id < second.id and first.hex == second.hex:
                small, big = sorted((first, second), key=lambda a: (strength(state, a.cards), a.id))
                return TransferCards(source=small.id, target=big.id, cards=tuple(small.cards))
    return None


def travel_costs(
    state: Homm4State,
    seat: int,
    origin: Hex,
    *,
    reverse: bool = False,
    army: Army | None = None,
) -> dict[Hex, int]:
    """Half Movement Points from ``origin`` to every hex (``reverse``: from every hex to
    ``origin``), with no Movement Point limit, at ``army``'s step costs (Flying Armies,
    Native Lands, underground entrances: `lands.step_cost_fn`; without an Army, the
    terrain's legend costs). Hexes where ``seat`` would start a battle end a path: no
    path goes through them.
    Rule: homm4:movement-phase.movement-points-and-terrain (the costs the AI plans with).
    """
    best: dict[Hex, int] = {origin: 0}
    heap: list[tuple[int, int, int]] = [(0, origin[1], origin[0])]
    cost2 = board.board_of(state).cost2
    jumps = lands.jump_edges(state)
    if army is not None:
        cost_of = lands.step_cost_fn(state, army)
    else:

        def cost_of(here: Hex, there: Hex) -> int | None:
            return 0 if jumps.get(here) == there else cost2.get(there)

    stops = movement.battle_hexes(state, seat)
    while heap:
        cost, r, q = heapq.heappop(heap)
        here = (q, r)
        if best[here] < cost or (here != origin and here in stops):
            continue
        for nxt in lands.step_targets(state, here, jumps):
            step = cost_of(nxt, here) if reverse else cost_of(here, nxt)
            if step is None:
                continue
            total = cost + step
            known = best.get(nxt)
            if known is None or total < known:
                best[nxt] = total
                heapq.heappush(heap, (total, nxt[1], nxt[0]))
    return best


def can_rebuild(state: Homm4State, seat: int) -> bool:
    """Whether ``seat`` could buy an Army again: a Unit or Hero card it holds is sold by
    one of its Towns (at any level), or a garrison is waiting to form one.
    Rule: none (a computer player's heuristic, not a rule).
    """
    player = state.players_state[seat]
    held = {state.card_defs[c] for c in player.hand + player.risk}
    for site in zones.towns_of(state, seat):
        if site.garrison:
            return True
        town = purchase.town_card(state, site)
        if held & {u for level in town.levels for u in level.units}:
            return True
        for instance in player.hand + player.risk:
            hero = zones.card_as(state, instance, HeroCard)
            if hero is not None and hero.faction == town.faction:
                return True
    return False


def _goals(state: Homm4State, army: Army) -> list[tuple[float, Hex]]:
    """Score every place worth going to for ``army``: (value, hex)."""
    seat = army.owner
    mine = strength(state, army.cards)
    last = len(zones.armies_of(state, seat)) == 1
    fragile = last and not can_rebuild(state, seat)
    need = max(aggression(state), 1.0) if fragile else aggression(state)
    has_hero = bool(army_rules.army_heroes(state, army))
    goals: list[tuple[float, Hex]] = []
    allies = state.options.allies
    for site in state.sites:
        if site.spent:
            continue
        if site.entrance is not None and not site.found:
            goals.append((4.0, site.hex))
            continue
        if site.card is None and site.entrance is None:
            if seat not in site.declined and scouting.identify_options(state, seat, site):
                goals.append((5.0, site.hex))
            continue
        if site.entrance is not None and not site.guard:
            continue
        if site.owner is not None and allies(seat, site.owner) and not site.guard:
            continue
        if site.kind == "object" and not has_hero and site.entrance is None:
            continue
        value = (
            4.0
            if site.entrance is not None
            else {"town": 12.0, "dwelling": 5.0, "object": 6.0}[site.kind]
        )
        defenders = list(site.guard)
        if site.kind == "town" and site.owner is not None and not allies(seat, site.owner):
            defenders += site.garrison
            defenders += [
                c
                for a in zones.armies_at(state, site.hex)
                if not allies(seat, a.owner)
                for c in a.cards
            ]
            value += 4.0 + state.round / 2
        if site.guard and not (
            site.kind == "town" and site.owner is not None and not allies(seat, site.owner)
        ):
            if fragile and not (
                site.entrance is not None and mine >= 2.0 * strength(state, defenders)
            ):
                continue
            guard_need = 1.3 if last else 1.0
            if mine < guard_need * strength(state, defenders):
                continue
        elif defenders and mine < need * strength(state, defenders) * (
            1.3 if site.kind == "town" else 1.0
        ):
            continue
        goals.append((value, site.hex))
    for other in state.armies:
        if allies(seat, other.owner):
            continue
        if mine >= need * strength(state, other.cards):
            goals.append((12.0 + state.round, other.hex))
    return [g for g in goals if g[1] != army.hex]


def _army_move(state: Homm4State, army: Army, rng: random.Random) -> Move | None:
    """Move toward the best goal (now and then the second or third best, and a random one
    of the equally good steps, so that two Armies never dance round each other forever)."""
    goals = _goals(state, army)
    if not goals:
        return None
    costs = travel_costs(state, army.owner, army.hex, army=army)
    reachable_goals = [
        (value / (1 + costs[where] / 2), where) for value, where in goals if where in costs
    ]
    if not reachable_goals:
        return None
    ranked = sorted(reachable_goals, key=lambda g: (-g[0], g[1][1], g[1][0]))
    _, target = ranked[0] if rng.random() < 0.8 else ranked[rng.randrange(min(3, len(ranked)))]
    tree = movement.reachable(state, army)
    if target in tree and lands.can_stop(state, target):
        return Move(army=army.id, to=board.label(state, target))
    to_goal = travel_costs(state, army.owner, target, reverse=True, army=army)
    here = to_goal.get(army.hex)
    candidates = [
        h
        for h in tree
        if h != army.hex
        and lands.can_stop(state, h)
        and h in to_goal
        and (here is None or to_goal[h] < here)
        and movement.encounter(state, army.owner, h) is None
    ]
    if not candidates:
        return None
    best = min(to_goal[h] for h in candidates)
    closest = sorted(
        (h for h in candidates if to_goal[h] == best), key=lambda h: (tree[h][0], h[1], h[0])
    )
    dest = closest[0] if rng.random() < 0.7 else closest[rng.randrange(len(closest))]
    return Move(army=army.id, to=board.label(state, dest))


# ------------------------------------------------------------------ closing
def _closing(state: Homm4State, seat: int) -> Command:
    """Put into the Risk Stack a card that can be played from there (a Unit one of the
    seat's Towns sells, a Town, Object or Artifact card to identify with); without one,
    the card the payment rule would spend first (it is of no use to the seat)."""
    hand = state.players_state[seat].hand
    order = payment.auto_pay(state, seat, len(hand))
    sold: set[str] = set()
    for site in zones.towns_of(state, seat):
        town = purchase.town_card(state, site)
        sold |= {u for level in town.levels for u in level.units}
    playable = [
        c
        for c in order
        if state.card_defs[c] in sold
        or isinstance(zones.card(state, c), TownCard | ObjectCard | ArtifactCard)
    ]
    return CloseTurn(card=playable[-1] if playable else order[0])


# ------------------------------------------------------------------ battle
def _battle(state: Homm4State, seat: int, rng: random.Random) -> Command:
    options = battle.battle_legal(state, seat)
    attacks = [c for c in options if c.type == "attack"]
    if attacks:
        chosen: Command = attacks[rng.randrange(len(attacks))]
        return chosen
    default: Command = battle.battle_default(state, seat)
    return default


__all__ = ["aggression", "ai_command", "card_strength", "strength"]


# ------------------------------------------------------------------ evaluation
TOWN_WORTH = 8.0
"""What a Town is worth per Town level, in `card_strength` points (a search's estimate)."""

DWELLING_WORTH = 6.0
"""What a Dwelling held is worth, in `card_strength` points (Units to buy there)."""

SITE_WORTH = 4.0
"""What an Object held is worth, in `card_strength` points."""

CARD_WORTH = 1.5
"""What one card in the Hand or the Risk Stack is worth, in `card_strength` points: it
pays for a purchase (homm4: a Unit's cost is cards discarded) or is played."""


def worth(state: Homm4State, seat: int) -> float:
    """A seat's material: its Armies' strength (Heroes by their level), its Towns (by
    level, with their garrisons), its Dwellings and other sites, and the cards of its
    Hand and Risk Stack (what it can pay and play with); 0 once eliminated
    (homm4:victory: a side with no Army and no Town is out).

    Rule: none (a computer player's heuristic, not a rule).
    """
    player = state.players_state[seat]
    if player.eliminated:
        return 0.0
    value = sum(strength(state, a.cards) for a in state.armies if a.owner == seat)
    for site in state.sites:
        if site.owner != seat:
            continue
        if site.kind == "town":
            value += TOWN_WORTH * site.level + strength(state, site.garrison)
        elif site.kind == "dwelling":
            value += DWELLING_WORTH
        else:
            value += SITE_WORTH
    return value + CARD_WORTH * (len(player.hand) + len(player.risk))


def evaluate(state: Homm4State, seat: int) -> float:
    """``seat``'s share of the table's `worth`, in [0, 1] (`Ruleset.evaluate`).

    Rule: none (a computer player's heuristic, not a rule).
    """
    return material_share([worth(state, s) for s in range(state.players)], seat)
