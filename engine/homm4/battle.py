"""Battles: deployment, Phases and Rounds, attacks, support, grouping, defense, regrouping,
counterattacks, Town walls, hero spells, Hero Retreat and Surrender.

Rule sections: homm4:battles (every sub-section, Battles in Towns included),
homm4:heroes-levels-skills-and-spells.heroes-in-battle, ...casting-spells, ...mana.

Pure functions on the working `Homm4State` (`Ruleset.apply` passes a private copy). The
adventure layer calls exactly: `begin_battle`, `battle_pending`, `battle_legal`,
`battle_default`, `apply_battle_command` (which returns a `BattleOutcome` when the battle
ends) and `battle_view`. All card bookkeeping happens here: killed cards go to their
owner's discard pile at once (a killed hero with its whole inventory), cast Spell cards
wait in ``state.limbo`` until the battle ends, empty Armies are removed at the end.

Sides are 0 (the Attacker) and 1 (the Defender); `Battle.attacker` / `Battle.defender`
are the seats commanding them (a Guard Stack's controller for a Guard). Creatures are
numbered from 1 in deployment order. The rules readings are listed in the "Rules
readings: battles and heroes" section of ``engine/homm4/README.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.core.errors import IllegalMove, InvalidInput, NotYourDecision, WrongPhase
from engine.core.model import Command, Decision, Event, seat_name
from engine.homm4 import heroes, payment, zones
from engine.homm4.cards import (
    EffectKind,
    Flying,
    HeroCard,
    IgnoresObstacles,
    MultiTarget,
    NoCounter,
    ShootsTwice,
    SpellCard,
    Spellcaster,
    SpellTarget,
    StrikesTwice,
    UnitCard,
    UnlimitedCounter,
)
from engine.homm4.commands import (
    AnswerSurrender,
    Attack,
    CastSpell,
    Counterattack,
    Defend,
    Deploy,
    FillFront,
    Group,
    OfferSurrender,
    Regroup,
    Retreat,
    StackOrder,
    SupportCreature,
)
from engine.homm4.hexes import Hex, column_name, distance, to_offset
from engine.homm4.state import (
    Army,
    AttackRecord,
    Battle,
    Creature,
    Fallen,
    Homm4State,
    Site,
    StatMod,
    Support,
)
from engine.homm4.views import AttackView, BattleView, CardRef, CreatureView

Side = Literal[0, 1]
Mode = Literal["melee", "ranged", "spell"]

MAX_CREATURES = 7
"""At most 7 Creatures / Creature Stacks per side (homm4:battles.tactical-deployment)."""
FRONT_MINIMUM = 3
"""Different Creatures needed on the Melee Line to use the Ranged Line."""
PHASES = 10
"""Phases per Round (homm4:battles.phases-and-rounds)."""
TOWN_DEFENSE = 10
"""The Town card's defense (homm4:battles, Battles in Towns)."""
RETREAT_DISTANCE = 4
"""Heroes may not retreat within this many hexes of their nearest Town."""
WALL_FRONT = {"none": FRONT_MINIMUM, "intact": 0, "breach": 1, "sack": 2}
"""Creatures a Town's defender must keep on the front line, by the walls' state."""

BATTLE_COMMANDS: tuple[str, ...] = (
    "deploy",
    "attack",
    "support",
    "group",
    "defend",
    "regroup",
    "cast_spell",
    "counterattack",
    "fill_front",
    "retreat",
    "offer_surrender",
    "answer_surrender",
)
"""Every command type a battle decision may be answered with."""


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


# ===================================================================== lookups
def _battle(state: Homm4State) -> Battle:
    if state.battle is None:
        raise WrongPhase("No battle is being fought now.")
    return state.battle


def side_seat(battle: Battle, side: int) -> int:
    """Return the seat commanding ``side`` (0 attacker, 1 defender)."""
    return battle.attacker if side == 0 else battle.defender


def _other(side: int) -> Side:
    return 1 if side == 0 else 0


def _label(state: Homm4State, where: Hex) -> str:
    col, row = to_offset(where)
    origin = state.label_origin
    return f"{column_name(col - origin[0])}{row - origin[1] + 1}"


def _side_name(battle: Battle, side: int) -> str:
    if side == 1 and battle.defender_kind == "guard":
        return f"the Guard ({seat_name(battle.defender)})"
    return seat_name(side_seat(battle, side))


def creature(state: Homm4State, number: int) -> Creature:
    """Return battle Creature ``number``.

    :raises IllegalMove: if no living Creature has that number.
    """
    for found in _battle(state).creatures:
        if found.id == number:
            return found
    raise IllegalMove(f"There is no Creature {number} on the battlefield.")


def creatures_of(state: Homm4State, side: int) -> list[Creature]:
    """Return ``side``'s living Creatures, by number."""
    return [c for c in _battle(state).creatures if c.side == side]


def _line(state: Homm4State, side: int, line: str) -> list[Creature]:
    return [c for c in creatures_of(state, side) if c.line == line]


def _is_hero(state: Homm4State, cr: Creature) -> bool:
    return isinstance(zones.card(state, cr.cards[0]), HeroCard)


def _unit(state: Homm4State, cr: Creature) -> UnitCard | None:
    found = zones.card(state, cr.cards[0])
    return found if isinstance(found, UnitCard) else None


def _has(state: Homm4State, cr: Creature, kind: type[Any]) -> bool:
    unit = _unit(state, cr)
    return unit is not None and any(isinstance(a, kind) for a in unit.abilities)


def _spellcaster(state: Homm4State, cr: Creature) -> Spellcaster | None:
    unit = _unit(state, cr)
    if unit is None:
        return None
    return next((a for a in unit.abilities if isinstance(a, Spellcaster)), None)


def _flies(state: Homm4State, cr: Creature) -> bool:
    """Whether the creature ignores Obstacles (Flying or IgnoresObstacles)."""
    return _has(state, cr, Flying) or _has(state, cr, IgnoresObstacles)


def _multi_target(state: Homm4State, cr: Creature) -> int:
    unit = _unit(state, cr)
    if unit is None:
        return 1
    found = next((a for a in unit.abilities if isinstance(a, MultiTarget)), None)
    return found.targets if found is not None else 1


def card_level(state: Homm4State, instance: int) -> int:
    """Return a card's level: a Unit's printed level, a Hero's level from its inventory."""
    found = zones.card(state, instance)
    if isinstance(found, HeroCard):
        return heroes.hero_level(state, instance)
    if isinstance(found, UnitCard):
        return found.level
    return 0


def phase_of(state: Homm4State, cr: Creature) -> int:
    """Return the Phase a Creature acts in: its top card's (homm4:battles.phases-and-rounds)."""
    found = zones.card(state, cr.cards[0])
    if isinstance(found, HeroCard | UnitCard):
        return found.phase
    return PHASES


def _name(state: Homm4State, cr: Creature) -> str:
    top = zones.name(state, cr.cards[0])
    extra = len(cr.cards) - 1
    suffix = f" (+{extra})" if extra else ""
    return f"[{cr.id}] {top}{suffix}"


# ===================================================================== values
def _side_heroes(state: Homm4State, side: int) -> list[int]:
    return [c.cards[0] for c in creatures_of(state, side) if _is_hero(state, c)]


def side_bonus(state: Homm4State, side: int, kind: EffectKind) -> int:
    """Return the ``army_*`` bonus ``side``'s Creatures get: the best single living hero's
    value among the side's deployed heroes (homm4:...starting-skills-of-heroes)."""
    return heroes.army_effect(state, _side_heroes(state, side), kind)


def _mods(cr: Creature, stat: str) -> int:
    return sum(m.amount for m in cr.mods if m.stat == stat)


def stack_bonus(state: Homm4State, cr: Creature) -> int:
    """Return the levels of every card under the top card (homm4:battles.making-a-melee-attack:
    three Golden Golems attack at 3 + 2 + 2 = 7)."""
    return sum(card_level(state, c) for c in cr.cards[1:])


def support_value(state: Homm4State, cr: Creature) -> int:
    """Return the Support value: the sum of the stack's levels (a hero: its level)
    (homm4:battles.making-support: three Golden Golems 2 x 3 = 6)."""
    return sum(card_level(state, c) for c in cr.cards)


def melee_value(state: Homm4State, cr: Creature) -> int:
    """Return the top card's Melee attack with hero skills, army bonus and spells (>= 0)."""
    top = cr.cards[0]
    found = zones.card(state, top)
    base = (
        heroes.hero_melee(state, top) if isinstance(found, HeroCard) else _printed(found, "melee")
    )
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_MELEE) + _mods(cr, "melee")
    return max(0, total)


def ranged_value(state: Homm4State, cr: Creature) -> int:
    """Return the top card's Ranged attack with bonuses; 0 when the printed value is 0
    (a creature with Ranged 0 can never shoot, homm4:battles.making-a-ranged-attack)."""
    top = cr.cards[0]
    found = zones.card(state, top)
    base = (
        heroes.hero_ranged(state, top) if isinstance(found, HeroCard) else _printed(found, "ranged")
    )
    if base <= 0:
        return 0
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_RANGED) + _mods(cr, "ranged")
    return max(0, total)


def _printed(found: Any, stat: str) -> int:
    return int(getattr(found, stat, 0))


def card_defense(state: Homm4State, cr: Creature, instance: int) -> int:
    """Return one card's Defense in ``cr``: printed (hero: with its skills) + army bonus +
    spells + its level while the Creature defends (homm4:battles.defense: Golden Golem 7 -> 9)."""
    found = zones.card(state, instance)
    if isinstance(found, HeroCard):
        base = heroes.hero_defense(state, instance)
    else:
        base = _printed(found, "defense")
    total = base + side_bonus(state, cr.side, EffectKind.ARMY_DEFENSE) + _mods(cr, "defense")
    if cr.defending:
        total += card_level(state, instance)
    return max(0, total)


def target_defense(state: Homm4State, cr: Creature, count: int) -> int:
    """Return the summed Defense of the top ``count`` cards (a Mass attack,
    homm4:battles.making-a-melee-attack)."""
    return sum(card_defense(state, cr, c) for c in cr.cards[:count])


# ====================================================================== reach
def _walls_block_flyers(battle: Battle, cr: Creature) -> bool:
    return battle.defender_kind == "town" and cr.side == 0 and battle.walls == "intact"


def can_melee(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` may make a Melee attack now: from the front line; from the back line
    when it ignores Obstacles or sallies from a Town (it then moves to the front line)."""
    battle = _battle(state)
    if cr.line == "melee":
        return True
    if _flies(state, cr):
        return True
    return battle.defender_kind == "town" and cr.side == 1


def melee_targets(state: Homm4State, cr: Creature) -> list[int | Literal["walls"]]:
    """Return the Creature numbers (and ``"walls"``) ``cr`` may hit in Melee.

    Front-line enemies; back-line enemies too for creatures that ignore Obstacles, except
    the attacker's while a Town's walls are intact; the Town card while its walls stand
    (attacker only; homm4:battles, Battles in Towns).
    """
    battle = _battle(state)
    if not can_melee(state, cr):
        return []
    enemy = _other(cr.side)
    found: list[int | Literal["walls"]] = [c.id for c in _line(state, enemy, "melee")]
    if _flies(state, cr) and not _walls_block_flyers(battle, cr):
        found.extend(c.id for c in _line(state, enemy, "ranged"))
    if cr.side == 0 and battle.defender_kind == "town" and battle.walls in ("intact", "breach"):
        found.append("walls")
    return found


def ranged_targets(state: Homm4State, cr: Creature) -> list[int]:
    """Return the enemies ``cr`` may shoot: any, from either line, if its Ranged value > 0."""
    if ranged_value(state, cr) <= 0:
        return []
    return [c.id for c in creatures_of(state, _other(cr.side))]


def spell_targets(state: Homm4State, cr: Creature) -> list[int]:
    """Return the enemies a spellcasting unit may hit with its spell attack: any enemy."""
    if _spellcaster(state, cr) is None:
        return []
    return [c.id for c in creatures_of(state, _other(cr.side))]


def _reach(state: Homm4State, cr: Creature) -> tuple[bool, bool, bool]:
    """(front line, back line, walls): what ``cr`` could attack itself now, which limits
    its Support (homm4:battles.making-support, Suitable target)."""
    battle = _battle(state)
    shoots = ranged_value(state, cr) > 0 or _spellcaster(state, cr) is not None
    melee = can_melee(state, cr)
    front = shoots or melee
    back = shoots or (melee and _flies(state, cr) and not _walls_block_flyers(battle, cr))
    walls = (
        melee
        and cr.side == 0
        and battle.defender_kind == "town"
        and battle.walls in ("intact", "breach")
    )
    return front, back, walls


# ================================================================ front lines
def front_required(state: Homm4State, side: int) -> int:
    """Return how many Creatures ``side`` must keep on the Melee Line (capped by its size).

    Three normally (homm4:battles.tactical-deployment); a Town's defender needs none while
    the walls are intact, one after a Breach and two after a Sack (Battles in Towns).
    """
    battle = _battle(state)
    if side == 1 and battle.defender_kind == "town":
        wanted = WALL_FRONT[battle.walls]
    else:
        wanted = FRONT_MINIMUM
    return min(wanted, len(creatures_of(state, side)))


def _front_shortfall(state: Homm4State, side: int) -> int:
    return max(0, front_required(state, side) - len(_line(state, side, "melee")))


def can_regroup(state: Homm4State, cr: Creature) -> bool:
    """Whether ``cr`` may switch lines: forward always; back only if the front keeps its
    required number of Creatures (homm4:battles.regrouping)."""
    if cr.line == "ranged":
        return True
    battle = _battle(state)
    if cr.side == 1 and battle.defender_kind == "town":
        wanted = WALL_FRONT[battle.walls]
    else:
        wanted = FRONT_MINIMUM
    return len(_line(state, cr.side, "melee")) - 1 >= wanted


# ================================================================ side cards
def _side_armies(state: Homm4State, side: int) -> list[Army]:
    battle = _battle(state)
    ids = battle.attacker_armies if side == 0 else battle.defender_armies
    return [a for a in state.armies if a.id in ids]


def side_cards(state: Homm4State, side: int) -> list[int]:
    """Return every card ``side`` brings to the battle (armies, Guard Stack, garrison)."""
    battle = _battle(state)
    cards = [c for a in _side_armies(state, side) for c in a.cards]
    if side == 1 and battle.site is not None:
        site = state.sites[battle.site]
        if battle.defender_kind == "guard":
            cards.extend(site.guard)
        elif battle.defender_kind == "town":
            cards.extend(site.garrison)
    return cards


def _home(state: Homm4State, instance: int) -> tuple[Literal["army", "guard", "garrison"], int]:
    """Where a battle card is: ("army", army id) or ("guard" / "garrison", site id)."""
    for army in state.armies:
        if instance in army.cards:
            return "army", army.id
    for site in state.sites:
        if instance in site.guard:
            return "guard", site.id
        if instance in site.garrison:
            return "garrison", site.id
    raise IllegalMove(f"Card #{instance} is not with any army in this battle.")


def _take_out(state: Homm4State, instance: int) -> Fallen:
    """Remove a battle card from its Army / Guard / garrison; return where it was."""
    zone, where = _home(state, instance)
    side: Side = 0 if instance in side_cards(state, 0) else 1
    if zone == "army":
        zones.army(state, where).cards.remove(instance)
        return Fallen(card=instance, side=side, army=where, zone="army")
    site = state.sites[where]
    (site.guard if zone == "guard" else site.garrison).remove(instance)
    return Fallen(card=instance, side=side, army=None, zone=zone)


def _kill_card(state: Homm4State, instance: int) -> None:
    """Kill a battle card: out of its zone, onto the discard pile (a hero with its inventory)."""
    fallen = _take_out(state, instance)
    _battle(state).fallen.append(fallen)
    if isinstance(zones.card(state, instance), HeroCard):
        heroes.discard_hero(state, instance)
    else:
        zones.to_discard(state, instance)


# ==================================================================== begin
def begin_battle(
    state: Homm4State,
    *,
    hex: Hex,
    attacker: int,
    attacker_armies: Sequence[int],
    defender: int,
    defender_kind: Literal["army", "guard", "town"],
    defender_armies: Sequence[int],
    site: int | None,
) -> list[Event]:
    """Start a battle on ``hex``: sets ``state.battle`` (stage ``deploy``, the Attacker first).

    :param attacker: the attacking seat; ``attacker_armies`` its Armies in the fight.
    :param defender: the seat commanding the defence (for a Guard: the Guard Player, or
        the player on its left when the Guard Player attacks — the caller decides).
    :param defender_kind: ``army`` (open field), ``guard`` (the site's Guard Stack) or
        ``town`` (the defending Armies on the hex plus ``site``'s garrison; walls intact;
        the Town card stands on the Melee Line with defense 10).
    :param site: the Site fought over (required for ``guard`` and ``town``).
    :raises IllegalMove: if a battle is already running, an Army is unknown, or a side
        brings no card. Rule: homm4:battles.attackers-and-defenders.
    """
    if state.battle is not None:
        raise IllegalMove("A battle is already being fought.")
    if defender_kind in ("guard", "town") and site is None:
        raise IllegalMove(f"A battle against a {defender_kind} needs its site.")
    for army_id in (*attacker_armies, *defender_armies):
        zones.army(state, army_id)
    battle = Battle(
        hex=hex,
        site=site,
        attacker=attacker,
        defender=defender,
        defender_kind=defender_kind,
        attacker_armies=list(attacker_armies),
        defender_armies=list(defender_armies),
        walls="intact" if defender_kind == "town" else "none",
    )
    state.battle = battle
    for side in (0, 1):
        if not side_cards(state, side):
            state.battle = None
            raise IllegalMove(
                f"{'The Attacker' if side == 0 else 'The Defender'} has no cards to fight with."
            )
    where = _label(state, hex)
    against = {
        "army": f"{seat_name(defender)}'s army",
        "guard": f"the Guard (controlled by {seat_name(defender)})",
        "town": f"{seat_name(defender)}'s Town",
    }[defender_kind]
    return [
        Event(
            kind="battle_start",
            text=f"Battle at {where}: {seat_name(attacker)} attacks {against}. {seat_name(attacker)} deploys first.",
            data={
                "hex": list(hex),
                "site": site,
                "attacker": attacker,
                "defender": defender,
                "defender_kind": defender_kind,
                "attacker_armies": list(attacker_armies),
                "defender_armies": list(defender_armies),
            },
        )
    ]


# ================================================================ decisions
_STAGE_DECISIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "deploy": ("battle_deploy", ("deploy",)),
    "fight": (
        "battle_act",
        ("attack", "support", "group", "defend", "regroup", "cast_spell"),
    ),
    "counter": ("battle_counterattack", ("counterattack",)),
    "fill_front": ("battle_fill_front", ("fill_front",)),
    "retreat": ("battle_retreat", ("retreat",)),
    "surrender_offer": ("battle_surrender_offer", ("offer_surrender",)),
    "surrender_answer": ("battle_surrender_answer", ("answer_surrender",)),
}


def battle_pending(state: Homm4State) -> list[Decision]:
    """Return the one decision the battle waits for (empty when there is no battle)."""
    battle = state.battle
    if battle is None:
        return []
    kind, commands = _STAGE_DECISIONS[battle.stage]
    return [
        Decision(
            seat=side_seat(battle, battle.to_act),
            kind=kind,
            prompt=_prompt(state),
            commands=commands,
        )
    ]


def _prompt(state: Homm4State) -> str:
    battle = _battle(state)
    who = _side_name(battle, battle.to_act)
    where = _label(state, battle.hex)
    if battle.stage == "deploy":
        return f"{who} must deploy for the battle at {where}."
    if battle.stage == "fight":
        due = [_name(state, c) for c in _due(state)]
        return f"Round {battle.round}, Phase {battle.phase}: {who} acts with {', '.join(due)}."
    if battle.stage == "counter" and battle.counter_pending is not None:
        target, attacker, mode = battle.counter_pending
        return (
            f"{who} may counterattack with {_name(state, creature(state, target))} against "
            f"{_name(state, creature(state, attacker))} ({mode})."
        )
    if battle.stage == "fill_front":
        return f"{who} must move a Creature from the Ranged Line to the Melee Line."
    if battle.stage == "retreat":
        return f"End of Round {battle.round}: {who} may retreat with its heroes."
    if battle.stage == "surrender_offer":
        return f"End of Round {battle.round}: {who} may offer to surrender."
    offerer = _side_name(battle, _other(battle.to_act))
    return f"{offerer} offers {battle.surrender_cards} card(s) to surrender; {who} must accept or reject."


def _check_seat(state: Homm4State, seat: int) -> Battle:
    battle = _battle(state)
    expected = side_seat(battle, battle.to_act)
    if seat != expected:
        raise NotYourDecision(
            f"It is not your decision in this battle. Waiting for: {_prompt(state)}"
        )
    return battle


# =============================================================== deployment
def _groups(state: Homm4State, cards: Sequence[int]) -> list[list[int]]:
    """Split cards into one group per unit type (first appearance order); heroes alone."""
    groups: list[list[int]] = []
    by_type: dict[str, list[int]] = {}
    for instance in cards:
        if isinstance(zones.card(state, instance), HeroCard):
            groups.append([instance])
            continue
        key = state.card_defs[instance]
        if key not in by_type:
            by_type[key] = []
            groups.append(by_type[key])
        by_type[key].append(instance)
    return groups


def _shoots(state: Homm4State, cards: Sequence[int]) -> bool:
    found = zones.card(state, cards[0])
    if isinstance(found, HeroCard):
        return heroes.hero_ranged(state, cards[0]) > 0
    if isinstance(found, UnitCard):
        return found.ranged > 0 or any(isinstance(a, Spellcaster) for a in found.abilities)
    return False


def _strength(state: Homm4State, cards: Sequence[int]) -> int:
    return sum(card_level(state, c) for c in cards)


def _with_lines(
    state: Homm4State, stacks: list[list[int]], side: int, shooters_back: bool, all_back: bool
) -> Deploy:
    lines: list[str] = ["melee"] * len(stacks)
    if all_back:
        lines = ["ranged"] * len(stacks)
    elif shooters_back:
        shooters = [i for i, s in enumerate(stacks) if _shoots(state, s)]
        room = len(stacks) - FRONT_MINIMUM
        # the strongest shooters go back while at least three Creatures stay in front
        shooters.sort(key=lambda i: (-_strength(state, stacks[i]), i))
        for i in shooters[: max(0, room)]:
            lines[i] = "ranged"
    return Deploy(
        stacks=tuple(
            StackOrder(cards=tuple(s), line="ranged" if line == "ranged" else "melee")
            for s, line in zip(stacks, lines, strict=True)
        )
    )


def canonical_deployments(state: Homm4State, side: int) -> list[Deploy]:
    """Return a few sensible, legal deployments for ``side`` (first = the default).

    One Creature Stack per unit type, each hero alone; with more than 7 the 7 strongest
    (heroes first, then by level total) fight and the rest wait in reserve. Variants:
    shooters on the Ranged Line (default; all on the back line for a Town's defender),
    everyone on the Melee Line, and stacks split into single cards up to 7 Creatures.
    """
    battle = _battle(state)
    groups = _groups(state, side_cards(state, side))
    ranked = sorted(
        range(len(groups)),
        key=lambda i: (
            not isinstance(zones.card(state, groups[i][0]), HeroCard),
            -_strength(state, groups[i]),
            i,
        ),
    )
    chosen = sorted(ranked[:MAX_CREATURES])
    stacks = [groups[i] for i in chosen]
    town_defender = side == 1 and battle.defender_kind == "town"
    options = [
        _with_lines(state, stacks, side, shooters_back=not town_defender, all_back=town_defender),
        _with_lines(state, stacks, side, shooters_back=True, all_back=False),
        _with_lines(state, stacks, side, shooters_back=False, all_back=False),
    ]
    split = [list(s) for s in stacks]
    while len(split) < MAX_CREATURES:
        biggest = max(range(len(split)), key=lambda i: (len(split[i]), -i))
        if len(split[biggest]) < 2:
            break
        split.append([split[biggest].pop()])
    options.append(_with_lines(state, split, side, shooters_back=True, all_back=False))
    unique: list[Deploy] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    return unique


def _validate_deploy(state: Homm4State, side: int, command: Deploy) -> list[int]:
    """Check a deployment; return the cards left in reserve.

    :raises IllegalMove: naming the broken rule (homm4:battles.tactical-deployment).
    """
    battle = _battle(state)
    own = side_cards(state, side)
    if not command.stacks:
        raise IllegalMove("Deploy at least one Creature Stack.")
    if len(command.stacks) > MAX_CREATURES:
        raise IllegalMove(
            f"You deployed {len(command.stacks)} Creatures; an army may have at most "
            f"{MAX_CREATURES} Creatures / Creature Stacks in battle."
        )
    seen: list[int] = []
    for stack in command.stacks:
        if not stack.cards:
            raise IllegalMove("A Creature Stack needs at least one card.")
        for instance in stack.cards:
            if instance not in own:
                raise IllegalMove(f"Card #{instance} is not in your forces in this battle.")
            if instance in seen:
                raise IllegalMove(f"Card #{instance} is in two Creature Stacks.")
            seen.append(instance)
        kinds = {state.card_defs[c] for c in stack.cards}
        has_hero = any(isinstance(zones.card(state, c), HeroCard) for c in stack.cards)
        if has_hero and len(stack.cards) > 1:
            raise IllegalMove("A Hero fights alone: it cannot share a Creature Stack.")
        if len(kinds) > 1:
            raise IllegalMove("A Creature Stack holds Unit cards of one type only.")
    reserve = [c for c in own if c not in seen]
    if reserve:
        if len(command.stacks) < MAX_CREATURES:
            raise IllegalMove(
                f"Deploy all your cards: {len(reserve)} are left out, and you may leave cards "
                f"out only when {MAX_CREATURES} Creature Stacks are already deployed."
            )
        deployed_types = {state.card_defs[c] for c in seen if not zones.is_hero(state, c)}
        for instance in reserve:
            if not zones.is_hero(state, instance) and state.card_defs[instance] in deployed_types:
                raise IllegalMove(
                    f"{zones.name(state, instance)} must join its type's Creature Stack; only "
                    "whole unit types (or heroes) beyond the 7 Creatures wait in reserve."
                )
    front = sum(1 for s in command.stacks if s.line == "melee")
    back = len(command.stacks) - front
    town_defender = side == 1 and battle.defender_kind == "town"
    if back and not town_defender and front < FRONT_MINIMUM:
        raise IllegalMove(
            f"The Ranged Line may be used only with at least {FRONT_MINIMUM} different "
            f"Creatures on the Melee Line; you have {front} there."
        )
    return reserve


def _apply_deploy(state: Homm4State, side: Side, command: Deploy) -> list[Event]:
    battle = _battle(state)
    reserve = _validate_deploy(state, side, command)
    for stack in command.stacks:
        zone, where = _home(state, stack.cards[0])
        battle.creatures.append(
            Creature(
                id=battle.next_creature,
                side=side,
                cards=list(stack.cards),
                line=stack.line,
                army=where if zone == "army" else None,
            )
        )
        battle.next_creature += 1
    battle.reserve.extend(reserve)
    parts = []
    for cr in creatures_of(state, side):
        parts.append(
            f"{_name(state, cr)} on the {'Melee' if cr.line == 'melee' else 'Ranged'} Line"
        )
    text = f"{_side_name(battle, side)} deploys: {'; '.join(parts)}."
    if reserve:
        text += f" In reserve: {', '.join(zones.name(state, c) for c in reserve)}."
    events = [
        Event(
            kind="battle_deploy",
            text=text,
            data={
                "side": side,
                "stacks": [
                    {"creature": c.id, "cards": c.cards, "line": c.line}
                    for c in creatures_of(state, side)
                ],
                "reserve": reserve,
            },
        )
    ]
    if side == 0:
        battle.to_act = 1
        return events
    battle.stage = "fight"
    battle.round = 1
    battle.phase = 1
    battle.turn_side = 0
    return events


# ==================================================================== rolls
def roll_die(state: Homm4State, purpose: str, creature_id: int | None) -> tuple[int, Event]:
    """Roll the d10 (``state.rng.die(10)``) and return the face with its ``die_roll`` event."""
    face = state.rng.die(10)
    return face, Event(
        kind="die_roll",
        text=f"Die roll ({purpose}): {face}.",
        data={"sides": 10, "result": face, "purpose": purpose, "creature": creature_id},
    )


# ============================================================= the phase loop
def _due(state: Homm4State) -> list[Creature]:
    """The Creatures of the side whose turn it is that still act in this Phase."""
    battle = _battle(state)
    if battle.acting is not None:
        return [c for c in battle.creatures if c.id == battle.acting]
    return [
        c
        for c in creatures_of(state, battle.turn_side)
        if not c.acted and phase_of(state, c) == battle.phase
    ]


def _winner(state: Homm4State) -> Side | None:
    if not creatures_of(state, 1):
        return 0
    if not creatures_of(state, 0):
        return 1
    return None


def _advance(state: Homm4State) -> tuple[list[Event], BattleOutcome | None]:
    """Settle what follows an action: end of battle, front-line fills, counterattacks,
    a second attack, the next Creature / Phase / side, the end of the Round."""
    battle = _battle(state)
    events: list[Event] = []
    while True:
        winner = _winner(state)
        if winner is not None:
            more, outcome = _finish(state, winner, "annihilation")
            return events + more, outcome
        needs_choice = False
        for side in (battle.turn_side, _other(battle.turn_side)):
            events.extend(_auto_fill(state, side))
            if _front_shortfall(state, side):
                battle.stage = "fill_front"
                battle.to_act = side
                needs_choice = True
                break
        if needs_choice:
            return events, None
        if _next_counter(state):
            return events, None
        if battle.acting is not None:
            acting = next((c for c in battle.creatures if c.id == battle.acting), None)
            if acting is not None and acting.attacks_left > 0 and _second_attacks(state, acting):
                battle.stage = "fight"
                battle.to_act = battle.turn_side
                return events, None
            if acting is not None:
                acting.attacks_left = 0
            battle.acting = None
            battle.acting_mode = None
        if _due(state):
            battle.stage = "fight"
            battle.to_act = battle.turn_side
            return events, None
        if battle.turn_side == 0:
            battle.turn_side = 1
            continue
        if battle.phase < PHASES:
            battle.phase += 1
            battle.turn_side = 0
            continue
        events.extend(_end_of_round(state))
        if battle.stage in ("retreat", "surrender_offer"):
            return events, None


def _auto_fill(state: Homm4State, side: int) -> list[Event]:
    """Move back-line Creatures forward when the front line is short and there is no choice
    (homm4:battles.regrouping: automatic, and it does not cost the attack)."""
    short = _front_shortfall(state, side)
    back = _line(state, side, "ranged")
    if not short or len(back) > short:
        return []
    events = []
    for cr in back:
        cr.line = "melee"
        events.append(
            Event(
                kind="battle_fill_front",
                text=f"{_name(state, cr)} moves up to the Melee Line (fewer than the required Creatures stood there).",
                data={"creature": cr.id, "side": side, "automatic": True},
            )
        )
    return events


def _next_counter(state: Homm4State) -> bool:
    """Start the next valid pending counterattack decision; False if none is left."""
    battle = _battle(state)
    while battle.counter_pending is not None or battle.counter_queue:
        if battle.counter_pending is None:
            battle.counter_pending = battle.counter_queue.pop(0)
        target_id, attacker_id, mode = battle.counter_pending
        target = next((c for c in battle.creatures if c.id == target_id), None)
        attacker = next((c for c in battle.creatures if c.id == attacker_id), None)
        if target is not None and attacker is not None and _may_counter(state, target, mode):
            battle.stage = "counter"
            battle.to_act = target.side
            return True
        battle.counter_pending = None
    return False


def _may_counter(state: Homm4State, cr: Creature, mode: str) -> bool:
    """Whether ``cr`` can answer an attack of ``mode`` now (homm4:battles.counterattack):
    once per Round (unless unlimited), melee with melee, ranged only with Ranged > 0."""
    if cr.countered and not _has(state, cr, UnlimitedCounter):
        return False
    if mode == "melee":
        return True
    if mode == "ranged":
        return ranged_value(state, cr) > 0
    return False


def _end_of_round(state: Homm4State) -> list[Event]:
    battle = _battle(state)
    events = [
        Event(
            kind="battle_round_end",
            text=f"Round {battle.round} of the battle at {_label(state, battle.hex)} ends.",
            data={"round": battle.round},
        )
    ]
    _offer_retreat(state, 0)
    return events


def _offer_retreat(state: Homm4State, side: int) -> bool:
    """Ask ``side`` (then the Defender) about Hero Retreat, then Surrender, else start a
    new Round. :returns: True when a decision is now awaited, False on a new Round."""
    battle = _battle(state)
    for candidate in (0, 1):
        if candidate >= side and retreat_problem(state, candidate) is None:
            battle.stage = "retreat"
            battle.to_act = candidate
            return True
    return _offer_surrender(state, 0)


def _offer_surrender(state: Homm4State, side: int) -> bool:
    """Ask ``side`` (then the Defender) about Surrender, else start a new Round."""
    battle = _battle(state)
    for candidate in (0, 1):
        if candidate >= side and surrender_problem(state, candidate) is None:
            battle.stage = "surrender_offer"
            battle.to_act = candidate
            return True
    _new_round(state)
    return False


def _start_round(state: Homm4State) -> bool:
    """Start a new Round; :returns: False (no decision is awaited yet)."""
    _new_round(state)
    return False


def _new_round(state: Homm4State) -> None:
    battle = _battle(state)
    battle.round += 1
    battle.phase = 1
    battle.turn_side = 0
    battle.acting = None
    battle.acting_mode = None
    for cr in battle.creatures:
        cr.acted = False
        cr.countered = False
        cr.attacks_left = 0
    battle.stage = "fight"


# =================================================================== attacks
def _attack_value(
    state: Homm4State,
    cr: Creature,
    mode: Mode,
    *,
    grouped: bool,
    supports: Iterable[Support],
    target: int | Literal["walls"],
) -> tuple[int, list[str]]:
    """The attack value of ``cr`` in ``mode`` against ``target`` and its parts for the log."""
    battle = _battle(state)
    if mode == "melee":
        base = melee_value(state, cr)
    elif mode == "ranged":
        base = ranged_value(state, cr)
    else:
        caster = _spellcaster(state, cr)
        base = caster.spell_attack if caster is not None else 0
    parts = [str(base)]
    bonus = stack_bonus(state, cr)
    value = base + bonus
    if bonus:
        parts.append(f"stack +{bonus}")
    if grouped:
        value *= 2
        parts.append("grouped x2")
    for support in supports:
        if _support_counts(state, support, target):
            value += support.value
            parts.append(f"support +{support.value}")
    if mode == "ranged" and target != "walls":
        penalised = _wall_penalty(state, cr, creature(state, target), value)
        if penalised != value:
            parts.append(f"walls {battle.walls}: {value} -> {penalised}")
            value = penalised
    return value, parts


def _support_counts(state: Homm4State, support: Support, target: int | Literal["walls"]) -> bool:
    if target == "walls":
        return support.can_hit_walls
    found = creature(state, target)
    return support.can_hit_front_line if found.line == "melee" else support.can_hit_back_line


def _wall_penalty(state: Homm4State, shooter: Creature, target: Creature, value: int) -> int:
    """Town walls against ranged attacks at the defender's back line: half while intact,
    -1 with a Breach, nothing after a Sack; not for units that ignore Obstacles
    (homm4:battles, Battles in Towns: Ranged penalties)."""
    battle = _battle(state)
    if battle.defender_kind != "town" or shooter.side != 0 or target.side != 1:
        return value
    if target.line != "ranged" or _flies(state, shooter):
        return value
    if battle.walls == "intact":
        return value // 2
    if battle.walls == "breach":
        return max(0, value - 1)
    return value


def _strike(
    state: Homm4State,
    cr: Creature,
    mode: Literal["melee", "ranged", "spell", "counter"],
    target: Creature,
    count: int,
    value: int,
    parts: list[str],
    purpose: str,
) -> list[Event]:
    """Roll one attack of ``value`` at the top ``count`` cards of ``target``; kill on success."""
    battle = _battle(state)
    roll, rolled = roll_die(state, purpose, cr.id)
    total = value + roll
    defense = target_defense(state, target, count)
    killed_cards = list(target.cards[:count]) if total >= defense else []
    verb = {
        "melee": "attacks",
        "ranged": "shoots",
        "spell": "casts at",
        "counter": "strikes back at",
    }[mode]
    mass = f" (Mass attack on {count} cards)" if count > 1 else ""
    victims = ", ".join(zones.name(state, c) for c in killed_cards)
    result = f"{len(killed_cards)} killed ({victims})" if killed_cards else "no effect"
    text = (
        f"{_name(state, cr)} {verb} {_name(state, target)}{mass}: {' '.join(_join_parts(parts))} + roll {roll} = "
        f"{total} vs defense {defense}: {result}."
    )
    for instance in killed_cards:
        target.cards.remove(instance)
        _kill_card(state, instance)
    if not target.cards:
        battle.creatures.remove(target)
    battle.last_attack = AttackRecord(
        attacker=cr.id,
        targets=[target.id],
        mode=mode,
        attack_value=value,
        roll=roll,
        total=total,
        defense=defense,
        killed=len(killed_cards),
        walls=False,
    )
    return [
        rolled,
        Event(
            kind="battle_attack",
            text=text,
            data={
                "attacker": cr.id,
                "target": target.id,
                "mode": mode,
                "count": count,
                "attack_value": value,
                "roll": roll,
                "total": total,
                "defense": defense,
                "killed": killed_cards,
                "target_destroyed": not target.cards,
            },
        ),
    ]


def _join_parts(parts: list[str]) -> list[str]:
    if len(parts) == 1:
        return parts
    return [f"({parts[0]}, {', '.join(parts[1:])})"]


def _strike_walls(state: Homm4State, cr: Creature, value: int, parts: list[str]) -> list[Event]:
    """A Melee attack at the Town card: 10 or more makes a Breach, then a Sack."""
    battle = _battle(state)
    roll, rolled = roll_die(state, "attack on the Town walls", cr.id)
    total = value + roll
    damaged = total >= TOWN_DEFENSE
    before = battle.walls
    if damaged:
        battle.walls = "breach" if before == "intact" else "sack"
    outcome = {
        "breach": "a Breach in the gates! The Defender must close it with a Creature on the front line",
        "sack": "a Sack in the walls! The Defender must hold the front line with at least two Creatures",
    }
    result = outcome[battle.walls] if damaged else "the walls hold"
    battle.last_attack = AttackRecord(
        attacker=cr.id,
        targets=[],
        mode="melee",
        attack_value=value,
        roll=roll,
        total=total,
        defense=TOWN_DEFENSE,
        killed=0,
        walls=True,
    )
    return [
        rolled,
        Event(
            kind="battle_attack",
            text=(
                f"{_name(state, cr)} attacks the Town walls: {' '.join(_join_parts(parts))} + roll {roll} = "
                f"{total} vs defense {TOWN_DEFENSE}: {result}."
            ),
            data={
                "attacker": cr.id,
                "target": "walls",
                "mode": "melee",
                "attack_value": value,
                "roll": roll,
                "total": total,
                "defense": TOWN_DEFENSE,
                "walls": battle.walls,
            },
        ),
    ]


def _queue_counter(state: Homm4State, attacker: Creature, target: Creature, mode: str) -> None:
    battle = _battle(state)
    if target not in battle.creatures or _has(state, attacker, NoCounter):
        return
    if not _may_counter(state, target, mode):
        return
    entry = (target.id, attacker.id, mode)
    if battle.counter_pending is None:
        battle.counter_pending = entry
    else:
        battle.counter_queue.append(entry)


# ================================================================ validation
def _acting_creature(state: Homm4State, seat: int, number: int) -> Creature:
    """Check that ``number`` may act now for ``seat``; return it."""
    battle = _check_seat(state, seat)
    if battle.stage != "fight":
        raise WrongPhase(f"Creatures do not act now. {_prompt(state)}")
    cr = creature(state, number)
    if cr.side != battle.turn_side:
        raise IllegalMove(f"{_name(state, cr)} is not yours.")
    due = _due(state)
    if cr not in due:
        if battle.acting is not None:
            raise IllegalMove(
                f"{_name(state, creature(state, battle.acting))} must first make its second attack."
            )
        names = ", ".join(_name(state, c) for c in due)
        raise IllegalMove(
            f"{_name(state, cr)} acts in Phase {phase_of(state, cr)}"
            f"{' and has already acted this Round' if cr.acted else ''}; now Phase {battle.phase}: {names}."
        )
    return cr


def _check_attack(state: Homm4State, cr: Creature, command: Attack) -> list[int | Literal["walls"]]:
    battle = _battle(state)
    if battle.acting is not None and battle.acting_mode != command.mode:
        raise IllegalMove(
            f"The second attack of {_name(state, cr)} must also be a {battle.acting_mode} attack."
        )
    if command.target_walls:
        if command.mode != "melee":
            raise IllegalMove("The Town walls can be attacked only in Melee.")
        if command.targets:
            raise IllegalMove("Attack either the walls or Creatures, not both.")
        if "walls" not in melee_targets(state, cr):
            raise IllegalMove(_no_walls_reason(state, cr))
        if command.count != 1:
            raise IllegalMove("A Mass attack needs Creature cards as targets, not the walls.")
        return ["walls"]
    if not command.targets:
        raise IllegalMove("Name the Creature to attack (targets).")
    if len(set(command.targets)) != len(command.targets):
        raise IllegalMove("Each target may be named once.")
    allowed: Sequence[int | Literal["walls"]]
    if command.mode == "melee":
        if not can_melee(state, cr):
            raise IllegalMove(
                f"{_name(state, cr)} is on the Ranged Line: it may only shoot or cast from there."
            )
        allowed = melee_targets(state, cr)
        most = _multi_target(state, cr)
    elif command.mode == "ranged":
        if ranged_value(state, cr) <= 0:
            raise IllegalMove(
                f"{_name(state, cr)} has a Ranged attack of 0 and cannot make Ranged attacks."
            )
        allowed = ranged_targets(state, cr)
        most = 1
    else:
        if _spellcaster(state, cr) is None:
            raise IllegalMove(
                f"{_name(state, cr)} does not cast spells; a Hero casts with cast_spell."
            )
        allowed = spell_targets(state, cr)
        most = 1
    if len(command.targets) > most:
        raise IllegalMove(
            f"{_name(state, cr)} may attack {'only one Creature' if most == 1 else f'at most {most} Creatures'} at once."
        )
    for target in command.targets:
        found = creature(state, target)
        if found.side == cr.side:
            raise IllegalMove(f"{_name(state, found)} is on your own side.")
        if target not in allowed:
            raise IllegalMove(_unreachable_reason(state, cr, found, command.mode))
    if command.count > 1:
        if len(command.targets) != 1:
            raise IllegalMove("A Mass attack strikes several cards of a single target.")
        size = len(creature(state, command.targets[0]).cards)
        if command.count > size:
            raise IllegalMove(f"The target has only {size} card(s); declare at most {size}.")
    return list(command.targets)


def _no_walls_reason(state: Homm4State, cr: Creature) -> str:
    battle = _battle(state)
    if battle.defender_kind != "town":
        return "There are no Town walls in this battle."
    if cr.side != 0:
        return "Only the Attacker attacks the Town walls."
    if battle.walls == "sack":
        return "The walls are already sacked."
    return f"{_name(state, cr)} must be on the Melee Line to attack the walls."


def _unreachable_reason(state: Homm4State, cr: Creature, target: Creature, mode: str) -> str:
    battle = _battle(state)
    if mode == "melee" and target.line == "ranged":
        if _flies(state, cr) and _walls_block_flyers(battle, cr):
            return "Even flying Creatures cannot pass intact Town walls: make a Breach first."
        return (
            f"{_name(state, target)} is on the Ranged Line: only Ranged attacks, spells and "
            "Creatures that ignore Obstacles reach it."
        )
    return f"{_name(state, cr)} cannot reach {_name(state, target)} with a {mode} attack."


# ================================================================ actions
def _begin_action(cr: Creature) -> tuple[bool, list[Support]]:
    """The Creature's chance to act has come: it leaves the defensive position, and its
    grouping and pending Support are used by this action (homm4:battles.grouping/defense)."""
    cr.defending = False
    grouped, supports = cr.grouped, list(cr.supports)
    cr.grouped = False
    cr.supports = []
    cr.acted = True
    return grouped, supports


def _apply_attack(
    state: Homm4State, seat: int, command: Attack
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    battle = _battle(state)
    targets = _check_attack(state, cr, command)
    events: list[Event] = []
    second = battle.acting is not None
    if second:
        grouped, supports = False, list[Support]()
        cr.attacks_left -= 1
    else:
        grouped, supports = _begin_action(cr)
        twice = (command.mode == "melee" and _has(state, cr, StrikesTwice)) or (
            command.mode == "ranged" and _has(state, cr, ShootsTwice)
        )
        cr.attacks_left = 1 if twice else 0
        if twice:
            battle.acting = cr.id
            battle.acting_mode = command.mode
    if command.mode == "melee" and cr.line == "ranged":
        cr.line = "melee"
        why = (
            "sallies from behind the walls"
            if not _flies(state, cr)
            else "flies over the front line"
        )
        events.append(
            Event(
                kind="battle_move",
                text=f"{_name(state, cr)} {why} and moves to the Melee Line.",
                data={"creature": cr.id, "line": "melee"},
            )
        )
    for target in targets:
        if target == "walls":
            value, parts = _attack_value(
                state, cr, "melee", grouped=grouped, supports=supports, target=target
            )
            events.extend(_strike_walls(state, cr, value, parts))
            continue
        found = next((c for c in battle.creatures if c.id == target), None)
        if found is None:
            continue
        value, parts = _attack_value(
            state, cr, command.mode, grouped=grouped, supports=supports, target=target
        )
        purpose = f"{command.mode} attack"
        events.extend(_strike(state, cr, command.mode, found, command.count, value, parts, purpose))
        if command.mode != "spell" and cr in battle.creatures:
            _queue_counter(state, cr, found, command.mode)
    if len(targets) > 1 and battle.last_attack is not None:
        battle.last_attack = battle.last_attack.model_copy(
            update={"targets": [t for t in targets if t != "walls"]}
        )
    more, outcome = _advance(state)
    return events + more, outcome


def _apply_support(
    state: Homm4State, seat: int, command: SupportCreature
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    _no_second(state, cr)
    friend = creature(state, command.target)
    if friend.side != cr.side or friend.id == cr.id:
        raise IllegalMove("Support goes to another friendly Creature.")
    front, back, walls = _reach(state, cr)
    _begin_action(cr)
    value = support_value(state, cr)
    friend.supports.append(
        Support(
            supporter=cr.id,
            value=value,
            can_hit_back_line=back,
            can_hit_front_line=front,
            can_hit_walls=walls,
        )
    )
    reach = [
        n
        for n, ok in (("the front line", front), ("the back line", back), ("the walls", walls))
        if ok
    ]
    text = (
        f"{_name(state, cr)} gives up its attack to support {_name(state, friend)}: +{value} on its next attack"
        f" (against {', '.join(reach) if reach else 'nothing it could not attack itself'})."
    )
    events = [
        Event(
            kind="battle_support",
            text=text,
            data={"creature": cr.id, "target": friend.id, "value": value},
        )
    ]
    more, outcome = _advance(state)
    return events + more, outcome


def _no_second(state: Homm4State, cr: Creature) -> None:
    if _battle(state).acting == cr.id:
        raise IllegalMove(
            f"{_name(state, cr)} is making its second attack; it may only attack now."
        )


def _apply_group(
    state: Homm4State, seat: int, command: Group
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    _no_second(state, cr)
    _begin_action(cr)
    cr.grouped = True
    events = [
        Event(
            kind="battle_group",
            text=f"{_name(state, cr)} groups (Swarm): its next attack value is doubled.",
            data={"creature": cr.id},
        )
    ]
    more, outcome = _advance(state)
    return events + more, outcome


def _apply_defend(
    state: Homm4State, seat: int, command: Defend
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    _no_second(state, cr)
    _begin_action(cr)
    cr.defending = True
    value = card_defense(state, cr, cr.cards[0])
    events = [
        Event(
            kind="battle_defend",
            text=f"{_name(state, cr)} defends (Protect): Defense {value} until its next turn.",
            data={"creature": cr.id, "defense": value},
        )
    ]
    more, outcome = _advance(state)
    return events + more, outcome


def _apply_regroup(
    state: Homm4State, seat: int, command: Regroup
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    _no_second(state, cr)
    if not can_regroup(state, cr):
        raise IllegalMove(
            f"{_name(state, cr)} cannot move back: the Melee Line must keep "
            f"{front_required(state, cr.side)} Creatures."
        )
    _begin_action(cr)
    cr.line = "ranged" if cr.line == "melee" else "melee"
    line = "Melee" if cr.line == "melee" else "Ranged"
    events = [
        Event(
            kind="battle_regroup",
            text=f"{_name(state, cr)} gives up its attack and regroups to the {line} Line.",
            data={"creature": cr.id, "line": cr.line},
        )
    ]
    more, outcome = _advance(state)
    return events + more, outcome


def _apply_counter(
    state: Homm4State, seat: int, command: Counterattack
) -> tuple[list[Event], BattleOutcome | None]:
    battle = _check_seat(state, seat)
    if battle.stage != "counter" or battle.counter_pending is None:
        raise WrongPhase(f"There is no counterattack to decide. {_prompt(state)}")
    target_id, attacker_id, mode = battle.counter_pending
    battle.counter_pending = None
    striker = creature(state, target_id)
    enemy = creature(state, attacker_id)
    events: list[Event] = []
    if not command.strike:
        events.append(
            Event(
                kind="battle_counter_declined",
                text=f"{_name(state, striker)} does not strike back.",
                data={"creature": striker.id},
            )
        )
    else:
        striker.countered = True
        use: Mode = "ranged" if mode == "ranged" else "melee"
        base = ranged_value(state, striker) if use == "ranged" else melee_value(state, striker)
        parts = [str(base)]
        bonus = stack_bonus(state, striker)
        if bonus:
            parts.append(f"stack +{bonus}")
        value = base + bonus
        if use == "ranged":
            penalised = _wall_penalty(state, striker, enemy, value)
            if penalised != value:
                parts.append(f"walls {battle.walls}: {value} -> {penalised}")
                value = penalised
        events.extend(
            _strike(state, striker, "counter", enemy, 1, value, parts, f"{use} counterattack")
        )
    more, outcome = _advance(state)
    return events + more, outcome


def _apply_fill(
    state: Homm4State, seat: int, command: FillFront
) -> tuple[list[Event], BattleOutcome | None]:
    battle = _check_seat(state, seat)
    if battle.stage != "fill_front":
        raise WrongPhase(f"No Creature has to move forward now. {_prompt(state)}")
    cr = creature(state, command.creature)
    if cr.side != battle.to_act or cr.line != "ranged":
        names = ", ".join(_name(state, c) for c in _line(state, battle.to_act, "ranged"))
        raise IllegalMove(f"Choose one of your Creatures on the Ranged Line: {names}.")
    cr.line = "melee"
    events = [
        Event(
            kind="battle_fill_front",
            text=f"{_name(state, cr)} moves up to the Melee Line.",
            data={"creature": cr.id, "side": cr.side, "automatic": False},
        )
    ]
    more, outcome = _advance(state)
    return events + more, outcome


# =================================================================== spells
def _hero_spells(state: Homm4State, hero: int) -> list[int]:
    """Spells the hero may use in this battle: its inventory plus those it already cast."""
    battle = _battle(state)
    cast = [s for s, caster in sorted(battle.spells_cast.items()) if caster == hero]
    return heroes.known_spells(state, hero) + [s for s in cast if s in state.limbo]


def _spell_targets(state: Homm4State, cr: Creature, spell: SpellCard) -> list[int]:
    enemy = _other(cr.side)
    if spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ALL_ENEMIES):
        return [c.id for c in creatures_of(state, enemy)]
    if spell.target is SpellTarget.ALL_ENEMY_FRONT:
        return [c.id for c in _line(state, enemy, "melee")]
    if spell.effect == "resurrect":
        return [c.id for c in creatures_of(state, cr.side) if not _is_hero(state, c)]
    return [c.id for c in creatures_of(state, cr.side)]


def _check_cast(state: Homm4State, cr: Creature, command: CastSpell) -> tuple[SpellCard, list[int]]:
    if not _is_hero(state, cr):
        raise IllegalMove(
            f"{_name(state, cr)} is not a Hero; spellcasting units attack with mode 'spell'."
        )
    hero = cr.cards[0]
    if command.spell not in _hero_spells(state, hero):
        raise IllegalMove(
            f"{zones.name(state, hero)} does not know Spell #{command.spell} (not in its inventory)."
        )
    spell = zones.card(state, command.spell)
    if not isinstance(spell, SpellCard):
        raise IllegalMove(f"Card #{command.spell} is not a Spell.")
    if spell.timing != "battle":
        raise IllegalMove(f"{spell.name} is cast during the Movement Phase, not in battle.")
    problem = heroes.spell_problem(state, hero, spell)
    if problem is not None:
        raise IllegalMove(problem)
    left = heroes.mana_left(state, hero)
    if spell.mana > left:
        raise IllegalMove(
            f"{spell.name} costs {spell.mana} Mana; {zones.name(state, hero)} has {left} left."
        )
    possible = _spell_targets(state, cr, spell)
    single = spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ONE_FRIEND)
    if single:
        if len(command.targets) != 1:
            raise IllegalMove(f"{spell.name} needs exactly one target Creature.")
        if command.targets[0] not in possible:
            raise IllegalMove(f"{spell.name} cannot target Creature {command.targets[0]}.")
        targets = list(command.targets)
    else:
        if command.targets and sorted(command.targets) != sorted(possible):
            raise IllegalMove(f"{spell.name} affects all its targets; leave targets empty.")
        targets = possible
    if not targets:
        raise IllegalMove(f"{spell.name} has no target now.")
    if command.count > 1:
        if spell.effect != "attack" or not single:
            raise IllegalMove("Only an attacking Spell at a single target may be a Mass attack.")
        size = len(creature(state, targets[0]).cards)
        if command.count > size:
            raise IllegalMove(f"The target has only {size} card(s); declare at most {size}.")
    if spell.effect == "resurrect" and not _resurrectable(state, creature(state, targets[0])):
        raise IllegalMove(
            f"No card of {_name(state, creature(state, targets[0]))}'s type has fallen in this battle."
        )
    return spell, targets


def _resurrectable(state: Homm4State, cr: Creature) -> list[Fallen]:
    battle = _battle(state)
    kind = state.card_defs[cr.cards[0]]
    found = []
    for fallen in battle.fallen:
        owner = state.players_state[state.card_owner[fallen.card]]
        if (
            fallen.side == cr.side
            and state.card_defs[fallen.card] == kind
            and fallen.card in owner.discard
        ):
            found.append(fallen)
    return found


def _apply_cast(
    state: Homm4State, seat: int, command: CastSpell
) -> tuple[list[Event], BattleOutcome | None]:
    cr = _acting_creature(state, seat, command.creature)
    _no_second(state, cr)
    spell, targets = _check_cast(state, cr, command)
    battle = _battle(state)
    hero = cr.cards[0]
    _begin_action(cr)
    inv = heroes.ensure_inventory(state, hero)
    if command.spell in inv.spells:
        inv.spells.remove(command.spell)
        state.limbo.append(command.spell)
    battle.spells_cast[command.spell] = hero
    inv.mana_spent += spell.mana
    events = [
        Event(
            kind="battle_cast",
            text=(
                f"{_name(state, cr)} casts {zones.name(state, command.spell)} ({spell.mana} Mana; "
                f"{heroes.mana_left(state, hero)} left)."
            ),
            data={
                "creature": cr.id,
                "spell": command.spell,
                "mana": spell.mana,
                "targets": targets,
            },
        )
    ]
    if spell.effect == "attack":
        level = heroes.hero_level(state, hero)
        power = heroes.spell_power(state, hero)
        value = spell.power + level + power
        parts = [f"{spell.power} + level {level}" + (f" + spell power {power}" if power else "")]
        for target in targets:
            found = next((c for c in battle.creatures if c.id == target), None)
            if found is not None:
                events.extend(
                    _strike(
                        state,
                        cr,
                        "spell",
                        found,
                        command.count,
                        value,
                        parts,
                        f"spell {spell.name}",
                    )
                )
    elif spell.effect == "stat":
        assert spell.stat is not None
        for target in targets:
            found = creature(state, target)
            found.mods.append(StatMod(stat=spell.stat, amount=spell.power, source=command.spell))
            events.append(
                Event(
                    kind="battle_spell_effect",
                    text=f"{_name(state, found)}: {spell.stat.title()} {spell.power:+d} until the end of the battle.",
                    data={"creature": found.id, "stat": spell.stat, "amount": spell.power},
                )
            )
    else:
        events.extend(_resurrect(state, creature(state, targets[0]), spell.power))
    more, outcome = _advance(state)
    return events + more, outcome


def _resurrect(state: Homm4State, cr: Creature, power: int) -> list[Event]:
    """Return up to ``power`` fallen cards of ``cr``'s type to it (from the discard pile)."""
    battle = _battle(state)
    back = _resurrectable(state, cr)[: max(0, power)]
    zone, where = _home(state, cr.cards[0])
    for fallen in back:
        owner = state.players_state[state.card_owner[fallen.card]]
        owner.discard.remove(fallen.card)
        if zone == "army":
            zones.army(state, where).cards.append(fallen.card)
        elif zone == "guard":
            state.sites[where].guard.append(fallen.card)
        else:
            state.sites[where].garrison.append(fallen.card)
        cr.cards.append(fallen.card)
        battle.fallen.remove(fallen)
    names = ", ".join(zones.name(state, f.card) for f in back)
    return [
        Event(
            kind="battle_resurrect",
            text=f"{names} return{'s' if len(back) == 1 else ''} to {_name(state, cr)}.",
            data={"creature": cr.id, "cards": [f.card for f in back]},
        )
    ]


# ============================================================ retreat, surrender
def _side_heroes_all(state: Homm4State, side: int) -> list[int]:
    """Living heroes of ``side``: deployed or in reserve."""
    battle = _battle(state)
    own = side_cards(state, side)
    deployed = _side_heroes(state, side)
    reserve = [c for c in battle.reserve if c in own and zones.is_hero(state, c)]
    return deployed + reserve


def _seat_town(state: Homm4State, side: int) -> Site | None:
    battle = _battle(state)
    return zones.nearest_town(state, side_seat(battle, side), battle.hex)


def retreat_problem(state: Homm4State, side: int) -> str | None:
    """Say why ``side`` may not retreat now, or None (homm4:battles.hero-retreat).

    Guards and a Town's defenders never retreat; a side needs a living hero and a Town of
    its own farther than 4 hexes away (unless a hero has ``retreat_anywhere``).
    """
    battle = _battle(state)
    if side == 1 and battle.defender_kind == "guard":
        return "Guards never retreat."
    if side == 1 and battle.defender_kind == "town":
        return "A Town's defenders may not retreat."
    hero_list = _side_heroes_all(state, side)
    if not hero_list:
        return "Only Heroes retreat, and this side has none."
    town = _seat_town(state, side)
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
    battle = _battle(state)
    if battle.defender_kind == "guard":
        return "Guard Stacks cannot surrender or accept a surrender."
    if side == 1 and battle.defender_kind == "town":
        return "A Town's defenders may not surrender."
    if _seat_town(state, side) is None:
        return "There is no Town to withdraw to."
    return None


def _apply_retreat(
    state: Homm4State, seat: int, command: Retreat
) -> tuple[list[Event], BattleOutcome | None]:
    battle = _check_seat(state, seat)
    if battle.stage != "retreat":
        raise WrongPhase(f"Retreat is decided at the end of a Round. {_prompt(state)}")
    side = battle.to_act
    if not command.retreat:
        events = [
            Event(
                kind="battle_no_retreat",
                text=f"{_side_name(battle, side)} fights on.",
                data={"side": side},
            )
        ]
        waiting = _offer_retreat(state, 1) if side == 0 else _offer_surrender(state, 0)
        more, outcome = ([], None) if waiting else _advance(state)
        return events + more, outcome
    problem = retreat_problem(state, side)
    if problem is not None:
        raise IllegalMove(problem)
    return _do_retreat(state, side)


def _do_retreat(state: Homm4State, side: Side) -> tuple[list[Event], BattleOutcome | None]:
    battle = _battle(state)
    town = _seat_town(state, side)
    assert town is not None
    hero_list = _side_heroes_all(state, side)
    lost = [c for c in side_cards(state, side) if c not in hero_list]
    for instance in lost:
        _take_out(state, instance)
        zones.to_discard(state, instance)
    armies = _side_armies(state, side)
    for hero in hero_list:
        _take_out(state, hero)
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
                f"{_side_name(battle, side)} retreats: {names} withdraw{'s' if len(hero_list) == 1 else ''} to the Town "
                f"at {_label(state, town.hex)}; {len(lost)} other card(s) are discarded."
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
    more, outcome = _finish(state, _other(side), "retreat", town=town.id)
    return events + more, outcome


def _apply_offer(
    state: Homm4State, seat: int, command: OfferSurrender
) -> tuple[list[Event], BattleOutcome | None]:
    battle = _check_seat(state, seat)
    if battle.stage != "surrender_offer":
        raise WrongPhase(f"Surrender is offered at the end of a Round. {_prompt(state)}")
    side = battle.to_act
    if command.cards is None:
        if command.pay:
            raise InvalidInput("Name cards to pay only with an offer (cards = how many).")
        events = [
            Event(
                kind="battle_no_surrender",
                text=f"{_side_name(battle, side)} makes no surrender offer.",
                data={"side": side},
            )
        ]
        waiting = _offer_surrender(state, 1) if side == 0 else _start_round(state)
        more, outcome = ([], None) if waiting else _advance(state)
        return events + more, outcome
    problem = surrender_problem(state, side)
    if problem is not None:
        raise IllegalMove(problem)
    hand = state.players_state[seat].hand
    if command.cards > len(hand):
        raise IllegalMove(
            f"You offered {command.cards} cards but hold only {len(hand)} in your Hand (the Risk Stack never pays)."
        )
    pay: list[int] = []
    if command.pay is not None:
        if len(command.pay) != command.cards or len(set(command.pay)) != len(command.pay):
            raise IllegalMove(f"Name exactly {command.cards} different Hand cards to pay.")
        for instance in command.pay:
            if instance not in hand:
                raise IllegalMove(f"Card #{instance} is not in your Hand.")
        pay = list(command.pay)
    battle.surrender_cards = command.cards
    battle.surrender_pay = pay
    battle.stage = "surrender_answer"
    battle.to_act = _other(side)
    return [
        Event(
            kind="battle_surrender_offer",
            text=(
                f"{_side_name(battle, side)} offers {command.cards} card(s) from the Hand to "
                f"{_side_name(battle, _other(side))} for a safe withdrawal."
            ),
            data={"side": side, "cards": command.cards},
        )
    ], None


def _apply_answer(
    state: Homm4State, seat: int, command: AnswerSurrender
) -> tuple[list[Event], BattleOutcome | None]:
    battle = _check_seat(state, seat)
    if battle.stage != "surrender_answer":
        raise WrongPhase(f"There is no surrender offer to answer. {_prompt(state)}")
    offerer = _other(battle.to_act)
    if not command.accept:
        events = [
            Event(
                kind="battle_surrender_rejected",
                text=f"{_side_name(battle, battle.to_act)} rejects the surrender offer.",
                data={"side": battle.to_act},
            )
        ]
        battle.surrender_cards = 0
        battle.surrender_pay = []
        waiting = _offer_surrender(state, 1) if offerer == 0 else _start_round(state)
        more, outcome = ([], None) if waiting else _advance(state)
        return events + more, outcome
    return _do_surrender(state, offerer)


def _do_surrender(state: Homm4State, side: Side) -> tuple[list[Event], BattleOutcome | None]:
    battle = _battle(state)
    payer = side_seat(battle, side)
    taker = side_seat(battle, _other(side))
    town = _seat_town(state, side)
    assert town is not None
    count = battle.surrender_cards
    pay = battle.surrender_pay or payment.auto_pay(state, payer, count)
    hand = state.players_state[payer].hand
    for instance in pay:
        hand.remove(instance)
        zones.to_discard(state, instance)
    for army in _side_armies(state, side):
        army.hex = town.hex
        army.mp2 = 0
        army.done = True
    battle.creatures = [c for c in battle.creatures if c.side != side]
    names = ", ".join(zones.name(state, c) for c in pay) or "nothing"
    events = [
        Event(
            kind="battle_surrender",
            text=(
                f"{_side_name(battle, _other(side))} accepts. {seat_name(payer)} discards {count} card(s) from the "
                f"Hand and withdraws to the Town at {_label(state, town.hex)}."
            ),
            data={"side": side, "cards": count, "town": town.id},
            private={payer: f"You pay {names}."},
            private_data={payer: {"paid": pay}},
        )
    ]
    events.extend(zones.draw(state, taker, count, "surrender payment"))
    more, outcome = _finish(state, _other(side), "surrender", town=town.id, paid=count)
    return events + more, outcome


# ==================================================================== the end
def _finish(
    state: Homm4State,
    winner: Side,
    how: Literal["annihilation", "retreat", "surrender"],
    *,
    town: int | None = None,
    paid: int = 0,
) -> tuple[list[Event], BattleOutcome]:
    """End the battle: bookkeeping of reserves, spells, Mana, recovery and empty Armies."""
    battle = _battle(state)
    loser = _other(winner)
    events: list[Event] = []
    if how == "annihilation":
        lost = [c for c in battle.reserve if c in side_cards(state, loser)]
        for instance in lost:
            _kill_card(state, instance)
        if lost:
            events.append(
                Event(
                    kind="battle_reserve_lost",
                    text=f"The reserve of the defeated side is lost: {', '.join(zones.name(state, c) for c in lost)}.",
                    data={"cards": lost},
                )
            )
    fought = _side_heroes(state, winner)
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
    winner_armies = [a.id for a in _side_armies(state, winner) if a.cards]
    loser_armies = [a.id for a in _side_armies(state, loser) if a.cards]
    involved = set(battle.attacker_armies) | set(battle.defender_armies)
    state.armies = [a for a in state.armies if a.id not in involved or a.cards]
    for army in state.armies:
        if army.id in involved:
            army.cards = _stack_order(state, army.cards)
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
        "annihilation": f"{_side_name(battle, loser)} has no Creature left",
        "retreat": f"{_side_name(battle, loser)} retreated",
        "surrender": f"{_side_name(battle, loser)} surrendered",
    }[how]
    repaired = " The Town's walls are repaired." if battle.walls in ("breach", "sack") else ""
    events.append(
        Event(
            kind="battle_end",
            text=f"{_side_name(battle, winner)} wins the battle at {_label(state, battle.hex)}: {verb}.{repaired}",
            data=outcome.model_dump(mode="json"),
        )
    )
    state.battle = None
    return events, outcome


def _alive(state: Homm4State, hero: int) -> bool:
    if zones.find_hero_army(state, hero) is not None:
        return True
    return any(hero in s.garrison for s in state.sites)


def _stack_order(state: Homm4State, cards: Sequence[int]) -> list[int]:
    """Heroes on top; else the Unit with the most Movement (homm4:movement-phase.managing-armies)."""
    ordered = list(cards)
    hero_list = [c for c in ordered if zones.is_hero(state, c)]
    if hero_list:
        return hero_list + [c for c in ordered if c not in hero_list]
    if not ordered:
        return ordered

    def movement(i: int) -> tuple[int, int]:
        found = zones.card(state, ordered[i])
        return (found.movement if isinstance(found, UnitCard) else 0, -i)

    best = max(range(len(ordered)), key=movement)
    return [ordered[best], *ordered[:best], *ordered[best + 1 :]]


def _recover(state: Homm4State, winner: Side) -> list[Event]:
    """The ``recover`` effect: each winning Army takes back up to N of its own Unit cards
    killed in this battle from the discard pile (highest level first, then first fallen)."""
    battle = _battle(state)
    events: list[Event] = []
    for army in _side_armies(state, winner):
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


# ================================================================ dispatch
def apply_battle_command(
    state: Homm4State, seat: int, command: Command
) -> tuple[list[Event], BattleOutcome | None]:
    """Apply a battle command by ``seat`` to the working state.

    Validates fully before changing anything. Returns the events and, when the battle
    has just ended, its `BattleOutcome` (``state.battle`` is then None).

    :raises WrongPhase: no battle, or the command does not answer the current stage.
    :raises NotYourDecision: ``seat`` does not command the side that must decide.
    :raises IllegalMove | InvalidInput: the rules refuse the command (the message says why
        and what is allowed). Rule: homm4:battles and its sub-sections.
    """
    battle = _check_seat(state, seat)
    _kind, commands = _STAGE_DECISIONS[battle.stage]
    if command.type not in commands:
        raise WrongPhase(
            f"'{command.type}' cannot be done now. {_prompt(state)} You may: {', '.join(commands)}."
        )
    if isinstance(command, Deploy):
        events = _apply_deploy(state, battle.to_act, command)
        if battle.stage != "fight":
            return events, None
        more, outcome = _advance(state)
        return events + more, outcome
    handlers: dict[type[Command], Any] = {
        Attack: _apply_attack,
        SupportCreature: _apply_support,
        Group: _apply_group,
        Defend: _apply_defend,
        Regroup: _apply_regroup,
        CastSpell: _apply_cast,
        Counterattack: _apply_counter,
        FillFront: _apply_fill,
        Retreat: _apply_retreat,
        OfferSurrender: _apply_offer,
        AnswerSurrender: _apply_answer,
    }
    handler = handlers.get(type(command))
    if handler is None:
        raise InvalidInput(f"'{command.type}' is not a battle command.")
    result: tuple[list[Event], BattleOutcome | None] = handler(state, seat, command)
    return result


# ================================================================== legal
def battle_legal(state: Homm4State, seat: int) -> list[Command]:
    """Return the commands ``seat`` may give in the battle now (finite; every one applies).

    Deployment: `canonical_deployments`. Acting: every attack (each mode, reachable
    target, target combination of multi-target units, and Mass attack count up to the
    target's size), Support for each friend, Group, Defend, Regroup when allowed, each
    castable Spell at each target (and count). Counter: strike or decline. Fill: each
    back-line Creature. Retreat: yes/no. Surrender: no offer, or 0..Hand size cards.
    Answer: accept/reject. Empty when ``seat`` owes nothing.
    """
    battle = state.battle
    if battle is None or side_seat(battle, battle.to_act) != seat:
        return []
    if battle.stage == "deploy":
        return list(canonical_deployments(state, battle.to_act))
    if battle.stage == "fight":
        found: list[Command] = []
        for cr in _due(state):
            found.extend(_creature_commands(state, cr))
        return found
    if battle.stage == "counter":
        return [Counterattack(strike=True), Counterattack(strike=False)]
    if battle.stage == "fill_front":
        return [FillFront(creature=c.id) for c in _line(state, battle.to_act, "ranged")]
    if battle.stage == "retreat":
        return [Retreat(retreat=False), Retreat(retreat=True)]
    if battle.stage == "surrender_offer":
        hand = len(state.players_state[seat].hand)
        offers: list[Command] = [OfferSurrender(cards=None)]
        offers.extend(OfferSurrender(cards=n) for n in range(hand + 1))
        return offers
    return [AnswerSurrender(accept=False), AnswerSurrender(accept=True)]


def _attack_commands(state: Homm4State, cr: Creature, mode: Mode) -> list[Command]:
    found: list[Command] = []
    if mode == "melee":
        reach = melee_targets(state, cr)
    elif mode == "ranged":
        reach = list(ranged_targets(state, cr))
    else:
        reach = list(spell_targets(state, cr))
    ids = [t for t in reach if t != "walls"]
    for target in ids:
        size = len(creature(state, target).cards)
        found.extend(
            Attack(creature=cr.id, mode=mode, targets=(target,), count=n)
            for n in range(1, size + 1)
        )
    if mode == "melee":
        for size in range(2, min(_multi_target(state, cr), len(ids)) + 1):
            found.extend(
                Attack(creature=cr.id, mode=mode, targets=combo)
                for combo in combinations(ids, size)
            )
        if "walls" in reach:
            found.append(Attack(creature=cr.id, mode="melee", target_walls=True))
    return found


def _creature_commands(state: Homm4State, cr: Creature) -> list[Command]:
    battle = _battle(state)
    if battle.acting == cr.id:
        assert battle.acting_mode is not None
        return _attack_commands(state, cr, battle.acting_mode)
    found: list[Command] = []
    modes: tuple[Mode, ...] = ("melee", "ranged", "spell")
    for mode in modes:
        found.extend(_attack_commands(state, cr, mode))
    if _is_hero(state, cr):
        found.extend(_cast_commands(state, cr))
    found.extend(
        SupportCreature(creature=cr.id, target=f.id)
        for f in creatures_of(state, cr.side)
        if f.id != cr.id
    )
    found.append(Group(creature=cr.id))
    found.append(Defend(creature=cr.id))
    if can_regroup(state, cr):
        found.append(Regroup(creature=cr.id))
    return found


def _cast_commands(state: Homm4State, cr: Creature) -> list[Command]:
    hero = cr.cards[0]
    found: list[Command] = []
    for spell_id in heroes.castable_spells(state, hero, _hero_spells(state, hero)):
        spell = zones.card(state, spell_id)
        if not isinstance(spell, SpellCard) or spell.timing != "battle":
            continue
        targets = _spell_targets(state, cr, spell)
        if spell.effect == "resurrect":
            targets = [t for t in targets if _resurrectable(state, creature(state, t))]
        if not targets:
            continue
        if spell.target in (SpellTarget.ONE_ENEMY, SpellTarget.ONE_FRIEND):
            for target in targets:
                most = len(creature(state, target).cards) if spell.effect == "attack" else 1
                found.extend(
                    CastSpell(creature=cr.id, spell=spell_id, targets=(target,), count=n)
                    for n in range(1, most + 1)
                )
        else:
            found.append(CastSpell(creature=cr.id, spell=spell_id))
    return found


def _second_attacks(state: Homm4State, cr: Creature) -> bool:
    battle = _battle(state)
    return battle.acting_mode is not None and bool(_attack_commands(state, cr, battle.acting_mode))


# ================================================================= default
def battle_default(state: Homm4State, seat: int) -> Command:
    """Return the documented default for ``seat``'s battle decision (a moderator's skip).

    Deploy: the first canonical deployment (one stack per unit type, shooters on the
    Ranged Line; a Town's defender all behind the walls). Act: the first Creature due
    attacks, in the mode with its highest attack value, the reachable enemy whose top card
    has the lowest Defense (the walls when only they are in reach), one card; a Creature
    with no attack defends; a second attack uses the same rule. Counterattack: always
    strike. Fill: the back-line Creature with the highest Melee value. Retreat: no.
    Surrender: no offer; answer: reject.

    :raises NotYourDecision: if ``seat`` owes no battle decision.
    """
    battle = state.battle
    if battle is None or side_seat(battle, battle.to_act) != seat:
        raise NotYourDecision("You owe no decision in a battle now.")
    if battle.stage == "deploy":
        return canonical_deployments(state, battle.to_act)[0]
    if battle.stage == "fight":
        return _default_action(state, _due(state)[0])
    if battle.stage == "counter":
        return Counterattack(strike=True)
    if battle.stage == "fill_front":
        back = _line(state, battle.to_act, "ranged")
        best = max(back, key=lambda c: (melee_value(state, c) + stack_bonus(state, c), -c.id))
        return FillFront(creature=best.id)
    if battle.stage == "retreat":
        return Retreat(retreat=False)
    if battle.stage == "surrender_offer":
        return OfferSurrender(cards=None)
    return AnswerSurrender(accept=False)


def _default_action(state: Homm4State, cr: Creature) -> Command:
    battle = _battle(state)
    modes: list[Mode] = (
        [battle.acting_mode] if battle.acting_mode is not None else ["melee", "ranged", "spell"]
    )
    best: tuple[int, Command] | None = None
    for mode in modes:
        options = [
            c for c in _attack_commands(state, cr, mode) if isinstance(c, Attack) and c.count == 1
        ]
        singles = [c for c in options if len(c.targets) == 1]
        if singles:
            target = min(
                singles,
                key=lambda c: (
                    card_defense(
                        state, creature(state, c.targets[0]), creature(state, c.targets[0]).cards[0]
                    ),
                    c.targets[0],
                ),
            )
            if mode == "melee":
                value = melee_value(state, cr)
            elif mode == "ranged":
                value = ranged_value(state, cr)
            else:
                caster = _spellcaster(state, cr)
                value = caster.spell_attack if caster is not None else 0
            if best is None or value > best[0]:
                best = (value, target)
        elif any(c.target_walls for c in options) and best is None:
            best = (-1, next(c for c in options if c.target_walls))
    if best is not None:
        return best[1]
    return Defend(creature=cr.id)


# ==================================================================== view
def battle_view(state: Homm4State) -> BattleView | None:
    """Return the public picture of the battle (None without one). Everything on the
    battlefield is face up; values are the current ones (bonuses, spells, Defense while
    defending; melee/ranged include the stack bonus)."""
    battle = state.battle
    if battle is None:
        return None
    town = None
    if battle.defender_kind == "town" and battle.site is not None:
        site = state.sites[battle.site]
        if site.card is not None:
            town = CardRef(id=site.card, card=state.card_defs[site.card])
    views = []
    for cr in battle.creatures:
        bonus = stack_bonus(state, cr)
        ranged = ranged_value(state, cr)
        views.append(
            CreatureView(
                id=cr.id,
                side=cr.side,
                line=cr.line,
                cards=tuple(CardRef(id=c, card=state.card_defs[c]) for c in cr.cards),
                hero=_is_hero(state, cr),
                phase=phase_of(state, cr),
                melee=melee_value(state, cr) + bonus,
                ranged=ranged + bonus if ranged > 0 else 0,
                defense=card_defense(state, cr, cr.cards[0]),
                acted=cr.acted,
                grouped=cr.grouped,
                defending=cr.defending,
                countered=cr.countered,
                support=sum(s.value for s in cr.supports),
            )
        )
    last = None
    if battle.last_attack is not None:
        rec = battle.last_attack
        last = AttackView(
            attacker=rec.attacker,
            targets=tuple(rec.targets),
            mode=rec.mode,
            attack_value=rec.attack_value,
            roll=rec.roll,
            total=rec.total,
            defense=rec.defense,
            killed=rec.killed,
            walls=rec.walls,
        )
    return BattleView(
        label=_label(state, battle.hex),
        attacker=battle.attacker,
        defender=battle.defender,
        defender_kind=battle.defender_kind,
        town=town,
        walls=battle.walls,
        stage=battle.stage,
        round=battle.round,
        phase=battle.phase,
        to_act=battle.to_act,
        creatures=tuple(views),
        last_attack=last,
    )
