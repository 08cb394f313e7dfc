"""Gaining cards and markers: skill cards (level-ups), scrolls, artefacts, treasure cards,
luck markers, XP spending; and the keep-one choices they queue.

Rule sections: mmh:other-game-rules.experience-points-xp-and-leveling-up,
mmh:other-game-rules.luck, mmh:other-game-rules.using-card-effects (scroll, treasure and
artefact cards), mmh:game-setup.preparing-card-decks (draw 3 keep 1),
mmh:game-setup.choosing-the-starting-hero (Mysticism, Artefact Finder, Sage).

Newly queued choices go to the front of the queue, so the consequences of one choice are
settled before the next queued one.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.model import Event
from engine.core.words import plural
from engine.mmh.common import content, draw_from, ev, hero_def, hero_name, private_ev, who
from engine.mmh.heroes import leadership, scroll_capacity
from engine.mmh.state import (
    ArtefactSwap,
    Hero,
    KeepCard,
    LeadershipCut,
    MmhState,
    Prompt,
    ScrollRoom,
    SkillDraw,
    TreasureChoice,
    XpSpend,
)


def push(state: MmhState, *prompts: Prompt) -> None:
    """Queue ``prompts`` ahead of everything already queued (in the given order).

    Rule: none (the queue of pending choices).
    """
    state.queue[0:0] = list(prompts)


def level_up_cost(hero: Hero) -> int:
    """XP for the hero's next skill card: skill cards held + 3 (3, 4, 5, ...)
    (mmh:other-game-rules.experience-points-xp-and-leveling-up)."""
    return len(hero.skills) + 3


def trophy_xp(trophies: list[int]) -> int:
    """Medals on these trophy markers.

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    c = content()
    return sum(c.encounter(t).xp for t in trophies)


def _skill_piles(state: MmhState, hero: Hero, deck: str) -> tuple[list[str], list[str]]:
    seat = state.seats[hero.owner]
    if deck == "might":
        return seat.might_deck, seat.might_discard
    return seat.magic_deck, seat.magic_discard


def skill_cards_left(state: MmhState, hero: Hero, deck: str) -> int:
    """Cards that could still be drawn from the hero's might or magic deck (with its discard pile).

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    pile, discard = _skill_piles(state, hero, deck)
    return len(pile) + len(discard)


def draw_skills(state: MmhState, hero: Hero, deck: str, count: int) -> list[Event]:
    """Draw ``count`` skill cards for the hero from his player's ``deck``; with two or more
    the owner keeps one (a `KeepCard`), with one it is placed at once. An empty deck and
    discard pile give nothing (mmh:other-game-rules.experience-points-xp-and-leveling-up).
    """
    events: list[Event] = []
    pile, discard = _skill_piles(state, hero, deck)
    drawn: list[str] = []
    for _ in range(count):
        card = draw_from(state, pile, discard, f"{who(hero.owner)} {deck} skill", events)
        if card is not None:
            drawn.append(card)
    name = hero_name(hero)
    if not drawn:
        events.append(ev("skill_none", f"The {deck} skill deck is used up: {name} gains nothing."))
        return events
    if count == 1 or len(drawn) == 1:
        hero.skills.append(drawn[0])
        events.append(
            ev(
                "skill",
                f"{name} learns {content().skill(drawn[0]).name}.",
                hero=hero.id,
                card=drawn[0],
            )
        )
        return events
    names = ", ".join(content().skill(c).name for c in drawn)
    events.append(
        private_ev(
            "skill_draw",
            f"{who(hero.owner)} draws {len(drawn)} {deck} skill cards for {name} and keeps one.",
            hero.owner,
            f"You drew {names} for {name}: keep one.",
            hero=hero.id,
            deck=deck,
        )
    )
    push(state, KeepCard(seat=hero.owner, hero=hero.id, pile=deck, cards=drawn))
    return events


def gain_scroll(state: MmhState, hero: Hero) -> list[Event]:
    """The hero may draw 1 scroll card (3, keep 1, with Mysticism). At his Magic limit he
    must first discard one of his choice or forgo the draw (a `ScrollRoom`).

    Rule: mmh:other-game-rules.using-card-effects.
    """
    count = 3 if hero_def(hero).ability == "mysticism" else 1
    if not state.scroll_deck and not state.scroll_discard:
        return [ev("scroll_none", "The scroll deck and its discard pile are empty.")]
    if len(hero.scrolls) >= scroll_capacity(state, hero):
        if scroll_capacity(state, hero) == 0:
            return [ev("scroll_none", f"{hero_name(hero)} has no Magic to hold a scroll card.")]
        push(state, ScrollRoom(seat=hero.owner, hero=hero.id, count=count))
        return [ev("scroll_room", f"{hero_name(hero)} holds as many scrolls as his Magic allows.")]
    return draw_scrolls(state, hero, count)


def draw_scrolls(state: MmhState, hero: Hero, count: int) -> list[Event]:
    """Draw ``count`` scrolls for the hero (keep 1 when more than one); face down.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    events: list[Event] = []
    drawn = []
    for _ in range(count):
        card = draw_from(state, state.scroll_deck, state.scroll_discard, "scroll", events)
        if card is not None:
            drawn.append(card)
    if not drawn:
        return events
    names = ", ".join(content().scroll(c).name for c in drawn)
    if len(drawn) == 1:
        hero.scrolls.append(drawn[0])
        events.append(
            private_ev(
                "scroll",
                f"{hero_name(hero)} takes a scroll card (face down).",
                hero.owner,
                f"{hero_name(hero)} takes the scroll {names}.",
                hero=hero.id,
            )
        )
        return events
    events.append(
        private_ev(
            "scroll_draw",
            f"{hero_name(hero)} draws {len(drawn)} scroll cards and keeps one (Mysticism).",
            hero.owner,
            f"You drew {names}: keep one.",
            hero=hero.id,
        )
    )
    push(state, KeepCard(seat=hero.owner, hero=hero.id, pile="scroll", cards=drawn))
    return events


def gain_artefact(state: MmhState, hero: Hero) -> list[Event]:
    """The hero draws 3 artefact cards (5 with Artefact Finder) and keeps one.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    count = 5 if hero_def(hero).ability == "artefact_finder" else 3
    events: list[Event] = []
    drawn = []
    for _ in range(count):
        card = draw_from(state, state.artefact_deck, state.artefact_discard, "artefact", events)
        if card is not None:
            drawn.append(card)
    if not drawn:
        events.append(ev("artefact_none", "The artefact deck and its discard pile are empty."))
        return events
    names = ", ".join(content().artefact(c).name for c in drawn)
    events.append(
        private_ev(
            "artefact_draw",
            f"{hero_name(hero)} draws {len(drawn)} artefact cards and keeps one.",
            hero.owner,
            f"You drew {names}: keep one.",
            hero=hero.id,
        )
    )
    push(state, KeepCard(seat=hero.owner, hero=hero.id, pile="artefact", cards=drawn))
    return events


def take_artefact(state: MmhState, hero: Hero, card: str) -> list[Event]:
    """Give the hero an artefact card; at most one per category: a clash queues an
    `ArtefactSwap` (mmh:other-game-rules.using-card-effects, Artefact Cards)."""
    art = content().artefact(card)
    clash = [a for a in hero.artefacts if content().artefact(a).category == art.category]
    hero.artefacts.append(card)
    events = [
        ev(
            "artefact",
            f"{hero_name(hero)} takes the artefact {art.name} (+1 VP).",
            hero=hero.id,
            card=card,
        )
    ]
    if clash:
        push(state, ArtefactSwap(seat=hero.owner, hero=hero.id, new=card, old=clash[0]))
    return events


def keep_card(state: MmhState, prompt: KeepCard, card: str) -> list[Event]:
    """Resolve a draw-N-keep-1: ``card`` goes to the hero, the others to the discard pile.

    :raises IllegalMove: if ``card`` is not among the drawn cards.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    if card not in prompt.cards:
        raise IllegalMove(
            f"Keep one of the {len(prompt.cards)} cards you drew (your hand DM lists them)."
        )
    hero = state.heroes[prompt.hero]
    rest = [c for c in prompt.cards if c != card]
    state.queue.pop(0)
    c = content()
    if prompt.pile in ("might", "magic"):
        _, discard = _skill_piles(state, hero, prompt.pile)
        discard.extend(rest)
        hero.skills.append(card)
        return [
            ev("skill", f"{hero_name(hero)} learns {c.skill(card).name}.", hero=hero.id, card=card)
        ]
    if prompt.pile == "scroll":
        state.scroll_discard.extend(rest)
        hero.scrolls.append(card)
        return [
            private_ev(
                "scroll",
                f"{hero_name(hero)} keeps a scroll card (face down).",
                hero.owner,
                f"{hero_name(hero)} keeps the scroll {c.scroll(card).name}.",
                hero=hero.id,
            )
        ]
    state.artefact_discard.extend(rest)
    return take_artefact(state, hero, card)


def swap_artefact(state: MmhState, prompt: ArtefactSwap, keep: str) -> list[Event]:
    """Keep the new or the old artefact of one category; the other is discarded.

    :raises IllegalMove: if ``keep`` is neither.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    if keep not in (prompt.new, prompt.old):
        raise IllegalMove(f"Keep {prompt.new} or {prompt.old}.")
    hero = state.heroes[prompt.hero]
    drop = prompt.old if keep == prompt.new else prompt.new
    state.queue.pop(0)
    hero.artefacts.remove(drop)
    state.artefact_discard.append(drop)
    name = content().artefact(drop).name
    discarded = ev(
        "artefact_discard",
        f"{hero_name(hero)} discards the artefact {name}.",
        hero=hero.id,
        card=drop,
    )
    return [discarded, *enforce_leadership(state, hero)]


def lose_artefact(state: MmhState, hero: Hero, card: str) -> list[Event]:
    """Remove an artefact from a hero (its VP goes with it); his values may drop.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    hero.artefacts.remove(card)
    return enforce_leadership(state, hero)


def enforce_leadership(state: MmhState, hero: Hero) -> list[Event]:
    """An army larger than the hero's Leadership (after losing a Leadership bonus): his
    player chooses which creatures go back to the reserve (a `LeadershipCut`, answered by
    `engine.mmh.prompts.return_creatures`; the default is the first of
    `engine.mmh.decisions.leadership_options`: the weakest)
    (mmh:game-setup.choosing-the-starting-hero, "may never be exceeded")."""
    limit = leadership(state, hero)
    if len(hero.army) <= limit:
        return []
    extra = len(hero.army) - limit
    push(state, LeadershipCut(seat=hero.owner, hero=hero.id, count=extra))
    return [
        ev(
            "leadership",
            f"{hero_name(hero)}'s Leadership drops to {limit}: {who(hero.owner)} sends "
            f"{plural(extra, 'creature')} back to the reserve.",
            hero=hero.id,
            count=extra,
        )
    ]


def gain_luck(state: MmhState, hero: Hero, count: int) -> list[Event]:
    """The hero takes ``count`` luck markers while the supply of 13 lasts (mmh:other-game-rules.luck)."""
    taken = min(count, state.luck_supply)
    if taken <= 0:
        return [ev("luck_none", "No luck marker is left in the supply.")]
    state.luck_supply -= taken
    hero.luck += taken
    return [
        ev(
            "luck",
            f"{hero_name(hero)} takes {plural(taken, 'luck marker')}.",
            hero=hero.id,
            count=taken,
        )
    ]


def draw_treasure(state: MmhState, hero: Hero, picks: int, artefact: bool) -> list[Event]:
    """Draw the top treasure card for the hero; he chooses ``picks`` of its fields
    (not the artefact field when ``artefact`` is False) (mmh:other-game-rules.using-card-effects)."""
    events: list[Event] = []
    card = draw_from(state, state.treasure_deck, state.treasure_discard, "treasure", events)
    if card is None:
        events.append(ev("treasure_none", "The treasure deck and its discard pile are empty."))
        return events
    picks = min(picks, 3 if not artefact else 4)
    events.append(
        ev(
            "treasure",
            f"{hero_name(hero)} draws the treasure card {content().treasure(card).name}"
            f" and chooses {plural(picks, 'field')}.",
            hero=hero.id,
            card=card,
        )
    )
    push(
        state,
        TreasureChoice(seat=hero.owner, hero=hero.id, card=card, picks=picks, artefact=artefact),
    )
    return events


def choose_fields(state: MmhState, prompt: TreasureChoice, fields: tuple[int, ...]) -> list[Event]:
    """Take the chosen fields (1-4) of a treasure card; the card is then discarded.

    XP must be spent at once (an `XpSpend`), so all XP fields chosen are added up.
    :raises IllegalMove: for a wrong number of fields, a repeated field or the forbidden
        artefact field.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    treasure = content().treasure(prompt.card)
    chosen = list(fields)
    if len(chosen) != prompt.picks or len(set(chosen)) != len(chosen):
        raise IllegalMove(
            f"Choose {plural(prompt.picks, 'different field' if prompt.picks > 1 else 'field')} "
            "of the card, numbered 1-4."
        )
    if any(not 1 <= f <= 4 for f in chosen):
        raise IllegalMove("Fields are numbered 1-4.")
    if not prompt.artefact and any(treasure.fields[f - 1].kind == "artefact" for f in chosen):
        raise IllegalMove("After an ordinary encounter the artefact field may not be chosen.")
    state.queue.pop(0)
    state.treasure_discard.append(prompt.card)
    hero = state.heroes[prompt.hero]
    seat = state.seats[hero.owner]
    events: list[Event] = []
    xp = 0
    for f in sorted(chosen):
        field = treasure.fields[f - 1]
        if field.kind == "gold":
            seat.gold += field.value
            events.append(
                ev("gain", f"{who(hero.owner)} takes {field.value} gold.", gold=field.value)
            )
        elif field.kind == "resources":
            seat.resources += field.value
            events.append(
                ev(
                    "gain",
                    f"{who(hero.owner)} takes {field.value} resources.",
                    resources=field.value,
                )
            )
        elif field.kind == "luck":
            events += gain_luck(state, hero, field.value)
        elif field.kind == "xp":
            xp += field.value
    # later gains are queued in front, so queue them in reverse of the order they resolve
    for f in sorted(chosen, reverse=True):
        field = treasure.fields[f - 1]
        if field.kind == "scroll":
            events += gain_scroll(state, hero)
        elif field.kind == "artefact":
            events += gain_artefact(state, hero)
    if xp:
        push(state, XpSpend(seat=hero.owner, hero=hero.id, xp=xp))
        events.append(
            ev("xp", f"{hero_name(hero)} gains {xp} XP to spend at once.", hero=hero.id, xp=xp)
        )
    return events


def pay_level_up(
    state: MmhState, hero: Hero, trophies: tuple[int, ...], extra_xp: int = 0
) -> list[Event]:
    """Discard trophies (plus treasure XP) worth at least the level-up cost; excess is lost.

    :raises IllegalMove: for a trophy the hero does not have, a repeated one, or too few medals.

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    chosen = list(trophies)
    if len(set(chosen)) != len(chosen) or any(t not in hero.trophies for t in chosen):
        raise IllegalMove(
            f"{hero_name(hero)}'s trophies are {', '.join(map(str, hero.trophies)) or 'none'}."
        )
    cost = level_up_cost(hero)
    have = trophy_xp(chosen) + extra_xp
    if have < cost:
        raise IllegalMove(
            f"A level-up of {hero_name(hero)} costs {cost} XP (skill cards held + 3); "
            f"these give {have}."
        )
    for t in chosen:
        hero.trophies.remove(t)
        state.encounter_box.append(t)
    return [
        ev(
            "level_up",
            f"{hero_name(hero)} levels up, spending {have} XP (cost {cost}).",
            hero=hero.id,
            cost=cost,
            paid=have,
        )
    ]


def queue_skill_draw(state: MmhState, hero: Hero, draw: int = 2) -> None:
    """Queue a free skill card for the hero (deck chosen by his owner).

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    push(state, SkillDraw(seat=hero.owner, hero=hero.id, draw=draw))
