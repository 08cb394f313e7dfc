"""Tactical Deployment: the Attacker deploys first, then the Defender; Creature Stacks of
one unit type (a Hero alone), at most 7, the Ranged Line only behind 3 Creatures on the
Melee Line (a Town's defender may stand all behind the walls), whole unit types beyond
the 7 Creatures wait in reserve.

Rule sections: homm4:battles.tactical-deployment, homm4:battles (Battles in Towns:
Deployment), homm4:heroes-levels-skills-and-spells.heroes-in-battle.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalMove
from engine.core.model import Event
from engine.homm4 import heroes, zones
from engine.homm4.battle_core import (
    FRONT_MINIMUM,
    MAX_CREATURES,
    Side,
    card_level,
    creature_name,
    creatures_of,
    current_battle,
    home_of,
    side_cards,
    side_name,
)
from engine.homm4.cards import (
    HeroCard,
    Spellcaster,
    UnitCard,
)
from engine.homm4.commands import (
    Deploy,
    StackOrder,
)
from engine.homm4.state import (
    Creature,
    Homm4State,
)


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
    Rule: homm4:battles.tactical-deployment.
    """
    battle = current_battle(state)
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
    battle = current_battle(state)
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


def apply_deploy(state: Homm4State, side: Side, command: Deploy) -> list[Event]:
    """Deploy ``side``'s Creature Stacks on the Melee and Ranged Lines (the Attacker
    first, then the Defender; homm4:battles.tactical-deployment).

    :raises IllegalMove: naming the broken deployment rule (nothing is changed).
    """
    battle = current_battle(state)
    reserve = _validate_deploy(state, side, command)
    for stack in command.stacks:
        zone, where = home_of(state, stack.cards[0])
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
            f"{creature_name(state, cr)} on the {'Melee' if cr.line == 'melee' else 'Ranged'} Line"
        )
    text = f"{side_name(battle, side)} deploys: {'; '.join(parts)}."
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
