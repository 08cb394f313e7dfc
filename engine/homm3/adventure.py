"""The Adventure Phase: rounds of Adventure cards, income, Astrologers, Town actions and
set-aside cards, ending in the final Battlefield Combat.

Rule sections: homm3bf:adventure-mode (and .round-structure, .astrologers-rounds,
.resolving-adventure-cards, .combat-during-adventure, .event-during-adventure),
homm3turn:action-types, homm3turn:when-you-can-use-them, homm3turn:spending-the-token,
homm3turn:build-token, homm3turn:population-token, homm3turn:spell-book-token,
homm3turn:gained-mp (Movement from set-aside cards lasts only for its use).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalMove, InvalidInput, NotYourDecision, RuleViolation, WrongPhase
from engine.core.model import Command, Event, seat_name
from engine.core.words import plural
from engine.homm3 import combat_flow, dice, effects, morale, zones
from engine.homm3 import commands as c
from engine.homm3.content import TIER_ORDER, Building, Cost, load_content
from engine.homm3.effects import RESOURCE_NAMES, push
from engine.homm3.rules import other, who
from engine.homm3.state import AdventureRound, ArmyUnit, Choice, Homm3State, Player

ROUNDS: dict[str, int] = {"short": 9, "medium": 13, "large": 16}
"""Adventure length by game size (homm3bf:adventure-mode: the 9th, 13th or 16th round)."""

MAX_UNITS = 7
"""Units a player may control in Adventure mode."""

BLACKSMITH_COST = 6
"""Gold the Castle Blacksmith takes to Search(2) the Artifact deck."""


# ------------------------------------------------------------- round flow
def start(state: Homm3State) -> list[Event]:
    """Begin the Adventure Phase at Round 1.

    Rule: homm3bf:adventure-mode.round-structure"""
    state.phase = "adventure"
    state.round = 1
    state.adventure = AdventureRound(stage="start", starter=state.first, active=state.first)
    return [
        Event(
            kind="adventure",
            text=f"The Adventure begins: {state.rounds} rounds, then the final Combat. "
            f"{seat_name(state.first)} is the first player.",
            data={"rounds": state.rounds, "first": state.first},
        )
    ]


def advance(state: Homm3State) -> list[Event]:
    """Move the Adventure forward until someone owes a decision (or the Combat begins).

    Rule: homm3bf:adventure-mode.round-structure"""
    events: list[Event] = []
    adv = state.adventure
    while adv is not None and state.phase == "adventure" and not effects.busy(state):
        if adv.stage == "start":
            events += _round_start(state)
        elif adv.stage == "draw":
            if state.round >= state.rounds:
                adv.stage = "turns"
                events += _turn_start(state, adv.active)
                continue
            events += _draw_three(state)
            break
        elif adv.stage == "turns":
            if adv.active in adv.finished:
                events += _next_turn(state)
                continue
            break
        elif adv.stage == "done":
            events += _round_end(state)
            adv = state.adventure
        elif adv.stage == "react":
            events += _next_reactor(state)
            break
        else:
            break
    return events


def _round_start(state: Homm3State) -> list[Event]:
    adv = state.adventure
    assert adv is not None
    adv.starter = state.first if state.round % 2 == 1 else other(state.first)
    adv.active = adv.starter
    adv.finished = []
    adv.redrawn = False
    events = [
        Event(
            kind="round",
            text=f"Round {state.round} of {state.rounds} begins "
            f"({'Resource' if state.round % 2 else 'Astrologers'} round); {seat_name(adv.starter)} starts.",
            data={"round": state.round, "starter": adv.starter},
        )
    ]
    for player in state.seats:
        player.resolved_this_round = False
        player.blacksmith_used = False
        player.movement = 0
        if state.round > 1:
            player.tokens.build = player.tokens.population = player.tokens.spellbook = True
    if state.round % 2 == 1:
        if state.round > 1:
            for player in state.seats:
                events += _income(state, player)
    else:
        for player in state.seats:
            state.choice[player.seat] = Choice(
                kind="astrologers",
                prompt=f"{seat_name(player.seat)} raises an income track (Astrologers round).",
                options=[
                    "Raise Gold income (+5)",
                    "Raise Building Materials income (+2)",
                    "Raise Valuables income (+1)",
                    "Roll a Resource die: raise that income and gain its basic income now",
                ],
            )
    adv.stage = "draw"
    return events + effects.run(state)


def _income(state: Homm3State, player: Player) -> list[Event]:
    seat = player.seat
    gold = player.income.gold
    events: list[Event] = []
    if morale.trigger(state, seat, "income"):
        gold = max(0, gold - 3)
        events.append(
            Event(
                kind="morale",
                text=f"{seat_name(seat)}'s Plunder takes 3 Gold of the income.",
                data={"seat": seat},
            )
        )
    player.resources.gold += gold
    player.resources.materials += player.income.materials
    player.resources.valuables += player.income.valuables
    events.append(
        Event(
            kind="income",
            text=f"{seat_name(seat)} gains income: {gold} Gold, {player.income.materials} Building Materials, "
            f"{player.income.valuables} Valuables.",
            data={"seat": seat, "gold": gold},
        )
    )
    if "city_hall" in player.buildings:
        events += _city_hall(state, player)
    if "brotherhood" in player.buildings:
        push(state, seat, [{"step": "morale", "amount": 1}])
    return events


def _city_hall(state: Homm3State, player: Player) -> list[Event]:
    content = load_content()
    hall = content.factions[player.faction].city_hall
    options = [f"City Hall: {hall.gold} Gold"]
    data: list[dict[str, object]] = [{"gold": hall.gold}]
    if hall.alternative == "valuables":
        options.append("City Hall: 1 Valuable")
        data.append({"valuables": 1})
    elif hall.alternative == "movement":
        options.append("City Hall: +1 Movement this round (redraw Adventure cards)")
        data.append({"movement": 1})
    else:
        for unit in player.army:
            card = content.units[unit.unit]
            if card.tier == "bronze" and not unit.pack:
                options.append(f"City Hall: Reinforce {card.name} for free")
                data.append({"reinforce": unit.unit})
    if len(options) == 1:
        player.resources.gold += hall.gold
        return [
            Event(
                kind="income",
                text=f"{seat_name(player.seat)}'s City Hall gives {hall.gold} Gold.",
                data={"seat": player.seat},
            )
        ]
    state.choice[player.seat] = Choice(
        kind="city_hall",
        prompt=f"{seat_name(player.seat)} takes the City Hall's income.",
        options=options,
        data={"picks": data},
    )
    return []


def _draw_three(state: Homm3State) -> list[Event]:
    adv = state.adventure
    assert adv is not None
    starter = adv.starter
    events = _refill_adventure(state)
    drawn = state.adventure_deck[:3]
    del state.adventure_deck[:3]
    adv.drawn = drawn
    state.looking[starter] = list(drawn)
    _keep_choice(state, starter, drawn, first=True)
    content = load_content()
    return [
        *events,
        Event(
            kind="adventure_draw",
            text=f"{seat_name(starter)} draws {len(drawn)} Adventure cards.",
            data={"seat": starter, "count": len(drawn)},
            private={
                starter: "You draw "
                + ", ".join(f"{content.adventure_name(state.cards[c])} #{c}" for c in drawn)
                + "."
            },
        ),
    ]


def _refill_adventure(state: Homm3State) -> list[Event]:
    if len(state.adventure_deck) >= 3 or not state.adventure_discard:
        return []
    state.adventure_deck.extend(state.adventure_discard)
    state.adventure_discard.clear()
    return [zones.shuffle(state, state.adventure_deck, "The Adventure discard pile")]


def _keep_choice(state: Homm3State, seat: int, cards: list[int], *, first: bool) -> None:
    content = load_content()
    state.choice[seat] = Choice(
        kind="adventure_keep" if first else "adventure_keep2",
        prompt=(
            f"{seat_name(seat)} keeps one Adventure card and passes the others."
            if first
            else f"{seat_name(seat)} keeps one of the two passed Adventure cards."
        ),
        options=[f"{content.adventure_name(state.cards[c])} #{c}" for c in cards],
        private=True,
        data={"cards": list(cards)},
    )


def redraw(state: Homm3State, seat: int, cards: tuple[int, ...], source: int) -> list[Event]:
    """Use a set-aside card's Movement to shuffle drawn Adventure cards back and draw as
    many (homm3bf:adventure-mode.round-structure; homm3turn:gained-mp: used at once).

    :raises IllegalMove: outside the starting player's keep choice, or without a Movement
        card / City Hall Movement.
    """
    adv = state.adventure
    choice = state.choice.get(seat)
    if adv is None or choice is None or choice.kind != "adventure_keep":
        raise IllegalMove("Only the starting player may redraw, before keeping a card.")
    if adv.redrawn:
        raise IllegalMove("You may use one Movement effect per draw.")
    player = state.player(seat)
    if not cards or any(c not in adv.drawn for c in cards) or len(set(cards)) != len(cards):
        raise InvalidInput(
            f"Name some of the drawn Adventure cards: {', '.join(f'#{c}' for c in adv.drawn)}."
        )
    use_hall = source == 0
    if use_hall:
        if player.movement < 1:
            raise IllegalMove(
                "You have no City Hall Movement this round; name a set-aside card with Movement."
            )
    elif source not in player.aside or not _has_movement(state, source):
        raise IllegalMove(
            "The source must be one of your set-aside cards with a Movement effect (or 0 for City Hall Movement)."
        )
    events: list[Event] = []
    if use_hall:
        player.movement -= 1
    else:
        player.aside.remove(source)
        player.removed.append(source)
        events.append(
            Event(
                kind="use_card",
                text=f"{seat_name(seat)} uses {zones.name(state, source)} for Movement.",
                data={"seat": seat},
            )
        )
    for card in cards:
        adv.drawn.remove(card)
        state.adventure_deck.append(card)
    events.append(zones.shuffle(state, state.adventure_deck, "The Adventure deck"))
    events += _refill_adventure(state)
    fresh = state.adventure_deck[: len(cards)]
    del state.adventure_deck[: len(cards)]
    adv.drawn.extend(fresh)
    adv.redrawn = True
    state.looking[seat] = list(adv.drawn)
    _keep_choice(state, seat, adv.drawn, first=True)
    content = load_content()
    events.append(
        Event(
            kind="adventure_draw",
            text=f"{seat_name(seat)} shuffles {plural(len(cards), 'Adventure card')} back and draws as many.",
            data={"seat": seat, "count": len(cards)},
            private={
                seat: "You now hold "
                + ", ".join(f"{content.adventure_name(state.cards[c])} #{c}" for c in adv.drawn)
                + "."
            },
        )
    )
    return events


def _has_movement(state: Homm3State, instance: int) -> bool:
    card = load_content().cards[state.cards[instance]]
    return any(e.effect == "movement" for _i, _x, e in card.effects())


def movement_sources(state: Homm3State, seat: int) -> list[int]:
    """Set-aside cards with a Movement effect (and 0 for City Hall Movement).

    Rule: homm3turn:gained-mp"""
    player = state.player(seat)
    out = [0] if player.movement > 0 else []
    return out + [c for c in player.aside if _has_movement(state, c)]


def _answer_keep(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    adv = state.adventure
    assert adv is not None
    cards = [int(c) for c in choice.data["cards"]]
    kept = cards[index]
    rest = [c for c in cards if c != kept]
    state.looking.pop(seat, None)
    state.player(seat).adventure_hand.append(kept)
    adv.drawn = []
    events = [
        Event(
            kind="adventure_keep",
            text=f"{seat_name(seat)} keeps an Adventure card.",
            data={"seat": seat},
        )
    ]
    if choice.kind == "adventure_keep":
        receiver = other(seat)
        if not rest:
            adv.stage = "turns"
            return events + _turn_start(state, adv.active)
        content = load_content()
        names = ", ".join(f"{content.adventure_name(state.cards[c])} #{c}" for c in rest)
        state.looking[receiver] = rest
        _keep_choice(state, receiver, rest, first=False)
        events.append(
            Event(
                kind="adventure_pass",
                text=f"{seat_name(seat)} passes {len(rest)} Adventure cards to {seat_name(receiver)}.",
                data={"seat": seat, "to": receiver},
                private={seat: f"You pass {names}.", receiver: f"You receive {names}."},
            )
        )
        return events
    for card in rest:
        state.adventure_discard.insert(0, card)
    content = load_content()
    events.append(
        Event(
            kind="adventure_discard",
            text=f"{seat_name(seat)} discards {', '.join(content.adventure_name(state.cards[c]) + f' #{c}' for c in rest)}.",
            data={"seat": seat, "cards": rest},
        )
    )
    adv.stage = "turns"
    events += _turn_start(state, adv.active)
    return events


def _turn_start(state: Homm3State, seat: int) -> list[Event]:
    """Turn-start effects: the Necromancy Amplifier's offer, made whether or not a
    Necromancy card is left in the Ability deck (the deck is face down: offering it only
    then told the table that someone holds both)."""
    player = state.player(seat)
    if "amplifier" in player.buildings:
        state.choice[seat] = Choice(
            kind="amplifier",
            prompt=f"{seat_name(seat)}'s Necromancy Amplifier may fetch a Necromancy card.",
            options=["Take a Necromancy card from the Ability deck", "Take nothing"],
        )
    return []


def _next_turn(state: Homm3State) -> list[Event]:
    adv = state.adventure
    assert adv is not None
    nxt = other(adv.active)
    if nxt in adv.finished:
        adv.stage = "done"
        return []
    adv.active = nxt
    return [
        Event(
            kind="turn", text=f"{who(state, nxt)} takes their Adventure turn.", data={"seat": nxt}
        ),
        *_turn_start(state, nxt),
    ]


def _round_end(state: Homm3State) -> list[Event]:
    adv = state.adventure
    assert adv is not None
    if state.round >= state.rounds:
        # homm3turn:reacting-to-combat: before the final Combat is set up, the player to the
        # left of the one whose turn ended (the round's starter) and then that player may
        # take Town actions.
        last = adv.active
        adv.stage = "react"
        adv.reacting = [other(last), last]
        adv.active = -1
        return _next_reactor(state)
    state.round += 1
    adv.stage = "start"
    return []


def town_commands(state: Homm3State, seat: int) -> list[Command]:
    """``seat``'s Town actions usable now: each building it can build, representative
    musters it can pay for, and Spell purchases (with or without a Wisdom card); empty when
    every token is spent or nothing is affordable.

    Rule: homm3turn:build-token, homm3turn:population-token, homm3turn:spell-book-token"""
    player = state.player(seat)
    out: list[Command] = []
    for building in load_content().factions[player.faction].building:
        if can_build(state, seat, building) is None:
            out.append(c.Build(building=building.id))
    if player.tokens.population:
        out += _musters(state, seat)
    if (
        "mage_guild" in player.buildings
        and player.tokens.spellbook
        and player.guild_round != state.round
    ):
        price, _size = spell_price(state, seat, None)
        if player.resources.gold >= price:
            out.append(c.BuySpell())
        for card in player.aside:
            if (
                state.cards[card] == "wisdom"
                and player.resources.gold >= spell_price(state, seat, card)[0]
            ):
                out.append(c.BuySpell(wisdom=card))
    return out


def _musters(state: Homm3State, seat: int) -> list[Command]:
    player = state.player(seat)
    content = load_content()
    out: list[Command] = []
    discounts = tuple(d for d in player.aside if discount_effect(state, d) is not None)
    singles: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for unit in content.faction_units(player.faction):
        singles.append(((unit.id,), ()))
        singles.append(((), (unit.id,)))
    for recruit, reinforce in singles:
        for discount in ((), discounts):
            if discount == () or discounts:
                cmd = c.Muster(recruit=recruit, reinforce=reinforce, discount=discount)
                if _muster_ok(state, seat, cmd) and cmd not in out:
                    out.append(cmd)
    return out


def _muster_ok(state: Homm3State, seat: int, cmd: c.Muster) -> bool:
    try:
        cost = muster_cost(state, seat, cmd.recruit, cmd.reinforce, cmd.discount)
    except RuleViolation:
        return False
    return state.player(seat).resources.covers(cost.gold, cost.materials, cost.valuables)


def can_react(state: Homm3State, seat: int) -> bool:
    """Whether ``seat`` has an unused Town action token it can use now on something it can
    afford (a building, a muster, a Spell).

    Rule: homm3turn:reacting-to-combat"""
    return bool(town_commands(state, seat))


def _next_reactor(state: Homm3State) -> list[Event]:
    """Ask the next seat of the reaction window, or set up the final Combat once no seat
    that has not passed can use a Town action."""
    adv = state.adventure
    assert adv is not None
    while adv.reacting and not can_react(state, adv.reacting[0]):
        adv.reacting.pop(0)
    if not adv.reacting:
        return combat_flow.begin(state)
    seat = adv.reacting[0]
    if adv.active == seat:
        return []
    adv.active = seat
    return [
        Event(
            kind="town_reaction",
            text=f"Before the final Combat is set up, {seat_name(seat)} may take Town actions "
            "or start the Combat.",
            data={"seat": seat},
        )
    ]


def start_combat(state: Homm3State, seat: int) -> list[Event]:
    """``seat`` takes no (more) Town actions before the final Combat: the next seat that
    can react is asked, or the Combat is set up.

    :raises WrongPhase: outside the reaction window before the final Combat.
    :raises NotYourDecision: when another seat is being asked.
    Rule: homm3turn:reacting-to-combat
    """
    adv = state.adventure
    if adv is None or adv.stage != "react" or not adv.reacting:
        raise WrongPhase("The Combat starts by itself; nobody is reacting to it now.")
    if adv.reacting[0] != seat:
        raise NotYourDecision(f"{seat_name(adv.reacting[0])} is reacting to the Combat now.")
    adv.reacting.pop(0)
    event = Event(
        kind="start_combat",
        text=f"{seat_name(seat)} takes no more Town actions before the Combat.",
        data={"seat": seat},
    )
    return [event, *_next_reactor(state)]


def end_turn(state: Homm3State, seat: int) -> list[Event]:
    """End ``seat``'s Adventure turn: keep at most 1 Adventure card (Magic Spring cannot be
    saved), then the other player's turn or the round's end (homm3bf:adventure-mode)."""
    adv = state.adventure
    assert adv is not None
    player = state.player(seat)
    content = load_content()
    events: list[Event] = []
    unsaveable = [
        c
        for c in player.adventure_hand
        if state.cards[c] in content.events and not content.events[state.cards[c]].saveable
    ]
    for card in unsaveable:
        player.adventure_hand.remove(card)
        state.adventure_discard.insert(0, card)
        events.append(
            Event(
                kind="adventure_discard",
                text=f"{seat_name(seat)} discards {content.adventure_name(state.cards[card])} #{card} (it cannot be saved).",
                data={"seat": seat},
            )
        )
    while len(player.adventure_hand) > 1:
        card = player.adventure_hand.pop(0)
        state.adventure_discard.insert(0, card)
        events.append(
            Event(
                kind="adventure_discard",
                text=f"{seat_name(seat)} discards {content.adventure_name(state.cards[card])} #{card} (only 1 card may be saved).",
                data={"seat": seat},
            )
        )
    player.movement = 0
    adv.finished.append(seat)
    state.turn += 1
    events.append(
        Event(
            kind="end_turn",
            text=f"{seat_name(seat)} ends their turn"
            + (" saving 1 Adventure card." if player.adventure_hand else "."),
            data={"seat": seat},
        )
    )
    return events


# ------------------------------------------------------- Adventure cards
def _own_adventure(state: Homm3State, seat: int, card: int) -> str:
    player = state.player(seat)
    if card not in player.adventure_hand:
        raise InvalidInput(
            f"#{card} is not in your Adventure hand; you hold "
            + (", ".join(f"#{c}" for c in player.adventure_hand) or "no Adventure card")
            + "."
        )
    if player.resolved_this_round:
        raise IllegalMove("You have already resolved an Adventure card this round (one per round).")
    return state.cards[card]


def resolve_event(state: Homm3State, seat: int, card: int) -> list[Event]:
    """Resolve an Adventure-Event card (homm3bf:...event-during-adventure).

    :raises InvalidInput | IllegalMove: for a card not held, a Combat card, or a second card
        this round.
    """
    card_id = _own_adventure(state, seat, card)
    content = load_content()
    event = content.events.get(card_id)
    if event is None:
        raise IllegalMove(
            f"{content.adventure_name(card_id)} is a Combat card: fight it with a Combat Power level and 2 units."
        )
    player = state.player(seat)
    player.adventure_hand.remove(card)
    player.resolved_this_round = True
    if card_id == "magic_spring":
        state.adventure_discard.insert(0, card)
    else:
        player.resolved.append(card)
    push(state, seat, [dict(s) for s in event.steps])
    return [
        Event(
            kind="adventure_resolve",
            text=f"{who(state, seat)} resolves {event.name} #{card}: {event.text}",
            data={"seat": seat, "card": card, "id": card_id},
        ),
        *effects.run(state),
    ]


def combat_power(state: Homm3State, seat: int, units: tuple[str, ...]) -> int:
    """The Attack part of a Combat Power: the participants' Attack, stunned ones adding 0.

    Rule: homm3bf:adventure-mode.resolving-adventure-cards.combat-during-adventure"""
    content = load_content()
    total = 0
    for unit_id in units:
        army = _army_unit(state.player(seat), unit_id)
        if army is not None and not army.paralysed:
            total += content.units[unit_id].side(army.pack).attack
    return total


def _army_unit(player: Player, unit_id: str) -> ArmyUnit | None:
    return next((u for u in player.army if u.unit == unit_id), None)


def fight(
    state: Homm3State, seat: int, card: int, level: int, units: tuple[str, ...]
) -> list[Event]:
    """Resolve an Adventure-Combat card: Combat Power = the 2 units' Attack + 2 Attack dice;
    at or above the declared level, the Battle and Basic Rewards; below, the Basic Reward
    and a Paralysis token on a participant (homm3bf:...combat-during-adventure).

    :raises InvalidInput | IllegalMove: for a card not held, an Event card, no unit to fight
        with, or units that are not 2 different units of yours (fewer only when you own
        fewer; a Combat needs at least one, see the README).
    """
    card_id = _own_adventure(state, seat, card)
    content = load_content()
    combat = content.combats.get(card_id)
    if combat is None:
        raise IllegalMove(
            f"{content.adventure_name(card_id)} is an Event card: resolve it instead."
        )
    player = state.player(seat)
    if not player.army:
        raise IllegalMove(
            f"You have no units to fight {combat.name} with: muster some first, "
            "or keep the card for a later round."
        )
    need = min(2, len(player.army))
    if (
        len(set(units)) != len(units)
        or len(units) != need
        or any(_army_unit(player, u) is None for u in units)
    ):
        owned = ", ".join(u.unit for u in player.army) or "none"
        raise InvalidInput(
            f"Name {need} different units of yours for this Combat (you own: {owned})."
        )
    player.adventure_hand.remove(card)
    player.resolved.append(card)
    player.resolved_this_round = True
    target = combat.levels[level - 1]
    events = [
        Event(
            kind="adventure_fight",
            text=f"{who(state, seat)} fights {combat.name} #{card} at Combat Power {target.power} with "
            + " and ".join(content.units[u].name for u in units)
            + ".",
            data={"seat": seat, "card": card, "level": level, "units": list(units)},
        )
    ]
    power = 0
    faces: list[int] = []
    stunned: list[str] = []
    for unit_id in units:
        army = _army_unit(player, unit_id)
        assert army is not None
        if army.paralysed:
            army.paralysed = False
            stunned.append(unit_id)
            events.append(
                Event(
                    kind="paralysis",
                    text=f"{content.units[unit_id].name} are stunned: they add no Attack, and the token is removed.",
                    data={"seat": seat},
                )
            )
        else:
            power += content.units[unit_id].side(army.pack).attack
        face, event = dice.roll_attack_face(state, "adventure_combat", seat_name(seat))
        faces.append(face)
        events.append(event)
    args = {
        "card": card_id,
        "level": level,
        "units": list(units),
        "power": power,
        "stunned": stunned,
    }
    if dice.offer(state, seat, die="attack", faces=faces, then="fight", args=args, best=1):
        return events
    return events + _fight_result(state, seat, faces, args) + effects.run(state)


def _fight_result(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, Any]
) -> list[Event]:
    """Finish an Adventure Combat once its Attack dice are final: compare the Combat Power
    with the declared level, then the rewards or the Paralysis token."""
    content = load_content()
    player = state.player(seat)
    combat = content.combats[str(args["card"])]
    target = combat.levels[int(args["level"]) - 1]
    units = [str(u) for u in args["units"]]
    power = int(args["power"]) + sum(dice.attack_value(f) for f in faces)
    events: list[Event] = []
    if morale.trigger(state, seat, "adventure_combat"):
        power -= 2
        events.append(
            Event(
                kind="morale",
                text=f"{seat_name(seat)}'s Cold Feet lowers the Combat Power by 2.",
                data={"seat": seat},
            )
        )
    won = power >= target.power
    events.append(
        Event(
            kind="adventure_result",
            text=f"Combat Power {power} against {target.power}: {'won' if won else 'lost'}.",
            data={"seat": seat, "power": power, "needed": target.power, "won": won},
        )
    )
    steps = [dict(s) for s in combat.basic]
    if won:
        steps = [dict(s) for s in target.steps] + steps
        push(state, seat, steps)
        _offer_necromancy(state, seat)
    else:
        push(state, seat, steps)
        fit = [u for u in units if u not in args["stunned"] and _army_unit(player, u) is not None]
        if len(fit) == 1:
            _stun(player, fit[0])
            events.append(
                Event(
                    kind="paralysis",
                    text=f"{content.units[fit[0]].name} are stunned (Paralysis token).",
                    data={"seat": seat},
                )
            )
        elif fit:
            state.choice[seat] = Choice(
                kind="stun",
                prompt=f"{seat_name(seat)} puts a Paralysis token on a unit that fought.",
                options=[content.units[u].name for u in fit],
                data={"units": fit},
            )
    return events


def _stun(player: Player, unit_id: str) -> None:
    army = _army_unit(player, unit_id)
    if army is not None:
        army.paralysed = True


def _offer_necromancy(state: Homm3State, seat: int) -> None:
    """After a won Adventure Combat, offer the winner's set-aside Necromancy (if any).

    Set-aside cards are private (only their number is public), so the choice is offered
    whenever the winner has any, worded alike: a choice only for a Necromancy card would
    tell the table that one is set aside (DESIGN "Private information")."""
    player = state.player(seat)
    if not player.aside:
        return
    content = load_content()
    options: list[str] = []
    picks: list[dict[str, Any]] = []
    for card in player.aside:
        if state.cards[card] != "necromancy":
            continue
        for expert in (False, True):
            if expert and player.experts < 1:
                continue
            for army in player.army:
                unit = content.units[army.unit]
                if army.pack or (not expert and unit.tier == "gold"):
                    continue
                cost = unit.reinforce.gold // 2
                if not player.resources.covers(
                    cost, unit.reinforce.materials, unit.reinforce.valuables
                ):
                    continue
                options.append(
                    f"Necromancy #{card}{' (Expert)' if expert else ''}: Reinforce {unit.name} for {cost} Gold"
                )
                picks.append({"card": card, "expert": expert, "unit": army.unit})
    options.append("Use no set-aside card")
    state.choice[seat] = Choice(
        kind="necromancy",
        prompt=f"{seat_name(seat)} may use a set-aside card after the win.",
        options=options,
        data={"picks": picks},
    )


# ------------------------------------------------------------ Town actions
def _dwelling_tiers(player: Player) -> set[str]:
    return {b.removeprefix("dwelling_") for b in player.buildings if b.startswith("dwelling_")}


def can_build(state: Homm3State, seat: int, building: Building) -> str | None:
    """Why ``seat`` cannot build ``building`` now (None when it can).

    Rule: homm3turn:build-token"""
    player = state.player(seat)
    if not player.tokens.build:
        return "your Build Token is spent this round"
    if building.id in player.buildings:
        return f"{building.name} is already built"
    if building.tier is not None:
        order = ["bronze", "silver", "gold"]
        needed = order[: order.index(building.tier)]
        missing = [t for t in needed if t not in _dwelling_tiers(player)]
        if missing:
            return f"Dwellings are built in order: first the {missing[0].capitalize()} Dwelling"
    cost = building.cost
    if not player.resources.covers(cost.gold, cost.materials, cost.valuables):
        return f"{building.name} costs {cost.label()} and you have {player.resources.label()}"
    return None


def build(state: Homm3State, seat: int, building_id: str) -> list[Event]:
    """Spend the Build Token on a building (homm3turn:build-token).

    :raises InvalidInput | IllegalMove: for an unknown building or one that cannot be built.
    """
    player = state.player(seat)
    faction = load_content().factions[player.faction]
    building = faction.get(building_id)
    if building is None:
        raise InvalidInput(
            f"{faction.name} has no building {building_id!r}; it has: "
            + ", ".join(b.id for b in faction.building)
            + "."
        )
    reason = can_build(state, seat, building)
    if reason:
        raise IllegalMove(f"You cannot build {building.name}: {reason}.")
    _pay(player, building.cost)
    player.tokens.build = False
    player.buildings.append(building.id)
    events = [
        Event(
            kind="build",
            text=f"{who(state, seat)} builds {building.name} for {building.cost.label()}.",
            data={"seat": seat, "building": building.id},
        )
    ]
    if building.effect == "mage_guild":
        player.guild_round = state.round
        push(
            state,
            seat,
            [
                {"step": "search", "deck": "spell", "amount": 2},
                {"step": "search", "deck": "spell", "amount": 2},
            ],
        )
    return events + effects.run(state)


def _pay(player: Player, cost: Cost) -> None:
    player.resources.gold -= cost.gold
    player.resources.materials -= cost.materials
    player.resources.valuables -= cost.valuables


def muster_cost(
    state: Homm3State,
    seat: int,
    recruit: tuple[str, ...],
    reinforce: tuple[str, ...],
    discount: tuple[int, ...],
) -> Cost:
    """The total price of a Population Token use, after the named discount cards.

    :raises InvalidInput | IllegalMove: for units that cannot be recruited or reinforced.
    Rule: homm3turn:population-token
    """
    player = state.player(seat)
    content = load_content()
    tiers = _dwelling_tiers(player)
    if not recruit and not reinforce:
        raise InvalidInput("Name at least one unit to recruit or reinforce.")
    if len(set(recruit + reinforce)) != len(recruit) + len(reinforce):
        raise InvalidInput("Name each unit once.")
    prices: list[list[int]] = []
    for unit_id in recruit:
        unit = content.units.get(unit_id)
        if unit is None or unit.faction != player.faction:
            raise InvalidInput(
                f"{unit_id!r} is not a {content.factions[player.faction].name} unit."
            )
        if _army_unit(player, unit_id) is not None:
            raise IllegalMove(f"You already have the {unit.name} card.")
        if unit.tier not in tiers:
            raise IllegalMove(
                f"Recruiting {unit.name} needs the {unit.tier.capitalize()} Dwelling."
            )
        prices.append([unit.recruit.gold, unit.recruit.materials, unit.recruit.valuables])
    if len(player.army) + len(recruit) > MAX_UNITS:
        raise IllegalMove(f"You may control at most {MAX_UNITS} units.")
    for unit_id in reinforce:
        unit = content.units.get(unit_id)
        army = _army_unit(player, unit_id)
        if unit is None or army is None:
            raise InvalidInput(f"You have no {unit_id!r} unit to reinforce.")
        if army.pack:
            raise IllegalMove(f"{unit.name} are already a Pack.")
        if "citadel" not in player.buildings:
            raise IllegalMove("Reinforcing needs a Citadel.")
        if unit.tier not in tiers:
            raise IllegalMove(
                f"Reinforcing {unit.name} needs the {unit.tier.capitalize()} Dwelling."
            )
        prices.append([unit.reinforce.gold, unit.reinforce.materials, unit.reinforce.valuables])
    for card in discount:
        if card not in player.aside:
            raise InvalidInput(f"#{card} is not one of your set-aside cards.")
        effect = discount_effect(state, card)
        if effect is None:
            raise IllegalMove(f"{zones.name(state, card)} does not lower a cost.")
        best = max(prices, key=lambda p: p[0])
        best[0] = max(0, best[0] - effect)
    return Cost(
        gold=sum(p[0] for p in prices),
        materials=sum(p[1] for p in prices),
        valuables=sum(p[2] for p in prices),
    )


def discount_effect(state: Homm3State, card: int) -> int | None:
    """The gold a set-aside card takes off a muster when discarded (its ``discount`` effect),
    or None when it has none.

    Rule: homm3turn:population-token"""
    for _i, _x, effect in load_content().cards[state.cards[card]].effects():
        if effect.effect == "discount":
            return effect.gold
    return None


def muster(
    state: Homm3State,
    seat: int,
    recruit: tuple[str, ...],
    reinforce: tuple[str, ...],
    discount: tuple[int, ...],
) -> list[Event]:
    """Spend the Population Token to Recruit (Few side) and Reinforce (Few to Pack) units
    (homm3turn:population-token); named discount cards are used up.

    :raises InvalidInput | IllegalMove: when the token is spent, a unit is not allowed, or
        the Resources do not cover the price.
    """
    player = state.player(seat)
    if not player.tokens.population:
        raise IllegalMove("Your Population Token is spent this round.")
    cost = muster_cost(state, seat, recruit, reinforce, discount)
    if not player.resources.covers(cost.gold, cost.materials, cost.valuables):
        raise IllegalMove(f"That costs {cost.label()} and you have {player.resources.label()}.")
    content = load_content()
    _pay(player, cost)
    player.tokens.population = False
    for card in discount:
        player.aside.remove(card)
        player.removed.append(card)
    for unit_id in recruit:
        player.army.append(ArmyUnit(unit=unit_id))
    for unit_id in reinforce:
        army = _army_unit(player, unit_id)
        assert army is not None
        army.pack = True
    parts = [f"recruits {content.units[u].name}" for u in recruit] + [
        f"reinforces {content.units[u].name}" for u in reinforce
    ]
    return [
        Event(
            kind="muster",
            text=f"{who(state, seat)} {', '.join(parts)} for {cost.label()}.",
            data={"seat": seat, "recruit": list(recruit), "reinforce": list(reinforce)},
        )
    ]


def spell_price(state: Homm3State, seat: int, wisdom: int | None) -> tuple[int, int]:
    """``(Gold, Search size)`` of buying a Spell, with an optional Wisdom card.

    Rule: homm3turn:spell-book-token"""
    player = state.player(seat)
    price = load_content().factions[player.faction].spell_cost
    size = 2
    if wisdom is not None:
        price = max(0, price - 2)
        size = 3
    return price, size


def buy_spell(state: Homm3State, seat: int, wisdom: int | None) -> list[Event]:
    """Spend the Spell Book Token: pay the Mage Guild's price and Search(2) the Spell deck
    (homm3turn:spell-book-token; not in the round the Guild is built).

    :raises IllegalMove | InvalidInput: without a Mage Guild, token, Gold or Wisdom card.
    """
    player = state.player(seat)
    if "mage_guild" not in player.buildings:
        raise IllegalMove("The Spell Book Token needs a Mage Guild.")
    if player.guild_round == state.round:
        raise IllegalMove(
            "The Spell Book Token cannot be used in the round the Mage Guild is built."
        )
    if not player.tokens.spellbook:
        raise IllegalMove("Your Spell Book Token is spent this round.")
    if wisdom is not None and (wisdom not in player.aside or state.cards[wisdom] != "wisdom"):
        raise InvalidInput(f"#{wisdom} is not a set-aside Wisdom card of yours.")
    price, size = spell_price(state, seat, wisdom)
    if player.resources.gold < price:
        raise IllegalMove(f"A Spell costs {price} Gold and you have {player.resources.gold}.")
    events: list[Event] = []
    if wisdom is not None:
        player.aside.remove(wisdom)
        player.removed.append(wisdom)
        if player.experts > 0:
            size = 4
            player.experts -= 1
        events.append(
            Event(
                kind="use_card",
                text=f"{seat_name(seat)} uses Wisdom #{wisdom}.",
                data={"seat": seat},
            )
        )
    player.resources.gold -= price
    player.tokens.spellbook = False
    push(state, seat, [{"step": "search", "deck": "spell", "amount": size}])
    events.append(
        Event(
            kind="buy_spell",
            text=f"{who(state, seat)} pays {price} Gold at the Mage Guild.",
            data={"seat": seat},
        )
    )
    return events + effects.run(state)


def blacksmith(state: Homm3State, seat: int) -> list[Event]:
    """Castle's Blacksmith: pay 6 Gold to Search(2) the Artifact deck, once per turn.

    :raises IllegalMove: without the building, Gold, or when already used this turn.
    Rule: none (core game: Castle's Blacksmith)
    """
    player = state.player(seat)
    if "blacksmith" not in player.buildings:
        raise IllegalMove("You have no Blacksmith.")
    if player.blacksmith_used:
        raise IllegalMove("The Blacksmith works once per turn.")
    if player.resources.gold < BLACKSMITH_COST:
        raise IllegalMove(
            f"The Blacksmith takes {BLACKSMITH_COST} Gold and you have {player.resources.gold}."
        )
    player.resources.gold -= BLACKSMITH_COST
    player.blacksmith_used = True
    push(state, seat, [{"step": "search", "deck": "artifact", "amount": 2}])
    return [
        Event(
            kind="blacksmith",
            text=f"{who(state, seat)} pays {BLACKSMITH_COST} Gold at the Blacksmith.",
            data={"seat": seat},
        ),
        *effects.run(state),
    ]


USABLE_ASIDE = frozenset({"gain", "experience", "scholar"})
"""Set-aside effects used on their own (discounts go with a muster, Wisdom with a Spell
purchase, Scouting with a Search, Movement with a redraw, Necromancy after a won fight)."""


def use_aside(state: Homm3State, seat: int, card: int, option: int) -> list[Event]:
    """Use a set-aside card once, then remove it (homm3bf:adventure-mode).

    :raises InvalidInput | IllegalMove: for a card not set aside, an option it lacks, an
        effect used elsewhere, or an Expert effect without an Expert use left.
    """
    player = state.player(seat)
    if card not in player.aside:
        raise InvalidInput(f"#{card} is not one of your set-aside cards.")
    found = load_content().cards[state.cards[card]].option(option)
    if found is None:
        raise InvalidInput(f"{zones.name(state, card)} has no option {option}.")
    expert, effect = found
    if effect.effect not in USABLE_ASIDE:
        raise IllegalMove(
            f"That effect of {zones.name(state, card)} is used {_WHERE.get(effect.effect, 'in Combat')}."
        )
    if expert and player.experts < 1:
        raise IllegalMove("You have no Expert use left for the Adventure.")
    if effect.effect == "scholar" and not any(
        state.cards[c] in ("attack", "defense", "power", "knowledge") for c in player.deck
    ):
        raise IllegalMove("Your deck holds no Statistic card to swap.")
    if expert:
        player.experts -= 1
    player.aside.remove(card)
    player.removed.append(card)
    events = [
        Event(
            kind="use_card",
            text=f"{who(state, seat)} uses {zones.name(state, card)}: {effect.text}",
            data={"seat": seat, "card": card},
        )
    ]
    if effect.effect == "gain":
        push(
            state,
            seat,
            [
                {
                    "step": "gain",
                    "gold": effect.gold,
                    "materials": effect.materials,
                    "valuables": effect.valuables,
                }
            ],
        )
    elif effect.effect == "experience":
        push(state, seat, [{"step": "experience", "amount": effect.amount}])
    else:
        events += _scholar(state, seat, effect.amount)
    return events + effects.run(state)


_WHERE = {
    "discount": "when you muster units (name it as a discount)",
    "wisdom": "when you buy a Spell",
    "scouting": "when you Search",
    "movement": "to redraw Adventure cards",
    "necromancy": "after a won Adventure Combat",
}


def _scholar(state: Homm3State, seat: int, amount: int) -> list[Event]:
    player = state.player(seat)
    swapped: list[str] = []
    for stat in ("attack", "defense", "power", "knowledge"):
        if len(swapped) >= amount:
            break
        card = next((c for c in player.deck if state.cards[c] == stat), None)
        if card is None:
            continue
        player.deck.remove(card)
        player.removed.append(card)
        player.deck.append(zones.new_instance(state, f"empowered_{stat}"))
        swapped.append(stat.capitalize())
    return [
        Event(
            kind="scholar",
            text=f"{seat_name(seat)} swaps {plural(len(swapped), 'Statistic card')} for "
            + ("an Empowered one." if len(swapped) == 1 else "Empowered ones."),
            data={"seat": seat},
            private={seat: "Swapped: " + ", ".join(swapped) + "."},
        )
    ]


# ---------------------------------------------------------------- choices
def answer(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Answer the Adventure's own choices (keep, Astrologers, City Hall, stun, Amplifier,
    Necromancy, Magic Spring).
    Rule: homm3bf:adventure-mode, homm3bf:adventure-mode.astrologers-rounds,
        homm3bf:adventure-mode.resolving-adventure-cards.combat-during-adventure"""
    if choice.kind in ("adventure_keep", "adventure_keep2"):
        return _answer_keep(state, seat, choice, index)
    if choice.kind == "astrologers":
        return _answer_astrologers(state, seat, index)
    if choice.kind == "city_hall":
        return _answer_city_hall(state, seat, choice, index)
    if choice.kind == "stun":
        unit_id = choice.data["units"][index]
        _stun(state.player(seat), unit_id)
        return [
            Event(
                kind="paralysis",
                text=f"{load_content().units[unit_id].name} are stunned (Paralysis token).",
                data={"seat": seat},
            )
        ]
    if choice.kind == "amplifier":
        card = next((c for c in state.ability_deck if state.cards[c] == "necromancy"), None)
        if index == 1 or card is None:
            # Worded alike: whether the deck held one stays with the searcher.
            return [
                Event(
                    kind="amplifier",
                    text=f"{seat_name(seat)} takes no Necromancy card.",
                    data={"seat": seat},
                    private=(
                        {seat: "The Ability deck holds no Necromancy card."}
                        if card is None and index != 1
                        else {}
                    ),
                )
            ]
        state.ability_deck.remove(card)
        return [zones.gain(state, seat, card)]
    if choice.kind == "necromancy":
        return _answer_necromancy(state, seat, choice, index)
    if choice.kind == "magic_spring":
        return _answer_spring(state, seat, choice, index)
    return combat_flow.answer(state, seat, choice, index)


def _answer_astrologers(state: Homm3State, seat: int, index: int) -> list[Event]:
    if index < 3:
        return [effects.raise_income(state, seat, ("gold", "materials", "valuables")[index])]
    face, event = effects.roll_resource(state, seat, "astrologers")
    if dice.offer(state, seat, die="resource", faces=[face], then="astrologers"):
        return [event]
    return [event, *_astrologers_die(state, seat, [face], {})]


def _astrologers_die(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, Any]
) -> list[Event]:
    """The Astrologers' die is final: raise that income a tier and pay its basic amount
    (homm3bf:adventure-mode.astrologers-rounds)."""
    face = faces[0]
    resource = effects.RESOURCE_FACES[face - 1][0]
    amount = effects.BASIC_INCOME[resource]
    effects.add_resources(state.player(seat), resource, amount)
    return [
        effects.raise_income(state, seat, resource),
        Event(
            kind="resources",
            text=f"{seat_name(seat)} gains {amount} {RESOURCE_NAMES[resource]}.",
            data={"seat": seat},
        ),
    ]


def _answer_city_hall(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    pick = choice.data["picks"][index]
    player = state.player(seat)
    if "gold" in pick:
        player.resources.gold += int(pick["gold"])
    elif "valuables" in pick:
        player.resources.valuables += 1
    elif "movement" in pick:
        player.movement += 1
    else:
        army = _army_unit(player, str(pick["reinforce"]))
        if army is not None:
            army.pack = True
    return [
        Event(
            kind="income",
            text=f"{seat_name(seat)} takes {choice.options[index]}.",
            data={"seat": seat},
        )
    ]


def _answer_necromancy(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    picks = choice.data["picks"]
    if index >= len(picks):
        return []
    pick = picks[index]
    player = state.player(seat)
    unit = load_content().units[pick["unit"]]
    player.resources.gold -= unit.reinforce.gold // 2
    player.resources.materials -= unit.reinforce.materials
    player.resources.valuables -= unit.reinforce.valuables
    if pick["expert"]:
        player.experts -= 1
    card = int(pick["card"])
    player.aside.remove(card)
    player.removed.append(card)
    army = _army_unit(player, unit.id)
    assert army is not None
    army.pack = True
    return [
        Event(
            kind="muster",
            text=f"{seat_name(seat)} uses Necromancy: {unit.name} are reinforced for half the Gold.",
            data={"seat": seat},
        )
    ]


def _answer_spring(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    card = int(choice.data["cards"][index])
    state.adventure_discard.remove(card)
    player = state.player(seat)
    content = load_content()
    card_id = state.cards[card]
    events = [
        Event(
            kind="adventure_resolve",
            text=f"{seat_name(seat)} swaps Magic Spring for {content.adventure_name(card_id)} #{card}.",
            data={"seat": seat},
        )
    ]
    if card_id in content.events:
        player.resolved.append(card)
        push(state, seat, [dict(s) for s in content.events[card_id].steps], front=True)
        return events
    player.adventure_hand.append(card)
    player.resolved_this_round = False
    events.append(
        Event(
            kind="adventure",
            text=f"{seat_name(seat)} takes the Combat card into hand and may fight it this round.",
            data={"seat": seat},
        )
    )
    return events


dice.register("fight", _fight_result)
dice.register("astrologers", _astrologers_die)

__all__ = ["MAX_UNITS", "ROUNDS", "TIER_ORDER"]
