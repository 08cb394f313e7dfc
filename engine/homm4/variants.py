"""Game Variants applied at set-up: Pre-developed Heroes and Campaign Heroes carried over
(Different Starting Forces are `decks.starting_forces`), and the survivors of a finished
game for the next game of a Campaign.

Rule sections: homm4:game-variants.pre-developed-heroes, homm4:game-variants.campaigns,
homm4:game-variants.different-starting-forces.

Pre-developed Heroes (readings):

* The cards come from the player's own deck, as the Starting Forces do, before it is
  shuffled; the choice is the engine's, by a fixed rule (like `decks.starting_forces`).
* Each starting Hero, top first, takes ``primary`` Primary Skill cards, then ``secondary``
  Secondary Skill cards, each one it may learn at that moment (skill order as after a
  battle, `heroes.skill_problem`). Preference: a card of its starting Primary Skill
  (turning it to Advanced), then by card id; the first choice with which every starting
  Hero gets its agreed numbers is taken (a Knight may take Basic Life Magic so that its
  Secondary can be a Life one). A deck without such cards cannot start (the agreed
  numbers are the same for everybody).
* With ``spells``, a Hero then takes one Spell of each level its magic Skills allow
  (Advanced Death Magic: one Level 1 and one Level 2 Death Spell), the lowest card id of
  that school and level in the deck; a level the deck has no Spell for stays empty (the
  rule gives a magic Hero the right to those Spells, it cannot conjure missing cards).
* Every player takes ``treasure`` Treasure Artifacts and ``other`` Artifacts of the other
  categories (the same numbers for everybody), lowest card id first, each on the first
  starting Hero with a free fitting slot. A deck that cannot supply them cannot start.

Campaign Heroes: a carried Hero is a new card for its seat (with new cards for its Skills,
Spells and Artifacts, as it ended the previous game); it joins the Starting Forces on top
of the Army. When the deck's own starting Hero is the same card, that copy stays in the
deck.
"""

from __future__ import annotations

from engine.core.errors import InvalidInput
from engine.core.model import Event, seat_name
from engine.homm4 import heroes, zones
from engine.homm4.adventure import fitting_slots
from engine.homm4.cards import (
    ArtifactCard,
    ArtifactCategory,
    HeroCard,
    School,
    SkillCard,
    SpellCard,
)
from engine.homm4.options import CarriedHero, PreDevelopedOption
from engine.homm4.state import Homm4State


def _deck_cards(state: Homm4State, deck: list[int], kind: type) -> list[int]:
    return sorted(
        (c for c in deck if isinstance(zones.card(state, c), kind)),
        key=lambda c: (state.card_defs[c], c),
    )


def pre_develop(
    state: Homm4State, seat: int, hero_list: list[int], deck: list[int], rule: PreDevelopedOption
) -> list[Event]:
    """Give ``seat``'s starting Heroes their agreed Skills, Spells and Artifacts from
    ``deck`` (the deck's cards, not yet shuffled; the cards taken are removed from it).
    See the module docstring (homm4:game-variants.pre-developed-heroes).

    :raises InvalidInput: naming what the deck lacks.
    """
    who = seat_name(seat)
    for hero in hero_list:
        heroes.ensure_inventory(state, hero)
    plan = _skill_plan(state, hero_list, list(deck), rule)
    if plan is None:
        raise InvalidInput(
            f"{who}'s deck has too few Skill cards its starting Heroes can learn for "
            f"Pre-developed Heroes ({rule.primary} Primary and {rule.secondary} Secondary "
            "Skill card(s) per Hero)."
        )
    taken: list[str] = []
    for hero, pick in plan:
        deck.remove(pick)
        heroes.add_skill(state, hero, pick)
        taken.append(heroes.describe_skill(state, hero, pick))
    for hero in hero_list:
        if rule.spells:
            for school in School:
                for level in range(1, heroes.spell_level(state, hero, school) + 1):
                    spells = [
                        c
                        for c in _deck_cards(state, deck, SpellCard)
                        if (found := zones.card_as(state, c, SpellCard)) is not None
                        and found.school is school
                        and found.level == level
                    ]
                    if spells:
                        deck.remove(spells[0])
                        heroes.ensure_inventory(state, hero).spells.append(spells[0])
                        taken.append(zones.name(state, spells[0]))
    for treasure, count in ((True, rule.treasure), (False, rule.other)):
        for _ in range(count):
            placed = False
            for artifact in _deck_cards(state, deck, ArtifactCard):
                card = zones.card_as(state, artifact, ArtifactCard)
                assert card is not None
                if (card.category is ArtifactCategory.TREASURE) != treasure:
                    continue
                holder = next(
                    (h for h in hero_list if fitting_slots(state, h, artifact) is not None), None
                )
                if holder is None:
                    continue
                slots = fitting_slots(state, holder, artifact)
                assert slots is not None
                deck.remove(artifact)
                heroes.ensure_inventory(state, holder).artifacts[artifact] = slots
                taken.append(zones.name(state, artifact))
                placed = True
                break
            if not placed:
                kind = "Treasure" if treasure else "non-Treasure"
                raise InvalidInput(
                    f"{who}'s deck has too few {kind} Artifacts that fit the starting Heroes for "
                    f"Pre-developed Heroes ({rule.treasure} Treasure and {rule.other} other per player)."
                )
    names = ", ".join(zones.name(state, h) for h in hero_list)
    return [
        Event(
            kind="pre_developed",
            text=f"{who}'s starting Heroes ({names}) begin with: {', '.join(taken) or 'nothing'}.",
            data={"seat": seat, "heroes": list(hero_list)},
        )
    ]


def _skill_plan(
    state: Homm4State, hero_list: list[int], deck: list[int], rule: PreDevelopedOption
) -> list[tuple[int, int]] | None:
    """Find which Skill cards of ``deck`` each starting Hero takes: the first plan, in the
    order of the module docstring's preferences (Heroes top first; per Hero its Primary
    cards then its Secondary cards; the starting Primary Skill first, then by card id),
    in which every card may be learnt when it is played and every Hero gets its agreed
    numbers. Searched on copies of the state; ``None`` when there is no such plan."""
    wanted = [False] * rule.primary + [True] * rule.secondary
    steps = [(hero, secondary) for hero in hero_list for secondary in wanted]

    def search(work: Homm4State, left: list[int], index: int) -> list[tuple[int, int]] | None:
        if index == len(steps):
            return []
        hero, secondary = steps[index]
        starting = heroes.hero_card(work, hero).starting_primary
        options: list[tuple[bool, str, int]] = []
        for candidate in _deck_cards(work, left, SkillCard):
            skill = zones.card_as(work, candidate, SkillCard)
            if (
                skill is not None
                and skill.secondary == secondary
                and heroes.skill_problem(work, hero, candidate) is None
            ):
                options.append(
                    (skill.primary is not starting, work.card_defs[candidate], candidate)
                )
        tried: set[str] = set()
        for _, card_id, candidate in sorted(options):
            if card_id in tried:
                continue
            tried.add(card_id)
            branch = work.model_copy(deep=True)
            heroes.add_skill(branch, hero, candidate)
            rest = search(branch, [c for c in left if c != candidate], index + 1)
            if rest is not None:
                return [(hero, candidate), *rest]
        return None

    return search(state, deck, 0)


def _new_card(state: Homm4State, seat: int, card_id: str, kind: type) -> int:
    found = zones.pool().cards.get(card_id)
    if not isinstance(found, kind):
        raise InvalidInput(
            f"A carried Campaign Hero names {card_id!r}, which is no {kind.__name__}."
        )
    state.card_defs.append(card_id)
    state.card_owner.append(seat)
    return len(state.card_defs) - 1


def carry_in(state: Homm4State, carried: CarriedHero) -> tuple[int, list[Event]]:
    """Create the cards of a Hero carried over from the previous game of a Campaign for
    its seat: the Hero with its Skills (turned as they were), Spells and Artifacts
    (homm4:game-variants.campaigns).

    :returns: the new Hero instance (in no zone yet: the caller puts it in the Starting
        Forces) and one event.
    :raises InvalidInput: for an unknown card or an Artifact that no longer fits.
    """
    seat = carried.seat
    hero = _new_card(state, seat, carried.hero, HeroCard)
    inv = heroes.ensure_inventory(state, hero)
    for skill_id in carried.skills:
        instance = _new_card(state, seat, skill_id, SkillCard)
        inv.skills.append(instance)
        if skill_id in carried.advanced:
            inv.advanced.append(instance)
    for spell_id in carried.spells:
        inv.spells.append(_new_card(state, seat, spell_id, SpellCard))
    for artifact_id in carried.artifacts:
        artifact = _new_card(state, seat, artifact_id, ArtifactCard)
        slots = fitting_slots(state, hero, artifact)
        if slots is None:
            raise InvalidInput(f"The carried Hero's Artifact {artifact_id!r} has no free slot.")
        inv.artifacts[artifact] = slots
    who = f" ({carried.label})" if carried.label else ""
    return hero, [
        Event(
            kind="campaign_hero",
            text=f"{seat_name(seat)}{who} brings {zones.name(state, hero)} from the last game of the "
            f"Campaign: level {heroes.hero_level(state, hero)}, {len(inv.spells)} Spell(s), "
            f"{len(inv.artifacts)} Artifact(s).",
            data={"seat": seat, "hero": hero},
        )
    ]


def survivors(state: Homm4State) -> list[CarriedHero]:
    """Return every living Hero (in an Army or under a Town card) with its Skills, Spells
    and Artifacts, by seat then Army: what the next game of a Campaign may carry over
    (homm4:game-variants.campaigns). Dead Heroes (fallen or discarded) are not included.
    """
    found: list[tuple[int, int]] = []
    for army in sorted(state.armies, key=lambda a: (a.owner, a.id)):
        found.extend((army.owner, c) for c in army.cards if zones.is_hero(state, c))
    for site in state.sites:
        if site.owner is not None:
            found.extend((site.owner, c) for c in site.garrison if zones.is_hero(state, c))
    carried: list[CarriedHero] = []
    for seat, hero in found:
        inv = heroes.inventory(state, hero)
        carried.append(
            CarriedHero(
                seat=seat,
                hero=state.card_defs[hero],
                skills=tuple(state.card_defs[c] for c in inv.skills),
                advanced=tuple(state.card_defs[c] for c in inv.advanced),
                spells=tuple(state.card_defs[c] for c in inv.spells),
                artifacts=tuple(state.card_defs[c] for c in sorted(inv.artifacts)),
            )
        )
    return carried
