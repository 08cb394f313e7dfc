"""Set-up decisions of the advanced rules: the players place the underground entrance coins
in turn order (manual assembly) and choose their Pre-developed Heroes' cards from their own
decks (homm4:terrain-map-sections-with-underground, homm4:game-variants.pre-developed-heroes).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalMove, NotYourDecision
from engine.homm4 import board, heroes, setup, variants, zones
from engine.homm4.cards import ArtifactCard, School, SkillCard, SpellCard
from engine.homm4.commands import DevelopHero, PlaceEntrance
from engine.homm4.state import Homm4State
from tests.homm4.adventure_helpers import R, apply, develop_by_default, finish_setup, new_game

DECKS = [{"deck": "deck_haven"}, {"deck": "deck_asylum"}]
FULL = {"primary": 1, "secondary": 1, "spells": True, "treasure": 1, "other": 1}


# ------------------------------------------------------------- underground entrances
def _manual_underground(players: int = 3, seed: int = 4) -> Homm4State:
    """A manual-assembly game with two underground sections, every section placed."""
    state = new_game(players, seed, assembly="manual", underground=2)
    while state.phase == "assemble":
        seat = R.pending(state)[0].seat
        state, _ = apply(state, seat, R.default_command(state, seat))
    return state


def _labels(state: Homm4State, sites: list[Any]) -> list[str]:
    return [board.label(state, s.hex) for s in sites]


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_the_players_place_the_two_entrance_coins_in_turn_order() -> None:
    state = _manual_underground(players=4)
    assert state.phase == "entrances"
    first = state.setup_first
    assert first == 2, "6 sections by 4 seats: Red, Blue, Green, Orange, Red, Blue; then Green"
    assert board.entrance_pairs(state) == 2 and board.coins_placed(state) == 0
    pending = R.pending(state)
    assert [(d.seat, d.kind) for d in pending] == [(first, "place_entrance")]
    above, below = board.entrance_sites(state)
    legal = R.legal_commands(state, first)
    assert len(legal) == len(above) * len(below), "any surface icon with any underground icon"
    up, down = _labels(state, above)[-1], _labels(state, below)[0]
    state, events = apply(state, first, PlaceEntrance(surface=up, underground=down))
    assert events[0].kind == "place_entrance" and events[0].public
    assert f"coin 1 on {up} (surface)" in events[0].text and down in events[0].text
    second = (first + 1) % 4
    assert [d.seat for d in R.pending(state)] == [second], "the next seat in turn order"
    with pytest.raises(NotYourDecision):
        apply(state, first, R.default_command(state, second))
    state, _ = apply(state, second, R.default_command(state, second))
    assert state.phase == "setup" and state.active == first, "then set-up, from the same seat"
    coins = {s.entrance for s in state.sites if s.entrance is not None}
    assert coins == {1, 2}
    shape = board.board_of(state)
    for coin in (1, 2):
        pair = [s for s in state.sites if s.entrance == coin]
        assert sorted(s.hex in shape.underground for s in pair) == [False, True]
        assert all(s.kind == "object" for s in pair)


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_a_coin_goes_only_on_a_free_object_icon_of_its_own_map() -> None:
    state = _manual_underground()
    seat = state.active
    above, below = board.entrance_sites(state)
    up, down = _labels(state, above)[0], _labels(state, below)[0]
    town = next(s for s in state.sites if s.kind == "town")
    with pytest.raises(IllegalMove, match="Free surface Object icons: " + up):
        apply(state, seat, PlaceEntrance(surface=board.label(state, town.hex), underground=down))
    with pytest.raises(IllegalMove, match="holds no underground Object icon"):
        apply(state, seat, PlaceEntrance(surface=up, underground=up))
    state, _ = apply(state, seat, PlaceEntrance(surface=up, underground=down))
    nxt = state.active
    with pytest.raises(IllegalMove, match="without a coin"):
        apply(state, nxt, PlaceEntrance(surface=up, underground=_labels(state, below)[1]))


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_the_default_is_the_quick_random_draw_without_using_the_generator() -> None:
    state = _manual_underground()
    seat = state.active
    default = R.default_command(state, seat)
    assert isinstance(default, PlaceEntrance)
    assert R.legal_commands(state, seat)[0] == default, "the default is listed first"
    counter = state.rng.counter
    assert R.default_command(state, seat) == default and state.rng.counter == counter
    quick = state.model_copy(deep=True)
    board.place_entrances(quick)
    drawn = [s for s in quick.sites if s.entrance == 1]
    shape = board.board_of(quick)
    up = next(s for s in drawn if s.hex not in shape.underground)
    down = next(s for s in drawn if s.hex in shape.underground)
    assert (default.surface, default.underground) == (
        board.label(state, up.hex),
        board.label(state, down.hex),
    )
    ai = R.ai_command(state, seat, __import__("random").Random(5))
    assert ai == default, "a computer seat places the default pair"


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_quick_assembly_still_places_the_coins_at_random() -> None:
    state = new_game(2, 3, underground=2)
    assert state.phase == "setup"
    assert {s.entrance for s in state.sites if s.entrance is not None} == {1, 2}
    assert setup.MIN_PLAYERS == 2


@pytest.mark.rule("homm4:terrain-map-sections-with-underground")
def test_the_view_shows_every_entrance_coin_found_or_not() -> None:
    state = finish_setup(_manual_underground())
    view = R.public_view(state)
    coins = [s for s in view.sites if s.entrance is not None]
    assert len(coins) == 4 and not any(s.entrance_found for s in coins)
    site = next(s for s in state.sites if s.entrance == 1)
    site.found = True
    found = [s for s in R.public_view(state).sites if s.entrance_found]
    assert [s.entrance for s in found] == [1]


# ------------------------------------------------------------- Pre-developed Heroes
def _cards(state: Homm4State, seat: int, *card_ids: str) -> list[int]:
    """Instances of ``card_ids`` in ``seat``'s (unshuffled) deck, in that order."""
    deck = state.players_state[seat].deck
    return [next(c for c in deck if state.card_defs[c] == card_id) for card_id in card_ids]


def _develop(**rule: Any) -> Homm4State:
    return new_game(2, 3, decks=DECKS, pre_developed=rule or FULL)


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_every_player_chooses_at_once_before_the_decks_are_shuffled() -> None:
    state = _develop()
    assert state.phase == "develop" and not state.sections, "before the board is built"
    pending = R.pending(state)
    assert [(d.seat, d.kind) for d in pending] == [(0, "develop_hero"), (1, "develop_hero")]
    ysolde = state.players_state[0].starting_stack[0]
    assert "Mother Ysolde" in pending[0].prompt
    deck = list(state.players_state[0].deck)
    assert deck == sorted(deck), "the deck is still in card order: not yet shuffled"
    state, events = apply(state, 1, R.default_command(state, 1))
    assert [d.seat for d in R.pending(state)] == [0], "Blue is done, Red still chooses"
    assert events[0].kind == "pre_developed" and events[0].public
    bless, heal, tactics, attack, crown, banner = _cards(
        state, 0, "bless", "heal", "tactics_basic", "attack", "crown_of_command", "banner_of_valor"
    )
    choice = DevelopHero(cards=(attack, tactics, bless, crown, banner))
    state, events = apply(state, 0, choice)
    inv = state.inventories[ysolde]
    assert [heroes.describe_skill(state, ysolde, c) for c in inv.skills] == [
        "Basic Tactics",
        "Attack",
    ], "played Primary first, whatever the order named"
    assert inv.spells == [bless], "Basic Life Magic (printed): one Level 1 Life Spell"
    assert sorted(inv.artifacts) == sorted([crown, banner])
    assert heroes.hero_level(state, ysolde) == 3
    assert "Mother Ysolde #" in events[0].text and "Bless" in events[0].text
    assert state.phase == "setup", "everyone is done: decks shuffled, board built"
    shuffles = [e for e in events if e.kind == "shuffle" and e.data.get("zone") == "deck"]
    assert [e.data["seat"] for e in shuffles] == [0, 1]
    assert heal in state.players_state[0].deck + state.players_state[0].hand
    view = R.public_view(state)
    shown = next(a for a in view.armies if a.owner == 0) if view.armies else None
    assert shown is None, "no Army yet"


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_the_default_is_the_automatic_pick() -> None:
    state = _develop()
    default = R.default_command(state, 0)
    assert isinstance(default, DevelopHero)
    names = [state.card_defs[c] for c in default.cards]
    assert names == [
        "life_magic_basic",
        "resurrection",
        "bless",
        "heal",
        "crown_of_command",
        "banner_of_valor",
    ], "Advanced Life Magic and its Secondary, a Level 1 and a Level 2 Life Spell, 1 + 1"
    assert R.legal_commands(state, 0)[0] == default
    assert all(
        variants.develop_problem(state, 0, c.hero or -1, list(c.cards)) is None
        for c in R.legal_commands(state, 0)
        if isinstance(c, DevelopHero)
    )
    ai = R.ai_command(state, 0, __import__("random").Random(1))
    assert ai == default


def _refusal(state: Homm4State, cards: list[int]) -> str:
    with pytest.raises(IllegalMove) as caught:
        apply(state, 0, DevelopHero(cards=tuple(cards)))
    message = str(caught.value)
    hidden = {zones.card(state, c).name for c in state.players_state[0].deck}
    assert not any(name in message for name in hidden - {"Haven"}), message
    return message


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_a_choice_is_checked_against_the_agreed_numbers_and_the_skill_order() -> None:
    state = _develop()
    life, resurrection, tactics, expert, attack, bless, heal, spirit = _cards(
        state,
        0,
        "life_magic_basic",
        "resurrection",
        "tactics_basic",
        "tactics_expert",
        "attack",
        "bless",
        "heal",
        "spiritual_armor",
    )
    crown, banner, shield, squire = _cards(
        state, 0, "crown_of_command", "banner_of_valor", "shield_of_faith", "squire"
    )
    arts = [crown, banner]
    assert "takes 1 Primary Skill card and 1 Secondary Skill card; you chose 2 and 1" in _refusal(
        state, [life, tactics, resurrection, bless, heal, *arts]
    )
    assert "needs Advanced Tactics first" in _refusal(state, [expert, attack, bless, *arts])
    assert "Secondary Skill of Tactics" in _refusal(state, [life, attack, bless, heal, *arts])
    assert "add a Level 2 Life Spell" in _refusal(state, [life, resurrection, bless, *arts])
    assert "both Level 1 Life Spells" in _refusal(
        state, [life, resurrection, bless, spirit, heal, *arts]
    )
    assert "needs Advanced Life Magic" in _refusal(state, [tactics, attack, heal, *arts])
    assert "1 Treasure and 1 other are taken now" in _refusal(
        state, [life, resurrection, bless, heal, crown]
    )
    assert "1 Treasure and 1 other are taken now" in _refusal(
        state, [life, resurrection, bless, heal, crown, banner, shield]
    )
    assert f"Card #{squire} is not a Skill, Spell or Artifact card" in _refusal(
        state, [life, resurrection, bless, heal, squire, *arts]
    )
    theirs = state.players_state[1].deck[0]
    assert f"Card #{theirs} is not in your deck" in _refusal(state, [theirs])
    assert state.phase == "develop" and state.inventories[state.to_develop[0][1]].skills == []


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_no_spells_unless_agreed_and_a_level_the_deck_lacks_stays_empty() -> None:
    state = _develop(primary=1, secondary=0, spells=False)
    life, bless = _cards(state, 0, "life_magic_basic", "bless")
    assert "No Spells are agreed" in _refusal(state, [life, bless])
    state, _ = apply(state, 0, DevelopHero(cards=(life,)))
    ysolde = state.players_state[0].starting_stack[0]
    assert state.inventories[ysolde].spells == []
    state = _develop(primary=1, secondary=0, spells=True)
    life, bless, heal = _cards(state, 0, "life_magic_basic", "bless", "heal")
    state.players_state[0].deck.remove(heal)
    state.players_state[0].discard.append(heal)
    state, _ = apply(state, 0, DevelopHero(cards=(life, bless)))
    assert heroes.spell_level(state, ysolde, School.LIFE) == 2
    assert state.inventories[ysolde].spells == [bless], "no Level 2 Life Spell left in the deck"


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_heroes_are_developed_in_order_and_a_choice_may_not_strand_a_later_hero() -> None:
    state = new_game(
        2,
        3,
        decks=[{"deck": "deck_stronghold"}, {"deck": "deck_haven"}],
        starting_forces={"units": [3, 2, 1, 0], "heroes": 2},
        pre_developed={"primary": 1, "secondary": 1, "spells": False},
    )
    grimjaw, hrolf = (h for s, h in state.to_develop if s == 0)
    assert state.card_defs[grimjaw] == "grimjaw" and state.card_defs[hrolf] == "hrolf_ironhide"
    attack, tactics, melee = _cards(state, 0, "attack", "tactics_basic", "melee")
    state.players_state[0].deck.remove(melee)  # a deck whose only Combat Secondary is out
    state.players_state[0].discard.append(melee)
    with pytest.raises(IllegalMove, match="next is Grimjaw"):
        apply(state, 0, DevelopHero(hero=hrolf, cards=(attack, tactics)))
    with pytest.raises(IllegalMove, match="other starting Heroes could not take"):
        apply(state, 0, DevelopHero(hero=grimjaw, cards=(attack, tactics)))
    state, _ = apply(state, 0, R.default_command(state, 0))
    assert [h for s, h in state.to_develop if s == 0] == [hrolf]
    assert "Hrolf" in R.pending(state)[0].prompt
    state = develop_by_default(state)
    for hero in (grimjaw, hrolf):
        assert len(state.inventories[hero].skills) == 2 and heroes.hero_level(state, hero) == 3


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_artifacts_are_balanced_over_the_players_heroes() -> None:
    state = new_game(
        2,
        3,
        decks=[{"deck": "deck_haven"}, {"deck": "deck_asylum"}],
        starting_forces={"units": [3, 2, 1, 0], "heroes": 2},
        pre_developed={"primary": 0, "secondary": 0, "spells": False, "treasure": 1, "other": 1},
    )
    first, second = (h for s, h in state.to_develop if s == 0)
    crown, banner = _cards(state, 0, "crown_of_command", "banner_of_valor")
    state, _ = apply(state, 0, DevelopHero(cards=(crown,)))
    assert variants.artifacts_left(state, 0, state.options.pre_developed) == (0, 1)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="0 Treasure and 1 other are taken now"):
        apply(state, 0, DevelopHero(cards=()))
    state, _ = apply(state, 0, DevelopHero(cards=(banner,)))
    assert list(state.inventories[first].artifacts) == [crown]
    assert list(state.inventories[second].artifacts) == [banner]
    assert all(
        isinstance(zones.card(state, a), ArtifactCard)
        for a in [*state.inventories[first].artifacts, *state.inventories[second].artifacts]
    )


@pytest.mark.rule("homm4:game-variants.pre-developed-heroes")
def test_other_choices_are_offered_and_all_accepted() -> None:
    state = _develop()
    legal = [c for c in R.legal_commands(state, 0) if isinstance(c, DevelopHero)]
    assert len(legal) >= 2 and len({tuple(sorted(c.cards)) for c in legal}) == len(legal)
    for command in legal:
        apply(state, 0, command)
        kinds = {type(zones.card(state, c)) for c in command.cards}
        assert kinds <= {SkillCard, SpellCard, ArtifactCard}
