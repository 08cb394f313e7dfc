"""What is private in each ruleset at one moment, and a checker that finds it in texts.

House rule 6: a card in a Hand, Risk Stack, draw deck or face down (mmh: held scrolls and
the cards drawn for a keep-one choice; homm3: hand, deck, set-aside cards, Spell Scroll,
Adventure hand, looked-at cards and every face-down shared deck) never reaches a channel,
another player, or a log line. `secrets` lists those cards with the seat allowed to know
each (None: nobody); `Checker` looks for a card's ``#number`` or its name in any text.

A name is only looked for when nothing public carries the same name (another copy of the
card face up, a unit, hero, building or faction called the same), so a hit is a leak.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.outbox import Button, ChannelPost, DirectMessage, Outbox, Reply, Select
from engine.core.model import GameState


@dataclass(frozen=True)
class Secret:
    """One private card: its key (an instance number, or an mmh card id), the seat that
    may know it (None: nobody), its name and the ``#number`` shown for it (if any)."""

    key: int | str
    owner: int | None
    name: str
    token: str | None
    deck: bool = False


HOMM4_TERMS = frozenset(
    {"Haven", "Necropolis", "Stronghold", "Academy", "Asylum", "Preserve", "Attack", "Defense"}
    | {"Melee", "Diplomacy", "Resurrection", "Spirituality"}
)
"""Card names that are also words of the rules or faction names (never looked for)."""

HOMM3_TERMS = frozenset(
    {"Attack", "Defense", "Power", "Knowledge", "Offense", "Morale", "Necromancy"}
)
"""Card names that are also words of the rules (never looked for)."""


# ----------------------------------------------------------------------------- homm4
def _homm4(state: Any) -> tuple[dict[int | str, Secret], set[str]]:
    from engine.homm4 import zones

    owners: dict[int, int | None] = {}
    decks: set[int] = set()
    for seat, player in enumerate(state.players_state):
        for instance in [*player.hand, *player.risk, *player.deck]:
            owners[instance] = seat
        decks.update(player.deck)
    found: dict[int | str, Secret] = {
        i: Secret(i, seat, zones.card(state, i).name, f"#{i}", i in decks)
        for i, seat in owners.items()
    }
    public = {zones.card(state, i).name for i in range(len(state.card_defs)) if i not in owners}
    return found, public | HOMM4_TERMS


# ----------------------------------------------------------------------------- homm3
@cache
def _homm3_vocabulary() -> frozenset[str]:
    from engine.homm3.content import load_content

    content = load_content()
    words = {u.name for u in content.units.values()}
    words |= {h.name for h in content.heroes.values()}
    words |= {f.name for f in content.factions.values()}
    words |= {b.name for f in content.factions.values() for b in f.building}
    words |= {t.obstacle.name for t in content.board.token}
    return frozenset(words | HOMM3_TERMS)


def _homm3(state: Any) -> tuple[dict[int | str, Secret], set[str]]:
    from engine.homm3.content import load_content

    content = load_content()
    owners: dict[int, int | None] = {}
    decks = {i for player in state.seats for i in player.deck}
    for player in state.seats:
        for instance in [
            *player.deck,
            *player.hand,
            *player.aside,
            *player.scroll,
            *player.adventure_hand,
        ]:
            owners[instance] = player.seat
    for seat, cards in state.looking.items():
        for instance in cards:
            owners[instance] = seat
    if state.adventure is not None:
        keeping = [s for s, c in state.choice.items() if c.kind.startswith("adventure_keep")]
        for instance in state.adventure.drawn:
            owners[instance] = keeping[0] if keeping else None
    for deck in (
        state.ability_deck,
        state.artifact_deck,
        state.spell_deck,
        state.adventure_deck,
        state.positive_deck,
        state.negative_deck,
    ):
        for instance in deck:
            owners[instance] = None
        decks.update(deck)
    found: dict[int | str, Secret] = {
        i: Secret(i, seat, content.card_name(state.cards[i]), f"#{i}", i in decks)
        for i, seat in owners.items()
    }
    public = {content.card_name(card) for i, card in state.cards.items() if i not in owners}
    return found, public | set(_homm3_vocabulary())


# ------------------------------------------------------------------------------- mmh
@cache
def _mmh_vocabulary() -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    from engine.mmh.content import load_content

    content = load_content()
    words = {h.name for h in content.heroes}
    words |= {k.basic.name for k in content.creatures} | {k.elite.name for k in content.creatures}
    words |= {b.name for b in content.buildings} | {f.name for f in content.factions}
    cards = tuple(
        (card.id, card.name)
        for table in (
            content.skills,
            content.scrolls,
            content.artefacts,
            content.treasures,
            content.weeks,
        )
        for card in table
    )
    return frozenset(words), cards


def _mmh(state: Any) -> tuple[dict[int | str, Secret], set[str]]:
    from engine.mmh.content import load_content
    from engine.mmh.state import DragonVein, KeepCard

    content = load_content()
    owners: dict[str, int | None] = {}
    for hero in state.heroes.values():
        for card in hero.scrolls:
            owners[card] = hero.owner
    for prompt in state.queue:
        if isinstance(prompt, KeepCard):
            for card in prompt.cards:
                owners[card] = prompt.seat
    decks: set[str] = set()
    for seat in state.seats:
        for card in [*seat.might_deck, *seat.magic_deck]:
            owners[card] = seat.seat
            decks.add(card)
    for deck in (state.scroll_deck, state.artefact_deck, state.treasure_deck, state.week_stack):
        for card in deck:
            owners[card] = None
            decks.add(card)
    # engine/mmh/views.py: discard piles' contents are private too (the cards a keep-one
    # choice rejected go there); their sizes are public.
    piles = [state.scroll_discard, state.artefact_discard, state.treasure_discard]
    piles += [seat.might_discard for seat in state.seats]
    piles += [seat.magic_discard for seat in state.seats]
    searching = [p.seat for p in state.queue[:1] if isinstance(p, DragonVein)]
    for pile in piles:
        for card in pile:
            owners[card] = searching[0] if searching else None
            decks.add(card)
    words, cards = _mmh_vocabulary()
    found: dict[int | str, Secret] = {
        card: Secret(card, seat, content.card_name(card), None, card in decks)
        for card, seat in owners.items()
    }
    public = {name for card, name in cards if card not in owners}
    return found, public | set(words)


def secrets(state: GameState) -> tuple[dict[int | str, Secret], set[str]]:
    """Every private card of ``state`` by key, and the names something public also has."""
    if state.ruleset == "homm4":
        return _homm4(state)
    if state.ruleset == "homm3":
        return _homm3(state)
    if state.ruleset == "mmh":
        return _mmh(state)
    return {}, set()


# ---------------------------------------------------------------------------- texts
_NOT_CARDS = re.compile(
    r"(?i)<#\d+>|game #\d+|deck[^#\n]*\(#\d+|entr(?:y|ies) (?:#\d+(?:, )?)+|\(#\d+\)|move #\d+"
)


def component_texts(components: Iterable[object]) -> list[str]:
    """Labels, placeholders, option labels, descriptions, values and custom ids."""
    texts: list[str] = []
    for component in components:
        if isinstance(component, Button):
            texts += [component.label, component.custom_id]
        elif isinstance(component, Select):
            texts += [component.custom_id, component.placeholder]
            for option in component.options:
                texts += [option.label, option.value, option.description]
    return texts


def post_texts(post: ChannelPost) -> list[str]:
    """Everything a channel post shows (text, components, image alt texts)."""
    return [post.text, *component_texts(post.components), *(i.description for i in post.images)]


def private_texts(message: DirectMessage | Reply) -> list[str]:
    """Everything a DM or a reply shows."""
    texts = [message.text, *component_texts(message.components)]
    texts += [i.description for i in message.images]
    if isinstance(message, Reply):
        for embed in message.embeds:
            texts += [embed.title, embed.description, embed.footer]
    return texts


CARD_KEYS = frozenset({"card", "cards", "discarded", "skill", "spell", "replaced", "drawn"})
"""Event data keys whose numbers are card instances (others are counts, seats, hexes)."""


def data_values(data: Mapping[str, Any]) -> list[str]:
    """Event data as texts to search: card numbers under keys naming cards as ``#n``,
    every string as it is."""
    found: list[str] = []

    def walk(value: Any, card_key: bool) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            if card_key:
                found.append(f"#{value}")
        elif isinstance(value, str):
            found.append(value)
        elif isinstance(value, Mapping):
            for key, inner in value.items():
                walk(inner, card_key or str(key) in CARD_KEYS)
        elif isinstance(value, list | tuple):
            for inner in value:
                walk(inner, card_key)

    walk(dict(data), False)
    return found


@dataclass
class Checker:
    """Finds private cards in texts. ``forbidden`` are the secrets the reader may not know;
    a name in ``public_names`` is never looked for (something public is called so)."""

    forbidden: list[Secret]
    public_names: set[str]

    def __post_init__(self) -> None:
        self._by_token: dict[str, list[Secret]] = {}
        self._by_name: dict[str, list[Secret]] = {}
        self._by_id: dict[str, list[Secret]] = {}
        for secret in self.forbidden:
            if secret.token is not None:
                self._by_token.setdefault(secret.token[1:], []).append(secret)
            if secret.name not in self.public_names:
                self._by_name.setdefault(secret.name, []).append(secret)
            if isinstance(secret.key, str):
                self._by_id.setdefault(secret.key, []).append(secret)
        names = frozenset(self._by_name)
        self._names = _alternation(names)
        # "Amulet of Fortune" is no mention of the card "Fortune".
        self._longer = _alternation(_containing(names, frozenset(self.public_names)))

    def leaks(self, texts: Iterable[str], *, ids: bool = False) -> list[str]:
        """``"Fireball (#12, owner 0) in '…'"`` for each forbidden card a text names (by
        number, by name, or — with ``ids`` — by mmh card id)."""
        hits: list[str] = []
        for text in texts:
            if not text:
                continue
            found: list[tuple[Secret, str]] = []
            for number in set(re.findall(r"#(\d+)\b", _NOT_CARDS.sub("", text))):
                found += [(s, f"#{number}") for s in self._by_token.get(number, ())]
            if self._names is not None:
                plain = self._longer.sub("", text) if self._longer is not None else text
                for name in set(self._names.findall(plain)):
                    found += [(s, name) for s in self._by_name[name]]
            if ids:
                found += [(s, text) for s in self._by_id.get(text, ())]
            hits += [f"{s.name} ({how}, owner {s.owner}) in {text[:300]!r}" for s, how in found]
        return hits


@cache
def _containing(names: frozenset[str], public: frozenset[str]) -> frozenset[str]:
    """The public names that contain one of ``names`` and are longer."""
    return frozenset(p for p in public if any(n in p and n != p for n in names))


@cache
def _alternation(names: frozenset[str]) -> re.Pattern[str] | None:
    """One pattern finding any of ``names`` as whole words (longest first), or None."""
    if not names:
        return None
    ordered = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<![\w])(" + "|".join(map(re.escape, ordered)) + r")(?![\w])")


REVEALING_EVENTS = frozenset({"scroll_used", "treasure", "pay", "vortex"})
"""Event kinds whose ``data["card"]`` / ``data["cards"]`` are turned face up during the
action, so they may be named though hidden before and after it: mmh, a scroll cast in
battle or a treasure card drawn at an encounter (then in a discard pile, whose contents
mmh keeps private); homm4, cards paid face up to a discard pile that a reshuffle in the
same action may take back into a deck and a draw into a Hand; homm3, the card discarded
face up to a Mana Vortex, whose discard pile is then shuffled into the deck at once."""


def revealed(events: Iterable[Any]) -> set[int | str]:
    """Cards the events show turned face up."""
    found: set[int | str] = set()
    for event in events:
        if event.kind in REVEALING_EVENTS:
            if "card" in event.data:
                found.add(event.data["card"])
            found.update(event.data.get("cards", ()))
    return found


def still_private(
    before: GameState | None,
    after: GameState,
    *,
    shuffled: bool = False,
    shown: frozenset[int | str] = frozenset(),
) -> tuple[dict[int | str, Secret], dict[int | str, Secret], set[str]]:
    """The secrets private both before and after an action (an action may play a card
    face up, or draw one: either way its text may name only what stayed public), keyed as
    after; the secrets before; and the publicly known names of both moments.

    ``shuffled``: the action shuffled a face-up discard pile into a deck, so cards in
    decks afterwards may have been face up during it (a Guard chipped in from the deck
    top): those are left out; so are the ``shown`` cards (played face up)."""
    after_secrets, after_public = secrets(after)
    if before is None:
        return after_secrets, after_secrets, after_public
    before_secrets, before_public = secrets(before)
    both = {
        k: s
        for k, s in after_secrets.items()
        if k in before_secrets and not (shuffled and s.deck) and k not in shown
    }
    known = {s.name for k, s in {**before_secrets, **after_secrets}.items() if k not in both}
    return both, before_secrets, after_public | before_public | known


def channel_checker(
    before: GameState | None,
    after: GameState,
    *,
    shuffled: bool = False,
    shown: frozenset[int | str] = frozenset(),
) -> Checker:
    """Every card private before and after: nothing of them in a channel or a log line."""
    both, _, public = still_private(before, after, shuffled=shuffled, shown=shown)
    return Checker(list(both.values()), public)


def seat_checker(
    before: GameState | None,
    after: GameState,
    seat: int | None,
    *,
    shuffled: bool = False,
    shown: frozenset[int | str] = frozenset(),
) -> Checker:
    """What ``seat``'s player may not read: cards private before and after that the seat
    knew at neither moment (None: a person without a seat)."""
    both, earlier, public = still_private(before, after, shuffled=shuffled, shown=shown)
    forbidden = [
        s
        for k, s in both.items()
        if seat is None or (s.owner != seat and earlier.get(k, s).owner != seat)
    ]
    barred = {s.key for s in forbidden}
    allowed = {s.name for s in both.values() if s.key not in barred}
    return Checker(forbidden, public | allowed)


def outbox_leaks(
    out: Outbox,
    channel: Checker,
    seat_of_user: Mapping[int, int],
    per_seat: Mapping[int | None, Checker],
    actor_seat: int | None,
) -> list[str]:
    """Every leak of an outbox: channel posts (anyone), DMs (their user's seat), the reply
    (public when not ephemeral, else the actor's seat)."""
    found: list[str] = []
    for post in out.posts:
        found += [f"channel post: {hit}" for hit in channel.leaks(post_texts(post))]
    for dm in out.dms:
        reader = per_seat[seat_of_user.get(dm.user_id)]
        found += [f"DM to {dm.user_id}: {hit}" for hit in reader.leaks(private_texts(dm))]
    if out.reply is not None:
        reader = channel if not out.reply.ephemeral else per_seat[actor_seat]
        where = "public reply" if not out.reply.ephemeral else f"reply to seat {actor_seat}"
        found += [f"{where}: {hit}" for hit in reader.leaks(private_texts(out.reply))]
    return found


def event_leaks(channel: Checker, events: Iterable[Any]) -> list[str]:
    """Leaks in the public parts of logged events (text and data)."""
    found: list[str] = []
    for event in events:
        texts = [event.text, *data_values(event.data)]
        found += [f"log event {event.kind}: {hit}" for hit in channel.leaks(texts, ids=True)]
    return found


def json_strings(value: Any) -> list[str]:
    """Every string in a JSON-like value (a public view dumped as JSON)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for inner in value.values() for s in json_strings(inner)]
    if isinstance(value, list | tuple):
        return [s for inner in value for s in json_strings(inner)]
    return []


def dumps(value: Any) -> str:
    """Compact JSON for messages."""
    return json.dumps(value, default=str)[:500]
