"""The map game's rounds and turns: set-up of a scenario, the start of each round (Town
and Movement tokens refreshed, Expert uses regained, income in Resource rounds), each
player's turn (refresh the hand, then Movement, Town and Morale actions), Movement Points,
moving, discovering and placing tiles, Visiting Fields, hiring a Secondary hero, and the
scenario's end.

Rule sections: homm3turn:refresh-your-hand, homm3turn:hand-limit, homm3turn:action-types,
homm3turn:gained-mp, homm3turn:movement-actions, homm3turn:what-1-mp-buys,
homm3turn:tracking-allies, homm3turn:when-you-can-use-them, homm3turn:population-token;
homm3core:round-structure, homm3core:main-hero, homm3core:secondary-heroes, homm3core:location-categories,
homm3core:placing-and-discovering-tiles, homm3core:mines, homm3core:settlements, homm3core:towns,
homm3core:quick-combat, homm3core:victory-conditions, homm3core:elimination (ids in
``engine/homm3/SECTIONS_CORE.txt``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalMove, InvalidInput, NotYourDecision, WrongPhase
from engine.core.model import Event, seat_name
from engine.core.rng import Rng
from engine.homm3 import adventure, effects, map_board, setup, zones
from engine.homm3.content import load_content
from engine.homm3.effects import BASIC_INCOME, RESOURCE_NAMES, push
from engine.homm3.map_content import FLAGGABLE, REVISITABLE, ROMAN, VISITABLE, load_map
from engine.homm3.map_state import FieldMark, MapGame, MapHero, PlacedTile
from engine.homm3.options import Homm3Options
from engine.homm3.rules import expert_limit, hand_limit, who
from engine.homm3.state import ArmyUnit, Choice, Homm3State, Player, Resources

MAIN_MP = 3
"""Movement Points of a Main hero each turn (homm3core:main-hero)."""

SECONDARY_MP = 2
"""Movement Points of a Secondary hero each turn (homm3core:secondary-heroes)."""

HIRE_GOLD = 10
"""Gold paid with the Population Token to hire a Secondary hero (homm3core:secondary-heroes)."""

Announce = Callable[..., list[Event]]
HOOKS: dict[str, Any] = {}
"""``announce``: how a Combat is announced (`engine.homm3.map_combat` installs it; it calls
back into this module, so it is not imported here)."""

TOWNLESS_ROUNDS = 3
"""Full rounds without a Town or Settlement that eliminate a player (homm3core:elimination)."""


# ------------------------------------------------------------------ set-up
def new_game(options: Homm3Options, players: int, seed: int) -> tuple[Homm3State, list[Event]]:
    """Set up a map scenario: heroes of different factions, starting decks, shared and
    Morale decks, each seat's Starting tile with its Town, Resources, income, Buildings and
    starting units, the layout's other tiles face down (drawn at random from the shuffled
    tiles of their kind) and each seat's pool of Far tiles; round 1 begins.

    :raises InvalidInput: for an unknown scenario, a player count the scenario does not
        allow, or bad heroes.
    Rule: homm3core:setup, homm3core:scenarios, homm3core:map-tiles
    """
    content = load_content()
    scenario = load_map().scenarios.get(options.scenario)
    if scenario is None:
        raise InvalidInput(
            f"Unknown scenario {options.scenario!r}; scenarios: {', '.join(sorted(load_map().scenarios))}."
        )
    if players not in scenario.players:
        raise InvalidInput(
            f"{scenario.name} is played by {' or '.join(map(str, scenario.players))} players, not {players} "
            f"(the content has {len(content.factions)} factions)."
        )
    rng = Rng(seed=seed)
    heroes, events = setup.deal_heroes(options, rng, players)
    state = Homm3State(players=players, seed=seed, rng=rng, mode="map", phase="map")
    for seat, hero in enumerate(heroes):
        player = Player(seat=seat, faction=content.heroes[hero].faction, hero=hero)
        state.seats.append(player)
        setup.starting_deck(state, player)
        events.append(
            Event(
                kind="hero",
                text=f"{who(state, seat)} plays {content.factions[player.faction].name}.",
                data={"seat": seat, "hero": hero, "faction": player.faction},
            )
        )
    events += setup.shared_decks(state, siege=True)
    layout = scenario.layout[str(players)]
    game = MapGame(scenario=scenario.id, rounds=scenario.rounds, time_limit=options.time_limit)
    state.map = game
    stacks: dict[str, list[str]] = {}
    for kind in ("far", "near", "center"):
        stack = [t.id for t in load_map().of_kind(kind)]
        rng.shuffle(stack)
        stacks[kind] = stack
    events.append(
        Event(
            kind="shuffle", text="The Far, Near and Center tiles are shuffled face down.", data={}
        )
    )
    for seat, pos in enumerate(layout.starts):
        player = state.player(seat)
        tile = load_map().start_tile(player.faction)
        game.tiles.append(PlacedTile(pos=pos, kind="start", tile=tile.id, revealed=True))
        town = map_board.tile_fields(pos)[0]
        game.marks[town] = FieldMark(flag=seat, flagged_once=True)
        game.heroes.append(MapHero(seat=seat, field=town, last=town))
        game.cubes[seat] = []
        game.townless[seat] = 0
        player.resources = Resources(
            gold=scenario.gold, materials=scenario.materials, valuables=scenario.valuables
        )
        player.income = Resources(gold=scenario.income_gold)
        player.buildings = list(scenario.buildings)
        bronze = sorted(
            (u for u in content.faction_units(player.faction) if u.tier == "bronze"),
            key=lambda u: (u.recruit.gold, u.id),
        )
        player.army = [ArmyUnit(unit=bronze[0].id, pack=True), ArmyUnit(unit=bronze[-1].id)]
    for kind in ("far", "near", "center"):
        for pos in getattr(layout, kind):
            game.tiles.append(PlacedTile(pos=pos, kind=kind, tile=stacks[kind].pop()))
    for seat in range(players):
        game.pools[seat] = [stacks["far"].pop() for _ in range(scenario.pool)]
    for tier in ("bronze", "silver", "gold"):
        deck = sorted(u.id for u in content.units.values() if u.tier == tier)
        rng.shuffle(deck)
        game.neutral_decks[tier] = deck
    game.starter = 0
    events.append(
        Event(
            kind="scenario",
            text=f"{scenario.name}: {players} players, {scenario.rounds} rounds; take the enemy Town"
            + (" (or a Faction Cube from every enemy)" if players > 2 else "")
            + f" to win. {seat_name(0)} is the starting player.",
            data={"scenario": scenario.id, "players": players},
        )
    )
    state.round = 0
    events += start_round(state)
    return state, events


# ------------------------------------------------------------------ rounds
def game_of(state: Homm3State) -> MapGame:
    """The map game of ``state``.

    :raises WrongPhase: when ``state`` is not a map game.
    Rule: none (lookup)"""
    if state.map is None:
        raise WrongPhase("This is not a map game.")
    return state.map


def living_seats(state: Homm3State) -> list[int]:
    """Seats still in the game, in turn order.

    Rule: homm3core:elimination"""
    game = game_of(state)
    return [s for s in range(state.players) if s not in game.eliminated]


def start_round(state: Homm3State) -> list[Event]:
    """Begin the next round: from round 2 on, Town tokens flip back and Expert uses are
    regained; Resource rounds (odd, from round 3) pay income; then the starting player's
    turn (homm3core:round-structure).

    Rule: homm3core:round-structure"""
    game = game_of(state)
    state.round += 1
    game.done = []
    kind = "Resource" if state.round % 2 else "Astrologers"
    events = [
        Event(
            kind="round",
            text=f"Round {state.round} of {game.rounds} begins ({kind} round).",
            data={"round": state.round},
        )
    ]
    for player in state.seats:
        if player.seat in game.eliminated:
            continue
        if state.round > 1:
            player.tokens.build = player.tokens.population = player.tokens.spellbook = True
        player.experts = expert_limit(player)
        if state.round % 2 == 1 and state.round > 1:
            events += adventure._income(state, player)
    seats = living_seats(state)
    game.active = game.starter if game.starter in seats else seats[0]
    events += _turn_start(state, game.active)
    return events + effects.run(state)


def _turn_start(state: Homm3State, seat: int) -> list[Event]:
    game = game_of(state)
    game.refreshed = False
    state.turn += 1
    for hero in game.heroes:
        if hero.seat == seat:
            hero.mp = MAIN_MP if hero.main else SECONDARY_MP
            hero.gained = 0
    return [
        Event(
            kind="turn",
            text=f"{who(state, seat)}'s turn: refresh the hand, then move and act.",
            data={"seat": seat, "round": state.round},
        )
    ]


def refresh_hand(state: Homm3State, seat: int, discard: tuple[int, ...]) -> list[Event]:
    """Start of the turn: discard any cards named, and down to the Hand Limit, then draw up
    to it (homm3turn:refresh-your-hand; the limit is checked only now, homm3turn:hand-limit).

    :raises NotYourDecision | WrongPhase | InvalidInput | IllegalMove: off turn, twice, a
        card not in hand, or still above the limit.
    Rule: homm3turn:refresh-your-hand, homm3turn:hand-limit
    """
    game = _own_turn(state, seat)
    if game.refreshed:
        raise WrongPhase("You have refreshed your hand this turn already.")
    player = state.player(seat)
    if len(set(discard)) != len(discard) or any(c not in player.hand for c in discard):
        raise InvalidInput("Name cards of your hand, each once.")
    limit = hand_limit(player)
    if len(player.hand) - len(discard) > limit:
        raise IllegalMove(
            f"Your Hand Limit is {limit}: discard at least {len(player.hand) - limit} cards."
        )
    events: list[Event] = []
    if discard:
        events.append(zones.discard_from_hand(state, seat, list(discard)))
    events += zones.draw(state, seat, limit - len(player.hand))
    game.refreshed = True
    return events


def refresh_options(state: Homm3State, seat: int) -> list[tuple[int, ...]]:
    """A finite set of refresh choices: keep the hand, discard one card, discard all (and
    when above the limit, the cheapest ways down to it).

    Rule: homm3turn:refresh-your-hand"""
    hand = list(state.player(seat).hand)
    limit = hand_limit(state.player(seat))
    excess = len(hand) - limit
    out: list[tuple[int, ...]] = []
    if excess <= 0:
        out.append(())
        out += [(card,) for card in hand]
    else:
        for start in range(len(hand) - excess + 1):
            out.append(tuple(hand[start : start + excess]))
    if hand and tuple(hand) not in out:
        out.append(tuple(hand))
    return out


def _own_turn(state: Homm3State, seat: int) -> MapGame:
    game = game_of(state)
    if state.phase != "map":
        raise WrongPhase("The game is over.")
    if state.board is not None or game.battle is not None:
        raise WrongPhase("A Combat is being fought.")
    if game.active != seat:
        raise NotYourDecision(f"It is {seat_name(game.active)}'s turn.")
    if state.choice or state.queue.get(seat):
        raise WrongPhase("Answer the open choice first.")
    return game


def end_turn(state: Homm3State, seat: int) -> list[Event]:
    """End your turn (unspent MP are lost; homm3turn:gained-mp); then the next seat in
    clockwise order, or the next round.

    :raises NotYourDecision | WrongPhase: off turn or with two allied heroes on one Field.
    Rule: homm3turn:action-types, homm3turn:gained-mp, homm3turn:two-negative-tokens
    """
    game = _own_turn(state, seat)
    if not game.refreshed:
        raise WrongPhase("Refresh your hand first.")
    if must_unstack(state, seat):
        raise IllegalMove("Two of your heroes stand on one Field: move one away first.")
    events = [Event(kind="end_turn", text=f"{seat_name(seat)} ends the turn.", data={"seat": seat})]
    player = state.player(seat)
    if player.discard_hand and player.hand:
        player.discard_hand = False
        events.append(zones.discard_from_hand(state, seat, list(player.hand)))
    for hero in game.heroes:
        if hero.seat == seat:
            hero.mp = 0
            hero.gained = 0
    game.done.append(seat)
    return events + _next(state)


def pass_turn(state: Homm3State) -> list[Event]:
    """The turn of a seat eliminated during it passes to the next seat.

    Rule: homm3core:elimination"""
    game = game_of(state)
    if game.active not in game.done:
        game.done.append(game.active)
    return _next(state)


def _next(state: Homm3State) -> list[Event]:
    game = game_of(state)
    seats = living_seats(state)
    left = [s for s in seats if s not in game.done]
    if state.phase == "over":
        return []
    if not left:
        return _round_end(state)
    after = [s for s in left if s > game.active] or left
    game.active = after[0]
    return _turn_start(state, game.active)


def _round_end(state: Homm3State) -> list[Event]:
    game = game_of(state)
    events: list[Event] = []
    for seat in living_seats(state):
        if _holds_town_or_settlement(game, seat):
            game.townless[seat] = 0
        else:
            game.townless[seat] = game.townless.get(seat, 0) + 1
            if game.townless[seat] >= TOWNLESS_ROUNDS:
                events += eliminate(state, seat, "played 3 rounds without a Town or Settlement")
    events += check_end(state, round_over=True)
    if state.phase == "over":
        return events
    return events + start_round(state)


def _holds_town_or_settlement(game: MapGame, seat: int) -> bool:
    for field, mark in game.marks.items():
        spec = map_board.field_spec(game, field)
        if mark.flag == seat and spec is not None and spec.kind in ("town", "settlement"):
            return True
    return False


# ------------------------------------------------------------------ heroes
def hero_of(game: MapGame, seat: int, which: str) -> MapHero:
    """``seat``'s Main (``main``) or Secondary hero.

    :raises InvalidInput: when it has no such hero.
    Rule: homm3turn:tracking-allies"""
    for hero in game.heroes:
        if hero.seat == seat and hero.main == (which == "main"):
            return hero
    raise InvalidInput(f"{seat_name(seat)} has no {which} hero on the map.")


def heroes_on(game: MapGame, field: str) -> list[MapHero]:
    """Heroes standing on ``field``.

    Rule: none (lookup)"""
    return [h for h in game.heroes if h.field == field]


def _stacked(game: MapGame, seat: int) -> bool:
    own = [h.field for h in game.heroes if h.seat == seat]
    return len(own) != len(set(own))


def must_unstack(state: Homm3State, seat: int) -> bool:
    """Whether two of ``seat``'s heroes share a Field and one of them can still step off
    (its next MP must do so; with no MP left the turn may end).

    Rule: homm3turn:tracking-allies"""
    game = game_of(state)
    if not _stacked(game, seat):
        return False
    own = [h for h in game.heroes if h.seat == seat]
    for hero in own:
        shared = any(h is not hero and h.field == hero.field for h in own)
        if shared and any(
            move_problem(state, hero, f) is None for f in map_board.neighbours(hero.field)
        ):
            return True
    return False


def _mark(game: MapGame, field: str) -> FieldMark:
    return game.marks.setdefault(field, FieldMark())


def guarded(game: MapGame, field: str) -> int:
    """The level of the Neutral Units still guarding ``field`` (0: none): a numeral on a
    Field not yet Visited (no Black Cube) and never flagged.

    Rule: homm3core:field-difficulty"""
    spec = map_board.field_spec(game, field)
    if spec is None or not spec.difficulty:
        return 0
    mark = game.marks.get(field)
    if mark is not None and (mark.visited or mark.flagged_once):
        return 0
    return spec.difficulty


def move_problem(state: Homm3State, hero: MapHero, field: str) -> str | None:
    """Why ``hero`` may not step onto ``field`` now (None: it may).

    Rule: homm3turn:what-1-mp-buys, homm3turn:tracking-allies, homm3core:map-tiles"""
    game = game_of(state)
    if hero.mp < 1:
        return "it has no Movement Point left"
    if field not in map_board.neighbours(hero.field):
        return "that Field is not next to it"
    spec = map_board.field_spec(game, field)
    if spec is None:
        return "no revealed tile lies there"
    if spec.kind == "blocked":
        return "a Blocked Field cannot be entered"
    others = heroes_on(game, field)
    if any(h.seat == hero.seat for h in others) and hero.mp < 2:
        return "an allied hero stands there and it could not move on"
    return None


def move(state: Homm3State, seat: int, which: str, field: str) -> list[Event]:
    """Spend 1 MP to move a hero one Field; onto an enemy hero: a Combat; through an allied
    hero: no Visit; otherwise the Field is Visited, or its guards fought first.

    :raises NotYourDecision | WrongPhase | IllegalMove | InvalidInput: off turn or an
        illegal step.
    Rule: homm3turn:what-1-mp-buys, homm3turn:tracking-allies, homm3core:map-tiles
    """
    game = _own_turn(state, seat)
    if not game.refreshed:
        raise WrongPhase("Refresh your hand first.")
    hero = hero_of(game, seat, which)
    if must_unstack(state, seat) and not any(
        h.field == hero.field for h in game.heroes if h.seat == seat and h is not hero
    ):
        raise IllegalMove("Two of your heroes share a Field: move one of them away first.")
    problem = move_problem(state, hero, field)
    if problem:
        raise IllegalMove(f"Your hero cannot move to {field}: {problem}.")
    hero.mp -= 1
    origin = hero.field
    hero.field = field
    spec = map_board.field_spec(game, field)
    assert spec is not None
    events = [
        Event(
            kind="map_move",
            text=f"{seat_name(seat)}'s {which} hero moves to {field} ({spec.label()}).",
            data={"seat": seat, "hero": which, "field": field, "from": origin},
        )
    ]
    if any(h.seat == seat and h is not hero for h in heroes_on(game, field)):
        return [
            *events,
            Event(
                kind="pass_through",
                text="It passes an allied hero and does not Visit the Field.",
                data={"field": field},
            ),
        ]
    enemies = [h for h in heroes_on(game, field) if h.seat != seat]
    announce: Announce = HOOKS["announce"]
    if enemies:
        return events + announce(state, hero, field, defender=enemies[0], origin=origin)
    level = guarded(game, field)
    if level:
        main_level = state.player(seat).level
        if main_level > level:
            events.append(
                Event(
                    kind="quick_combat",
                    text=f"Quick Combat: Level {ROMAN[main_level]} is above the guards' {ROMAN[level]}; "
                    "they are beaten without a fight and give no reward.",
                    data={"field": field, "level": level},
                )
            )
            return events + visit(state, hero, field)
        return events + announce(state, hero, field, defender=None, origin=origin)
    return events + visit(state, hero, field)


def revisit(state: Homm3State, seat: int, which: str) -> list[Event]:
    """Spend 1 MP to Visit again the revisitable Field the hero stands on.

    :raises NotYourDecision | WrongPhase | IllegalMove: off turn, no MP or not revisitable.
    Rule: homm3turn:what-1-mp-buys, homm3core:location-categories
    """
    game = _own_turn(state, seat)
    hero = hero_of(game, seat, which)
    spec = map_board.field_spec(game, hero.field)
    if hero.mp < 1:
        raise IllegalMove("That hero has no Movement Point left.")
    if spec is None or spec.kind not in REVISITABLE:
        raise IllegalMove("Only a revisitable Field (Stables, Trading Post) can be Visited again.")
    hero.mp -= 1
    return [
        Event(kind="revisit", text=f"{seat_name(seat)} Visits {spec.label()} again.", data={}),
        *visit(state, hero, hero.field),
    ]


def discover(
    state: Homm3State, seat: int, which: str, pos: tuple[int, int], rotation: int
) -> list[Event]:
    """Spend 1 MP to turn face up a tile next to the hero, rotated as chosen.

    :raises NotYourDecision | WrongPhase | IllegalMove: off turn, no MP, not next to it.
    Rule: homm3turn:what-1-mp-buys, homm3core:placing-and-discovering-tiles
    """
    game = _own_turn(state, seat)
    hero = hero_of(game, seat, which)
    if hero.mp < 1:
        raise IllegalMove("That hero has no Movement Point left.")
    tile = next(
        (t for t in map_board.discoverable(game, hero.field) if tuple(t.pos) == tuple(pos)), None
    )
    if tile is None:
        raise IllegalMove(f"No face-down tile lies at {pos} next to that hero.")
    hero.mp -= 1
    tile.revealed = True
    tile.rotation = rotation
    return [_revealed(game, seat, tile, "discovers")]


def place_tile(
    state: Homm3State, seat: int, which: str, pos: tuple[int, int], rotation: int
) -> list[Event]:
    """Spend 1 MP to place the next Far tile of your pool next to the hero, touching at
    least two tiles, face up.

    :raises NotYourDecision | WrongPhase | IllegalMove: off turn, no MP, empty pool, or a
        position that is not allowed.
    Rule: homm3turn:what-1-mp-buys, homm3core:placing-and-discovering-tiles
    """
    game = _own_turn(state, seat)
    hero = hero_of(game, seat, which)
    if hero.mp < 1:
        raise IllegalMove("That hero has no Movement Point left.")
    if not game.pools.get(seat):
        raise IllegalMove("Your pool of Far tiles is empty.")
    if tuple(pos) not in map_board.placeable(game, hero.field):
        raise IllegalMove(
            f"A tile goes at an empty position next to your hero touching two tiles; {pos} is not one."
        )
    hero.mp -= 1
    tile = PlacedTile(
        pos=pos, kind="far", tile=game.pools[seat].pop(0), revealed=True, rotation=rotation
    )
    game.tiles.append(tile)
    return [_revealed(game, seat, tile, "places")]


def _revealed(game: MapGame, seat: int, tile: PlacedTile, verb: str) -> Event:
    spec = load_map().tiles[tile.tile]
    return Event(
        kind="tile",
        text=f"{seat_name(seat)} {verb} tile {spec.id} ({spec.kind.capitalize()}) at {tuple(tile.pos)}: "
        + ", ".join(f.label() for f in spec.fields)
        + ".",
        data={"seat": seat, "tile": spec.id, "pos": list(tile.pos), "rotation": tile.rotation},
    )


# ------------------------------------------------------------------ Visiting
def visit(state: Homm3State, hero: MapHero, field: str) -> list[Event]:
    """Visit ``field`` with ``hero``: Visitable Fields take a Black Cube and give their
    reward, Flaggable ones take the Faction Cube, revisitable ones act each time.

    Rule: homm3core:location-categories, homm3core:mines, homm3core:settlements, homm3core:towns,
        homm3core:map-symbols"""
    game = game_of(state)
    spec = map_board.field_spec(game, field)
    seat = hero.seat
    hero.last = field
    if spec is None:
        return []
    mark = _mark(game, field)
    kind = spec.kind
    if kind in VISITABLE:
        if mark.visited:
            return []
        mark.visited = True
        steps: dict[str, list[dict[str, object]]] = {
            "resource": [{"step": "resource_dice", "count": 1}],
            "treasure": [{"step": "treasure_dice", "count": 1}],
            "artifact": [{"step": "search", "deck": "artifact", "amount": 2, "optional": True}],
            "shrine": [{"step": "search", "deck": "spell", "amount": 2, "optional": True}],
            "learning_stone": [{"step": "experience", "amount": 1}] if hero.main else [],
            "temple": [{"step": "morale", "amount": 1}],
        }
        push(state, seat, steps[kind])
        return [
            Event(
                kind="visit",
                text=f"{seat_name(seat)} Visits the {spec.label()} and puts a Black Cube on it.",
                data={"seat": seat, "field": field, "kind": kind},
            ),
            *effects.run(state),
        ]
    if kind == "stables":
        hero.mp += 1
        hero.gained += 1
        return [
            Event(
                kind="visit",
                text=f"{seat_name(seat)}'s hero gains 1 Movement Point for this turn at the Stables.",
                data={"seat": seat, "field": field, "kind": kind},
            )
        ]
    if kind == "trading_post":
        push(state, seat, [{"step": "trade"}])
        return effects.run(state)
    if kind in FLAGGABLE:
        return _flag(state, seat, field, spec.kind, spec.resource)
    return []


def _owner_of_town(game: MapGame, field: str) -> int | None:
    for seat, pos in enumerate(t.pos for t in game.tiles if t.kind == "start"):
        if map_board.tile_fields(pos)[0] == field:
            return seat
    return None


def _flag(state: Homm3State, seat: int, field: str, kind: str, resource: str | None) -> list[Event]:
    game = game_of(state)
    mark = _mark(game, field)
    if mark.flag == seat:
        return []
    previous = mark.flag
    first = not mark.flagged_once
    events: list[Event] = []
    if previous is not None and mark.resource:
        lost = mark.resource
        _income_step(state, previous, lost, -1)
        events.append(
            Event(
                kind="income",
                text=f"{seat_name(previous)} loses a tier of {RESOURCE_NAMES[lost]} income.",
                data={"seat": previous},
            )
        )
    mark.flag = seat
    mark.flagged_once = True
    events.append(
        Event(
            kind="flag",
            text=f"{seat_name(seat)} flags the {kind.replace('_', ' ').capitalize()} at {field}"
            + (f" (taking it from {seat_name(previous)})" if previous is not None else "")
            + ".",
            data={"seat": seat, "field": field, "kind": kind},
        )
    )
    if kind == "mine":
        assert resource is not None
        mark.resource = resource
        _income_step(state, seat, resource, 1)
        if first:
            effects.add_resources(state.player(seat), resource, BASIC_INCOME[resource])
        events.append(
            Event(
                kind="income",
                text=f"{seat_name(seat)}'s {RESOURCE_NAMES[resource]} income rises by {BASIC_INCOME[resource]}"
                + (f" and {BASIC_INCOME[resource]} are gained now." if first else "."),
                data={"seat": seat, "resource": resource},
            )
        )
    elif kind == "settlement":
        mark.resource = None
        options = [
            f"Raise {RESOURCE_NAMES[r]} income (+{BASIC_INCOME[r]})"
            + (" and gain it now" if first else "")
            for r in BASIC_INCOME
        ]
        data: list[dict[str, object]] = [{"resource": r} for r in BASIC_INCOME]
        for unit in state.player(seat).army:
            card = load_content().units[unit.unit]
            if not unit.pack and card.tier in ("bronze", "silver"):
                cost = 0 if first else -(-card.reinforce.gold // 2)
                if state.player(seat).resources.gold >= cost:
                    options.append(f"Reinforce {card.name} ({cost} Gold)")
                    data.append({"reinforce": unit.unit, "gold": cost})
        state.choice[seat] = Choice(
            kind="settlement",
            prompt=f"{seat_name(seat)} flags a Settlement: raise an income or Reinforce a unit.",
            options=options,
            data={"field": field, "first": first, "picks": data},
        )
    elif kind == "town":
        owner = _owner_of_town(game, field)
        if owner is not None and owner != seat:
            if owner not in game.cubes.setdefault(seat, []):
                game.cubes[seat].append(owner)
            events.append(
                Event(
                    kind="town_taken",
                    text=f"{seat_name(seat)} takes {seat_name(owner)}'s Town and a Faction Cube of theirs.",
                    data={"seat": seat, "owner": owner},
                )
            )
            events += check_end(state, round_over=False)
    return events


def _income_step(state: Homm3State, seat: int, resource: str, tiers: int) -> None:
    income = state.player(seat).income
    setattr(income, resource, max(0, getattr(income, resource) + tiers * BASIC_INCOME[resource]))


def answer_settlement(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """The Settlement's choice: a tier of income (paid at once on its first flag), or a
    Reinforcement of a Bronze or Silver Few (free on the first flag, else half its Gold
    rounded up).

    Rule: homm3core:settlements"""
    pick = choice.data["picks"][index]
    game = game_of(state)
    player = state.player(seat)
    if "resource" in pick:
        resource = str(pick["resource"])
        _mark(game, choice.data["field"]).resource = resource
        _income_step(state, seat, resource, 1)
        if choice.data["first"]:
            effects.add_resources(player, resource, BASIC_INCOME[resource])
        return [
            Event(
                kind="income",
                text=f"{seat_name(seat)}'s Settlement raises the {RESOURCE_NAMES[resource]} income.",
                data={"seat": seat},
            )
        ]
    unit = next(u for u in player.army if u.unit == pick["reinforce"])
    player.resources.gold -= int(pick["gold"])
    unit.pack = True
    return [
        Event(
            kind="reinforce",
            text=f"{seat_name(seat)} Reinforces {load_content().units[unit.unit].name} at the Settlement.",
            data={"seat": seat},
        )
    ]


def hire_hero(state: Homm3State, seat: int, field: str) -> list[Event]:
    """Population Token: pay 10 Gold for a Secondary hero placed on a Town or Settlement
    you flag (one at a time; no muster with that use of the token).

    :raises IllegalMove | WrongPhase: token spent, Gold short, one already, bad Field.
    Rule: homm3turn:population-token, homm3core:secondary-heroes
    """
    game = town_time(state, seat)
    player = state.player(seat)
    if not player.tokens.population:
        raise IllegalMove("Your Population Token is spent this round.")
    if any(h.seat == seat and not h.main for h in game.heroes):
        raise IllegalMove("You can have only one Secondary hero at a time.")
    if player.resources.gold < HIRE_GOLD:
        raise IllegalMove(f"A Secondary hero costs {HIRE_GOLD} Gold.")
    if field not in hire_fields(state, seat):
        raise IllegalMove("Place the Secondary hero on a free Town or Settlement you flag.")
    player.tokens.population = False
    player.resources.gold -= HIRE_GOLD
    mp = SECONDARY_MP if game.active == seat else 0
    game.heroes.append(MapHero(seat=seat, main=False, field=field, last=field, mp=mp))
    return [
        Event(
            kind="hire_hero",
            text=f"{seat_name(seat)} hires a Secondary hero at {field} for {HIRE_GOLD} Gold.",
            data={"seat": seat, "field": field},
        )
    ]


def hire_fields(state: Homm3State, seat: int) -> list[str]:
    """Towns and Settlements ``seat`` flags with no hero on them.

    Rule: homm3core:secondary-heroes"""
    game = game_of(state)
    out = []
    for field, mark in sorted(game.marks.items()):
        spec = map_board.field_spec(game, field)
        home = spec is not None and spec.kind in ("town", "settlement")
        if mark.flag == seat and home and not heroes_on(game, field):
            out.append(field)
    return out


def town_time(state: Homm3State, seat: int) -> MapGame:
    """Check that ``seat`` may take a Town action now: any player's turn, never during a
    Combat nor while a choice is open (it would interrupt another action).

    :raises WrongPhase: otherwise.
    Rule: homm3turn:when-you-can-use-them"""
    game = game_of(state)
    if state.phase != "map":
        raise WrongPhase("The game is over.")
    if state.board is not None:
        raise WrongPhase("Town actions cannot be taken during a Combat.")
    if state.choice or any(state.queue.values()):
        raise WrongPhase("Town actions cannot interrupt another action.")
    if seat in game.eliminated:
        raise WrongPhase("You are out of the game.")
    return game


# ------------------------------------------------------------------ the end
def eliminate(state: Homm3State, seat: int, why: str) -> list[Event]:
    """Remove ``seat`` from the game: its heroes leave the map and its cards are out.

    Rule: homm3core:elimination"""
    game = game_of(state)
    if seat in game.eliminated:
        return []
    game.eliminated.append(seat)
    game.reacting = [s for s in game.reacting if s != seat]
    game.heroes = [h for h in game.heroes if h.seat != seat]
    state.choice.pop(seat, None)
    state.queue.pop(seat, None)
    return [
        Event(
            kind="eliminated", text=f"{seat_name(seat)} is eliminated: {why}.", data={"seat": seat}
        )
    ]


def check_end(state: Homm3State, *, round_over: bool) -> list[Event]:
    """End the scenario: a seat holding the enemy Town (two players) or a Faction Cube of
    every enemy (three) wins at the end of the round; eliminating every enemy wins at once;
    after the last round the game is a draw.

    Rule: homm3core:victory-conditions, homm3core:elimination"""
    game = game_of(state)
    seats = living_seats(state)
    if len(seats) == 1:
        return _finish(state, seats, f"{seat_name(seats[0])} has eliminated every enemy.")
    winners = [
        s for s in seats if all(o in game.cubes.get(s, []) for o in range(state.players) if o != s)
    ]
    if state.players == 2:
        winners = [s for s in seats if _holds_enemy_town(game, s)]
    if winners and round_over:
        names = " and ".join(seat_name(s) for s in winners)
        return _finish(
            state,
            winners,
            f"{names} fulfil the victory condition ({'the enemy Town' if state.players == 2 else 'a Faction Cube of every enemy'}).",
        )
    if round_over and state.round >= game.rounds:
        return _finish(
            state, [], f"Round {game.rounds} ends with no winner: the scenario is a draw."
        )
    return []


def enemy_towns(state: Homm3State, seat: int) -> list[str]:
    """The Town Fields of the other seats still in the game that ``seat`` does not flag.

    Rule: homm3core:towns"""
    game = game_of(state)
    out = []
    for owner, tile in enumerate(t for t in game.tiles if t.kind == "start"):
        town = map_board.tile_fields(tile.pos)[0]
        mark = game.marks.get(town)
        if owner != seat and owner not in game.eliminated and (mark is None or mark.flag != seat):
            out.append(town)
    return out


def _holds_enemy_town(game: MapGame, seat: int) -> bool:
    for other_seat, tile in enumerate(t for t in game.tiles if t.kind == "start"):
        if other_seat == seat:
            continue
        town = map_board.tile_fields(tile.pos)[0]
        mark = game.marks.get(town)
        if mark is not None and mark.flag == seat:
            return True
    return False


def _is_home(game: MapGame, field: str) -> bool:
    spec = map_board.field_spec(game, field)
    return spec is not None and spec.kind in ("town", "settlement")


def _finish(state: Homm3State, winners: list[int], reason: str) -> list[Event]:
    state.phase = "over"
    state.winners = winners
    state.reason = reason
    state.choice.clear()
    state.queue.clear()
    return [Event(kind="victory", text=reason, data={"winners": winners})]


def defeated_main(state: Homm3State, seat: int) -> list[Event]:
    """A defeated Main hero goes to a Town or Settlement its player flags; with none left,
    the player is eliminated.

    Rule: homm3core:end-of-combat, homm3core:elimination"""
    game = game_of(state)
    hero = hero_of(game, seat, "main")
    places = hire_fields(state, seat) or [
        f for f, m in sorted(game.marks.items()) if m.flag == seat and _is_home(game, f)
    ]
    if not places:
        return eliminate(state, seat, "its Main hero lost a Combat with no Town or Settlement left")
    hero.field = hero.last = places[0]
    return [
        Event(
            kind="hero_back",
            text=f"{seat_name(seat)}'s Main hero returns to {places[0]}.",
            data={"seat": seat, "field": places[0]},
        )
    ]
