"""Combats of the map game, fought on the Battlefield with the shared Combat code: a hero
against the Neutral Units guarding a Field, or against an enemy hero.

The Battlefield is a two-seat homm3 state (``Homm3State.board``): seat 0 is the attacker,
seat 1 the defender (an enemy hero's player, or the Neutral Units, played by the seat to
the attacker's right). Before each routed command the real players' cards, the shared
decks and the generator are copied in; after it, back out (`sync_in` / `sync_out`). Events
are relabelled with the real seats' names.

Rule sections: homm3turn:reacting-to-combat, homm3turn:what-1-mp-buys (continue a
Combat against Neutral Units for 1 MP), homm3bf:battlefield-in-regular-games (and
.place-obstacles, .place-units, .changes-to-combat-rules.unit-movement, .ranged-units,
.initiative-token, .siege), homm3core:combat-setup, homm3core:combat-time-limits, homm3core:end-of-combat,
homm3core:combat-experience, homm3core:difficulty-table (ids in ``engine/homm3/SECTIONS_CORE.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalMove, NotYourDecision, WrongPhase
from engine.core.model import Command, Event, seat_name
from engine.homm3 import (
    adventure,
    combat_core,
    combat_flow,
    decisions,
    effects,
    map_turns,
    morale,
)
from engine.homm3 import commands as c
from engine.homm3.content import load_content
from engine.homm3.map_content import ROMAN
from engine.homm3.map_state import Battle, MapGame, MapHero
from engine.homm3.rules import gain_experience
from engine.homm3.state import ArmyUnit, Choice, CombatState, CombatUnit, Homm3State, Player

MAX_UNITS = 5
"""Units a side places on the board (homm3core:combat-setup: "up to 5 of your unit cards")."""

DIFFICULTY: dict[int, tuple[str, ...]] = {
    1: ("bronze",),
    2: ("bronze", "bronze"),
    3: ("bronze", "bronze", "silver"),
    4: ("bronze", "silver", "silver"),
    5: ("bronze", "silver", "silver", "gold"),
    6: ("bronze", "silver", "silver", "gold", "gold"),
}
"""Neutral Units guarding a Field of each level at Normal difficulty (homm3core:difficulty-table;
Level VII's Azure units are not in the content and no shipped tile has a VII Field)."""

PVP_GOLD = 5
"""Gold a defeated Main hero pays the winning hero (homm3core:end-of-combat)."""

ZONES = (
    "deck",
    "hand",
    "discard",
    "removed",
    "aside",
    "scroll",
    "permanent",
    "positive",
    "negative",
)
SHARED = (
    "ability_deck", "ability_discard", "artifact_deck", "artifact_discard", "spell_deck",
    "spell_discard", "positive_deck", "negative_deck",
)  # fmt: skip

Route = Callable[[Homm3State, int, Command], list[Event]]
Settle = Callable[[Homm3State], list[Event]]
_HOOKS: dict[str, Any] = {}


def install(route: Route, settle: Settle) -> None:
    """The ruleset hands in how a command is applied to a Battlefield state and how that
    state is settled (the ruleset's own router; this module cannot import it).

    Rule: none (wiring)"""
    _HOOKS["route"] = route
    _HOOKS["settle"] = settle


# ------------------------------------------------------------- announce
def announce(
    state: Homm3State, hero: MapHero, field: str, *, defender: MapHero | None, origin: str
) -> list[Event]:
    """A hero moves onto guards or an enemy hero: the Combat is announced and, before any
    step of its set-up, every player (from the attacker's left) may take Town actions.

    Rule: homm3turn:reacting-to-combat, homm3core:combat"""
    game = map_turns.game_of(state)
    seats = map_turns.living_seats(state)
    attacker = hero.seat
    neutral = defender is None
    controller = (
        defender.seat if defender is not None else seats[(seats.index(attacker) - 1) % len(seats)]
    )
    game.battle = Battle(
        controllers=(attacker, controller),
        sides=(attacker, None if neutral else controller),
        neutral=neutral,
        attacker=attacker,
        defender=None if defender is None else controller,
        field=field,
        difficulty=map_turns.guarded(game, field),
        time_limit=game.time_limit and neutral,
        from_field=origin,
    )
    if defender is not None and not defender.main:
        game.battle.sides = (attacker, controller)
    start = seats.index(attacker)
    order = [seats[(start + i) % len(seats)] for i in range(1, len(seats) + 1)]
    game.reacting = [s for s in order if s not in game.eliminated and adventure.can_react(state, s)]
    what = (
        f"the Neutral Units guarding the Field (Level {ROMAN[game.battle.difficulty]})"
        if neutral
        else f"{seat_name(controller)}'s {'Main' if defender and defender.main else 'Secondary'} hero"
    )
    events = [
        Event(
            kind="combat_announced",
            text=f"{seat_name(attacker)} starts a Combat against {what}."
            + (" Players may first take Town actions." if game.reacting else ""),
            data={"attacker": attacker, "field": field, "neutral": neutral},
        )
    ]
    if defender is not None and not defender.main:
        state.choice[controller] = Choice(
            kind="secondary_defeat",
            prompt=f"{seat_name(controller)}'s Secondary hero is attacked: fight, or be defeated at once to keep the units?",
            options=["Fight the Combat", "Be defeated at once (the units are kept)"],
        )
        return events
    return events + next_reactor(state)


def next_reactor(state: Homm3State) -> list[Event]:
    """Ask the next reacting seat that can use a Town token, or set up the Combat.

    Rule: homm3turn:reacting-to-combat"""
    game = map_turns.game_of(state)
    while game.reacting and not adventure.can_react(state, game.reacting[0]):
        game.reacting.pop(0)
    if game.reacting:
        return []
    return begin(state)


def start_combat(state: Homm3State, seat: int) -> list[Event]:
    """``seat`` takes no (more) Town actions before the announced Combat.

    :raises WrongPhase | NotYourDecision: when nobody or another seat is reacting.
    Rule: homm3turn:reacting-to-combat"""
    game = map_turns.game_of(state)
    if game.battle is None or state.board is not None or not game.reacting:
        raise WrongPhase("No Combat waits for Town actions now.")
    if game.reacting[0] != seat:
        raise NotYourDecision(f"{seat_name(game.reacting[0])} is reacting to the Combat now.")
    game.reacting.pop(0)
    return [
        Event(
            kind="start_combat",
            text=f"{seat_name(seat)} takes no more Town actions.",
            data={"seat": seat},
        ),
        *next_reactor(state),
    ]


# ------------------------------------------------------------- set-up
def _neutral_units(game: MapGame, level: int, rng: Any) -> list[str]:
    out = []
    for tier in DIFFICULTY.get(level, DIFFICULTY[6]):
        deck = game.neutral_decks.setdefault(tier, [])
        if not deck:
            back = [u for u in game.neutral_discard if load_content().units[u].tier == tier]
            game.neutral_discard = [u for u in game.neutral_discard if u not in back]
            rng.shuffle(back)
            deck.extend(back)
        if deck:
            out.append(deck.pop())
    return out


def _copy_player(state: Homm3State, seat: int, sub_seat: int, *, cards: bool) -> Player:
    real = state.player(seat)
    player = real.model_copy(deep=True)
    player.seat = sub_seat
    if not cards:
        for zone in ZONES:
            setattr(player, zone, [])
        player.positive_token = player.negative_token = False
    return player


def begin(state: Homm3State) -> list[Event]:
    """Set up the Combat on the Battlefield: the Neutral Units drawn by the Field's level
    (Few side), up to 5 units a side, Obstacles placed in turns from the attacker (or a
    Siege's Walls and Gate when a hero defends its own Town with a Citadel), units placed in
    turns from the attacker, who holds the Initiative token; a map Combat keeps the core
    rules (no draws at a Combat round's end).

    Rule: homm3bf:battlefield-in-regular-games, homm3bf:battlefield-in-regular-games.place-obstacles,
        homm3bf:battlefield-in-regular-games.place-units,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.initiative-token,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege, homm3core:combat-setup
    """
    game = map_turns.game_of(state)
    battle = game.battle
    assert battle is not None
    attacker = battle.attacker
    att_hero = _attacking_hero(game, battle)
    board = Homm3State(
        players=2, seed=state.seed, rng=state.rng, mode="map", phase="combat", round=state.round
    )
    board.cards = state.cards
    board.next_card = state.next_card
    board.seats.append(_copy_player(state, attacker, 0, cards=att_hero.main))
    events: list[Event] = []
    # these name the real seats; the board's own events (sub-seats 0 and 1) are relabelled
    announced: list[Event] = []
    if battle.neutral:
        controller = battle.controllers[1]
        neutral = _copy_player(state, controller, 1, cards=False)
        neutral.army = [
            ArmyUnit(unit=u, pack=False) for u in _neutral_units(game, battle.difficulty, state.rng)
        ]
        neutral.positive = neutral.negative = []
        board.seats.append(neutral)
        names = ", ".join(load_content().units[a.unit].name for a in neutral.army)
        announced.append(
            Event(
                kind="neutrals",
                text=f"The guards are drawn: {names} (Few side); {seat_name(controller)} plays them.",
                data={"units": [a.unit for a in neutral.army]},
            )
        )
    else:
        defender = battle.controllers[1]
        def_hero = _defending_hero(game, battle)
        board.seats.append(
            _copy_player(state, defender, 1, cards=def_hero is not None and def_hero.main)
        )
    for player in board.seats:
        player.army = player.army[:MAX_UNITS]
    board.combat = CombatState(first=0, token=0, placing=0, regular=True)
    board.first = 0
    number = 1
    for player in board.seats:
        for army in player.army:
            board.combat.units.append(
                CombatUnit(number=number, seat=player.seat, unit=army.unit, pack=army.pack)
            )
            number += 1
    town_owner = map_turns._owner_of_town(game, battle.field)
    if (
        not battle.neutral
        and town_owner == battle.controllers[1]
        and "citadel" in state.player(battle.controllers[1]).buildings
    ):
        board.siege = 1
        events += combat_flow._siege_setup(board, number)
    else:
        board.combat.pool = [t.number for t in load_content().board.token]
    set_up = Event(
        kind="combat",
        text=f"The Combat is set up on the Battlefield; {seat_name(attacker)} attacks, holds the Initiative token "
        "and places first.",
        data={"attacker": attacker},
    )
    siege = _relabel(state, events)
    state.board = board
    sync_in(state)
    events = combat_flow._check_empty_sides(board)
    events += _HOOKS["settle"](board)
    sync_out(state)
    return announced + siege + [set_up] + _relabel(state, events) + _after(state)


def _attacking_hero(game: MapGame, battle: Battle) -> MapHero:
    return next(h for h in game.heroes if h.seat == battle.attacker and h.field == battle.field)


def _defending_hero(game: MapGame, battle: Battle) -> MapHero | None:
    return next(
        (h for h in game.heroes if h.seat == battle.controllers[1] and h.field == battle.field),
        None,
    )


SEAT_SYNCED = (*ZONES, "experts", "positive_token", "negative_token", "discard_hand", "resources")
"""A real player's fields copied into its side of the Combat board and back (`sync_in`,
`sync_out`)."""


# ------------------------------------------------------------- routing
def sync_in(state: Homm3State) -> None:
    """Copy the real players' cards, the shared decks and the generator into the board.

    Rule: none (bookkeeping)"""
    board, battle = state.board, map_turns.game_of(state).battle
    assert board is not None and battle is not None
    board.rng = state.rng
    board.cards = state.cards
    board.next_card = state.next_card
    for name in SHARED:
        setattr(board, name, getattr(state, name))
    for sub, real in enumerate(battle.sides):
        if real is None or not _uses_cards(state, sub):
            continue
        for zone in SEAT_SYNCED:
            setattr(board.seats[sub], zone, getattr(state.player(real), zone))
        if state.looking.get(real):
            board.looking[sub] = state.looking[real]
        else:
            board.looking.pop(sub, None)


def sync_out(state: Homm3State) -> None:
    """Copy the board's cards, shared decks and generator back to the map game.

    Rule: none (bookkeeping)"""
    board, battle = state.board, map_turns.game_of(state).battle
    assert board is not None and battle is not None
    state.rng = board.rng
    state.next_card = board.next_card
    state.cards = board.cards
    for name in SHARED:
        setattr(state, name, getattr(board, name))
    for sub, real in enumerate(battle.sides):
        if real is None or not _uses_cards(state, sub):
            continue
        for zone in SEAT_SYNCED:
            setattr(state.player(real), zone, getattr(board.seats[sub], zone))
        if board.looking.get(sub):
            state.looking[real] = board.looking[sub]
        else:
            state.looking.pop(real, None)


def _uses_cards(state: Homm3State, sub: int) -> bool:
    board = state.board
    assert board is not None
    game = map_turns.game_of(state)
    battle = game.battle
    assert battle is not None
    if sub == 1 and battle.neutral:
        return False
    hero = _attacking_hero(game, battle) if sub == 0 else _defending_hero(game, battle)
    return hero is not None and hero.main


def board_seat(state: Homm3State, seat: int) -> int | None:
    """The Battlefield seat ``seat`` answers for now (None: it owes nothing there).

    Rule: none (routing)"""
    board, battle = state.board, map_turns.game_of(state).battle
    if board is None or battle is None or battle.asking:
        return None
    owed = {d.seat for d in decisions.pending(board)}
    for sub in (0, 1):
        if battle.controllers[sub] == seat and sub in owed:
            return sub
    return None


def neutral_problem(state: Homm3State, sub: int, command: Command) -> str | None:
    """Neutral Units never Defend and must attack when they can.

    Rule: homm3core:combat-round-structure"""
    battle = map_turns.game_of(state).battle
    board = state.board
    assert battle is not None and board is not None
    if sub != 1 or not battle.neutral:
        return None
    if isinstance(command, c.Defend):
        return "Neutral Units cannot Defend"
    if (
        (
            isinstance(command, c.EndActivation | c.Move)
            and board.combat is not None
            and board.combat.active is not None
        )
        and isinstance(command, c.EndActivation)
        and any(isinstance(x, c.Attack | c.AttackWall) for x in decisions.legal_commands(board, 1))
    ):
        return "Neutral Units must attack when they can"
    return None


def board_commands(state: Homm3State, seat: int) -> list[Command]:
    """The Battlefield commands ``seat`` may issue now (neutral restrictions applied).

    Rule: none (command enumeration)"""
    sub = board_seat(state, seat)
    if sub is None:
        return []
    board = state.board
    assert board is not None
    out = [
        cmd
        for cmd in decisions.legal_commands(board, sub)
        if neutral_problem(state, sub, cmd) is None
    ]
    return out


def route(state: Homm3State, seat: int, command: Command) -> list[Event]:
    """Apply a Combat command of ``seat`` on the Battlefield.

    :raises NotYourDecision | IllegalMove: when ``seat`` owes nothing there or a neutral
        rule refuses it (and what the Combat code raises).
    Rule: none (routing)"""
    sub = board_seat(state, seat)
    if sub is None:
        raise NotYourDecision(f"{seat_name(seat)} owes nothing in the Combat now.")
    problem = neutral_problem(state, sub, command)
    if problem:
        raise IllegalMove(problem + ".")
    board = state.board
    assert board is not None
    sync_in(state)
    events = _HOOKS["route"](board, sub, command)
    sync_out(state)
    return _relabel(state, events) + _after(state)


def _relabel(state: Homm3State, events: list[Event]) -> list[Event]:
    battle = map_turns.game_of(state).battle
    assert battle is not None
    names = {
        seat_name(0): seat_name(battle.controllers[0]),
        seat_name(1): "Neutral" if battle.neutral else seat_name(battle.controllers[1]),
    }
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b( \([^)]*\))?")

    def fix(text: str) -> str:
        return pattern.sub(
            lambda m: (
                names[m.group(1)] + ("" if names[m.group(1)] == "Neutral" else (m.group(2) or ""))
            ),
            text,
        )

    out = []
    for event in events:
        private = {
            battle.controllers[s]: fix(t)
            for s, t in event.private.items()
            if _real_card_seat(battle, s)
        }
        private_data = {
            battle.controllers[s]: d
            for s, d in event.private_data.items()
            if _real_card_seat(battle, s)
        }
        data = dict(event.data)
        if isinstance(data.get("seat"), int) and data["seat"] in (0, 1):
            data["seat"] = battle.controllers[data["seat"]]
        out.append(
            Event(
                kind=event.kind,
                text=fix(event.text),
                data=data,
                private=private,
                private_data=private_data,
            )
        )
    return out


def _real_card_seat(battle: Battle, sub: int) -> bool:
    return sub in (0, 1) and battle.sides[sub] is not None


# ------------------------------------------------------------- round ends and the end
def _after(state: Homm3State) -> list[Event]:
    game = map_turns.game_of(state)
    board, battle = state.board, game.battle
    assert board is not None and battle is not None
    if board.phase == "over":
        return finish(state, board.winners[0] if board.winners else None)
    combat = board.combat
    if battle.time_limit and combat is not None and combat.round > battle.round_paid:
        hero = _attacking_hero(game, battle)
        battle.asking = True
        options = ["Retreat to the Field last Visited"]
        if hero.mp >= 1:
            options.append("Spend 1 MP for another Combat round")
        state.choice[battle.attacker] = Choice(
            kind="time_limit",
            prompt=f"Combat round {battle.round_paid} against the Neutral Units is over: retreat or spend 1 MP.",
            options=options,
        )
    return []


def answer(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """The map Combat's choices: the time limit's retreat or MP, a Secondary hero's
    instant defeat.

    Rule: homm3core:combat-time-limits, homm3turn:what-1-mp-buys, homm3core:secondary-heroes"""
    game = map_turns.game_of(state)
    battle = game.battle
    assert battle is not None
    if choice.kind == "secondary_defeat":
        if index == 1:
            return [
                Event(
                    kind="secondary_defeat",
                    text=f"{seat_name(seat)}'s Secondary hero is defeated at once.",
                    data={},
                ),
                *_settle_pvp(state, winner_sub=0, fought=False),
            ]
        return next_reactor(state)
    battle.asking = False
    hero = _attacking_hero(game, battle)
    if index == 1:
        hero.mp -= 1
        battle.round_paid += 1
        return [
            Event(
                kind="extend_combat",
                text=f"{seat_name(seat)} spends 1 MP: another Combat round against the Neutral Units.",
                data={"seat": seat},
            )
        ]
    return [
        Event(kind="retreat", text=f"{seat_name(seat)} retreats.", data={"seat": seat}),
        *finish(state, None, retreat=True),
    ]


def finish(state: Homm3State, winner_sub: int | None, *, retreat: bool = False) -> list[Event]:
    """End the Combat: surviving units heal and keep their side, fallen ones are lost; the
    winner gains Experience and Visits the Field; a Retreat goes back to the Field last
    Visited; a defeated Main hero goes home (and, beaten by a hero, gains Negative Morale,
    pays 5 Gold and gives a Faction Cube); a player left with no unit gets the starting
    units again.

    Rule: homm3core:end-of-combat, homm3core:combat-experience, homm3core:combat-time-limits"""
    game = map_turns.game_of(state)
    battle, board = game.battle, state.board
    assert battle is not None and board is not None
    events: list[Event] = []
    wiped: set[int] = set()
    if board.combat is not None:
        for sub, real in enumerate(battle.controllers):
            if sub == 1 and battle.neutral:
                continue
            standing = [
                ArmyUnit(unit=u.unit, pack=u.pack)
                for u in board.combat.units
                if u.seat == sub and u.alive and u.unit != combat_core.TOWER
            ]
            player = state.player(real)
            player.army = standing + player.army[MAX_UNITS:]
            if not player.army:
                wiped.add(real)
                events += _starting_units(state, real)
    if battle.neutral:
        game.neutral_discard += [a.unit for a in board.seats[1].army]
    state.board = None
    if battle.neutral:
        events += _settle_neutral(state, winner_sub, retreat, battle.attacker in wiped)
    else:
        events += _settle_pvp(state, winner_sub if winner_sub is not None else 1, fought=True)
    return events + effects.run(state) + map_turns.check_end(state, round_over=False)


def _starting_units(state: Homm3State, seat: int) -> list[Event]:
    player = state.player(seat)
    bronze = sorted(
        (u for u in load_content().faction_units(player.faction) if u.tier == "bronze"),
        key=lambda u: (u.recruit.gold, u.id),
    )
    player.army = [ArmyUnit(unit=bronze[0].id, pack=True), ArmyUnit(unit=bronze[-1].id)]
    return [
        Event(
            kind="starting_units",
            text=f"{seat_name(seat)} has no unit left and takes the starting units again.",
            data={},
        )
    ]


def _settle_neutral(
    state: Homm3State, winner_sub: int | None, retreat: bool, wiped: bool
) -> list[Event]:
    game = map_turns.game_of(state)
    battle = game.battle
    assert battle is not None
    hero = _attacking_hero(game, battle)
    seat = battle.attacker
    game.battle = None
    events: list[Event] = []
    if winner_sub == 0 and not retreat:
        events.append(
            Event(
                kind="combat_won",
                text=f"{seat_name(seat)} defeats the Neutral Units.",
                data={"seat": seat},
            )
        )
        if hero.main:
            level = state.player(seat).level
            gain = 2 if battle.difficulty > level else 1 if battle.difficulty == level else 0
            events += gain_experience(state, seat, gain) if gain else []
        return events + map_turns.visit(state, hero, battle.field)
    if wiped and not retreat:
        # Defeat: every unit fell and none was left in the unit deck.
        events.append(
            Event(
                kind="combat_lost",
                text=f"{seat_name(seat)} is defeated by the Neutral Units.",
                data={},
            )
        )
        if hero.main:
            return events + map_turns.defeated_main(state, seat)
        game.heroes = [h for h in game.heroes if h is not hero]
        return events
    hero.field = hero.last if hero.last != battle.field else battle.from_field
    events.append(
        Event(
            kind="retreat",
            text=f"{seat_name(seat)}'s hero goes back to {hero.field} (the Field last Visited).",
            data={"seat": seat, "field": hero.field},
        )
    )
    return events


def _settle_pvp(state: Homm3State, winner_sub: int, *, fought: bool) -> list[Event]:
    game = map_turns.game_of(state)
    battle = game.battle
    assert battle is not None
    att_hero = _attacking_hero(game, battle)
    def_hero = _defending_hero(game, battle)
    state.board = None
    game.battle = None
    game.reacting = []
    win_seat, lose_seat = (battle.attacker, battle.controllers[1])
    win_hero: MapHero | None = att_hero
    lose_hero: MapHero | None = def_hero
    if winner_sub == 1:
        win_seat, lose_seat = lose_seat, win_seat
        win_hero, lose_hero = def_hero, att_hero
    events = [
        Event(
            kind="combat_won",
            text=f"{seat_name(win_seat)} wins the Combat against {seat_name(lose_seat)}.",
            data={"winner": win_seat, "loser": lose_seat},
        )
    ]
    if lose_hero is None or win_hero is None:
        return events
    if lose_hero.main:
        if win_hero.main and fought:
            gap = state.player(lose_seat).level - state.player(win_seat).level
            gain = 2 if gap > 0 else 1 if gap == 0 else 0
            if gain:
                events += gain_experience(state, win_seat, gain)
        events += morale.lose(state, lose_seat)
        paid = min(PVP_GOLD, state.player(lose_seat).resources.gold)
        state.player(lose_seat).resources.gold -= paid
        state.player(win_seat).resources.gold += paid
        events.append(
            Event(
                kind="pay",
                text=f"{seat_name(lose_seat)} pays {paid} Gold to {seat_name(win_seat)}.",
                data={"seat": lose_seat, "gold": paid},
            )
        )
        events += map_turns.defeated_main(state, lose_seat)
    else:
        game.heroes = [h for h in game.heroes if h is not lose_hero]
        events.append(
            Event(
                kind="secondary_removed",
                text=f"{seat_name(lose_seat)}'s Secondary hero leaves the map.",
                data={},
            )
        )
    if lose_seat not in game.cubes.setdefault(win_seat, []):
        game.cubes[win_seat].append(lose_seat)
    events.append(
        Event(
            kind="faction_cube",
            text=f"{seat_name(win_seat)} takes a Faction Cube of {seat_name(lose_seat)}.",
            data={},
        )
    )
    if win_seat == battle.attacker:
        events += map_turns.visit(state, win_hero, battle.field)
    return events


map_turns.HOOKS["announce"] = announce
