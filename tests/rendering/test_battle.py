"""The battlefield picture: lines, tiles, walls, round and phase, the last attack."""

from __future__ import annotations

import pytest

from engine.homm4.views import AttackView, BattleView, PublicView
from rendering.canvas import Drawing
from rendering.encode import MAX_BYTES, MAX_WIDTH
from rendering.homm4 import draw_battle, render_battle
from rendering.homm4.battle import WALL_RGB
from rendering.homm4.palette import PAGE, seat_rgb
from tests.rendering.helpers import PNG_SIGNATURE, decode, missing_glyphs, overlap, share_of_colour


def _with(public: PublicView, **changes: object) -> PublicView:
    assert public.battle is not None
    return public.model_copy(update={"battle": public.battle.model_copy(update=changes)})


def test_size_format_and_determinism(public: PublicView) -> None:
    data = render_battle(public)
    assert data.startswith(PNG_SIGNATURE)
    assert decode(data).width <= MAX_WIDTH
    assert len(data) < MAX_BYTES
    assert render_battle(public) == data


def test_refused_without_a_battle(public: PublicView) -> None:
    with pytest.raises(ValueError, match="no battle"):
        draw_battle(public.model_copy(update={"battle": None}))


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_each_creature_stack_is_a_tile_on_its_sides_line(
    public: PublicView, battle: Drawing
) -> None:
    assert public.battle is not None
    columns = {m.key: m for m in battle.of_kind("column")}
    assert set(columns) == {"0:melee", "0:ranged", "1:melee", "1:ranged"}
    order = [columns[k].centre[0] for k in ("0:ranged", "0:melee", "1:melee", "1:ranged")]
    assert order == sorted(order), (
        "Attacker Ranged, Attacker Melee, Defender Melee, Defender Ranged"
    )
    tiles = battle.of_kind("creature")
    assert len(tiles) == len(public.battle.creatures)
    for creature in public.battle.creatures:
        tile = battle.find("creature", str(creature.id))
        column = columns[f"{creature.side}:{creature.line}"]
        assert column.box[0] - 12 <= tile.centre[0] <= column.box[2] + 12
        assert battle.find("creature_number", str(creature.id)).text == str(creature.id)
        if not creature.hero:
            assert battle.find("count", str(creature.id)).text == f"×{len(creature.cards)}"
        stats = {m.key: m.text for m in battle.of_kind("stat")}
        assert stats[f"{creature.id}:Melee"] == str(creature.melee)
        assert stats[f"{creature.id}:Ranged"] == str(creature.ranged)
        assert stats[f"{creature.id}:Defense"] == str(creature.defense)
        assert (
            share_of_colour(
                battle,
                (tile.box[0], tile.box[1] + 10, tile.box[0] + 8, tile.box[3] - 10),
                seat_rgb(public.battle.attacker if creature.side == 0 else public.battle.defender),
            )
            > 0.5
        )
    boxes = [t.box for t in tiles]
    assert not any(overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_stack_bonus_shows_as_a_change_from_the_printed_card(battle: Drawing) -> None:
    """Three Golden Golems attack with 3+2+2 = 7: the tile shows 7 and +4 over the card's 3."""
    deltas = {m.key: m.text for m in battle.of_kind("stat_delta")}
    assert deltas["7:Melee"] == "+4"
    assert "7:Defense" not in deltas


@pytest.mark.rule("homm4:battles.grouping")
def test_markers(battle: Drawing) -> None:
    markers = {m.key for m in battle.of_kind("marker")}
    assert {
        "1:Countered",
        "1:Acted",
        "2:Grouping ×2",
        "3:Defending",
        "3:Acted",
        "4:Support +3",
        "6:Acted",
    } <= markers
    assert "5:Hero L2 · Mana 16" in markers
    assert not any(key.startswith("7:") for key in markers)


@pytest.mark.rule("homm4:battles.phases-and-rounds")
def test_round_phase_and_whose_decision(public: PublicView, battle: Drawing) -> None:
    assert battle.find("title", "battle").text == "Battle at I8 · Round 2 · Phase 5"
    assert battle.find("phase_box", "5").text == "5"
    assert battle.find("stage", "fight").text == "Waiting: Red to act in Phase 5"
    lit = {m.key for m in battle.of_kind("creature_phase")}
    assert "5" in lit


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_last_attack_with_die_and_result(battle: Drawing) -> None:
    assert battle.find("die", "7").text == "7"
    assert (
        battle.find("last_attack", "who").text
        == "Melee attack: Orc [1] (Red) on Golden Golem [7] (Blue)"
    )
    assert battle.find("last_attack", "roll").text == "4 + die 7 = 11 vs Defense 7: 1 card killed"


def test_last_attack_on_the_walls_and_a_miss(public: PublicView) -> None:
    hit = AttackView(
        attacker=2,
        targets=(),
        mode="melee",
        attack_value=6,
        roll=5,
        total=11,
        defense=10,
        killed=0,
        walls=True,
    )
    drawing = draw_battle(_with(public, last_attack=hit, walls="sack"))
    assert drawing.find("last_attack", "who").text.endswith("on the Town walls")
    assert (
        drawing.find("last_attack", "roll").text == "6 + die 5 = 11 vs Defense 10: walls now: Sack"
    )
    miss = AttackView(
        attacker=9,
        targets=(4,),
        mode="ranged",
        attack_value=2,
        roll=1,
        total=3,
        defense=4,
        killed=0,
        walls=False,
    )
    drawing = draw_battle(_with(public, last_attack=miss))
    assert (
        drawing.find("last_attack", "who").text
        == "Ranged attack: Creature 9 (now destroyed) on Medusa [4] (Red)"
    )
    assert drawing.find("last_attack", "roll").text.endswith("vs Defense 4: no damage")
    quiet = draw_battle(_with(public, last_attack=None))
    assert quiet.find("last_attack", "none").text == "No attack yet this battle."


@pytest.mark.rule("homm4:battles")
@pytest.mark.parametrize("state", ["intact", "breach", "sack"])
def test_town_walls_show_their_state(public: PublicView, state: str) -> None:
    """Battles in Towns: the wall strip and the Town card show intact, Breach or Sack."""
    drawing = draw_battle(_with(public, walls=state))
    walls = drawing.find("walls", state)
    assert walls.text == state.title()
    assert drawing.find("walls_state", state).text == state.title()
    x0, y0, x1, y1 = walls.box
    height = y1 - y0

    def band(rel: float) -> tuple[int, int, int, int]:
        y = y0 + int(height * rel)
        return (x0 + 8, y, x1 - 8, y + 4)

    assert share_of_colour(drawing, band(0.02), WALL_RGB[state]) > 0.5
    gaps = {"intact": [], "breach": [0.49], "sack": [0.27, 0.68]}[state]
    for rel in gaps:
        assert share_of_colour(drawing, band(rel), PAGE) > 0.9
    for rel in {"intact": [0.27, 0.49, 0.68], "breach": [0.27, 0.68], "sack": [0.49]}[state]:
        assert share_of_colour(drawing, band(rel), WALL_RGB[state], tolerance=90) > 0.5
    town = drawing.find("town_card", "walls")
    assert town.text == "Academy walls"
    golems = drawing.find("creature", "7").box  # the defender's Melee Line creature
    assert golems[0] <= town.box[0] and town.box[2] <= golems[2]
    assert town.box[3] <= golems[1], "the Town card stands first on the defender's Melee Line"


def test_open_field_battle_has_no_walls(public: PublicView) -> None:
    drawing = draw_battle(_with(public, walls="none", defender_kind="army", town=None))
    assert drawing.of_kind("walls") == []
    assert drawing.of_kind("town_card") == []
    assert any(t == "Blue defends" for t in drawing.texts())


@pytest.mark.rule("homm4:chipping-in-for-the-guard")
def test_guard_side_is_grey_and_named_as_the_guard(public: PublicView) -> None:
    drawing = draw_battle(_with(public, walls="none", defender_kind="guard", town=None))
    assert drawing.find("column", "1:melee").text == "Guard · Melee Line"
    assert "Guard (played by Blue) defends" in drawing.texts()


def test_deploying_sides_say_so(public: PublicView) -> None:
    drawing = draw_battle(
        _with(
            public,
            stage="deploy",
            creatures=(),
            last_attack=None,
            walls="none",
            defender_kind="army",
            town=None,
        )
    )
    assert drawing.texts().count("not deployed yet") == 4
    assert drawing.find("stage", "deploy").text == "Waiting: Red to deploy their Creature Stacks"


def test_only_cards_on_the_battlefield_are_drawn(public: PublicView, battle: Drawing) -> None:
    assert isinstance(public.battle, BattleView)
    on_field = {ref.id for c in public.battle.creatures for ref in c.cards}
    town = {public.battle.town.id} if public.battle.town else set()
    assert battle.instances() <= on_field | town
    assert missing_glyphs(battle.texts()) == set()
