"""What one seat may know of a homm3 game: its information set and the worlds behind it.

Rule sections: homm3bf:battlefield-setup (every deck is shuffled face down; the discard
piles, the Morale cards drawn, the Permanent card and the armies lie face up),
homm3turn:refresh-your-hand (a seat draws its own cards unseen by the others),
homm3bf:adventure-mode (the Adventure hand and the cards set aside are held face down),
DESIGN "Private information" (hands, decks, looked-at cards and the Adventure hand reach
only their owner; `engine.homm3.views`).

Hidden from ``seat``: the order of every deck (its own included); which cards lie in the
other seats' decks, hands, set-aside piles, Spell Scrolls, Adventure hands, removed piles
and the cards they are looking at; which cards lie in the shared Ability, Artifact,
Spell, Adventure and Morale decks and among the drawn Adventure cards no one is looking
at; the option labels of another seat's private choice (they name the cards it looks
at); and the seed and generator. A seat knows the contents of its own deck: every card it
gained was named to it.

Cards are instances (``#17``) named by other parts of the state (a choice's data, the
cards looked at), so a hidden card changes by its face, never by its number: the card
ids of the hidden instances are dealt again among instances of the same kind (a Spell's
number stays a Spell, a Hero's Specialty stays its owner's, a set-aside card stays one),
sorted over sorted numbers (information set) or shuffled (determinization). Each
face-down pile's order is then sorted or shuffled. In the information set, another
seat's deck and hand also trade numbers: the cards there that nothing else names are
dealt back sorted over those places (which number it drew is no knowledge either).

The map game (``mode: map``, homm3core:placing-and-discovering-tiles) also hides the tile
under each face-down position (only its kind shows), every seat's pool of Far tiles and
the order of the neutral unit decks; its Battlefield (``Homm3State.board``, which holds a
copy of the fighting seats' cards) is made to match the game's cards again.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator
from typing import Any

from engine.core.hidden import Slot, canonical_deal, canonical_generator, fresh_generator, slots_of
from engine.homm3.content import load_content
from engine.homm3.state import Homm3State

SHARED_DECKS: tuple[str, ...] = (
    "ability_deck",
    "artifact_deck",
    "spell_deck",
    "adventure_deck",
    "positive_deck",
    "negative_deck",
)
"""The shared face-down decks (homm3bf:battlefield-setup)."""

OTHERS_ZONES: tuple[str, ...] = ("hand", "aside", "scroll", "adventure_hand", "removed")
"""Another seat's face-down zones besides its deck (its view shows only their sizes)."""


def _kind(state: Homm3State, instance: int, owner: int | None) -> Hashable:
    """What a hidden card may be exchanged with: Might & Magic cards by kind, use in the
    Adventure and hero (a Statistic or Specialty card also by its owner: the starting
    decks are known), Adventure and Morale cards by their deck."""
    content = load_content()
    card_id = state.cards[instance]
    card = content.cards.get(card_id)
    if card is not None:
        mine = owner if card.kind in ("statistic", "specialty") else None
        return ("card", card.kind, card.adventure, card.faction or "", card.hero or "", mine)
    if card_id in content.positive:
        return ("positive", None, None, "", "", None)
    if card_id in content.negative:
        return ("negative", None, None, "", "", None)
    return ("adventure", None, None, "", "", None)


def _face_down_piles(state: Homm3State, seat: int) -> list[list[int]]:
    """Every pile whose order ``seat`` does not know: each deck (its own included) and the
    other seats' hands, set-aside piles, Scrolls, Adventure hands and removed piles."""
    piles: list[list[int]] = [getattr(state, name) for name in SHARED_DECKS]
    for player in state.seats:
        piles.append(player.deck)
        if player.seat != seat:
            piles += [getattr(player, zone) for zone in OTHERS_ZONES]
    return piles


def hidden_instances(state: Homm3State, seat: int) -> list[tuple[int, int | None]]:
    """Every card instance whose face ``seat`` does not know, with the seat holding it
    (None for a shared deck), in a fixed order (homm3bf:battlefield-setup)."""
    found: list[tuple[int, int | None]] = [
        (i, None) for name in SHARED_DECKS for i in getattr(state, name)
    ]
    looked = {i for cards in state.looking.values() for i in cards}
    for player in state.seats:
        if player.seat == seat:
            continue
        for zone in ("deck", *OTHERS_ZONES):
            found += [(i, player.seat) for i in getattr(player, zone)]
        found += [(i, player.seat) for i in state.looking.get(player.seat, [])]
    if state.adventure is not None:
        mine = set(state.looking.get(seat, []))
        found += [(i, None) for i in state.adventure.drawn if i not in looked | mine]
    return found


def _groups(state: Homm3State, seat: int) -> list[list[int]]:
    """The hidden instances grouped by `_kind`, each group sorted, groups in a fixed order."""
    groups: dict[Hashable, list[int]] = {}
    for instance, owner in hidden_instances(state, seat):
        groups.setdefault(_kind(state, instance, owner), []).append(instance)
    return [sorted(groups[k]) for k in sorted(groups, key=repr)]


def _numbers(data: Any) -> Iterator[int]:
    """Every integer inside ``data`` (plain JSON-like data), keys included."""
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _numbers(key)
            yield from _numbers(value)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from _numbers(item)


def _named_elsewhere(state: Homm3State) -> set[int]:
    """The numbers a choice, an effect step, the Adventure round or the Combat may name
    (every integer in them: a few stray ones only pin a card that could have moved)."""
    parts: list[Any] = [
        {seat: choice.model_dump() for seat, choice in state.choice.items()},
        {seat: [step.model_dump() for step in steps] for seat, steps in state.queue.items()},
        state.adventure.model_dump() if state.adventure is not None else None,
        state.combat.model_dump() if state.combat is not None else None,
    ]
    return {n for part in parts for n in _numbers(part)}


def _loose_slots(state: Homm3State, seat: int) -> list[list[Slot]]:
    """Per other seat, the places of its deck and hand holding a card nothing else names:
    those cards may have been drawn in any order, so which number lies in the hand is no
    knowledge (homm3turn:refresh-your-hand)."""
    named = _named_elsewhere(state)
    groups = []
    for player in state.seats:
        if player.seat != seat:
            slots = slots_of(player.deck) + slots_of(player.hand)
            groups.append([(pile, i) for pile, i in slots if pile[i] not in named])
    return groups


def _hide_choices(state: Homm3State, seat: int) -> None:
    """Replace the option labels of the other seats' private choices by their numbers."""
    for other, choice in state.choice.items():
        if other != seat and choice.private:
            choice.options = [f"Option {n}" for n in range(1, len(choice.options) + 1)]


def _tile_groups(state: Homm3State) -> list[tuple[list[Any], list[tuple[Any, int | None]]]]:
    """The map game's face-down tiles by kind (a Far tile also among the seats' pools):
    per kind, the tile ids and where each goes back (a face-down position, or a pool
    index). Empty outside the map game."""
    game = getattr(state, "map", None)
    if game is None:
        return []
    places: dict[str, list[tuple[Any, int | None]]] = {}
    for tile in game.tiles:
        if not tile.revealed:
            places.setdefault(tile.kind, []).append((tile, None))
    for _seat, pool in sorted(game.pools.items()):
        places.setdefault("far", []).extend((pool, i) for i in range(len(pool)))
    found = []
    for kind in sorted(places):
        ids = [t.tile if i is None else t[i] for t, i in places[kind]]
        found.append((ids, places[kind]))
    return found


def _put_tiles(places: list[tuple[Any, int | None]], ids: list[Any]) -> None:
    for (holder, index), tile_id in zip(places, ids, strict=True):
        if index is None:
            holder.tile = tile_id
        else:
            holder[index] = tile_id


def _deal_map(state: Homm3State, rng: random.Random | None) -> None:
    """Deal the map game's face-down tiles and neutral decks sorted (``rng`` None) or
    shuffled; nothing outside the map game."""
    for ids, places in _tile_groups(state):
        if rng is None:
            ids.sort()
        else:
            rng.shuffle(ids)
        _put_tiles(places, ids)
    game = getattr(state, "map", None)
    if game is not None:
        for _tier, deck in sorted(game.neutral_decks.items()):
            if rng is None:
                deck.sort()
            else:
                rng.shuffle(deck)


_BOARD_ZONES = ("deck", "hand", "aside", "scroll", "adventure_hand", "removed")


def _synced(state: Homm3State) -> list[tuple[int, int]]:
    """The map game's Battlefield seats holding a copy of a real seat's cards, as
    ``(board seat, real seat)`` (none outside a map Combat)."""
    board = getattr(state, "board", None)
    game = getattr(state, "map", None)
    if board is None or game is None or game.battle is None:
        return []
    return [
        (sub, real)
        for sub, real in enumerate(game.battle.sides)
        if real is not None
        and all(
            getattr(board.seats[sub], z) == getattr(state.player(real), z) for z in _BOARD_ZONES
        )
    ]


def _mirror_board(state: Homm3State, synced: list[tuple[int, int]], seat: int) -> None:
    """Copy the game's cards, shared decks and generator into its Battlefield again, and
    the cards of each seat in ``synced``; hide the other side's private options there."""
    board = getattr(state, "board", None)
    if board is None:
        return
    board.cards = dict(state.cards)
    board.rng = state.rng.model_copy()
    board.seed = state.seed
    for name in SHARED_DECKS:
        setattr(board, name, list(getattr(state, name)))
    mine = None
    for sub, real in synced:
        for zone in _BOARD_ZONES:
            setattr(board.seats[sub], zone, list(getattr(state.player(real), zone)))
        mine = sub if real == seat else mine
    _hide_choices(board, -1 if mine is None else mine)


def information_set(state: Homm3State, seat: int) -> Homm3State:
    """``state`` as ``seat`` may know it: another seat's loose deck and hand numbers dealt
    back sorted, the hidden card ids dealt sorted over the sorted instances of each kind,
    every face-down pile sorted, another seat's private options unnamed, and a canonical
    generator (see the module docstring; homm3bf:battlefield-setup). Pure: returns a
    copy."""
    info = state.model_copy(deep=True)
    synced = _synced(info)
    for loose in _loose_slots(info, seat):
        canonical_deal(loose)
    for group in _groups(info, seat):
        faces = sorted(info.cards[i] for i in group)
        for instance, face in zip(group, faces, strict=True):
            info.cards[instance] = face
    for pile in _face_down_piles(info, seat):
        pile.sort()
    _hide_choices(info, seat)
    _deal_map(info, None)
    canonical_generator(info)
    _mirror_board(info, synced, seat)
    return info


def determinize(info: Homm3State, seat: int, rng: random.Random) -> Homm3State:
    """One full game consistent with ``info`` (from `information_set` for ``seat``): the
    hidden card ids of each kind shuffled over its instances, every deck shuffled, and a
    fresh generator, all from ``rng`` (homm3bf:battlefield-setup). Pure: returns a copy
    (``rng`` advances)."""
    world = info.model_copy(deep=True)
    synced = _synced(world)
    for group in _groups(world, seat):
        faces = [world.cards[i] for i in group]
        rng.shuffle(faces)
        for instance, face in zip(group, faces, strict=True):
            world.cards[instance] = face
    for name in SHARED_DECKS:
        rng.shuffle(getattr(world, name))
    for player in world.seats:
        rng.shuffle(player.deck)
    _hide_choices(world, seat)
    _deal_map(world, rng)
    fresh_generator(world, rng)
    _mirror_board(world, synced, seat)
    return world
