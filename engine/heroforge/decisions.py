"""Who owes what now: pending decisions, the legal commands for each, and the defaults.

Rule sections: heroforge:turns (the order of a turn), heroforge:combat (the defence
phase), heroforge:factions (steal offers), heroforge:land-shifting.

Precedence: a defence phase owed, then a steal offer, then a shift owed, then the step
of the active seat's turn (set-up: the seat choosing or placing its hero).

`legal_commands` is finite: units are offered one at a time, and manning/unmanning one
unit at a time (any set of units is accepted by `apply`).
"""

from __future__ import annotations

from engine.core.errors import NotYourDecision
from engine.core.model import Command, Decision, seat_name
from engine.core.words import plural
from engine.heroforge import board, combat, effects, enchant, movement, purchase, setup, turns
from engine.heroforge.commands import (
    Attack,
    BuyFort,
    BuyUnit,
    ChooseHero,
    EndBuying,
    EndTurn,
    FightBack,
    LetGo,
    ManFort,
    Move,
    PassEnchantment,
    PlaceHero,
    Retreat,
    RollMove,
    Shift,
    SkipMove,
    SkipShift,
    Stay,
    Steal,
    UnmanFort,
)
from engine.heroforge.state import HeroforgeState

BUY_COMMANDS = (
    "buy_unit",
    "buy_fort",
    "man_fort",
    "unman_fort",
    "pass_enchantment",
    "shift",
    "end_buying",
)


def pending(state: HeroforgeState) -> list[Decision]:
    """The decisions owed now (at most one at a time in Hero Forge).

    Rule: heroforge:turns.
    """
    if state.phase == "over":
        return []
    if state.phase == "choose_hero":
        return [
            Decision(
                seat=state.active,
                kind="choose_hero",
                prompt=f"{seat_name(state.active)} must choose a hero.",
                commands=("choose_hero",),
            )
        ]
    if state.phase == "place_hero":
        return [
            Decision(
                seat=state.active,
                kind="place_hero",
                prompt=f"{seat_name(state.active)} must place the hero on a Plain Land.",
                commands=("place_hero",),
            )
        ]
    if state.defence is not None:
        d = state.defence
        return [
            Decision(
                seat=d.defender,
                kind="defend",
                prompt=f"{seat_name(d.defender)} is attacked by {seat_name(d.attacker)}: "
                "fight back or retreat.",
                commands=("fight_back", "retreat"),
            )
        ]
    if state.steal is not None:
        offer = state.steal
        seat = offer.candidates[0]
        return [
            Decision(
                seat=seat,
                kind="steal",
                prompt=f"{seat_name(seat)} may pay 1000e to steal {offer.spec.name} from "
                f"{seat_name(offer.receiver)}.",
                commands=("steal", "let_go"),
            )
        ]
    if state.shift_due:
        due = state.shift_due[0]
        return [
            Decision(
                seat=due.seat,
                kind="shift",
                prompt=f"{seat_name(due.seat)} may shift {plural(due.count, 'land plate')} ({due.reason}).",
                commands=("shift", "skip_shift"),
            )
        ]
    return [_step_decision(state)]


def _step_decision(state: HeroforgeState) -> Decision:
    seat = state.active
    who = seat_name(seat)
    if state.step in ("buy1", "buy2"):
        when = "before moving" if state.step == "buy1" else "after moving"
        return Decision(
            seat=seat,
            kind="buy",
            prompt=f"{who} may buy units or forts {when}, or end buying.",
            commands=BUY_COMMANDS,
        )
    if state.step == "move":
        return Decision(
            seat=seat,
            kind="move",
            prompt=f"{who} may roll the D6 to move, or not move.",
            commands=("roll_move", "skip_move"),
        )
    if state.step == "moving":
        return Decision(
            seat=seat,
            kind="moving",
            prompt=f"{who} rolled {state.move_roll}: move in one direction or stay.",
            commands=("move", "stay"),
        )
    return Decision(
        seat=seat,
        kind="combat",
        prompt=f"{who} may attack a target on the same plate"
        + (
            " (in combat: must continue)."
            if combat.must_continue(state, seat)
            else ", or end the turn."
        ),
        commands=("attack", "end_turn"),
    )


def owed(state: HeroforgeState, seat: int) -> Decision | None:
    """The decision ``seat`` owes now, if any.

    Rule: heroforge:turns.
    """
    return next((d for d in pending(state) if d.seat == seat), None)


def ability_shifts_left(state: HeroforgeState, seat: int) -> int:
    """Plate shifts ``seat`` may still make this turn from enchantments and abilities.

    Rule: heroforge:land-shifting.
    """
    return max(0, effects.shifts_per_turn(state, seat) - state.shifts_used)


def legal_commands(state: HeroforgeState, seat: int) -> list[Command]:
    """Every command ``seat`` may issue now (a finite list; each is accepted by apply).

    Rule: heroforge:turns.
    """
    decision = owed(state, seat)
    if decision is None:
        return []
    kind = decision.kind
    if kind == "choose_hero":
        return [ChooseHero(hero=h) for h in setup.available_heroes(state)]
    if kind == "place_hero":
        return [PlaceHero(plate=label) for label in setup.free_plains(state)]
    if kind == "defend":
        found: list[Command] = [FightBack(target=t) for t in combat.defence_targets(state, seat)]
        if turns.retreat_destination(state, seat) is not None:
            found.append(Retreat())
        return found
    if kind == "steal":
        return [Steal(), LetGo()]
    if kind == "shift":
        return [*(Shift(plate=p, direction=d) for p, d in board.legal_shifts(state)), SkipShift()]
    if kind == "buy":
        return _buy_commands(state, seat)
    if kind == "move":
        return [RollMove(), SkipMove()]
    if kind == "moving":
        return [
            *(Move(direction=d, distance=n) for d, n in movement.destinations(state, seat)),
            Stay(),
        ]
    found = [Attack(target=t) for t in combat.attack_targets(state, seat)]
    if not combat.must_continue(state, seat):
        found.append(EndTurn())
    return found


def _buy_commands(state: HeroforgeState, seat: int) -> list[Command]:
    found: list[Command] = []
    if purchase.trade_problem(state, seat) is None:
        found += [
            BuyUnit(level=level)
            for level in range(1, 11)
            if purchase.buy_unit_problem(state, seat, level, 1) is None
        ]
        found += [
            BuyFort(step=step)
            for step in board.DIRECTIONS
            if purchase.buy_fort_problem(state, seat, step) is None
        ]
        player = state.player(seat)
        assert player.at is not None
        for fort in effects.forts_on(state, player.at.plate):
            if fort.owner != seat:
                continue
            found += [ManFort(fort=fort.id, units=(u.id,)) for u in player.army]
            found += [UnmanFort(fort=fort.id, units=(u.id,)) for u in fort.units]
    found += [
        PassEnchantment(to=other)
        for other in state.living()
        if enchant.pass_problem(state, seat, other) is None
    ]
    if ability_shifts_left(state, seat):
        found += [Shift(plate=p, direction=d) for p, d in board.legal_shifts(state)]
    found.append(EndBuying())
    return found


def default_command(state: HeroforgeState, seat: int) -> Command:
    """The documented default answer (a moderator's skip): the first hero or Plain Land
    free, fight back at the attacker's hero, let a steal go, skip a shift, end buying,
    do not move, stay, end the turn (or, when combat must go on, the first attack).

    :raises NotYourDecision: if ``seat`` owes nothing.

    Rule: none (a moderator's skip; our choice of defaults).
    """
    decision = owed(state, seat)
    if decision is None:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    kind = decision.kind
    if kind in ("choose_hero", "place_hero"):
        return legal_commands(state, seat)[0]
    if kind == "defend":
        assert state.defence is not None
        return FightBack(target=f"hero:{state.defence.attacker}")
    simple: dict[str, Command] = {
        "steal": LetGo(),
        "shift": SkipShift(),
        "buy": EndBuying(),
        "move": SkipMove(),
        "moving": Stay(),
    }
    if kind in simple:
        return simple[kind]
    if combat.must_continue(state, seat):
        return Attack(target=combat.attack_targets(state, seat)[0])
    return EndTurn()
