"""The end of a Round and of the battle: Hero Retreat, Surrender, card bookkeeping
(homm4:battles.hero-retreat, homm4:battles.surrender, homm4:battles.phases-and-rounds)."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalMove, WrongPhase
from engine.homm4 import battle
from engine.homm4.commands import (
    AnswerSurrender,
    Attack,
    Counterattack,
    Defend,
    OfferSurrender,
    Retreat,
)
from engine.homm4.state import Homm4State
from tests.homm4.battle_fixtures import (
    Builder,
    act,
    cid,
    fight,
    set_rolls,
    small_pool,
    texts,
    zone_count,
)

__all__ = ["small_pool"]

pytestmark = pytest.mark.usefixtures("small_pool")


def to_round_end(b: Builder) -> None:
    """Every Creature defends until the Round ends."""
    assert b.state.battle is not None
    start = b.state.battle.round
    while b.state.battle.stage == "fight" and b.state.battle.round == start:
        due = battle.due_creatures(b.state)
        act(b, Defend(creature=due[0].id))


def hero_battle(b: Builder, town_at: tuple[int, int] | None) -> tuple[int, int, int]:
    knight = b.card("knight", 0)
    golem = b.card("golden_golem", 0)
    bandit = b.card("bandit", 1)
    if town_at is not None:
        b.town(0, town_at)
    fight(b, [([knight], "melee"), ([golem], "melee")], [([bandit], "melee")])
    return knight, golem, bandit


@pytest.mark.rule("homm4:battles.hero-retreat")
def test_retreat_refused_within_four_hexes_of_the_nearest_town() -> None:
    b = Builder()
    hero_battle(b, (3, 0))
    assert "within 4 hexes" in (battle.retreat_problem(b.state, 0) or "")
    to_round_end(b)
    assert b.state.battle is not None
    # no retreat offer; the attacker may still offer to surrender
    assert b.state.battle.stage == "surrender_offer" and b.state.battle.to_act == 0
    with pytest.raises(WrongPhase):
        act(b, Retreat(retreat=True))


@pytest.mark.rule("homm4:battles.hero-retreat")
def test_retreat_discards_creatures_and_heroes_go_to_the_nearest_town() -> None:
    b = Builder()
    knight, golem, _ = hero_battle(b, (5, 0))
    town = b.state.sites[0]
    to_round_end(b)
    assert b.state.battle is not None and b.state.battle.stage == "retreat"
    assert [d.seat for d in battle.battle_pending(b.state)] == [0]
    assert battle.battle_default(b.state, 0) == Retreat(retreat=False)
    events, outcome = act(b, Retreat(retreat=True))
    assert outcome is not None
    assert (outcome.winner, outcome.how, outcome.winner_seat, outcome.loser_seat) == (
        1,
        "retreat",
        1,
        0,
    )
    assert outcome.town == town.id and outcome.town_hex == town.hex
    assert golem in b.state.players_state[0].discard
    (army,) = [a for a in b.state.armies if a.owner == 0]
    assert army.cards == [knight] and army.hex == town.hex and army.done
    assert outcome.loser_armies == (army.id,)
    assert outcome.winner_heroes == ()
    assert b.state.battle is None
    assert any("retreats" in t for t in texts(events))
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:battles.hero-retreat")
def test_retreat_anywhere_and_no_town_no_retreat() -> None:
    b = Builder()
    knight, _, _ = hero_battle(b, (3, 0))
    b.artifact(knight, "boots_of_retreat", ["feet"])
    assert battle.retreat_problem(b.state, 0) is None
    b2 = Builder()
    hero_battle(b2, None)
    assert "no Town" in (battle.retreat_problem(b2.state, 0) or "")
    # a side without heroes cannot retreat
    assert "has none" in (battle.retreat_problem(b.state, 1) or "")


@pytest.mark.rule("homm4:battles.hero-retreat")
def test_defender_may_retreat_when_the_attacker_fights_on() -> None:
    b = Builder()
    golem = b.card("golden_golem", 0)
    knight = b.card("knight", 1)
    orc = b.card("orc", 1)
    b.town(1, (6, 0))
    fight(b, [([golem], "melee")], [([knight], "melee"), ([orc], "melee")])
    to_round_end(b)
    assert b.state.battle is not None and b.state.battle.stage == "retreat"
    assert b.state.battle.to_act == 1  # the Attacker cannot retreat: Blue is asked
    _, outcome = act(b, Retreat(retreat=True))
    assert outcome is not None and outcome.winner == 0 and outcome.how == "retreat"
    assert outcome.armies == (1,)


@pytest.mark.rule("homm4:battles.surrender")
def test_accepted_surrender_pays_hand_cards_and_the_acceptor_draws() -> None:
    b = Builder()
    golem = b.card("golden_golem", 0)
    bandit = b.card("bandit", 1)
    town = b.town(0, (2, 0))
    hand = [*b.hand(0, "magic_arrow"), *b.hand(0, "orc"), *b.hand(0, "knight")]
    b.state.players_state[0].risk = b.cards("troll", 0, 2)
    deck = b.deck(1, "pikeman", 3)
    fight(b, [([golem], "melee")], [([bandit], "melee")])
    to_round_end(b)
    assert b.state.battle is not None and b.state.battle.stage == "surrender_offer"
    legal = battle.battle_legal(b.state, 0)
    assert legal == [OfferSurrender(cards=None), *[OfferSurrender(cards=n) for n in range(4)]]
    with pytest.raises(IllegalMove, match="hold only 3"):
        act(b, OfferSurrender(cards=4))
    events, _ = act(b, OfferSurrender(cards=2))
    assert "offers 2 cards" in texts(events)[0]
    assert [(d.seat, d.kind) for d in battle.battle_pending(b.state)] == [
        (1, "battle_surrender_answer")
    ]
    events, outcome = act(b, AnswerSurrender(accept=True))
    assert outcome is not None
    assert (outcome.winner, outcome.how, outcome.surrender_cards) == (1, "surrender", 2)
    # default payment (payment.auto_pay): the spell, then the Hero of a faction without a
    # Town of the payer's; the Orc of the payer's own (Asylum) faction stays
    paid = [hand[0], hand[2]]
    assert b.state.players_state[0].hand == [hand[1]]
    assert b.state.players_state[0].discard == paid
    assert len(b.state.players_state[0].risk) == 2  # never from the Risk Stack
    assert b.state.players_state[1].hand == deck[:2]
    army = next(a for a in b.state.armies if a.owner == 0)
    assert army.hex == town.hex and army.cards == [golem] and army.done
    public = " ".join(e.text for e in events)
    assert "Magic Arrow" not in public and "Knight" not in public
    surrender = next(e for e in events if e.kind == "battle_surrender")
    assert "Magic Arrow" in surrender.private[0]
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:battles.surrender")
def test_surrender_with_named_cards_and_rejection() -> None:
    b = Builder()
    golem = b.card("golden_golem", 0)
    bandit = b.card("bandit", 1)
    b.town(0, (2, 0))
    hand = b.hand(0, "orc", 3)
    b.deck(1, "pikeman", 3)
    fight(b, [([golem], "melee")], [([bandit], "melee")])
    to_round_end(b)
    with pytest.raises(IllegalMove, match="exactly 1"):
        act(b, OfferSurrender(cards=1, pay=(hand[0], hand[1])))
    act(b, OfferSurrender(cards=1, pay=(hand[2],)))
    events, outcome = act(b, AnswerSurrender(accept=False))
    assert outcome is None and "rejects" in texts(events)[0]
    # Blue has no Town to withdraw to: a new Round begins
    assert b.state.battle is not None and b.state.battle.round == 2
    assert b.state.battle.stage == "fight"
    to_round_end(b)
    act(b, OfferSurrender(cards=1, pay=(hand[2],)))
    _, outcome = act(b, AnswerSurrender(accept=True))
    assert outcome is not None and b.state.players_state[0].discard == [hand[2]]


@pytest.mark.rule("homm4:battles.surrender")
def test_guards_cannot_surrender_or_accept() -> None:
    b = Builder()
    golem = b.card("golden_golem", 0)
    knight = b.card("knight", 0)
    b.town(0, (9, 0))
    b.hand(0, "orc", 2)
    guard = b.cards("bandit", 1, 2)
    site = b.site("object", (0, 0), guard=list(guard), guard_player=1)
    fight(b, [([knight], "melee"), ([golem], "melee")], [(guard, "melee")], kind="guard", site=site)
    assert "cannot surrender" in (battle.surrender_problem(b.state, 0) or "")
    assert "never retreat" in (battle.retreat_problem(b.state, 1) or "")
    to_round_end(b)
    assert b.state.battle is not None and b.state.battle.stage == "retreat"
    act(b, Retreat(retreat=False))
    # no surrender offers against a Guard: straight into Round 2
    assert b.state.battle.stage == "fight" and b.state.battle.round == 2


@pytest.mark.rule("homm4:battles")
def test_defeated_guard_cards_go_to_their_owners_discard() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    guard = [b.card("bandit", 1), b.card("bandit", 0)]  # a reinforcement from another deck
    site = b.site("object", (0, 0), guard=list(guard), guard_player=1)
    fight(b, [(golems, "melee")], [(guard, "melee")], kind="guard", site=site)
    act(b, Defend(creature=cid(b, guard[0])))
    set_rolls(b.state, [1])
    _, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, guard[0]),), count=2)
    )
    assert outcome is not None and outcome.winner == 0 and outcome.defender_kind == "guard"
    assert site.guard == []
    assert guard[0] in b.state.players_state[1].discard
    assert guard[1] in b.state.players_state[0].discard
    assert outcome.armies == (1,)
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:battles")
def test_killed_army_is_removed_and_its_hero_inventory_discarded() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    sorcerer = b.card("sorcerer", 1)
    skill = b.skill(sorcerer, "sorcery")
    art = b.artifact(sorcerer, "mana_pendant", ["neck"])
    fight(b, [(golems, "melee")], [([sorcerer], "melee")])
    act(b, Defend(creature=cid(b, sorcerer)))
    set_rolls(b.state, [1])
    _, outcome = act(
        b, Attack(creature=cid(b, golems[0]), mode="melee", targets=(cid(b, sorcerer),))
    )
    assert outcome is not None and outcome.winner == 0
    assert [a.owner for a in b.state.armies] == [0]
    assert {sorcerer, skill, art} <= set(b.state.players_state[1].discard)
    assert sorcerer not in b.state.inventories


@pytest.mark.rule("homm4:battles")
def test_recover_returns_killed_units_to_the_winning_army() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    b.artifact(knight, "boots_of_retreat", ["feet"])  # recover 1
    golems = b.cards("golden_golem", 0, 3)
    bandit = b.card("bandit", 1)
    fight(b, [([knight], "melee"), (golems, "melee")], [([bandit], "melee")])
    set_rolls(b.state, [10])
    act(b, Attack(creature=cid(b, bandit), mode="melee", targets=(cid(b, golems[0]),)))
    act(b, Counterattack(strike=False))
    set_rolls(b.state, [10])
    _, outcome = act(b, Attack(creature=cid(b, knight), mode="melee", targets=(cid(b, bandit),)))
    assert outcome is not None and outcome.winner == 0
    army = b.state.armies[0]
    assert army.cards[0] == knight and golems[0] in army.cards
    assert outcome.winner_heroes == (knight,)


# ------------------------------------------------------------------ playouts
ARMIES = [
    ["golden_golem", "golden_golem", "orc", "bandit", "knight", "halfling"],
    ["wolf", "elf", "griffin", "sprite", "cerberus", "sorcerer"],
    ["troll", "mage", "mage", "pikeman", "pikeman", "pikeman", "barbarian"],
    ["orc", "orc", "orc", "bandit", "bandit", "halfling", "mage", "wolf", "elf"],
]


def _random_battle(seed: int, kind: str) -> tuple[Homm4State, int]:
    rnd = random.Random(seed)
    b = Builder(seed=seed)
    attackers = [b.card(c, 0) for c in rnd.choice(ARMIES)]
    for hero in [c for c in attackers if b.state.card_defs[c] in ("sorcerer", "knight")]:
        b.spell(hero, "magic_arrow")
        b.spell(hero, "bloodlust")
    defenders = [b.card(c, 1) for c in rnd.choice(ARMIES)]
    b.town(0, (7, 0))
    b.town(1, (0, 9))
    b.hand(0, "orc", 2)
    b.hand(1, "bandit", 2)
    b.deck(0, "pikeman", 5)
    b.deck(1, "pikeman", 5)
    attacker = b.army(0, (0, 0), attackers)
    site = None
    defender_armies = []
    if kind == "army":
        defender_armies = [b.army(1, (0, 0), defenders).id]
    elif kind == "guard":
        site = b.site("object", (0, 0), guard=defenders, guard_player=1)
    else:
        site = b.town(1, (0, 0), garrison=defenders)
    battle.begin_battle(
        b.state,
        hex=(0, 0),
        attacker=0,
        attacker_armies=[attacker.id],
        defender=1,
        defender_kind=kind,  # type: ignore[arg-type]
        defender_armies=defender_armies,
        site=site.id if site is not None else None,
    )
    steps = 0
    while b.state.battle is not None and steps < 3000:
        (decision,) = battle.battle_pending(b.state)
        options = battle.battle_legal(b.state, decision.seat)
        assert options, decision
        for option in options:
            assert option.type in decision.commands
        use_random = steps < 300 and rnd.random() < 0.7
        command = (
            rnd.choice(options) if use_random else battle.battle_default(b.state, decision.seat)
        )
        assert command in options  # the default is always one of the legal commands
        battle.apply_battle_command(b.state, decision.seat, command)
        assert set(zone_count(b.state).values()) == {1}
        if b.state.battle is not None:
            assert battle.battle_view(b.state) is not None
        steps += 1
    return b.state, steps


@pytest.mark.rule("homm4:battles")
@pytest.mark.parametrize("kind", ["army", "guard", "town"])
@pytest.mark.parametrize("seed", range(12))
def test_random_battles_keep_every_card_in_one_zone_and_end(seed: int, kind: str) -> None:
    state, steps = _random_battle(seed, kind)
    assert state.battle is None, f"battle still running after {steps} steps"
    assert state.limbo == []
    for inv in state.inventories.values():
        assert inv.mana_spent == 0
