"""The flow of the Battlefield Combat: setting it up, placing Obstacles and units in turns,
the order of activations (Initiative and the Initiative token), activation start and end,
and the end of each Combat round.

Rule sections: homm3bf:battlefield-combat, .draw-cards, .place-obstacles, .place-units,
homm3bf:...the-deck-of-might-and-magic (at each Combat round's end draw 2 and regain one
Expert use), homm3bf:...initiative-token, homm3bf:battlefield-in-regular-games.changes-to-
combat-rules.siege (Walls and Gate; the Arrow Tower is the core Citadel's), homm3bf:
adventure-mode (remove Paralysis tokens, recover the Expert uses, draw up to the Hand
Limit), homm3turn:hand-limit.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm3 import combat_core as core
from engine.homm3 import effects, hexes, morale, zones
from engine.homm3.content import load_content
from engine.homm3.rules import expert_limit, hand_limit, other, who
from engine.homm3.state import Choice, CombatState, CombatUnit, Homm3State, Opening, Placed

ROUND_DRAW = 2
"""Cards each player draws at the end of a Combat round (Adventure and Skirmish)."""


def begin(state: Homm3State) -> list[Event]:
    """Start the final Combat: remove stuns, recover every Expert use, shuffle the deck and
    draw up to the Hand Limit (and a card for each Few of Archangels: Herald of Light), set
    up the board (Obstacles in turns, or a Siege's Walls).
    Rule: homm3bf:battlefield-combat, homm3bf:battlefield-combat.draw-cards,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.siege
    """
    state.phase = "combat"
    state.adventure = None
    events = [Event(kind="combat", text="The final Battlefield Combat begins.", data={})]
    for player in state.seats:
        for unit in player.army:
            unit.paralysed = False
        player.experts = expert_limit(player)
        player.deck.extend(player.hand)
        player.hand.clear()
        events.append(zones.shuffle(state, player.deck, f"{seat_name(player.seat)}'s deck"))
        events += zones.draw(state, player.seat, hand_limit(player))
    for player in state.seats:
        heralds = [
            a for a in player.army if load_content().units[a.unit].side(a.pack).ability == "herald"
        ]
        if heralds:
            events.append(
                Event(
                    kind="ability",
                    text=f"Herald of Light: {seat_name(player.seat)} draws {plural(len(heralds), 'card')}.",
                    data={"seat": player.seat},
                )
            )
            events += zones.draw(state, player.seat, len(heralds))
    for player in state.seats:
        if "cover" in player.buildings:
            events += zones.random_discard(state, other(player.seat), "Cover of Darkness")
        if morale.trigger(state, player.seat, "combat_start"):
            events += zones.random_discard(state, player.seat, "Panic")
    state.combat = CombatState(first=state.first, token=state.first, placing=state.first)
    number = 1
    for player in state.seats:
        for army in player.army:
            state.combat.units.append(
                CombatUnit(number=number, seat=player.seat, unit=army.unit, pack=army.pack)
            )
            number += 1
    if state.siege is not None:
        events += _siege_setup(state, number)
    else:
        state.combat.pool = [t.number for t in load_content().board.token]
        events.append(
            Event(
                kind="obstacles",
                text=f"{seat_name(state.first)} holds the Initiative token and places the first Obstacle.",
                data={"first": state.first},
            )
        )
    events += _check_empty_sides(state)
    return events


def _check_empty_sides(state: Homm3State) -> list[Event]:
    combat = core.combat(state)
    armies = [
        any(u.seat == s and u.unit != core.TOWER for u in combat.units)
        for s in range(state.players)
    ]
    if all(armies):
        return []
    combat.stage = "round"
    return core.check_victory(state, state.first)


def _siege_setup(state: Homm3State, number: int) -> list[Event]:
    combat = core.combat(state)
    defender = state.siege
    assert defender is not None
    combat.siege = defender
    for token in load_content().board.token:
        if token.siege is not None:
            combat.placed.append(
                Placed(
                    token=token.number,
                    kind=token.siege.kind,
                    name=token.siege.kind.capitalize(),
                    hexes=list(token.siege.hexes),
                )
            )
    combat.units.append(CombatUnit(number=number, seat=defender, unit=core.TOWER, pack=False))
    combat.tower = number
    combat.stage = "deploy"
    return [
        Event(
            kind="siege",
            text=f"Siege: {seat_name(defender)} defends a Town with a Citadel; Walls and the Gate stand in column "
            f"{hexes.LETTERS[load_content().board.wall_column]} and the Arrow Tower fights for {seat_name(defender)}.",
            data={"defender": defender},
        )
    ]


# ------------------------------------------------------------- Obstacles
def token_hexes(token: int, anchor: str) -> list[str] | None:
    """The hexes Obstacle ``token`` covers with its anchor on ``anchor`` (None: off board).

    Rule: homm3bf:battlefield-combat.place-obstacles"""
    spec = next((t for t in load_content().board.token if t.number == token), None)
    if spec is None:
        return None
    out = []
    for dq, dr in spec.obstacle.shape:
        hex_label = hexes.offset_hex(anchor, dq, dr)
        if hex_label is None:
            return None
        out.append(hex_label)
    return out


def obstacle_problem(state: Homm3State, token: int, anchor: str) -> str | None:
    """Why token ``token`` may not go on ``anchor`` (None when it may): no Obstacle in or
    next to a deployment zone, none next to another Obstacle
    (homm3bf:battlefield-combat.place-obstacles)."""
    combat = core.combat(state)
    if token not in combat.pool:
        return (
            f"token {token} is not available (left: {', '.join(map(str, combat.pool)) or 'none'})"
        )
    cover = token_hexes(token, anchor)
    if cover is None:
        return "it would stick out of the board"
    taken = {h for p in combat.placed for h in p.hexes}
    for hex_label in cover:
        if hexes.near_zone(hex_label):
            return f"{hex_label} is in or next to a deployment zone"
        if hex_label in taken:
            return f"{hex_label} is already covered"
        if any(n in taken for n in hexes.neighbours(hex_label)):
            return f"{hex_label} is next to another Obstacle"
    return None


def place_obstacle(state: Homm3State, seat: int, token: int, anchor: str) -> list[Event]:
    """Place an Obstacle token and pass the turn to the other player.

    :raises InvalidInput | IllegalMove: for a bad hex or a placement the rules forbid.
    Rule: homm3bf:battlefield-combat.place-obstacles
    """
    combat = core.combat(state)
    hex_label = hexes.normalize(anchor)
    if hex_label is None:
        raise InvalidInput(f"{anchor!r} is not a hex of the Battlefield (A1 to M9).")
    problem = obstacle_problem(state, token, hex_label)
    if problem:
        raise IllegalMove(f"The Obstacle cannot go there: {problem}.")
    spec = next(t for t in load_content().board.token if t.number == token)
    cover = token_hexes(token, hex_label)
    assert cover is not None
    combat.placed.append(
        Placed(token=token, kind="obstacle", name=spec.obstacle.name, hexes=cover, owner=seat)
    )
    combat.pool.remove(token)
    combat.passes = 0
    combat.placing = other(seat)
    events = [
        Event(
            kind="obstacle",
            text=f"{seat_name(seat)} places the {spec.obstacle.name} on {', '.join(cover)}.",
            data={"seat": seat, "token": token, "hexes": cover},
        )
    ]
    if not combat.pool or not legal_obstacles(state):
        events += _to_deploy(state)
    return events


def pass_obstacles(state: Homm3State, seat: int) -> list[Event]:
    """Place no Obstacle this time; two passes in a row end the placing.

    Rule: homm3bf:battlefield-combat.place-obstacles"""
    combat = core.combat(state)
    combat.passes += 1
    combat.placing = other(seat)
    events = [
        Event(kind="obstacle", text=f"{seat_name(seat)} places no Obstacle.", data={"seat": seat})
    ]
    if combat.passes >= 2:
        events += _to_deploy(state)
    return events


def legal_obstacles(state: Homm3State) -> list[tuple[int, str]]:
    """Every allowed ``(token, anchor)`` placement now.

    Rule: homm3bf:battlefield-combat.place-obstacles"""
    combat = core.combat(state)
    return [
        (token, hex_label)
        for token in combat.pool
        for hex_label in hexes.all_hexes()
        if obstacle_problem(state, token, hex_label) is None
    ]


def _to_deploy(state: Homm3State) -> list[Event]:
    combat = core.combat(state)
    combat.stage = "deploy"
    combat.placing = combat.first
    return [
        Event(
            kind="deploy",
            text=f"Obstacles are placed. {seat_name(combat.first)} chooses a deployment zone with the first unit.",
            data={},
        )
    ]


# ------------------------------------------------------------ deployment
def undeployed(state: Homm3State, seat: int) -> list[CombatUnit]:
    """``seat``'s units not yet on the board (the Arrow Tower never is).

    Rule: homm3bf:battlefield-combat.place-units"""
    return [
        u
        for u in core.combat(state).units
        if u.seat == seat and u.hex is None and u.alive and u.unit != core.TOWER
    ]


def deploy_hexes(state: Homm3State, seat: int) -> list[str]:
    """Empty hexes where ``seat`` may place a unit now (either zone before zones are set).

    Rule: homm3bf:battlefield-combat.place-units"""
    combat = core.combat(state)
    sides = [combat.zones[seat]] if seat in combat.zones else ["west", "east"]
    return [h for side in sides for h in hexes.zone(side) if core.empty(state, h)]


def deploy(state: Homm3State, seat: int, number: int, anchor: str) -> list[Event]:
    """Place a unit in the seat's deployment zone; the first unit placed chooses the zone
    and the other player takes the opposite one (homm3bf:battlefield-combat.place-units).

    :raises InvalidInput | IllegalMove: for a unit or hex that is not allowed.
    """
    combat = core.combat(state)
    hex_label = hexes.normalize(anchor)
    if hex_label is None:
        raise InvalidInput(f"{anchor!r} is not a hex of the Battlefield (A1 to M9).")
    waiting = undeployed(state, seat)
    unit = next((u for u in waiting if u.number == number), None)
    if unit is None:
        raise InvalidInput(
            f"Unit [{number}] is not one of your units waiting to be placed; waiting: "
            + ", ".join(core.unit_name(u) for u in waiting)
            + "."
        )
    if hex_label not in deploy_hexes(state, seat):
        where = combat.zones.get(seat)
        raise IllegalMove(
            f"{hex_label} is not an empty hex of "
            + (
                f"your deployment zone ({where}: columns {_zone_columns(where)})"
                if where
                else "a deployment zone (columns A-B or L-M)"
            )
            + "."
        )
    if seat not in combat.zones:
        side = hexes.zone_of(hex_label)
        assert side is not None
        combat.zones[seat] = side
        combat.zones[other(seat)] = "east" if side == "west" else "west"
    unit.hex = hex_label
    events = [
        Event(
            kind="deploy",
            text=f"{seat_name(seat)} places {core.unit_name(unit)} on {hex_label}.",
            data={"seat": seat, "unit": number, "hex": hex_label},
        )
    ]
    foe = other(seat)
    if undeployed(state, foe):
        combat.placing = foe
    elif not undeployed(state, seat):
        events += start_round(state)
    return events


def _zone_columns(side: str) -> str:
    zone = hexes.zone(side)
    cols = sorted({h[0] for h in zone})
    return f"{cols[0]}-{cols[-1]}"


# ---------------------------------------------------------- round & order
def start_round(state: Homm3State) -> list[Event]:
    """Begin the next Combat round: the faction cubes of the last one come off.

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    combat = core.combat(state)
    combat.stage = "round"
    combat.round += 1
    for unit in combat.units:
        unit.activated = False
        unit.retaliated = False
    events = [
        Event(
            kind="combat_round",
            text=f"Combat round {combat.round} begins.",
            data={"round": combat.round},
        )
    ]
    holder = combat.token
    if morale.trigger(state, holder, "round_start"):
        combat.token = other(holder)
        events.append(
            Event(
                kind="morale",
                text=f"{seat_name(holder)}'s Hesitation passes the Initiative token to {seat_name(combat.token)}.",
                data={},
            )
        )
    events += core.check_victory(state, combat.first)
    if state.phase != "combat":
        return events
    for player in state.seats:
        _offer_vortex(state, player.seat)
    if combat.round == 1:
        combat.opening = Opening(priority=combat.token)
        events.append(
            Event(
                kind="combat_start",
                text="Before any unit activates, cards of the Combat's start may be played "
                f"({seat_name(combat.token)} first).",
                data={"first": combat.token},
            )
        )
        events += settle_opening(state)
    return events


# ------------------------------------------------------- start of Combat
OPENING_CARDS: tuple[str, ...] = ("intelligence", "tactics")
"""Cards played before any unit activates (Intelligence; Tactics' basic effect)."""


def can_open(state: Homm3State, seat: int) -> bool:
    """Whether ``seat`` may have a card for the Combat's start, from public facts: a card
    in hand, and an Intelligence or Tactics card not known to lie face up.
    Rule: none (core game: cards played at the Combat's start)"""
    return bool(state.player(seat).hand) and zones.unseen(state, OPENING_CARDS)


def settle_opening(state: Homm3State) -> list[Event]:
    """Pass the start of the Combat for a seat with no card in hand; close it after two
    passes in a row (then the first unit activates).
    Rule: none (core game: cards played at the Combat's start)"""
    combat = core.combat(state)
    opening = combat.opening
    events: list[Event] = []
    while opening is not None and combat.opening is opening:
        if opening.passes >= 2:
            combat.opening = None
            break
        if opening.cast == opening.priority or can_open(state, opening.priority):
            break
        opening.passes += 1
        opening.priority = other(opening.priority)
    return events


def pass_opening(state: Homm3State, seat: int) -> list[Event]:
    """Play nothing (more) before the first activation; a Spell that Intelligence allowed
    and was not cast is lost.

    :raises IllegalMove: when it is not ``seat``'s turn to play at the Combat's start.
    Rule: none (core game: cards played at the Combat's start)
    """
    combat = core.combat(state)
    opening = combat.opening
    if opening is None or opening.priority != seat:
        raise IllegalMove("It is not your turn to play cards at the start of the Combat.")
    forfeit = opening.cast == seat
    opening.cast = None
    opening.free = False
    opening.passes += 1
    opening.priority = other(seat)
    return [
        Event(
            kind="pass",
            text=f"{seat_name(seat)} plays no more cards before the first activation"
            + (" (and casts no Spell with Intelligence)." if forfeit else "."),
            data={"seat": seat},
        ),
        *settle_opening(state),
    ]


# ------------------------------------------------------------ Mana Vortex
VORTEX_SEARCH = 3
"""Cards of its own deck a Mana Vortex's owner Searches."""


def _offer_vortex(state: Homm3State, seat: int) -> None:
    """At the start of each Combat round (the start of the owner's turn in Combat) a Mana
    Vortex's owner with a card in hand may discard one to shuffle the discard pile back
    into the deck, then Search(3) it."""
    player = state.player(seat)
    if "vortex" not in player.buildings or not player.hand:
        return
    state.choice[seat] = Choice(
        kind="mana_vortex",
        prompt=f"{seat_name(seat)}'s Mana Vortex: discard a card to shuffle the discard pile into the deck and Search(3) it.",
        options=[f"Discard {zones.name(state, c)}" for c in player.hand]
        + ["Do not use the Mana Vortex"],
        private=True,
        data={"cards": list(player.hand)},
    )


def _answer_vortex(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    cards = [int(c) for c in choice.data["cards"]]
    if index >= len(cards):
        return [
            Event(
                kind="vortex",
                text=f"{seat_name(seat)} does not use the Mana Vortex.",
                data={"seat": seat},
            )
        ]
    player = state.player(seat)
    card = cards[index]
    player.hand.remove(card)
    player.discard.append(card)
    events = [
        Event(
            kind="vortex",
            text=f"{seat_name(seat)} discards {zones.name(state, card)} to the Mana Vortex.",
            data={"seat": seat, "cards": [card]},
        )
    ]
    player.deck.extend(player.discard)
    player.discard.clear()
    events.append(
        zones.shuffle(state, player.deck, f"{seat_name(seat)}'s deck with the discard pile")
    )
    looked = player.deck[:VORTEX_SEARCH]
    del player.deck[:VORTEX_SEARCH]
    if not looked:
        return events
    state.looking[seat] = looked
    state.choice[seat] = Choice(
        kind="vortex_pick",
        prompt=f"{seat_name(seat)} Searches({VORTEX_SEARCH}) the deck and takes one card.",
        options=[zones.name(state, c) for c in looked],
        private=True,
    )
    events.append(
        Event(
            kind="search",
            text=f"{seat_name(seat)} looks at the top {len(looked)} cards of the deck.",
            data={"seat": seat, "count": len(looked)},
            private={seat: "You look at " + ", ".join(zones.name(state, c) for c in looked) + "."},
        )
    )
    return events


def _answer_vortex_pick(state: Homm3State, seat: int, index: int) -> list[Event]:
    looked = state.looking.pop(seat, [])
    player = state.player(seat)
    kept = looked[index]
    rest = [c for c in looked if c != kept]
    player.hand.append(kept)
    player.discard.extend(rest)
    events = [
        Event(
            kind="gain_card",
            text=f"{seat_name(seat)} takes a card into the hand.",
            data={"seat": seat},
            private={seat: f"You take {zones.name(state, kept)}."},
            private_data={seat: {"card": kept}},
        )
    ]
    if rest:
        events.append(
            Event(
                kind="discard",
                text=f"{seat_name(seat)} discards {', '.join(zones.name(state, c) for c in rest)}.",
                data={"seat": seat, "cards": rest},
            )
        )
    return events


def candidates(state: Homm3State) -> list[CombatUnit]:
    """Living units that have not activated this round (placed units and the Tower).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement,
        homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token"""
    return [
        u
        for u in core.combat(state).units
        if u.alive and not u.activated and (u.hex is not None or u.unit == core.TOWER)
    ]


def due(state: Homm3State) -> tuple[int, list[CombatUnit]] | None:
    """Who activates next and which of their units may: the highest Initiative first; when
    opposing units tie, the Initiative token's holder first, then alternately
    (homm3bf:...initiative-token). None when every unit has activated."""
    combat = core.combat(state)
    pool = candidates(state)
    if not pool:
        return None
    top = max(core.initiative(state, u) for u in pool)
    group = [u for u in pool if core.initiative(state, u) == top]
    seats = sorted({u.seat for u in group})
    if len(seats) == 1:
        seat = seats[0]
    elif combat.tie_initiative == top and combat.tie_last is not None:
        seat = other(combat.tie_last)
    else:
        seat = combat.token
    return seat, [u for u in group if u.seat == seat]


def advance(state: Homm3State) -> list[Event]:
    """Run the Combat until a seat owes a decision: activate the next unit when only one may
    go, skip Paralysed units, end rounds.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token,
        homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    events: list[Event] = []
    guard = 0
    while state.phase == "combat" and not effects.busy(state):
        guard += 1
        if guard > 500:  # pragma: no cover - a loop here is a bug
            raise RuntimeError("combat flow did not settle")
        combat = core.combat(state)
        if (
            combat.stage != "round"
            or combat.window is not None
            or combat.active is not None
            or combat.opening is not None
            or combat.reaction is not None
        ):
            break
        combat.chooser = None
        events += _settle_tie(state)
        nxt = due(state)
        if nxt is None:
            events += end_round(state)
            if state.phase != "combat":
                break
            events += start_round(state)
            continue
        seat, units = nxt
        if len(units) > 1:
            combat.chooser = seat
            break
        events += activate(state, units[0])
    return events


def _settle_tie(state: Homm3State) -> list[Event]:
    combat = core.combat(state)
    pool = candidates(state)
    top = max((core.initiative(state, u) for u in pool), default=None)
    events: list[Event] = []
    if combat.tie_initiative is not None and top != combat.tie_initiative:
        if combat.tie_seen:
            combat.token = other(combat.token)
            events.append(
                Event(
                    kind="initiative_token",
                    text=f"The Initiative token passes to {seat_name(combat.token)}.",
                    data={"holder": combat.token},
                )
            )
        combat.tie_initiative = None
        combat.tie_last = None
        combat.tie_seen = False
    if top is not None:
        group_seats = {u.seat for u in pool if core.initiative(state, u) == top}
        if len(group_seats) == 2 and combat.tie_initiative != top:
            combat.tie_initiative = top
            combat.tie_last = None
            combat.tie_seen = True
    return events


def choose_activation(state: Homm3State, seat: int, number: int) -> list[Event]:
    """Activate one of ``seat``'s units that share the next Initiative.

    :raises IllegalMove: for a unit that may not activate now.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.initiative-token
    """
    nxt = due(state)
    if nxt is None or nxt[0] != seat:
        raise IllegalMove("None of your units activates now.")
    unit = next((u for u in nxt[1] if u.number == number), None)
    if unit is None:
        raise IllegalMove("Activate one of: " + ", ".join(core.unit_name(u) for u in nxt[1]) + ".")
    core.combat(state).chooser = None
    return activate(state, unit)


def activate(state: Homm3State, unit: CombatUnit) -> list[Event]:
    """Start ``unit``'s activation: a Paralysed unit skips it (the token comes off); a
    Defense token is discarded; activation abilities resolve.
    Rule: none (core game: activation start, Paralysis)"""
    combat = core.combat(state)
    if combat.tie_initiative is not None and core.initiative(state, unit) == combat.tie_initiative:
        combat.tie_last = unit.seat
    if unit.paralysed:
        unit.paralysed = False
        unit.activated = True
        state.turn += 1
        return [
            Event(
                kind="paralysis",
                text=f"{core.unit_name(unit)} is Paralysed and skips its activation.",
                data={"unit": unit.number},
            )
        ]
    unit.defending = False
    combat.active = unit.number
    combat.acted = False
    combat.attacks = 0
    combat.target = None
    unit.moved = 0
    unit.start_hex = unit.hex
    events = [
        Event(
            kind="activation",
            text=f"{core.unit_name(unit)} ({seat_name(unit.seat)}) activates (Initiative {core.initiative(state, unit)}).",
            data={"unit": unit.number, "seat": unit.seat},
        )
    ]
    if morale.trigger(state, unit.seat, "activation"):
        unit.flags.append("faltering")
        events.append(
            Event(
                kind="morale",
                text=f"Faltering Step: {core.unit_name(unit)} moves only half this activation.",
                data={},
            )
        )
    skill = core.ability(unit)
    if skill in ("regeneration", "haunting") and core.heal(unit, 1):
        events.append(
            Event(
                kind="ability",
                text=f"{core.unit_name(unit)} removes 1 damage from itself.",
                data={"unit": unit.number},
            )
        )
    if skill == "haunting":
        events += zones.random_discard(state, other(unit.seat), "Haunting")
    if skill in ("terror", "terror_strike"):
        events += _terror(state, other(unit.seat))
    return events


def _terror(state: Homm3State, seat: int) -> list[Event]:
    """Ghost Dragons' Terror: ``seat`` loses its oldest Positive Morale card, or else its
    Positive token (nothing when it has neither; `morale.drop_positive`)."""
    return morale.drop_positive(state, seat, "suffers Terror")


def end_activation(state: Homm3State) -> list[Event]:
    """End the active unit's activation (its faction cube goes on; effects lasting until
    the activation's end expire).
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.unit-movement"""
    combat = core.combat(state)
    events: list[Event] = []
    if combat.active is not None:
        unit = next(u for u in combat.units if u.number == combat.active)
        unit.activated = True
        unit.flags = [f for f in unit.flags if f != "faltering"]
        events.append(
            Event(
                kind="activation_end",
                text=f"{core.unit_name(unit)} ends its activation.",
                data={"unit": unit.number},
            )
        )
    combat.active = None
    combat.window = None
    combat.target = None
    combat.splash = None
    combat.attacks = 0
    core.expire(state, activation_end=True)
    state.turn += 1
    return events


def end_round(state: Homm3State) -> list[Event]:
    """End the Combat round: round-long effects expire, each player draws 2 cards and regains one Expert use up to the Hero's limit
    (homm3bf:...the-deck-of-might-and-magic); in a map game's Combat (``regular``) neither
    (homm3bf:battlefield-in-regular-games.changes-to-combat-rules)."""
    combat = core.combat(state)
    events = [
        Event(
            kind="combat_round_end",
            text=f"Combat round {combat.round} ends.",
            data={"round": combat.round},
        )
    ]
    for unit in combat.units:
        unit.modifiers = [m for m in unit.modifiers if m.until != "round"]
        for mod in unit.modifiers:
            if mod.until == "rounds2":
                mod.until = "round"
        unit.flags = [f for f in unit.flags if not f.startswith("fire_shield")]
        unit.extra_retaliation = False
    combat.placed = [
        p
        for p in combat.placed
        if not (p.kind == "force_field" and 0 < p.until_round <= combat.round)
    ]
    combat.bonuses = [b for b in combat.bonuses if not (0 < b.until_round <= combat.round)]
    combat.spells = {}
    combat.spell_bonus = {}
    for player in state.seats:
        seat = player.seat
        if player.discard_hand and player.hand:
            player.discard_hand = False
            events.append(zones.discard_from_hand(state, seat, list(player.hand)))
        if combat.regular:
            # homm3bf:battlefield-in-regular-games.changes-to-combat-rules: the core rules
            # stay, so a map game's Combat round ends with no draw and no Expert use back.
            continue
        count = ROUND_DRAW
        if morale.trigger(state, seat, "round_end"):
            count -= 1
            events.append(
                Event(kind="morale", text=f"{seat_name(seat)}'s Gloom: 1 card fewer.", data={})
            )
        events += zones.draw(state, seat, count)
        if player.experts < expert_limit(player):
            player.experts += 1
    return events


def answer(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Answer the Combat's own choices (the Mana Vortex's discard and its Search).

    :raises InvalidInput: for a choice kind that is not the Combat's.
    Rule: none (core game: Mana Vortex)
    """
    if choice.kind == "mana_vortex":
        return _answer_vortex(state, seat, choice, index)
    if choice.kind == "vortex_pick":
        return _answer_vortex_pick(state, seat, index)
    raise InvalidInput(f"Unknown choice {choice.kind!r}.")


__all__ = ["begin", "who"]
