"""Deals between players: paying cards, handing over an Army (Diplomacy) and lending an
Object's bonus (Resource Trading). Agreements themselves are never enforced: only these
transfers are rules.

Rule sections: homm4:advanced-rules.diplomacy, homm4:advanced-rules.resource-trading.

Readings:

* Commands are given by the seat whose turn it is, in its Purchase or Movement Phase (the
  engine takes commands only from a seat that owes a decision).
* **Paying** (``pay_player``): the payer discards N cards from the Hand (never the Risk
  Stack; face up, like any payment) and the receiver draws N cards from its own deck
  (reshuffling its discard pile if needed; fewer when both run out).
* **Handing over an Army** (``give_army``): only an Army that has not moved or acted this
  turn ("at the start of these Units' turn, not at the end"); the receiver must have room
  for another Army (at most 4) and must still be in the game; Heroes go with their
  inventories; the Army's movement is over for this turn, and its new owner moves it in
  its own turn. An Army carrying a dead Hero cannot be handed over.
* **Selling an Object** (``sell_object``): the controller of an Object (not an Artifact
  icon, not an entrance) turns it to "Sold" for another seat: that seat uses its bonus as
  if it were its own (income, Movement, Sight, Hero bonuses, Morale / Luck, and buying
  Units that need it) and the controller gets nothing from it, until the end of the
  controller's next turn. The price, if any, is a separate ``pay_player`` by the buyer.
  A sold Object that changes hands (captured, its controller out) is no longer sold.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4 import armies as army_rules
from engine.homm4 import board, fallen, payment, zones
from engine.homm4.cards import ObjectCard
from engine.homm4.commands import GiveArmy, PayPlayer, SellObject
from engine.homm4.state import Homm4State, Site


def _other_seat(state: Homm4State, seat: int, to: int) -> None:
    if not 0 <= to < state.players or to == seat:
        raise IllegalMove(f"Choose another player's seat (1 to {state.players}, not your own).")
    if state.players_state[to].eliminated:
        raise IllegalMove(f"{seat_name(to)} is out of the game.")


def pay_player(state: Homm4State, seat: int, command: PayPlayer) -> list[Event]:
    """Pay ``command.cards`` Hand cards to another player, who draws as many
    (homm4:advanced-rules.diplomacy).

    :raises IllegalMove: without the Diplomacy rule, for a bad seat or too few Hand cards.
    """
    if not state.options.diplomacy:
        raise IllegalMove("Paying other players is part of the Diplomacy rule, which is off.")
    _other_seat(state, seat, command.to)
    hand = state.players_state[seat].hand
    if command.cards > len(hand):
        raise IllegalMove(
            f"You hold {plural(len(hand), 'card')} in your Hand; only Hand cards pay (never the Risk Stack)."
        )
    pay = payment.check_payment(state, seat, command.cards, command.pay)
    events = payment.discard_payment(state, seat, pay, f"a deal with {seat_name(command.to)}")
    events.append(
        Event(
            kind="pay_player",
            text=f"{seat_name(seat)} pays {plural(command.cards, 'card')} to {seat_name(command.to)}.",
            data={"seat": seat, "to": command.to, "cards": command.cards},
        )
    )
    events += zones.draw(state, command.to, command.cards, "a deal")
    return events


def pay_options(state: Homm4State, seat: int) -> list[PayPlayer]:
    """One representative ``pay_player`` per other seat still in the game (1 card).

    Rule: homm4:advanced-rules.diplomacy.
    """
    if not state.options.diplomacy or not state.players_state[seat].hand:
        return []
    return [
        PayPlayer(to=other, cards=1)
        for other in range(state.players)
        if other != seat and not state.players_state[other].eliminated
    ]


def give_army(state: Homm4State, seat: int, command: GiveArmy) -> list[Event]:
    """Hand control of an Army that has not moved this turn to another player
    (homm4:advanced-rules.diplomacy).

    :raises IllegalMove: without the Diplomacy rule, for an Army that moved, carries a
        dead Hero, or a receiver with 4 Armies already.
    """
    if not state.options.diplomacy:
        raise IllegalMove("Handing over Armies is part of the Diplomacy rule, which is off.")
    _other_seat(state, seat, command.to)
    army = zones.army(state, command.army)
    if army.owner != seat:
        raise IllegalMove(f"Army {command.army} is not yours.")
    if army.moved or army.done:
        raise IllegalMove(
            f"{army_rules.army_label(army)} has moved or acted this turn: control passes only at the "
            "start of its turn, before it moves."
        )
    if fallen.carried_by(state, army.id):
        raise IllegalMove(
            f"{army_rules.army_label(army)} carries a dead Hero; it cannot change hands."
        )
    if len(zones.armies_of(state, command.to)) >= army_rules.MAX_ARMIES:
        raise IllegalMove(
            f"{seat_name(command.to)} already controls {army_rules.MAX_ARMIES} Armies, the most allowed."
        )
    army.owner = command.to
    army.done = True
    army.mp2 = 0
    return [
        Event(
            kind="give_army",
            text=f"{seat_name(seat)} hands {army_rules.army_label(army)} at "
            f"{board.label(state, army.hex)} over to {seat_name(command.to)}.",
            data={"seat": seat, "to": command.to, "army": army.id},
        )
    ]


def give_options(state: Homm4State, seat: int) -> list[GiveArmy]:
    """Every ``give_army`` ``seat`` may give now.

    Rule: homm4:advanced-rules.diplomacy.
    """
    if not state.options.diplomacy:
        return []
    options: list[GiveArmy] = []
    for army in zones.armies_of(state, seat):
        if army.moved or army.done or fallen.carried_by(state, army.id):
            continue
        for other in range(state.players):
            if (
                other != seat
                and not state.players_state[other].eliminated
                and len(zones.armies_of(state, other)) < army_rules.MAX_ARMIES
            ):
                options.append(GiveArmy(army=army.id, to=other))
    return options


def _sellable(state: Homm4State, seat: int, site: Site) -> bool:
    return (
        site.kind == "object"
        and site.owner == seat
        and site.card is not None
        and site.entrance is None
        and zones.card_as(state, site.card, ObjectCard) is not None
    )


def sell_object(state: Homm4State, seat: int, command: SellObject) -> list[Event]:
    """Turn an Object ``seat`` controls to "Sold" for ``command.to``
    (homm4:advanced-rules.resource-trading).

    :raises IllegalMove: without the rule, for a site that is not an Object of ``seat``.
    """
    if not state.options.resource_trading:
        raise IllegalMove("Selling an Object's bonus is the Resource Trading rule, which is off.")
    _other_seat(state, seat, command.to)
    where = board.parse_hex(state, command.site)
    site = zones.site_at(state, where)
    if site is None or not _sellable(state, seat, site):
        raise IllegalMove(
            f"There is no Object card you control at {board.label(state, where)}; only Object cards "
            "(mines and other Strategic Objects) can be sold."
        )
    assert site.card is not None
    site.sold_to = command.to
    site.sold_turn = state.turn
    return [
        Event(
            kind="sell_object",
            text=f"{seat_name(seat)} turns {zones.name(state, site.card)} at {board.label(state, where)} "
            f"to Sold: {seat_name(command.to)} uses its bonus until the end of {seat_name(seat)}'s next turn.",
            data={"seat": seat, "to": command.to, "site": site.id},
        )
    ]


def sell_options(state: Homm4State, seat: int) -> list[SellObject]:
    """Every ``sell_object`` ``seat`` may give now.

    Rule: homm4:advanced-rules.resource-trading.
    """
    if not state.options.resource_trading:
        return []
    options: list[SellObject] = []
    for site in state.sites:
        if not _sellable(state, seat, site):
            continue
        for other in range(state.players):
            if (
                other != seat
                and not state.players_state[other].eliminated
                and site.sold_to != other
            ):
                options.append(SellObject(site=board.label(state, site.hex), to=other))
    return options


def return_sold(state: Homm4State, seat: int) -> list[Event]:
    """At the end of ``seat``'s turn, its Objects sold in an earlier turn return to it
    (homm4:advanced-rules.resource-trading)."""
    events: list[Event] = []
    for site in state.sites:
        if site.sold_to is None:
            continue
        if site.owner == seat and site.sold_turn is not None and site.sold_turn < state.turn:
            site.sold_to = None
            site.sold_turn = None
            if site.card is not None and site.owner is not None:
                events.append(
                    Event(
                        kind="object_returned",
                        text=f"{zones.name(state, site.card)} at {board.label(state, site.hex)} is no "
                        f"longer sold: {seat_name(site.owner)} uses it again.",
                        data={"site": site.id, "seat": site.owner},
                    )
                )
    return events
