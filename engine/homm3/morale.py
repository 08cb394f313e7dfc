"""Morale: the Positive and Negative Morale decks of the Battlefield modes, and the Core
Game tokens where a deck runs out.

Rule sections: homm3turn:gaining-morale, homm3turn:losing-morale, homm3turn:two-negative-
tokens, homm3turn:necropolis, homm3turn:morale-cards-battlefield, homm3bf:battlefield-
setup.morale-deck (and .positive-morale-deck / .negative-morale-deck).

Gaining Positive Morale first discards a Negative card (or the Negative token); otherwise
the seat Searches(2) the Positive deck, keeping one card face up (at most 2 held) and
putting the other at the bottom. Losing Morale discards a Positive card (or token);
otherwise the seat draws a Negative card (no limit). A deck that is empty falls back to the
tokens: one Positive token at most; a second Negative token is not taken but the hand is
discarded at the end of the seat's next turn (in Combat: the end of the Combat round).
Necropolis ignores every Morale effect.
"""

from __future__ import annotations

from engine.core.model import Event, seat_name
from engine.homm3.content import load_content
from engine.homm3.state import Choice, Homm3State

MAX_POSITIVE = 2
"""Positive Morale cards a seat may hold in Adventure or Skirmish."""


def ignores(state: Homm3State, seat: int) -> bool:
    """Necropolis ignores all Morale effects (homm3turn:necropolis)."""
    return state.player(seat).faction == "necropolis"


def card_name(state: Homm3State, instance: int) -> str:
    """The name of a Morale card instance.

    Rule: none (label)"""
    return load_content().card_name(state.cards[instance])


def gain(state: Homm3State, seat: int) -> list[Event]:
    """``seat`` gains Positive Morale (may open a private Search(2) choice; in a map game
    the top card is drawn).

    Rule: homm3turn:gaining-morale, homm3turn:morale-cards-battlefield,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.morale-decks-in-regular-games"""
    player = state.player(seat)
    who = seat_name(seat)
    if ignores(state, seat):
        return [
            Event(
                kind="morale", text=f"{who} is Necropolis and ignores Morale.", data={"seat": seat}
            )
        ]
    if player.negative:
        card = player.negative.pop(0)
        state.negative_deck.append(card)
        return [
            Event(
                kind="morale",
                text=f"{who} gains Morale and discards {card_name(state, card)} (Negative).",
                data={"seat": seat, "discarded": card},
            )
        ]
    if player.negative_token:
        player.negative_token = False
        return [
            Event(
                kind="morale",
                text=f"{who} gains Morale and drops the Negative token.",
                data={"seat": seat},
            )
        ]
    if len(player.positive) >= MAX_POSITIVE:
        return [
            Event(
                kind="morale",
                text=f"{who} already holds {MAX_POSITIVE} Positive Morale cards and gains no more.",
                data={"seat": seat},
            )
        ]
    if not state.positive_deck:
        if player.positive_token:
            return [
                Event(
                    kind="morale",
                    text=f"{who} already holds the Positive token.",
                    data={"seat": seat},
                )
            ]
        player.positive_token = True
        return [
            Event(
                kind="morale",
                text=f"{who} gains the Positive Morale token (the Positive deck is empty).",
                data={"seat": seat},
            )
        ]
    # homm3bf:battlefield-in-regular-games.changes-to-combat-rules.morale-decks-in-regular-games:
    # a map game draws 1 card where Adventure and Skirmish Search(2).
    count = 1 if state.mode == "map" else 2
    looked = state.positive_deck[:count]
    del state.positive_deck[:count]
    state.looking[seat] = looked
    if len(looked) == 1:
        return take_positive(state, seat, 0)
    state.choice[seat] = Choice(
        kind="morale_search",
        prompt=f"{who} Searches(2) the Positive Morale deck and keeps one card.",
        options=[card_name(state, c) for c in looked],
        private=True,
    )
    return [
        Event(
            kind="morale_search",
            text=f"{who} looks at the top 2 Positive Morale cards.",
            data={"seat": seat},
            private={seat: "You look at " + ", ".join(card_name(state, c) for c in looked) + "."},
        )
    ]


def take_positive(state: Homm3State, seat: int, index: int) -> list[Event]:
    """Keep looked-at Positive card ``index`` face up; the others go to the bottom.

    Rule: homm3turn:morale-cards-battlefield"""
    looked = state.looking.pop(seat, [])
    kept = looked[index]
    state.player(seat).positive.append(kept)
    state.positive_deck.extend(c for i, c in enumerate(looked) if i != index)
    return [
        Event(
            kind="morale",
            text=f"{seat_name(seat)} gains Positive Morale: {card_name(state, kept)}.",
            data={"seat": seat, "card": kept},
        )
    ]


def drop_positive(state: Homm3State, seat: int, cause: str) -> list[Event]:
    """``seat`` discards its oldest Positive Morale card to the bottom of the Positive deck,
    or else its Positive token (homm3turn:losing-morale; Ghost Dragons' Terror takes
    Positive Morale the same way, homm3bf:battlefield-combat.changes-to-combat-rules).

    ``cause`` is the verb phrase of the event text (``"loses Morale"``: "Red loses Morale
    and discards ..."). Returns the one event, or ``[]`` when the seat holds neither (then
    nothing changes). Necropolis is not checked here: `lose` does that.
    """
    player = state.player(seat)
    who = seat_name(seat)
    if player.positive:
        card = player.positive.pop(0)
        state.positive_deck.append(card)
        return [
            Event(
                kind="morale",
                text=f"{who} {cause} and discards {card_name(state, card)} (Positive Morale).",
                data={"seat": seat, "discarded": card},
            )
        ]
    if player.positive_token:
        player.positive_token = False
        return [
            Event(
                kind="morale",
                text=f"{who} {cause} and discards the Positive Morale token.",
                data={"seat": seat},
            )
        ]
    return []


def lose(state: Homm3State, seat: int) -> list[Event]:
    """``seat`` loses Morale (homm3turn:losing-morale)."""
    player = state.player(seat)
    who = seat_name(seat)
    if ignores(state, seat):
        return [
            Event(
                kind="morale", text=f"{who} is Necropolis and ignores Morale.", data={"seat": seat}
            )
        ]
    dropped = drop_positive(state, seat, "loses Morale")
    if dropped:
        return dropped
    if state.negative_deck:
        card = state.negative_deck.pop(0)
        player.negative.append(card)
        return [
            Event(
                kind="morale",
                text=f"{who} loses Morale: {card_name(state, card)} (Negative).",
                data={"seat": seat, "card": card},
            )
        ]
    if player.negative_token:
        player.discard_hand = True
        return [
            Event(
                kind="morale",
                text=f"{who} would take a second Negative token: the hand is discarded at the end of the turn.",
                data={"seat": seat},
            )
        ]
    player.negative_token = True
    return [
        Event(
            kind="morale",
            text=f"{who} takes the Negative Morale token (the Negative deck is empty).",
            data={"seat": seat},
        )
    ]


def trigger(state: Homm3State, seat: int, situation: str) -> bool:
    """Resolve (remove) ``seat``'s oldest Negative card whose situation is ``situation``;
    returns whether one was resolved (the caller applies its effect).
    Rule: homm3turn:morale-cards-battlefield"""
    player = state.player(seat)
    negatives = load_content().negative
    for card in player.negative:
        if negatives[state.cards[card]].trigger == situation:
            player.negative.remove(card)
            state.negative_deck.append(card)
            return True
    return False


def use_positive(state: Homm3State, seat: int, instance: int) -> None:
    """Move a used Positive card to the bottom of the Positive deck.

    Rule: homm3turn:morale-cards-battlefield, homm3turn:spending-positive-morale"""
    state.player(seat).positive.remove(instance)
    state.positive_deck.append(instance)
