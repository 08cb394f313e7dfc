"""The computer player: a simple policy, deterministic given its rng, that makes progress
toward victory points so that games end by the rules.

Rule sections: every decision of mmh (it only ever plays commands the rules accept).

Policy:

* Set-up: a capital with open neighbours; the hero with the most Leadership and Might.
* Action cards: the most useful action now (build when a good building is affordable,
  recruit when a hero in the capital has room and there is gold, activate heroes when
  one has a worthwhile goal, else gather), playing the card whose other action matters least.
* Heroes walk toward the best goal by value over distance: free controllable spaces,
  exploration markers, guarded locations and encounters it expects to beat, weaker enemy
  heroes; home to recruit when the army is small.
* Battles: cards at once on the best target, the elite die whenever allowed (also for an
  encounter marker it controls), Focused Attacks on the weakest enemy stack, the Guardian
  Angel on the first elite-die damage of each exchange, damage on the cheapest stack,
  retreat when clearly losing. Treasure: artefacts first (they are victory points).
* Always takes control of an unguarded location it passes; when Leadership drops, sends
  the weakest creatures back.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from engine.core.errors import NotYourDecision
from engine.core.model import Command, seat_name
from engine.core.search import material_share
from engine.mmh import battle as fight
from engine.mmh import board as geometry
from engine.mmh import decisions, economy, movement, score, setup
from engine.mmh.commands import (
    Activate,
    ArenaRecruitCmd,
    Assign,
    Attack,
    Build,
    ChooseDeck,
    ChooseFields,
    ChooseHero,
    ChooseReward,
    Decline,
    EndAction,
    Explore,
    FightOn,
    GuardianAngel,
    Honor,
    Keep,
    Laurel,
    LevelUp,
    Move,
    PassWindow,
    PlaceCapital,
    PlayAction,
    RaiseCreature,
    RecruitCreature,
    RecruitHero,
    Retreat,
    Search,
    SpendLuck,
    TakeControl,
    Upgrade,
    UseCard,
)
from engine.mmh.common import content, dark_times, week_event
from engine.mmh.content import CONTROLLABLE, EXPLORABLE, EffectKind, Window
from engine.mmh.heroes import has_building, hero_dice, leadership, might, overwhelm
from engine.mmh.state import (
    ArenaRecruit,
    ArtefactSwap,
    ControlChoice,
    DragonVein,
    Hero,
    KeepCard,
    LeadershipCut,
    MmhState,
    Raise,
    Reward,
    ScrollRoom,
    SkillDraw,
    TreasureChoice,
    XpSpend,
)

BUILD_ORDER = (
    "marketplace",
    "town_hall",
    "level",
    "barracks",
    "garrison",
    "hall_of_heroes",
    "war_academy",
    "faction",
    "temple",
    "town_portal",
)
EXPLORE_VALUE: dict[str, float] = {
    "arcane_library": 3,
    "stable": 2,
    "arena": 4,
    "armorsmith": 4,
    "weaponsmith": 8,
    "crystal_of_revelation": 9,
    "dragon_vein": 5,
    "stone_of_enlightenment": 5,
    "dragon_shrine": 5,
}


def ai_command(state: MmhState, seat: int, rng: random.Random) -> Command:
    """Choose a legal command for ``seat``.

    :raises NotYourDecision: if ``seat`` owes nothing.

    Rule: none (the computer player's heuristics).
    """
    owed = [d for d in decisions.pending(state) if d.seat == seat]
    if not owed:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    if state.queue:
        return _prompt(state, seat, rng)
    if state.battle is not None:
        return _battle(state, seat, rng)
    kind = owed[0].kind
    if kind == "place_tile":
        return rng.choice(decisions.legal_commands(state, seat))
    if kind == "place_capital":
        return _capital(state, rng)
    if kind == "choose_hero":
        return _hero_choice(state, seat, rng)
    if state.action is None:
        return _play(state, seat, rng)
    if state.action.kind == "build":
        return _build(state, seat)
    if state.action.kind == "recruit":
        return _recruit(state, seat)
    return _activate(state, seat, rng)


# ====================================================================== set-up
def _capital(state: MmhState, rng: random.Random) -> Command:
    board = geometry.board_of(state)
    best: list[tuple[float, int]] = []
    for space in setup.capital_spaces(state):
        sp = board.space(space)
        score = 0.0 if sp.terrain == "open" else -5.0
        for n in board.neighbours(space):
            terrain = board.space(n).terrain
            score += 1.0 if terrain in ("open", "harbour") else 0.0
        for other in board.spaces:
            if (
                other is not None
                and other.location in CONTROLLABLE
                and board.distance(space, other.index) <= 3
            ):
                score += 1.5
        best.append((score + rng.random() * 0.5, space))
    best.sort(reverse=True)
    return PlaceCapital(space=geometry.space_label(state, best[0][1]))


def _hero_choice(state: MmhState, seat: int, rng: random.Random) -> Command:
    c = content()
    options = state.seats[seat].unused_heroes
    scored = sorted(
        options, key=lambda h: -(c.hero(h).leadership * 2 + c.hero(h).might + rng.random() * 2)
    )
    return ChooseHero(hero=scored[0])


# ====================================================================== action cards
def _play(state: MmhState, seat: int, rng: random.Random) -> Command:
    levels = decisions.level_up_options(state, seat)
    if levels:
        return _best_level_up(state, levels)
    record = state.seats[seat]
    values = {
        "build": _build_value(state, seat),
        "recruit": _recruit_value(state, seat),
        "hero": _hero_value(state, seat),
        "gather": _gather_value(state, seat),
    }
    best: tuple[float, int, str] | None = None
    for card in record.cards:
        if card.used:
            continue
        for action in card.actions:
            other = card.actions[1] if card.actions[0] == action else card.actions[0]
            score = values[action] - 0.3 * values[other] + rng.random() * 0.1
            if best is None or score > best[0]:
                best = (score, card.number, action)
    assert best is not None
    _, number, action = best
    if values[action] <= 0:
        card = min(
            (c for c in record.cards if not c.used), key=lambda c: sum(values[a] for a in c.actions)
        )
        return PlayAction(card=card.number, action="pass")
    if action == "gather" and has_building(state, seat, "town_hall"):
        bonus = "resources" if record.resources < record.gold else "gold"
        return PlayAction(card=number, action="gather", bonus=bonus)
    return PlayAction(card=number, action=action)


def _best_level_up(state: MmhState, options: Sequence[Command]) -> Command:
    for option in options:
        assert isinstance(option, LevelUp)
        hero = state.heroes[option.hero]
        prefer = "might" if might(state, hero) >= content().hero(hero.id).magic else "magic"
        if option.deck == prefer:
            return option
    return options[0]


def _gather_value(state: MmhState, seat: int) -> float:
    gold, resources = economy.gather_income(state, seat)
    return gold + resources


def _next_building(state: MmhState, seat: int) -> str | None:
    record = state.seats[seat]
    options = set(economy.buildable(state, seat))
    c = content()
    for key in BUILD_ORDER:
        if key == "level":
            if "level" in options and record.level < 4:
                return "level"
            continue
        if key == "faction":
            own = [b.id for b in c.faction_buildings(record.faction) if b.faction is not None]
            if own and own[0] in options:
                return own[0]
            continue
        if key in options:
            if key == "hall_of_heroes" and record.gold < 8:
                continue
            return key
    return None


def _build_value(state: MmhState, seat: int) -> float:
    choice = _next_building(state, seat)
    if choice is None:
        return 0.0
    return {"marketplace": 9, "town_hall": 8, "level": 7, "temple": 12}.get(choice, 5)


def _cheapest_recruit(state: MmhState, seat: int) -> int | None:
    record = state.seats[seat]
    best = None
    for hid in record.heroes:
        hero = state.heroes[hid]
        if hero.space is not None or len(hero.army) >= leadership(state, hero):
            continue
        for kind in content().faction_creatures(record.faction):
            if kind.level <= record.level and record.reserve.get(kind.id, 0) > 0:
                cost = economy.creature_cost(state, hero, kind.id, False)
                best = cost if best is None else min(best, cost)
    return best


def _recruit_value(state: MmhState, seat: int) -> float:
    record = state.seats[seat]
    cheapest = _cheapest_recruit(state, seat)
    value = 0.0
    if cheapest is not None and record.gold >= cheapest + 1:
        value = 4 + min(record.gold, 12) / 2
    if (
        has_building(state, seat, "hall_of_heroes")
        and len(record.heroes) < 2
        and record.gold >= economy.hero_cost(state) + 2
    ):
        value = max(value, 9)
    return value


def _hero_value(state: MmhState, seat: int) -> float:
    best = 0.0
    for hid in state.seats[seat].heroes:
        hero = state.heroes[hid]
        if not hero.army:
            continue
        goal = _goal(state, hero)
        if goal is not None:
            best = max(best, goal[0])
    if state.round <= 1:
        best *= 0.6
    return best


# ====================================================================== build / recruit
def _build(state: MmhState, seat: int) -> Command:
    choice = _next_building(state, seat)
    if choice is None:
        return EndAction()
    building = content().building(choice) if choice != "level" else None
    if building is not None and building.either:
        record = state.seats[seat]
        res, _ = economy.building_cost(state, seat, choice)
        pay = "resources" if record.resources >= res and record.resources >= record.gold else "gold"
        if (pay == "gold" and record.gold < res) or (pay == "resources" and record.resources < res):
            pay = "resources" if pay == "gold" else "gold"
        return Build(building=choice, pay=pay)
    return Build(building=choice)


def _recruit(state: MmhState, seat: int) -> Command:
    options = decisions.recruit_options(state, seat)
    record = state.seats[seat]
    heroes = [o for o in options if isinstance(o, RecruitHero)]
    if heroes and len(record.heroes) < 2:
        return heroes[0]
    recruits = [o for o in options if isinstance(o, RecruitCreature)]
    if recruits:
        c = content()

        def strength(o: RecruitCreature) -> tuple[float, int]:
            kind = c.creature(o.creature)
            side = kind.elite if o.elite else kind.basic
            cost = economy.creature_cost(state, state.heroes[o.hero], o.creature, o.elite)
            return (side.might * 2 + (1 if o.elite else 0) - cost * 0.2, kind.level)

        recruits.sort(key=strength, reverse=True)
        return recruits[0]
    upgrades = [o for o in options if isinstance(o, Upgrade)]
    if upgrades and record.gold >= 4:
        return upgrades[0]
    return EndAction()


# ====================================================================== heroes
def _army_power(state: MmhState, hero: Hero) -> tuple[float, float]:
    """(expected damage per exchange, hit points) of a hero's army."""
    c = content()
    damage = min(hero_dice(state, hero), 5) * _p(might(state, hero))
    hp = 0.0
    stacks: dict[str, list[bool]] = {}
    for unit in hero.army:
        stacks.setdefault(unit.creature, []).append(unit.elite)
        kind = c.creature(unit.creature)
        side = kind.elite if unit.elite else kind.basic
        hp += (2 if unit.elite else 1) * (1 + side.resilience)
    for creature, elites in stacks.items():
        kind = c.creature(creature)
        dice = min(len(elites), 5)
        mean_might = sum(kind.elite.might if e else kind.basic.might for e in elites) / len(elites)
        damage += dice * _p(round(mean_might))
        if any(elites):
            damage += 0.5
    return damage, hp


def _p(might_value: int) -> float:
    return max(1, min(7, might_value)) / 8


def _encounter_power(state: MmhState, marker: int) -> tuple[float, float]:
    enc = content().encounter(marker)
    dice = 5 if "battle_fury" in enc.abilities else enc.threat
    damage = min(dice, 5) * _p(enc.might + week_event(state).encounter_might)
    if "annihilator" in enc.abilities:
        damage *= 2
    if enc.elite:
        damage += 0.6
    hp = float(enc.threat + enc.resilience)
    if "regeneration" in enc.abilities:
        hp *= 1.4
    if dark_times(state):
        damage *= 2
        hp *= 2
    return damage, hp


def _beats(
    state: MmhState, hero: Hero, marker: int, power: tuple[float, float, int] | None = None
) -> bool:
    mine, my_hp, push = (
        power if power is not None else (*_army_power(state, hero), overwhelm(state, hero))
    )
    colour = content().encounter(marker).colour
    if push >= movement.overwhelm_needed(state, colour):
        return True
    theirs, their_hp = _encounter_power(state, marker)
    if mine <= 0:
        return False
    return their_hp / mine < 0.55 * (my_hp / max(theirs, 0.1))


def _beats_hero(state: MmhState, hero: Hero, enemy: Hero) -> bool:
    mine, my_hp = _army_power(state, hero)
    theirs, their_hp = _army_power(state, enemy)
    return their_hp / max(mine, 0.1) < 0.5 * (my_hp / max(theirs, 0.1))


_WALKS: dict[tuple[int, bool], tuple[geometry.Board, dict[int, tuple[int, ...]]]] = {}
"""The walking graphs by board (its id, checked against the board kept beside it) and
whether the hero is a Pathfinder: each space's neighbours a hero may step onto."""


def _walk_graph(board: geometry.Board, pathfinder: bool) -> dict[int, tuple[int, ...]]:
    """Each space's neighbours that are neither water nor (unless ``pathfinder``)
    mountains: the steps `_distances` and `_bfs_from` follow (computed once a board)."""
    key = (id(board), pathfinder)
    cached = _WALKS.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    graph: dict[int, tuple[int, ...]] = {}
    for sp in board.spaces:
        if sp is None:
            continue
        graph[sp.index] = tuple(
            n
            for n in board.neighbours(sp.index)
            if board.space(n).terrain != "water"
            and (pathfinder or board.space(n).terrain != "mountain")
        )
    if len(_WALKS) > 64:
        _WALKS.clear()
    _WALKS[key] = (board, graph)
    return graph


def _distances(state: MmhState, hero: Hero) -> dict[int, int]:
    """Steps from the hero to every space he could walk to (encounters and enemy heroes
    end a path; water only from a harbour start is ignored)."""
    board = geometry.board_of(state)
    seat = state.seats[hero.owner]
    start = hero.space if hero.space is not None else seat.capital
    assert start is not None
    dist = {start: 0}
    queue = deque([start])
    graph = _walk_graph(board, content().hero(hero.id).ability == "pathfinder")
    capitals = {s.capital for s in state.seats}
    enemies = {
        h.space for h in state.heroes.values() if h.owner != hero.owner and h.space is not None
    }
    encounters = state.encounters
    while queue:
        space = queue.popleft()
        if space != start and (space in encounters or space in enemies):
            continue
        step = dist[space] + 1
        for n in graph[space]:
            if n in dist or n in capitals:
                continue
            dist[n] = step
            queue.append(n)
    return dist


def _goal(state: MmhState, hero: Hero) -> tuple[float, int, str] | None:
    """The best goal for the hero: (value, space, what) with what in ``walk``,
    ``explore``, ``control``, ``home``."""
    board = geometry.board_of(state)
    dist = _distances(state, hero)
    seat = hero.owner
    best: tuple[float, int, str] | None = None

    def offer(value: float, space: int, what: str) -> None:
        nonlocal best
        d = dist.get(space)
        if d is None:
            return
        score = value / (1 + d / 3)
        if best is None or score > best[0]:
            best = (score, space, what)

    weak = len(hero.army) <= 2
    power = (*_army_power(state, hero), overwhelm(state, hero))
    beaten: dict[int, bool] = {}

    def beats(marker: int) -> bool:
        if marker not in beaten:
            beaten[marker] = _beats(state, hero, marker, power)
        return beaten[marker]

    for space, _d in dist.items():
        sp = board.space(space)
        location = sp.location
        if location in CONTROLLABLE and state.control.get(space) != seat:
            if movement.protected(state, space):
                continue
            vp, gold, res = CONTROLLABLE[location]
            value = vp * 3 + gold + res + 2
            guard = board.guard_of.get(space)
            if guard in state.encounters:
                if weak or not beats(state.encounters[guard]):
                    continue
                value += 2
            offer(value, space, "control")
        elif location in EXPLORABLE and movement.explorable_now(state, space):
            guard = board.guard_of.get(space)
            if guard in state.encounters and (weak or not beats(state.encounters[guard])):
                continue
            offer(EXPLORE_VALUE[location], space, "explore")
        if space in state.encounters and not weak and beats(state.encounters[space]):
            enc = content().encounter(state.encounters[space])
            offer(enc.xp + enc.chests * 2, space, "walk")
    for other in state.heroes.values():
        if (
            other.owner != seat
            and other.space is not None
            and not weak
            and _beats_hero(state, hero, other)
        ):
            offer(7.0, other.space, "walk")
    return best


def _activate(state: MmhState, seat: int, rng: random.Random) -> Command:
    act = movement.activation(state)
    if act is None:
        for hid in movement.activatable(state, seat):
            hero = state.heroes[hid]
            if _goal(state, hero) is not None or (hero.space is not None and len(hero.army) <= 2):
                return Activate(hero=hid)
        return EndAction()
    hero = state.heroes[act.hero]
    here = hero.space
    if here is not None:
        if movement.explorable_now(state, here) and _explore_ok(state, hero, here):
            return Explore()
        if _control_wanted(state, seat, hero, here):
            return TakeControl()
    moves = movement.legal_moves(state, hero)
    weak = len(hero.army) <= 2 and state.seats[seat].gold >= 3
    if weak and here is not None:
        step = _step_home(state, hero, moves)
        if step is not None:
            return step
    goal = _goal(state, hero)
    if goal is not None and moves and act.mp > 0:
        step = _step_toward(state, hero, goal[1], moves, rng)
        if step is not None:
            return step
    return _stop(state, seat)


def _explore_ok(state: MmhState, hero: Hero, space: int) -> bool:
    act = movement.activation(state)
    assert act is not None
    guard = geometry.board_of(state).guard_of.get(space)
    if guard not in state.encounters:
        return True
    marker = state.encounters[guard]
    colour = content().encounter(marker).colour
    routs = overwhelm(state, hero) >= movement.overwhelm_needed(state, colour)
    return (act.battles > 0 or routs) and _beats(state, hero, marker) and len(hero.army) > 2


def _control_wanted(state: MmhState, seat: int, hero: Hero, space: int) -> bool:
    location = geometry.board_of(state).space(space).location
    if location not in CONTROLLABLE or state.control.get(space) == seat:
        return False
    if movement.protected(state, space):
        return False
    return _explore_ok(state, hero, space)


def _step_toward(
    state: MmhState, hero: Hero, goal: int, moves: list[int | None], rng: random.Random
) -> Command | None:
    geometry.board_of(state)
    back = _bfs_from(state, hero, goal)
    options = []
    for dest in moves:
        if dest is None:
            continue
        if dest in state.encounters and dest != goal:
            continue
        if (
            any(h.space == dest and h.owner != hero.owner for h in state.heroes.values())
            and dest != goal
        ):
            continue
        d = back.get(dest)
        if d is None:
            continue
        options.append((d, rng.random(), dest))
    if not options:
        return None
    options.sort()
    here = back.get(hero.space) if hero.space is not None else None
    if here is not None and options[0][0] >= here:
        return None
    return Move(to=geometry.space_label(state, options[0][2]))


def _bfs_from(state: MmhState, hero: Hero, goal: int) -> dict[int, int]:
    board = geometry.board_of(state)
    dist = {goal: 0}
    queue = deque([goal])
    graph = _walk_graph(board, content().hero(hero.id).ability == "pathfinder")
    capitals = {s.capital for s in state.seats}
    while queue:
        space = queue.popleft()
        step = dist[space] + 1
        for n in graph[space]:
            if n in dist or n in capitals:
                continue
            dist[n] = step
            queue.append(n)
    return dist


def _step_home(state: MmhState, hero: Hero, moves: list[int | None]) -> Command | None:
    if None in moves:
        return Move(to="capital")
    capital = state.seats[hero.owner].capital
    assert capital is not None
    board = geometry.board_of(state)
    if capital in moves:
        return Move(to=geometry.space_label(state, capital))
    best = None
    for dest in moves:
        if dest is None or dest in state.encounters:
            continue
        if any(h.space == dest and h.owner != hero.owner for h in state.heroes.values()):
            continue
        d = board.distance(dest, capital)
        if best is None or d < best[0]:
            best = (d, dest)
    here = board.distance(hero.space, capital) if hero.space is not None else 0
    if best is None or best[0] >= here:
        return None
    return Move(to=geometry.space_label(state, best[1]))


def _stop(state: MmhState, seat: int) -> Command:
    options = decisions.legal_commands(state, seat)
    for option in options:
        if isinstance(option, Activate):
            hero = state.heroes[option.hero]
            if _goal(state, hero) is not None:
                return option
    for option in options:
        if isinstance(option, EndAction):
            return option
    moves = [o for o in options if isinstance(o, Move)]
    if moves:
        return moves[0]
    return options[0]


# ====================================================================== battles
def _battle(state: MmhState, seat: int, rng: random.Random) -> Command:
    b = state.battle
    assert b is not None
    if b.step == "honor":
        return Honor(elite_die=True)
    if b.step == "window":
        use = _best_card(state, seat, Window(b.window or "before"))
        return use if use is not None else PassWindow()
    if b.step == "retreat":
        return _retreat_choice(state, seat)
    if b.step == "assign":
        options = fight.assign_options(state)
        return cheapest_assign(state, options)
    if b.step == "negate":
        r = b.roll
        assert r is not None
        hits = sum(1 for f, m in zip(r.dice, r.mights, strict=True) if fight._hit(f, m))
        return SpendLuck(choice="negate" if hits >= 2 else "none")
    if b.step == "luck":
        choices = fight.luck_choices(state)
        r = b.roll
        assert r is not None
        missed = sum(
            1 for i, f in enumerate(r.dice) if not r.rerolled[i] and not fight._hit(f, r.mights[i])
        )
        if "missed" in choices and missed >= 2:
            return SpendLuck(choice="missed")
        return SpendLuck(choice="none")
    if b.step == "laurel":
        assert b.roll is not None
        wreath = fight.laurel_options(state, b.units[b.roll.unit])
        return Laurel(choice="raise" if "raise" in wreath else wreath[0])
    if b.step == "angel":
        return GuardianAngel(use=True)
    unit = b.units[b.order[b.pos]]
    if unit.kind == "hero":
        use = _best_card(state, seat, Window.IN_BATTLE)
        if use is not None:
            return use
    targets = fight.focus_targets(state, unit)
    target = weakest(state, targets) if targets else None
    return Attack(elite=fight.can_elite(state, unit), target=target)


def weakest(state: MmhState, targets: list[int]) -> int:
    """The target marker with the fewest creatures (an encounter marker counts 1).

    Rule: none (the computer player's heuristics).
    """
    b = state.battle
    assert b is not None

    def size(unit_id: int) -> int:
        unit = b.units[unit_id]
        if unit.kind == "stack":
            return len(fight.stack_units(state, unit))
        return 1

    return min(targets, key=size)


def strongest(state: MmhState, targets: list[int]) -> int:
    """The target marker with the most expected hits per attack.

    Rule: none (the computer player's heuristics).
    """
    b = state.battle
    assert b is not None

    def power(unit_id: int) -> float:
        unit = b.units[unit_id]
        mights = fight._dice_mights(state, unit, None)
        return sum(_p(m) for m in mights[:5])

    return max(targets, key=power)


def _best_card(state: MmhState, seat: int, window: Window) -> Command | None:
    options = decisions.card_options(state, seat, window)
    if not options:
        return None
    best_part: dict[str, UseCard] = {}
    for option in options:
        assert isinstance(option, UseCard)
        current = best_part.get(option.card)
        if current is None or (option.part != "primary" and current.part == "primary"):
            best_part[option.card] = option
    choice = next(iter(best_part.values()))
    hero = fight.side_hero(state, fight.side_of_seat(state, seat) or 0)
    assert hero is not None
    abilities = __import__("engine.mmh.heroes", fromlist=["card_abilities"]).card_abilities(
        hero, choice.card
    )
    targets = fight._targets(state, fight.side_of_seat(state, seat) or 0, abilities.primary)
    if targets:
        if abilities.primary.target == "enemy":
            target = strongest(state, targets)
        else:
            target = strongest(state, targets)
        return UseCard(card=choice.card, part=choice.part, target=target)
    return choice


def cheapest_assign(state: MmhState, options: list[tuple[int, str]]) -> Command:
    """Damage on the lowest-level stack, elite creatures flipped first.

    Rule: none (the computer player's heuristics).
    """
    b = state.battle
    assert b is not None
    c = content()

    def cost(option: tuple[int, str]) -> tuple[int, int]:
        unit = b.units[option[0]]
        level = c.creature(unit.creature).level if unit.creature else 0
        return (level, 0 if option[1] == "elite" else 1)

    unit, order = min(options, key=cost)
    return Assign(unit=unit, order=order)


def _retreat_choice(state: MmhState, seat: int) -> Command:
    b = state.battle
    assert b is not None
    side = fight.side_of_seat(state, seat)
    assert side is not None
    hero = fight.side_hero(state, side)
    assert hero is not None
    mine, my_hp = _army_power(state, hero)
    enemy = fight.side_hero(state, 1 - side)
    if enemy is not None:
        theirs, their_hp = _army_power(state, enemy)
    else:
        theirs = their_hp = 0.0
        for unit in b.units:
            if unit.kind == "encounter" and unit.alive and unit.marker is not None:
                d, hp = _encounter_power(state, unit.marker)
                if dark_times(state):
                    d, hp = d / 2, hp / 2
                theirs += d
                their_hp += max(0.5, hp - unit.damage)
    if len(hero.army) > 2 and their_hp / max(mine, 0.1) > 2.5 * (my_hp / max(theirs, 0.1)):
        return Retreat()
    return FightOn()


# ====================================================================== prompts
FIELD_VALUE: dict[str, float] = {
    "artefact": 12,
    "scroll": 3,
    "luck": 2.5,
    "gold": 1,
    "resources": 1.1,
    "xp": 1.3,
}


def _prompt(state: MmhState, seat: int, rng: random.Random) -> Command:
    prompt = state.queue[0]
    hero = state.heroes[prompt.hero]
    c = content()
    if isinstance(prompt, KeepCard):
        if prompt.pile == "scroll":
            return Keep(card=max(prompt.cards, key=lambda s: c.scroll(s).level))
        if prompt.pile == "artefact":
            held = {c.artefact(a).category for a in hero.artefacts}
            fresh = [a for a in prompt.cards if c.artefact(a).category not in held]
            return Keep(card=(fresh or prompt.cards)[0])
        return Keep(card=_best_skill(state, hero, prompt.cards))
    if isinstance(prompt, ArtefactSwap):
        return Keep(card=prompt.new)
    if isinstance(prompt, ScrollRoom):
        return Decline()
    if isinstance(prompt, TreasureChoice):
        options = decisions.legal_commands(state, seat)
        fields = c.treasure(prompt.card).fields

        def value(o: Command) -> float:
            assert isinstance(o, ChooseFields)
            return sum(FIELD_VALUE[fields[f - 1].kind] * fields[f - 1].value for f in o.fields)

        return max(options, key=value)
    if isinstance(prompt, XpSpend):
        options = decisions.legal_commands(state, seat)
        levels = [o for o in options if isinstance(o, LevelUp)]
        return _best_level_up(state, levels) if levels else Decline()
    if isinstance(prompt, SkillDraw):
        options = decisions.legal_commands(state, seat)
        prefer = "might" if might(state, hero) >= c.hero(hero.id).magic else "magic"
        for option in options:
            if isinstance(option, ChooseDeck) and option.deck == prefer:
                return option
        return options[0]
    if isinstance(prompt, DragonVein):
        options = decisions.legal_commands(state, seat)
        for pile in ("artefact", "treasure", "scroll"):
            for option in options:
                if isinstance(option, Search) and option.pile == pile:
                    return option
        return Decline()
    if isinstance(prompt, ArenaRecruit):
        recruits = [
            o for o in decisions.legal_commands(state, seat) if isinstance(o, ArenaRecruitCmd)
        ]
        if not recruits:
            return Decline()
        return max(recruits, key=lambda o: (c.creature(o.creature).level, o.elite))
    if isinstance(prompt, Raise):
        raising = [o for o in decisions.legal_commands(state, seat) if isinstance(o, RaiseCreature)]
        revive = [o for o in raising if o.mode == "revive"]
        if revive or raising:
            return (revive or raising)[0]
        return Decline()
    if isinstance(prompt, ControlChoice):
        return TakeControl()
    if isinstance(prompt, LeadershipCut):
        return decisions.leadership_options(hero, prompt.count)[0]
    assert isinstance(prompt, Reward)
    options = decisions.legal_commands(state, seat)
    for option in options:
        if isinstance(option, ChooseReward) and option.artefact is not None:
            return option
    return options[0]


def _best_skill(state: MmhState, hero: Hero, cards: list[str]) -> str:
    c = content()
    good = {
        EffectKind.OVERWHELM: 5,
        EffectKind.LEADERSHIP: 4,
        EffectKind.MIGHT: 3,
        EffectKind.GATHER_GOLD: 3,
        EffectKind.HERO_DICE: 2,
    }

    def score(card: str) -> float:
        skill = c.skill(card)
        return float(sum(good.get(e.kind, 1) * e.value for e in skill.primary.effects))

    return max(cards, key=score)


VP_WORTH = 10.0
"""What one victory point is worth against gold, resources and armies (a search's
estimate; a VP lead is what wins, mmh:game-goal)."""

INCOME_WORTH = 2.0
"""What one gold or resource of a Gather Resources action is worth (income to come:
a seat gathers a few more times before the game ends)."""

REACH_WORTH = 0.5
"""The share of a controllable location's worth counted for a hero who can take it (it
is his best goal, guard beaten), before the distance discount ``1 / (1 + steps / 3)``."""


def _invested(state: MmhState, seat: int) -> float:
    """What the seat's capital has cost: every building's price and each capital level
    raised (mmh:course-of-play.build), so that building is not counted as a loss."""
    c = content()
    record = state.seats[seat]
    value = float(sum(c.building(b).resources + c.building(b).gold for b in record.buildings))
    levels = c.faction(record.faction).capital
    value += sum(levels[i].resources for i in range(1, min(record.level, len(levels))))
    return value


def _prospects(state: MmhState, seat: int) -> float:
    """Victory points to come: for each of the seat's heroes with an army, the best
    controllable location he can reach and take (not the seat's, not protected, its
    guard beaten: the easy player's own test), worth its VP and income, discounted by the
    steps to it (mmh:course-of-play.activate-hero)."""
    board = geometry.board_of(state)
    total = 0.0
    for hid in state.seats[seat].heroes:
        hero = state.heroes[hid]
        if len(hero.army) <= 2:
            continue
        power = (*_army_power(state, hero), overwhelm(state, hero))
        beaten: dict[int, bool] = {}
        best = 0.0
        for space, steps in _distances(state, hero).items():
            location = board.space(space).location
            if location not in CONTROLLABLE or state.control.get(space) == seat:
                continue
            if movement.protected(state, space):
                continue
            guard = board.guard_of.get(space)
            if guard in state.encounters:
                marker = state.encounters[guard]
                if marker not in beaten:
                    beaten[marker] = _beats(state, hero, marker, power)
                if not beaten[marker]:
                    continue
            vp, gold, res = CONTROLLABLE[location]
            best = max(best, (VP_WORTH * vp + INCOME_WORTH * (gold + res)) / (1 + steps / 3))
        total += REACH_WORTH * best
    return total


def worth(state: MmhState, seat: int) -> float:
    """A seat's standing: its victory points, most of all; then what it has (gold,
    resources, what its capital cost), its income to come (`INCOME_WORTH` a gold or
    resource of Gather Resources), every hero's army (hit points and expected damage, at
    home as well as on the board) and the victory points in its heroes' reach
    (`_prospects`).

    Rule: none (a computer player's heuristic, not a rule).
    """
    place = state.seats[seat]
    value = VP_WORTH * score.vp(state, seat) + place.gold + place.resources
    value += _invested(state, seat)
    gold, resources = economy.gather_income(state, seat)
    value += INCOME_WORTH * (gold + resources)
    for hid in place.heroes:
        hero = state.heroes[hid]
        if hero.army:
            damage, hp = _army_power(state, hero)
            value += damage + hp
    return value + _prospects(state, seat)


def evaluate(state: MmhState, seat: int) -> float:
    """``seat``'s share of the table's `worth`, in [0, 1] (`Ruleset.evaluate`).

    Rule: none (a computer player's heuristic, not a rule).
    """
    return material_share([worth(state, s) for s in range(state.players)], seat)
