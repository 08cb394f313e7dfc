"""The effect queue: each seat's pending steps (Adventure rewards, Searches, Level-up
rewards, Skirmish deck picks, Morale) and the choices they open.

Rule sections: homm3bf:adventure-mode.resolving-adventure-cards (rewards, dice, Search),
homm3bf:adventure-mode.astrologers-rounds, homm3bf:skirmish-mode (draw N, Remove some),
homm3turn:gaining-morale / losing-morale, core Search(X) (look at the top X and take one,
or take the top card of the discard pile) and the Treasure and Resource dice.

A step runs until it needs a decision; it then opens a `Choice` for its seat and the queue
of that seat waits for ``choose``. `run` resolves every seat's queue as far as it goes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.homm3 import dice, morale, zones
from engine.homm3.content import load_content
from engine.homm3.rules import expert_limit, gain_experience, who
from engine.homm3.state import Choice, Homm3State, Player, Step

RESOURCE_FACES = dice.RESOURCE_FACES
"""The Resource die's six faces (face 1..6)."""

TREASURE_FACES = dice.TREASURE_FACES
"""The Treasure die's six faces (face 1..6)."""

BASIC_INCOME: dict[str, int] = {"gold": 5, "materials": 2, "valuables": 1}
"""One income tier of each Resource (homm3bf:adventure-mode.astrologers-rounds)."""

RESOURCE_NAMES = dice.RESOURCE_NAMES

TRADES: tuple[tuple[str, int, str, int], ...] = (
    ("gold", 6, "valuables", 1),
    ("gold", 2, "materials", 1),
    ("materials", 3, "valuables", 1),
    ("materials", 1, "gold", 1),
    ("valuables", 1, "gold", 3),
    ("valuables", 1, "materials", 2),
)
"""The Trading Post's trades: pay (resource, amount) for (resource, amount)."""

STATISTICS: tuple[str, ...] = ("attack", "defense", "power", "knowledge")


def push(state: Homm3State, seat: int, steps: list[dict[str, Any]], *, front: bool = False) -> None:
    """Queue data steps (``{"step": ..., **args}``) for ``seat``.

    Rule: none (bookkeeping: effect queue)"""
    made = [Step(step=s["step"], args={k: v for k, v in s.items() if k != "step"}) for s in steps]
    queue = state.queue.setdefault(seat, [])
    if front:
        queue[:0] = made
    else:
        queue.extend(made)


def busy(state: Homm3State) -> bool:
    """Whether any seat has an open choice or queued steps.

    Rule: none (bookkeeping: effect queue)"""
    return bool(state.choice) or any(state.queue.values())


def run(state: Homm3State) -> list[Event]:
    """Resolve queued steps of every seat until each queue is empty or waits on a choice.

    Rule: none (bookkeeping: effect queue)"""
    events: list[Event] = []
    progress = True
    while progress:
        progress = False
        for seat in sorted(state.queue):
            queue = state.queue[seat]
            while queue and seat not in state.choice:
                step = queue.pop(0)
                events += _STEPS[step.step](state, seat, step.args)
                progress = True
        for seat in [s for s, q in state.queue.items() if not q]:
            del state.queue[seat]
    return events


def _set_choice(
    state: Homm3State, seat: int, kind: str, prompt: str, options: list[str], **data: Any
) -> None:
    state.choice[seat] = Choice(
        kind=kind,
        prompt=prompt,
        options=options,
        private=bool(data.pop("private", False)),
        data=data,
    )


# -------------------------------------------------------------- resources
def add_resources(player: Player, resource: str, amount: int) -> None:
    """Add ``amount`` of ``resource`` (``gold``/``materials``/``valuables``).

    Rule: none (core game: resources)"""
    setattr(player.resources, resource, getattr(player.resources, resource) + amount)


def _gain(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    parts = []
    for resource in ("gold", "materials", "valuables"):
        amount = int(args.get(resource, 0))
        if amount:
            add_resources(player, resource, amount)
            parts.append(f"{amount} {RESOURCE_NAMES[resource]}")
    if not parts:
        return []
    return [
        Event(
            kind="resources",
            text=f"{seat_name(seat)} gains {', '.join(parts)}.",
            data={
                "seat": seat,
                **{k: int(args.get(k, 0)) for k in ("gold", "materials", "valuables")},
            },
        )
    ]


def _pay(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    for resource in ("gold", "materials", "valuables"):
        add_resources(player, resource, -int(args.get(resource, 0)))
    return []


def _nothing(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    return []


def _experience(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    return gain_experience(state, seat, int(args.get("amount", 1)))


def _learning_stone(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    return gain_experience(state, seat, 2 if state.player(seat).level < 4 else 1)


def _morale(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    if int(args.get("amount", 1)) > 0:
        return morale.gain(state, seat)
    return morale.lose(state, seat)


# ------------------------------------------------------------------- dice
roll_resource = dice.roll_resource
roll_attack_die = dice.roll_attack_die


def resource_label(face: int) -> str:
    """``"6 Gold"`` for a Resource die face.

    Rule: none (label)"""
    resource, amount = RESOURCE_FACES[face - 1]
    return f"{amount} {RESOURCE_NAMES[resource]}"


def _take_resource_face(state: Homm3State, seat: int, face: int) -> list[Event]:
    resource, amount = RESOURCE_FACES[face - 1]
    return _gain(state, seat, {resource: amount})


def _resource_dice(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    count = int(args.get("count", 1))
    events: list[Event] = []
    faces = []
    for _ in range(count):
        face, event = roll_resource(state, seat, "resource")
        faces.append(face)
        events.append(event)
    pick = {"pick": bool(args.get("pick"))}
    if dice.offer(state, seat, die="resource", faces=faces, then="resource_dice", args=pick):
        return events
    return events + _resource_faces(state, seat, faces, pick)


def _resource_faces(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, Any]
) -> list[Event]:
    count = len(faces)
    events: list[Event] = []
    if args.get("pick") and count > 1:
        _set_choice(
            state,
            seat,
            "dice_pick",
            f"{seat_name(seat)} keeps one of the Resource dice.",
            [resource_label(f) for f in faces],
            die="resource",
            faces=faces,
        )
        return events
    for face in faces:
        events += _take_resource_face(state, seat, face)
    return events


def _take_treasure_face(state: Homm3State, seat: int, face: int) -> list[Event]:
    result = TREASURE_FACES[face - 1]
    if result == "experience":
        return gain_experience(state, seat, 1)
    if result == "artifact":
        push(state, seat, [{"step": "search", "deck": "artifact", "amount": 2}], front=True)
        return []
    if result == "resource":
        push(state, seat, [{"step": "resource_dice", "count": 1}], front=True)
        return []
    push(state, seat, [{"step": "resource_dice", "count": 2, "pick": True}], front=True)
    return []


def _treasure_dice(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    count = int(args.get("count", 1))
    events: list[Event] = []
    faces = []
    for _ in range(count):
        face = state.rng.die(6)
        faces.append(face)
        events.append(
            Event(
                kind="die_roll",
                text=f"{seat_name(seat)} rolls a Treasure die: {dice.treasure_label(face)}.",
                data={"sides": 6, "result": face, "purpose": "treasure", "die": "treasure"},
            )
        )
    pick = {"pick": bool(args.get("pick"))}
    if dice.offer(state, seat, die="treasure", faces=faces, then="treasure_dice", args=pick):
        return events
    return events + _treasure_faces(state, seat, faces, pick)


def _treasure_faces(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, Any]
) -> list[Event]:
    count = len(faces)
    events: list[Event] = []
    if args.get("pick") and count > 1:
        _set_choice(
            state,
            seat,
            "dice_pick",
            f"{seat_name(seat)} keeps one of the Treasure dice.",
            [dice.treasure_label(f) for f in faces],
            die="treasure",
            faces=faces,
        )
        return events
    for face in faces:
        events += _take_treasure_face(state, seat, face)
    return events


def _attack_die(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    face, event = dice.roll_attack_face(state, "event", seat_name(seat))
    if dice.offer(state, seat, die="attack", faces=[face], then="event_die", args=dict(args)):
        return [event]
    return [event, *_attack_die_result(state, seat, [face], args)]


def _attack_die_result(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, Any]
) -> list[Event]:
    branch = {1: "plus", 0: "zero", -1: "minus"}[dice.attack_value(faces[0])]
    push(state, seat, list(args.get(branch, [])), front=True)
    return []


# ----------------------------------------------------------------- search
def _scouting_cards(state: Homm3State, seat: int) -> list[int]:
    return [c for c in state.player(seat).aside if state.cards[c] == "scouting"]


def _search(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    deck = args["deck"]
    amount = int(args.get("amount", 2))
    events = zones.refill(state, deck)
    discard = getattr(state, f"{deck}_discard")
    options = [f"Look at the top {amount} cards of the {deck.capitalize()} deck"]
    modes: list[dict[str, Any]] = [{"look": amount}]
    if discard:
        options.append(
            f"Take the top of the {deck.capitalize()} discard pile: {zones.name(state, discard[0])}"
        )
        modes.append({"discard": True})
    for card in _scouting_cards(state, seat):
        options.append(f"Use Scouting #{card}: look at the top 3")
        modes.append({"look": 3, "scouting": card, "expert": False})
        if state.player(seat).experts > 0:
            options.append(f"Use Scouting #{card} (Expert): look at the top 5")
            modes.append({"look": 5, "scouting": card, "expert": True})
    if len(options) == 1:
        return events + _search_look(
            state, seat, deck, amount, bool(args.get("optional")), args.get("target")
        )
    _set_choice(
        state,
        seat,
        "search_mode",
        f"{seat_name(seat)} Searches({amount}) the {deck.capitalize()} deck.",
        options,
        deck=deck,
        modes=modes,
        optional=bool(args.get("optional")),
        target=args.get("target"),
    )
    return events


def _search_look(
    state: Homm3State, seat: int, deck: str, amount: int, optional: bool, target: str | None
) -> list[Event]:
    taken, events = zones.take_top(state, deck, amount)  # type: ignore[arg-type]
    if not taken:
        return [
            *events,
            Event(
                kind="search", text=f"The {deck.capitalize()} deck is empty.", data={"seat": seat}
            ),
        ]
    state.looking[seat] = taken
    options = [zones.name(state, c) for c in taken]
    if optional:
        options.append("Keep none of them")
    _set_choice(
        state,
        seat,
        "search_pick",
        f"{seat_name(seat)} looks at {len(taken)} {deck.capitalize()} card{'s' if len(taken) != 1 else ''} and keeps one.",
        options,
        private=True,
        deck=deck,
        target=target,
    )
    return [
        *events,
        Event(
            kind="search",
            text=f"{seat_name(seat)} looks at the top {len(taken)} cards of the {deck.capitalize()} deck.",
            data={"seat": seat, "deck": deck, "count": len(taken)},
            private={seat: "You look at " + ", ".join(options[: len(taken)]) + "."},
        ),
    ]


def _answer_search_mode(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    mode = choice.data["modes"][index]
    deck = choice.data["deck"]
    if mode.get("discard"):
        discard = getattr(state, f"{deck}_discard")
        card = discard.pop(0)
        return [
            Event(
                kind="search",
                text=f"{seat_name(seat)} takes {zones.name(state, card)} from the {deck.capitalize()} discard pile.",
                data={"seat": seat, "card": card},
            ),
            *_place_found(state, seat, card, choice.data.get("target")),
            *zones.refill(state, deck),
        ]
    events: list[Event] = []
    if "scouting" in mode:
        player = state.player(seat)
        card = int(mode["scouting"])
        player.aside.remove(card)
        player.removed.append(card)
        if mode.get("expert"):
            player.experts -= 1
        events.append(
            Event(
                kind="use_card",
                text=f"{seat_name(seat)} uses {zones.name(state, card)}.",
                data={"seat": seat, "card": card},
            )
        )
    return events + _search_look(
        state,
        seat,
        deck,
        int(mode["look"]),
        bool(choice.data.get("optional")),
        choice.data.get("target"),
    )


def _place_found(state: Homm3State, seat: int, card: int, target: str | None) -> list[Event]:
    if target == "scroll":
        state.player(seat).scroll.append(card)
        return [
            Event(
                kind="scroll",
                text=f"{seat_name(seat)} puts a Spell on the Spell Scroll.",
                data={"seat": seat},
                private={seat: f"Your Spell Scroll holds {zones.name(state, card)}."},
            )
        ]
    return [zones.gain(state, seat, card)]


def _answer_search_pick(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    looked = state.looking.pop(seat, [])
    deck = choice.data["deck"]
    kept = looked[index] if index < len(looked) else None
    rest = [c for c in looked if c != kept]
    zones.discard_shared(state, deck, rest)
    events: list[Event] = []
    if rest:
        events.append(
            Event(
                kind="discard",
                text=f"{', '.join(zones.name(state, c) for c in rest)} go{'es' if len(rest) == 1 else ''} to the {deck.capitalize()} discard pile.",
                data={"cards": rest, "deck": deck},
            )
        )
    if kept is not None:
        events += _place_found(state, seat, kept, choice.data.get("target"))
    return events


# -------------------------------------------------------- simple rewards
def _income(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    _set_choice(
        state,
        seat,
        "income",
        f"{seat_name(seat)} raises one income track by a tier.",
        [f"{RESOURCE_NAMES[r]} (+{BASIC_INCOME[r]} per Resource round)" for r in BASIC_INCOME],
    )
    return []


def raise_income(state: Homm3State, seat: int, resource: str) -> Event:
    """Move ``seat``'s ``resource`` income one tier up (homm3bf:...astrologers-rounds)."""
    player = state.player(seat)
    setattr(player.income, resource, getattr(player.income, resource) + BASIC_INCOME[resource])
    return Event(
        kind="income",
        text=f"{seat_name(seat)} raises {RESOURCE_NAMES[resource]} income to {getattr(player.income, resource)}.",
        data={"seat": seat, "resource": resource},
    )


def _statistic(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    _set_choice(
        state,
        seat,
        "statistic",
        f"{seat_name(seat)} takes a Statistic card of their choice.",
        [s.capitalize() for s in STATISTICS],
    )
    return []


def _remove_card(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    cards = player.deck + player.hand + player.discard
    if not cards:
        return []
    options = [zones.name(state, c) for c in cards] + ["Remove nothing"]
    _set_choice(
        state,
        seat,
        "remove_card",
        f"{seat_name(seat)} may remove a card from their deck.",
        options,
        private=True,
        cards=cards,
    )
    return []


def _trade(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    options, trades = [], []
    for give, give_n, get, get_n in TRADES:
        if getattr(player.resources, give) >= give_n:
            options.append(f"{give_n} {RESOURCE_NAMES[give]} for {get_n} {RESOURCE_NAMES[get]}")
            trades.append([give, give_n, get, get_n])
    options.append("Done trading")
    _set_choice(
        state,
        seat,
        "trade",
        f"{seat_name(seat)} trades at the Trading Post.",
        options,
        trades=trades,
    )
    return []


def _scroll(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    return _search_look(state, seat, "spell", int(args.get("amount", 3)), False, "scroll")


def _choose(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    options = args["options"]
    _set_choice(
        state,
        seat,
        "option",
        f"{seat_name(seat)} chooses.",
        [o[0] for o in options],
        branches=[o[1:] for o in options],
    )
    return []


def _obelisk(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    count = max(1, sum(1 for c in player.resolved if state.cards[c] == "obelisk"))
    event = Event(
        kind="obelisk",
        text=f"{seat_name(seat)} resolves Obelisk number {count}.",
        data={"seat": seat, "count": count},
    )
    if count == 1:
        push(state, seat, [{"step": "morale", "amount": 1}], front=True)
    elif count == 2:
        push(state, seat, [{"step": "income"}], front=True)
    else:
        push(state, seat, [{"step": "resource_dice", "count": 4}], front=True)
    return [event]


def _magic_spring(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    pile = [c for c in state.adventure_discard if state.cards[c] != "magic_spring"][
        : int(args.get("amount", 4))
    ]
    if not pile:
        return [
            Event(
                kind="adventure",
                text="The Adventure discard pile offers nothing.",
                data={"seat": seat},
            )
        ]
    content = load_content()
    _set_choice(
        state,
        seat,
        "magic_spring",
        f"{seat_name(seat)} picks a card of the Adventure discard pile to resolve instead.",
        [content.adventure_name(state.cards[c]) + f" #{c}" for c in pile],
        cards=pile,
    )
    return []


def _specialty(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    player = state.player(seat)
    hero = load_content().heroes[player.hero]
    card = zones.new_instance(state, hero.specialty[int(args["index"])])
    return [zones.gain(state, seat, card)]


def _setup_pick(state: Homm3State, seat: int, args: dict[str, Any]) -> list[Event]:
    """Skirmish: draw ``amount`` cards of a shared deck, Remove ``remove`` of them by
    choice, add the rest to the deck (homm3bf:skirmish-mode.large/medium/short)."""
    deck = args["deck"]
    taken, events = zones.take_top(state, deck, int(args["amount"]))
    remove = int(args.get("remove", 0))
    if remove <= 0 or len(taken) <= remove:
        return events + _setup_keep(state, seat, deck, taken, removed=[] if remove <= 0 else taken)
    state.looking[seat] = taken
    _set_choice(
        state,
        seat,
        "setup_remove",
        f"{seat_name(seat)} Removes {remove} of {len(taken)} {deck.capitalize()} cards.",
        [zones.name(state, c) for c in taken],
        private=True,
        deck=deck,
        remove=remove,
    )
    return [
        *events,
        Event(
            kind="search",
            text=f"{seat_name(seat)} draws {len(taken)} {deck.capitalize()} cards for the deck.",
            data={"seat": seat, "count": len(taken)},
            private={seat: "You draw " + ", ".join(zones.name(state, c) for c in taken) + "."},
        ),
    ]


def _setup_keep(
    state: Homm3State, seat: int, deck: str, taken: list[int], removed: list[int]
) -> list[Event]:
    player = state.player(seat)
    kept = [c for c in taken if c not in removed]
    player.deck.extend(kept)
    player.removed.extend(removed)
    return [
        Event(
            kind="deck_build",
            text=f"{seat_name(seat)} adds {len(kept)} {deck.capitalize()} card{'s' if len(kept) != 1 else ''} to the deck"
            + (f" and Removes {len(removed)}." if removed else "."),
            data={"seat": seat, "added": len(kept), "removed": len(removed)},
            private={
                seat: "Added: " + (", ".join(zones.name(state, c) for c in kept) or "nothing") + "."
            },
        )
    ]


def _answer_setup_remove(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    looked = state.looking[seat]
    card = looked.pop(index)
    state.player(seat).removed.append(card)
    remaining = int(choice.data["remove"]) - 1
    event = Event(
        kind="remove",
        text=f"{seat_name(seat)} Removes a card.",
        data={"seat": seat},
        private={seat: f"You Remove {zones.name(state, card)}."},
    )
    if remaining > 0:
        _set_choice(
            state,
            seat,
            "setup_remove",
            f"{seat_name(seat)} Removes {remaining} more of {len(looked)} cards.",
            [zones.name(state, c) for c in looked],
            private=True,
            deck=choice.data["deck"],
            remove=remaining,
        )
        return [event]
    state.looking.pop(seat)
    return [event, *_setup_keep(state, seat, choice.data["deck"], looked, [])]


# ------------------------------------------------------------- dispatch
def answer(
    state: Homm3State,
    seat: int,
    index: int,
    otherwise: Callable[[Homm3State, int, Choice, int], list[Event]],
) -> list[Event]:
    """Answer ``seat``'s open choice with option ``index``, then keep resolving.

    A choice of a kind this module does not answer itself (the Adventure's and the
    Combat's) goes to ``otherwise(state, seat, choice, index)``: the flow that opened it
    passes it (the ruleset passes `adventure.answer`), so this step module imports none.

    :raises InvalidInput: when the seat has no open choice or the index is out of range.
    Rule: none (bookkeeping: effect queue)
    """
    choice = state.choice.get(seat)
    if choice is None:
        raise InvalidInput("You have nothing to choose now.")
    if not 0 <= index < len(choice.options):
        # counted from 1, as the bot numbers a choice's options (``Choose.option`` is 0-based)
        raise InvalidInput(
            f"There is no option {index + 1}; choose 1 to {len(choice.options)}: "
            + "; ".join(f"{i}: {o}" for i, o in enumerate(choice.options, start=1))
            if not choice.private
            else f"There is no option {index + 1}; choose 1 to {len(choice.options)}."
        )
    problem = option_problem(state, seat, choice, index)
    if problem:
        raise IllegalMove(f"Not that option: {problem}.")
    del state.choice[seat]
    handler = _ANSWERS.get(choice.kind)
    if handler is None:
        events = otherwise(state, seat, choice, index)
    else:
        events = handler(state, seat, choice, index)
    return events + run(state)


def _answer_dice(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    face = int(choice.data["faces"][index])
    if choice.data["die"] == "resource":
        return _take_resource_face(state, seat, face)
    return _take_treasure_face(state, seat, face)


def option_problem(state: Homm3State, seat: int, choice: Choice, index: int) -> str | None:
    """Why option ``index`` of an ``option`` choice cannot be taken (a price not covered).

    Rule: none (core game: paying a price)"""
    if choice.kind != "option":
        return None
    player = state.player(seat)
    for step in choice.data["branches"][index]:
        if step.get("step") == "pay" and not player.resources.covers(
            int(step.get("gold", 0)), int(step.get("materials", 0)), int(step.get("valuables", 0))
        ):
            return f"you cannot pay for '{choice.options[index]}' ({player.resources.label()})"
    return None


def _answer_option(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    push(state, seat, list(choice.data["branches"][index]), front=True)
    return [
        Event(
            kind="choice",
            text=f"{seat_name(seat)} chooses: {choice.options[index]}.",
            data={"seat": seat},
        )
    ]


def _answer_income(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    return [raise_income(state, seat, list(BASIC_INCOME)[index])]


def _answer_statistic(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    card = zones.new_instance(state, STATISTICS[index])
    return [zones.gain(state, seat, card)]


def _answer_remove(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    cards = choice.data["cards"]
    if index >= len(cards):
        return [
            Event(kind="remove", text=f"{seat_name(seat)} removes nothing.", data={"seat": seat})
        ]
    card = int(cards[index])
    player = state.player(seat)
    for zone in (player.deck, player.hand, player.discard):
        if card in zone:
            zone.remove(card)
    player.removed.append(card)
    return [
        Event(
            kind="remove",
            text=f"{seat_name(seat)} removes a card from their deck.",
            data={"seat": seat},
            private={seat: f"You remove {zones.name(state, card)}."},
        )
    ]


def _answer_trade(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    trades = choice.data["trades"]
    if index >= len(trades):
        return [
            Event(kind="trade", text=f"{seat_name(seat)} is done trading.", data={"seat": seat})
        ]
    give, give_n, get, get_n = trades[index]
    player = state.player(seat)
    add_resources(player, give, -int(give_n))
    add_resources(player, get, int(get_n))
    push(state, seat, [{"step": "trade"}], front=True)
    return [
        Event(
            kind="trade",
            text=f"{seat_name(seat)} trades {give_n} {RESOURCE_NAMES[give]} for {get_n} {RESOURCE_NAMES[get]}.",
            data={"seat": seat},
        )
    ]


def _answer_morale(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    return morale.take_positive(state, seat, index)


_STEPS = {
    "gain": _gain,
    "pay": _pay,
    "nothing": _nothing,
    "experience": _experience,
    "learning_stone": _learning_stone,
    "morale": _morale,
    "resource_dice": _resource_dice,
    "treasure_dice": _treasure_dice,
    "attack_die": _attack_die,
    "search": _search,
    "income": _income,
    "statistic": _statistic,
    "remove_card": _remove_card,
    "trade": _trade,
    "scroll": _scroll,
    "choose": _choose,
    "obelisk": _obelisk,
    "magic_spring": _magic_spring,
    "specialty": _specialty,
    "setup_pick": _setup_pick,
}

_ANSWERS = {
    "search_mode": _answer_search_mode,
    "search_pick": _answer_search_pick,
    "dice_pick": _answer_dice,
    "option": _answer_option,
    "income": _answer_income,
    "statistic": _answer_statistic,
    "remove_card": _answer_remove,
    "trade": _answer_trade,
    "morale_search": _answer_morale,
    "setup_remove": _answer_setup_remove,
    "reroll": dice.answer,
}


def register_step(name: str, handler: Any) -> None:
    """Add a step handler (used by the Adventure module for its own steps).

    Rule: none (bookkeeping)"""
    _STEPS[name] = handler


def register_answer(kind: str, handler: Any) -> None:
    """Add the answer handler of a choice kind (used by the Combat modules).

    Rule: none (bookkeeping)"""
    _ANSWERS[kind] = handler


dice.register("resource_dice", _resource_faces)
dice.register("treasure_dice", _treasure_faces)
dice.register("event_die", _attack_die_result)


def expert_available(state: Homm3State, seat: int) -> int:
    """Unspent Expert uses of ``seat`` (never above the Level's limit).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic"""
    return min(state.player(seat).experts, expert_limit(state.player(seat)))


__all__ = ["answer", "busy", "push", "run", "who"]
