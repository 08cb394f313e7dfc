"""The Adventure Phase: rounds, Adventure cards, Astrologers, income and Town actions."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, NotYourDecision, WrongPhase
from engine.homm3.content import load_content
from engine.homm3.effects import BASIC_INCOME
from engine.homm3.rules import expert_limit, hand_limit
from engine.homm3.state import ArmyUnit
from tests.homm3.helpers import RULES, apply, attack_dice, new, play_until


def _at_turn(**options):  # type: ignore[no-untyped-def]
    state = new(mode="adventure", heroes=("catherine", "mutare"), **options)
    return play_until(state, lambda s: RULES.pending(s)[0].kind == "adventure_turn")


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_starter_draws_three_keeps_one_and_passes_two() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    starter = state.first
    choice = state.choice[starter]
    assert choice.kind == "adventure_keep" and len(choice.options) == 3 and choice.private
    drawn = list(choice.data["cards"])
    state, events = apply(state, starter, {"type": "choose", "option": 2})
    other = 1 - starter
    assert (
        state.choice[other].kind == "adventure_keep2"
        and state.choice[other].data["cards"] == drawn[:2]
    )
    passed = next(e for e in events if e.kind == "adventure_pass")
    assert set(passed.private) == {starter, other}
    state, events = apply(state, other, {"type": "choose", "option": 0})
    assert state.player(starter).adventure_hand == [drawn[2]]
    assert state.player(other).adventure_hand == [drawn[0]]
    assert state.adventure_discard[0] == drawn[1]


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_odd_rounds_start_with_the_first_player_even_with_the_second() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    first = state.first
    assert state.adventure is not None and state.adventure.starter == first
    state = play_until(state, lambda s: s.round == 2)
    assert state.adventure is not None and state.adventure.starter == 1 - first


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_only_one_card_may_be_saved_and_one_resolved_per_round() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    extra = state.adventure_deck.pop(0)
    player.adventure_hand.append(extra)
    player.resolved_this_round = True
    with pytest.raises(IllegalMove, match="one per round"):
        apply(state, seat, {"type": "resolve", "card": extra})
    state, _ = apply(state, seat, {"type": "end_turn"})
    assert len(state.player(seat).adventure_hand) == 1


@pytest.mark.rule("homm3bf:adventure-mode.astrologers-rounds")
def test_astrologers_round_raises_an_income_tier() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    state = play_until(state, lambda s: any(c.kind == "astrologers" for c in s.choice.values()))
    seat = min(state.choice)
    before = state.player(seat).income.materials
    state, _ = apply(state, seat, {"type": "choose", "option": 1})
    assert state.player(seat).income.materials == before + BASIC_INCOME["materials"] == before + 2
    other = 1 - seat
    gold = state.player(other).resources.model_copy()
    state, events = apply(state, other, {"type": "choose", "option": 3})
    roll = next(e for e in events if e.kind == "die_roll")
    assert roll.data["purpose"] == "astrologers"
    gained = state.player(other).resources
    assert (
        gained.gold - gold.gold,
        gained.materials - gold.materials,
        gained.valuables - gold.valuables,
    ) in [(5, 0, 0), (0, 2, 0), (0, 0, 1)]


@pytest.mark.rule("homm3bf:adventure-mode.resolving-adventure-cards.combat-during-adventure")
def test_adventure_combat_power_and_stun() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.army = (
        [ArmyUnit(unit="halberdiers"), ArmyUnit(unit="marksmen")]
        if player.faction == "castle"
        else [ArmyUnit(unit="troglodytes"), ArmyUnit(unit="harpies")]
    )
    crypt = next(
        c for c in state.adventure_deck + state.adventure_discard if state.cards[c] == "crypt"
    )
    for zone in (state.adventure_deck, state.adventure_discard):
        if crypt in zone:
            zone.remove(crypt)
    player.adventure_hand = [crypt]
    player.resolved_this_round = False
    units = tuple(u.unit for u in player.army)
    attack_dice(state, [-1, -1])
    state, events = apply(state, seat, {"type": "fight", "card": crypt, "level": 3, "units": units})
    result = next(e for e in events if e.kind == "adventure_result")
    assert (
        result.data["power"] == 2 + 2 - 2 and result.data["needed"] == 7 and not result.data["won"]
    )
    state, _ = apply(state, seat, {"type": "choose", "option": 0})
    stunned = [u for u in state.player(seat).army if u.paralysed]
    assert len(stunned) == 1
    assert state.player(seat).experience == 1  # the Basic Reward


@pytest.mark.rule("homm3bf:adventure-mode.resolving-adventure-cards.combat-during-adventure")
def test_no_adventure_combat_without_a_unit_to_fight_with() -> None:
    # "Select 2 of your units": with none (the Adventure starts without units) there is no
    # Combat, neither offered nor accepted; the card stays in hand and may be saved.
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.army = []
    crypt = next(
        c for c in state.adventure_deck + state.adventure_discard if state.cards[c] == "crypt"
    )
    for zone in (state.adventure_deck, state.adventure_discard):
        if crypt in zone:
            zone.remove(crypt)
    player.adventure_hand = [crypt]
    player.resolved_this_round = False
    assert [x.type for x in RULES.legal_commands(state, seat) if x.type == "fight"] == []
    before = state.model_dump_json()
    with pytest.raises(IllegalMove) as refusal:
        apply(state, seat, {"type": "fight", "card": crypt, "level": 1, "units": []})
    assert str(refusal.value) == (
        "You have no units to fight Crypt with: muster some first, "
        "or keep the card for a later round."
    )
    assert state.model_dump_json() == before
    # with one unit, that unit fights alone (at each of the 3 levels)
    one = state.model_copy(deep=True)
    unit = "halberdiers" if player.faction == "castle" else "troglodytes"
    one.player(seat).army = [ArmyUnit(unit=unit)]
    offered = [x.model_dump() for x in RULES.legal_commands(one, seat) if x.type == "fight"]
    assert offered == [
        {"type": "fight", "card": crypt, "level": level, "units": (unit,)} for level in (1, 2, 3)
    ]
    state, _ = apply(state, seat, {"type": "end_turn"})
    assert state.player(seat).adventure_hand == [crypt] and state.player(seat).experience == 0


@pytest.mark.rule("homm3turn:spending-the-token")
def test_each_town_action_once_per_round() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.resources.gold, player.resources.materials, player.resources.valuables = 50, 20, 10
    state, _ = apply(state, seat, {"type": "build", "building": "dwelling_bronze"})
    with pytest.raises(IllegalMove, match="Build Token is spent"):
        apply(state, seat, {"type": "build", "building": "citadel"})
    units = [
        u.id
        for u in __import__("engine.homm3.content", fromlist=["x"])
        .load_content()
        .faction_units(player.faction)
    ][:3]
    state, _ = apply(state, seat, {"type": "muster", "recruit": units})
    assert len(state.player(seat).army) == 3  # any number with one Population Token
    with pytest.raises(IllegalMove, match="Population Token is spent"):
        apply(state, seat, {"type": "muster", "reinforce": [units[0]]})


@pytest.mark.rule("homm3turn:build-token")
def test_dwellings_are_built_in_order() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.resources.gold, player.resources.materials, player.resources.valuables = 50, 20, 10
    with pytest.raises(IllegalMove, match="first the Bronze"):
        apply(state, seat, {"type": "build", "building": "dwelling_silver"})


@pytest.mark.rule("homm3turn:example-player-turn")
def test_example_turn_build_the_gold_dwelling_then_recruit_champions() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    state = play_until(
        state,
        lambda s: RULES.pending(s)[0].kind == "adventure_turn" and RULES.pending(s)[0].seat == 0,
    )
    alice = state.player(0)
    alice.buildings = ["dwelling_bronze", "dwelling_silver"]
    alice.tokens.build = alice.tokens.population = True
    alice.resources.gold, alice.resources.materials, alice.resources.valuables = 22, 9, 4
    state, _ = apply(state, 0, {"type": "build", "building": "dwelling_gold"})
    state, _events = apply(state, 0, {"type": "muster", "recruit": ["champions"]})
    alice = state.player(0)
    assert [u.unit for u in alice.army][-1] == "champions"
    assert not alice.tokens.build and not alice.tokens.population
    assert alice.resources.gold == 22 - 10 - 12


@pytest.mark.rule("homm3turn:population-token")
def test_reinforcing_needs_a_citadel() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.resources.gold = 50
    player.buildings = ["dwelling_bronze"]
    unit = "halberdiers" if player.faction == "castle" else "troglodytes"
    player.army = [ArmyUnit(unit=unit)]
    with pytest.raises(IllegalMove, match="Citadel"):
        apply(state, seat, {"type": "muster", "reinforce": [unit]})
    player.buildings.append("citadel")
    state, _ = apply(state, seat, {"type": "muster", "reinforce": [unit]})
    assert state.player(seat).army[0].pack


@pytest.mark.rule("homm3turn:spell-book-token")
def test_spell_book_needs_a_mage_guild_built_in_an_earlier_round() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.resources.gold, player.resources.materials, player.resources.valuables = 50, 20, 10
    with pytest.raises(IllegalMove, match="Mage Guild"):
        apply(state, seat, {"type": "buy_spell"})
    state, _ = apply(state, seat, {"type": "build", "building": "mage_guild"})
    assert state.choice[seat].kind == "search_mode" or state.choice[seat].kind == "search_pick"
    from tests.homm3.helpers import answer_choices

    state = answer_choices(state)
    with pytest.raises(IllegalMove, match="round the Mage Guild is built"):
        apply(state, seat, {"type": "buy_spell"})


@pytest.mark.rule("homm3turn:when-you-can-use-them")
def test_tokens_refresh_at_the_next_round() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    state.player(seat).tokens.build = False
    round_now = state.round
    state = play_until(
        state,
        lambda s: (
            s.round == round_now + 1 and s.adventure is not None and s.adventure.stage != "start"
        ),
    )
    assert state.player(seat).tokens.build


@pytest.mark.rule("homm3bf:adventure-mode.resolving-adventure-cards.event-during-adventure")
def test_obelisks_grow_stronger() -> None:
    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    obelisks = [c for c in state.cards if state.cards[c] == "obelisk"]
    player = state.player(seat)
    for card in obelisks:
        for zone in (
            state.adventure_deck,
            state.adventure_discard,
            state.player(0).adventure_hand,
            state.player(1).adventure_hand,
        ):
            if card in zone:
                zone.remove(card)
    player.resolved.extend(obelisks[:2])
    player.adventure_hand = [obelisks[2]]
    player.resolved_this_round = False
    state, events = apply(state, seat, {"type": "resolve", "card": obelisks[2]})
    assert any(e.kind == "obelisk" and e.data["count"] == 3 for e in events)
    assert sum(1 for e in events if e.kind == "die_roll" and e.data.get("die") == "resource") == 4


@pytest.mark.rule("homm3bf:adventure-mode")
def test_final_combat_after_the_last_round_with_stuns_removed() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    state = play_until(state, lambda s: s.phase == "combat")
    assert state.round == 9
    for player in state.seats:
        assert not any(u.paralysed for u in player.army)
        assert len(player.hand) <= hand_limit(player)
        assert player.experts == expert_limit(player)


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
def test_no_adventure_cards_are_drawn_in_the_last_round() -> None:
    state = new(mode="adventure", heroes=("catherine", "mutare"))
    state = play_until(state, lambda s: s.round == s.rounds)
    assert not any(c.kind == "adventure_keep" for c in state.choice.values())
    size = len(state.adventure_deck)
    state = play_until(state, lambda s: s.phase == "combat")
    assert len(state.adventure_deck) == size


@pytest.mark.rule("homm3bf:adventure-mode.round-structure")
@pytest.mark.rule("homm3turn:gained-mp")
def test_movement_from_a_set_aside_card_redraws_once_and_is_spent() -> None:
    from engine.homm3 import zones

    state = new(mode="adventure", heroes=("catherine", "mutare"))
    starter = state.first
    drawn = list(state.choice[starter].data["cards"])
    with pytest.raises(WrongPhase, match="You may: choose"):  # no Movement to spend
        apply(state, starter, {"type": "redraw", "cards": [drawn[0]], "source": 0})
    boots = zones.new_instance(state, "boots_of_speed")
    wings = zones.new_instance(state, "angel_wings")
    state.player(starter).aside += [boots, wings]
    deck_before = len(state.adventure_deck)
    state, events = apply(
        state, starter, {"type": "redraw", "cards": [drawn[0], drawn[2]], "source": boots}
    )
    player = state.player(starter)
    choice = state.choice[starter]
    assert choice.kind == "adventure_keep" and len(choice.options) == 3
    assert drawn[1] in choice.data["cards"]  # the card not named stays
    assert len(state.adventure_deck) == deck_before  # 2 shuffled back, 2 drawn
    assert boots not in player.aside and boots in player.removed  # spent at once
    assert wings in player.aside
    redrawn = next(e for e in events if e.kind == "adventure_draw")
    assert redrawn.data["count"] == 2 and set(redrawn.private) == {starter}
    with pytest.raises(WrongPhase, match="You may: choose"):  # one redraw per draw
        apply(state, starter, {"type": "redraw", "cards": [drawn[1]], "source": wings})
    with pytest.raises(NotYourDecision):
        apply(state, 1 - starter, {"type": "redraw", "cards": [drawn[1]], "source": wings})


@pytest.mark.rule("homm3turn:hand-limit")
@pytest.mark.rule("homm3turn:refresh-your-hand")
@pytest.mark.parametrize(
    ("levels", "hands"), [((1, 3), (4, 5)), ((5, 7), (6, 7)), ((2, 4), (4, 5))]
)
def test_the_final_combat_draws_up_to_the_main_heros_hand_limit(
    levels: tuple[int, int], hands: tuple[int, int]
) -> None:
    """Level I (and II) 4 cards, III (and IV) 5 as in the example turn (Alice's Catherine,
    Level III: limit 5), V (and VI) 6, VII 7; the check is made when the hand is drawn."""
    from engine.homm3 import combat_flow, zones

    state = new(mode="adventure", heroes=("catherine", "mutare"))
    for player, level in zip(state.seats, levels, strict=True):
        player.level = level
        player.deck += [zones.new_instance(state, "attack") for _ in range(4)]
    combat_flow.begin(state)
    assert tuple(len(p.hand) for p in state.seats) == hands
    assert tuple(hand_limit(p) for p in state.seats) == hands


@pytest.mark.rule("homm3turn:action-types")
def test_an_adventure_turn_offers_town_and_morale_actions_and_the_round_ends_after_both() -> None:
    """The action types that apply without a map: Town actions (a muster, a building) and
    Morale actions (a Positive Morale card) during the turn; the round is over once both
    players have ended their turns (Movement exists only as the redraw of drawn cards)."""
    from engine.homm3 import zones

    state = _at_turn()
    seat = RULES.pending(state)[0].seat
    player = state.player(seat)
    player.resources.gold += 40
    player.resources.materials += 10
    player.tokens.population = player.tokens.build = True
    if "dwelling_bronze" not in player.buildings:
        player.buildings.append("dwelling_bronze")
    windfall = next(k for k, v in load_content().positive.items() if v.effect == "gain")
    player.positive.append(zones.new_instance(state, windfall))
    kinds = {type(cmd).__name__ for cmd in RULES.legal_commands(state, seat)}
    assert {"Build", "Muster", "UseMorale", "EndTurn"} <= kinds
    round_now = state.round
    state, _ = apply(state, seat, {"type": "end_turn"})
    assert state.round == round_now  # the other player's turn comes first
    other = RULES.pending(state)[0].seat
    assert other == 1 - seat
    while RULES.pending(state)[0].kind != "adventure_turn" or RULES.pending(state)[0].seat != other:
        decision = RULES.pending(state)[0]
        state, _ = apply(state, decision.seat, RULES.default_command(state, decision.seat))
    state, _ = apply(state, other, {"type": "end_turn"})
    assert state.round == round_now + 1
