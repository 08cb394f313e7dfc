"""Card zones: new instances, drawing from a player's deck, the shared Ability / Artifact /
Spell decks and their discard piles, gaining a card, and moving cards between zones.

Rule sections: homm3turn:refresh-your-hand (drawing), homm3bf:adventure-mode (cards gained
in the Adventure go to the deck or are set aside), core Search(X) and deck rules (a shared
deck that runs out is reshuffled from its discard pile, whose top card then starts the new
discard pile; an empty discard pile is refilled with the deck's top card).
Private card names go to ``Event.private``; public text names only face-up cards.
"""

from __future__ import annotations

from typing import Literal

from engine.core.model import Event, seat_name
from engine.homm3.content import load_content
from engine.homm3.state import Homm3State

Shared = Literal["ability", "artifact", "spell"]


def name(state: Homm3State, instance: int) -> str:
    """``"Fireball #17"``: the card's name and number.

    Rule: none (label)"""
    return f"{load_content().card_name(state.cards[instance])} #{instance}"


def new_instance(state: Homm3State, card_id: str) -> int:
    """Create a new card instance of ``card_id`` and return its number (no zone yet).

    Rule: none (bookkeeping)"""
    number = state.next_card
    state.next_card += 1
    state.cards[number] = card_id
    return number


def shuffle(state: Homm3State, cards: list[int], what: str) -> Event:
    """Shuffle ``cards`` in place from ``state.rng``; the event says what was shuffled.

    Rule: none (core game: shuffling)"""
    state.rng.shuffle(cards)
    return Event(
        kind="shuffle", text=f"{what} is shuffled.", data={"what": what, "size": len(cards)}
    )


def draw(state: Homm3State, seat: int, count: int) -> list[Event]:
    """``seat`` draws ``count`` cards from its deck into its hand; an empty deck is refilled
    by shuffling the discard pile (core: "shuffle your Discard Pile into a new Deck").
    Fewer cards are drawn when both are empty. The names go to that seat only.
    Rule: homm3turn:refresh-your-hand"""
    player = state.player(seat)
    events: list[Event] = []
    drawn: list[int] = []
    for _ in range(count):
        if not player.deck:
            if not player.discard:
                break
            player.deck, player.discard = player.discard, []
            events.append(shuffle(state, player.deck, f"{seat_name(seat)}'s discard pile"))
        card = player.deck.pop(0)
        player.hand.append(card)
        drawn.append(card)
    if drawn or count:
        events.append(
            Event(
                kind="draw",
                text=f"{seat_name(seat)} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}.",
                data={"seat": seat, "count": len(drawn)},
                private={
                    seat: "You draw "
                    + (", ".join(name(state, c) for c in drawn) or "nothing")
                    + "."
                },
                private_data={seat: {"cards": drawn}},
            )
        )
    return events


def _piles(state: Homm3State, deck: Shared) -> tuple[list[int], list[int]]:
    return getattr(state, f"{deck}_deck"), getattr(state, f"{deck}_discard")


def refill(state: Homm3State, deck: Shared) -> list[Event]:
    """Keep a shared deck playable: reshuffle its discard pile into it when it is empty
    (the top card then starts the new discard pile) and refill an empty discard pile with
    the deck's top card.
    Rule: none (core game: a shared deck reshuffled from its discard pile)"""
    pile, discard = _piles(state, deck)
    events: list[Event] = []
    if not pile and discard:
        pile.extend(discard)
        discard.clear()
        events.append(shuffle(state, pile, f"The {deck.capitalize()} discard pile"))
        discard.append(pile.pop(0))
    if not discard and pile:
        discard.append(pile.pop(0))
    return events


def take_top(state: Homm3State, deck: Shared, count: int) -> tuple[list[int], list[Event]]:
    """Take up to ``count`` cards from the top of a shared deck (refilling as needed).

    Rule: none (core game: a shared deck reshuffled from its discard pile)"""
    pile, _discard = _piles(state, deck)
    taken: list[int] = []
    events = refill(state, deck)
    while len(taken) < count:
        if not pile:
            events += refill(state, deck)
            if not pile:
                break
        taken.append(pile.pop(0))
    return taken, events


def discard_shared(state: Homm3State, deck: Shared, cards: list[int]) -> None:
    """Put ``cards`` face up on a shared discard pile (the last one ends on top).

    Rule: none (core game: shared discard piles)"""
    _pile, discard = _piles(state, deck)
    for card in cards:
        discard.insert(0, card)


def deck_of(state: Homm3State, instance: int) -> Shared:
    """Which shared deck a card belongs to (by its kind; Statistics and Specialties count
    as Ability cards for discarding, which never happens in play).
    Rule: none (bookkeeping)"""
    kind = load_content().cards[state.cards[instance]].kind
    if kind == "spell":
        return "spell"
    if kind == "artifact":
        return "artifact"
    return "ability"


def gain(state: Homm3State, seat: int, instance: int) -> Event:
    """``seat`` gains card ``instance``: in the Adventure Phase it goes into the deck, or is
    set aside when it is of no use in Combat (homm3bf:adventure-mode); otherwise into the
    hand (core: gained cards go directly into your hand)."""
    player = state.player(seat)
    card = load_content().cards[state.cards[instance]]
    if state.phase == "adventure" or (state.phase == "setup" and state.mode == "adventure"):
        if card.adventure == "aside":
            player.aside.append(instance)
            where = "sets it aside"
        else:
            player.deck.append(instance)
            where = "adds it to the deck"
        text = f"{seat_name(seat)} gains a card and {where}."
    elif state.phase == "setup":
        player.deck.append(instance)
        text = f"{seat_name(seat)} adds a card to the deck."
    else:
        player.hand.append(instance)
        text = f"{seat_name(seat)} gains a card into the hand."
    return Event(
        kind="gain_card",
        text=text,
        data={"seat": seat},
        private={seat: f"You gain {name(state, instance)}."},
        private_data={seat: {"card": instance}},
    )


def unseen(state: Homm3State, card_ids: tuple[str, ...]) -> bool:
    """Whether a card of one of ``card_ids`` may be somewhere hidden (a deck, a hand, a
    Scroll, a removed or set-aside pile): public facts only, so that a window opened for a
    card a player might hold tells the table nothing. False once every such card lies face
    up (a discard pile, in play).
    Rule: none (bookkeeping: hidden-card query)"""
    shown = set(state.ability_discard) | set(state.artifact_discard) | set(state.spell_discard)
    for player in state.seats:
        shown |= set(player.discard) | set(player.permanent)
    return any(card in card_ids and number not in shown for number, card in state.cards.items())


def discard_from_hand(state: Homm3State, seat: int, cards: list[int]) -> Event:
    """Move ``cards`` from ``seat``'s hand to its discard pile (face up: named publicly).

    Rule: none (core game: discarding)"""
    player = state.player(seat)
    for card in cards:
        player.hand.remove(card)
        player.discard.append(card)
    names = ", ".join(name(state, c) for c in cards)
    return Event(
        kind="discard",
        text=f"{seat_name(seat)} discards {names}.",
        data={"seat": seat, "cards": list(cards)},
    )


def random_discard(state: Homm3State, seat: int, why: str) -> list[Event]:
    """``seat`` discards one card of its hand chosen by ``state.rng`` (logged as a die roll
    over the hand size); nothing when the hand is empty.
    Rule: none (core game: random discard)"""
    player = state.player(seat)
    if not player.hand:
        return []
    roll = state.rng.die(len(player.hand))
    card = player.hand[roll - 1]
    return [
        Event(
            kind="die_roll",
            text=f"A random card of {seat_name(seat)}'s hand is picked ({why}).",
            data={"sides": len(player.hand), "result": roll, "purpose": why},
        ),
        discard_from_hand(state, seat, [card]),
    ]
