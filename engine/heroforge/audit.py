"""State audits for tests and simulations: every unit in exactly one place, the board in
one piece, forts and heroes where the rules allow them.

Rule sections: heroforge:units (every unit with a hero or on a fort), heroforge:lands
(plates attached), heroforge:forts (one owner per plate, at most 4 forts), heroforge:economy
(steps of 50, never negative), heroforge:combat (combats on the plate of both sides).
"""

from __future__ import annotations

from engine.heroforge import effects, plates
from engine.heroforge.catalog import PLATE, STEP
from engine.heroforge.purchase import MAX_FORTS_PER_PLATE
from engine.heroforge.state import HeroforgeState


def problems(state: HeroforgeState) -> list[str]:
    """Return every broken invariant of ``state`` (empty when sound).

    Rule: heroforge:units, heroforge:lands, heroforge:forts, heroforge:economy,
    heroforge:combat (the invariants they imply; see the module docstring).
    """
    found: list[str] = []
    seen: dict[int, str] = {}
    for player in state.players_state:
        for unit in player.army:
            if unit.id in seen:
                found.append(f"unit #{unit.id} is in {seen[unit.id]} and seat {player.seat}'s army")
            seen[unit.id] = f"seat {player.seat}'s army"
    for fort in state.forts:
        for unit in fort.units:
            if unit.id in seen:
                found.append(f"unit #{unit.id} is in {seen[unit.id]} and fort F{fort.id}")
            seen[unit.id] = f"fort F{fort.id}"
    if any(uid >= state.next_unit for uid in seen):
        found.append("a unit id is not below next_unit")
    positions = [(p.x, p.y) for p in state.plates]
    if len(set(positions)) != len(positions):
        found.append("two plates share a grid position")
    if not plates.connected(positions):
        found.append("the board is in pieces")
    labels = {p.label for p in state.plates}
    fort_squares = set()
    for fort in state.forts:
        key = (fort.at.plate, fort.at.cx, fort.at.cy)
        if key in fort_squares:
            found.append(f"two forts on square {key}")
        fort_squares.add(key)
        if fort.at.plate not in labels:
            found.append(f"fort F{fort.id} is on no plate")
        if not state.player(fort.owner).alive:
            found.append(f"fort F{fort.id} belongs to a dead hero")
        if fort.id >= state.next_fort:
            found.append(f"fort F{fort.id} is not below next_fort")
    for label in labels:
        forts = effects.forts_on(state, label)
        if len({f.owner for f in forts}) > 1:
            found.append(f"plate {label} has forts of two players")
        if len(forts) > MAX_FORTS_PER_PLATE:
            found.append(f"plate {label} has {len(forts)} forts")
    for player in state.players_state:
        if player.economy < 0 or player.economy % STEP:
            found.append(f"seat {player.seat} has {player.economy}e")
        if not player.alive:
            if player.at is not None or player.army or player.enchantment is not None:
                found.append(f"dead seat {player.seat} still has a hero, army or enchantment")
            continue
        if state.phase in ("play", "over"):
            at = player.at
            if at is None or at.plate not in labels:
                found.append(f"seat {player.seat}'s hero is not on the board")
            elif not (0 <= at.cx < PLATE and 0 <= at.cy < PLATE):
                found.append(f"seat {player.seat}'s hero is off its plate")
            elif (at.plate, at.cx, at.cy) in fort_squares:
                found.append(f"seat {player.seat}'s hero stands on a fort")
    for c in state.combats:
        attacker = state.player(c.attacker)
        if not attacker.alive or attacker.at is None or attacker.at.plate != c.plate:
            found.append(f"combat {c}: the attacker is not on plate {c.plate}")
        if c.fort is None:
            defender = state.player(c.defender)
            if not defender.alive or defender.at is None or defender.at.plate != c.plate:
                found.append(f"combat {c}: the defender is not on plate {c.plate}")
        elif all(f.id != c.fort for f in state.forts):
            found.append(f"combat {c}: the fort is gone")
    living = state.living()
    if (state.phase == "over") != (len(living) <= 1 and state.phase != "choose_hero"):
        found.append(f"phase {state.phase} with {len(living)} living heroes")
    return found
