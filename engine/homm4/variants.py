"""Game Variants applied at set-up: Pre-developed Heroes and Campaign Heroes carried over
(Different Starting Forces are `decks.starting_forces`), and the survivors of a finished
game for the next game of a Campaign.

Rule sections: homm4:game-variants.pre-developed-heroes, homm4:game-variants.campaigns,
homm4:game-variants.different-starting-forces.

Pre-developed Heroes (readings):

* The cards come from the player's own deck, as the Starting Forces do, before it is
  shuffled. Each player chooses them (``develop_hero``, one decision per starting Hero, top
  first; the players choose at the same time, each from their own deck, which stays
  private until the cards are placed face up). Once every seat is done the decks are
  shuffled and the set-up goes on.
* A Hero takes exactly ``primary`` Primary and ``secondary`` Secondary Skill cards; they
  are played Primary Skill cards first, lowest rank first, then Secondary ones, each one
  the Hero may learn at that moment (skill order as after a battle, `heroes.skill_problem`).
* With ``spells``, a Hero takes one Spell of each level its magic Skills then allow, per
  school (Advanced Death Magic: one Level 1 and one Level 2 Death Spell); a level the deck
  has no Spell for stays empty (the rule gives a magic Hero the right to those Spells, it
  cannot conjure missing cards), and none beyond.
* Every player takes ``treasure`` Treasure Artifacts and ``other`` Artifacts of the other
  categories in all (the same numbers for everybody), each in a free slot of the Hero
  taking it; the seat's last Hero takes what is left of them. A choice that would leave a
  later Hero of the seat unable to take its agreed cards is refused.
* The automatic pick (`auto_plan`; the default for a moderator's skip and a computer
  seat): each Hero, top first, takes Primary then Secondary Skill cards by preference — a
  card of its starting Primary Skill (turning it to Advanced), then by card id — the first
  choice with which every starting Hero gets its agreed numbers (a Knight may take Basic
  Life Magic so that its Secondary can be a Life one); then the lowest-id Spell of each
  level; then, for the Artifacts, the lowest card id first, each on the first starting
  Hero with a free fitting slot. A deck that cannot supply the agreed cards by this pick
  cannot start (checked when the game is created).

Campaign Heroes: a carried Hero is a new card for its seat (with new cards for its Skills,
Spells and Artifacts, as it ended the previous game); it joins the Starting Forces on top
of the Army. When the deck's own starting Hero is the same card, that copy stays in the
deck.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm4 import heroes, zones
from engine.homm4.artifacts import fitting_slots
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


def _is_treasure(state: Homm4State, artifact: int) -> bool:
    card = zones.card_as(state, artifact, ArtifactCard)
    return card is not None and card.category is ArtifactCategory.TREASURE


def developing(rule: PreDevelopedOption, state: Homm4State, hero: int) -> bool:
    """Whether starting Hero ``hero`` has anything to choose under ``rule``: Skill cards or
    Artifacts agreed, or Spells agreed and a magic Primary Skill printed on its card
    (homm4:game-variants.pre-developed-heroes)."""
    if rule.primary or rule.secondary or rule.treasure or rule.other:
        return True
    return rule.spells and any(heroes.spell_level(state, hero, school) for school in School)


def artifacts_left(state: Homm4State, seat: int, rule: PreDevelopedOption) -> tuple[int, int]:
    """Return the ``(Treasure, other)`` Artifacts ``seat``'s starting Heroes still have to
    take: the agreed numbers minus those its Heroes developed so far took
    (homm4:game-variants.pre-developed-heroes)."""
    taken = [
        a
        for hero in state.developed
        if state.card_owner[hero] == seat
        for a in heroes.inventory(state, hero).artifacts
    ]
    treasure = sum(1 for a in taken if _is_treasure(state, a))
    return rule.treasure - treasure, rule.other - (len(taken) - treasure)


def check_development(state: Homm4State, seat: int, hero_list: list[int]) -> None:
    """Check at set-up that ``seat``'s deck can give ``hero_list`` their agreed cards (by
    the automatic pick, `auto_plan`); nothing is changed
    (homm4:game-variants.pre-developed-heroes).

    :raises InvalidInput: naming what the deck lacks (the agreed numbers are the same for
        everybody, so such a deck cannot start).
    """
    rule = state.options.pre_developed
    assert rule is not None
    auto_plan(state, seat, hero_list, rule.treasure, rule.other)


def auto_plan(
    state: Homm4State, seat: int, hero_list: list[int], treasure: int, other: int
) -> dict[int, list[int]]:
    """The automatic pick (see the module docstring): for each Hero of ``hero_list`` (top
    first), the cards of ``seat``'s deck it takes — Skill cards in the order played, then
    Spells, then Artifacts — with ``treasure`` Treasure and ``other`` other Artifacts for
    the whole list. Worked out on a copy; ``state`` is not changed
    (homm4:game-variants.pre-developed-heroes).

    :raises InvalidInput: naming what the deck lacks.
    """
    rule = state.options.pre_developed
    assert rule is not None
    who = seat_name(seat)
    work = state.model_copy(deep=True)
    deck = list(work.players_state[seat].deck)
    for hero in hero_list:
        heroes.ensure_inventory(work, hero)
    picked: dict[int, list[int]] = {hero: [] for hero in hero_list}
    plan = _skill_plan(work, hero_list, list(deck), rule)
    if plan is None:
        raise InvalidInput(
            f"{who}'s deck has too few Skill cards its starting Heroes can learn for "
            f"Pre-developed Heroes ({plural(rule.primary, 'Primary Skill card')} and "
            f"{plural(rule.secondary, 'Secondary Skill card')} per Hero)."
        )
    for hero, pick in plan:
        deck.remove(pick)
        heroes.add_skill(work, hero, pick)
        picked[hero].append(pick)
    for hero in hero_list:
        if rule.spells:
            for pick in _spell_picks(work, hero, deck):
                deck.remove(pick)
                heroes.ensure_inventory(work, hero).spells.append(pick)
                picked[hero].append(pick)
    for is_treasure, count in ((True, treasure), (False, other)):
        for _ in range(count):
            placed = False
            for artifact in _deck_cards(work, deck, ArtifactCard):
                if _is_treasure(work, artifact) != is_treasure:
                    continue
                holder = next(
                    (h for h in hero_list if fitting_slots(work, h, artifact) is not None), None
                )
                if holder is None:
                    continue
                slots = fitting_slots(work, holder, artifact)
                assert slots is not None
                deck.remove(artifact)
                heroes.ensure_inventory(work, holder).artifacts[artifact] = slots
                picked[holder].append(artifact)
                placed = True
                break
            if not placed:
                kind = "Treasure" if is_treasure else "non-Treasure"
                raise InvalidInput(
                    f"{who}'s deck has too few {kind} Artifacts that fit the starting Heroes for "
                    f"Pre-developed Heroes ({rule.treasure} Treasure and {rule.other} other "
                    "per player)."
                )
    return picked


def _spell_picks(state: Homm4State, hero: int, deck: list[int]) -> list[int]:
    """One Spell of ``deck`` for each level of each school ``hero``'s magic allows (lowest
    card id first); a level the deck has no Spell of stays empty."""
    picks: list[int] = []
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
                picks.append(spells[0])
    return picks


def default_development(state: Homm4State, seat: int) -> list[int]:
    """The documented default of ``seat``'s ``develop_hero`` decision: the cards the
    automatic pick (`auto_plan`) gives the Hero being developed, planned together with the
    seat's Heroes still waiting and the Artifacts still to take
    (homm4:game-variants.pre-developed-heroes)."""
    rule = state.options.pre_developed
    assert rule is not None
    waiting = [hero for s, hero in state.to_develop if s == seat]
    treasure, other = artifacts_left(state, seat, rule)
    return auto_plan(state, seat, waiting, treasure, other)[waiting[0]]


def development_choices(state: Homm4State, seat: int, limit: int = 8) -> list[list[int]]:
    """Up to ``limit`` card choices ``seat`` may make for the Hero being developed: the
    default first, then the default with one of its Skill cards swapped for another card
    of the deck that is accepted (each checked by `develop_problem`;
    homm4:game-variants.pre-developed-heroes)."""
    default = default_development(state, seat)
    choices = [default]
    deck = state.players_state[seat].deck
    skills = [c for c in default if zones.card_as(state, c, SkillCard) is not None]
    tried: set[tuple[int, ...]] = {tuple(sorted(default))}
    for old in skills:
        for new in _deck_cards(state, deck, SkillCard):
            if len(choices) >= limit:
                return choices
            if new in default:
                continue
            candidate = [new if c == old else c for c in default]
            key = tuple(sorted(candidate))
            if key in tried:
                continue
            tried.add(key)
            fixed = _with_spells(state, seat, candidate)
            if fixed is not None:
                choices.append(fixed)
    return choices


def _with_spells(state: Homm4State, seat: int, cards: list[int]) -> list[int] | None:
    """``cards`` with its Spells replaced by the automatic Spell picks for the Skills it
    holds, when the result is accepted; else None."""
    waiting = [hero for s, hero in state.to_develop if s == seat]
    hero = waiting[0]
    rule = state.options.pre_developed
    assert rule is not None
    kept = [c for c in cards if zones.card_as(state, c, SpellCard) is None]
    skills = [c for c in kept if zones.card_as(state, c, SkillCard) is not None]
    work = state.model_copy(deep=True)
    try:
        for card in _skill_order(work, skills):
            heroes.add_skill(work, hero, card)
    except IllegalMove:
        return None
    deck = [c for c in state.players_state[seat].deck if c not in kept]
    spells = _spell_picks(work, hero, deck) if rule.spells else []
    result = [*skills, *spells, *[c for c in kept if c not in skills]]
    return result if develop_problem(state, seat, hero, result) is None else None


def _skill_order(state: Homm4State, skills: list[int]) -> list[int]:
    """The order Skill cards are played in: Primary Skill cards lowest rank first, then
    Secondary Skill cards (a legal order whenever there is one)."""

    def key(card: int) -> tuple[int, int, str, int]:
        skill = zones.card_as(state, card, SkillCard)
        assert skill is not None
        rank = skill.ranks[0] if skill.ranks else 0
        return (1 if skill.secondary else 0, rank, state.card_defs[card], card)

    return sorted(skills, key=key)


def develop_problem(state: Homm4State, seat: int, hero: int, cards: list[int]) -> str | None:
    """Say why ``seat`` may not give ``cards`` of its deck to its starting Hero ``hero``
    now, or None (homm4:game-variants.pre-developed-heroes). Cards are named by number
    only (they are still in the deck). Checked on a copy; ``state`` is not changed:

    * every card distinct and in the seat's deck, each a Skill, Spell or Artifact card;
    * exactly the agreed numbers of Primary and Secondary Skill cards, learnable in order
      (Primary Skill cards lowest rank first, then Secondary ones);
    * with Spells agreed, one Spell of each level of each school the Hero's magic then
      allows, whenever the deck holds one (none otherwise);
    * Artifacts: at most the Treasure / other ones still to take (the seat's last Hero
      takes exactly those), each in a free slot;
    * the seat's Heroes still waiting can still get their agreed cards (`auto_plan`).
    """
    rule = state.options.pre_developed
    if rule is None:
        return "Pre-developed Heroes are not played in this game."
    waiting = [h for s, h in state.to_develop if s == seat]
    if not waiting:
        return "You have no starting Hero to develop."
    if hero != waiting[0]:
        return f"Develop your starting Heroes in order: next is {zones.name(state, waiting[0])}."
    name = zones.name(state, hero)
    deck = state.players_state[seat].deck
    if len(set(cards)) != len(cards):
        return "Name each card once."
    kinds: dict[str, list[int]] = {"skill": [], "spell": [], "artifact": []}
    for card in cards:
        if card not in deck:
            return f"Card #{card} is not in your deck."
        found = zones.card(state, card)
        if isinstance(found, SkillCard):
            kinds["skill"].append(card)
        elif isinstance(found, SpellCard):
            kinds["spell"].append(card)
        elif isinstance(found, ArtifactCard):
            kinds["artifact"].append(card)
        else:
            return f"Card #{card} is not a Skill, Spell or Artifact card."
    skills = kinds["skill"]
    secondary = [c for c in skills if (k := zones.card_as(state, c, SkillCard)) and k.secondary]
    if len(skills) - len(secondary) != rule.primary or len(secondary) != rule.secondary:
        return (
            f"{name} takes {plural(rule.primary, 'Primary Skill card')} and "
            f"{plural(rule.secondary, 'Secondary Skill card')}; you chose "
            f"{len(skills) - len(secondary)} and {len(secondary)}."
        )
    work = state.model_copy(deep=True)
    for card in _skill_order(work, skills):
        problem = heroes.skill_problem(work, hero, card)
        if problem is not None:
            return f"{problem} (Primary Skill cards are played first, lowest rank first.)"
        heroes.add_skill(work, hero, card)
    rest = [c for c in deck if c not in cards]
    problem = _spell_problem(work, hero, kinds["spell"], rest, rule.spells)
    if problem is not None:
        return problem
    treasure_left, other_left = artifacts_left(state, seat, rule)
    treasure = [a for a in kinds["artifact"] if _is_treasure(state, a)]
    other = len(kinds["artifact"]) - len(treasure)
    last = len(waiting) == 1
    if (
        len(treasure) > treasure_left
        or other > other_left
        or (last and (len(treasure), other) != (treasure_left, other_left))
    ):
        return (
            f"Your starting Heroes take {plural(rule.treasure, 'Treasure Artifact')} and "
            f"{plural(rule.other, 'other Artifact')} in all; "
            f"{'' if last else 'at most '}{treasure_left} Treasure and {other_left} other "
            f"{'are' if last else 'may be'} taken now."
        )
    for artifact in kinds["artifact"]:
        slots = fitting_slots(work, hero, artifact)
        if slots is None:
            return f"Artifact #{artifact} has no free slot on {name}."
        heroes.ensure_inventory(work, hero).artifacts[artifact] = slots
    if not last:
        work.players_state[seat].deck = rest
        try:
            auto_plan(work, seat, waiting[1:], treasure_left - len(treasure), other_left - other)
        except InvalidInput:
            return (
                f"With these cards your other starting Heroes could not take their agreed "
                f"Skill cards and Artifacts from your deck; choose others for {name}."
            )
    return None


def _spell_problem(
    work: Homm4State, hero: int, spells: list[int], rest: list[int], agreed: bool
) -> str | None:
    """Spells: none unless agreed; else one of each level the Hero's magic allows (by
    school) whenever ``rest`` (the deck without the chosen cards) holds one."""
    if spells and not agreed:
        return "No Spells are agreed for Pre-developed Heroes in this game."
    chosen: dict[tuple[School, int], int] = {}
    for card in spells:
        spell = zones.card_as(work, card, SpellCard)
        assert spell is not None
        problem = heroes.spell_problem(work, hero, spell)
        if problem is not None:
            return f"Card #{card}: {problem}"
        key = (spell.school, spell.level)
        if key in chosen:
            return (
                f"Cards #{chosen[key]} and #{card} are both Level {spell.level} "
                f"{spell.school.value.title()} Spells: a Hero takes one Spell of each level."
            )
        chosen[key] = card
    if not agreed:
        return None
    for school in School:
        for level in range(1, heroes.spell_level(work, hero, school) + 1):
            if (school, level) in chosen:
                continue
            spare = [
                c
                for c in _deck_cards(work, rest, SpellCard)
                if (found := zones.card_as(work, c, SpellCard)) is not None
                and found.school is school
                and found.level == level
            ]
            if spare:
                return (
                    f"{zones.name(work, hero)} takes one Spell of each level its magic allows: "
                    f"add a Level {level} {school.value.title()} Spell from your deck "
                    f"(e.g. #{spare[0]})."
                )
    return None


def develop_hero(state: Homm4State, seat: int, hero: int | None, cards: list[int]) -> list[Event]:
    """Put ``cards`` of ``seat``'s deck into the inventory of its starting Hero ``hero``
    (None: the Hero being developed now), face up (homm4:game-variants.pre-developed-heroes).
    When every seat's Heroes are developed, each deck is shuffled and the set-up goes on.

    :raises IllegalMove: with `develop_problem`'s reason (nothing is changed).
    """
    waiting = [h for s, h in state.to_develop if s == seat]
    target = hero if hero is not None else (waiting[0] if waiting else -1)
    problem = develop_problem(state, seat, target, list(cards))
    if problem is not None:
        raise IllegalMove(problem)
    player = state.players_state[seat]
    skills = [c for c in cards if zones.card_as(state, c, SkillCard) is not None]
    spells = [c for c in cards if zones.card_as(state, c, SpellCard) is not None]
    artifacts = [c for c in cards if zones.card_as(state, c, ArtifactCard) is not None]
    player.deck = [c for c in player.deck if c not in cards]
    inv = heroes.ensure_inventory(state, target)
    taken: list[str] = []
    for card in _skill_order(state, skills):
        heroes.add_skill(state, target, card)
    taken += [heroes.describe_skill(state, target, c) for c in inv.skills]
    for card in spells:
        inv.spells.append(card)
        taken.append(zones.name(state, card))
    for card in artifacts:
        slots = fitting_slots(state, target, card)
        assert slots is not None
        inv.artifacts[card] = slots
        taken.append(zones.name(state, card))
    state.to_develop.remove((seat, target))
    state.developed.append(target)
    return [
        Event(
            kind="pre_developed",
            text=f"{seat_name(seat)}'s starting Hero {zones.name(state, target)} begins at level "
            f"{heroes.hero_level(state, target)} with: {', '.join(taken) or 'nothing'}.",
            data={"seat": seat, "hero": target, "cards": list(cards)},
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
            f"Campaign: level {heroes.hero_level(state, hero)}, {plural(len(inv.spells), 'Spell')}, "
            f"{plural(len(inv.artifacts), 'Artifact')}.",
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
