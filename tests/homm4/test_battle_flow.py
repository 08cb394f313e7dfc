"""Deployment, Phases and Rounds, special attacks, heroes and spells in battle
(homm4:battles.tactical-deployment, .phases-and-rounds, homm4:heroes-levels-skills-and-spells.*)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove, NotYourDecision, WrongPhase
from engine.homm4 import battle, heroes
from engine.homm4.commands import (
    Attack,
    CastSpell,
    Counterattack,
    Defend,
    Deploy,
    Group,
    StackOrder,
    SupportCreature,
)
from tests.homm4.battle_fixtures import (
    Builder,
    act,
    begin,
    cid,
    deploy,
    fight,
    set_rolls,
    small_pool,
    texts,
    zone_count,
)

__all__ = ["small_pool"]

pytestmark = pytest.mark.usefixtures("small_pool")


def _deploy(stacks: list[tuple[list[int], str]]) -> Deploy:
    return Deploy(stacks=tuple(StackOrder(cards=tuple(c), line=line) for c, line in stacks))  # type: ignore[arg-type]


# ------------------------------------------------------------------ deployment
@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_attacker_deploys_first_then_defender() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 2)
    orcs = b.cards("orc", 1, 2)
    begin(b, golems, orcs)
    assert [(d.seat, d.kind) for d in battle.battle_pending(b.state)] == [(0, "battle_deploy")]
    with pytest.raises(NotYourDecision):
        battle.apply_battle_command(b.state, 1, _deploy([(orcs, "melee")]))
    deploy(b, 0, [(golems, "melee")])
    assert [(d.seat, d.kind) for d in battle.battle_pending(b.state)] == [(1, "battle_deploy")]
    deploy(b, 1, [(orcs, "melee")])
    assert b.state.battle is not None and b.state.battle.stage == "fight"


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_at_most_seven_creatures() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 8)
    begin(b, golems, b.cards("orc", 1, 1))
    with pytest.raises(IllegalMove, match="at most 7"):
        deploy(b, 0, [([g], "melee") for g in golems])
    # the rulebook's example army: 3 Bandits, 2 Orcs, a hero... split up to 7 is fine
    deploy(b, 0, [([g], "melee") for g in golems[:6]] + [(golems[6:], "melee")])


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_ranged_line_needs_three_creatures_on_the_melee_line() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 2)
    orc = b.card("orc", 0)
    bandit = b.card("bandit", 0)
    begin(b, [*golems, orc, bandit], b.cards("troll", 1, 1))
    with pytest.raises(
        IllegalMove, match="at least 3 different Creatures on the Melee Line; you have 2"
    ):
        deploy(b, 0, [(golems, "melee"), ([bandit], "melee"), ([orc], "ranged")])
    deploy(
        b,
        0,
        [([golems[0]], "melee"), ([golems[1]], "melee"), ([bandit], "melee"), ([orc], "ranged")],
    )


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_stacks_hold_one_unit_type_and_heroes_fight_alone() -> None:
    b = Builder()
    golem = b.card("golden_golem", 0)
    orc = b.card("orc", 0)
    knight = b.card("knight", 0)
    other = b.card("knight", 0)
    begin(b, [knight, other, golem, orc], b.cards("troll", 1, 1))
    with pytest.raises(IllegalMove, match="one type only"):
        deploy(b, 0, [([golem, orc], "melee"), ([knight], "melee"), ([other], "melee")])
    with pytest.raises(IllegalMove, match="Hero fights alone"):
        deploy(b, 0, [([golem], "melee"), ([orc], "melee"), ([knight, other], "melee")])
    with pytest.raises(IllegalMove, match="Deploy all your cards"):
        deploy(b, 0, [([golem], "melee"), ([orc], "melee"), ([knight], "melee")])
    deploy(b, 0, [([golem], "melee"), ([orc], "melee"), ([knight], "melee"), ([other], "melee")])


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_more_than_seven_types_leave_whole_types_in_reserve() -> None:
    b = Builder()
    kinds = ["golden_golem", "bandit", "orc", "halfling", "mage", "troll", "pikeman", "wolf"]
    cards = [b.card(k, 0) for k in kinds] + [b.card("wolf", 0)]
    begin(b, cards, b.cards("troll", 1, 1))
    wolves = cards[7:]
    with pytest.raises(IllegalMove, match="must join its type's Creature Stack"):
        deploy(b, 0, [([c], "melee") for c in cards[:6]] + [([wolves[0]], "melee")])
    deploy(b, 0, [([c], "melee") for c in cards[:7]])
    assert b.state.battle is not None and b.state.battle.reserve == wolves
    # the canonical deployments respect the same rule
    b2 = Builder()
    cards2 = [b2.card(k, 0) for k in kinds]
    begin(b2, cards2, b2.cards("troll", 1, 1))
    for option in battle.canonical_deployments(b2.state, 0):
        assert len(option.stacks) == 7


@pytest.mark.rule("homm4:battles.tactical-deployment")
def test_canonical_deployments_are_legal_and_default_puts_shooters_back() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    pikes = b.cards("pikeman", 0, 2)
    bandit = b.card("bandit", 0)
    orcs = b.cards("orc", 0, 2)
    begin(b, [*golems, *pikes, bandit, *orcs], b.cards("troll", 1, 1))
    options = battle.battle_legal(b.state, 0)
    assert options and options[0] == battle.battle_default(b.state, 0)
    default = options[0]
    assert isinstance(default, Deploy)
    lines = {tuple(s.cards): s.line for s in default.stacks}
    assert lines[tuple(orcs)] == "ranged"
    assert lines[tuple(golems)] == "melee"
    for option in options:
        probe = Builder()
        probe.state = b.state.model_copy(deep=True)
        battle.apply_battle_command(probe.state, 0, option)


# ------------------------------------------------------------- phases and rounds
@pytest.mark.rule("homm4:battles.phases-and-rounds")
def test_each_phase_attacker_first_then_defender() -> None:
    b = Builder()
    a_bandit = b.card("bandit", 0)  # Phase 3
    a_orc = b.card("orc", 0)  # Phase 6
    a_golem = b.card("golden_golem", 0)  # Phase 7
    d_pike = b.card("pikeman", 1)  # Phase 2
    d_cerberus = b.card("cerberus", 1)  # Phase 3
    d_troll = b.card("troll", 1)  # Phase 8
    fight(
        b,
        [([a_bandit], "melee"), ([a_orc], "melee"), ([a_golem], "melee")],
        [([d_pike], "melee"), ([d_cerberus], "melee"), ([d_troll], "melee")],
    )
    order = []
    for _ in range(6):
        assert b.state.battle is not None
        (decision,) = battle.battle_pending(b.state)
        (cr,) = battle.due_creatures(b.state)
        order.append((decision.seat, b.state.battle.phase, cr.cards[0]))
        act(b, Defend(creature=cr.id))
    assert order == [
        (1, 2, d_pike),
        (0, 3, a_bandit),
        (1, 3, d_cerberus),
        (0, 6, a_orc),
        (0, 7, a_golem),
        (1, 8, d_troll),
    ]
    assert b.state.battle is not None and b.state.battle.round == 2
    assert b.state.battle.phase == 2


@pytest.mark.rule("homm4:battles.phases-and-rounds")
def test_a_creature_acts_only_in_its_phase_and_once_per_round() -> None:
    b = Builder()
    bandit = b.card("bandit", 0)
    orc = b.card("orc", 0)
    golem = b.card("golden_golem", 1)
    fight(b, [([bandit], "melee"), ([orc], "melee")], [([golem], "melee")])
    with pytest.raises(IllegalMove, match="acts in Phase 6"):
        act(b, Attack(creature=cid(b, orc), mode="ranged", targets=(cid(b, golem),)))
    with pytest.raises(IllegalMove, match="is not yours"):
        act(b, Defend(creature=cid(b, golem)))
    with pytest.raises(WrongPhase):
        act(b, Counterattack(strike=True))
    act(b, Defend(creature=cid(b, bandit)))
    with pytest.raises(IllegalMove, match="already acted"):
        act(b, Defend(creature=cid(b, bandit)))


@pytest.mark.rule("homm4:battles.phases-and-rounds")
def test_the_attacking_seat_chooses_the_order_within_a_phase() -> None:
    b = Builder()
    first = b.card("bandit", 0)
    second = b.card("bandit", 0)
    golem = b.card("golden_golem", 1)
    fight(b, [([first], "melee"), ([second], "melee")], [([golem], "melee")])
    assert {c.id for c in battle.due_creatures(b.state)} == {cid(b, first), cid(b, second)}
    act(b, Defend(creature=cid(b, second)))
    assert [c.id for c in battle.due_creatures(b.state)] == [cid(b, first)]


# ------------------------------------------------------------ special attacks
@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_multi_target_attack_rolls_once_per_stack() -> None:
    b = Builder()
    cerberus = b.card("cerberus", 0)
    bandit = b.card("bandit", 1)
    pike = b.card("pikeman", 1)
    fight(b, [([cerberus], "melee")], [([bandit], "melee"), ([pike], "melee")])
    act(b, Defend(creature=cid(b, pike)))  # Phase 2
    assert Attack(
        creature=cid(b, cerberus), mode="melee", targets=(cid(b, bandit), cid(b, pike))
    ) in (battle.battle_legal(b.state, 0))
    set_rolls(b.state, [1, 2])
    events, outcome = act(
        b, Attack(creature=cid(b, cerberus), mode="melee", targets=(cid(b, bandit), cid(b, pike)))
    )
    rolls = [e.data["result"] for e in events if e.kind == "die_roll"]
    assert rolls == [1, 2]
    killed = [e.data["killed"] for e in events if e.kind == "battle_attack"]
    assert killed == [[bandit], [pike]]  # 3+1 vs 2; 3+2 vs the defending Pikeman's 4
    assert outcome is not None and outcome.winner == 0


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_multi_target_limit() -> None:
    b = Builder()
    bandit = b.card("bandit", 0)
    enemies = [b.card("pikeman", 1), b.card("golden_golem", 1)]
    fight(b, [([bandit], "melee")], [([e], "melee") for e in enemies])
    act(b, Defend(creature=cid(b, enemies[0])))
    with pytest.raises(IllegalMove, match="only one Creature"):
        act(
            b,
            Attack(
                creature=cid(b, bandit), mode="melee", targets=tuple(cid(b, e) for e in enemies)
            ),
        )


@pytest.mark.rule("homm4:battles.making-a-melee-attack")
def test_strikes_twice_makes_two_attacks_in_its_phase() -> None:
    b = Builder()
    wolf = b.card("wolf", 0)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [([wolf], "melee")], [(golems, "melee")])
    g = cid(b, golems[0])
    set_rolls(b.state, [5])  # 2 + 5 = 7: first Golem
    act(b, Attack(creature=cid(b, wolf), mode="melee", targets=(g,)))
    act(b, Counterattack(strike=False))
    assert b.state.battle is not None and b.state.battle.acting == cid(b, wolf)
    with pytest.raises(IllegalMove, match="second attack"):
        act(b, Defend(creature=cid(b, wolf)))
    set_rolls(b.state, [5])
    events, _ = act(b, Attack(creature=cid(b, wolf), mode="melee", targets=(g,)))
    assert [e.data["killed"] for e in events if e.kind == "battle_attack"] == [[golems[1]]]
    # the Golems did not strike back the first time: they may now
    assert b.state.battle.stage == "counter"
    act(b, Counterattack(strike=False))
    assert b.state.battle.acting is None
    assert b.state.battle.phase == 7 and b.state.battle.to_act == 1


@pytest.mark.rule("homm4:battles.making-a-ranged-attack")
def test_shoots_twice_makes_two_ranged_attacks() -> None:
    b = Builder()
    elf = b.card("elf", 0)
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [([elf], "melee")], [(golems, "melee")])
    g = cid(b, golems[0])
    set_rolls(b.state, [4, 4])  # 3 + 4 = 7 twice
    act(b, Attack(creature=cid(b, elf), mode="ranged", targets=(g,)))
    events, _ = act(b, Attack(creature=cid(b, elf), mode="ranged", targets=(g,)))
    assert battle.creature(b.state, g).cards == [golems[2]]
    assert texts(events)


# -------------------------------------------------------------- heroes in battle
@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.heroes-in-battle")
def test_hero_support_value_is_its_level() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    b.skill(knight, "tactics")  # Advanced Tactics: level 2
    troll = b.card("troll", 0)
    golem = b.card("golden_golem", 1)
    fight(b, [([knight], "melee"), ([troll], "melee")], [([golem], "melee")])
    events, _ = act(b, SupportCreature(creature=cid(b, knight), target=cid(b, troll)))
    assert [e.data["value"] for e in events if e.kind == "battle_support"] == [2]


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes")
def test_army_bonus_from_the_best_hero_only() -> None:
    b = Builder()
    knight = b.card("knight", 0)  # printed Defense: +1 at Basic Tactics
    other = b.card("knight", 0)
    b.skill(other, "tactics")  # Advanced Tactics: Defense +2
    golem = b.card("golden_golem", 0)
    troll = b.card("troll", 1)
    fight(b, [([knight], "melee"), ([other], "melee"), ([golem], "melee")], [([troll], "melee")])
    g = battle.creature(b.state, cid(b, golem))
    assert battle.card_defense(b.state, g, golem) == 7 + 2
    # the enemy gets no bonus from our heroes
    t = battle.creature(b.state, cid(b, troll))
    assert battle.card_defense(b.state, t, troll) == 13


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.casting-spells")
def test_hero_casts_an_attack_spell_within_its_mana() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    b.skill(sorcerer, "sorcery")  # 20 Mana, spell power +1, level 2
    arrow = b.spell(sorcerer, "magic_arrow")
    golems = b.cards("golden_golem", 1, 3)
    fight(b, [([sorcerer], "melee")], [(golems, "melee")])
    s = cid(b, sorcerer)
    set_rolls(b.state, [1])
    events, _ = act(b, CastSpell(creature=s, spell=arrow, targets=(cid(b, golems[0]),)))
    data = next(e.data for e in events if e.kind == "battle_attack")
    # power 3 + level 2 + spell power 1 = 6; + 1 = 7 vs 7
    assert (data["attack_value"], data["total"], data["killed"]) == (6, 7, [golems[0]])
    assert b.state.battle is not None and b.state.battle.stage == "fight"  # never countered
    assert arrow in b.state.limbo and arrow not in b.state.inventories[sorcerer].spells
    assert heroes.mana_left(b.state, sorcerer) == 18
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.mana")
def test_casting_is_refused_without_mana_or_knowledge_or_rank() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    arrow = b.spell(sorcerer, "magic_arrow")
    fireball = b.spell(sorcerer, "fireball")
    loose = b.card("magic_arrow", 0)
    golem = b.card("golden_golem", 1)
    fight(b, [([sorcerer], "melee")], [([golem], "melee")])
    s = cid(b, sorcerer)
    with pytest.raises(IllegalMove, match="does not know"):
        act(b, CastSpell(creature=s, spell=loose, targets=(cid(b, golem),)))
    with pytest.raises(IllegalMove, match="needs Expert Chaos"):
        act(b, CastSpell(creature=s, spell=fireball))
    b.state.inventories[sorcerer].mana_spent = 9  # 1 Mana left of 10
    with pytest.raises(IllegalMove, match="costs 2 Mana"):
        act(b, CastSpell(creature=s, spell=arrow, targets=(cid(b, golem),)))
    assert not [c for c in battle.battle_legal(b.state, 0) if isinstance(c, CastSpell)]


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.casting-spells")
def test_stat_spell_lasts_the_battle_and_spell_returns_to_the_caster() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    lust = b.spell(sorcerer, "bloodlust")
    troll = b.card("troll", 0)
    bandit = b.card("bandit", 1)
    fight(b, [([sorcerer], "melee"), ([troll], "melee")], [([bandit], "melee")])
    act(b, Defend(creature=cid(b, bandit)))  # Phase 3
    act(b, CastSpell(creature=cid(b, sorcerer), spell=lust, targets=(cid(b, troll),)))  # Phase 4
    t = battle.creature(b.state, cid(b, troll))
    assert battle.melee_value(b.state, t) == 5 + 2
    # the same spell may be cast again in the same battle (next Round)
    act(b, Group(creature=cid(b, troll)))
    act(b, Defend(creature=cid(b, bandit)))
    assert any(
        isinstance(c, CastSpell) and c.spell == lust for c in battle.battle_legal(b.state, 0)
    )
    act(b, CastSpell(creature=cid(b, sorcerer), spell=lust, targets=(cid(b, troll),)))
    assert battle.melee_value(b.state, t) == 5 + 4
    assert heroes.mana_left(b.state, sorcerer) == 6
    set_rolls(b.state, [1])
    _, outcome = act(b, Attack(creature=t.id, mode="melee", targets=(cid(b, bandit),)))
    assert outcome is not None and outcome.winner == 0
    assert outcome.winner_heroes == (sorcerer,)
    assert lust in b.state.inventories[sorcerer].spells and lust not in b.state.limbo
    assert b.state.inventories[sorcerer].mana_spent == 0


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.casting-spells")
def test_a_dead_casters_spells_are_discarded() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    lust = b.spell(sorcerer, "bloodlust")
    skill = b.skill(sorcerer, "sorcery")
    bandit = b.card("bandit", 0)
    troll = b.card("troll", 1)
    fight(b, [([sorcerer], "melee"), ([bandit], "melee")], [([troll], "melee")])
    act(b, Defend(creature=cid(b, bandit)))
    act(b, CastSpell(creature=cid(b, sorcerer), spell=lust, targets=(cid(b, bandit),)))
    set_rolls(b.state, [10])  # the Troll kills the Sorcerer (Phase 8)
    _, _ = act(b, Attack(creature=cid(b, troll), mode="melee", targets=(cid(b, sorcerer),)))
    act(
        b, Counterattack(strike=False)
    ) if b.state.battle and b.state.battle.stage == "counter" else None
    discard = b.state.players_state[0].discard
    assert sorcerer in discard and skill in discard
    assert lust in b.state.limbo  # until the battle ends
    set_rolls(b.state, [10, 10])
    while b.state.battle is not None:
        (d,) = battle.battle_pending(b.state)
        battle.apply_battle_command(b.state, d.seat, battle.battle_default(b.state, d.seat))
    assert lust in discard and lust not in b.state.limbo
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.casting-spells")
def test_resurrect_spell_brings_back_killed_cards_of_the_stack_type() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    b.skill(knight, "life_magic")
    raise_ = b.spell(knight, "resurrection")
    golems = b.cards("golden_golem", 0, 3)
    bandit = b.card("bandit", 1)
    fight(b, [([knight], "melee"), (golems, "melee")], [([bandit], "melee")])
    set_rolls(b.state, [10])
    act(b, Attack(creature=cid(b, bandit), mode="melee", targets=(cid(b, golems[0]),)))  # Phase 3
    act(b, Counterattack(strike=False))
    assert golems[0] in b.state.players_state[0].discard
    g = cid(b, golems[1])
    act(b, CastSpell(creature=cid(b, knight), spell=raise_, targets=(g,)))  # Phase 5
    assert battle.creature(b.state, g).cards == [golems[1], golems[2], golems[0]]
    assert golems[0] in b.state.armies[0].cards
    assert set(zone_count(b.state).values()) == {1}


@pytest.mark.rule("homm4:battles.defense")
def test_battle_view_shows_current_values_and_card_orientations() -> None:
    b = Builder()
    golems = b.cards("golden_golem", 0, 3)
    troll = b.card("troll", 0)
    pike = b.card("pikeman", 0)
    bandit = b.card("bandit", 1)
    fight(b, [(golems, "melee"), ([troll], "melee"), ([pike], "melee")], [([bandit], "melee")])
    act(b, Defend(creature=cid(b, pike)))  # Phase 2
    act(b, Group(creature=cid(b, bandit)))  # Phase 3
    act(b, SupportCreature(creature=cid(b, golems[0]), target=cid(b, troll)))  # Phase 7
    view = battle.battle_view(b.state)
    assert view is not None
    by_id = {c.id: c for c in view.creatures}
    g = by_id[cid(b, golems[0])]
    assert (g.melee, g.ranged, g.defense, g.phase, g.acted) == (7, 0, 7, 7, True)
    assert [c.id for c in g.cards] == golems
    p = by_id[cid(b, pike)]
    assert p.defending and p.defense == 3 + 1
    assert by_id[cid(b, bandit)].grouped
    assert by_id[cid(b, troll)].support == 6
    assert (view.round, view.phase, view.stage, view.walls, view.town) == (
        1,
        8,
        "fight",
        "none",
        None,
    )
    assert battle.battle_view(Builder().state) is None
