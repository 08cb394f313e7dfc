"""Battles: the interface the adventure layer and the bot use.

Rule sections: homm4:battles (every sub-section, Battles in Towns included),
homm4:heroes-levels-skills-and-spells.heroes-in-battle, ...casting-spells, ...mana.

The adventure layer calls exactly: `begin_battle`, `battle_pending`, `battle_legal`,
`battle_default`, `apply_battle_command` (which returns a `BattleOutcome` when the battle
ends) and `battle_view`. The rules live in the battle modules this one routes to:

* `battle_core`: lookups, values, reach, the Melee Line minimum, card homes, the die;
* `battle_deploy`: Tactical Deployment;
* `battle_attacks`: attacks (walls included), Support, Grouping, Defense, Regrouping,
  counterattacks;
* `battle_spells`: Heroes' Spells;
* `battle_rounds`: Phases and Rounds, the end-of-Round Retreat and Surrender decisions;
* `battle_end`: Hero Retreat, Surrender, the end of the battle and `BattleOutcome`;
* `battle_options`: legal commands and defaults.

All card bookkeeping happens there: killed cards go to their owner's discard pile at once
(a killed hero with its whole inventory), cast Spell cards wait in ``state.limbo`` until
the battle ends, empty Armies are removed at the end. Functions work on the working
`Homm4State` (`Ruleset.apply` passes a private copy).

Sides are 0 (the Attacker) and 1 (the Defender); `Battle.attacker` / `Battle.defender`
are the seats commanding them (a Guard Stack's controller for a Guard). Creatures are
numbered from 1 in deployment order. The rules readings are listed in the "Rules
readings: battles and heroes" section of ``engine/homm4/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from engine.core.errors import IllegalMove, InvalidInput, WrongPhase
from engine.core.model import Command, Decision, Event, seat_name
from engine.homm4 import board, zones
from engine.homm4.battle_attacks import (
    apply_attack,
    apply_counter,
    apply_defend,
    apply_group,
    apply_regroup,
    apply_support,
)
from engine.homm4.battle_core import (
    STAGE_DECISIONS,
    can_regroup,
    card_defense,
    check_seat,
    creature,
    creatures_of,
    decision_prompt,
    due_creatures,
    is_hero,
    melee_targets,
    melee_value,
    phase_of,
    ranged_value,
    side_cards,
    side_seat,
    stack_bonus,
    support_value,
)
from engine.homm4.battle_deploy import apply_deploy, canonical_deployments
from engine.homm4.battle_end import BattleOutcome, retreat_problem, surrender_problem
from engine.homm4.battle_options import battle_default, battle_legal
from engine.homm4.battle_rounds import advance, apply_answer, apply_fill, apply_offer, apply_retreat
from engine.homm4.battle_spells import apply_cast
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
    SupportCreature,
)
from engine.homm4.hexes import Hex
from engine.homm4.state import (
    Battle,
    Homm4State,
)
from engine.homm4.views import AttackView, BattleView, CardRef, CreatureView


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
    where = board.label(state, hex)
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


def battle_pending(state: Homm4State) -> list[Decision]:
    """Return the one decision the battle waits for (empty when there is no battle).
    Rule: homm4:battles.phases-and-rounds."""
    battle = state.battle
    if battle is None:
        return []
    kind, commands = STAGE_DECISIONS[battle.stage]
    return [
        Decision(
            seat=side_seat(battle, battle.to_act),
            kind=kind,
            prompt=decision_prompt(state),
            commands=commands,
        )
    ]


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
    battle = check_seat(state, seat)
    _kind, commands = STAGE_DECISIONS[battle.stage]
    if command.type not in commands:
        raise WrongPhase(
            f"'{command.type}' cannot be done now. {decision_prompt(state)} You may: {', '.join(commands)}."
        )
    if isinstance(command, Deploy):
        events = apply_deploy(state, battle.to_act, command)
        if battle.stage != "fight":
            return events, None
        more, outcome = advance(state)
        return events + more, outcome
    handlers: dict[type[Command], Any] = {
        Attack: apply_attack,
        SupportCreature: apply_support,
        Group: apply_group,
        Defend: apply_defend,
        Regroup: apply_regroup,
        CastSpell: apply_cast,
        Counterattack: apply_counter,
        FillFront: apply_fill,
        Retreat: apply_retreat,
        OfferSurrender: apply_offer,
        AnswerSurrender: apply_answer,
    }
    handler = handlers.get(type(command))
    if handler is None:
        raise InvalidInput(f"'{command.type}' is not a battle command.")
    result: tuple[list[Event], BattleOutcome | None] = handler(state, seat, command)
    return result


def battle_view(state: Homm4State) -> BattleView | None:
    """Return the public picture of the battle (None without one). Everything on the
    battlefield is face up; values are the current ones (bonuses, spells, Defense while
    defending; melee/ranged include the stack bonus) (homm4:battles)."""
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
                hero=is_hero(state, cr),
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
        label=board.label(state, battle.hex),
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


__all__ = [
    "BattleOutcome",
    "apply_battle_command",
    "battle_default",
    "battle_legal",
    "battle_pending",
    "battle_view",
    "begin_battle",
    "can_regroup",
    "canonical_deployments",
    "card_defense",
    "creature",
    "creatures_of",
    "due_creatures",
    "melee_targets",
    "melee_value",
    "retreat_problem",
    "side_seat",
    "stack_bonus",
    "support_value",
    "surrender_problem",
]
