"""Die rolls: every random thing in Hero Forge comes from `state.rng` and is logged.

Rule sections: heroforge:what-you-will-need-to-play-hero-forge (6 and 10 sided dice; "the
game revolves around a D10 system").
"""

from __future__ import annotations

from engine.core.model import Event, seat_name
from engine.heroforge.state import HeroforgeState


def roll(
    state: HeroforgeState, sides: int, purpose: str, seat: int | None = None
) -> tuple[int, Event]:
    """Roll one die with ``sides`` faces from ``state.rng``.

    :returns: the face and its ``die_roll`` event (data: ``sides``, ``result``,
        ``purpose``, and ``seat`` when a seat rolled).

    Rule: heroforge:what-you-will-need-to-play-hero-forge.
    """
    result = state.rng.die(sides)
    who = f"{seat_name(seat)} rolls" if seat is not None else "Rolled"
    data: dict[str, object] = {"sides": sides, "result": result, "purpose": purpose}
    if seat is not None:
        data["seat"] = seat
    return result, Event(kind="die_roll", text=f"{who} D{sides}: {result} ({purpose}).", data=data)
