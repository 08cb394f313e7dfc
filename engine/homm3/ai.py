"""The homm3 computer player: a greedy player biased towards progress.

Adventure: resolve or fight the Adventure card of the round, build Dwellings in order (then
the Citadel, the Mage Guild...), recruit the strongest affordable units, then reinforce.
Combat: damage Spells on the weakest enemies, attack buffs before attacking, march towards
the nearest enemy and strike the unit it can hurt most, break Walls that block the way,
and answer attacks with Defense cards. Every command it returns is legal (it is built from
the same checks the rules use).
"""

from __future__ import annotations

import random
from itertools import combinations

from engine.core.errors import NotYourDecision, RuleViolation
from engine.core.model import Command, seat_name
from engine.core.search import material_share
from engine.homm3 import adventure, cardplay, combat_attack, combat_flow, decisions, effects, hexes
from engine.homm3 import combat_core as core
from engine.homm3 import commands as c
from engine.homm3.content import TIER_ORDER, load_content
from engine.homm3.rules import other
from engine.homm3.state import CombatUnit, Homm3State, Resources

BUILD_ORDER = (
    "dwelling_bronze",
    "dwelling_silver",
    "citadel",
    "dwelling_gold",
    "mage_guild",
    "city_hall",
    "brotherhood",
    "blacksmith",
    "amplifier",
    "cover",
    "vortex",
)
RESOURCE_VALUE = {"gold": 1, "materials": 2, "valuables": 4}
OBSTACLE_CHANCE = 0.7
"""How often the computer places an Obstacle when it may (else it passes; two passes in a
row end the placing), so most of its Battlefields have several Obstacles."""


def ai_command(state: Homm3State, seat: int, rng: random.Random) -> Command:
    """Choose a command for ``seat``. :raises NotYourDecision: if it owes nothing.

    Rule: none (computer-player heuristic)"""
    owed = [d for d in decisions.pending(state) if d.seat == seat]
    if not owed:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    kind = owed[0].kind
    if kind.startswith("choose_"):
        return _choose(state, seat, rng)
    if kind == "adventure_turn":
        return _adventure(state, seat, rng)
    if kind == "town_reaction":
        return _town(state, seat) or c.StartCombat()
    if kind == "place_obstacle":
        if rng.random() < OBSTACLE_CHANCE:
            options = combat_flow.legal_obstacles(state)
            if options:
                token, hex_label = rng.choice(options)
                return c.PlaceObstacle(token=token, hex=hex_label)
        return c.PassObstacles()
    if kind == "deploy":
        return _deploy(state, seat, rng)
    if kind == "activate":
        nxt = combat_flow.due(state)
        assert nxt is not None
        best = max(nxt[1], key=lambda u: (core.attack(state, u), -u.number))
        return c.Activate(unit=best.number)
    if kind == "attack_window":
        if rng.random() < 0.1:
            plays = decisions.card_commands(state, seat)
            if plays:
                return rng.choice(plays)
        return _window(state, seat)
    if kind in decisions.CARD_WINDOWS:
        return _answer_window(state, seat, kind, rng)
    if rng.random() < 0.12:
        plays = decisions.card_commands(state, seat) + decisions.morale_commands(state, seat)
        if plays:
            return rng.choice(plays)
    return _activation(state, seat, rng)


# ---------------------------------------------------------------- choices
def _choose(state: Homm3State, seat: int, rng: random.Random) -> Command:
    choice = state.choice[seat]
    kind = choice.kind
    n = len(choice.options)
    allowed = [i for i in range(n) if effects.option_problem(state, seat, choice, i) is None]
    content = load_content()
    player = state.player(seat)
    if kind == "dice_pick":
        faces = choice.data["faces"]
        if choice.data["die"] == "resource":
            best = max(
                range(n),
                key=lambda i: (
                    effects.RESOURCE_FACES[faces[i] - 1][1]
                    * RESOURCE_VALUE[effects.RESOURCE_FACES[faces[i] - 1][0]]
                ),
            )
        else:
            order = {"experience": 3, "resources2": 2, "artifact": 1, "resource": 0}
            best = max(range(n), key=lambda i: order[effects.TREASURE_FACES[faces[i] - 1]])
        return c.Choose(option=best)
    if kind == "astrologers":
        if player.income.materials < 4:
            return c.Choose(option=1)
        if player.income.valuables < 2:
            return c.Choose(option=2)
        return c.Choose(option=rng.choice([0, 3]))
    if kind == "income":
        return c.Choose(
            option=1 if player.income.materials < 4 else 2 if player.income.valuables < 2 else 0
        )
    if kind == "trade":
        trades = choice.data["trades"]
        for i, (give, give_n, get, _get_n) in enumerate(trades):
            if (
                give == "gold"
                and get == "valuables"
                and player.resources.gold >= give_n + 10
                and player.resources.valuables < 4
            ):
                return c.Choose(option=i)
        return c.Choose(option=n - 1)
    if kind in ("remove_card",):
        return c.Choose(option=n - 1)
    if kind in ("adventure_keep", "adventure_keep2"):
        cards = choice.data["cards"]

        def score(i: int) -> float:
            card_id = state.cards[int(cards[i])]
            if card_id in content.combats:
                return 3 + rng.random() if len(player.army) >= 2 else rng.random()
            if card_id in ("tree_of_knowledge",) and player.resources.gold < 14:
                return 0
            if card_id == "warriors_tomb" and player.faction != "necropolis":
                return 0.5
            return 2 + rng.random()

        return c.Choose(option=max(range(n), key=score))
    if kind == "setup_remove":
        return c.Choose(option=rng.randrange(n))
    if kind == "search_pick":
        looked = state.looking.get(seat, [])
        if looked:
            return c.Choose(
                option=max(range(len(looked)), key=lambda i: _card_value(state, looked[i]))
            )
        return c.Choose(option=0)
    if kind == "reroll":
        return c.Choose(option=1)
    if kind == "braced_pikes":
        cards = [int(x) for x in choice.data["cards"]]
        if len(cards) < 3:
            return c.Choose(option=0)
        values = [_card_value(state, x) for x in cards]
        return c.Choose(option=1 + values.index(min(values)))
    if kind == "death_cloud":
        numbers = [int(x) for x in choice.data["units"]]
        foes = [i for i, n in enumerate(numbers) if core.get_unit(state, n).seat != seat]
        return c.Choose(option=1 + foes[0] if foes else 0)
    if kind in ("mana_vortex", "vortex_pick"):
        cards = choice.data.get("cards") or state.looking.get(seat, [])
        if not cards:
            return c.Choose(option=n - 1)
        values = [_card_value(state, int(x)) for x in cards]
        pick = values.index(min(values) if kind == "mana_vortex" else max(values))
        return c.Choose(option=pick)
    if kind == "option":
        return c.Choose(option=rng.choice(allowed) if allowed else 0)
    return c.Choose(option=allowed[0] if allowed else 0)


def _answer_window(state: Homm3State, seat: int, kind: str, rng: random.Random) -> Command:
    """Resistance against a Spell, Resurrection for a unit about to fall, Intelligence (and
    its Spell) at the Combat's start: play the first legal card, else pass."""
    plays = [p for p in decisions.card_commands(state, seat) if isinstance(p, c.Play)]
    if kind == "combat_start":
        opening = core.combat(state).opening
        if opening is not None and opening.cast == seat:
            harmful = [
                p
                for p in plays
                if load_content().cards[state.cards[p.card]].spell is not None
                and p.unit is not None
                and core.get_unit(state, p.unit).seat != seat
            ]
            if harmful or plays:
                return (harmful or plays)[0]
        plays = [p for p in plays if state.cards[p.card] == "intelligence"]
        if plays and rng.random() < 0.8:
            return plays[-1]
        return c.PassWindow()
    return plays[-1] if plays else c.PassWindow()


def _card_value(state: Homm3State, instance: int) -> float:
    card = load_content().cards[state.cards[instance]]
    if (
        card.kind == "spell"
        and card.spell is not None
        and card.spell.effect in ("damage", "chain", "fireball")
    ):
        return 5
    if card.adventure == "aside" and state.phase == "adventure":
        return 4
    if card.kind == "artifact":
        return 3
    return 2 if card.kind == "spell" else 1


# -------------------------------------------------------------- Adventure
def _adventure(state: Homm3State, seat: int, rng: random.Random) -> Command:
    player = state.player(seat)
    content = load_content()
    for card in player.aside:
        spec = content.cards[state.cards[card]]
        for index, expert, effect in spec.effects():
            if effect.effect == "gain" and not expert:
                return c.UseAside(card=card, option=index)
            if effect.effect == "experience" and not expert:
                return c.UseAside(card=card, option=index)
    for card in player.positive:
        if content.positive[state.cards[card]].effect == "gain":
            return c.UseMorale(card=card)
    if not player.resolved_this_round and player.adventure_hand:
        command = _adventure_card(state, seat, rng)
        if command is not None:
            return command
    return _town(state, seat) or c.EndTurn()


def _town(state: Homm3State, seat: int) -> Command | None:
    """The Town action the computer takes now (on its turn or before the final Combat),
    or None."""
    player = state.player(seat)
    content = load_content()
    faction = content.factions[player.faction]
    for building_id in BUILD_ORDER:
        building = faction.get(building_id)
        if building is not None and adventure.can_build(state, seat, building) is None:
            if building_id in ("dwelling_gold",) and len(player.army) < 3:
                continue
            return c.Build(building=building_id)
    if player.tokens.population:
        muster = _muster(state, seat)
        if muster is not None:
            return muster
    if (
        "mage_guild" in player.buildings
        and player.tokens.spellbook
        and player.guild_round != state.round
    ):
        price, _ = adventure.spell_price(state, seat, None)
        if player.resources.gold >= price + 12:
            return c.BuySpell()
    return None


def _adventure_card(state: Homm3State, seat: int, rng: random.Random) -> Command | None:
    content = load_content()
    player = state.player(seat)
    for card in player.adventure_hand:
        card_id = state.cards[card]
        if card_id in content.events:
            if (
                card_id == "tree_of_knowledge"
                and player.resources.gold < 10
                and player.resources.valuables < 3
            ):
                continue
            return c.ResolveEvent(card=card)
        if not player.army:
            continue
        fit = sorted(
            player.army, key=lambda u: (u.paralysed, -content.units[u.unit].side(u.pack).attack)
        )
        units = tuple(u.unit for u in fit[:2])
        power = adventure.combat_power(state, seat, units)
        levels = content.combats[card_id].levels
        level = 1
        for index, spec in enumerate(levels, start=1):
            if power >= spec.power:
                level = index
        return c.FightAdventure(card=card, level=level, units=units)
    return None


def _muster(state: Homm3State, seat: int) -> Command | None:
    player = state.player(seat)
    content = load_content()
    discounts = tuple(d for d in player.aside if adventure.discount_effect(state, d) is not None)
    owned = {u.unit for u in player.army}
    recruit: list[str] = []
    units = sorted(content.faction_units(player.faction), key=lambda u: -TIER_ORDER[u.tier])
    for unit in units:
        if unit.id in owned:
            continue
        trial = (*recruit, unit.id)
        if _affordable(state, seat, trial, (), discounts):
            recruit.append(unit.id)
    reinforce: list[str] = []
    for army in sorted(player.army, key=lambda u: -TIER_ORDER[content.units[u.unit].tier]):
        if army.pack:
            continue
        trial_r = (*reinforce, army.unit)
        if _affordable(state, seat, tuple(recruit), trial_r, discounts):
            reinforce.append(army.unit)
    if not recruit and not reinforce:
        return None
    use = (
        discounts
        if _affordable(state, seat, tuple(recruit), tuple(reinforce), discounts, strict=True)
        else ()
    )
    return c.Muster(recruit=tuple(recruit), reinforce=tuple(reinforce), discount=use)


def _affordable(
    state: Homm3State,
    seat: int,
    recruit: tuple[str, ...],
    reinforce: tuple[str, ...],
    discounts: tuple[int, ...],
    strict: bool = False,
) -> bool:
    player = state.player(seat)
    for use in (discounts,) if strict else ((), discounts):
        try:
            cost = adventure.muster_cost(state, seat, recruit, reinforce, use)
        except RuleViolation:
            continue
        if player.resources.covers(cost.gold, cost.materials, cost.valuables):
            return True
    return False


# ----------------------------------------------------------------- Combat
def _deploy(state: Homm3State, seat: int, rng: random.Random) -> Command:
    combat = core.combat(state)
    waiting = combat_flow.undeployed(state, seat)
    unit = waiting[0]
    spots = combat_flow.deploy_hexes(state, seat)
    side = combat.zones.get(seat) or rng.choice(["west", "east"])
    inner = 1 if side == "west" else hexes.size()[0] - 2
    outer = 0 if side == "west" else hexes.size()[0] - 1
    want = outer if core.kind(unit) == "ranged" else inner
    mine = [h for h in spots if hexes.zone_of(h) == side] or spots
    preferred = [h for h in mine if hexes.column(h) == want] or mine
    centre = hexes.size()[1] // 2
    preferred.sort(key=lambda h: (abs(hexes.row(h) - centre), h))
    return c.Deploy(unit=unit.number, hex=preferred[0])


def _expected(state: Homm3State, att: CombatUnit, tgt: CombatUnit) -> int:
    return max(0, core.attack(state, att, tgt) - core.defense(state, tgt))


def _remaining(unit: CombatUnit) -> int:
    return core.health(unit) - unit.damage + (0 if not unit.pack else core.base(unit)[2])


def _target_score(state: Homm3State, att: CombatUnit, tgt: CombatUnit) -> tuple[int, int, int]:
    dmg = _expected(state, att, tgt)
    kills = 1 if dmg >= core.health(tgt) - tgt.damage else 0
    return (
        kills,
        dmg * 10 + core.tier(tgt),
        -tgt.number,
    )


def _window(state: Homm3State, seat: int) -> Command:
    combat = core.combat(state)
    window = combat.window
    assert window is not None
    mine = window.attacker if core.get_unit(state, window.attacker).seat == seat else window.target
    want = "attack" if mine == window.attacker else "defense"
    player = state.player(seat)
    content = load_content()
    for card in player.hand:
        spec = content.cards[state.cards[card]]
        for index, expert, effect in spec.effects():
            if (
                expert
                or effect.timing != "instant"
                or effect.effect not in ("stat", "spec_stat")
                or effect.stat != want
            ):
                continue
            cmd = c.Play(card=card, option=index, unit=mine)
            if cardplay.allowed(state, seat, cmd):
                return cmd
    return c.PassWindow()


def _spell(state: Homm3State, seat: int, unit: CombatUnit) -> Command | None:
    if core.spells_left(state, seat) <= 0:
        return None
    player = state.player(seat)
    content = load_content()
    foes = [u for u in core.living(state, other(seat), tower=False) if u.hex]
    if not foes:
        return None
    helpers = tuple(
        h
        for h in player.hand
        if content.cards[state.cards[h]].kind != "spell"
        and any(
            e.timing == "power" and not x for _i, x, e in content.cards[state.cards[h]].effects()
        )
    )
    for card in list(player.hand) + list(player.scroll):
        spec = content.cards[state.cards[card]]
        if spec.kind != "spell" or spec.spell is None:
            continue
        effect = spec.spell.effect
        if effect not in ("damage", "chain", "paralyse"):
            continue
        targets = sorted(
            foes,
            key=lambda f: (
                -core.tier(f),
                f.number,
            ),
        )
        for target in targets:
            for power in (helpers, ()):
                cmd = c.Play(card=card, unit=target.number, power=power)
                if cardplay.allowed(state, seat, cmd):
                    return cmd
    return None


def _buff(state: Homm3State, seat: int, unit: CombatUnit) -> Command | None:
    player = state.player(seat)
    content = load_content()
    for card in player.hand:
        spec = content.cards[state.cards[card]]
        for index, expert, effect in spec.effects():
            if expert and player.experts < 1:
                continue
            if (
                effect.effect in ("stat", "spec_stat")
                and effect.stat == "attack"
                and effect.timing == "instant"
            ):
                cmd = c.Play(card=card, option=index, unit=unit.number)
                if cardplay.allowed(state, seat, cmd):
                    return cmd
    return None


def _activation(state: Homm3State, seat: int, rng: random.Random) -> Command:
    combat = core.combat(state)
    unit = combat_attack.active_unit(state, seat)
    if combat.attacks:
        return c.EndActivation()
    for card in state.player(seat).positive:
        spec = load_content().positive[state.cards[card]]
        if spec.effect in ("draw", "gain", "gain_expert"):
            return c.UseMorale(card=card)
    spell = _spell(state, seat, unit)
    if spell is not None and rng.random() < 0.8:
        return spell
    foes = [f for f in core.living(state, other(seat)) if f.hex is not None or f.unit == core.TOWER]
    if core.kind(unit) == "ranged":
        if combat.acted:
            return c.EndActivation()
        options = combat_attack.targets(state, unit, None)
        if options:
            best = max(options, key=lambda t: _target_score(state, unit, t))
            buff = _buff(state, seat, unit)
            return buff or c.Attack(target=best.number)
        return c.Defend()
    reach = {} if combat.acted else combat_attack.reachable(state, unit)
    choices: list[tuple[tuple[int, int, int], Command]] = []
    for target in combat_attack.targets(state, unit, None):
        choices.append((_target_score(state, unit, target), c.Attack(target=target.number)))
    for hex_label in reach:
        for target in combat_attack.targets(state, unit, hex_label):
            choices.append(
                (_target_score(state, unit, target), c.Attack(target=target.number, hex=hex_label))
            )
    if choices:
        choices.sort(key=lambda x: x[0], reverse=True)
        buff = _buff(state, seat, unit)
        return buff or choices[0][1]
    if unit.hex is None:
        return c.EndActivation()
    board_foes = [f for f in foes if f.hex is not None]
    if combat.siege is not None and combat.siege != seat:
        wall = _wall_attack(state, unit, reach)
        if wall is not None and not _path_exists(state, unit, board_foes):
            return wall
    if reach and board_foes:
        here = min(hexes.distance(unit.hex, f.hex) for f in board_foes if f.hex)
        best_hex = min(
            reach,
            key=lambda h: (min(hexes.distance(h, f.hex) for f in board_foes if f.hex), reach[h], h),
        )
        if min(hexes.distance(best_hex, f.hex) for f in board_foes if f.hex) < here:
            return c.Move(hex=best_hex)
    if combat.siege is not None and combat.siege != seat:
        wall = _wall_attack(state, unit, reach)
        if wall is not None:
            return wall
    return c.Defend()


def _path_exists(state: Homm3State, unit: CombatUnit, foes: list[CombatUnit]) -> bool:
    if core.kind(unit) == "flying" or unit.hex is None:
        return True
    goals = {n for f in foes if f.hex for n in hexes.neighbours(f.hex)}
    seen = hexes.reachable(unit.hex, 99, lambda h: core.empty(state, h, unit.seat))
    return any(g in seen for g in goals)


def _wall_attack(state: Homm3State, unit: CombatUnit, reach: dict[str, int]) -> Command | None:
    combat = core.combat(state)
    if core.kind(unit) == "ranged" or unit.hex is None:
        return None
    spots = [unit.hex, *sorted(reach)]
    for placed in combat.placed:
        if placed.kind not in ("wall", "gate"):
            continue
        for spot in spots:
            if any(hexes.adjacent(spot, h) for h in placed.hexes):
                return c.AttackWall(hex=placed.hexes[0], move=None if spot == unit.hex else spot)
    if combat.acted or not reach:
        return None
    walls = [h for p in combat.placed if p.kind in ("wall", "gate") for h in p.hexes]
    if not walls:
        return None
    best = min(reach, key=lambda h: (min(hexes.distance(h, w) for w in walls), h))
    if min(hexes.distance(best, w) for w in walls) < min(
        hexes.distance(unit.hex, w) for w in walls
    ):
        return c.Move(hex=best)
    return None


__all__ = ["ai_command", "combinations"]


def _unit_worth(unit: str, pack: bool) -> float:
    card = load_content().units.get(unit)
    if card is None:
        return 0.0
    side = card.side(pack)
    return float(TIER_ORDER[card.tier] * (side.attack + side.defense + side.health))


CARD_WORTH = 6.0
"""What one card in the Hand is worth, in `worth` points (a Bronze unit is about 9)."""

BUILDING_WORTH = 6.0
"""What one Town building is worth in the Adventure, in `worth` points: the units it lets
the seat recruit and what it does in the rounds to come."""


def _resource_worth(money: Resources) -> float:
    return (money.gold + 2 * money.materials + 4 * money.valuables) / 4


def worth(state: Homm3State, seat: int) -> float:
    """A seat's material: in a combat, its living units by their printed Attack, Defense
    and Health and tier (a wounded unit at least half: it still attacks in full) and the
    cards in its Hand; outside, its army by the same measure, its resources, its income
    for the Resource rounds still to come, its Town buildings, its Hand and its hero level
    (homm3bf: the side whose deployed units are all defeated loses;
    homm3bf:adventure-mode.round-structure: income in odd rounds).

    Rule: none (a computer player's heuristic, not a rule).
    """
    player = state.player(seat)
    cards = CARD_WORTH * len(player.hand)
    if state.combat is not None and state.combat.stage in ("round", "over"):
        value = cards
        for unit in state.combat.units:
            if unit.seat != seat or not unit.alive:
                continue
            attack, defense, health, _ = core.base(unit)
            full = core.health(unit)
            left = max(0, full - unit.damage)
            value += core.tier(unit) * (attack + defense + health) * (0.5 + 0.5 * left / full)
        return value
    value = cards + sum(_unit_worth(u.unit, u.pack) for u in player.army)
    value += _resource_worth(player.resources) + BUILDING_WORTH * len(player.buildings)
    if state.mode == "adventure" and state.rounds:
        to_come = max(0, state.rounds - state.round + 1) // 2
        value += to_come * _resource_worth(player.income)
    return value + 5.0 * player.level


def evaluate(state: Homm3State, seat: int) -> float:
    """``seat``'s share of the table's `worth`, in [0, 1] (`Ruleset.evaluate`).

    Rule: none (a computer player's heuristic, not a rule).
    """
    return material_share([worth(state, s) for s in range(state.players)], seat)
