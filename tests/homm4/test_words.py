"""Counts read like English in homm4 texts (homm4:game-process): one card, two cards."""

from __future__ import annotations

import pytest

from engine.homm4.options import Homm4Options, PreDevelopedOption, StartingForcesOption
from engine.homm4.words import half_points, movement_points, noun_plural, plural


@pytest.mark.rule("homm4:game-process")
def test_singular_for_one_plural_otherwise() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(0, "card") == "0 cards"
    assert plural(2, "Army") == "2 Armies"
    assert plural(1, "Hero") == "1 Hero" and plural(3, "Hero") == "3 Heroes"
    assert plural(2, "other Artifact") == "2 other Artifacts"
    assert plural(4, "Terrain Map Section") == "4 Terrain Map Sections"
    assert noun_plural("Secondary Skill card") == "Secondary Skill cards"


@pytest.mark.rule("homm4:movement-phase.movement-points-and-terrain")
def test_movement_points_in_half_points() -> None:
    assert movement_points(2) == "1 Movement Point"
    assert movement_points(6) == "3 Movement Points"
    assert movement_points(5) == "2½ Movement Points"
    assert movement_points(1) == "½ Movement Points"
    assert movement_points(0) == "0 Movement Points"
    assert half_points(7) == "3½"


@pytest.mark.rule("homm4:game-variants")
def test_the_options_summary_counts_in_words() -> None:
    lines = Homm4Options(
        starting_forces=StartingForcesOption(units=(3, 2, 1, 0), heroes=1),
        pre_developed=PreDevelopedOption(primary=1, secondary=0, treasure=1, other=0),
        underground=1,
    ).summary()
    assert lines == [
        "Different Starting Forces (1 Hero, 3xL1, 2xL2, 1xL3)",
        "Pre-developed Heroes (1 Primary + 0 Secondary Skill card per Hero, Spells by magic "
        "level, 1 Treasure + 0 other Artifact per player)",
        "Underground (1 section)",
    ]
