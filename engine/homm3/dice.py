"""The dice and their rerolls: the Attack die, the Resource die, the Treasure die, and
the offer to reroll a die a seat has just thrown.

Rule sections: homm3turn:spending-positive-morale (a Positive Morale token may be spent to
"reroll any Die you have thrown"), homm3bf:battlefield-in-regular-games.changes-to-combat-
rules.morale-decks-in-regular-games (the tokens are used when a Morale deck is empty),
homm3turn:necropolis (Necropolis ignores Morale); the Luck Ability's Expert effect (for the
rest of the Combat round each die you throw may be rerolled once).

Every die a seat throws goes through `offer`: when the seat holds the Positive token (and
is not Necropolis) or its Expert Luck is running this Combat round, and a die could still
turn out better, the seat is asked whether to keep the dice or reroll one (a public
choice: dice are thrown in the open). The code that threw the dice names a continuation
(``then``) registered with `register`; it runs with the final faces once the seat keeps
them. Faces are 1-6; an Attack die reads -1, -1, 0, 0, +1, +1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.model import Event, seat_name
from engine.homm3 import morale
from engine.homm3.state import Choice, Homm3State

ATTACK_VALUES: tuple[int, ...] = (-1, -1, 0, 0, 1, 1)
"""The Attack die's result for faces 1-6."""

RESOURCE_FACES: tuple[tuple[str, int], ...] = (
    ("gold", 3),
    ("gold", 6),
    ("materials", 2),
    ("materials", 4),
    ("valuables", 1),
    ("valuables", 2),
)
"""The Resource die's six faces (face 1..6)."""

RESOURCE_NAMES: dict[str, str] = {
    "gold": "Gold",
    "materials": "Building Materials",
    "valuables": "Valuables",
}

Then = Callable[[Homm3State, int, list[int], dict[str, Any]], list[Event]]
"""A continuation: ``(state, seat, final faces, args) -> events``."""

_THEN: dict[str, Then] = {}


def register(name: str, handler: Then) -> None:
    """Register the continuation ``name`` (called once the seat keeps its dice).

    Rule: none (bookkeeping)"""
    _THEN[name] = handler


def attack_value(face: int) -> int:
    """The Attack die's result (-1, 0 or +1) for ``face`` 1-6.

    Rule: none (core game: Attack die faces)"""
    return ATTACK_VALUES[face - 1]


def roll_attack_die(state: Homm3State, purpose: str, who_rolls: str) -> tuple[int, Event]:
    """Roll the Attack die (faces -1, -1, 0, 0, +1, +1): ``(result, event)``.

    Rule: none (core game: the Attack die)"""
    face, event = roll_attack_face(state, purpose, who_rolls)
    return attack_value(face), event


def roll_attack_face(state: Homm3State, purpose: str, who_rolls: str) -> tuple[int, Event]:
    """Roll the Attack die: ``(face 1-6, event)``; `attack_value` reads the face.

    Rule: none (core game: the Attack die)"""
    face = state.rng.die(6)
    result = attack_value(face)
    return face, Event(
        kind="die_roll",
        text=f"{who_rolls} rolls the Attack die: {result:+d}.",
        data={"sides": 6, "result": face, "value": result, "purpose": purpose, "die": "attack"},
    )


def roll_resource(state: Homm3State, seat: int, purpose: str) -> tuple[int, Event]:
    """Roll one Resource die for ``seat``: ``(face 1..6, event)``.

    Rule: none (core game: the Resource die)"""
    face = state.rng.die(6)
    resource, amount = RESOURCE_FACES[face - 1]
    return face, Event(
        kind="die_roll",
        text=f"{seat_name(seat)} rolls a Resource die: {amount} {RESOURCE_NAMES[resource]}.",
        data={"sides": 6, "result": face, "purpose": purpose, "die": "resource"},
    )


def _label(die: str, face: int) -> str:
    if die == "resource":
        resource, amount = RESOURCE_FACES[face - 1]
        return f"{amount} {RESOURCE_NAMES[resource]}"
    if die == "treasure":
        return treasure_label(face)
    return f"{attack_value(face):+d}"


def _roll(state: Homm3State, seat: int, die: str) -> tuple[int, Event]:
    if die == "resource":
        return roll_resource(state, seat, "reroll")
    if die == "treasure":
        face = state.rng.die(6)
        return face, Event(
            kind="die_roll",
            text=f"{seat_name(seat)} rerolls a Treasure die: {treasure_label(face)}.",
            data={"sides": 6, "result": face, "purpose": "reroll", "die": "treasure"},
        )
    return roll_attack_face(state, "reroll", seat_name(seat))


def luck_running(state: Homm3State, seat: int) -> bool:
    """Whether ``seat``'s Expert Luck is running (this Combat round).

    Rule: none (core game: Luck Ability's Expert effect)"""
    combat = state.combat
    return state.phase == "combat" and combat is not None and combat.luck.get(seat) == combat.round


def offer(
    state: Homm3State,
    seat: int,
    *,
    die: str,
    faces: list[int],
    then: str,
    args: dict[str, Any] | None = None,
    best: int | None = None,
    luck_used: list[int] | None = None,
    free: str | None = None,
    free_values: tuple[int, ...] = (),
    free_once: bool = False,
) -> bool:
    """Offer ``seat`` a reroll of the ``faces`` it just threw (``die``: ``attack``,
    ``resource`` or ``treasure``); returns whether a choice was opened (the caller stops;
    the continuation ``then`` runs with the final faces). ``best``: the Attack die result
    the thrower hopes for; a die already showing it is not offered. ``luck_used``: indexes
    already rerolled with Luck (each die once). ``free``: the name of a unit ability that
    rerolls an Attack die at no cost (Crusade: every die showing one of ``free_values``;
    Charge: one die, ``free_once``).
    Rule: homm3turn:spending-positive-morale,
        homm3bf:battlefield-in-regular-games.changes-to-combat-rules.morale-decks-in-regular-games,
        homm3turn:necropolis
    """
    used = list(luck_used or [])
    options: list[str] = []
    picks: list[list[Any]] = []
    token = state.player(seat).positive_token and not morale.ignores(state, seat)
    luck = luck_running(state, seat)
    for index, face in enumerate(faces):
        if die == "attack" and best is not None and attack_value(face) == best:
            continue
        which = f"die {index + 1} " if len(faces) > 1 else ""
        if free and (not free_values or attack_value(face) in free_values):
            options.append(f"Reroll {which}({_label(die, face)}) with {free}")
            picks.append([index, "free"])
        if luck and index not in used:
            options.append(f"Reroll {which}({_label(die, face)}) with Luck")
            picks.append([index, "luck"])
        if token:
            options.append(f"Reroll {which}({_label(die, face)}) with the Positive Morale token")
            picks.append([index, "token"])
    if not options:
        return False
    shown = ", ".join(_label(die, f) for f in faces)
    state.choice[seat] = Choice(
        kind="reroll",
        prompt=f"{seat_name(seat)} threw {shown}: keep {'them' if len(faces) > 1 else 'it'} or reroll.",
        options=[f"Keep {shown}", *options],
        data={
            "die": die,
            "faces": list(faces),
            "then": then,
            "args": dict(args or {}),
            "best": best,
            "luck_used": used,
            "picks": picks,
            "free": free,
            "free_values": list(free_values),
            "free_once": free_once,
        },
    )
    return True


def answer(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    """Keep the dice (option 0) or reroll the die named by the option, spending the
    Positive token or one of Luck's rerolls; then offer again or run the continuation.
    Rule: homm3turn:spending-positive-morale"""
    data = choice.data
    faces = [int(f) for f in data["faces"]]
    used = [int(i) for i in data.get("luck_used", [])]
    events: list[Event] = []
    free = data.get("free")
    if index > 0:
        which, source = data["picks"][index - 1]
        if source == "free":
            events.append(
                Event(
                    kind="ability",
                    text=f"{seat_name(seat)} rerolls a die with {free}.",
                    data={"seat": seat},
                )
            )
            if data.get("free_once"):
                free = None
        elif source == "token":
            state.player(seat).positive_token = False
            events.append(
                Event(
                    kind="morale",
                    text=f"{seat_name(seat)} spends the Positive Morale token to reroll a die.",
                    data={"seat": seat},
                )
            )
        else:
            used.append(int(which))
            events.append(
                Event(
                    kind="luck",
                    text=f"{seat_name(seat)} rerolls a die with Luck.",
                    data={"seat": seat},
                )
            )
        face, event = _roll(state, seat, str(data["die"]))
        faces[int(which)] = face
        events.append(event)
        if offer(
            state,
            seat,
            die=str(data["die"]),
            faces=faces,
            then=str(data["then"]),
            args=dict(data["args"]),
            best=data.get("best"),
            luck_used=used,
            free=free,
            free_values=tuple(int(v) for v in data.get("free_values", [])),
            free_once=bool(data.get("free_once")),
        ):
            return events
    return events + _THEN[str(data["then"])](state, seat, faces, dict(data["args"]))


TREASURE_FACES: tuple[str, ...] = (
    "experience",
    "experience",
    "artifact",
    "artifact",
    "resource",
    "resources2",
)
"""The Treasure die's six faces (face 1..6): half a Level (1 Experience) twice, Search(2)
the Artifact deck twice, one Resource die, two Resource dice keeping one."""


def treasure_label(face: int) -> str:
    """A readable Treasure die face.

    Rule: none (label)"""
    return {
        "experience": "half a Level (1 Experience)",
        "artifact": "Search(2) the Artifact deck",
        "resource": "a Resource die",
        "resources2": "2 Resource dice, keep one",
    }[TREASURE_FACES[face - 1]]
