"""A seat's Hand and Risk Stack picture: two separate bands of faces, each with its #id."""

from __future__ import annotations

import pytest

from engine.homm4.views import SeatView
from rendering.canvas import Drawing
from rendering.encode import MAX_BYTES, MAX_WIDTH
from rendering.homm4 import draw_hand, render_hand
from tests.rendering.helpers import PNG_SIGNATURE, decode, inside, missing_glyphs, overlap


def test_size_format_and_determinism(seat: SeatView) -> None:
    data = render_hand(seat)
    assert data.startswith(PNG_SIGNATURE)
    assert decode(data).width <= MAX_WIDTH
    assert len(data) < MAX_BYTES
    assert render_hand(seat) == data


@pytest.mark.rule("homm4:start-of-the-game")
def test_hand_and_risk_stack_are_drawn_apart(seat: SeatView, hand: Drawing) -> None:
    """The Hand (which pays) and the Risk Stack (which never pays) sit in separate bands."""
    assert hand.find("section", "Hand").text == f"Hand ({len(seat.hand)})"
    assert hand.find("section", "Risk Stack").text == f"Risk Stack ({len(seat.risk)})"
    in_hand = hand.of_kind("hand")
    in_risk = hand.of_kind("risk_stack")
    assert [m.instance for m in in_hand] == [ref.id for ref in seat.hand]
    assert [m.instance for m in in_risk] == [ref.id for ref in seat.risk]
    risk_top = hand.find("section", "Risk Stack").box[1]
    assert all(m.box[3] < risk_top for m in in_hand)
    assert all(m.box[1] > risk_top for m in in_risk)
    assert "pays for purchases" in " ".join(hand.texts())
    assert "play only, never payment" in " ".join(hand.texts())


def test_every_card_shows_its_short_id_and_name(seat: SeatView, hand: Drawing) -> None:
    ids = {m.key: m for m in hand.of_kind("card_id")}
    names = {m.instance: m for m in hand.of_kind("card_name")}
    for ref in seat.hand + seat.risk:
        face = hand.find("card", f"#{ref.id}")
        assert inside(ids[f"#{ref.id}"].box, face.box)
        assert inside(names[ref.id].box, face.box)
        assert face.card == ref.card


def test_faces_do_not_overlap_and_text_stays_on_its_card(hand: Drawing) -> None:
    faces = hand.of_kind("card")
    assert not any(overlap(a.box, b.box) for i, a in enumerate(faces) for b in faces[i + 1 :])
    for mark in hand.marks:
        if (
            mark.kind == "text"
            and mark.box[1] > 80
            and not mark.text.startswith("—")
            and mark.text != "empty"
        ):
            assert any(inside(mark.box, face.box) for face in faces), mark
    assert missing_glyphs(hand.texts()) == set()


def test_empty_hand_and_risk_stack(seat: SeatView) -> None:
    drawing = draw_hand(seat.model_copy(update={"hand": (), "risk": ()}))
    assert drawing.texts().count("empty") == 2
    assert drawing.of_kind("card") == []
    # an empty band is one short line, not the height of a row of faces
    assert drawing.image.height == 78 + (58 + 64) + 10 + (58 + 64)
    only_risk = draw_hand(seat.model_copy(update={"hand": ()}))
    assert only_risk.find("section", "Risk Stack").box[1] < 78 + 58 + 64 + 10 + 58
