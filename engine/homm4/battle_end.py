"""How a battle ends: Hero Retreat, an accepted Surrender, or a side with no Creature left;
then the bookkeeping (reserves, cast Spell cards, Mana, ``recover``, empty Armies) and the
`BattleOutcome` the adventure layer reads.

Rule sections: homm4:battles.hero-retreat, homm4:battles.surrender,
homm4:battles.phases-and-rounds (the battle ends), homm4:battles (Battles in Towns: no
retreat and no surrender for Town defenders, walls repaired),
homm4:heroes-levels-skills-and-spells.casting-spells (Spell cards back to a surviving caster),
homm4:heroes-levels-skills-and-spells.mana.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4 import armies as army_rules
from engine.homm4 import board, heroes, payment, zones
from engine.homm4 import fallen as fallen_heroes
from engine.homm4.battle_core import (
    RETREAT_DISTANCE,
    Side,
    card_level,
    current_battle,
    kill_card,
    living_heroes,
    other_side,
    retreat_town,
    side_armies,
    side_cards,
    side_heroes,
    side_name,
    side_seat,
    take_out,
)
from engine.homm4.hexes import Hex, distance
from engine.homm4.state import (
    Homm4State,
)


class BattleOutcome(BaseModel):
    """How a battle ended, for the adventure layer (homm4:battles).

    Attributes:
        winner: the winning side (0 attacker, 1 defender).
        how: ``annihilation`` (the loser has no Creature left), ``retreat`` (the loser's
            heroes retreated) or ``surrender`` (the loser's surrender was accepted).
        hex / site / attacker / defender / defender_kind: as in `Battle`.
        winner_seat / loser_seat: the seats commanding each side.
        winner_heroes: the winning side's heroes who fought (were deployed) and survived;
            each may learn a Skill (homm4:heroes-levels-skills-and-spells.hero-level).
        armies: the winning side's Army ids still on the board.
        loser_armies: the losing side's Army ids still on the board (after a retreat or a
            surrender they stand on ``town_hex``).
        town: the site id of the Town the loser withdrew to, if any.
        town_hex: its hex.
        surrender_cards: the cards paid for an accepted surrender.
        rounds: the Round in which the battle ended.
    """

    model_config = ConfigDict(frozen=True)

    winner: Side
    how: Literal["annihilation", "retreat", "surrender"]
    hex: Hex
    site: int | None
    attacker: int
    defender: int
    defender_kind: Literal["army", "guard", "town"]
    winner_seat: int
    loser_seat: int
    winner_heroes: tuple[int, ...] = ()
    armies: tuple[int, ...] = ()
    loser_armies: tuple[int, ...] = ()
    town: int | None = None
    town_hex: Hex | None = None
    surrender_cards: int = 0
    rounds: int = 1


def retreat_problem(state: Homm4State, side: int) -> str | None:
    """Say why ``side`` may not retreat now, or None (homm4:battles.hero-retreat).

    Guards and a Town's defenders never retreat; a side needs a living hero and a Town of
    its own farther than 4 hexes away (unless a hero has ``retreat_anywhere``).
    """
    battle = current_battle(state)
    if side == 1 and battle.defender_kind == "guard":
        return "Guards never retreat."
    if side == 1 and battle.defender_kind == "town":
        return "A Town's defenders may not retreat."
    hero_list = living_heroes(state, side)
    if not hero_list:
        return "Only Heroes retreat, and this side has none."
    town = retreat_town(state, side)
    if town is None:
        return "There is no Town to retreat to."
    gap = distance(town.hex, battle.hex)
    if gap <= RETREAT_DISTANCE and not heroes.retreat_anywhere(state, hero_list):
        return f"Heroes may not retreat within {RETREAT_DISTANCE} hexes of their nearest Town (it is {gap} away)."
    return None


def surrender_problem(state: Homm4State, side: int) -> str | None:
    """Say why ``side`` may not offer surrender now, or None (homm4:battles.surrender).

    Guards neither surrender nor accept a surrender; a Town's defenders never surrender;
    the surrendering side needs a Town to withdraw to.
    """
    battle = current_battle(state)
    if battle.defender_kind == "guard":
        return "Guard Stacks cannot surrender or accept a surrender."
    if side == 1 and battle.defender_kind == "town":
        return "A Town's defenders may not surrender."
    if retreat_town(state, side) is None:
        return "There is no Town to withdraw to."
    return None


def do_retreat(state: Homm4State, side: Side) -> tuple[list[Event], BattleOutcome | None]:
    """Carry out a Hero Retreat by ``side``: its other cards are discarded, its Heroes
    withdraw as one Army to its nearest Town, movement ended, and the other side wins
    (homm4:battles.hero-retreat).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    battle = current_battle(state)
    town = retreat_town(state, side)
    assert town is not None
    hero_list = living_heroes(state, side)
    lost = [c for c in side_cards(state, side) if c not in hero_list]
    for instance in lost:
        take_out(state, instance)
        zones.to_discard(state, instance)
    armies = side_armies(state, side)
    for hero in hero_list:
        take_out(state, hero)
    keeper = armies[0]
    keeper.cards = list(hero_list)
    keeper.hex = town.hex
    keeper.mp2 = 0
    keeper.done = True
    battle.creatures = [c for c in battle.creatures if c.side != side]
    names = ", ".join(zones.name(state, h) for h in hero_list)
    events = [
        Event(
            kind="battle_retreat",
            text=(
                f"{side_name(battle, side)} retreats: {names} withdraw{'s' if len(hero_list) == 1 else ''} to the Town "
                f"at {board.label(state, town.hex)}; {plural(len(lost), 'other card')} {'is' if len(lost) == 1 else 'are'} discarded."
            ),
            data={
                "side": side,
                "heroes": hero_list,
                "discarded": lost,
                "town": town.id,
                "army": keeper.id,
            },
        )
    ]
    more, outcome = finish(state, other_side(side), "retreat", town=town.id)
    return events + more, outcome


def do_surrender(state: Homm4State, side: Side) -> tuple[list[Event], BattleOutcome | None]:
    """Carry out an accepted Surrender by ``side``: the offered Hand cards are discarded
    (named only to the payer), its Armies withdraw to its nearest Town, the acceptor draws as
    many cards, and the other side wins (homm4:battles.surrender).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    battle = current_battle(state)
    payer = side_seat(battle, side)
    taker = side_seat(battle, other_side(side))
    town = retreat_town(state, side)
    assert town is not None
    count = battle.surrender_cards
    pay = battle.surrender_pay or payment.auto_pay(state, payer, count)
    hand = state.players_state[payer].hand
    for instance in pay:
        hand.remove(instance)
        zones.to_discard(state, instance)
    for army in side_armies(state, side):
        army.hex = town.hex
        army.mp2 = 0
        army.done = True
    battle.creatures = [c for c in battle.creatures if c.side != side]
    names = ", ".join(zones.name(state, c) for c in pay) or "nothing"
    events = [
        Event(
            kind="battle_surrender",
            text=(
                f"{side_name(battle, other_side(side))} accepts. {seat_name(payer)} discards {plural(count, 'card')} from the "
                f"Hand and withdraws to the Town at {board.label(state, town.hex)}."
            ),
            data={"side": side, "cards": count, "town": town.id},
            private={payer: f"You pay {names}."},
            private_data={payer: {"paid": pay}},
        )
    ]
    events.extend(zones.draw(state, taker, count, "surrender payment"))
    more, outcome = finish(state, other_side(side), "surrender", town=town.id, paid=count)
    return events + more, outcome


def finish(
    state: Homm4State,
    winner: Side,
    how: Literal["annihilation", "retreat", "surrender"],
    *,
    town: int | None = None,
    paid: int = 0,
) -> tuple[list[Event], BattleOutcome]:
    """End the battle: bookkeeping of reserves, spells, Mana, recovery and empty Armies.
    Rule: homm4:battles.phases-and-rounds."""
    battle = current_battle(state)
    loser = other_side(winner)
    events: list[Event] = []
    if how == "annihilation":
        lost = [c for c in battle.reserve if c in side_cards(state, loser)]
        for instance in lost:
            kill_card(state, instance)
        if lost:
            events.append(
                Event(
                    kind="battle_reserve_lost",
                    text=f"The reserve of the defeated side is lost: {', '.join(zones.name(state, c) for c in lost)}.",
                    data={"cards": lost},
                )
            )
    fought = side_heroes(state, winner)
    for spell, caster in sorted(battle.spells_cast.items()):
        if spell not in state.limbo:
            continue
        state.limbo.remove(spell)
        if caster in state.inventories and _alive(state, caster):
            state.inventories[caster].spells.append(spell)
        else:
            zones.to_discard(state, spell)
    for side in (0, 1):
        for hero in [c for c in side_cards(state, side) if zones.is_hero(state, c)]:
            if hero in state.inventories:
                state.inventories[hero].mana_spent = 0
    events.extend(_recover(state, winner))
    events.extend(fallen_heroes.after_battle(state, winner))
    winner_armies = [a.id for a in side_armies(state, winner) if a.cards]
    loser_armies = [a.id for a in side_armies(state, loser) if a.cards]
    involved = set(battle.attacker_armies) | set(battle.defender_armies)
    state.armies = [a for a in state.armies if a.id not in involved or a.cards]
    for army in state.armies:
        if army.id in involved:
            army.cards = army_rules.stack_order(state, army.cards)
    outcome = BattleOutcome(
        winner=winner,
        how=how,
        hex=battle.hex,
        site=battle.site,
        attacker=battle.attacker,
        defender=battle.defender,
        defender_kind=battle.defender_kind,
        winner_seat=side_seat(battle, winner),
        loser_seat=side_seat(battle, loser),
        winner_heroes=tuple(fought),
        armies=tuple(winner_armies),
        loser_armies=tuple(loser_armies),
        town=town,
        town_hex=state.sites[town].hex if town is not None else None,
        surrender_cards=paid,
        rounds=battle.round,
    )
    verb = {
        "annihilation": f"{side_name(battle, loser)} has no Creature left",
        "retreat": f"{side_name(battle, loser)} retreated",
        "surrender": f"{side_name(battle, loser)} surrendered",
    }[how]
    repaired = " The Town's walls are repaired." if battle.walls in ("breach", "sack") else ""
    events.append(
        Event(
            kind="battle_end",
            text=f"{side_name(battle, winner)} wins the battle at {board.label(state, battle.hex)}: {verb}.{repaired}",
            data=outcome.model_dump(mode="json"),
        )
    )
    state.battle = None
    return events, outcome


def _alive(state: Homm4State, hero: int) -> bool:
    if zones.find_hero_army(state, hero) is not None:
        return True
    return any(hero in s.garrison for s in state.sites)


def _recover(state: Homm4State, winner: Side) -> list[Event]:
    """The ``recover`` effect: each winning Army takes back up to N of its own Unit cards
    killed in this battle from the discard pile (highest level first, then first fallen)."""
    battle = current_battle(state)
    events: list[Event] = []
    for army in side_armies(state, winner):
        limit = heroes.recover(state, army.cards)
        if limit <= 0:
            continue
        candidates = [
            f
            for f in battle.fallen
            if f.army == army.id
            and zones.is_unit(state, f.card)
            and f.card in state.players_state[state.card_owner[f.card]].discard
        ]
        candidates.sort(key=lambda f: -card_level(state, f.card))
        back = candidates[:limit]
        for fallen in back:
            state.players_state[state.card_owner[fallen.card]].discard.remove(fallen.card)
            army.cards.append(fallen.card)
            battle.fallen.remove(fallen)
        if back:
            events.append(
                Event(
                    kind="battle_recover",
                    text=f"{', '.join(zones.name(state, f.card) for f in back)} rejoin{'s' if len(back) == 1 else ''} Army {army.token}.",
                    data={"army": army.id, "cards": [f.card for f in back]},
                )
            )
    return events
