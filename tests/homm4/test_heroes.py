"""Hero level, Skill order, effects, Mana and Spells (homm4:heroes-levels-skills-and-spells)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.homm4 import heroes
from engine.homm4.cards import CardPool, EffectKind, PrimarySkill
from tests.homm4.battle_fixtures import Builder, small_pool, zone_count

__all__ = ["small_pool"]

pytestmark = pytest.mark.usefixtures("small_pool")


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_new_hero_is_level_1() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    assert heroes.hero_level(b.state, knight) == 1
    assert heroes.primary_ranks(b.state, knight) == {PrimarySkill.TACTICS: 1}
    assert heroes.secondary_skills(b.state, knight) == ["defense_skill"]


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_knight_plays_advanced_tactics_and_is_level_2() -> None:
    # The rulebook's Knight: basic Tactics + Defense printed; an Advanced Tactics card
    # counts +2 and -1 for matching the starting skill: level 2.
    b = Builder()
    knight = b.card("knight", 0)
    b.army(0, (0, 0), [knight])
    tactics = b.hand(0, "tactics")[0]
    assert heroes.skill_choices(b.state, knight, [tactics]) == [tactics]
    b.state.players_state[0].hand.remove(tactics)
    events = heroes.add_skill(b.state, knight, tactics)
    assert heroes.hero_level(b.state, knight) == 2
    assert heroes.primary_rank(b.state, knight, PrimarySkill.TACTICS) == 2
    assert "Advanced Tactics" in events[0].text
    assert events[0].data["level"] == 2


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_level_table_each_step_is_one_level() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    b.army(0, (0, 0), [knight])
    # a new primary at Basic: +1
    chaos = b.card("chaos_magic", 0)
    heroes.add_skill(b.state, knight, chaos)
    assert heroes.hero_level(b.state, knight) == 2
    # turning that card over to Advanced: +2 in all
    heroes.add_skill(b.state, knight, chaos)
    assert heroes.card_rank(b.state, knight, chaos) == 2
    assert heroes.hero_level(b.state, knight) == 3
    # a secondary of a primary the hero has: +1
    sorcery = b.card("sorcery", 0)
    heroes.add_skill(b.state, knight, sorcery)
    assert heroes.hero_level(b.state, knight) == 4
    # Expert replaces the B/A card (discarded): +3 instead of +2
    expert = b.card("chaos_magic_expert", 0)
    heroes.add_skill(b.state, knight, expert)
    assert heroes.hero_level(b.state, knight) == 5
    assert chaos in b.state.players_state[0].discard
    assert chaos not in b.state.inventories[knight].skills
    assert set(zone_count(b.state).values()) <= {1}


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.hero-level")
def test_skills_are_played_in_a_set_order() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    expert = b.card("tactics_expert", 0)
    sorcery = b.card("sorcery", 0)
    defense = b.card("defense_skill", 0)
    offense = b.card("offense", 0)
    chaos = b.card("chaos_magic", 0)
    # Expert Tactics needs Advanced first
    assert "needs Advanced Tactics" in (heroes.skill_problem(b.state, knight, expert) or "")
    # Sorcery needs Chaos Magic
    problem = heroes.skill_problem(b.state, knight, sorcery) or ""
    assert "Secondary Skill of Chaos Magic" in problem
    assert "Sorcery" not in problem  # a Hand card is never named
    # Defense is already printed on the Knight
    assert "already has the Secondary Skill" in (
        heroes.skill_problem(b.state, knight, defense) or ""
    )
    assert heroes.skill_choices(b.state, knight, [expert, sorcery, defense, offense, chaos]) == [
        offense,
        chaos,
    ]
    with pytest.raises(IllegalMove, match="needs Advanced Tactics"):
        heroes.add_skill(b.state, knight, expert)
    heroes.add_skill(b.state, knight, chaos)
    # a second Basic/Advanced Chaos card is refused: turn the one held instead
    other = b.card("chaos_magic", 0)
    assert "turn over its card" in (heroes.skill_problem(b.state, knight, other) or "")
    assert heroes.skill_choices(b.state, knight, [other]) == [chaos]


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes")
def test_army_bonuses_do_not_stack_between_heroes() -> None:
    b = Builder()
    knight = b.card("knight", 0)  # printed Defense at Basic Tactics: +1
    other = b.card("knight", 0)
    b.skill(other, "tactics")  # Advanced Tactics: Defense now +2
    assert heroes.hero_effect(b.state, knight, EffectKind.ARMY_DEFENSE) == 1
    assert heroes.hero_effect(b.state, other, EffectKind.ARMY_DEFENSE) == 2
    golems = b.cards("golden_golem", 0, 2)
    # the higher bonus only: 2, not 1 + 2
    assert heroes.army_effect(b.state, [knight, other, *golems], "army_defense") == 2
    assert heroes.army_effect(b.state, golems, EffectKind.ARMY_DEFENSE) == 0


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.mana")
def test_mana_basic_chaos_plus_sorcery_is_20_and_ten_casts() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    b.army(0, (0, 0), [sorcerer])
    b.skill(sorcerer, "sorcery")
    arrow = b.spell(sorcerer, "magic_arrow")
    assert heroes.max_mana(b.state, sorcerer) == 20
    casts = 0
    while heroes.castable_spells(b.state, sorcerer):
        b.state.inventories[sorcerer].mana_spent += 2
        casts += 1
    assert casts == 10
    assert heroes.castable_spells(b.state, sorcerer) == []
    assert heroes.mana_left(b.state, sorcerer) == 0
    assert arrow in heroes.known_spells(b.state, sorcerer)


@pytest.mark.rule("homm4:purchase-phase")
def test_level_4_town_doubles_the_standard_mana_pool_not_artifacts() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    b.army(0, (0, 0), [sorcerer])
    b.artifact(sorcerer, "mana_pendant", ["neck"])
    town = b.town(0, (3, 0), level=3)
    assert heroes.max_mana(b.state, sorcerer) == 10 + 5
    town.level = 4
    assert heroes.mana_multiplier(b.state, 0) == 2
    assert heroes.max_mana(b.state, sorcerer) == 10 * 2 + 5
    assert heroes.mana_multiplier(b.state, 1) == 1


@pytest.mark.rule("homm4:card-types.spell-cards")
def test_level_3_chaos_spell_needs_expert_chaos_magic() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    b.army(0, (0, 0), [sorcerer])
    fireball = b.spell(sorcerer, "fireball")
    assert heroes.spell_level(b.state, sorcerer, heroes.School.CHAOS) == 1
    assert not heroes.can_learn_spell(b.state, sorcerer, fireball)
    assert fireball not in heroes.castable_spells(b.state, sorcerer)
    spell = heroes.zones.card(b.state, fireball)
    assert isinstance(spell, heroes.SpellCard)
    problem = heroes.spell_problem(b.state, sorcerer, spell) or ""
    assert "needs Expert Chaos" in problem and "Fireball" not in problem
    # Advanced (the starting primary's B/A card) allows level 2 only
    b.skill(sorcerer, "chaos_magic")
    assert heroes.spell_level(b.state, sorcerer, heroes.School.CHAOS) == 2
    assert not heroes.can_learn_spell(b.state, sorcerer, fireball)
    expert = b.card("chaos_magic_expert", 0)
    heroes.add_skill(b.state, sorcerer, expert)
    assert heroes.spell_level(b.state, sorcerer, heroes.School.CHAOS) == 3
    assert heroes.can_learn_spell(b.state, sorcerer, fireball)
    assert fireball in heroes.castable_spells(b.state, sorcerer)
    # a hero without Life Magic cannot use Life spells at all
    assert heroes.spell_level(b.state, sorcerer, heroes.School.LIFE) == 0


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.heroes-and-artifacts")
def test_hero_stats_with_skills_and_artifacts(small_pool: CardPool) -> None:
    b = Builder()
    barbarian = b.card("barbarian", 0)
    # printed Basic Combat: +1 melee, +1 defense; the sword +2 melee
    assert heroes.hero_melee(b.state, barbarian) == 4 + 1
    b.artifact(barbarian, "sword_of_might", ["right_hand"])
    assert heroes.hero_melee(b.state, barbarian) == 4 + 1 + 2
    assert heroes.hero_defense(b.state, barbarian) == 4 + 1
    # ranged 0 stays 0 whatever the bonus
    assert heroes.hero_ranged(b.state, barbarian) == 0
    sorcerer = b.card("sorcerer", 0)
    b.skill(sorcerer, "sorcery")
    assert heroes.hero_ranged(b.state, sorcerer) == 1
    assert heroes.spell_power(b.state, sorcerer) == 1


@pytest.mark.rule("homm4:movement-phase.scouting-terrain")
def test_movement_and_sight_bonuses_of_heroes() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    scout = b.skill(knight, "scouting")
    golem = b.card("golden_golem", 0)
    assert heroes.card_rank(b.state, knight, scout) == 1
    assert heroes.army_movement_bonus(b.state, [knight, golem]) == 1
    assert heroes.army_movement_bonus(b.state, [golem, knight]) == 0  # not on top
    assert heroes.army_sight_bonus(b.state, [golem, knight]) == 1
    assert heroes.army_sight_bonus(b.state, [golem]) == 0


@pytest.mark.rule("homm4:battles.hero-retreat")
def test_retreat_anywhere_and_recover_from_artifacts() -> None:
    b = Builder()
    knight = b.card("knight", 0)
    golem = b.card("golden_golem", 0)
    assert not heroes.retreat_anywhere(b.state, [knight, golem])
    assert heroes.recover(b.state, [knight, golem]) == 0
    b.artifact(knight, "boots_of_retreat", ["feet"])
    assert heroes.retreat_anywhere(b.state, [knight, golem])
    assert heroes.recover(b.state, [knight, golem]) == 1


@pytest.mark.rule("homm4:heroes-levels-skills-and-spells.casting-spells")
def test_discard_hero_discards_the_inventory_too() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 1)
    skill = b.skill(sorcerer, "sorcery")
    spell = b.spell(sorcerer, "magic_arrow")
    art = b.artifact(sorcerer, "mana_pendant", ["neck"])
    gone = heroes.discard_hero(b.state, sorcerer)
    assert gone == [skill, spell, art, sorcerer]
    assert b.state.players_state[1].discard == gone
    assert sorcerer not in b.state.inventories


@pytest.mark.rule("homm4:card-types.object-cards")
def test_objects_of_the_heroes_seat_add_to_hero_stats_and_mana() -> None:
    b = Builder()
    sorcerer = b.card("sorcerer", 0)
    b.army(0, (0, 0), [sorcerer])
    pit = b.card("ore_pit", 0)
    mine = b.card("crystal_mine", 0)
    b.site("object", (2, 0), card=pit, owner=0)
    b.site("object", (3, 0), card=mine, owner=1)
    assert heroes.hero_melee(b.state, sorcerer) == 1 + 1
    assert heroes.max_mana(b.state, sorcerer) == 10
    assert heroes.spell_power(b.state, sorcerer) == 0
    b.state.sites[1].owner = 0
    assert heroes.max_mana(b.state, sorcerer) == 10 + 5
    assert heroes.spell_power(b.state, sorcerer) == 1
    # hero_effect stays the hero's own (Skills and Artifacts)
    assert heroes.hero_effect(b.state, sorcerer, EffectKind.MANA) == 10
