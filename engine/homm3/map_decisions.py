"""The map game behind the engine protocol: decisions owed, legal commands, defaults, the
computer player, routing of commands and the views.

Rule sections: homm3turn:action-types, homm3turn:when-you-can-use-them (Town actions on
any player's turn: accepted from every seat outside a Combat, asked for in the reaction
window), homm3turn:reacting-to-combat. The Combat's decisions are the Battlefield's own,
owed by the real seat that plays that side (`map_combat.board_seat`).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from typing import Any

from engine.core.errors import InvalidInput, NotYourDecision, WrongPhase
from engine.core.model import Command, Decision, Event, TurnRecord, seat_name
from engine.homm3 import (
    adventure,
    ai,
    cardplay,
    decisions,
    effects,
    map_board,
    map_combat,
    map_turns,
    viewing,
)
from engine.homm3 import commands as c
from engine.homm3 import map_commands as mc
from engine.homm3.map_content import load_map
from engine.homm3.state import Choice, Homm3State
from engine.homm3.views import (
    CombatView,
    MapHeroView,
    MapTileView,
    MapView,
    PublicView,
    SeatView,
)

MAP_CHOICES: frozenset[str] = frozenset({"settlement", "time_limit", "secondary_defeat"})
"""Choices of the map game itself (the others are the shared effect steps')."""


NEUTRAL_ACTS = (
    "move or attack (Neutral Units never Defend nor play cards, and attack when they can)"
)
"""What a Neutral Unit's activation prompt offers in a map Combat (homm3core:combat-round-structure)."""


def settle(state: Homm3State) -> list[Event]:
    """Resolve queued steps; once no choice is open, let a reaction window move on.

    Rule: homm3turn:reacting-to-combat"""
    events = effects.run(state)
    game = state.map
    if (
        game is not None
        and state.phase == "map"
        and game.battle is None
        and game.active in game.eliminated
        and not state.choice
    ):
        events += map_turns.pass_turn(state)
    if (
        game is not None
        and state.phase == "map"
        and game.battle is not None
        and state.board is None
        and not state.choice
        and not any(state.queue.values())
    ):
        events += map_combat.next_reactor(state)
        events += effects.run(state)
    return events


def _answer(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    if choice.kind == "settlement":
        return map_turns.answer_settlement(state, seat, choice, index)
    if choice.kind in ("time_limit", "secondary_defeat"):
        return map_combat.answer(state, seat, choice, index)
    return adventure.answer(state, seat, choice, index)


TOWN = (c.Build, c.Muster, c.BuySpell)

HUNT_ROUND = 3
"""From this round on the computer's heroes head for the Towns its victory needs (see
`victory_targets`) along the cheapest route (`step_towards`)."""

ROUTE_RISK: dict[int, float] = {0: 2.0}
"""Extra route cost of a Field guarded at the hero's Level (0) or one above (1); a route
never crosses guards two or more Levels above the hero (`step_towards`)."""

RISK: dict[int, float] = {0: -1.5, 1: 8.0, 2: 8.0}
"""How much the computer shuns guards of its Level (0: sought, their Experience opens the
routes through the Near tiles' Level IV guards; homm3core:combat-experience), one above
(1) or two above (2); higher ones count 8. Measured: it won 2 of 22 Combats against guards
one Level above and 0 of 16 two above, 28 of 37 at its own Level."""


def apply(state: Homm3State, seat: int, command: Command) -> list[Event]:
    """Apply a map-game command of ``seat``.

    :raises InvalidInput | WrongPhase | NotYourDecision | IllegalMove: see each rule.
    Rule: none (routing)"""
    game = map_turns.game_of(state)
    if state.phase == "over":
        raise WrongPhase("The game is over.")
    if seat in game.eliminated and state.board is None:
        raise WrongPhase("You are out of the game.")
    if isinstance(command, c.Choose) and seat in state.choice:
        return effects.answer(state, seat, command.option, _answer) + settle(state)
    if state.board is not None:
        return map_combat.route(state, seat, command) + settle(state)
    if isinstance(command, TOWN):
        map_turns.town_time(state, seat)
        if isinstance(command, c.Build):
            town_events = adventure.build(state, seat, command.building)
        elif isinstance(command, c.Muster):
            town_events = adventure.muster(
                state, seat, command.recruit, command.reinforce, command.discount
            )
        else:
            town_events = adventure.buy_spell(state, seat, command.wisdom)
        return town_events + settle(state)
    if isinstance(command, mc.HireHero):
        return map_turns.hire_hero(state, seat, command.field) + settle(state)
    if isinstance(command, c.StartCombat):
        return map_combat.start_combat(state, seat) + settle(state)
    if game.battle is not None:
        raise WrongPhase("A Combat is announced: Town actions or start_combat only.")
    if isinstance(command, c.UseMorale):
        return cardplay.use_morale(state, seat, command) + settle(state)
    if isinstance(command, mc.RefreshHand):
        events = map_turns.refresh_hand(state, seat, command.discard)
    elif isinstance(command, mc.MapMove):
        events = map_turns.move(state, seat, command.hero, command.field)
    elif isinstance(command, mc.Discover):
        events = map_turns.discover(state, seat, command.hero, command.pos, command.rotation)
    elif isinstance(command, mc.PlaceTile):
        events = map_turns.place_tile(state, seat, command.hero, command.pos, command.rotation)
    elif isinstance(command, mc.Revisit):
        events = map_turns.revisit(state, seat, command.hero)
    elif isinstance(command, c.EndTurn):
        events = map_turns.end_turn(state, seat)
    else:
        raise InvalidInput(f"'{command.type}' is not a command of the map game now.")
    return events + settle(state)


# ------------------------------------------------------------------ decisions
def pending(state: Homm3State) -> list[Decision]:
    """The decisions owed now: open choices first, then the Combat's, the reaction window,
    the active seat's hand refresh or map turn.

    Rule: homm3turn:action-types, homm3turn:reacting-to-combat"""
    game = state.map
    if game is None or state.phase == "over":
        return []
    if state.choice:
        return [
            Decision(
                seat=seat,
                kind=f"choose_{choice.kind}",
                prompt=choice.prompt,
                commands=("choose",),
                private=choice.private or choice.kind in decisions.PRIVATE_CHOICES,
            )
            for seat, choice in sorted(state.choice.items())
        ]
    board, battle = state.board, game.battle
    if board is not None and battle is not None:
        out = []
        for decision in decisions.pending(board):
            real = battle.controllers[decision.seat]
            prompt = map_combat._relabel(state, [Event(kind="p", text=decision.prompt)])[0].text
            if battle.neutral and decision.seat == 1 and decision.kind == "activation":
                # homm3core:combat-round-structure: Neutral Units never Defend, play no
                # cards and attack when they can (map_combat.neutral_problem).
                prompt = prompt.replace("move, attack, Defend, play cards or end", NEUTRAL_ACTS)
            out.append(decision.model_copy(update={"seat": real, "prompt": prompt}))
        return out
    if battle is not None and game.reacting:
        seat = game.reacting[0]
        return [
            Decision(
                seat=seat,
                kind="town_reaction",
                prompt=f"A Combat is announced: {seat_name(seat)} may take Town actions first, or let it start.",
                commands=c.TOWN_REACTION,
                private=True,
            )
        ]
    seat = game.active
    if not game.refreshed:
        return [
            Decision(
                seat=seat,
                kind="refresh_hand",
                prompt=f"{seat_name(seat)} refreshes the hand: discard any cards, then draw up to the Hand Limit.",
                commands=("refresh",),
                private=True,
            )
        ]
    left = ", ".join(
        f"{'Main' if h.main else 'Secondary'} hero {h.mp} MP"
        for h in sorted(game.heroes, key=lambda h: not h.main)
        if h.seat == seat
    )
    when = f"round {state.round} of {game.rounds}" + (f"; {left} left" if left else "")
    return [
        Decision(
            seat=seat,
            kind="map_turn",
            prompt=f"{seat_name(seat)}'s turn ({when}): move, explore, build or end the turn.",
            commands=mc.MAP_TURN,
            private=True,
        )
    ]


def turn_record(state: Homm3State) -> TurnRecord:
    """Turn, round, the seats owing a decision and the phase's name.

    Rule: none (bookkeeping)"""
    owed = tuple(sorted({d.seat for d in pending(state)}))
    phase = "Over" if state.phase == "over" else "Combat" if state.board is not None else "Map"
    return TurnRecord(turn=state.turn, round=state.round, active=owed, phase=phase)


def _hero_commands(state: Homm3State, seat: int) -> list[Command]:
    game = map_turns.game_of(state)
    out: list[Command] = []
    stacked = map_turns.must_unstack(state, seat)
    for hero in [h for h in game.heroes if h.seat == seat]:
        which = "main" if hero.main else "secondary"
        if hero.mp < 1:
            continue
        if stacked and not any(
            h.field == hero.field for h in game.heroes if h.seat == seat and h is not hero
        ):
            continue
        for field in map_board.neighbours(hero.field):
            if map_turns.move_problem(state, hero, field) is None:
                out.append(mc.MapMove(hero=which, field=field))
        if stacked:
            continue
        for tile in map_board.discoverable(game, hero.field):
            out += [mc.Discover(hero=which, pos=tile.pos, rotation=r) for r in range(6)]
        if game.pools.get(seat):
            for pos in map_board.placeable(game, hero.field):
                out += [mc.PlaceTile(hero=which, pos=pos, rotation=r) for r in range(6)]
        spec = map_board.field_spec(game, hero.field)
        if spec is not None and spec.kind in ("stables", "trading_post"):
            out.append(mc.Revisit(hero=which))
    return out


def town_commands(state: Homm3State, seat: int) -> list[Command]:
    """``seat``'s usable Town actions now (and hiring a Secondary hero).

    Rule: homm3turn:build-token, homm3turn:population-token, homm3turn:spell-book-token"""
    out = list(adventure.town_commands(state, seat))
    game = map_turns.game_of(state)
    player = state.player(seat)
    if (
        player.tokens.population
        and player.resources.gold >= map_turns.HIRE_GOLD
        and not any(h.seat == seat and not h.main for h in game.heroes)
    ):
        out += [mc.HireHero(field=f) for f in map_turns.hire_fields(state, seat)]
    return out


def legal_commands(state: Homm3State, seat: int) -> list[Command]:
    """A finite list of commands ``seat`` may issue now, each accepted by apply.

    Rule: none (command enumeration)"""
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        return []
    decision = owed[0]
    if decision.kind.startswith("choose_") and seat in state.choice:
        choice = state.choice[seat]
        return [
            c.Choose(option=i)
            for i in range(len(choice.options))
            if effects.option_problem(state, seat, choice, i) is None
        ]
    if state.board is not None:
        return map_combat.board_commands(state, seat)
    if decision.kind == "town_reaction":
        return [*adventure.town_commands(state, seat), c.StartCombat()]
    if decision.kind == "refresh_hand":
        return [mc.RefreshHand(discard=d) for d in map_turns.refresh_options(state, seat)]
    out = _hero_commands(state, seat) + town_commands(state, seat)
    if not map_turns.must_unstack(state, seat):
        out.append(c.EndTurn())
    return out


def default_command(state: Homm3State, seat: int) -> Command:
    """The documented default: the first option of a choice; the Battlefield's default in a
    Combat; keep the hand (or discard the excess first cards); start the Combat; end the
    turn (or step the first allied hero off a shared Field).

    :raises NotYourDecision: if ``seat`` owes nothing.
    Rule: none (bookkeeping: default answers)"""
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    kind = owed[0].kind
    if kind.startswith("choose_") and seat in state.choice:
        return c.Choose(option=0)
    if state.board is not None:
        sub = map_combat.board_seat(state, seat)
        assert sub is not None
        command = decisions.default_command(state.board, sub)
        if map_combat.neutral_problem(state, sub, command) is None:
            return command
        return map_combat.board_commands(state, seat)[0]
    if kind == "town_reaction":
        return c.StartCombat()
    if kind == "refresh_hand":
        return mc.RefreshHand(discard=map_turns.refresh_options(state, seat)[0])
    commands = legal_commands(state, seat)
    return c.EndTurn() if c.EndTurn() in commands else commands[0]


def victory_targets(state: Homm3State, seat: int) -> list[str]:
    """The Town Fields ``seat``'s computer heads for: with two players the enemy Town it
    does not hold (homm3core:victory-conditions: hold the enemy Town at a round's end);
    with more, the Towns of the enemies whose Faction Cube it lacks (taking a Town gives
    its owner's cube); and its own Town when an enemy flags it.

    Rule: homm3core:victory-conditions, homm3core:towns"""
    game = map_turns.game_of(state)
    have = set(game.cubes.get(seat, []))
    out = []
    for owner, tile in enumerate(t for t in game.tiles if t.kind == "start"):
        town = map_board.tile_fields(tile.pos)[0]
        mark = game.marks.get(town)
        flag = None if mark is None else mark.flag
        if owner == seat:
            if flag is not None and flag != seat:
                out.append(town)
        elif (
            owner not in game.eliminated
            and flag != seat
            and (state.players == 2 or owner not in have)
        ):
            out.append(town)
    return out


def _route_cost(state: Homm3State, seat: int, field: str) -> float | None:
    """The cost of stepping onto ``field`` on a route: 1 MP, 2 where a face-down tile
    must be discovered first, more for guards (`ROUTE_RISK`) and an enemy hero; None
    where no tile lies, the Field is Blocked or its guards are too strong."""
    game = map_turns.game_of(state)
    tile = map_board.tile_at(game, map_board.position_of(field))
    if tile is None:
        return None
    if not tile.revealed:
        return 2.0
    spec = map_board.field_spec(game, field)
    if spec is None or spec.kind == "blocked":
        return None
    cost = 1.0
    level = map_turns.guarded(game, field)
    own = state.player(seat).level
    if level and own <= level:
        if level - own not in ROUTE_RISK:
            return None
        cost += ROUTE_RISK[level - own]
    if any(h.seat != seat for h in map_turns.heroes_on(game, field)):
        cost += 2.0
    return cost


def step_towards(state: Homm3State, seat: int, hero_main: bool, targets: list[str]) -> str | None:
    """The first Field of the cheapest route (`_route_cost`, Dijkstra over the Fields of
    the laid-out tiles, face-down ones included) from ``seat``'s Main (or Secondary)
    hero to the nearest of ``targets``; None when none can be reached. Reads only what the seat sees (a face-down tile
    costs the same whatever lies under it).

    Rule: none (computer-player heuristic)"""
    game = map_turns.game_of(state)
    hero = next((h for h in game.heroes if h.seat == seat and h.main == hero_main), None)
    goal = set(targets)
    if hero is None or not goal or hero.field in goal:
        return None
    best: dict[str, float] = {hero.field: 0.0}
    first: dict[str, str] = {}
    heap: list[tuple[float, str]] = [(0.0, hero.field)]
    while heap:
        cost, field = heapq.heappop(heap)
        if cost > best[field]:
            continue
        if field in goal:
            return first[field]
        for near in map_board.neighbours(field):
            more = _route_cost(state, seat, near)
            if more is None:
                continue
            if cost + more < best.get(near, float("inf")):
                best[near] = cost + more
                first[near] = near if field == hero.field else first[field]
                heapq.heappush(heap, (cost + more, near))
    return None


def _hunt(state: Homm3State, seat: int, legal: list[Command], rng: random.Random) -> Command | None:
    """A legal step of a hero along its route to `victory_targets` (a Discover when the
    next Field lies on a face-down tile), Main hero first; None when neither has one."""
    targets = victory_targets(state, seat)
    game = map_turns.game_of(state)
    for hero in sorted((h for h in game.heroes if h.seat == seat), key=lambda h: not h.main):
        which = "main" if hero.main else "secondary"
        step = step_towards(state, seat, hero.main, targets)
        if step is None:
            continue
        tile = map_board.tile_at(game, map_board.position_of(step))
        if tile is not None and not tile.revealed:
            command: Command = mc.Discover(
                hero=which, pos=tuple(tile.pos), rotation=rng.randrange(6)
            )
        else:
            command = mc.MapMove(hero=which, field=step)
        if command in legal:
            return command
    return None


def ai_command(state: Homm3State, seat: int, rng: random.Random) -> Command:
    """A simple legal computer player: the Battlefield's computer in a Combat; otherwise a
    Town action when the shared computer would take one; from round `HUNT_ROUND` each
    hero's step along its cheapest route to the Towns the victory needs (`_hunt`); else
    moves towards Fields not yet Visited (preferring unguarded ones and guards it may
    beat), discovers tiles, and ends the turn when no MP is left.

    :raises NotYourDecision: if ``seat`` owes nothing.
    Rule: none (computer-player heuristic)"""
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    kind = owed[0].kind
    if state.board is not None and not (kind.startswith("choose_") and seat in state.choice):
        sub = map_combat.board_seat(state, seat)
        assert sub is not None
        command = ai.ai_command(state.board, sub, rng)
        if map_combat.neutral_problem(state, sub, command) is None:
            return command
        return rng.choice(map_combat.board_commands(state, seat))
    legal = legal_commands(state, seat)
    if kind.startswith("choose_"):
        choice = state.choice[seat]
        if choice.kind in MAP_CHOICES:
            return legal[-1] if choice.kind == "time_limit" and rng.random() < 0.7 else legal[0]
        return ai.ai_command(state, seat, rng)
    if kind == "town_reaction":
        town = [x for x in legal if not isinstance(x, c.StartCombat)]
        return town[0] if town and rng.random() < 0.5 else c.StartCombat()
    if kind == "refresh_hand":
        return legal[0]
    town = [x for x in legal if isinstance(x, (c.Build, c.Muster, c.BuySpell, mc.HireHero))]
    if town and rng.random() < 0.6:
        return rng.choice(town)
    if state.round >= HUNT_ROUND:
        hunting = _hunt(state, seat, legal, rng)
        if hunting is not None:
            return hunting
    game = map_turns.game_of(state)
    moves = [x for x in legal if isinstance(x, mc.MapMove)]
    explore = [x for x in legal if isinstance(x, (mc.Discover, mc.PlaceTile))]
    if explore and rng.random() < 0.5:
        return rng.choice(explore)
    if moves:
        targets = map_turns.enemy_towns(state, seat)
        hunt = state.round >= HUNT_ROUND and bool(targets)

        def score(m: mc.MapMove) -> float:
            level = map_turns.guarded(game, m.field)
            mark = game.marks.get(m.field)
            spec = map_board.field_spec(game, m.field)
            worth = spec is not None and spec.kind not in ("empty", "blocked", "stables")
            fresh = worth and (mark is None or (not mark.visited and mark.flag != seat))
            own = state.player(seat).level
            risk = RISK.get(level - own, 8.0) if level >= own else 0.0
            enemy = any(h.seat != seat for h in map_turns.heroes_on(game, m.field))
            near = min((map_board.distance(m.field, t) for t in targets), default=0)
            return (
                (2.0 if fresh else 0.0)
                + (1.0 if enemy else 0.0)
                - risk
                - (1.5 * near if hunt else 0.0)
                + rng.random()
            )

        return max(moves, key=score)
    if explore:
        return rng.choice(explore)
    revisit = [x for x in legal if isinstance(x, mc.Revisit)]
    if revisit and rng.random() < 0.3:
        return revisit[0]
    return c.EndTurn() if c.EndTurn() in legal else legal[0]


# ------------------------------------------------------------------ views
def _map_view(state: Homm3State) -> MapView:
    game = map_turns.game_of(state)
    tiles = []
    for tile in game.tiles:
        if tile.revealed:
            spec = load_map().tiles[tile.tile]
            fields = map_board.tile_fields(tile.pos, tile.rotation)
            tiles.append(
                MapTileView(
                    pos=tuple(tile.pos),
                    kind=tile.kind,
                    tile=spec.id,
                    fields={f: spec.fields[i].label() for i, f in enumerate(fields)},
                )
            )
        else:
            tiles.append(MapTileView(pos=tuple(tile.pos), kind=tile.kind, tile=None, fields={}))
    battle = game.battle
    return MapView(
        scenario=game.scenario,
        rounds=game.rounds,
        active=game.active,
        tiles=tiles,
        flags={f: m.flag for f, m in sorted(game.marks.items()) if m.flag is not None},
        visited=sorted(f for f, m in game.marks.items() if m.visited),
        heroes=[MapHeroView(seat=h.seat, main=h.main, field=h.field, mp=h.mp) for h in game.heroes],
        pools={s: len(p) for s, p in sorted(game.pools.items())},
        cubes={s: list(v) for s, v in sorted(game.cubes.items())},
        eliminated=list(game.eliminated),
        battle_seats=list(battle.controllers)
        if battle is not None and state.board is not None
        else [],
        neutral_battle=bool(battle is not None and battle.neutral),
    )


def public_view(state: Homm3State) -> PublicView:
    """What everyone may see: the map (face-down tiles by kind only), the players, and the
    Combat being fought (its board seats: 0 the attacker, 1 the defender).

    Rule: none (bookkeeping: DESIGN private information)"""
    view = viewing.public_view(state)
    combat = viewing._combat(state.board) if state.board is not None else None
    battle = state.map.battle if state.map is not None else None
    if combat is not None and battle is not None:
        combat = _real_seats(combat, battle.controllers)
    return view.model_copy(
        update={
            "combat": combat,
            "prompts": [d.prompt for d in pending(state)],
            "map": _map_view(state),
        }
    )


def _real_seats(combat: CombatView, controllers: Sequence[int]) -> CombatView:
    """The Combat board's view with its seats (0 the attacker, 1 the defender or the
    Neutral Units) as the game's seats that play them, so pictures and status name and
    colour each side as the table knows it (they showed the board's own "Red" and "Blue":
    an attacking Blue was drawn as Red holding the Initiative token)."""
    real = dict(enumerate(controllers))
    return combat.model_copy(
        update={
            "token": real.get(combat.token, combat.token),
            "placing": real.get(combat.placing, combat.placing),
            "zones": {real.get(s, s): z for s, z in combat.zones.items()},
            "siege": real.get(combat.siege, combat.siege) if combat.siege is not None else None,
            "units": [
                u.model_copy(update={"seat": real.get(u.seat, u.seat)}) for u in combat.units
            ],
            "spells": {real.get(s, s): n for s, n in combat.spells.items()},
        }
    )


def seat_view(state: Homm3State, seat: int) -> SeatView:
    """The public view plus ``seat``'s own hand, looked-at cards and open choice (a
    Combat's own choices included).

    Rule: none (bookkeeping: DESIGN private information)"""
    base = viewing.seat_view(state, seat)
    public = public_view(state)
    update: dict[str, Any] = dict(public.model_dump())
    board, battle = state.board, state.map.battle if state.map else None
    if board is not None and battle is not None and seat not in state.choice:
        for sub in (0, 1):
            if battle.controllers[sub] == seat and (sub == 0 or not battle.neutral):
                choice = board.choice.get(sub)
                if choice is not None:
                    update["choice"] = {
                        "kind": choice.kind,
                        "prompt": choice.prompt,
                        "options": list(choice.options),
                    }
                update["looking"] = [
                    r.model_dump() for r in viewing.refs(board, board.looking.get(sub, []))
                ]
    return SeatView.model_validate({**base.model_dump(), **update})
