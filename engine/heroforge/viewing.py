"""Building the views of a Hero Forge state (`views.PublicView`, `views.SeatView`).

Rule sections: heroforge:inventory, heroforge:lands, heroforge:forts (see `views`).
"""

from __future__ import annotations

from engine.core.model import Result, seat_name
from engine.heroforge import decisions, effects
from engine.heroforge.catalog import EnchantmentList, describe_effect, load_catalog
from engine.heroforge.state import HeroforgeState, Unit
from engine.heroforge.views import (
    CombatView,
    EnchantmentView,
    FortView,
    ListView,
    PlateView,
    PlayerView,
    PublicView,
    RedView,
    SeatView,
    UnitView,
)


def _unit(unit: Unit, level: int) -> UnitView:
    return UnitView(
        id=unit.id, base_level=unit.level, level=level, name=load_catalog().units[unit.level].name
    )


def _plates(state: HeroforgeState) -> tuple[PlateView, ...]:
    catalog = load_catalog()
    out = []
    for plate in state.plates:
        land = catalog.lands[plate.land]
        out.append(
            PlateView(
                label=plate.label,
                land=land.id,
                code=land.code,
                name=land.name,
                land_class=land.land_class,
                x=plate.x,
                y=plate.y,
                economy=land.economy,
                fort_price=land.fort_price,
                cap_bonus=land.cap_bonus,
                owner_effects=tuple(describe_effect(e.kind, e.amount) for e in land.owner),
                red=tuple(
                    RedView(cx=r.at[0], cy=r.at[1], kind=r.kind, amount=r.amount) for r in land.red
                ),
                owner=effects.owner(state, plate.label),
                contested=effects.contested(state, plate.label),
                heroes=tuple(effects.heroes_on(state, plate.label)),
            )
        )
    return tuple(out)


def _player(state: HeroforgeState, seat: int) -> PlayerView:
    player = state.player(seat)
    hero = effects.hero_of(state, seat) if player.hero else None
    carried = player.enchantment
    placed = player.at is not None and hero is not None
    return PlayerView(
        seat=seat,
        colour=seat_name(seat),
        hero=player.hero,
        hero_name=hero.name if hero else None,
        faction=hero.faction if hero else None,
        abilities=tuple(a.text for a in hero.abilities) if hero else (),
        alive=player.alive,
        plate=player.at.plate if player.at else None,
        cx=player.at.cx if player.at else None,
        cy=player.at.cy if player.at else None,
        economy=player.economy,
        cap=effects.cap(state, seat) if hero else 0,
        military=effects.military(state, seat) if hero else 0,
        speed=effects.speed(state, seat) if placed else (hero.speed if hero else 0),
        level_bonus=effects.level_bonus(state, seat) if placed else 0,
        combat_bonus=player.combat_bonus,
        army=tuple(_unit(u, lvl) for u, lvl in effects.army_levels(state, seat)) if hero else (),
        enchantment=EnchantmentView(
            name=carried.spec.name,
            kind=carried.spec.kind,
            faction=carried.spec.faction,
            effect=carried.spec.effect,
            amount=carried.spec.amount,
            count=carried.count,
            summary=carried.spec.stacked(carried.count),
        )
        if carried
        else None,
        lands=tuple(effects.owned_plates(state, seat)),
        in_combat_with=tuple(
            sorted(
                {c.defender for c in state.combats if c.attacker == seat}
                | {c.attacker for c in state.combats if c.defender == seat and c.fort is None}
            )
        ),
    )


def _list(lst: EnchantmentList) -> ListView:
    return ListView(name=lst.name, entries=tuple(e.summary() for e in lst.enchantments))


def public_view(state: HeroforgeState) -> PublicView:
    """Everything at the table: board, forts, every inventory, lists, combats, decisions.

    Rule: heroforge:inventory.
    """
    return PublicView(**_fields(state))


def seat_view(state: HeroforgeState, seat: int) -> SeatView:
    """The public view made for ``seat`` (nothing is hidden in Hero Forge).

    Rule: heroforge:inventory.
    """
    return SeatView(**_fields(state), seat=seat)


def _fields(state: HeroforgeState) -> dict[str, object]:
    steal = state.steal
    result = (
        Result(
            finished=True,
            winners=tuple(state.winners),
            reason=f"{seat_name(state.winners[0])} has killed every enemy hero.",
        )
        if state.phase == "over" and state.winners
        else Result()
    )
    return {
        "version": state.version,
        "phase": state.phase,
        "active": state.active,
        "step": state.step,
        "turn": state.turn,
        "round": state.round,
        "scenario": state.scenario,
        "move_roll": state.move_roll,
        "plates": _plates(state),
        "forts": tuple(
            FortView(
                id=f.id,
                owner=f.owner,
                plate=f.at.plate,
                cx=f.at.cx,
                cy=f.at.cy,
                manned=f.manned,
                units=tuple(_unit(u, lvl) for u, lvl in effects.fort_levels(state, f)),
                defends_as=effects.fort_level(state, f),
            )
            for f in state.forts
        ),
        "players": tuple(_player(state, p.seat) for p in state.players_state),
        "combats": tuple(
            CombatView(attacker=c.attacker, defender=c.defender, fort=c.fort, plate=c.plate)
            for c in state.combats
        ),
        "list1": _list(state.list1),
        "list5": _list(state.list5),
        "instants": tuple((i.seat, i.spec.summary()) for i in state.instants),
        "last_move": tuple((s.plate, s.cx, s.cy) for s in state.last_move),
        "last_move_owner": state.last_move_owner,
        "steal": (
            f"{steal.spec.summary()} is being received by {seat_name(steal.receiver)}"
            if steal
            else None
        ),
        "pending": tuple(decisions.pending(state)),
        "result": result,
    }
