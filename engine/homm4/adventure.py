"""The turn cycle on the adventure map: Income, phase changes, Closing, captures,
the aftermath of battles, eliminations and victory.

Rule sections: homm4:game-process, homm4:income-phase (and its sub-sections),
homm4:closing-phase, homm4:movement-phase.towns / .creature-dwellings / .objects
(capturing), homm4:heroes-levels-skills-and-spells.heroes-and-artifacts,
homm4:objectives, homm4:victory.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event, Result, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import artifacts, board, diplomacy, heroes, scouting, zones
from engine.homm4.battle_end import BattleOutcome
from engine.homm4.cards import ArtifactCard, EffectKind, ObjectCard, Toll, TownCard, UnitCard
from engine.homm4.purchase import ally_towns
from engine.homm4.state import (
    Army,
    ChipIn,
    Homm4State,
    Inventory,
    ScoutOffer,
    Site,
    SkillAward,
)


# ------------------------------------------------------------------ seats
def living(state: Homm4State) -> list[int]:
    """Return the seats still in the game, in seat order.

    Rule: homm4:victory.
    """
    return [p.seat for p in state.players_state if not p.eliminated]


def next_living(state: Homm4State, seat: int) -> int:
    """Return the next seat clockwise (to the left) of ``seat`` that is still in the game.

    Returns ``seat`` itself when it is the only one left.

    Rule: homm4:game-process.
    """
    n = state.players
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if not state.players_state[candidate].eliminated:
            return candidate
    return seat


def first_player(state: Homm4State) -> int:
    """Return the seat that took the first turn of the main game (the first to set up).

    Rule: homm4:start-of-the-game.
    """
    return state.setup_done[0] if state.setup_done else 0


def inventory(state: Homm4State, hero: int) -> Inventory:
    """Return (creating if needed) the inventory of Hero ``hero``.

    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    found = state.inventories.get(hero)
    if found is None:
        found = Inventory()
        state.inventories[hero] = found
    return found


# ------------------------------------------------------------------ income
def income_breakdown(state: Homm4State, seat: int) -> dict[str, int]:
    """Return ``seat``'s income by source (homm4:income-phase).

    Keys: ``towns`` (1 card per Town controlled), ``objects`` (Object ``income``
    effects, e.g. Alchemist's Lab +1), ``town_levels`` (``income`` effects of Town
    levels reached), ``skills`` (Heroes' ``income`` effects, on the board and in
    garrisons), ``tolls`` (Toll ability of Units in Armies and garrisons).
    """
    towns = zones.towns_of(state, seat)
    objects = 0
    for site in state.sites:
        if site.kind == "object" and zones.object_user(site) == seat and site.card is not None:
            found = zones.card_as(state, site.card, ObjectCard)
            if found is not None:
                objects += sum(e.value for e in found.effects if e.kind is EffectKind.INCOME)
    town_levels = 0
    for site in towns:
        town = zones.card_as(state, site.card, TownCard) if site.card is not None else None
        if town is None:
            continue
        for level in town.levels[: site.level]:
            town_levels += sum(e.value for e in level.effects if e.kind is EffectKind.INCOME)
    forces: list[int] = [c for a in zones.armies_of(state, seat) for c in a.cards]
    forces += [c for site in towns for c in site.garrison]
    skills = sum(
        heroes.hero_effect(state, c, EffectKind.INCOME) for c in forces if zones.is_hero(state, c)
    )
    tolls = 0
    for instance in forces:
        unit = zones.card_as(state, instance, UnitCard)
        if unit is not None:
            toll = unit.ability("toll")
            if isinstance(toll, Toll):
                tolls += toll.cards
    return {
        "towns": len(towns),
        "objects": objects,
        "town_levels": town_levels,
        "skills": max(skills, 0),
        "tolls": tolls,
    }


def income_phase(state: Homm4State, seat: int) -> list[Event]:
    """Draw ``seat``'s income for the turn (homm4:income-phase): one event with the
    public breakdown, then the draw (private names)."""
    parts = income_breakdown(state, seat)
    total = sum(parts.values())
    shown = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in parts.items() if v)
    events = [
        Event(
            kind="income",
            text=f"{seat_name(seat)}'s Income Phase: {total} card{'s' if total != 1 else ''}"
            + (f" ({shown})." if shown else "."),
            data={"seat": seat, "total": total, **parts},
        )
    ]
    events += zones.draw(state, seat, total, "income")
    return events


# ------------------------------------------------------------------ turn flow
def start_turn(state: Homm4State, seat: int) -> list[Event]:
    """Begin ``seat``'s turn: reset per-turn marks, Income Phase, then the Purchase Phase
    (skipped when the seat controls no Town: nothing can be bought) (homm4:game-process)."""
    state.active = seat
    state.turn += 1
    state.phase = "purchase"
    for site in state.sites:
        site.declined = []
    for army in state.armies:
        army.sight_bonus = 0
        if army.owner == seat:
            army.done = False
            army.moved = False
    for inv in state.inventories.values():
        inv.cast_this_turn = False
    events = [
        Event(
            kind="turn",
            text=f"Round {state.round}, turn {state.turn}: {seat_name(seat)} to play.",
            data={"seat": seat, "turn": state.turn, "round": state.round},
        )
    ]
    events += income_phase(state, seat)
    if not zones.towns_of(state, seat) and not ally_towns(state, seat):
        events.append(
            Event(
                kind="phase",
                text=f"{seat_name(seat)} controls no Town: the Purchase Phase is skipped.",
                data={"seat": seat, "phase": "movement"},
            )
        )
        events += begin_movement(state)
    return events


def begin_movement(state: Homm4State) -> list[Event]:
    """Start the active seat's Movement Phase: every Army gets its full Movement Points
    (homm4:movement-phase.movement-points-and-terrain)."""
    state.phase = "movement"
    for army in zones.armies_of(state, state.active):
        army.mp2 = army_rules.full_mp2(state, army)
        army.done = False
        army.moved = False
    return [
        Event(
            kind="phase",
            text=f"{seat_name(state.active)}'s Movement Phase.",
            data={"seat": state.active, "phase": "movement"},
        )
    ]


def begin_closing(state: Homm4State) -> list[Event]:
    """Start the Closing Phase; with an empty Hand it is skipped (homm4:closing-phase)."""
    seat = state.active
    if state.players_state[seat].hand:
        state.phase = "closing"
        return [
            Event(
                kind="phase",
                text=f"{seat_name(seat)}'s Closing Phase.",
                data={"seat": seat, "phase": "closing"},
            )
        ]
    events = [
        Event(
            kind="closing_skipped",
            text=f"{seat_name(seat)} has no cards in Hand: the Closing Phase is skipped.",
            data={"seat": seat},
        )
    ]
    return events + end_turn(state)


def close_turn(state: Homm4State, seat: int, instance: int | None) -> list[Event]:
    """Closing Phase: put ``instance`` from the Hand into the Risk Stack, draw one card,
    and pass the turn (homm4:closing-phase).

    :raises IllegalMove: if the card is not in the Hand (or none is named).
    """
    player = state.players_state[seat]
    if instance is None:
        raise IllegalMove("Choose one card from your Hand to put into your Risk Stack.")
    if instance not in player.hand:
        raise IllegalMove(
            f"Card #{instance} is not in your Hand; put one of your Hand cards into your "
            "Risk Stack."
        )
    player.hand.remove(instance)
    player.risk.append(instance)
    events = [
        Event(
            kind="close_turn",
            text=f"{seat_name(seat)} puts a card from the Hand into the Risk Stack.",
            data={"seat": seat},
            private={seat: f"You put {zones.name(state, instance)} into your Risk Stack."},
        )
    ]
    events += zones.draw(state, seat, 1, "closing")
    return events + end_turn(state)


def end_turn(state: Homm4State) -> list[Event]:
    """Pass the turn to the next seat still in the game and start its turn; the Round
    counter goes up when the turn comes back round to the first player.
    Rule: homm4:game-process.
    """
    if state.phase == "over":
        return []
    current = state.active
    returned = diplomacy.return_sold(state, current)
    nxt = next_living(state, current)
    first = first_player(state)
    n = state.players
    if (nxt - first) % n <= (current - first) % n:
        state.round += 1
    return returned + start_turn(state, nxt)


# ------------------------------------------------------------- victory
def has_forces(state: Homm4State, seat: int) -> bool:
    """Whether ``seat`` still has an Army or a Town (homm4:objectives)."""
    return any(a.owner == seat for a in state.armies) or bool(zones.towns_of(state, seat))


def game_result(state: Homm4State) -> Result:
    """The game's result: finished once one side (or the sides eliminated together last)
    remains, its winners the seats in ``state.winners``; unfinished before.

    Rule: homm4:victory.
    """
    if state.phase != "over":
        return Result()
    names = " and ".join(seat_name(s) for s in state.winners)
    return Result(
        finished=True,
        winners=tuple(state.winners),
        reason=f"{names} {'is' if len(state.winners) == 1 else 'are'} the last side with an Army or a Town.",
    )


def check_eliminations(state: Homm4State) -> list[Event]:
    """Eliminate every seat with no Army and no Town; end the game when one side is left.

    Called after every command once the board is set up and no battle is being fought.
    An eliminated seat owes nothing: its pending scouting offers are dropped, the Objects
    and Dwellings it held become unowned (its cards stay where they lie), and if it was
    the active seat its turn passes on. When the last sides are eliminated by the same
    command, they share the victory (homm4:victory). With Team Play a side is a team: the
    game ends when every seat still in it is on one team, and that whole team (its
    eliminated members too) wins (homm4:game-variants.team-play).
    """
    if (
        state.phase in ("develop", "assemble", "entrances", "setup", "over")
        or state.battle is not None
    ):
        return []
    events: list[Event] = []
    fallen = [s for s in living(state) if not has_forces(state, s)]
    if not fallen:
        return []
    survivors = [s for s in living(state) if s not in fallen]
    for seat in fallen:
        state.players_state[seat].eliminated = True
        for site in state.sites:
            if site.owner == seat and site.kind != "town":
                site.owner = None
            if site.sold_to == seat or site.owner is None:
                site.sold_to = None
                site.sold_turn = None
        events.append(
            Event(
                kind="eliminated",
                text=f"{seat_name(seat)} has no Army and no Town left and is out of the game.",
                data={"seat": seat},
            )
        )
    sides = {state.options.team_of(s) for s in survivors}
    if len(sides) <= 1:
        if survivors:
            winners = sorted(state.options.team_of(survivors[0]))
        else:
            winners = sorted({m for s in fallen for m in state.options.team_of(s)})
        state.winners = list(winners)
        state.phase = "over"
        events += _settle_guards(state, everyone=True)
        state.interrupts = []
        names = " and ".join(seat_name(s) for s in winners)
        team = " (a team)" if state.options.teams else ""
        events.append(
            Event(
                kind="victory",
                text=f"{names}{team} {'is' if len(winners) == 1 else 'are'} the last side standing and "
                f"win{'s' if len(winners) == 1 else ''} the game.",
                data={"winners": list(winners)},
            )
        )
        return events
    events += _drop_interrupts_of_fallen(state)
    if state.players_state[state.active].eliminated:
        events += end_turn(state)
    return events


def _settle_guards(state: Homm4State, *, everyone: bool = False) -> list[Event]:
    """Set on their sites the Guards being formed whose Guard Player is out of the game
    (all of them with ``everyone``, when the game ends): they get no reinforcement, and
    their cards stay in a zone (homm4:chipping-in-for-the-guard)."""
    events: list[Event] = []
    kept = []
    for item in state.interrupts:
        if isinstance(item, ChipIn) and (
            everyone or state.players_state[item.guard_player].eliminated
        ):
            site = state.sites[item.site]
            site.guard = list(item.guard)
            site.guard_player = item.guard_player
            events.append(
                Event(
                    kind="reinforce_guard",
                    text=f"The Guard at {board.label(state, site.hex)} stands with "
                    f"{len(site.guard)} card{'s' if len(site.guard) != 1 else ''}.",
                    data={
                        "seat": item.guard_player,
                        "site": site.id,
                        "added": [],
                        "guard": site.guard,
                    },
                )
            )
            continue
        kept.append(item)
    state.interrupts = kept
    return events


def _drop_interrupts_of_fallen(state: Homm4State) -> list[Event]:
    """Drop the scouting offers of eliminated scouts; skip eliminated offerees; a Guard
    whose Guard Player is out is set without reinforcement (`_settle_guards`).

    Other interrupts (Skill awards, Artifact room) always belong to a seat that has just
    acted with an Army, so they never belong to an eliminated seat.
    """
    events = _settle_guards(state)
    kept = []
    for item in state.interrupts:
        if isinstance(item, ScoutOffer):
            if state.players_state[item.scout].eliminated:
                continue
            if state.players_state[item.offeree].eliminated and not scouting.advance_offer(
                state, item
            ):
                continue
        kept.append(item)
    state.interrupts = kept
    return events


# ------------------------------------------------------------- captures
def capture(state: Homm4State, army: Army, site: Site) -> list[Event]:
    """Capture ``site`` with ``army`` if the rules let it (no Guard, identified).

    Towns and Creature Dwellings are captured by any Army; Objects and Artifacts only by an
    Army with a Hero. A captured Town keeps its level; a captured Artifact goes under a
    Hero and its icon is spent (homm4:movement-phase.towns / .creature-dwellings / .objects).
    A teammate's site is never captured (homm4:game-variants.team-play).
    """
    seat = army.owner
    if site.card is None or site.guard or site.owner == seat:
        return []
    if site.owner is not None and state.options.allies(seat, site.owner):
        return []
    where = board.label(state, site.hex)
    if site.kind in ("town", "dwelling"):
        return _claim(state, seat, site, "Town" if site.kind == "town" else "Creature Dwelling")
    if not army_rules.army_heroes(state, army):
        return []
    if zones.card_as(state, site.card, ArtifactCard) is not None:
        artifact = site.card
        site.card = None
        site.spent = True
        site.owner = None
        events = [
            Event(
                kind="capture",
                text=f"{seat_name(seat)} takes the Artifact {zones.name(state, artifact)} at {where}.",
                data={"seat": seat, "site": site.id, "hex": where, "artifact": artifact},
            )
        ]
        return events + artifacts.give_artifact(state, seat, army, artifact)
    return _claim(state, seat, site, "Object")


def _claim(state: Homm4State, seat: int, site: Site, what: str) -> list[Event]:
    """Make ``seat`` the controller of identified ``site`` and report whom it was taken from."""
    assert site.card is not None
    before = site.owner
    site.owner = seat
    site.sold_to = None
    site.sold_turn = None
    taken = f" from {seat_name(before)}" if before is not None else ""
    where = board.label(state, site.hex)
    return [
        Event(
            kind="capture",
            text=f"{seat_name(seat)} captures the {what} {zones.name(state, site.card)} at {where}{taken}.",
            data={"seat": seat, "site": site.id, "hex": where, "from": before},
        )
    ]


# ------------------------------------------------------------- skill awards
def learn_skill(state: Homm4State, seat: int, hero: int, instance: int | None) -> list[Event]:
    """Answer a `SkillAward`: play Skill card ``instance`` (Hand, Risk Stack, or the Hero's
    own Basic card turned over) into ``hero``'s inventory, or skip with None
    (homm4:heroes-levels-skills-and-spells.hero-level: one Skill card per Hero after each
    battle it took part in).

    :raises IllegalMove: if ``hero`` has no award pending or the card may not be learned.
    """
    head = state.interrupts[0]
    assert isinstance(head, SkillAward)
    if hero not in head.heroes:
        shown = ", ".join(zones.name(state, h) for h in head.heroes)
        raise IllegalMove(f"Card #{hero} has no Skill to learn now; waiting for: {shown}.")
    events: list[Event] = []
    if instance is None:
        events.append(
            Event(
                kind="learn_skill_skipped",
                text=f"{zones.name(state, hero)} learns no new Skill this time.",
                data={"seat": seat, "hero": hero},
            )
        )
    else:
        own = instance in heroes.inventory(state, hero).skills
        if not own and not zones.in_hand_or_risk(state, seat, instance):
            raise IllegalMove(f"Card #{instance} is not in your Hand or Risk Stack.")
        problem = heroes.skill_problem(state, hero, instance)
        if problem:
            raise IllegalMove(
                problem
                if own
                else problem.replace(zones.card(state, instance).name, f"card #{instance}")
            )
        if not own:
            zones.take_from_hand_or_risk(state, seat, instance)
        events += heroes.add_skill(state, hero, instance)
    head.heroes.remove(hero)
    if not head.heroes:
        state.interrupts.pop(0)
    return events


def award_skills(state: Homm4State, seat: int, hero_list: list[int]) -> list[Event]:
    """Queue a `SkillAward` for ``seat``'s surviving Heroes of a won battle
    (homm4:heroes-levels-skills-and-spells.hero-level).

    Whether the Hand or Risk Stack holds a Skill card a Hero could learn is hidden, so the
    award is offered to every such Hero while the seat holds any card at all (it may skip).
    Only what the whole table can see ends the chance at once: an empty Hand and Risk Stack
    and no own Basic card to turn over.
    """
    player = state.players_state[seat]
    holds_cards = bool(player.hand or player.risk)
    able = [h for h in hero_list if holds_cards or heroes.skill_choices(state, h, [])]
    if not able:
        return []
    state.interrupts.insert(0, SkillAward(seat=seat, heroes=able))
    return [
        Event(
            kind="skill_award",
            text=f"{seat_name(seat)} may play a Skill card for "
            f"{', '.join(zones.name(state, h) for h in able)} after the battle.",
            data={"seat": seat, "heroes": able},
        )
    ]


# ------------------------------------------------------------- after battle
def after_battle(state: Homm4State, outcome: BattleOutcome) -> list[Event]:
    """Carry out the board consequences of a finished battle (homm4:battles,
    homm4:movement-phase.towns / .creature-dwellings / .objects).

    The battle module has already removed the dead, the retreated and the surrendered. Here:
    every attacking Army still on the board (on the hex, or withdrawn to a Town) ends its
    movement; when the attacker won, the site
    fought over (or the site on the hex) is captured by the rules of `capture` (a defeated
    Guard is gone; a captured Town keeps its level); the winning side's surviving Heroes
    who took part get a Skill award.
    """
    events: list[Event] = []
    attacking = [a for a in zones.armies_at(state, outcome.hex) if a.owner == outcome.attacker]
    survivors = set(outcome.armies) | set(outcome.loser_armies)
    for army in state.armies:
        if army.owner == outcome.attacker and (army in attacking or army.id in survivors):
            army.done = True
    attacker_won = outcome.winner == 0
    site = zones.site_at(state, outcome.hex)
    if site is not None and not site.guard:
        site.guard_player = None
    if attacker_won and attacking and site is not None:
        with_hero = [a for a in attacking if army_rules.army_heroes(state, a)]
        events += capture(state, (with_hero or attacking)[0], site)
    if outcome.winner_heroes:
        events += award_skills(state, outcome.winner_seat, list(outcome.winner_heroes))
    return events
