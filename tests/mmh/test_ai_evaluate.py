"""The searching players' evaluation of an mmh position (`engine.mmh.ai.worth`, issue 19):
victory points held and to come, what the capital cost, income, and every army, at home
as well as on the board. The figures are the heuristic's own (no rulebook example): VP 10,
a gold or resource 1, income 2 per unit gathered, half of a reachable location's worth
discounted by ``1 / (1 + steps / 3)``."""

from __future__ import annotations

from engine.mmh import ai, economy
from engine.mmh.content import CONTROLLABLE
from engine.mmh.heroes import hero_dice, might
from engine.mmh.state import Hero, MmhState
from tests.mmh.helpers import clear_encounters, fixed_board, new_game, set_army


def hero_part(state: MmhState, hero: Hero) -> float:
    """The hero's own dice in `ai._army_power`: up to 5 dice at his Might."""
    return min(hero_dice(state, hero), 5) * ai._p(might(state, hero))


def _quiet() -> MmhState:
    state = new_game()
    fixed_board(state)
    clear_encounters(state)
    return state


def test_an_army_at_home_counts_as_much_as_one_on_the_board() -> None:
    """Recruiting in the capital (the hero's space is None there) used to add nothing but
    the gold it cost; the army now counts wherever the hero stands."""
    state = new_game()
    hero = state.heroes[state.seats[0].heroes[0]]
    set_army(state, hero.id, [])
    empty = ai.worth(state, 0)
    set_army(state, hero.id, [("sentinel", False), ("sentinel", False)])
    damage, hp = ai._army_power(state, hero)
    assert hero.space is None
    assert (damage, hp) == (2 * 1 / 8 + hero_part(state, hero), 2.0)
    assert ai.worth(state, 0) - empty == damage + hp


def test_what_the_capital_cost_is_kept_so_building_is_no_loss() -> None:
    """Town Hall (3, gold or resources) + Marketplace (4 resources) + capital level II
    (4 resources for Haven) = 11 invested; paying for the Marketplace moves 4 from
    resources to the capital and leaves the worth unchanged except for income."""
    state = new_game()
    record = state.seats[0]
    assert record.faction == "haven"
    record.buildings = ["town_hall", "marketplace"]
    record.level = 2
    assert ai._invested(state, 0) == 3 + 4 + 4
    before = ai.worth(state, 0)
    record.resources += 4
    record.buildings = ["town_hall"]
    assert ai.worth(state, 0) == before  # the Marketplace adds no gathering income


def test_income_to_come_counts_twice_a_gold_gathered() -> None:
    """A Gold Mine controlled gives 4 gold a Gather Resources and no VP: 2 × 4 = 8 more
    worth (the seat's heroes have no army, so nothing is in their reach)."""
    state = _quiet()
    for hid in state.seats[0].heroes:
        set_army(state, hid, [])
    mine = next(
        sp.index
        for sp in ai.geometry.board_of(state).spaces
        if sp is not None and sp.location == "gold_mine"
    )
    before = ai.worth(state, 0)
    gold_before = economy.gather_income(state, 0)[0]
    state.control[mine] = 0
    assert economy.gather_income(state, 0)[0] == gold_before + 4
    assert ai.worth(state, 0) - before == 8.0


def test_a_location_in_a_heros_reach_is_worth_half_its_vp_and_income_discounted() -> None:
    """Victory points to come: every controllable location but one Mine is the seat's
    already; its hero (three creatures, no guard on the way) stands one step from the
    Mine: 0.5 × (10 × 2 VP + 2 × 2 resources) / (1 + 1/3) = 9.0. A hero of two creatures
    (too weak to go out) and a Mine of the seat's own count nothing."""
    state = _quiet()
    board = ai.geometry.board_of(state)
    mines = [s.index for s in board.spaces if s is not None and s.location == "mine"]
    target = mines[0]
    for s in board.spaces:
        if s is not None and s.location in CONTROLLABLE and s.index != target:
            state.control[s.index] = 0
    hero = state.heroes[state.seats[0].heroes[0]]
    set_army(state, hero.id, [("sentinel", False)] * 3)
    step = next(
        n for n in board.neighbours(target) if board.space(n).terrain in ("open", "harbour")
    )
    hero.space = step
    assert ai._distances(state, hero)[target] == 1
    assert ai._prospects(state, 0) == 0.5 * (10 * 2 + 2 * 2) / (1 + 1 / 3) == 9.0
    set_army(state, hero.id, [("sentinel", False)] * 2)
    assert ai._prospects(state, 0) == 0.0
    set_army(state, hero.id, [("sentinel", False)] * 3)
    state.control[target] = 0
    assert ai._prospects(state, 0) == 0.0


def test_evaluate_is_a_share_of_the_table() -> None:
    state = new_game()
    shares = [ai.evaluate(state, s) for s in range(2)]
    assert all(0 < v < 1 for v in shares) and abs(sum(shares) - 1) < 1e-9
