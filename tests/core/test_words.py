"""engine.core.words: counted words for every ruleset's texts."""

from __future__ import annotations

from engine.core.words import noun_plural, plural
from engine.homm4 import words as homm4_words


def test_counted_words_read_right_at_one_and_above() -> None:
    assert plural(1, "hit") == "1 hit"
    assert plural(0, "hit") == "0 hits"
    assert plural(2, "land plate") == "2 land plates"
    assert plural(1, "Expert use") == "1 Expert use"
    assert plural(3, "quarter turn") == "3 quarter turns"
    assert noun_plural("luck marker") == "luck markers"


def test_homm4_uses_the_shared_plural_not_a_copy() -> None:
    assert homm4_words.plural is plural and homm4_words.noun_plural is noun_plural
