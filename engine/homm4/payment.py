"""Paying costs with Hand cards: the default payment rule and the check of an explicit one.

Rule sections: homm4:start-of-the-game (only Hand cards pay; the Risk Stack never does),
homm4:purchase-phase (discard cards equal to the cost).

The default payment (`auto_pay`) discards the cards least useful to the payer first:

1. Spell, Skill, Artifact and Object cards;
2. Unit and Hero cards of a faction none of the payer's Towns (or free Town card) has;
3. Unit cards of the payer's factions;
4. Hero cards of the payer's factions;
5. Town cards (they identify new Towns) last.

Within a group: the lower card cost first (an "X" cost counts as 0), then the lower
instance number. The rule is deterministic and uses no hidden information but the payer's
own Hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.homm4 import zones
from engine.homm4.cards import Faction, HeroCard, TownCard, UnitCard
from engine.homm4.state import Homm4State


def own_factions(state: Homm4State, seat: int) -> set[Faction]:
    """Return the factions of the Towns ``seat`` controls and of its free Town card.

    Rule: homm4:purchase-phase.
    """
    factions: set[Faction] = set()
    for site in zones.towns_of(state, seat):
        if site.card is not None:
            town = zones.card_as(state, site.card, TownCard)
            if town is not None:
                factions.add(town.faction)
    free = state.players_state[seat].free_town
    if free is not None:
        town = zones.card_as(state, free, TownCard)
        if town is not None:
            factions.add(town.faction)
    return factions


def _usefulness(state: Homm4State, instance: int, factions: set[Faction]) -> tuple[int, int, int]:
    found = zones.card(state, instance)
    cost = getattr(found, "cost", None) or 0
    if isinstance(found, TownCard):
        group = 4
    elif isinstance(found, HeroCard):
        group = 3 if found.faction in factions else 1
    elif isinstance(found, UnitCard):
        group = 2 if found.faction in factions else 1
    else:
        group = 0
    return (group, cost, instance)


def auto_pay(state: Homm4State, seat: int, cost: int, exclude: Iterable[int] = ()) -> list[int]:
    """Return the ``cost`` Hand cards the default payment rule discards (module docstring).

    :param exclude: cards that may not pay (the card being bought).
    :raises IllegalMove: if the Hand holds fewer than ``cost`` cards able to pay.
    Rule: homm4:purchase-phase.
    """
    if cost <= 0:
        return []
    barred = set(exclude)
    candidates = [c for c in state.players_state[seat].hand if c not in barred]
    if len(candidates) < cost:
        raise IllegalMove(
            f"That costs {cost} card{'s' if cost != 1 else ''} from your Hand, and you can pay "
            f"with only {len(candidates)}. Risk Stack cards never pay."
        )
    factions = own_factions(state, seat)
    candidates.sort(key=lambda c: _usefulness(state, c, factions))
    return candidates[:cost]


def can_afford(state: Homm4State, seat: int, cost: int, exclude: Iterable[int] = ()) -> bool:
    """Whether ``seat``'s Hand holds ``cost`` cards, not counting ``exclude``.

    Rule: homm4:start-of-the-game.
    """
    barred = set(exclude)
    return sum(1 for c in state.players_state[seat].hand if c not in barred) >= cost


def check_payment(
    state: Homm4State, seat: int, cost: int, pay: Sequence[int] | None, exclude: Iterable[int] = ()
) -> list[int]:
    """Validate an explicit payment, or choose the default one when ``pay`` is None.

    An explicit payment is exactly ``cost`` distinct cards, all in the Hand, none of them
    in ``exclude`` (the card bought cannot pay for itself).

    :returns: the cards to discard, in order.
    :raises IllegalMove: naming what is wrong and what is allowed instead.
    Rule: homm4:start-of-the-game.
    """
    if pay is None:
        return auto_pay(state, seat, cost, exclude)
    chosen = list(pay)
    if len(chosen) != cost:
        raise IllegalMove(
            f"Pay exactly {cost} card{'s' if cost != 1 else ''} from your Hand; you named {len(chosen)}."
        )
    if len(set(chosen)) != len(chosen):
        raise IllegalMove("Each card can pay only once; your payment names a card twice.")
    barred = set(exclude)
    hand = state.players_state[seat].hand
    for instance in chosen:
        if instance in barred:
            raise IllegalMove(
                f"Card #{instance} is the card being bought; it cannot pay for itself."
            )
        if instance not in hand:
            raise IllegalMove(
                f"Card #{instance} is not in your Hand; only Hand cards pay (never the Risk Stack)."
            )
    return chosen


def discard_payment(state: Homm4State, seat: int, cards: Sequence[int], reason: str) -> list[Event]:
    """Move ``cards`` from ``seat``'s Hand to its discard pile (face up: public).

    :returns: one ``pay`` event naming the discarded cards (they are face up now).
    Rule: homm4:purchase-phase.
    """
    hand = state.players_state[seat].hand
    for instance in cards:
        hand.remove(instance)
        zones.to_discard(state, instance)
    if not cards:
        return []
    names = ", ".join(zones.name(state, c) for c in cards)
    return [
        Event(
            kind="pay",
            text=f"{seat_name(seat)} discards {len(cards)} card{'s' if len(cards) != 1 else ''} to pay for {reason}: {names}.",
            data={"seat": seat, "cards": list(cards), "reason": reason},
        )
    ]
