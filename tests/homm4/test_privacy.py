"""Hidden cards stay hidden: no public text, public data, pending decision or refusal
reveals what lies in a Hand, a Risk Stack or a draw deck (house rule 5;
homm4:start-of-the-game: the Hand and the Risk Stack are held face down)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import adventure, zones
from engine.homm4.state import Homm4State
from tests.homm4.adventure_helpers import (
    R,
    apply,
    army_of,
    clear_hand,
    give_town,
    started,
    to_hand,
)


def _in_town(seed: int = 11) -> tuple[Homm4State, int]:
    """Seat 0 in its Purchase Phase, its first Army (with its Hero) in its own Town."""
    state = started(seed=seed, decks=[{"deck": "deck_asylum"}, {"deck": "deck_haven"}])
    clear_hand(state, 0)
    clear_hand(state, 1)
    site = give_town(state, 0, 0)
    army = army_of(state, 0)
    army.hex = site.hex
    state.phase = "purchase"
    state.active = 0
    hero = next(c for c in army.cards if zones.is_hero(state, c))
    return state, hero


@pytest.mark.rule("homm4:start-of-the-game")
@pytest.mark.parametrize(
    ("kind", "card"),
    [
        ("buy_artifact", "ring_of_fire"),
        ("buy_skill", "tactics_basic"),
        ("learn_spell", "magic_arrow"),
    ],
)
def test_naming_an_opponents_hidden_card_as_the_hero_reveals_nothing(kind: str, card: str) -> None:
    state, _ = _in_town()
    secret = to_hand(state, 1, "black_dragon")
    own = to_hand(state, 0, card)
    with pytest.raises(IllegalMove) as refused:
        apply(state, 0, {"type": kind, "card": own, "hero": secret})
    message = str(refused.value)
    assert "Black Dragon" not in message and "Dragon" not in message
    assert f"#{secret}" in message


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_a_skill_award_looks_the_same_whether_or_not_a_skill_card_is_held() -> None:
    """Whether the winner holds a Skill card its Hero could learn is hidden information:
    the award is offered either way (the seat may skip it), so the public log and the
    pending decision do not tell the table what is in the Hand."""
    seen = []
    for holds_skill in (False, True):
        state, hero = _in_town()
        to_hand(state, 0, "tactics_basic" if holds_skill else "black_dragon")
        events = adventure.award_skills(state, 0, [hero])
        public = [(e.kind, e.text, e.data) for e in events]
        decision = R.pending(state)[0]
        seen.append((public, decision.kind, decision.prompt, decision.seat))
    assert seen[0] == seen[1]
    assert seen[0][1] == "learn_skill"


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_no_award_is_offered_when_nothing_at_all_could_be_played() -> None:
    """With an empty Hand and Risk Stack (public: their sizes are shown) and no own card to
    turn over, the Hero simply skips the chance; nothing is asked."""
    state, hero = _in_town()
    assert adventure.award_skills(state, 0, [hero]) == []
    assert R.pending(state)[0].kind == "purchase"


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_skipping_an_award_without_a_learnable_card_is_the_only_choice() -> None:
    state, hero = _in_town()
    to_hand(state, 0, "black_dragon")
    adventure.award_skills(state, 0, [hero])
    options = R.legal_commands(state, 0)
    assert [(c.type, getattr(c, "card", "x")) for c in options] == [("learn_skill", None)]
    state, events = apply(state, 0, options[0])
    assert events[0].kind == "learn_skill_skipped"
    assert R.pending(state)[0].kind == "purchase"
