"""homm4's pictures in the registry (`rendering.pictures`): the Game Board, the
battlefield, each with its focus picture (posted first: the hexes around the acting Army,
the Melee Lines; `rendering.homm4.focus`), a seat's Hand and Risk Stack (DM only) and a
card face."""

from __future__ import annotations

from collections.abc import Callable

from engine.homm4.views import PublicView, SeatView
from rendering.focus import focus_kind
from rendering.homm4 import focus
from rendering.homm4.api import draw_battle, draw_board, draw_card, draw_hand, public_only
from rendering.pictures import (
    CardFace,
    PictureKind,
    register,
    register_idle_warm_up,
    register_warm_up,
)


def _warm_up() -> None:
    """Load the card pool and the fonts (one card face drawn) before the first picture."""
    from engine.homm4.cards import load_card_pool

    draw_card(next(iter(load_card_pool().cards)))


FACES_PER_STEP = 4
"""Card faces an idle warm-up step draws (a few tens of ms: a picture waits for it)."""


def _hand_faces() -> list[Callable[[], None]]:
    """Idle warm-up steps: every card face of the pool as a Hand draws it (its width, an
    instance number), `FACES_PER_STEP` a step, so that a Hand of cards the drawing process
    has not drawn yet finds their text sprites ready."""
    from engine.homm4.cards import load_card_pool
    from rendering.canvas import Canvas
    from rendering.homm4.cardface import card_height, draw_card_face
    from rendering.homm4.hand import CARD_W
    from rendering.homm4.palette import PAGE

    pool = load_card_pool()
    cards = list(pool.cards.values())

    def step(first: int) -> Callable[[], None]:
        def run() -> None:
            canvas = Canvas(CARD_W, card_height(CARD_W), PAGE)
            for number, card in enumerate(cards[first : first + FACES_PER_STEP], first + 1):
                draw_card_face(canvas, 0, 0, CARD_W, card, pool, number)

        return run

    return [step(first) for first in range(0, len(cards), FACES_PER_STEP)]


BOARD = PictureKind(
    "homm4", "board", PublicView, draw_board, "board.png", "The Game Board", public_part=public_only
)
BATTLE = PictureKind(
    "homm4",
    "battle",
    PublicView,
    draw_battle,
    "battle.png",
    "The battlefield",
    public_part=public_only,
    drawn=frozenset({"battle", "armies", "result"}),
)

register(
    BOARD,
    focus_kind(BOARD, focus.BOARD, "The Game Board around the acting Army"),
    BATTLE,
    focus_kind(BATTLE, focus.BATTLE, "The battle's Melee Lines"),
    PictureKind(
        "homm4",
        "hand",
        SeatView,
        draw_hand,
        "hand.png",
        "Your Hand and Risk Stack",
        private=True,
        drawn=frozenset({"seat", "hand", "risk", "round"}),
    ),
    PictureKind(
        "homm4",
        "card",
        CardFace,
        lambda face: draw_card(face.card, face.instance),
        "card.png",
        "A card",
    ),
)
register_warm_up("homm4", _warm_up)
register_idle_warm_up("homm4", _hand_faces)
