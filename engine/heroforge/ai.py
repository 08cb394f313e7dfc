"""The computer player: a simple policy, biased toward progress, so that games end.

Rule sections: every decision of heroforge (it only plays commands from
`decisions.legal_commands`).

Policy:

* set-up: a random hero and a random free Plain Land;
* buying: pass on a harmful enchantment when rich, sometimes shift a plate with an
  ability, build a fort on a good land now and then and man it with the weakest unit, then
  buy the strongest units the economy spreads over the room left under the cap;
* moving: hunt the nearest enemy hero (end on its plate, else as close as possible); a
  hero with no units that cannot afford one walks to the nearest land that pays economy;
  in a combat it is winning it stays to attack again, otherwise it rolls;
* combat: kill heroes without units, attack heroes when not clearly weaker (always after
  many rounds), attack forts with a large army; defend by fighting back, retreating only
  when much weaker;
* steal a helpful enchantment of its faction when rich; shift plates at random sometimes.
"""

from __future__ import annotations

import random

from engine.core.errors import NotYourDecision
from engine.core.model import Command, seat_name
from engine.core.search import material_share
from engine.heroforge import board, decisions, effects, movement, turns
from engine.heroforge.board import Global
from engine.heroforge.catalog import EnchantmentSpec
from engine.heroforge.commands import (
    Attack,
    BuyFort,
    BuyUnit,
    EndBuying,
    EndTurn,
    FightBack,
    LetGo,
    ManFort,
    Move,
    PassEnchantment,
    Retreat,
    RollMove,
    Shift,
    SkipMove,
    SkipShift,
    Stay,
    Steal,
)
from engine.heroforge.state import HeroforgeState, Square

LATE_ROUND = 25
"""From this round on the computer attacks any hero it meets."""

BUILD_ROUNDS = 8
"""A builder saves for forts during its first rounds."""


def ai_command(state: HeroforgeState, seat: int, rng: random.Random) -> Command:
    """Choose a command for computer seat ``seat`` (see the module docstring).

    :raises NotYourDecision: if ``seat`` owes nothing now.

    Rule: none (computer-player heuristics; see README: The computer player).
    """
    decision = decisions.owed(state, seat)
    if decision is None:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    legal = decisions.legal_commands(state, seat)
    kind = decision.kind
    if kind in ("choose_hero", "place_hero"):
        return rng.choice(legal)
    if kind == "defend":
        return _defend(state, seat, legal, rng)
    if kind == "steal":
        offer = state.steal
        assert offer is not None
        rich = state.player(seat).economy >= 1500
        return Steal() if rich and helpful(offer.spec) and rng.random() < 0.7 else LetGo()
    if kind == "shift":
        shifts = [c for c in legal if isinstance(c, Shift)]
        return rng.choice(shifts) if shifts and rng.random() < 0.4 else SkipShift()
    if kind == "buy":
        return _buy(state, seat, legal, rng)
    if kind == "move":
        return SkipMove() if _hold(state, seat) else RollMove()
    if kind == "moving":
        return _move(state, seat, legal, rng)
    return _combat(state, seat, legal, rng)


def helpful(spec: EnchantmentSpec) -> bool:
    """Whether an enchantment helps its carrier (costs down, everything else up).

    Rule: none (a computer-player heuristic).
    """
    if spec.effect in ("unit_cost", "fort_cost"):
        return spec.amount < 0
    return spec.amount > 0


def strength(state: HeroforgeState, seat: int) -> float:
    """A rough army strength: the sum of the hits each unit takes to kill (10/(11-level)).

    Rule: none (a computer-player heuristic).
    """
    return sum(10 / (11 - level) for _, level in effects.army_levels(state, seat))


def _defend(state: HeroforgeState, seat: int, legal: list[Command], rng: random.Random) -> Command:
    defence = state.defence
    assert defence is not None
    weak = strength(state, seat) < 0.5 * strength(state, defence.attacker)
    if weak and any(isinstance(c, Retreat) for c in legal) and rng.random() < 0.6:
        return Retreat()
    return FightBack(target=f"hero:{defence.attacker}")


def builder(state: HeroforgeState, seat: int) -> bool:
    """Whether this seat plays as a builder (about one seat in three, fixed per game):
    it saves for forts on good lands before it goes hunting.

    Rule: none (our choice, see README: The computer player).
    """
    return (state.seed * 7 + seat) % 3 == 0


def _building(state: HeroforgeState, seat: int) -> bool:
    return (
        builder(state, seat)
        and state.round < BUILD_ROUNDS
        and len([f for f in state.forts if f.owner == seat]) < 3
    )


def _buy(state: HeroforgeState, seat: int, legal: list[Command], rng: random.Random) -> Command:
    player = state.player(seat)
    assert player.at is not None
    carried = player.enchantment
    passes = [c for c in legal if isinstance(c, PassEnchantment)]
    if passes and carried and not helpful(carried.spec) and player.economy >= 2500:
        return rng.choice(passes)
    shifts = [c for c in legal if isinstance(c, Shift)]
    if shifts and rng.random() < 0.15:
        return rng.choice(shifts)
    label = player.at.plate
    own_forts = [f for f in effects.forts_on(state, label) if f.owner == seat]
    unmanned = [f for f in own_forts if not f.manned]
    if unmanned and len(player.army) >= 3:
        weakest = min(player.army, key=lambda u: (u.level, u.id))
        manning = ManFort(fort=unmanned[0].id, units=(weakest.id,))
        if manning in legal:
            return manning
    forts = [c for c in legal if isinstance(c, BuyFort)]
    price = effects.fort_price(state, seat, label)
    reserve = 0 if _building(state, seat) else 300
    if (
        forts
        and price is not None
        and player.economy >= price + reserve
        and len(own_forts) < 2
        and state.round < LATE_ROUND
        and (_building(state, seat) or rng.random() < 0.5)
    ):
        return rng.choice(forts)
    units = [c for c in legal if isinstance(c, BuyUnit)]
    if units and _building(state, seat) and len(player.army) >= 2:
        units = []
    if units:
        room = max(1, effects.cap(state, seat) - effects.military(state, seat))
        budget = player.economy // room
        cheapest = min(units, key=lambda c: c.level)
        fitting = [c for c in units if effects.unit_price(state, seat, c.level) <= max(budget, 1)]
        return max(fitting, key=lambda c: c.level) if fitting else cheapest
    return EndBuying()


def _hold(state: HeroforgeState, seat: int) -> bool:
    """Stay put this turn: in a combat it is winning, or next to a weaker enemy."""
    player = state.player(seat)
    if not player.army or player.at is None:
        return False
    mine = strength(state, seat)
    for other in effects.heroes_on(state, player.at.plate):
        if other != seat and (mine >= strength(state, other) or state.round >= LATE_ROUND):
            return True
    return False


def _goal(state: HeroforgeState, seat: int) -> Square | None:
    """The square the hero heads for: the nearest enemy hero, or (with no units and too
    little economy to buy one) the nearest land that pays economy."""
    player = state.player(seat)
    here = player.at
    assert here is not None
    cheapest = min(effects.unit_price(state, seat, level) for level in range(1, 11))
    if not player.army and player.economy < cheapest:
        lands = [
            p.label
            for p in state.plates
            if effects.land(state, p.label).economy > 0
            and effects.owner(state, p.label) in (None, seat)
            and not [s for s in effects.heroes_on(state, p.label) if s != seat]
        ]
        if lands:
            nearest = min(
                lands, key=lambda lab: (board.plate_distance(state, here.plate, lab), lab)
            )
            return turns.landing_square(state, nearest)
    if _building(state, seat):
        lands = [
            p.label
            for p in state.plates
            if effects.land(state, p.label).fort_price is not None
            and effects.owner(state, p.label) in (None, seat)
            and len(effects.forts_on(state, p.label)) < 2
            and not [s for s in effects.heroes_on(state, p.label) if s != seat]
        ]
        if lands:
            nearest = min(
                lands, key=lambda lab: (board.plate_distance(state, here.plate, lab), lab)
            )
            return turns.landing_square(state, nearest)
    enemies = [s for s in state.living() if s != seat]
    targets = [state.player(s).at for s in enemies if state.player(s).at is not None]
    if not targets:
        return None
    return min(
        (t for t in targets if t is not None),
        key=lambda t: (board.square_distance(state, here, t), t.plate),
    )


def walking_distances(state: HeroforgeState, seat: int, goal: Square) -> dict[Global, int]:
    """Squares (global positions) -> king steps to ``goal`` over the board (gaps and enemy
    forts block), by breadth-first search from the goal.

    Rule: none (a computer-player heuristic).
    """
    positions = board.grid(state)
    blocked = {board.to_global(state, f.at) for f in state.forts if f.owner != seat}
    start = board.to_global(state, goal)
    found = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for gx, gy in frontier:
            for dx, dy in board.DIRECTIONS.values():
                nxt = (gx + dx, gy + dy)
                if nxt in found or nxt in blocked:
                    continue
                if board.from_global(positions, nxt) is None:
                    continue
                found[nxt] = found[(gx, gy)] + 1
                following.append(nxt)
        frontier = following
    return found


def _move(state: HeroforgeState, seat: int, legal: list[Command], rng: random.Random) -> Command:
    player = state.player(seat)
    assert player.at is not None
    goal = _goal(state, seat)
    if goal is None:
        return Stay()
    far = 10_000
    steps = walking_distances(state, seat, goal)

    def score(square: Square) -> float:
        bonus = 100 if square.plate == goal.plate else 0
        return steps.get(board.to_global(state, square), far) - bonus

    best: tuple[float, Command] = (score(player.at) - 0.5, Stay())
    for command in legal:
        if not isinstance(command, Move):
            continue
        walked = movement.path(state, seat, command.direction, command.distance)
        if walked is None:
            continue
        value = score(walked[-1]) + rng.random() * 0.4
        if value < best[0]:
            best = (value, command)
    return best[1]


def _combat(state: HeroforgeState, seat: int, legal: list[Command], rng: random.Random) -> Command:
    attacks = [c for c in legal if isinstance(c, Attack)]
    if not attacks:
        return EndTurn()
    obliged = not any(isinstance(c, EndTurn) for c in legal)
    mine = strength(state, seat)
    heroes = [c for c in attacks if c.target.startswith("hero:")]
    for command in heroes:
        if not state.player(int(command.target.split(":")[1])).army:
            return command
    if heroes:
        weakest = min(heroes, key=lambda c: strength(state, int(c.target.split(":")[1])))
        theirs = strength(state, int(weakest.target.split(":")[1]))
        if obliged or mine >= 0.7 * theirs or state.round >= LATE_ROUND or rng.random() < 0.25:
            return weakest
    forts = [c for c in attacks if c.target.startswith("fort:")]
    if forts and (obliged or (len(state.player(seat).army) >= 3 and rng.random() < 0.5)):
        return rng.choice(forts)
    if obliged:
        return attacks[0]
    return EndTurn()


FORT_WORTH = 3.0
"""What a fort is worth, in `strength` points (a search's estimate)."""

ECONOMY_WORTH = 1.0 / 250
"""What one economy point is worth, in `strength` points (about what it buys: a level-7
unit, 2 points, costs 500e)."""

GARRISON_SHARE = 0.5
"""How much of a fort's units' `strength` counts (they hold the land but do not march)."""

INCOME_TURNS = 3
"""Turns of the present income counted as economy to come."""


def worth(state: HeroforgeState, seat: int) -> float:
    """A seat's material: 1 for its living hero, its army's `strength`, its forts (with
    half of their units' strength), its economy and `INCOME_TURNS` turns of its income
    (`effects.income`: what its lands and manned forts will pay); 0 once its hero is dead
    (heroforge:basic-rules: the last hero wins).

    Rule: none (a computer player's heuristic, not a rule).
    """
    player = state.player(seat)
    if not player.alive:
        return 0.0
    value = 1.0 + strength(state, seat)
    for fort in state.forts:
        if fort.owner == seat:
            value += FORT_WORTH + GARRISON_SHARE * sum(10 / (11 - u.level) for u in fort.units)
    economy = player.economy
    if player.hero is not None and player.at is not None:
        economy += INCOME_TURNS * max(0, sum(e for e, _ in effects.income(state, seat)))
    return value + ECONOMY_WORTH * economy


def evaluate(state: HeroforgeState, seat: int) -> float:
    """``seat``'s share of the table's `worth`, in [0, 1] (`Ruleset.evaluate`).

    Rule: none (a computer player's heuristic, not a rule).
    """
    return material_share([worth(state, s) for s in range(state.players)], seat)
