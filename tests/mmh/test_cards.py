"""XP and levelling up, treasure cards, artefacts, scrolls, luck markers and Dragon Veins."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.mmh import gains, heroes, score
from engine.mmh.state import TreasureChoice
from tests.mmh.helpers import R, apply, new_game, start_action


@pytest.mark.rule("mmh:other-game-rules.experience-points-xp-and-leveling-up")
@pytest.mark.parametrize(("held", "cost"), [(0, 3), (1, 4), (2, 5), (3, 6), (4, 7), (5, 8), (6, 9)])
def test_level_up_cost_is_skill_cards_held_plus_three(held: int, cost: int) -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    hero = state.heroes["laszlo"]
    hero.skills = state.seats[0].might_deck[:held]
    assert gains.level_up_cost(hero) == cost


@pytest.mark.rule("mmh:other-game-rules.experience-points-xp-and-leveling-up")
def test_levelling_up_spends_trophies_draws_two_keeps_one() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    hero = state.heroes["laszlo"]
    for marker in (2, 9):  # 1 XP + 2 XP = 3
        state.encounter_box.remove(marker) if marker in state.encounter_box else None
        for space, m in list(state.encounters.items()):
            if m == marker:
                del state.encounters[space]
        hero.trophies.append(marker)
    start_action(state, 0, "build")
    with pytest.raises(IllegalMove, match="costs 3 XP"):
        apply(state, 0, {"type": "level_up", "hero": "laszlo", "deck": "might", "trophies": [2]})
    state, _events = apply(
        state, 0, {"type": "level_up", "hero": "laszlo", "deck": "might", "trophies": [2, 9]}
    )
    assert state.heroes["laszlo"].trophies == []
    keep = state.queue[0]
    assert keep.kind == "keep" and len(keep.cards) == 2
    drawn = list(keep.cards)
    state, _ = apply(state, 0, {"type": "keep", "card": drawn[1]})
    assert state.heroes["laszlo"].skills == [drawn[1]]
    assert drawn[0] in state.seats[0].might_discard
    assert R.audit(state) == []


@pytest.mark.rule("mmh:other-game-rules.experience-points-xp-and-leveling-up")
def test_excess_xp_is_lost_and_treasure_xp_must_be_spent_at_once() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    hero = state.heroes["laszlo"]
    state.treasure_deck.remove("war_spoils")
    state.queue.insert(
        0, TreasureChoice(seat=0, hero="laszlo", card="war_spoils", picks=1, artefact=True)
    )
    state, events = apply(state, 0, {"type": "choose_fields", "fields": [2]})  # 3 XP
    assert state.queue[0].kind == "xp" and state.queue[0].xp == 3
    state, _ = apply(state, 0, {"type": "level_up", "hero": "laszlo", "deck": "magic"})
    assert state.queue[0].kind == "keep"
    state, _ = apply(state, 0, R.default_command(state, 0))
    assert len(state.heroes["laszlo"].skills) == 1
    # another 3 XP from treasure: the cost is now 4, so it is lost unless a trophy helps
    state.treasure_discard.remove("war_spoils")
    state.queue.insert(
        0, TreasureChoice(seat=0, hero="laszlo", card="war_spoils", picks=1, artefact=True)
    )
    state, _ = apply(state, 0, {"type": "choose_fields", "fields": [2]})
    with pytest.raises(IllegalMove, match="costs 4"):
        apply(state, 0, {"type": "level_up", "hero": "laszlo", "deck": "magic"})
    state, events = apply(state, 0, {"type": "decline"})
    assert "lost" in events[0].text
    assert hero is not None


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_ordinary_encounters_never_give_the_artefact_field() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    state.treasure_deck.remove("mages_trunk")  # artefact is field 1
    state.queue.insert(
        0, TreasureChoice(seat=0, hero="laszlo", card="mages_trunk", picks=1, artefact=False)
    )
    with pytest.raises(IllegalMove, match="artefact field"):
        apply(state, 0, {"type": "choose_fields", "fields": [1]})
    options = R.legal_commands(state, 0)
    assert all(1 not in o.fields for o in options) and len(options) == 3


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_several_chests_several_different_fields() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    state.treasure_deck.remove("mages_trunk")
    state.queue.insert(
        0, TreasureChoice(seat=0, hero="laszlo", card="mages_trunk", picks=2, artefact=True)
    )
    with pytest.raises(IllegalMove, match="different"):
        apply(state, 0, {"type": "choose_fields", "fields": [3, 3]})
    gold, res = state.seats[0].gold, state.seats[0].resources
    state, _ = apply(state, 0, {"type": "choose_fields", "fields": [3, 4]})
    assert (state.seats[0].gold, state.seats[0].resources) == (gold + 3, res + 3)


@pytest.mark.rule("mmh:game-setup.preparing-card-decks")
def test_artefact_draw_three_keep_one_five_for_the_artefact_finder() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    gains.gain_artefact(state, state.heroes["laszlo"])
    assert len(state.queue[0].cards) == 3
    gains.gain_artefact(state, state.heroes["orson"])  # Artefact Finder
    assert len(state.queue[0].cards) == 5


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_one_artefact_per_category_each_worth_one_vp() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    hero = state.heroes["laszlo"]
    for card in ("windrider_boots", "cloak_of_night"):
        state.artefact_deck.remove(card)
    base = score.vp(state, 0)
    gains.take_artefact(state, hero, "windrider_boots")
    assert score.vp(state, 0) == base + 1
    gains.take_artefact(state, hero, "cloak_of_night")  # clothing too
    assert state.queue[0].kind == "swap"
    state, _ = apply(state, 0, {"type": "keep", "card": "cloak_of_night"})
    assert state.heroes["laszlo"].artefacts == ["cloak_of_night"]
    assert "windrider_boots" in state.artefact_discard
    assert score.vp(state, 0) == base + 1


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_scroll_limit_is_the_magic_value() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))  # Laszlo: Magic 1
    hero = state.heroes["laszlo"]
    assert heroes.scroll_capacity(state, hero) == 1
    gains.gain_scroll(state, hero)
    assert len(hero.scrolls) == 1 and not state.queue
    gains.gain_scroll(state, hero)
    assert state.queue[0].kind == "scroll_room"
    old = hero.scrolls[0]
    state, _ = apply(state, 0, {"type": "make_room", "scroll": old})
    assert len(state.heroes["laszlo"].scrolls) == 1 and old in state.scroll_discard


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_mysticism_draws_three_scrolls_keeps_one() -> None:
    state = new_game(2, factions=("necropolis", "haven"), heroes=("anastasya", "laszlo"))
    gains.gain_scroll(state, state.heroes["anastasya"])
    assert state.queue[0].kind == "keep" and len(state.queue[0].cards) == 3


@pytest.mark.rule("mmh:other-game-rules.luck")
def test_thirteen_luck_markers_in_the_supply() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    hero = state.heroes["laszlo"]
    gains.gain_luck(state, hero, 12)
    events = gains.gain_luck(state, hero, 3)
    assert hero.luck == 13 and state.luck_supply == 0
    assert "1 luck" in events[0].text


@pytest.mark.rule("mmh:description-of-the-game-board.game-board-locations")
def test_dragon_vein_searches_the_discard_piles() -> None:
    from engine.mmh.state import DragonVein

    state = new_game(2, heroes=("laszlo", "orson"))
    state.artefact_deck.remove("horn_of_plenty")
    state.artefact_discard.append("horn_of_plenty")
    state.queue.insert(0, DragonVein(seat=0, hero="laszlo"))
    view = R.view(state, 0)
    assert view.discards["artefact"] == ("horn_of_plenty",)
    assert R.view(state, 1).discards == {}
    state, _ = apply(state, 0, {"type": "search", "pile": "artefact", "card": "horn_of_plenty"})
    assert "horn_of_plenty" in state.heroes["laszlo"].artefacts


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_losing_a_leadership_artefact_sends_the_extra_creatures_home() -> None:
    from tests.mmh.helpers import set_army

    state = new_game(2, heroes=("laszlo", "orson"))  # Laszlo: Leadership 7
    hero = state.heroes["laszlo"]
    for card in ("legion_helm", "holy_tower_shield"):
        state.artefact_deck.remove(card)
    gains.take_artefact(state, hero, "legion_helm")
    set_army(state, "laszlo", [("sentinel", True)] * 4 + [("sentinel", False)] * 4)
    assert heroes.leadership(state, hero) == 8
    gains.take_artefact(state, hero, "holy_tower_shield")  # armor too: keep one
    state, events = apply(state, 0, {"type": "keep", "card": "holy_tower_shield"})
    assert "Leadership drops to 7" in " ".join(e.text for e in events)
    # the player chooses which creature goes back (Leadership "may never be exceeded")
    owed = R.pending(state)[0]
    assert (owed.seat, owed.kind, owed.commands) == (0, "leadership", ("return_creatures",))
    assert R.audit(state) == []  # over Leadership only while the choice is open
    legal = R.legal_commands(state, 0)
    assert {tuple(cmd.creatures) for cmd in legal} == {("sentinel",), ("sentinel+",)}
    assert R.default_command(state, 0).creatures == ("sentinel",)  # the weakest
    with pytest.raises(IllegalMove, match="Name 1 creature"):
        apply(state, 0, {"type": "return_creatures", "creatures": ["sentinel", "sentinel"]})
    state, events = apply(state, 0, {"type": "return_creatures", "creatures": ["sentinel+"]})
    army = state.heroes["laszlo"].army
    assert len(army) == 7 and sum(1 for u in army if u.elite) == 3
    assert state.seats[0].reserve["sentinel"] == 8 - 7
    assert not state.queue and R.audit(state) == []
