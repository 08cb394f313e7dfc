"""The turn cycle: collecting economy, the scenario roll, ending a turn, heroes dying.

Rule sections: heroforge:turns (collect all e from lands, the scenario roll with a D10:
1 an enchantment from list 1, 5 from list 2, 10 shift a land plate one space; buy; move;
buy; combat; end turn), heroforge:basic-rules (the objective: kill all enemy heroes),
heroforge:combat-with-forts (an attacker out of units retreats at the end of its turn).
"""

from __future__ import annotations

from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.heroforge import board, effects, enchant
from engine.heroforge.dice import roll
from engine.heroforge.state import HeroforgeState, Square


def start_turn(state: HeroforgeState, seat: int) -> list[Event]:
    """Begin ``seat``'s turn: collect economy, make the scenario roll and resolve it.

    Enchantment draws may open a steal offer and a roll of 10 a shift decision; those are
    answered before the turn's first buying step.

    Rule: heroforge:turns.
    """
    if state.turn == 0 or seat <= state.active:
        state.round += 1
    state.active, state.step = seat, "buy1"
    state.scenario = state.move_roll = None
    state.moved = state.left_combat = state.fought = False
    state.shifts_used = 0
    events = [
        Event(
            kind="turn",
            text=f"Round {state.round}: {seat_name(seat)}'s turn"
            + (" (in combat)." if effects.in_combat(state, seat) else "."),
            data={"seat": seat, "round": state.round, "turn": state.turn + 1},
        )
    ]
    events += collect(state, seat)
    face, event = roll(state, 10, "scenario roll", seat)
    state.scenario = face
    events.append(event)
    if face in (1, 5):
        events += enchant.roll_enchantment(state, seat, face)
    elif face == 10:
        events += board.offer_shift(state, seat, 1, "scenario roll 10")
    return events


def collect(state: HeroforgeState, seat: int) -> list[Event]:
    """Add this turn's economy to ``seat`` (`effects.income`); economy never goes below 0.

    Rule: heroforge:turns, heroforge:getting-economy-from-lands.
    """
    lines = effects.income(state, seat)
    if not lines:
        return []
    total = sum(amount for amount, _ in lines)
    player = state.player(seat)
    player.economy = max(0, player.economy + total)
    parts = ", ".join(f"{amount:+d}e from {source}" for amount, source in lines)
    return [
        Event(
            kind="economy",
            text=f"{seat_name(seat)} collects {total:+d}e ({parts}); economy {player.economy}e.",
            data={"seat": seat, "amount": total, "economy": player.economy},
        )
    ]


def end_turn(state: HeroforgeState) -> list[Event]:
    """End the active seat's turn and start the next living seat's turn.

    An attacking hero left without units in a combat retreats now
    (heroforge:combat-with-forts); instants end; the game ends when one hero is left.
    """
    seat = state.active
    events: list[Event] = []
    player = state.player(seat)
    if player.alive and not player.army and (effects.in_combat(state, seat) or state.fought):
        events += retreat_hero(state, seat, "has no units left in the combat")
    state.instants = []
    state.defence = None
    state.turn += 1
    settle_combat_bonus(state)
    if state.phase == "over":
        return events
    living = state.living()
    following = [s for s in living if s > seat] + [s for s in living if s <= seat]
    return events + start_turn(state, following[0])


def retreat_destination(state: HeroforgeState, seat: int) -> str | None:
    """The closest uncontested land ``seat`` controls (a plate with its fort and no hero
    on it, so it stays uncontested when the hero arrives), nearest first by plate steps,
    then by label; None without one (heroforge:combat)."""
    here = state.player(seat).at
    if here is None:
        return None
    options = [
        label
        for label in effects.owned_plates(state, seat)
        if label != here.plate and not effects.heroes_on(state, label)
    ]
    if not options:
        return None
    return min(options, key=lambda label: (board.plate_distance(state, here.plate, label), label))


def landing_square(state: HeroforgeState, label: str) -> Square:
    """The square a hero arrives on at plate ``label``: the centre, or the free square
    (no fort) nearest to it (then in reading order).

    Rule: none (our choice, see README: Combat).
    """
    taken = {(f.at.cx, f.at.cy) for f in state.forts if f.at.plate == label}
    free = [s for s in board.squares_of(label) if (s.cx, s.cy) not in taken]
    return min(
        free,
        key=lambda s: (max(abs(s.cx - board.CENTRE), abs(s.cy - board.CENTRE)), s.cy, s.cx),
    )


def retreat_hero(state: HeroforgeState, seat: int, why: str) -> list[Event]:
    """Send ``seat``'s hero to its closest uncontested land and end its combats; without
    such a land the hero stays where it is and its combats end.

    Rule: heroforge:combat, heroforge:combat-with-forts (retreat).
    """
    destination = retreat_destination(state, seat)
    events = end_combats(state, seat)
    if destination is None:
        return [
            Event(
                kind="retreat",
                text=f"{seat_name(seat)}'s hero {why} and has no land to retreat to; it stays.",
                data={"seat": seat, "to": None},
            ),
            *events,
        ]
    state.player(seat).at = landing_square(state, destination)
    return [
        Event(
            kind="retreat",
            text=f"{seat_name(seat)}'s hero {why} and retreats to plate {destination}.",
            data={"seat": seat, "to": destination},
        ),
        *events,
    ]


def end_combats(state: HeroforgeState, seat: int) -> list[Event]:
    """End every combat ``seat``'s hero is in (moving or retreating ends combat).

    Rule: heroforge:combat (moving ends combat).
    """
    ending = [
        c for c in state.combats if c.attacker == seat or (c.fort is None and c.defender == seat)
    ]
    if not ending:
        return []
    state.combats = [c for c in state.combats if c not in ending]
    settle_combat_bonus(state)
    others = sorted({c.defender if c.attacker == seat else c.attacker for c in ending})
    names = ", ".join(seat_name(s) for s in others)
    return [
        Event(
            kind="combat_end",
            text=f"{seat_name(seat)}'s combat with {names} ends.",
            data={"seat": seat, "with": others},
        )
    ]


def settle_combat_bonus(state: HeroforgeState) -> None:
    """Clear the combat level bonus of heroes no longer in combat ("until end of Combat").

    Rule: heroforge:basic-rules (Weir: +1lvl until end of Combat).
    """
    for player in state.players_state:
        if player.combat_bonus and not effects.in_combat(state, player.seat):
            player.combat_bonus = 0


def kill_hero(state: HeroforgeState, seat: int, by: int | None, how: str) -> list[Event]:
    """``seat``'s hero dies: its units and forts leave the board (their lands belong to no
    one), its combats end; the last hero standing wins (heroforge:basic-rules)."""
    player = state.player(seat)
    player.alive = False
    player.at = None
    player.army = []
    player.enchantment = None
    player.combat_bonus = 0
    lost = [f for f in state.forts if f.owner == seat]
    state.forts = [f for f in state.forts if f.owner != seat]
    lost_ids = {f.id for f in lost}
    state.combats = [
        c
        for c in state.combats
        if c.attacker != seat and c.defender != seat and c.fort not in lost_ids
    ]
    state.shift_due = [d for d in state.shift_due if d.seat != seat]
    state.instants = [i for i in state.instants if i.seat != seat]
    if state.steal is not None and seat in state.steal.candidates:
        state.steal.candidates.remove(seat)
    killer = f" by {seat_name(by)}" if by is not None else ""
    events = [
        Event(
            kind="hero_killed",
            text=f"{seat_name(seat)}'s hero is killed{killer} ({how})"
            + (
                f"; {plural(len(lost), 'fort')} {'falls' if len(lost) == 1 else 'fall'} with it."
                if lost
                else "."
            ),
            data={"seat": seat, "by": by, "forts": sorted(lost_ids)},
        )
    ]
    settle_combat_bonus(state)
    living = state.living()
    if len(living) == 1:
        state.phase = "over"
        state.winners = living
        state.shift_due, state.steal, state.defence = [], None, None
        events.append(
            Event(
                kind="victory",
                text=f"{seat_name(living[0])} has killed every enemy hero and wins.",
                data={"winners": living},
            )
        )
    return events
