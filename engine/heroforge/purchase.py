"""Buying units and forts, manning and unmanning forts.

Rule sections: heroforge:economy (purchases only on your turn in uncontested lands),
heroforge:units (the cap: buy only while your military, units in forts included, is
below it), heroforge:forts (price, placement on the hero's square then one step, the land
owned, at most 4 forts on a plate), heroforge:manning-forts, heroforge:combat (no buying
or moving units around while in combat), heroforge:getting-economy-from-lands.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.heroforge import board, effects, enchant
from engine.heroforge.catalog import load_catalog
from engine.heroforge.state import Fort, HeroforgeState, Square, Unit

MAX_FORTS_PER_PLATE = 4
"""heroforge:forts: "The highest amount of Forts a player can have on one Land Plate is 4"."""


def trade_problem(state: HeroforgeState, seat: int) -> str | None:
    """Why ``seat`` cannot buy or move units around where its hero stands (None if it can).

    Not in combat, not on a contested land, not on another player's land.

    Rule: heroforge:economy, heroforge:forts, heroforge:combat.
    """
    player = state.player(seat)
    assert player.at is not None
    label = player.at.plate
    if effects.in_combat(state, seat):
        return "You cannot buy or move units around while in combat (move away to end it)."
    if effects.contested(state, label):
        return f"Plate {label} is contested (two or more heroes are on it): nothing can be bought there."
    here = effects.owner(state, label)
    if here is not None and here != seat:
        return (
            f"Plate {label} belongs to {seat_name(here)} (it has their forts): you cannot use it."
        )
    return None


def unit_prices(state: HeroforgeState, seat: int, level: int, count: int) -> list[int]:
    """The price of each of ``count`` units of ``level`` bought now, in order (an instant
    cost change counts for the first only).

    Rule: heroforge:units, heroforge:enchantments (instant cost changes).
    """
    first = effects.unit_price(state, seat, level)
    if count == 1:
        return [first]
    rest = max(
        0,
        load_catalog().units[level].price
        + effects.hero_of(state, seat).ability_total("unit_cost")
        + effects.carried_total(state, seat, "unit_cost"),
    )
    return [first] + [rest] * (count - 1)


def buy_unit_problem(state: HeroforgeState, seat: int, level: int, count: int) -> str | None:
    """Why ``seat`` cannot buy ``count`` units of ``level`` now (None when it can).

    Rule: heroforge:units (the cap), heroforge:economy.
    """
    problem = trade_problem(state, seat)
    if problem:
        return problem
    room = effects.cap(state, seat) - effects.military(state, seat)
    if count > room:
        return (
            f"Your military is {effects.military(state, seat)} units and your cap "
            f"{effects.cap(state, seat)}: you may buy {max(0, room)} more."
        )
    total = sum(unit_prices(state, seat, level, count))
    economy = state.player(seat).economy
    if total > economy:
        verb = "costs" if count == 1 else "cost"
        return f"{plural(count, f'level {level} unit')} {verb} {total}e and you have {economy}e."
    return None


def buy_unit(state: HeroforgeState, seat: int, level: int, count: int) -> list[Event]:
    """Buy ``count`` units of ``level`` into the hero's army (heroforge:units).

    :raises IllegalMove: see `buy_unit_problem`.
    """
    problem = buy_unit_problem(state, seat, level, count)
    if problem:
        raise IllegalMove(problem)
    prices = unit_prices(state, seat, level, count)
    player = state.player(seat)
    player.economy -= sum(prices)
    bought = []
    for _ in range(count):
        unit = Unit(id=state.next_unit, level=level)
        state.next_unit += 1
        player.army.append(unit)
        bought.append(unit.id)
    enchant.use_cost_instants(state, seat, "unit_cost")
    name = load_catalog().units[level].name
    return [
        Event(
            kind="unit_bought",
            text=f"{seat_name(seat)} buys {count} {name} (level {level}) for {sum(prices)}e: "
            + ", ".join(f"#{u}" for u in bought)
            + f"; economy {player.economy}e.",
            data={"seat": seat, "level": level, "units": bought, "paid": sum(prices)},
        )
    ]


def step_square(state: HeroforgeState, seat: int, step: str) -> Square | None:
    """The square one step ``step`` from the hero, or None off the board.

    Rule: heroforge:forts (see README: Forts, the step after building).
    """
    player = state.player(seat)
    assert player.at is not None
    dx, dy = board.direction(step)
    gx, gy = board.to_global(state, player.at)
    return board.from_global(board.grid(state), (gx + dx, gy + dy))


def fort_at(state: HeroforgeState, square: Square) -> Fort | None:
    """The fort on ``square``, if any.

    Rule: none (a lookup).
    """
    for fort in state.forts:
        if fort.at == square:
            return fort
    return None


def buy_fort_problem(state: HeroforgeState, seat: int, step: str) -> str | None:
    """Why ``seat`` cannot buy a fort where its hero stands and step ``step`` (None if it can).

    :raises InvalidInput: for an unknown direction.

    Rule: heroforge:forts.
    """
    problem = trade_problem(state, seat)
    if problem:
        return problem
    player = state.player(seat)
    assert player.at is not None
    label = player.at.plate
    price = effects.fort_price(state, seat, label)
    if price is None:
        return f"Plate {label} is a Plain Land: forts are built on Basic and Special Lands."
    if len(effects.forts_on(state, label)) >= MAX_FORTS_PER_PLATE:
        return f"Plate {label} already has {MAX_FORTS_PER_PLATE} forts, the most a plate holds."
    if price > player.economy:
        return f"A fort on plate {label} costs {price}e and you have {player.economy}e."
    target = step_square(state, seat, step)
    if target is None:
        return f"After placing the fort the hero steps {step.upper()}, but that is off the board."
    if fort_at(state, target) is not None:
        return f"After placing the fort the hero steps {step.upper()}, but a fort stands there."
    return None


def buy_fort(state: HeroforgeState, seat: int, step: str) -> list[Event]:
    """Pay for a fort, place it on the hero's square, step the hero one space ``step``
    (heroforge:forts). The land now belongs to ``seat``.

    :raises IllegalMove | InvalidInput: see `buy_fort_problem`.
    """
    problem = buy_fort_problem(state, seat, step)
    if problem:
        raise IllegalMove(problem)
    player = state.player(seat)
    assert player.at is not None
    label = player.at.plate
    price = effects.fort_price(state, seat, label)
    assert price is not None
    first = not effects.forts_on(state, label)
    player.economy -= price
    fort = Fort(id=state.next_fort, owner=seat, at=player.at.model_copy())
    state.next_fort += 1
    state.forts.append(fort)
    enchant.use_cost_instants(state, seat, "fort_cost")
    target = step_square(state, seat, step)
    assert target is not None
    player.at = target
    the_land = effects.land(state, label)
    owned = (
        f" {seat_name(seat)} now owns {the_land.name} ({label}): cap +{the_land.cap_bonus}."
        if first
        else ""
    )
    return [
        Event(
            kind="fort_bought",
            text=f"{seat_name(seat)} builds fort F{fort.id} on plate {label} for {price}e and "
            f"steps {step.upper()}; economy {player.economy}e.{owned}",
            data={"seat": seat, "fort": fort.id, "plate": label, "paid": price},
        )
    ]


def _own_fort_here(state: HeroforgeState, seat: int, fort_id: int) -> Fort:
    try:
        fort = state.fort(fort_id)
    except KeyError:
        raise InvalidInput(f"There is no fort F{fort_id}.") from None
    player = state.player(seat)
    assert player.at is not None
    if fort.owner != seat:
        raise IllegalMove(f"Fort F{fort_id} is not yours.")
    if fort.at.plate != player.at.plate:
        raise IllegalMove(
            f"Fort F{fort_id} is on plate {fort.at.plate}; your hero is on {player.at.plate}."
        )
    return fort


def _pick(units: list[Unit], ids: tuple[int, ...], where: str) -> list[Unit]:
    if len(set(ids)) != len(ids):
        raise InvalidInput("Name each unit once.")
    by_id = {u.id: u for u in units}
    missing = [i for i in ids if i not in by_id]
    if missing:
        listed = ", ".join(f"#{u.id}" for u in units) or "none"
        raise IllegalMove(f"Unit #{missing[0]} is not in {where} (there: {listed}).")
    return [by_id[i] for i in ids]


def man_fort(
    state: HeroforgeState, seat: int, fort_id: int, unit_ids: tuple[int, ...]
) -> list[Event]:
    """Move units from the hero's army onto its fort on the same plate
    (heroforge:manning-forts).

    :raises IllegalMove | InvalidInput: in combat, on a contested land, a fort elsewhere
        or not yours, a unit not in the army.
    """
    problem = trade_problem(state, seat)
    if problem:
        raise IllegalMove(problem)
    fort = _own_fort_here(state, seat, fort_id)
    player = state.player(seat)
    moving = _pick(player.army, unit_ids, "your hero's army")
    player.army = [u for u in player.army if u.id not in unit_ids]
    fort.units.extend(moving)
    return [
        Event(
            kind="fort_manned",
            text=f"{seat_name(seat)} mans fort F{fort.id} with "
            + ", ".join(f"#{u.id} (level {u.level})" for u in moving)
            + ".",
            data={"seat": seat, "fort": fort.id, "units": list(unit_ids)},
        )
    ]


def unman_fort(
    state: HeroforgeState, seat: int, fort_id: int, unit_ids: tuple[int, ...]
) -> list[Event]:
    """Move units from the hero's fort on the same plate into its army
    (heroforge:manning-forts).

    :raises IllegalMove | InvalidInput: as `man_fort`, for units not on the fort.
    """
    problem = trade_problem(state, seat)
    if problem:
        raise IllegalMove(problem)
    fort = _own_fort_here(state, seat, fort_id)
    moving = _pick(fort.units, unit_ids, f"fort F{fort.id}")
    fort.units = [u for u in fort.units if u.id not in unit_ids]
    state.player(seat).army.extend(moving)
    return [
        Event(
            kind="fort_unmanned",
            text=f"{seat_name(seat)} takes "
            + ", ".join(f"#{u.id}" for u in moving)
            + f" from fort F{fort.id} into the army"
            + ("; the fort is unmanned." if not fort.units else "."),
            data={"seat": seat, "fort": fort.id, "units": list(unit_ids)},
        )
    ]
