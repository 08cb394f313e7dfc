"""The capital's actions: Build, Gather Resources, Recruit, trading and selling scrolls."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, InvalidInput
from engine.mmh import economy
from engine.mmh.board import board_of
from tests.mmh.helpers import R, apply, new_game, set_army, start_action


def _building(state, seat, building, pay=None):  # type: ignore[no-untyped-def]
    start_action(state, seat, "build")
    command = {"type": "build", "building": building}
    if pay:
        command["pay"] = pay
    return apply(state, seat, command)


@pytest.mark.rule("mmh:course-of-play.build")
def test_raising_the_capital_costs_its_resources_and_ends_the_action() -> None:
    state = new_game(2)
    seat = state.active
    state.seats[seat].resources = 4
    state, _ = _building(state, seat, "level")
    assert state.seats[seat].level == 2 and state.seats[seat].resources == 0
    assert state.action is None and state.active != seat
    state.seats[seat].resources = 5
    with pytest.raises(IllegalMove, match="costs 6"):
        _building(state, seat, "level")


@pytest.mark.rule("mmh:course-of-play.build")
def test_buildings_need_their_capital_level_and_cost() -> None:
    state = new_game(2)
    seat = state.active
    state.seats[seat].resources = 20
    with pytest.raises(IllegalMove, match="level 2"):
        _building(state, seat, "barracks")
    state, _ = _building(state, seat, "garrison")
    assert "garrison" in state.seats[seat].buildings and state.seats[seat].resources == 17


@pytest.mark.rule("mmh:course-of-play.build")
def test_town_hall_costs_three_gold_or_three_resources() -> None:
    state = new_game(2)
    seat = state.active
    gold, res = state.seats[seat].gold, state.seats[seat].resources
    after, _ = _building(state.model_copy(deep=True), seat, "town_hall", "gold")
    assert (after.seats[seat].gold, after.seats[seat].resources) == (gold - 3, res)
    after, _ = _building(state.model_copy(deep=True), seat, "town_hall", "resources")
    assert (after.seats[seat].gold, after.seats[seat].resources) == (gold, res - 3)


@pytest.mark.rule("mmh:course-of-play.build")
def test_temple_of_asha_needs_the_tear_which_stays_under_it() -> None:
    state = new_game(2)
    seat = state.active
    record = state.seats[seat]
    record.level, record.gold, record.resources = 3, 12, 12
    with pytest.raises(IllegalMove, match="Tear of Asha"):
        _building(state.model_copy(deep=True), seat, "temple_of_asha")
    hero = state.heroes[record.heroes[0]]
    state.artefact_deck.remove("tear_of_asha")
    hero.artefacts.append("tear_of_asha")
    from engine.mmh import score

    before = score.vp(state, seat)
    state, _ = _building(state, seat, "temple_of_asha")
    assert state.seats[seat].temple_artefact == "tear_of_asha"
    assert "tear_of_asha" not in state.heroes[hero.id].artefacts
    assert score.vp(state, seat) == before + 3
    assert (state.seats[seat].gold, state.seats[seat].resources) == (0, 0)


@pytest.mark.rule("mmh:other-game-rules.trading")
def test_marketplace_gives_the_fourth_card_and_two_for_one_trading() -> None:
    state = new_game(2)
    seat = state.active
    state.seats[seat].resources = 8
    state, _ = _building(state, seat, "marketplace")
    assert [c.number for c in state.seats[seat].cards] == [1, 2, 3, 4]
    assert state.seats[seat].cards[3].actions == ("build", "gather")
    start_action(state, seat, "recruit")
    gold, res = state.seats[seat].gold, state.seats[seat].resources
    state, _ = apply(state, seat, {"type": "trade", "give": "gold", "amount": 4})
    assert (state.seats[seat].gold, state.seats[seat].resources) == (gold - 4, res + 2)
    with pytest.raises(IllegalMove, match="even"):
        apply(state, seat, {"type": "trade", "give": "resources", "amount": 3})


@pytest.mark.rule("mmh:other-game-rules.trading")
def test_selling_a_scroll_in_the_capital_gives_its_level_in_gold() -> None:
    state = new_game(2)
    seat = state.active
    state.seats[seat].buildings.append("marketplace")
    hero = state.heroes[state.seats[seat].heroes[0]]
    state.scroll_deck.remove("implosion")
    hero.scrolls.append("implosion")
    start_action(state, seat, "build")
    gold = state.seats[seat].gold
    state, _ = apply(state, seat, {"type": "sell_scroll", "hero": hero.id, "scroll": "implosion"})
    assert state.seats[seat].gold == gold + 5
    assert "implosion" in state.scroll_discard


@pytest.mark.rule("mmh:course-of-play.gather-resources")
def test_gather_from_locations_and_buildings() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    seat = 0
    board = board_of(state)
    wanted = ["sawmill", "mine", "crystal_cavern", "gold_mine"]
    for location in wanted:
        space = next(s.index for s in board.spaces if s is not None and s.location == location)
        state.control[space] = seat
    state.seats[seat].buildings.append("town_hall")
    assert economy.gather_income(state, seat, "gold") == (4 + 3, 3 + 2 + 1)
    assert economy.gather_income(state, seat, "resources") == (4, 3 + 2 + 1 + 3)
    state.active = seat
    gold = state.seats[seat].gold
    state, _ = apply(
        state, seat, {"type": "play_action", "card": 2, "action": "gather", "bonus": "gold"}
    )
    assert state.seats[seat].gold == gold + 7


@pytest.mark.rule("mmh:course-of-play.gather-resources")
def test_merchant_and_landowner() -> None:
    state = new_game(2, factions=("sanctuary", "stronghold"), heroes=("kiyoshi", "gotai"))
    assert economy.gather_income(state, 0) == (0, 2)  # Merchant
    assert economy.gather_income(state, 1) == (2, 0)  # Landowner


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_recruit_limit_three_five_with_the_garrison() -> None:
    state = new_game(2, heroes=("anton", "orson"))  # Anton: Leadership 8, 8 creatures
    seat = 0
    set_army(state, "anton", [("sentinel", True)])
    state.seats[seat].gold = 30
    start_action(state, seat, "recruit")
    for _ in range(3):
        state, _ = apply(state, seat, {"type": "recruit", "hero": "anton", "creature": "sentinel"})
    with pytest.raises(IllegalMove, match="limit of 3"):
        apply(state, seat, {"type": "recruit", "hero": "anton", "creature": "sentinel"})
    state.seats[seat].buildings.append("garrison")
    for _ in range(2):
        state, _ = apply(state, seat, {"type": "recruit", "hero": "anton", "creature": "sentinel"})
    assert len(state.heroes["anton"].army) == 6


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_recruiting_respects_level_elite_building_reserve_and_leadership() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))  # Laszlo: Leadership 7
    seat = 0
    state.seats[seat].gold = 50
    start_action(state, seat, "recruit")
    with pytest.raises(IllegalMove, match="capital level 2"):
        apply(state, seat, {"type": "recruit", "hero": "laszlo", "creature": "crossbowman"})
    with pytest.raises(IllegalMove, match="Elite Barracks"):
        apply(
            state,
            seat,
            {"type": "recruit", "hero": "laszlo", "creature": "sentinel", "elite": True},
        )
    state, _ = apply(state, seat, {"type": "recruit", "hero": "laszlo", "creature": "sentinel"})
    with pytest.raises(IllegalMove, match="Leadership of 7"):
        apply(state, seat, {"type": "recruit", "hero": "laszlo", "creature": "sentinel"})
    assert state.seats[seat].gold == 50 - 1


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_master_discount_one_basic_two_elite() -> None:
    state = new_game(2, heroes=("anton", "orson"))  # Master of Griffins
    anton = state.heroes["anton"]
    laszlo_price = economy.creature_cost(state, anton, "crossbowman", False)
    assert laszlo_price == 2
    assert economy.creature_cost(state, anton, "griffin", False) == 3 - 1
    assert economy.creature_cost(state, anton, "griffin", True) == 5 - 2
    assert economy.upgrade_cost(state, anton, "griffin") == 1


@pytest.mark.rule("mmh:game-setup.choosing-the-starting-hero")
def test_leader_adds_a_free_elite_creature() -> None:
    state = new_game(2, heroes=("ysabel", "orson"))  # Crossbowman Leader
    seat = 0
    set_army(state, "ysabel", [("sentinel", True)])
    state.seats[seat].level = 2
    start_action(state, seat, "recruit")
    gold = state.seats[seat].gold
    state, _ = apply(state, seat, {"type": "recruit", "hero": "ysabel", "creature": "crossbowman"})
    army = [(u.creature, u.elite) for u in state.heroes["ysabel"].army]
    assert army.count(("crossbowman", False)) == 1 and army.count(("crossbowman", True)) == 1
    assert state.seats[seat].gold == gold - 2
    assert state.action is not None and state.action.recruited == 1


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_recruiting_a_hero_costs_five_gold_and_one_marker() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    seat = 0
    state.seats[seat].buildings.append("hall_of_heroes")
    state.seats[seat].gold = 12
    start_action(state, seat, "recruit")
    state, _ = apply(state, seat, {"type": "recruit_hero", "hero": "anton"})
    anton = state.heroes["anton"]
    assert state.seats[seat].gold == 7
    assert len(anton.army) == 3 and all(u.elite and u.creature == "sentinel" for u in anton.army)
    assert state.action is not None and state.action.recruited == 1
    state, _ = apply(state, seat, {"type": "recruit_hero", "hero": "ysabel"})
    assert state.seats[seat].gold == 7 - 5 + 5  # Inheritance
    with pytest.raises(IllegalMove, match=r"at most 3 heroes|Free heroes"):
        apply(state, seat, {"type": "recruit_hero", "hero": "ysabel"})


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_upgrade_pays_the_difference_and_ignores_the_limit() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    seat = 0
    state.seats[seat].buildings.append("barracks")
    set_army(state, "laszlo", [("sentinel", False)] * 4)
    state.seats[seat].gold = 4
    start_action(state, seat, "recruit")
    for _ in range(4):
        state, _ = apply(state, seat, {"type": "upgrade", "hero": "laszlo", "creature": "sentinel"})
    assert all(u.elite for u in state.heroes["laszlo"].army)
    assert state.seats[seat].gold == 0 and state.action is not None and state.action.recruited == 0


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_dismiss_any_but_the_last_creature() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    seat = 0
    set_army(state, "laszlo", [("sentinel", True), ("crossbowman", False)])
    start_action(state, seat, "recruit")
    state, _ = apply(state, seat, {"type": "dismiss", "hero": "laszlo", "creature": "crossbowman"})
    with pytest.raises(IllegalMove, match="last creature"):
        apply(
            state,
            seat,
            {"type": "dismiss", "hero": "laszlo", "creature": "sentinel", "elite": True},
        )
    assert state.seats[seat].reserve["crossbowman"] == 8


@pytest.mark.rule("mmh:course-of-play.recruit")
@pytest.mark.parametrize(
    ("command", "named"),
    [
        ({"type": "dismiss", "creature": "", "elite": True}, "'+'"),
        ({"type": "dismiss", "creature": "ZZ99"}, "'ZZ99'"),
        ({"type": "dismiss", "creature": "ghoul"}, "Ghoul"),  # a Necropolis creature
        ({"type": "dismiss", "creature": "crossbowman", "elite": True}, "Marksman"),
        ({"type": "upgrade", "creature": "ZZ99"}, "'ZZ99'"),
        ({"type": "upgrade", "creature": "sentinel"}, "Sentinel"),  # only an elite one
    ],
)
def test_dismissing_or_upgrading_a_creature_the_army_lacks_names_the_army(
    command: dict[str, object], named: str
) -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    seat = 0
    state.seats[seat].buildings.append("barracks")
    set_army(state, "laszlo", [("sentinel", True), ("crossbowman", False)])
    start_action(state, seat, "recruit")
    before = state.model_dump_json()
    with pytest.raises(IllegalMove) as refusal:
        apply(state, seat, {**command, "hero": "laszlo"})
    purpose = "to dismiss" if command["type"] == "dismiss" else "to upgrade"
    assert str(refusal.value) == (
        f"Laszlo's army has no {named} {purpose}; it holds sentinel+, crossbowman."
    )
    assert state.model_dump_json() == before


@pytest.mark.rule("mmh:course-of-play.recruit")
def test_recruiting_needs_the_hero_in_the_capital() -> None:
    state = new_game(2, heroes=("laszlo", "orson"))
    state.heroes["laszlo"].space = next(iter(board_of(state).guard_of))
    start_action(state, 0, "recruit")
    with pytest.raises(IllegalMove, match="not in the capital"):
        apply(state, 0, {"type": "recruit", "hero": "laszlo", "creature": "sentinel"})
    assert R.audit(state) == []


@pytest.mark.rule("mmh:course-of-play.build")
def test_pay_on_a_building_not_paid_in_gold_or_resources_is_refused() -> None:
    # 'pay' picks gold or resources for the Town Hall only; on raising the capital it was
    # ignored. Refused, naming the building that takes it, and nothing changes.
    state = new_game(2)
    seat = state.active
    state.seats[seat].resources = 4
    start_action(state, seat, "build")
    before = state.model_dump_json()
    with pytest.raises(InvalidInput) as refused:
        apply(state, seat, {"type": "build", "building": "level", "pay": "gold"})
    assert str(refused.value) == (
        "'pay' does not apply to raising the capital: only a building paid in gold or "
        "resources (Town Hall) takes it; build without 'pay'."
    )
    assert state.model_dump_json() == before
    state, _ = apply(state, seat, {"type": "build", "building": "level"})
    assert state.seats[seat].level == 2
