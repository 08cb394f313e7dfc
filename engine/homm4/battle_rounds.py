"""Phases and Rounds: after every action the battle advances to what comes next (the end of
the battle, a front line to fill, counterattacks, a second attack, the next Creature, Phase
or side), and at the end of a Round it asks for Hero Retreat, then Surrender, before a new
Round begins from Phase 1.

Rule sections: homm4:battles.phases-and-rounds, homm4:battles.tactical-deployment (the
Melee Line refilled from the back), homm4:battles.regrouping (automatic moves keep the
attack), homm4:battles.counterattack (once per Round, markers cleared each Round),
homm4:battles.hero-retreat, homm4:battles.surrender.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from engine.core.errors import IllegalMove, InvalidInput, WrongPhase
from engine.core.model import Event
from engine.core.words import plural
from engine.homm4 import board
from engine.homm4.battle_core import (
    PHASES,
    check_seat,
    creature,
    creature_name,
    current_battle,
    decision_prompt,
    due_creatures,
    front_shortfall,
    has_ability,
    line_of,
    mode_targets,
    other_side,
    ranged_value,
    side_name,
    winner_side,
)
from engine.homm4.battle_end import (
    BattleOutcome,
    do_retreat,
    do_surrender,
    finish,
    retreat_problem,
    surrender_problem,
)
from engine.homm4.battle_spirit import start_round
from engine.homm4.cards import (
    NoCounter,
    UnlimitedCounter,
)
from engine.homm4.commands import (
    AnswerSurrender,
    FillFront,
    OfferSurrender,
    Retreat,
)
from engine.homm4.state import (
    Creature,
    Homm4State,
)


def advance(state: Homm4State) -> tuple[list[Event], BattleOutcome | None]:
    """Settle what follows an action: end of battle, front-line fills, counterattacks,
    a second attack, the next Creature / Phase / side, the end of the Round.
    Rule: homm4:battles.phases-and-rounds."""
    battle = current_battle(state)
    events: list[Event] = []
    while True:
        events.extend(start_round(state))
        winner = winner_side(state)
        if winner is not None:
            more, outcome = finish(state, winner, "annihilation")
            return events + more, outcome
        needs_choice = False
        for side in (battle.turn_side, other_side(battle.turn_side)):
            events.extend(_auto_fill(state, side))
            if front_shortfall(state, side):
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
            if (
                acting is not None
                and acting.attacks_left > 0
                and battle.acting_mode is not None
                and mode_targets(state, acting, battle.acting_mode)
            ):
                battle.stage = "fight"
                battle.to_act = battle.turn_side
                return events, None
            if acting is not None:
                acting.attacks_left = 0
            battle.acting = None
            battle.acting_mode = None
        if due_creatures(state):
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
    short = front_shortfall(state, side)
    back = line_of(state, side, "ranged")
    if not short or len(back) > short:
        return []
    events = []
    for cr in back:
        cr.line = "melee"
        events.append(
            Event(
                kind="battle_fill_front",
                text=f"{creature_name(state, cr)} moves up to the Melee Line (fewer than the required Creatures stood there).",
                data={"creature": cr.id, "side": side, "automatic": True},
            )
        )
    return events


def _next_counter(state: Homm4State) -> bool:
    """Start the next valid pending counterattack decision; False if none is left."""
    battle = current_battle(state)
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
    once per Round (unless unlimited), melee with melee, ranged only with Ranged > 0; never
    while demoralized (homm4:advanced-rules.morale)."""
    if cr.demoralized:
        return False
    if cr.countered and not has_ability(state, cr, UnlimitedCounter):
        return False
    if mode == "melee":
        return True
    if mode == "ranged":
        return ranged_value(state, cr) > 0
    return False


def _end_of_round(state: Homm4State) -> list[Event]:
    battle = current_battle(state)
    events = [
        Event(
            kind="battle_round_end",
            text=f"Round {battle.round} of the battle at {board.label(state, battle.hex)} ends.",
            data={"round": battle.round},
        )
    ]
    _offer_retreat(state, 0)
    return events


def _offer_retreat(state: Homm4State, side: int) -> bool:
    """Ask ``side`` (then the Defender) about Hero Retreat, then Surrender, else start a
    new Round. :returns: True when a decision is now awaited, False on a new Round."""
    return _ask(state, side, "retreat", retreat_problem) or offer_surrender(state, 0)


def offer_surrender(state: Homm4State, side: int) -> bool:
    """Ask ``side`` (then the Defender) about Surrender, else start a new Round.
    Rule: homm4:battles.surrender."""
    if _ask(state, side, "surrender_offer", surrender_problem):
        return True
    _new_round(state)
    return False


def _ask(
    state: Homm4State,
    side: int,
    stage: Literal["retreat", "surrender_offer"],
    problem: Callable[[Homm4State, int], str | None],
) -> bool:
    """Put the first of ``side`` and the later sides (Attacker 0, then Defender 1) that may
    answer ``stage`` to decide; :returns: whether one may."""
    battle = current_battle(state)
    for candidate in (0, 1):
        if candidate >= side and problem(state, candidate) is None:
            battle.stage = stage
            battle.to_act = candidate
            return True
    return False


def _start_round(state: Homm4State) -> bool:
    """Start a new Round; :returns: False (no decision is awaited yet)."""
    _new_round(state)
    return False


def _new_round(state: Homm4State) -> None:
    battle = current_battle(state)
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


def queue_counter(state: Homm4State, attacker: Creature, target: Creature, mode: str) -> None:
    """Queue the counterattack ``target`` may make against ``attacker`` after an attack
    in ``mode`` (never against ``no_counter``; homm4:battles.counterattack).
    """
    battle = current_battle(state)
    if target not in battle.creatures or has_ability(state, attacker, NoCounter):
        return
    if not _may_counter(state, target, mode):
        return
    entry = (target.id, attacker.id, mode)
    if battle.counter_pending is None:
        battle.counter_pending = entry
    else:
        battle.counter_queue.append(entry)


def apply_fill(
    state: Homm4State, seat: int, command: FillFront
) -> tuple[list[Event], BattleOutcome | None]:
    """Move the chosen back-line Creature to the Melee Line when several could fill it;
    moving up never costs the attack (homm4:battles.regrouping, homm4:battles.tactical-deployment).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    battle = check_seat(state, seat)
    if battle.stage != "fill_front":
        raise WrongPhase(f"No Creature has to move forward now. {decision_prompt(state)}")
    cr = creature(state, command.creature)
    if cr.side != battle.to_act or cr.line != "ranged":
        names = ", ".join(creature_name(state, c) for c in line_of(state, battle.to_act, "ranged"))
        raise IllegalMove(f"Choose one of your Creatures on the Ranged Line: {names}.")
    cr.line = "melee"
    events = [
        Event(
            kind="battle_fill_front",
            text=f"{creature_name(state, cr)} moves up to the Melee Line.",
            data={"creature": cr.id, "side": cr.side, "automatic": False},
        )
    ]
    more, outcome = advance(state)
    return events + more, outcome


def apply_retreat(
    state: Homm4State, seat: int, command: Retreat
) -> tuple[list[Event], BattleOutcome | None]:
    """Answer the end-of-Round Hero Retreat question: fight on (the Defender is asked
    next, then Surrender), or retreat (homm4:battles.hero-retreat: the Attacker first).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove: when the side may not retreat (no Hero, a Town within 4 hexes...).
    """
    battle = check_seat(state, seat)
    if battle.stage != "retreat":
        raise WrongPhase(f"Retreat is decided at the end of a Round. {decision_prompt(state)}")
    side = battle.to_act
    if not command.retreat:
        events = [
            Event(
                kind="battle_no_retreat",
                text=f"{side_name(battle, side)} fights on.",
                data={"side": side},
            )
        ]
        waiting = _offer_retreat(state, 1) if side == 0 else offer_surrender(state, 0)
        more, outcome = ([], None) if waiting else advance(state)
        return events + more, outcome
    problem = retreat_problem(state, side)
    if problem is not None:
        raise IllegalMove(problem)
    return do_retreat(state, side)


def apply_offer(
    state: Homm4State, seat: int, command: OfferSurrender
) -> tuple[list[Event], BattleOutcome | None]:
    """Offer to surrender for ``cards`` Hand cards (optionally naming them), or make no
    offer (homm4:battles.surrender: first the Attacker, then the Defender; never the Risk
    Stack, never a Guard or a Town's defenders).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    :raises IllegalMove | InvalidInput: for an offer the side may not make.
    """
    battle = check_seat(state, seat)
    if battle.stage != "surrender_offer":
        raise WrongPhase(f"Surrender is offered at the end of a Round. {decision_prompt(state)}")
    side = battle.to_act
    if command.cards is None:
        if command.pay:
            raise InvalidInput("Name cards to pay only with an offer (cards = how many).")
        events = [
            Event(
                kind="battle_no_surrender",
                text=f"{side_name(battle, side)} makes no surrender offer.",
                data={"side": side},
            )
        ]
        waiting = offer_surrender(state, 1) if side == 0 else _start_round(state)
        more, outcome = ([], None) if waiting else advance(state)
        return events + more, outcome
    problem = surrender_problem(state, side)
    if problem is not None:
        raise IllegalMove(problem)
    hand = state.players_state[seat].hand
    if command.cards > len(hand):
        raise IllegalMove(
            f"You offered {plural(command.cards, 'card')} but hold only {len(hand)} in your Hand (the Risk Stack never pays)."
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
    battle.to_act = other_side(side)
    return [
        Event(
            kind="battle_surrender_offer",
            text=(
                f"{side_name(battle, side)} offers {plural(command.cards, 'card')} from the Hand to "
                f"{side_name(battle, other_side(side))} for a safe withdrawal."
            ),
            data={"side": side, "cards": command.cards},
        )
    ], None


def apply_answer(
    state: Homm4State, seat: int, command: AnswerSurrender
) -> tuple[list[Event], BattleOutcome | None]:
    """Accept or reject a surrender offer; on acceptance the offerer pays and withdraws
    (homm4:battles.surrender).

    :returns: the events and, when the battle has just ended, its `BattleOutcome`.
    """
    battle = check_seat(state, seat)
    if battle.stage != "surrender_answer":
        raise WrongPhase(f"There is no surrender offer to answer. {decision_prompt(state)}")
    offerer = other_side(battle.to_act)
    if not command.accept:
        events = [
            Event(
                kind="battle_surrender_rejected",
                text=f"{side_name(battle, battle.to_act)} rejects the surrender offer.",
                data={"side": battle.to_act},
            )
        ]
        battle.surrender_cards = 0
        battle.surrender_pay = []
        waiting = offer_surrender(state, 1) if offerer == 0 else _start_round(state)
        more, outcome = ([], None) if waiting else advance(state)
        return events + more, outcome
    return do_surrender(state, offerer)
