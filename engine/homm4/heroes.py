"""Heroes: level, Skill ranks, skill order, effects of skills and artifacts, Mana and Spells.

Rule sections: homm4:heroes-levels-skills-and-spells (and its sub-sections),
homm4:card-types.skill-cards, homm4:card-types.spell-cards, homm4:purchase-phase (a Town's
level-4 bonus doubles "the standard Mana pool").

How a hero's Skills are read (the inventory holds Skill card instances, top of the list
first played):

* The starting Primary Skill printed on the Hero card is at Basic without any card; the
  starting Secondary Skill printed on it works without a card too.
* A Basic/Advanced Primary Skill card shows Advanced when it is listed in
  ``Inventory.advanced`` ("turned over") or when it is the hero's starting primary (the
  printed skill already is the Basic step, so that card can only be the Advanced step).
* Expert, Master and Grand Master cards replace the previous card of the same Skill, which
  is discarded: a hero holds at most one card per Primary Skill.
* Each step of a Skill is worth one level: level = 1 + 1 per Secondary Skill card + the
  rank of each Primary Skill card - 1 for the card of the starting primary.

Effects: a `SkillEffect` takes the value at the rank of the governing Primary Skill (the
card's own Skill for a primary; the required primary for a secondary). Artifacts give fixed
`Effect` values. ``army_*`` bonuses never stack between heroes: an army gets the highest
single hero's value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from engine.core.errors import IllegalMove
from engine.core.model import Event
from engine.homm4 import lands, zones
from engine.homm4.cards import (
    ArtifactCard,
    EffectKind,
    HeroCard,
    ObjectCard,
    PrimarySkill,
    Rank,
    School,
    SkillCard,
    SpellCard,
    TownCard,
)
from engine.homm4.hexes import Hex
from engine.homm4.state import Homm4State, Inventory

RANK_NAMES: dict[int, str] = {
    Rank.BASIC: "Basic",
    Rank.ADVANCED: "Advanced",
    Rank.EXPERT: "Expert",
    Rank.MASTER: "Master",
    Rank.GRAND_MASTER: "Grand Master",
}
"""Display names of the five Skill ranks."""

ARMY_KINDS: frozenset[EffectKind] = frozenset(
    {EffectKind.ARMY_MELEE, EffectKind.ARMY_RANGED, EffectKind.ARMY_DEFENSE}
)
"""Effect kinds that benefit a hero's whole Army (highest single hero only)."""


# ------------------------------------------------------------------ lookups
def hero_card(state: Homm4State, hero: int) -> HeroCard:
    """Return the Hero card of instance ``hero``.

    :raises IllegalMove: if ``hero`` is not a Hero card (the message names only ``#N``:
        the number may be a card hidden in a Hand).

    Rule: homm4:card-types.hero-cards.
    """
    found = zones.card(state, hero)
    if not isinstance(found, HeroCard):
        raise IllegalMove(f"Card #{hero} is not a Hero.")
    return found


def inventory(state: Homm4State, hero: int) -> Inventory:
    """Return ``hero``'s inventory (an empty, unattached one if it has none yet).

    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    return state.inventories.get(hero) or Inventory()


def ensure_inventory(state: Homm4State, hero: int) -> Inventory:
    """Return ``hero``'s inventory, creating and attaching an empty one if needed.

    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    if hero not in state.inventories:
        state.inventories[hero] = Inventory()
    return state.inventories[hero]


def _skill(state: Homm4State, instance: int) -> SkillCard:
    found = zones.card(state, instance)
    if not isinstance(found, SkillCard):
        raise IllegalMove(f"Card #{instance} is not a Skill card.")
    return found


@cache
def reference_primary_card(primary: PrimarySkill) -> SkillCard | None:
    """Return the pool's Basic/Advanced card of ``primary`` (lowest id), or None.

    Its effects give the printed starting primary its values when the hero holds no card
    of that Skill (homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes).
    Cached: the pool (`zones.pool`) is loaded once per process and never changes, and
    every hero's skill effects ask for this card (issue 17).
    """
    candidates = sorted(
        (c for c in zones.pool().cards.values() if isinstance(c, SkillCard)),
        key=lambda c: c.id,
    )
    for candidate in candidates:
        if candidate.primary is primary and not candidate.secondary and candidate.ranks == (1, 2):
            return candidate
    return None


def hero_seat(state: Homm4State, hero: int) -> int:
    """Return the seat that controls ``hero``: its Army's owner, its garrison Town's owner,
    else the seat whose deck it came from.
    Rule: homm4:heroes-levels-skills-and-spells.
    """
    found = zones.find_hero_army(state, hero)
    if found is not None:
        return found.owner
    for site in state.sites:
        if hero in site.garrison and site.owner is not None:
            return site.owner
    return state.card_owner[hero]


# ------------------------------------------------------------------- skills
def card_rank(state: Homm4State, hero: int, instance: int) -> int:
    """Return the rank (1-5) a Primary Skill card in ``hero``'s inventory shows.

    A Basic/Advanced card shows Advanced (2) when turned over or when it is the hero's
    starting primary; Expert/Master/Grand Master cards show their own rank.

    :raises IllegalMove: if ``instance`` is a Secondary Skill card or not a Skill card.
    Rule: homm4:card-types.skill-cards.
    """
    skill = _skill(state, instance)
    if skill.secondary:
        raise IllegalMove(f"{zones.name(state, instance)} is a Secondary Skill; it has no rank.")
    if skill.ranks != (1, 2):
        return skill.ranks[0]
    starting = hero_card(state, hero).starting_primary
    if instance in inventory(state, hero).advanced or skill.primary is starting:
        return int(Rank.ADVANCED)
    return int(Rank.BASIC)


def primary_cards(state: Homm4State, hero: int) -> dict[PrimarySkill, int]:
    """Return Primary Skill -> the instance of the card ``hero`` holds for it (highest rank).

    Rule: homm4:card-types.skill-cards.
    """
    held: dict[PrimarySkill, int] = {}
    for instance in inventory(state, hero).skills:
        skill = _skill(state, instance)
        if skill.secondary:
            continue
        current = held.get(skill.primary)
        if current is None or card_rank(state, hero, instance) > card_rank(state, hero, current):
            held[skill.primary] = instance
    return held


def primary_ranks(state: Homm4State, hero: int) -> dict[PrimarySkill, int]:
    """Return Primary Skill -> rank (1 Basic .. 5 Grand Master) for every primary ``hero`` has.

    The starting primary is Basic without a card (homm4:...starting-skills-of-heroes).
    """
    ranks: dict[PrimarySkill, int] = {hero_card(state, hero).starting_primary: int(Rank.BASIC)}
    for primary, instance in primary_cards(state, hero).items():
        ranks[primary] = max(ranks.get(primary, 0), card_rank(state, hero, instance))
    return ranks


def primary_rank(state: Homm4State, hero: int, primary: PrimarySkill) -> int:
    """Return ``hero``'s rank in ``primary`` (0 when it lacks the Skill).

    Rule: homm4:card-types.skill-cards.
    """
    return primary_ranks(state, hero).get(primary, 0)


def secondary_skills(state: Homm4State, hero: int) -> list[str]:
    """Return the card ids of ``hero``'s Secondary Skills: the printed starting one first,
    then the inventory's in the order played.
    Rule: homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes.
    """
    found: list[str] = []
    start = hero_card(state, hero).starting_secondary
    if start is not None:
        found.append(start)
    for instance in inventory(state, hero).skills:
        skill = _skill(state, instance)
        if skill.secondary and skill.id not in found:
            found.append(skill.id)
    return found


def hero_level(state: Homm4State, hero: int) -> int:
    """Return ``hero``'s level from its inventory (homm4:heroes-levels-skills-and-spells.hero-level).

    Counting from 1: each Secondary Skill card +1; each Primary Skill card + its rank
    (Basic 1 .. Grand Master 5); -1 for the card of the hero's starting primary. E.g. a
    Knight (Tactics, Defense printed) who plays Advanced Tactics is level 1 + 2 - 1 = 2.
    """
    starting = hero_card(state, hero).starting_primary
    level = 1
    for instance in inventory(state, hero).skills:
        skill = _skill(state, instance)
        if skill.secondary:
            level += 1
            continue
        level += card_rank(state, hero, instance)
        if skill.primary is starting:
            level -= 1
    return level


def describe_skill(state: Homm4State, hero: int, instance: int) -> str:
    """Return ``"Advanced Tactics"`` / ``"Defense"``: the face a Skill card shows for ``hero``.

    Rule: homm4:card-types.skill-cards.
    """
    skill = _skill(state, instance)
    if skill.secondary:
        return skill.name
    return f"{RANK_NAMES[card_rank(state, hero, instance)]} {primary_name(skill.primary)}"


def primary_name(primary: PrimarySkill) -> str:
    """Return the display name of a Primary Skill (``chaos_magic`` -> ``"Chaos Magic"``).

    Rule: homm4:card-types.skill-cards.
    """
    return primary.value.replace("_", " ").title()


def skill_problem(state: Homm4State, hero: int, instance: int) -> str | None:
    """Say why ``hero`` may not learn Skill card ``instance`` now, or None if it may.

    Skills are played in a set order (homm4:heroes-levels-skills-and-spells.hero-level):

    * a Basic/Advanced card of a Primary Skill the hero lacks: learnt at Basic;
    * a Basic/Advanced card of the hero's starting primary while it is Basic (printed
      only): played Advanced side up;
    * the hero's own Basic/Advanced card still at Basic (``instance`` already in its
      inventory): turned over to Advanced;
    * an Expert / Master / Grand Master card of a Skill the hero has at the rank just below;
    * a Secondary Skill card whose Primary Skill the hero has and which it does not have yet.

    The instance must otherwise come from the owner's Hand or Risk Stack (the caller checks).
    Messages never name a card that may be hidden (only ``#N``), per the privacy rule.
    """
    found = zones.card(state, instance)
    if not isinstance(found, SkillCard):
        return f"Card #{instance} is not a Skill card."
    hero_name = zones.name(state, hero)
    ranks = primary_ranks(state, hero)
    have = ranks.get(found.primary, 0)
    skill_name = primary_name(found.primary)
    if instance in inventory(state, hero).skills:
        if found.secondary or found.ranks != (1, 2) or card_rank(state, hero, instance) != 1:
            return f"{zones.name(state, instance)} is already in {hero_name}'s inventory."
        return None
    if found.secondary:
        if have == 0:
            return (
                f"Card #{instance} is a Secondary Skill of {skill_name}, a Primary Skill "
                f"{hero_name} lacks."
            )
        if found.id in secondary_skills(state, hero):
            return f"{hero_name} already has the Secondary Skill of card #{instance}."
        return None
    if found.ranks == (1, 2):
        if have == 0:
            return None
        if have == 1 and found.primary is hero_card(state, hero).starting_primary:
            return None
        if have == 1:
            held = primary_cards(state, hero)[found.primary]
            return (
                f"{hero_name} already has Basic {skill_name}: turn over its card "
                f"{zones.name(state, held)} (learn card #{held}) to reach Advanced."
            )
        return f"{hero_name} already has {RANK_NAMES[have]} {skill_name}."
    wanted = found.ranks[0]
    if have != wanted - 1:
        now = RANK_NAMES[have] if have else "no"
        return (
            f"Card #{instance} is {RANK_NAMES[wanted]} {skill_name}, which needs "
            f"{RANK_NAMES[wanted - 1]} {skill_name} first; {hero_name} has {now} {skill_name}."
        )
    return None


def skill_choices(state: Homm4State, hero: int, candidates: Iterable[int]) -> list[int]:
    """Return the Skill cards ``hero`` may learn now: those of ``candidates`` (e.g. the
    owner's Hand and Risk Stack) that pass `skill_problem`, followed by its own Basic card
    that may be turned over to Advanced. Order: as given, then inventory order.
    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    pool_choices = [c for c in candidates if skill_problem(state, hero, c) is None]
    turnable = [
        c
        for c in inventory(state, hero).skills
        if c not in pool_choices and skill_problem(state, hero, c) is None
    ]
    return pool_choices + turnable


def add_skill(state: Homm4State, hero: int, instance: int) -> list[Event]:
    """Play Skill card ``instance`` into ``hero``'s inventory (or turn over its own card).

    The caller has already removed ``instance`` from Hand / Risk Stack (unless it is the
    hero's own card being turned). Expert/Master/Grand Master cards replace the previous
    card of that Skill, which goes to its owner's discard pile.
    Rule: homm4:heroes-levels-skills-and-spells.hero-level.

    :raises IllegalMove: if `skill_problem` refuses the card (nothing is changed).
    """
    problem = skill_problem(state, hero, instance)
    if problem is not None:
        raise IllegalMove(problem)
    skill = _skill(state, instance)
    inv = ensure_inventory(state, hero)
    replaced: int | None = None
    if instance in inv.skills:
        inv.advanced.append(instance)
    else:
        if not skill.secondary:
            replaced = primary_cards(state, hero).get(skill.primary)
            if skill.ranks == (1, 2) and skill.primary is hero_card(state, hero).starting_primary:
                inv.advanced.append(instance)
        if replaced is not None:
            inv.skills.remove(replaced)
            if replaced in inv.advanced:
                inv.advanced.remove(replaced)
            zones.to_discard(state, replaced)
        inv.skills.append(instance)
    text = (
        f"{zones.name(state, hero)} learns {describe_skill(state, hero, instance)} "
        f"and is now level {hero_level(state, hero)}."
    )
    data: dict[str, object] = {
        "hero": hero,
        "skill": instance,
        "level": hero_level(state, hero),
        "replaced": replaced,
    }
    return [Event(kind="learn_skill", text=text, data=data)]


# ------------------------------------------------------------------ effects
def _skill_values(state: Homm4State, hero: int) -> list[tuple[EffectKind, int, PrimarySkill]]:
    """Every skill effect of ``hero`` resolved to its value: (kind, value, governing primary)."""
    ranks = primary_ranks(state, hero)
    held = primary_cards(state, hero)
    found: list[tuple[EffectKind, int, PrimarySkill]] = []
    for primary, rank in sorted(ranks.items(), key=lambda item: item[0].value):
        source: SkillCard | None
        source = (
            _skill(state, held[primary]) if primary in held else reference_primary_card(primary)
        )
        if source is None:
            continue
        for effect in source.effects:
            found.append((effect.kind, effect.values[rank - 1], primary))
    for skill_id in secondary_skills(state, hero):
        secondary = zones.pool().get(skill_id)
        if not isinstance(secondary, SkillCard):
            continue
        rank = ranks.get(secondary.primary, 0)
        if rank == 0:
            continue
        for effect in secondary.effects:
            found.append((effect.kind, effect.values[rank - 1], secondary.primary))
    return found


def _artifact_values(state: Homm4State, hero: int) -> list[tuple[EffectKind, int]]:
    found: list[tuple[EffectKind, int]] = []
    for instance in sorted(inventory(state, hero).artifacts):
        artifact = zones.card(state, instance)
        if isinstance(artifact, ArtifactCard):
            found.extend((effect.kind, effect.value) for effect in artifact.effects)
    return found


def skill_effect(state: Homm4State, hero: int, kind: EffectKind | str) -> int:
    """Return the sum of ``hero``'s Skill effects of ``kind`` (no artifacts).

    :raises ValueError: for a ``kind`` outside the effect vocabulary.
    Rule: homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes.
    """
    wanted = EffectKind(kind)
    return sum(value for k, value, _ in _skill_values(state, hero) if k is wanted)


def artifact_effect(state: Homm4State, hero: int, kind: EffectKind | str) -> int:
    """Return the sum of ``hero``'s Artifact effects of ``kind``.

    :raises ValueError: for a ``kind`` outside the effect vocabulary.
    Rule: homm4:heroes-levels-skills-and-spells.heroes-and-artifacts.
    """
    wanted = EffectKind(kind)
    return sum(value for k, value in _artifact_values(state, hero) if k is wanted)


def hero_effect(state: Homm4State, hero: int, kind: EffectKind | str) -> int:
    """Return ``hero``'s own total of effect ``kind``: Skills plus Artifacts, summed.

    Units as in `engine.homm4.cards` (points or cards). Exceptions: ``spell_level`` is the
    highest level over all schools (use `spell_level` for one school); ``mana`` is the raw
    sum before a Town's multiplier (use `max_mana` for the usable pool).

    :raises IllegalMove: if ``hero`` is not a Hero card.
    :raises ValueError: for a ``kind`` outside the effect vocabulary (`EffectKind`).
    Rule: homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes.
    """
    hero_card(state, hero)
    kind = EffectKind(kind)
    if kind is EffectKind.SPELL_LEVEL:
        return max((spell_level(state, hero, school) for school in School), default=0)
    return skill_effect(state, hero, kind) + artifact_effect(state, hero, kind)


def heroes_among(state: Homm4State, cards: Iterable[int]) -> list[int]:
    """Return the Hero instances among ``cards``, in order.

    Rule: homm4:heroes-levels-skills-and-spells.heroes-in-battle.
    """
    return [c for c in cards if isinstance(zones.card(state, c), HeroCard)]


def army_effect(state: Homm4State, army_cards: Sequence[int], kind: EffectKind | str) -> int:
    """Return the bonus of ``kind`` an army made of ``army_cards`` gets from its heroes.

    Bonuses of several heroes do not stack: the highest single hero's `hero_effect` counts
    (homm4:heroes-levels-skills-and-spells.starting-skills-of-heroes). 0 without heroes.
    """
    values = [hero_effect(state, h, kind) for h in heroes_among(state, army_cards)]
    return max(values, default=0)


def army_movement_bonus(state: Homm4State, army_cards: Sequence[int]) -> int:
    """Return the Movement Points a hero on top of ``army_cards`` adds (``movement`` effect
    of the top card when it is a hero, else 0) (homm4:movement-phase.movement-points-and-terrain)."""
    if not army_cards or not isinstance(zones.card(state, army_cards[0]), HeroCard):
        return 0
    return hero_effect(state, army_cards[0], EffectKind.MOVEMENT)


def army_sight_bonus(state: Homm4State, army_cards: Sequence[int]) -> int:
    """Return how much the heroes in ``army_cards`` widen its Sight Radius (best single hero;
    homm4:movement-phase.scouting-terrain)."""
    return army_effect(state, army_cards, EffectKind.SIGHT)


def recover(state: Homm4State, army_cards: Sequence[int]) -> int:
    """Return how many of its own Unit cards killed in a won battle ``army_cards`` may take
    back from the discard pile (best single hero's ``recover``).
    Rule: homm4:card-types.skill-cards.
    """
    return army_effect(state, army_cards, EffectKind.RECOVER)


def retreat_anywhere(state: Homm4State, cards: Iterable[int]) -> bool:
    """Whether a hero among ``cards`` may retreat even within 4 hexes of its nearest Town
    (homm4:battles.hero-retreat)."""
    return any(
        hero_effect(state, h, EffectKind.RETREAT_ANYWHERE) > 0 for h in heroes_among(state, cards)
    )


def seat_object_effect(state: Homm4State, seat: int, kind: EffectKind | str) -> int:
    """Return the sum of ``kind`` effects of the Objects ``seat`` controls.

    The pool's Objects speak of "each of your Heroes" (Ore Pit: own Melee +1; Crystal
    Mine: Mana +5...): the hero stat functions below add them for the hero's controlling
    seat. (Movement and Sight from Objects are added by the adventure layer's
    ``armies`` module, and ``hero_effect`` never includes Objects.)

    Rule: homm4:card-types.object-cards.
    """
    wanted = EffectKind(kind)
    total = 0
    for site in state.sites:
        if site.kind != "object" or zones.object_user(site) != seat or site.card is None:
            continue
        found = zones.card(state, site.card)
        if isinstance(found, ObjectCard):
            total += sum(e.value for e in found.effects if e.kind is wanted)
    return total


def _with_objects(state: Homm4State, hero: int, kind: EffectKind) -> int:
    return hero_effect(state, hero, kind) + seat_object_effect(state, hero_seat(state, hero), kind)


def spell_power(state: Homm4State, hero: int) -> int:
    """Return the bonus ``hero`` adds to its attacking spells: its ``spell_power`` effects
    plus its seat's Objects' (homm4:heroes-levels-skills-and-spells.casting-spells)."""
    return _with_objects(state, hero, EffectKind.SPELL_POWER)


# --------------------------------------------------------------- hero stats
def hero_melee(state: Homm4State, hero: int) -> int:
    """Return the hero's Melee attack: card value + ``hero_melee`` of its Skills, Artifacts
    and its seat's Objects (never below 0; homm4:...heroes-in-battle)."""
    return max(0, hero_card(state, hero).melee + _with_objects(state, hero, EffectKind.HERO_MELEE))


def hero_ranged(state: Homm4State, hero: int) -> int:
    """Return the hero's Ranged attack: card value + ``hero_ranged``; 0 stays 0 (a bonus
    never gives a ranged attack, homm4:battles.making-a-ranged-attack)."""
    base = hero_card(state, hero).ranged
    if base <= 0:
        return 0
    return max(0, base + _with_objects(state, hero, EffectKind.HERO_RANGED))


def hero_defense(state: Homm4State, hero: int) -> int:
    """Return the hero's Defense: card value + ``hero_defense`` of its Skills, Artifacts and
    its seat's Objects (never below 0).
    Rule: homm4:heroes-levels-skills-and-spells.heroes-in-battle.
    """
    return max(
        0, hero_card(state, hero).defense + _with_objects(state, hero, EffectKind.HERO_DEFENSE)
    )


# -------------------------------------------------------------- mana, spells
def mana_multiplier(state: Homm4State, seat: int) -> int:
    """Return the best ``mana_multiplier`` among ``seat``'s Towns (levels reached), or 1.

    Rule: homm4:purchase-phase ("When the Town is Level 4, the standard Mana pool of all
    your Heroes doubles").
    """
    best = 1
    for site in state.sites:
        if site.kind != "town" or site.owner != seat or site.card is None:
            continue
        town = zones.card(state, site.card)
        if not isinstance(town, TownCard):
            continue
        for level in town.levels[: site.level]:
            for effect in level.effects:
                if effect.kind is EffectKind.MANA_MULTIPLIER:
                    best = max(best, effect.value)
    return best


def max_mana(state: Homm4State, hero: int) -> int:
    """Return ``hero``'s Mana pool for a battle (homm4:heroes-levels-skills-and-spells.mana).

    The standard pool is the sum of the Skills' ``mana`` effects (Basic Chaos Magic 10 +
    Basic Sorcery 10 = 20), multiplied by the controlling seat's best Town
    ``mana_multiplier``; Artifacts' and the seat's Objects' ``mana`` is added after the
    multiplier (not part of the standard pool).
    """
    seat = hero_seat(state, hero)
    standard = skill_effect(state, hero, EffectKind.MANA)
    extra = artifact_effect(state, hero, EffectKind.MANA)
    extra += seat_object_effect(state, seat, EffectKind.MANA)
    return max(0, standard * mana_multiplier(state, seat) + extra)


def mana_left(state: Homm4State, hero: int) -> int:
    """Return the Mana ``hero`` may still spend in the current battle.

    Rule: homm4:heroes-levels-skills-and-spells.mana.
    """
    return max(0, max_mana(state, hero) - inventory(state, hero).mana_spent)


def spell_level(state: Homm4State, hero: int, school: School) -> int:
    """Return the highest level of ``school`` Spells ``hero`` may cast or learn (0: none).

    The magic Primary Skill's ``spell_level`` effect at its rank; a card without that
    effect allows its rank (Basic 1, Advanced 2, Expert 3...; homm4:...primary-magic-skills).
    """
    primary = PrimarySkill(f"{school.value}_magic")
    rank = primary_rank(state, hero, primary)
    if rank == 0:
        return 0
    levels = [
        value
        for kind, value, governing in _skill_values(state, hero)
        if kind is EffectKind.SPELL_LEVEL and governing is primary
    ]
    return max(levels) if levels else rank


def spell_problem(state: Homm4State, hero: int, spell: SpellCard) -> str | None:
    """Say why ``hero``'s Skills do not allow ``spell``, or None if they do.

    Rule: homm4:card-types.spell-cards (a Level 3 Chaos Spell needs Expert Chaos Magic).
    Used both for learning and for casting. The message never names the Spell card (it
    may still be in a Hand): only its school and level.
    """
    allowed = spell_level(state, hero, spell.school)
    if spell.level <= allowed:
        return None
    school = spell.school.value.title()
    need = RANK_NAMES.get(spell.level, f"rank {spell.level}")
    hero_name = zones.name(state, hero)
    if allowed == 0:
        return f"That is a {school} Spell, and {hero_name} lacks {school} Magic."
    return (
        f"That is a Level {spell.level} {school} Spell: it needs {need} {school} Magic, and "
        f"{hero_name} may use {school} Spells only up to Level {allowed}."
    )


def can_learn_spell(state: Homm4State, hero: int, spell_instance: int) -> bool:
    """Whether ``hero``'s Skills allow it to learn Spell card ``spell_instance`` (the Town
    part is checked by the caller; homm4:heroes-levels-skills-and-spells.learning-spells)."""
    spell = zones.card(state, spell_instance)
    return isinstance(spell, SpellCard) and spell_problem(state, hero, spell) is None


def known_spells(state: Homm4State, hero: int) -> list[int]:
    """Return the Spell instances in ``hero``'s inventory, in order.

    Rule: homm4:heroes-levels-skills-and-spells.heroes-and-spells.
    """
    return list(inventory(state, hero).spells)


def castable_spells(
    state: Homm4State, hero: int, known: Iterable[int] | None = None, where: Hex | None = None
) -> list[int]:
    """Return the spells among ``known`` (default: the inventory) that ``hero``'s Skills
    allow and its Mana left pays for, at their cost on ``where`` (special lands,
    `lands.spell_mana`) (homm4:heroes-levels-skills-and-spells.casting-spells)."""
    left = mana_left(state, hero)
    found: list[int] = []
    for instance in known_spells(state, hero) if known is None else known:
        spell = zones.card(state, instance)
        if (
            isinstance(spell, SpellCard)
            and spell_problem(state, hero, spell) is None
            and lands.spell_mana(state, spell, where) <= left
        ):
            found.append(instance)
    return found


def discard_hero(state: Homm4State, hero: int) -> list[int]:
    """Discard ``hero``'s inventory (skills, learned spells, artifacts) and the hero card
    itself to their owners' discard piles; return the discarded instances, hero last.

    The hero card must already be out of every zone (army, garrison). Used when a hero is
    killed in battle (homm4:battles, homm4:heroes-levels-skills-and-spells.casting-spells).
    """
    inv = state.inventories.pop(hero, None)
    gone: list[int] = []
    if inv is not None:
        gone.extend(inv.skills)
        gone.extend(inv.spells)
        gone.extend(sorted(inv.artifacts))
    gone.append(hero)
    for instance in gone:
        zones.to_discard(state, instance)
    return gone
