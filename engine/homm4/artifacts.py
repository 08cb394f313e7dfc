"""Artifacts on Heroes: the slots an Artifact fits, a captured Artifact placed on a Hero of
the capturing Army, and making room for it (homm4:heroes-levels-skills-and-spells.
heroes-and-artifacts, homm4:movement-phase.objects).

A step module: the turn's flow (`adventure`), buying (`purchase`), looting a fallen Hero
(`fallen`), trading between Heroes (`movement`) and the variants use it; it imports none
of them.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import heroes, zones
from engine.homm4.cards import ArtifactCard
from engine.homm4.state import Army, ArtifactRoom, Homm4State


def fitting_slots(
    state: Homm4State, hero: int, artifact: int, ignore: int | None = None
) -> list[str] | None:
    """Return the first slot alternative of ``artifact`` free on ``hero`` (ignoring the
    artifact ``ignore``), or None when no alternative fits
    (homm4:heroes-levels-skills-and-spells.heroes-and-artifacts)."""
    found = zones.card_as(state, artifact, ArtifactCard)
    if found is None:
        return None
    inv = state.inventories.get(hero)
    taken: set[str] = set()
    if inv is not None:
        for other, slots in inv.artifacts.items():
            if other != ignore:
                taken.update(slots)
    for alternative in found.slots:
        if not any(str(s) in taken for s in alternative):
            return [str(s) for s in alternative]
    return None


def give_artifact(state: Homm4State, seat: int, army: Army, artifact: int) -> list[Event]:
    """Place a captured Artifact under a Hero of ``army``: the first Hero with a free
    fitting slot; when none has one, the top Hero must discard an Artifact to make room
    (an `ArtifactRoom` decision; the captured card waits in the open meanwhile).
    Rule: homm4:movement-phase.objects.
    """
    hero_list = army_rules.army_heroes(state, army)
    for hero in hero_list:
        slots = fitting_slots(state, hero, artifact)
        if slots is not None:
            heroes.ensure_inventory(state, hero).artifacts[artifact] = slots
            return [
                Event(
                    kind="artifact_taken",
                    text=f"{zones.name(state, hero)} takes the Artifact {zones.name(state, artifact)}.",
                    data={"seat": seat, "hero": hero, "artifact": artifact, "slots": slots},
                )
            ]
    hero = hero_list[0]
    state.limbo.append(artifact)
    state.interrupts.insert(0, ArtifactRoom(seat=seat, hero=hero, artifact=artifact))
    return [
        Event(
            kind="artifact_room",
            text=f"{zones.name(state, hero)} has no free slot for {zones.name(state, artifact)}: "
            f"{seat_name(seat)} chooses an Artifact to discard.",
            data={"seat": seat, "hero": hero, "artifact": artifact},
        )
    ]


def make_artifact_room(state: Homm4State, seat: int, discard: int) -> list[Event]:
    """Resolve an `ArtifactRoom`: discard ``discard`` (one of the Hero's Artifacts, or the
    captured Artifact itself to leave it) and equip the captured one.

    :raises IllegalMove: if ``discard`` is neither, or discarding it frees no fitting slot.
    Rule: homm4:heroes-levels-skills-and-spells.heroes-and-artifacts.
    """
    room = state.interrupts[0]
    assert isinstance(room, ArtifactRoom)
    inv = heroes.ensure_inventory(state, room.hero)
    if discard == room.artifact:
        state.interrupts.pop(0)
        state.limbo.remove(room.artifact)
        zones.to_discard(state, room.artifact)
        return [
            Event(
                kind="artifact_discarded",
                text=f"{seat_name(seat)} leaves {zones.name(state, discard)} and discards it.",
                data={"seat": seat, "artifact": discard},
            )
        ]
    if discard not in inv.artifacts:
        raise IllegalMove(
            f"Card #{discard} is not an Artifact of {zones.name(state, room.hero)}. Discard one of "
            f"its Artifacts or #{room.artifact} itself."
        )
    slots = fitting_slots(state, room.hero, room.artifact, ignore=discard)
    if slots is None:
        raise IllegalMove(
            f"Discarding #{discard} would not free a slot for {zones.name(state, room.artifact)}; "
            "choose an Artifact that occupies one of its slots."
        )
    state.interrupts.pop(0)
    del inv.artifacts[discard]
    zones.to_discard(state, discard)
    state.limbo.remove(room.artifact)
    inv.artifacts[room.artifact] = slots
    return [
        Event(
            kind="artifact_swapped",
            text=f"{zones.name(state, room.hero)} discards {zones.name(state, discard)} and takes "
            f"{zones.name(state, room.artifact)}.",
            data={"seat": seat, "hero": room.hero, "discarded": discard, "artifact": room.artifact},
        )
    ]
