"""Card faces generated from the card data (`/card` and the hand)."""

from __future__ import annotations

import pytest

from engine.homm4.cards import HeroCard, SpellCard, UnitCard, load_card_pool
from rendering.canvas import Drawing
from rendering.encode import MAX_BYTES, ImageFormat
from rendering.homm4 import draw_card, render_card
from rendering.homm4.api import CARD_WIDTH
from rendering.homm4.cardface import card_height
from rendering.homm4.cardtext import ability_keywords, rules_text, type_line
from tests.rendering.helpers import PNG_SIGNATURE, decode, inside, missing_glyphs

POOL = load_card_pool()


def _all_faces() -> list[tuple[str, Drawing]]:
    return [(card_id, draw_card(card_id, 7)) for card_id in POOL.cards]


@pytest.fixture(scope="module")
def faces() -> list[tuple[str, Drawing]]:
    """Every card of the pool drawn once."""
    return _all_faces()


def test_size_and_formats() -> None:
    data = render_card("orc", 17)
    image = decode(data)
    assert data.startswith(PNG_SIGNATURE)
    assert image.size == (CARD_WIDTH + 24, card_height(CARD_WIDTH) + 24)
    assert len(data) < MAX_BYTES
    webp = render_card("orc", 17, ImageFormat.WEBP)
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    assert render_card("orc", 17) == data


def test_unknown_card_is_refused() -> None:
    with pytest.raises(KeyError, match="no card 'nonesuch'"):
        render_card("nonesuch")


@pytest.mark.rule("homm4:card-types.unit-cards")
def test_unit_face_shows_name_cost_stats_and_abilities() -> None:
    hydra = POOL.get("hydra")
    assert isinstance(hydra, UnitCard)
    face = draw_card("hydra", 31)
    assert face.find("card_name", "hydra").text == "Hydra"
    assert face.find("cost", "31").text == str(hydra.cost)
    stats = {m.key: m.text for m in face.of_kind("stat")}
    assert stats == {
        "Melee": str(hydra.melee),
        "Ranged": str(hydra.ranged),
        "Defense": str(hydra.defense),
        "Move": str(hydra.movement),
        "Phase": str(hydra.phase),
    }
    assert face.find("card_id", "#31").text == "#31"
    keywords = " ".join(m.text for m in face.of_kind("keywords"))
    assert "Hits 3 stacks" in keywords and "Needs Alchemist's Lab" in keywords
    assert ability_keywords(hydra, POOL) == ["Hits 3 stacks", "Needs Alchemist's Lab"]
    assert type_line(hydra) == "Unit · Level 4 · Chaos"


@pytest.mark.rule("homm4:card-types.unit-cards")
def test_x_cost_is_shown_as_x() -> None:
    peasant = POOL.get("peasant")
    assert isinstance(peasant, UnitCard) and peasant.cost is None
    assert draw_card("peasant").find("cost", "peasant").text == "X"


@pytest.mark.rule("homm4:card-types.spell-cards")
def test_spell_face_shows_its_mana() -> None:
    spell = next(c for c in POOL.cards.values() if isinstance(c, SpellCard))
    assert draw_card(spell.id).find("mana", spell.id).text == str(spell.mana)


@pytest.mark.slow
def test_every_card_draws_with_its_words_on_the_face(faces: list[tuple[str, Drawing]]) -> None:
    for card_id, face in faces:
        card = POOL.get(card_id)
        box = face.find("card", "#7").box
        assert all(inside(m.box, box) for m in face.marks if m.kind != "card"), card_id
        body = " ".join(m.text for m in face.of_kind("text"))
        first_words = " ".join(rules_text(card, POOL)[0].split()[:3])
        assert body.startswith(first_words) or first_words in body, card_id
        if isinstance(card, UnitCard | HeroCard):
            assert len(face.of_kind("stat")) == 5
    assert missing_glyphs([t for _, f in faces for t in f.texts()]) == set()


def test_text_that_cannot_fit_is_cut_not_spilled() -> None:
    pool = POOL.model_copy(deep=True)
    long = POOL.get("orc").model_copy(update={"text": "A very long rule text. " * 60})
    pool.cards["orc"] = long
    face = draw_card("orc", 1, pool=pool)
    box = face.find("card", "#1").box
    assert all(inside(m.box, box) for m in face.marks if m.kind != "card")
