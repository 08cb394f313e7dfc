"""Enchantments: drawing from the lists, receiving (permanent, instant, stack), passing one
on for 1000e, and stealing one of your faction for 1000e.

Rule sections: heroforge:enchantments, heroforge:rolling-an-enchantment,
heroforge:enchantment-lists, heroforge:other-ways-of-getting-rid-of-enchantments,
heroforge:factions.

Readings (see README): an instant's effect lasts until the end of the current turn, and
an instant cost change is used up by the next purchase of its kind ("your next fort");
instant economy is paid at once and an instant shift is a shift decision at once. A
steal offer goes to the enemies whose hero shares the enchantment's faction, in turn
order from the receiver; the first to pay takes it and the offer closes.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.heroforge import board, effects
from engine.heroforge.catalog import EnchantmentSpec
from engine.heroforge.dice import roll
from engine.heroforge.state import Carried, HeroforgeState, Instant, StealOffer

PASS_PRICE = 1000
"""heroforge:other-ways-of-getting-rid-of-enchantments: pay 1000e to give it away."""

STEAL_PRICE = 1000
"""heroforge:factions: pay 1000e to steal an enchantment of your hero's faction."""


def roll_enchantment(state: HeroforgeState, seat: int, scenario: int) -> list[Event]:
    """Roll a D10 on list 1 (scenario roll 1) or list 5 (scenario roll 5) and give the
    enchantment to ``seat`` (heroforge:rolling-an-enchantment)."""
    chosen = state.list1 if scenario == 1 else state.list5
    face, event = roll(state, 10, f"enchantment from list {scenario}", seat)
    spec = chosen.enchantments[face - 1]
    drawn = Event(
        kind="enchantment_drawn",
        text=f"{seat_name(seat)} draws enchantment {face} of list {scenario}: {spec.summary()}.",
        data={"seat": seat, "list": scenario, "number": face, "name": spec.name},
    )
    return [event, drawn, *receive(state, seat, spec, 1, giver=None)]


def steal_candidates(
    state: HeroforgeState, receiver: int, spec: EnchantmentSpec, giver: int | None
) -> list[int]:
    """Enemies of ``receiver`` who may steal ``spec``: hero of its faction, 1000e or more,
    in turn order after the receiver (the giver of a passed enchantment excluded).

    Rule: heroforge:factions.
    """
    if spec.faction is None:
        return []
    order = [s for s in range(receiver + 1, state.players)] + list(range(receiver))
    found = []
    for seat in order:
        player = state.player(seat)
        if seat == giver or not player.alive or player.economy < STEAL_PRICE:
            continue
        if effects.hero_of(state, seat).faction == spec.faction:
            found.append(seat)
    return found


def receive(
    state: HeroforgeState, seat: int, spec: EnchantmentSpec, count: int, giver: int | None
) -> list[Event]:
    """``seat`` is receiving ``spec`` (``count`` copies of a Stack): open a steal offer
    when an enemy of its faction may pay for it, else deliver it at once.

    Rule: heroforge:enchantments, heroforge:factions (steal offers).
    """
    candidates = steal_candidates(state, seat, spec, giver)
    if candidates:
        state.steal = StealOffer(spec=spec, count=count, receiver=seat, candidates=candidates)
        names = ", ".join(seat_name(s) for s in candidates)
        return [
            Event(
                kind="steal_offer",
                text=f"{spec.name} belongs to the {spec.faction} faction: {names} may pay "
                f"{STEAL_PRICE}e to steal it from {seat_name(seat)}.",
                data={"receiver": seat, "candidates": candidates, "name": spec.name},
            )
        ]
    return deliver(state, seat, spec, count)


def deliver(state: HeroforgeState, seat: int, spec: EnchantmentSpec, count: int) -> list[Event]:
    """``seat``'s hero gets ``spec``: an instant acts at once; a permanent replaces the
    carried enchantment; a Stack of the same name as the carried Stack adds its copies.

    Rule: heroforge:enchantments.
    """
    player = state.player(seat)
    who = seat_name(seat)
    if spec.kind == "instant":
        return _instant(state, seat, spec)
    carried = player.enchantment
    if (
        spec.kind == "stack"
        and carried is not None
        and carried.spec.kind == "stack"
        and carried.spec.name.lower() == spec.name.lower()
    ):
        carried.count += count
        return [
            Event(
                kind="enchantment_stacked",
                text=f"{who}'s {carried.spec.name} stacks: "
                f"{carried.spec.stacked_effect(carried.count)}.",
                data={"seat": seat, "name": carried.spec.name, "count": carried.count},
            )
        ]
    replaced = f" (replacing {carried.spec.name})" if carried is not None else ""
    player.enchantment = Carried(spec=spec, count=count)
    return [
        Event(
            kind="enchantment_carried",
            text=f"{who}'s hero now carries {spec.summary()}"
            + (f" x{count}" if count > 1 else "")
            + f"{replaced}.",
            data={"seat": seat, "name": spec.name, "count": count},
        )
    ]


def _instant(state: HeroforgeState, seat: int, spec: EnchantmentSpec) -> list[Event]:
    who = seat_name(seat)
    player = state.player(seat)
    if spec.effect == "economy":
        player.economy = max(0, player.economy + spec.amount)
        return [
            Event(
                kind="enchantment_instant",
                text=f"{who} uses {spec.name}: {spec.amount:+d}e; economy {player.economy}e.",
                data={"seat": seat, "name": spec.name, "economy": player.economy},
            )
        ]
    if spec.effect == "shift":
        return [
            Event(
                kind="enchantment_instant",
                text=f"{who} uses {spec.name}.",
                data={"seat": seat, "name": spec.name},
            ),
            *board.offer_shift(state, seat, spec.amount, spec.name),
        ]
    state.instants.append(Instant(seat=seat, spec=spec))
    return [
        Event(
            kind="enchantment_instant",
            text=f"{who} uses {spec.summary()}.",
            data={"seat": seat, "name": spec.name},
        )
    ]


def use_cost_instants(state: HeroforgeState, seat: int, effect: str) -> None:
    """A purchase of the kind ``effect`` (``unit_cost``/``fort_cost``) used ``seat``'s
    instant cost changes of that kind: they are gone.

    Rule: heroforge:enchantments (instants gone after use).
    """
    state.instants = [i for i in state.instants if not (i.seat == seat and i.spec.effect == effect)]


def steal(state: HeroforgeState, seat: int) -> list[Event]:
    """``seat`` pays 1000e and takes the enchantment on offer (heroforge:factions).

    :raises IllegalMove: without 1000e.
    """
    offer = state.steal
    assert offer is not None and offer.candidates[0] == seat
    player = state.player(seat)
    if player.economy < STEAL_PRICE:
        raise IllegalMove(f"Stealing costs {STEAL_PRICE}e and you have {player.economy}e.")
    player.economy -= STEAL_PRICE
    state.steal = None
    events = [
        Event(
            kind="enchantment_stolen",
            text=f"{seat_name(seat)} pays {STEAL_PRICE}e and steals {offer.spec.name} "
            f"from {seat_name(offer.receiver)}.",
            data={"seat": seat, "from": offer.receiver, "name": offer.spec.name},
        )
    ]
    return events + deliver(state, seat, offer.spec, offer.count)


def let_go(state: HeroforgeState, seat: int) -> list[Event]:
    """``seat`` declines to steal; the next candidate is asked, or the receiver keeps it.

    Rule: heroforge:factions.
    """
    offer = state.steal
    assert offer is not None and offer.candidates[0] == seat
    offer.candidates.pop(0)
    events = [
        Event(
            kind="steal_declined",
            text=f"{seat_name(seat)} lets {offer.spec.name} go.",
            data={"seat": seat},
        )
    ]
    if offer.candidates:
        return events
    state.steal = None
    return events + deliver(state, offer.receiver, offer.spec, offer.count)


def pass_problem(state: HeroforgeState, seat: int, to: int) -> str | None:
    """Why ``seat`` cannot pass its enchantment to ``to`` now (None when it can).

    Rule: heroforge:other-ways-of-getting-rid-of-enchantments.
    """
    player = state.player(seat)
    if player.enchantment is None:
        return "Your hero carries no enchantment to pass on."
    if effects.in_combat(state, seat):
        return "You cannot pass an enchantment on while in combat."
    if player.economy < PASS_PRICE:
        return f"Passing an enchantment on costs {PASS_PRICE}e and you have {player.economy}e."
    if not 0 <= to < state.players or to == seat or not state.player(to).alive:
        names = ", ".join(seat_name(s) for s in state.living() if s != seat)
        return f"Give it to another living player: {names}."
    return None


def pass_enchantment(state: HeroforgeState, seat: int, to: int) -> list[Event]:
    """Pay 1000e and give the carried enchantment (all its Stack copies) to ``to``
    (heroforge:other-ways-of-getting-rid-of-enchantments); ``to`` is receiving it.

    :raises IllegalMove | InvalidInput: see `pass_problem`.
    """
    problem = pass_problem(state, seat, to)
    if problem:
        raise (InvalidInput if "another living player" in problem else IllegalMove)(problem)
    player = state.player(seat)
    carried = player.enchantment
    assert carried is not None
    player.economy -= PASS_PRICE
    player.enchantment = None
    events = [
        Event(
            kind="enchantment_passed",
            text=f"{seat_name(seat)} pays {PASS_PRICE}e and passes {carried.spec.name} "
            f"to {seat_name(to)}.",
            data={"seat": seat, "to": to, "name": carried.spec.name, "count": carried.count},
        )
    ]
    return events + receive(state, to, carried.spec, carried.count, giver=seat)
