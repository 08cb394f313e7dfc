"""Small helpers every mmh rules module uses: content look-ups, the week's event, names of
seats, heroes and creatures, and drawing from a deck that reshuffles its discard pile.

Rule sections: mmh:game-setup.preparing-card-decks (empty decks), mmh:course-of-play.
revealing-the-week-card (the current event).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.mmh.content import Content, HeroDef, WeekEvent, load_content
from engine.mmh.state import Hero, MmhState, Seat, Unit

NO_EVENT = WeekEvent()


def content() -> Content:
    """The validated mmh content (cached).

    Rule: mmh:game-material.
    """
    return load_content()


def week_event(state: MmhState) -> WeekEvent:
    """The event of the current week card (no effect in round 1).

    Rule: mmh:course-of-play.revealing-the-week-card.
    """
    return NO_EVENT if state.week is None else content().week(state.week).event


def dark_times(state: MmhState) -> bool:
    """True while the current week card shows the Dark Times symbol (mmh:other-game-rules.dark-times)."""
    return week_event(state).dark_times


def who(seat: int) -> str:
    """The public name of a seat (``Red``...).

    Rule: none (names, labels and events).
    """
    return seat_name(seat)


def hero_def(hero: str | Hero) -> HeroDef:
    """The hero sheet of a hero id or `Hero`.

    Rule: mmh:game-setup.choosing-the-starting-hero.
    """
    return content().hero(hero if isinstance(hero, str) else hero.id)


def hero_name(hero: str | Hero) -> str:
    """The hero's name (``Sandor``).

    Rule: none (names, labels and events).
    """
    return hero_def(hero).name


def seat_for(state: MmhState, hero: str) -> Seat:
    """The seat controlling ``hero``.

    Rule: mmh:other-game-rules.enemies.
    """
    return state.seats[state.heroes[hero].owner]


def creature_name(creature: str, elite: bool) -> str:
    """The name of the basic or elite side of a creature type.

    Rule: none (names, labels and events).
    """
    kind = content().creature(creature)
    return kind.elite.name if elite else kind.basic.name


def unit_ref(unit: Unit) -> str:
    """The command form of a creature marker: ``ghoul`` (basic) or ``ghoul+`` (elite).

    Rule: none (names, labels and events).
    """
    return unit.creature + ("+" if unit.elite else "")


def parse_unit_ref(ref: str) -> tuple[str, bool]:
    """Split ``"ghoul+"`` into ``("ghoul", True)``.

    Rule: none (names, labels and events).
    """
    text = ref.strip().lower()
    return (text[:-1], True) if text.endswith("+") else (text, False)


def marker_name(creature: str, elite: bool) -> str:
    """The name of a creature marker a command names: its basic or elite side's name
    (``Ghoul``), or, when no creature type has that id, the text as typed, quoted
    (``'zz99+'``), so that a refusal can say what was asked for.

    Rule: none (names, labels and events).
    """
    if any(kind.id == creature for kind in content().creatures):
        return creature_name(creature, elite)
    return repr(creature + ("+" if elite else ""))


def no_such_marker(hero: Hero, creature: str, elite: bool, purpose: str) -> IllegalMove:
    """The refusal of a command naming a creature marker ``hero``'s army lacks (or a
    creature id no creature type has): it names what was asked for and the markers the
    army holds as typed in commands (``ghoul, ghoul+``). ``purpose`` ends the first
    clause (``"to dismiss"``). Returns the error for the caller to raise.

    Rule: none (names, labels and events).
    """
    held = ", ".join(unit_ref(u) for u in hero.army) or "no creatures"
    return IllegalMove(
        f"{hero_name(hero)}'s army has no {marker_name(creature, elite)} {purpose}; "
        f"it holds {held}."
    )


def army_text(hero: Hero) -> str:
    """A short public list of an army (``2 Praetorian, 1 Sentinel``).

    Rule: none (names, labels and events).
    """
    counts: dict[tuple[str, bool], int] = {}
    for unit in hero.army:
        counts[(unit.creature, unit.elite)] = counts.get((unit.creature, unit.elite), 0) + 1
    parts = [f"{n} {creature_name(c, e)}" for (c, e), n in sorted(counts.items())]
    return ", ".join(parts) if parts else "no creatures"


def ev(kind: str, text: str, **data: Any) -> Event:
    """A public event.

    Rule: none (names, labels and events).
    """
    return Event(kind=kind, text=text, data=data)


def private_ev(kind: str, text: str, seat: int, private: str, **data: Any) -> Event:
    """An event with a line only ``seat`` may read.

    Rule: none (names, labels and events).
    """
    return Event(kind=kind, text=text, data=data, private={seat: private})


def draw_from(
    state: MmhState, deck: list[str], discard: list[str], what: str, events: list[Event]
) -> str | None:
    """Take the top card of ``deck``; when it is empty, shuffle ``discard`` into a new deck
    first (a ``shuffle`` event). Returns None when both are empty.

    Rule: mmh:game-setup.preparing-card-decks ("If a draw deck is empty ...").
    """
    if not deck and discard:
        deck.extend(discard)
        discard.clear()
        state.rng.shuffle(deck)
        events.append(
            ev("shuffle", f"The {what} discard pile is shuffled into a new deck.", deck=what)
        )
    if not deck:
        return None
    return deck.pop(0)


def roll(state: MmhState, sides: int, purpose: str, events: list[Event]) -> int:
    """Roll one die from ``state.rng`` and log it as a ``die_roll`` event.

    Rule: mmh:game-material.dice.
    """
    result = state.rng.die(sides)
    events.append(
        Event(
            kind="die_roll",
            text=f"d{sides} for {purpose}: {result}",
            data={"sides": sides, "result": result, "purpose": purpose},
        )
    )
    return result
