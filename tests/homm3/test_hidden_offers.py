"""Offers that must not tell the table what a player holds face down (set-aside cards are
private, their number public): the choice after a won Adventure Combat is the same whether
a set-aside card is Necromancy or anything else, and the Necromancy Amplifier asks alike
whether or not the face-down Ability deck still holds a Necromancy card."""

from __future__ import annotations

import pytest

from engine.core.model import seat_name
from engine.homm3 import adventure, zones
from engine.homm3.state import ArmyUnit, Homm3State
from tests.homm3.helpers import RULES, apply, attack_dice, new, play_until


def _win_with_aside(aside: list[str]) -> tuple[Homm3State, int]:
    """A won Adventure Combat (a Crypt at level 1) by a player with these set-aside cards."""
    state = new(mode="adventure", heroes=("catherine", "tamika"))
    state = play_until(state, lambda s: RULES.pending(s)[0].kind == "adventure_turn")
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.army = (
        [ArmyUnit(unit="halberdiers"), ArmyUnit(unit="marksmen")]
        if player.faction == "castle"
        else [ArmyUnit(unit="skeletons"), ArmyUnit(unit="zombies")]
    )
    player.resources.gold = 40
    player.aside = [zones.new_instance(state, card) for card in aside]
    crypt = next(
        c for c in state.adventure_deck + state.adventure_discard if state.cards[c] == "crypt"
    )
    for zone in (state.adventure_deck, state.adventure_discard):
        if crypt in zone:
            zone.remove(crypt)
    player.adventure_hand = [crypt]
    player.resolved_this_round = False
    attack_dice(state, [1, 1])
    units = tuple(u.unit for u in player.army)
    state, events = apply(state, seat, {"type": "fight", "card": crypt, "level": 1, "units": units})
    assert next(e for e in events if e.kind == "adventure_result").data["won"]
    return state, seat


def _public(state: Homm3State) -> list[tuple[int, str, str]]:
    return [(d.seat, d.kind, d.prompt) for d in RULES.pending(state)]


@pytest.mark.rule("homm3bf:adventure-mode")
def test_the_offer_after_a_win_does_not_tell_which_card_is_set_aside() -> None:
    with_necromancy, seat = _win_with_aside(["necromancy"])
    with_estates, _ = _win_with_aside(["estates"])
    owed = _public(with_necromancy)
    assert owed == _public(with_estates)
    assert (
        seat,
        "choose_necromancy",
        f"{'Red' if seat == 0 else 'Blue'} may use a set-aside card after the win.",
    ) in owed
    # Nothing set aside: nothing to offer (the number of set-aside cards is public).
    nothing, _ = _win_with_aside([])
    assert all(kind != "choose_necromancy" for _, kind, _ in _public(nothing))
    # The offer itself works as before: Necromancy reinforces for half the Gold.
    necro_options = with_necromancy.choice[seat].options
    assert (
        necro_options[0].startswith("Necromancy #") and necro_options[-1] == "Use no set-aside card"
    )
    assert with_estates.choice[seat].options == ["Use no set-aside card"]
    gold = with_necromancy.player(seat).resources.gold
    after, _ = apply(with_necromancy, seat, {"type": "choose", "option": 0})
    player = after.player(seat)
    assert not player.aside and any(u.pack for u in player.army)
    assert player.resources.gold < gold
    after, _ = apply(with_estates, seat, {"type": "choose", "option": 0})
    assert len(after.player(seat).aside) == 1


@pytest.mark.rule("homm3bf:adventure-mode")
def test_the_amplifier_asks_whether_or_not_a_necromancy_card_is_left() -> None:
    """The Necromancy Amplifier's offer does not tell the table whether the face-down
    Ability deck still holds a Necromancy card, nor does the answer."""
    texts: dict[str, list[str]] = {}
    for left in (True, False):
        state = new(mode="adventure", heroes=("tamika", "catherine"))
        state = play_until(state, lambda s: RULES.pending(s)[0].kind == "adventure_turn")
        seat = RULES.pending(state)[0].seat
        state.player(seat).buildings.append("amplifier")
        necro = [c for c in state.ability_deck if state.cards[c] == "necromancy"]
        if not left:
            state.ability_deck[:] = [c for c in state.ability_deck if c not in necro]
            state.ability_discard.extend(necro)  # anywhere but the deck
        state.choice.clear()
        adventure._turn_start(state, seat)
        owed = _public(state)
        assert owed == [
            (
                seat,
                "choose_amplifier",
                f"{seat_name(seat)}'s Necromancy Amplifier may fetch a Necromancy card.",
            )
        ]
        taken, events = apply(state, seat, {"type": "choose", "option": 0})
        texts[f"take {left}"] = [e.text for e in events]
        _, events = apply(state, seat, {"type": "choose", "option": 1})
        texts[f"decline {left}"] = [e.text for e in events]
        if left:
            assert len(taken.player(seat).aside) == len(state.player(seat).aside) + 1
    assert texts["take False"] == texts["decline False"] == texts["decline True"]
    assert texts["take True"] != texts["take False"]  # a card taken is seen to be taken
