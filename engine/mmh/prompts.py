"""Answers to queued choices: keep a drawn card, make room for a scroll, pick treasure
fields, spend treasure XP, pick a skill deck, search a Dragon Vein, recruit at an Arena,
raise the dead, take a hero battle's reward, send creatures back when Leadership drops,
leave an unguarded location (taking it: `engine.mmh.movement.take_offered`).

Rule sections: mmh:other-game-rules.experience-points-xp-and-leveling-up,
mmh:other-game-rules.using-card-effects, mmh:description-of-the-game-board.game-board-locations
(Arena, Dragon Vein), mmh:course-of-play.battles (Reviving Creatures; the reward of a
battle between two heroes), mmh:game-setup.choosing-the-starting-hero (Leadership),
mmh:course-of-play.activate-hero (Controlling Game Board Spaces).
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, WrongPhase
from engine.core.model import Event
from engine.core.words import plural
from engine.mmh import board as geometry
from engine.mmh.battle import raise_options
from engine.mmh.common import (
    content,
    creature_name,
    ev,
    hero_name,
    no_such_marker,
    private_ev,
    who,
)
from engine.mmh.economy import add_creature, check_recruit
from engine.mmh.gains import (
    choose_fields,
    draw_scrolls,
    draw_skills,
    keep_card,
    lose_artefact,
    pay_level_up,
    push,
    skill_cards_left,
    swap_artefact,
    take_artefact,
)
from engine.mmh.heroes import scroll_capacity
from engine.mmh.state import (
    ArenaRecruit,
    ArtefactSwap,
    ControlChoice,
    DragonVein,
    KeepCard,
    LeadershipCut,
    MmhState,
    Prompt,
    Raise,
    Reward,
    ScrollRoom,
    SkillDraw,
    TreasureChoice,
    Unit,
    XpSpend,
)


def head(state: MmhState, seat: int, *kinds: type) -> Prompt:
    """The first queued choice, which must be ``seat``'s and of one of ``kinds``.

    :raises WrongPhase: when another choice is pending.

    Rule: none (the queue of pending choices).
    """
    if not state.queue:
        raise WrongPhase("No choice is pending.")
    prompt = state.queue[0]
    if prompt.seat != seat or not isinstance(prompt, kinds):
        raise WrongPhase("That answers a different choice than the one pending.")
    return prompt


def keep(state: MmhState, seat: int, card: str) -> list[Event]:
    """Keep one drawn card (or one of two artefacts of a category).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    prompt = head(state, seat, KeepCard, ArtefactSwap)
    if isinstance(prompt, KeepCard):
        return keep_card(state, prompt, card)
    assert isinstance(prompt, ArtefactSwap)
    return swap_artefact(state, prompt, card)


def make_room(state: MmhState, seat: int, scroll: str) -> list[Event]:
    """Discard a held scroll to draw a new one (mmh:other-game-rules.using-card-effects).

    :raises IllegalMove: for a scroll the hero does not hold.
    """
    prompt = head(state, seat, ScrollRoom)
    assert isinstance(prompt, ScrollRoom)
    hero = state.heroes[prompt.hero]
    if scroll not in hero.scrolls:
        raise IllegalMove(f"{hero_name(hero)} holds no such scroll.")
    state.queue.pop(0)
    hero.scrolls.remove(scroll)
    state.scroll_discard.append(scroll)
    events = [
        private_ev(
            "scroll_discard",
            f"{hero_name(hero)} discards a scroll card to make room.",
            seat,
            f"{hero_name(hero)} discards {content().scroll(scroll).name}.",
        )
    ]
    return events + draw_scrolls(state, hero, prompt.count)


def fields(state: MmhState, seat: int, chosen: tuple[int, ...]) -> list[Event]:
    """Choose treasure fields.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    prompt = head(state, seat, TreasureChoice)
    assert isinstance(prompt, TreasureChoice)
    return choose_fields(state, prompt, chosen)


def spend_xp(state: MmhState, seat: int, deck: str, trophies: tuple[int, ...]) -> list[Event]:
    """Spend pending treasure XP (with trophies) on a level-up.

    :raises IllegalMove: for too little XP or an empty deck.

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    prompt = head(state, seat, XpSpend)
    assert isinstance(prompt, XpSpend)
    hero = state.heroes[prompt.hero]
    if skill_cards_left(state, hero, deck) == 0:
        raise IllegalMove(f"Your {deck} skill deck and its discard pile are empty.")
    events = pay_level_up(state, hero, trophies, prompt.xp)
    state.queue.pop(0)
    return events + draw_skills(state, hero, deck, 2)


def choose_deck(state: MmhState, seat: int, deck: str) -> list[Event]:
    """Draw the free skill cards from the might or magic deck.

    :raises IllegalMove: for an empty deck while the other has cards.

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    prompt = head(state, seat, SkillDraw)
    assert isinstance(prompt, SkillDraw)
    hero = state.heroes[prompt.hero]
    other = "magic" if deck == "might" else "might"
    if skill_cards_left(state, hero, deck) == 0 and skill_cards_left(state, hero, other) > 0:
        raise IllegalMove(f"The {deck} deck is used up; draw from the {other} deck.")
    state.queue.pop(0)
    return draw_skills(state, hero, deck, prompt.draw)


def search(state: MmhState, seat: int, pile: str, card: str) -> list[Event]:
    """Take a card of your choice from the treasure, scroll or artefact discard pile
    (Dragon Vein). A treasure card is resolved at once (one field).

    :raises IllegalMove: for a card not in that pile.

    Rule: mmh:description-of-the-game-board.game-board-locations.
    """
    prompt = head(state, seat, DragonVein)
    assert isinstance(prompt, DragonVein)
    hero = state.heroes[prompt.hero]
    piles = {
        "treasure": state.treasure_discard,
        "scroll": state.scroll_discard,
        "artefact": state.artefact_discard,
    }
    if pile not in piles or card not in piles[pile]:
        raise IllegalMove(f"The {pile} discard pile holds no such card.")
    state.queue.pop(0)
    piles[pile].remove(card)
    c = content()
    if pile == "treasure":
        push(state, TreasureChoice(seat=seat, hero=hero.id, card=card, picks=1, artefact=True))
        return [
            ev("dragon_vein", f"{hero_name(hero)} takes the treasure card {c.treasure(card).name}.")
        ]
    if pile == "artefact":
        return take_artefact(state, hero, card)
    if len(hero.scrolls) >= scroll_capacity(state, hero):
        state.scroll_discard.append(card)
        return [ev("dragon_vein", f"{hero_name(hero)} has no room for another scroll card.")]
    hero.scrolls.append(card)
    return [
        private_ev(
            "dragon_vein",
            f"{hero_name(hero)} takes a scroll card from the discard pile (face down).",
            seat,
            f"{hero_name(hero)} takes {c.scroll(card).name}.",
        )
    ]


def arena(state: MmhState, seat: int, creature: str, elite: bool) -> list[Event]:
    """Recruit one creature at an Arena (any capital level; price as in the capital).

    Rule: mmh:description-of-the-game-board.game-board-locations.
    """
    prompt = head(state, seat, ArenaRecruit)
    assert isinstance(prompt, ArenaRecruit)
    hero = state.heroes[prompt.hero]
    cost = check_recruit(state, seat, hero, creature, elite, arena=True)
    prompt.left -= 1
    if prompt.left <= 0:
        state.queue.pop(0)
    return add_creature(state, hero, creature, elite, cost)


def raise_creature(state: MmhState, seat: int, creature: str, mode: str) -> list[Event]:
    """Spend one RAISE DEAD point: ``revive`` a creature destroyed in the battle (basic side
    up) or ``upgrade`` a basic creature to elite.

    :raises IllegalMove: for an option not open now.

    Rule: mmh:course-of-play.battles.
    """
    prompt = head(state, seat, Raise)
    assert isinstance(prompt, Raise)
    hero = state.heroes[prompt.hero]
    options = raise_options(state, hero, prompt.fallen)
    if (creature, mode) not in options:
        names = ", ".join(f"{mode_} {c}" for c, mode_ in options) or "nothing"
        raise IllegalMove(f"RAISE DEAD can: {names}.")
    if mode == "revive":
        state.seats[seat].reserve[creature] -= 1
        hero.army.append(Unit(creature=creature, elite=False))
        prompt.fallen[creature] -= 1
        battle = state.battle
        if battle is not None and battle.fallen.get(hero.id, {}).get(creature, 0) > 0:
            battle.fallen[hero.id][creature] -= 1
        text = f"{hero_name(hero)} revives a {creature_name(creature, False)}."
    else:
        unit = next(u for u in hero.army if u.creature == creature and not u.elite)
        unit.elite = True
        text = f"{hero_name(hero)} raises a {creature_name(creature, False)} to its elite side."
    prompt.points -= 1
    if prompt.points <= 0 or not raise_options(state, hero, prompt.fallen):
        state.queue.pop(0)
    return [ev("raise", text, hero=hero.id)]


def reward(state: MmhState, seat: int, deck: str | None, artefact: str | None) -> list[Event]:
    """The winner of a hero battle: draw a skill card (2, keep 1, no XP) or take an
    artefact of the defeated hero (VP move with it).

    :raises IllegalMove: for both or neither, or an artefact the loser lacks.

    Rule: mmh:course-of-play.battles.
    """
    prompt = head(state, seat, Reward)
    assert isinstance(prompt, Reward)
    hero = state.heroes[prompt.hero]
    loser = state.heroes[prompt.loser]
    if (deck is None) == (artefact is None):
        raise IllegalMove("Choose a skill deck (might or magic) or one artefact of the loser.")
    if artefact is not None:
        if artefact not in loser.artefacts:
            raise IllegalMove(f"{hero_name(loser)} holds no such artefact.")
        state.queue.pop(0)
        events = [
            ev(
                "spoils",
                f"{hero_name(hero)} takes an artefact from {hero_name(loser)} "
                f"({who(loser.owner)} -1 VP).",
            )
        ]
        events += lose_artefact(state, loser, artefact)
        return events + take_artefact(state, hero, artefact)
    assert deck is not None
    if skill_cards_left(state, hero, deck) == 0:
        raise IllegalMove(f"Your {deck} skill deck is used up.")
    state.queue.pop(0)
    return draw_skills(state, hero, deck, 2)


def return_creatures(state: MmhState, seat: int, creatures: list[tuple[str, bool]]) -> list[Event]:
    """Answer a `LeadershipCut`: the named creatures (as many as the army exceeds the
    hero's Leadership) go back to the reserve (mmh:game-setup.choosing-the-starting-hero,
    Leadership "may never be exceeded").

    :raises IllegalMove: for the wrong number of creatures or ones the army lacks.
    """
    prompt = head(state, seat, LeadershipCut)
    assert isinstance(prompt, LeadershipCut)
    hero = state.heroes[prompt.hero]
    if len(creatures) != prompt.count:
        raise IllegalMove(
            f"Name {plural(prompt.count, 'creature')} of {hero_name(hero)}'s army to send back to the "
            "reserve, e.g. ghoul or ghoul+."
        )
    pool = [(u.creature, u.elite) for u in hero.army]
    for item in creatures:
        if item not in pool:
            raise no_such_marker(hero, *item, "to send back")
        pool.remove(item)
    state.queue.pop(0)
    for creature, elite in creatures:
        unit = next(u for u in hero.army if u.creature == creature and u.elite == elite)
        hero.army.remove(unit)
        state.seats[seat].reserve[creature] += 1
    names = ", ".join(creature_name(c, e) for c, e in creatures)
    return [
        ev(
            "leadership_return",
            f"{hero_name(hero)} sends {names} back to the reserve.",
            hero=hero.id,
        )
    ]


def decline(state: MmhState, seat: int) -> list[Event]:
    """Pass on an optional choice: lose treasure XP, forgo a scroll, find nothing at a
    Dragon Vein, recruit no more at an Arena, stop raising the dead, leave an unguarded
    location passed through; or skip a hero battle's reward when there is none to take
    (both skill decks used up, no artefact).

    :raises WrongPhase: when the pending choice may not be declined.

    Rule: none (an optional choice passed).
    """
    prompt = head(
        state, seat, XpSpend, ScrollRoom, DragonVein, ArenaRecruit, Raise, Reward, ControlChoice
    )
    if isinstance(prompt, Reward):
        winner = state.heroes[prompt.hero]
        decks = [d for d in ("might", "magic") if skill_cards_left(state, winner, d)]
        if decks or state.heroes[prompt.loser].artefacts:
            raise IllegalMove("The reward must be taken: a skill card or an artefact of the loser.")
    state.queue.pop(0)
    hero = hero_name(prompt.hero)
    if isinstance(prompt, XpSpend):
        return [ev("xp_lost", f"{hero} does not level up: {prompt.xp} treasure XP are lost.")]
    if isinstance(prompt, ScrollRoom):
        return [ev("scroll_skip", f"{hero} keeps his scrolls and draws none.")]
    if isinstance(prompt, ControlChoice):
        where = geometry.space_label(state, prompt.space)
        return [ev("control_skip", f"{who(seat)} leaves {where} as it is.", space=prompt.space)]
    return [ev("decline", f"{who(seat)} is done ({hero}).")]
