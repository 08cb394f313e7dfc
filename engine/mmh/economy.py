"""The capital's actions: playing an action card, Build, Gather Resources, Recruit (creatures,
heroes, upgrades, dismissals), trading at the Marketplace, selling scrolls, levelling up.

Rule sections: mmh:course-of-play.playing-action-cards, mmh:course-of-play.build,
mmh:course-of-play.gather-resources, mmh:course-of-play.recruit,
mmh:other-game-rules.trading, mmh:other-game-rules.experience-points-xp-and-leveling-up.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove, InvalidInput
from engine.core.model import Event
from engine.mmh.board import board_of
from engine.mmh.common import (
    content,
    creature_name,
    ev,
    hero_def,
    hero_name,
    no_such_marker,
    private_ev,
    week_event,
    who,
)
from engine.mmh.content import CONTROLLABLE, EffectKind
from engine.mmh.gains import draw_skills, pay_level_up, skill_cards_left
from engine.mmh.heroes import has_building, leadership, passive
from engine.mmh.movement import finish_activation
from engine.mmh.rounds import next_turn
from engine.mmh.setup import ACTION_CARDS, ACTION_NAMES, enter_play
from engine.mmh.state import ActionCard, ActionStep, Hero, MmhState, Unit

RECRUIT_LIMIT = 3
"""Markers recruited per Recruit action; +2 with the Garrison (mmh:course-of-play.recruit)."""
HERO_COST = 5
MAX_HEROES = 3
TOWN_HALL_BONUS = 3


# ------------------------------------------------------------------ action cards
def play_action(
    state: MmhState, seat: int, number: int, action: str, bonus: str | None
) -> list[Event]:
    """Play action card ``number`` for one of its two actions, or ``pass`` (play it and do
    nothing) (mmh:course-of-play.playing-action-cards).

    :raises IllegalMove: for a used card, a card the seat lacks or an action not on it.
    """
    record = state.seats[seat]
    card = next((c for c in record.cards if c.number == number), None)
    if card is None or card.used:
        faceup = ", ".join(f"{c.number} ({describe_card(c)})" for c in record.cards if not c.used)
        raise IllegalMove(f"Action card {number} is not face up. Face up: {faceup}.")
    if action != "pass" and action not in card.actions:
        raise IllegalMove(f"Card {number} offers {describe_card(card)} (or pass).")
    if bonus is not None and not (action == "gather" and has_building(state, seat, "town_hall")):
        raise InvalidInput("'bonus' chooses the Town Hall's 3 gold or 3 resources when gathering.")
    card.used = True
    events = [
        ev(
            "action",
            f"{who(seat)} plays action card {number}: {ACTION_NAMES[action]}.",
            seat=seat,
            card=number,
            action=action,
        )
    ]
    if action == "pass":
        return events + next_turn(state)
    if action == "gather":
        events += gather(state, seat, bonus or "gold")
        return events + next_turn(state)
    state.action = ActionStep(kind=action, card=number)
    return events


def describe_card(card: ActionCard) -> str:
    """``"Activate Hero / Build"``.

    Rule: mmh:course-of-play.playing-action-cards.
    """
    return " / ".join(ACTION_NAMES[a] for a in card.actions)


def end_action(state: MmhState, seat: int) -> list[Event]:
    """Finish the action in progress (Build without building, or the end of Recruit or
    Activate Hero). :raises IllegalMove: if a hero would end his move where he may not stop.

    Rule: mmh:course-of-play.playing-action-cards.
    """
    events = finish_activation(state)
    return [*events, ev("action_end", f"{who(seat)} ends the action."), *next_turn(state)]


# ------------------------------------------------------------------ gather resources
def gather_income(state: MmhState, seat: int, bonus: str = "gold") -> tuple[int, int]:
    """(gold, resources) that Gather Resources would give ``seat`` now: Sawmill 3 res,
    Mine 2 res, Crystal Cavern 1 res, Gold Mine 4 gold, the Town Hall's 3 (``bonus``),
    Merchant +2 res, Landowner +2 gold, skills, artefacts and the week.

    Rule: mmh:course-of-play.gather-resources.
    """
    board = board_of(state)
    gold = resources = 0
    for space, owner in state.control.items():
        if owner != seat:
            continue
        location = board.space(space).location
        if location in CONTROLLABLE:
            _, g, r = CONTROLLABLE[location]
            gold += g
            resources += r
    if has_building(state, seat, "town_hall"):
        if bonus == "resources":
            resources += TOWN_HALL_BONUS
        else:
            gold += TOWN_HALL_BONUS
    for hid in state.seats[seat].heroes:
        hero = state.heroes[hid]
        ability = hero_def(hero).ability
        gold += passive(state, hero, EffectKind.GATHER_GOLD) + (2 if ability == "landowner" else 0)
        resources += passive(state, hero, EffectKind.GATHER_RESOURCES) + (
            2 if ability == "merchant" else 0
        )
    week = week_event(state)
    return gold + week.gather_gold, resources + week.gather_resources


def gather(state: MmhState, seat: int, bonus: str) -> list[Event]:
    """Gather Resources (mmh:course-of-play.gather-resources)."""
    gold, resources = gather_income(state, seat, bonus)
    record = state.seats[seat]
    record.gold += gold
    record.resources += resources
    return [
        ev(
            "gather",
            f"{who(seat)} gathers {gold} gold and {resources} resources.",
            seat=seat,
            gold=gold,
            resources=resources,
        )
    ]


# ------------------------------------------------------------------ build
def level_cost(state: MmhState, seat: int) -> int | None:
    """Resources to raise the capital one level (None at level IV), less the week's discount.

    Rule: mmh:course-of-play.build.
    """
    record = state.seats[seat]
    if record.level >= 4:
        return None
    base = content().faction(record.faction).capital[record.level].resources
    return max(0, base - week_event(state).build_discount)


def building_cost(state: MmhState, seat: int, building: str) -> tuple[int, int]:
    """(resources, gold) a building costs now (the week's discount off the resources).

    Rule: mmh:course-of-play.build.
    """
    b = content().building(building)
    return max(0, b.resources - week_event(state).build_discount), b.gold


def buildable(state: MmhState, seat: int) -> list[str]:
    """Buildings (and ``"level"``) ``seat`` may construct now, cost and requirements met.

    Rule: mmh:course-of-play.build.
    """
    record = state.seats[seat]
    options = []
    cost = level_cost(state, seat)
    if cost is not None and record.resources >= cost:
        options.append("level")
    for b in content().faction_buildings(record.faction):
        if b.id in record.buildings or b.level > record.level:
            continue
        res, gold = building_cost(state, seat, b.id)
        if b.either:
            if record.resources >= res or record.gold >= res:
                options.append(b.id)
            continue
        if record.resources < res or record.gold < gold:
            continue
        if b.effect == "temple" and _tear_holder(state, seat) is None:
            continue
        options.append(b.id)
    return options


def _tear_holder(state: MmhState, seat: int) -> Hero | None:
    for hid in state.seats[seat].heroes:
        hero = state.heroes[hid]
        if any(content().artefact(a).name == "Tear of Asha" for a in hero.artefacts):
            return hero
    return None


def _pays_either(building: str) -> bool:
    """Whether ``building`` is a known building paid in gold or in resources (True for an
    unknown id, which `build` refuses by name)."""
    try:
        return content().building(building).either
    except KeyError:
        return True


def _either_names() -> str:
    return " or ".join(sorted({b.name for b in content().buildings if b.either}))


def build(state: MmhState, seat: int, building: str, pay: str | None) -> list[Event]:
    """Construct one building or raise the capital one level, then end the action
    (mmh:course-of-play.build).

    :raises InvalidInput: for ``pay`` on a building not paid in gold or resources.
    :raises IllegalMove: for an unknown or built building, a capital level too low,
        resources or gold short, or no Tear of Asha for the Temple.
    """
    record = state.seats[seat]
    if pay is not None and (building == "level" or not _pays_either(building)):
        what = (
            "raising the capital"
            if building == "level"
            else f"the {content().building(building).name}"
        )
        raise InvalidInput(
            f"'pay' does not apply to {what}: only a building paid in gold or resources "
            f"({_either_names()}) takes it; build without 'pay'."
        )
    if building == "level":
        cost = level_cost(state, seat)
        if cost is None:
            raise IllegalMove("The capital is at level IV already.")
        if record.resources < cost:
            raise IllegalMove(
                f"Level {record.level + 1} costs {cost} resources; you have {record.resources}."
            )
        record.resources -= cost
        record.level += 1
        raised = ev(
            "build", f"{who(seat)} raises the capital to level {record.level}.", level=record.level
        )
        return [raised, *next_turn(state)]
    c = content()
    ids = {b.id for b in c.faction_buildings(record.faction)}
    if building not in ids:
        raise IllegalMove(
            f"'{building}' is not one of your buildings: {', '.join(sorted(ids))} or level."
        )
    b = c.building(building)
    if building in record.buildings:
        raise IllegalMove(f"The {b.name} stands already.")
    if b.level > record.level:
        raise IllegalMove(f"The {b.name} needs capital level {b.level}; yours is {record.level}.")
    res, gold = building_cost(state, seat, building)
    events: list[Event] = []
    if b.either:
        method = pay or ("resources" if record.resources >= res else "gold")
        have = record.resources if method == "resources" else record.gold
        if have < res:
            raise IllegalMove(f"The {b.name} costs {res} gold or {res} resources.")
        if method == "resources":
            record.resources -= res
        else:
            record.gold -= res
    else:
        if pay is not None:
            raise InvalidInput("'pay' chooses gold or resources only for the Town Hall.")
        if record.resources < res or record.gold < gold:
            raise IllegalMove(f"The {b.name} costs {res} resources and {gold} gold.")
        if b.effect == "temple":
            holder = _tear_holder(state, seat)
            if holder is None:
                raise IllegalMove(
                    "The Temple of Asha needs one of your heroes to hold the Tear of Asha."
                )
            tear = next(a for a in holder.artefacts if c.artefact(a).name == "Tear of Asha")
            holder.artefacts.remove(tear)
            record.temple_artefact = tear
            events.append(
                ev("temple", "The Tear of Asha is laid under the Temple of Asha for good.")
            )
        record.resources -= res
        record.gold -= gold
    record.buildings.append(building)
    events.insert(0, ev("build", f"{who(seat)} builds the {b.name}.", building=building))
    if b.effect == "marketplace":
        record.cards.append(ActionCard(number=4, actions=ACTION_CARDS[4]))
        events.append(
            ev("card", f"{who(seat)} takes the fourth action card (Build / Gather Resources).")
        )
    return events + next_turn(state)


# ------------------------------------------------------------------ trading
def trade(state: MmhState, seat: int, give: str, amount: int) -> list[Event]:
    """Exchange gold and resources 2:1 with a Marketplace (mmh:other-game-rules.trading).

    :raises IllegalMove: without a Marketplace, for an odd amount or more than you hold.
    """
    if not has_building(state, seat, "marketplace"):
        raise IllegalMove("Trading needs a Marketplace in your capital.")
    if amount < 2 or amount % 2:
        raise IllegalMove("Trade an even amount (2 of one for 1 of the other).")
    record = state.seats[seat]
    have = record.gold if give == "gold" else record.resources
    if have < amount:
        raise IllegalMove(f"You have only {have} {give}.")
    if give == "gold":
        record.gold -= amount
        record.resources += amount // 2
        other = "resources"
    else:
        record.resources -= amount
        record.gold += amount // 2
        other = "gold"
    return [
        ev(
            "trade",
            f"{who(seat)} trades {amount} {give} for {amount // 2} {other}.",
            give=give,
            amount=amount,
        )
    ]


def sell_scroll(state: MmhState, seat: int, hero_id: str, scroll: str) -> list[Event]:
    """A hero in the capital sells a scroll card for gold equal to its level (Marketplace).

    :raises IllegalMove: without a Marketplace, a hero outside the capital, or a scroll he
        does not hold.

    Rule: mmh:other-game-rules.trading.
    """
    hero = own_hero(state, seat, hero_id)
    if not has_building(state, seat, "marketplace"):
        raise IllegalMove("Selling scrolls needs a Marketplace in your capital.")
    if hero.space is not None:
        raise IllegalMove(f"{hero_name(hero)} must be in the capital to sell a scroll.")
    if scroll not in hero.scrolls:
        raise IllegalMove(f"{hero_name(hero)} holds no such scroll card.")
    card = content().scroll(scroll)
    hero.scrolls.remove(scroll)
    state.scroll_discard.append(scroll)
    state.seats[seat].gold += card.level
    return [
        private_ev(
            "sell",
            f"{hero_name(hero)} sells a level {card.level} scroll for {card.level} gold.",
            seat,
            f"{hero_name(hero)} sells {card.name}.",
            level=card.level,
        )
    ]


def own_hero(state: MmhState, seat: int, hero_id: str) -> Hero:
    """The seat's hero ``hero_id``. :raises IllegalMove: naming the seat's heroes otherwise.

    Rule: none (names, labels and events).
    """
    hero = state.heroes.get(hero_id)
    if hero is None or hero.owner != seat:
        names = ", ".join(state.seats[seat].heroes)
        raise IllegalMove(f"'{hero_id}' is not one of your heroes ({names}).")
    return hero


# ------------------------------------------------------------------ recruit
def recruit_limit(state: MmhState, seat: int) -> int:
    """Markers per Recruit action: 3, or 5 with the Garrison.

    Rule: mmh:course-of-play.recruit.
    """
    return RECRUIT_LIMIT + (2 if has_building(state, seat, "garrison") else 0)


def creature_cost(state: MmhState, hero: Hero, creature: str, elite: bool) -> int:
    """Gold for one creature recruited for ``hero``: the capital board's price, 1 less for
    a basic / 2 less for an elite creature with the matching Master ability, less skill
    and week discounts, never below 0.

    Rule: mmh:course-of-play.recruit.
    """
    c = content()
    record = state.seats[hero.owner]
    level = c.creature(creature).level
    column = c.faction(record.faction).capital[level - 1]
    cost = column.elite_gold if elite else column.basic_gold
    if hero_def(hero).master == creature:
        cost -= 2 if elite else 1
    cost -= passive(state, hero, EffectKind.RECRUIT_DISCOUNT) + week_event(state).recruit_discount
    return max(0, cost)


def upgrade_cost(state: MmhState, hero: Hero, creature: str) -> int:
    """The difference between the elite and the basic price for ``hero`` (never below 0).

    Rule: mmh:course-of-play.recruit.
    """
    return max(
        0, creature_cost(state, hero, creature, True) - creature_cost(state, hero, creature, False)
    )


def _recruit_step(state: MmhState) -> ActionStep:
    step = state.action
    if step is None or step.kind != "recruit":
        raise IllegalMove("Recruiting needs the Recruit action.")
    return step


def check_recruit(
    state: MmhState, seat: int, hero: Hero, creature: str, elite: bool, *, arena: bool = False
) -> int:
    """Validate recruiting one creature for ``hero``; return its gold cost.

    :raises IllegalMove: naming what is wrong (not the faction's, capital level, no Elite
        Barracks, no marker in reserve, leadership full, gold short).

    Rule: mmh:course-of-play.recruit.
    """
    c = content()
    record = state.seats[seat]
    kinds = {k.id for k in c.faction_creatures(record.faction)}
    if creature not in kinds:
        raise IllegalMove(
            f"'{creature}' is not a {record.faction} creature ({', '.join(sorted(kinds))})."
        )
    level = c.creature(creature).level
    if not arena and level > record.level:
        raise IllegalMove(f"{creature_name(creature, elite)} needs capital level {level}.")
    if elite and not has_building(state, seat, "barracks"):
        raise IllegalMove("Elite creatures need the Elite Barracks.")
    if record.reserve.get(creature, 0) <= 0:
        raise IllegalMove(f"No {creature_name(creature, False)} marker is left in your reserve.")
    if len(hero.army) >= leadership(state, hero):
        raise IllegalMove(
            f"{hero_name(hero)}'s army is at his Leadership of {leadership(state, hero)}."
        )
    cost = creature_cost(state, hero, creature, elite)
    if record.gold < cost:
        raise IllegalMove(
            f"{creature_name(creature, elite)} costs {cost} gold; you have {record.gold}."
        )
    return cost


def add_creature(state: MmhState, hero: Hero, creature: str, elite: bool, cost: int) -> list[Event]:
    """Pay and add one creature to the army; the Leader ability adds a free elite one.

    Rule: mmh:course-of-play.recruit.
    """
    record = state.seats[hero.owner]
    record.gold -= cost
    record.reserve[creature] -= 1
    hero.army.append(Unit(creature=creature, elite=elite))
    events = [
        ev(
            "recruit",
            f"{hero_name(hero)} recruits {creature_name(creature, elite)} for {cost} gold.",
            hero=hero.id,
            creature=creature,
            elite=elite,
        )
    ]
    if (
        hero_def(hero).leader == creature
        and record.reserve.get(creature, 0) > 0
        and len(hero.army) < leadership(state, hero)
    ):
        record.reserve[creature] -= 1
        hero.army.append(Unit(creature=creature, elite=True))
        events.append(
            ev(
                "leader",
                f"Leader: {hero_name(hero)} adds a {creature_name(creature, True)}.",
                hero=hero.id,
            )
        )
    return events


def recruit(state: MmhState, seat: int, hero_id: str, creature: str, elite: bool) -> list[Event]:
    """Recruit one creature for a hero in the capital (mmh:course-of-play.recruit).

    :raises IllegalMove: outside a Recruit action, over the recruitment limit, for a hero
        outside the capital, or as `check_recruit` says.
    """
    step = _recruit_step(state)
    hero = own_hero(state, seat, hero_id)
    if hero.space is not None:
        raise IllegalMove(f"{hero_name(hero)} is not in the capital.")
    if step.recruited >= recruit_limit(state, seat):
        raise IllegalMove(
            f"This Recruit action has reached its limit of {recruit_limit(state, seat)} markers."
        )
    cost = check_recruit(state, seat, hero, creature, elite)
    step.recruited += 1
    return add_creature(state, hero, creature, elite, cost)


def hero_cost(state: MmhState) -> int:
    """Gold to recruit a hero: 5, less the week's discount.

    Rule: mmh:course-of-play.recruit.
    """
    return max(0, HERO_COST - week_event(state).hero_cost)


def recruit_hero(state: MmhState, seat: int, hero_id: str) -> list[Event]:
    """Recruit an unused hero of the faction with the Hall of Heroes (counts as 1 marker).

    :raises IllegalMove: without the Hall, with 3 heroes, over the limit, short of gold,
        or for a hero who is not free.

    Rule: mmh:course-of-play.recruit.
    """
    step = _recruit_step(state)
    record = state.seats[seat]
    if not has_building(state, seat, "hall_of_heroes"):
        raise IllegalMove("Recruiting heroes needs the Hall of Heroes.")
    if len(record.heroes) >= MAX_HEROES:
        raise IllegalMove("A player controls at most 3 heroes.")
    if step.recruited >= recruit_limit(state, seat):
        raise IllegalMove("This Recruit action has reached its recruitment limit.")
    if hero_id not in record.unused_heroes:
        names = ", ".join(record.unused_heroes) or "none"
        raise IllegalMove(f"Free heroes of your faction: {names}.")
    cost = hero_cost(state)
    if record.gold < cost:
        raise IllegalMove(f"A hero costs {cost} gold; you have {record.gold}.")
    record.gold -= cost
    step.recruited += 1
    return [
        ev("pay", f"{who(seat)} pays {cost} gold for a hero.", gold=cost),
        *enter_play(state, seat, hero_id, starting=False),
    ]


def upgrade(state: MmhState, seat: int, hero_id: str, creature: str) -> list[Event]:
    """Turn one basic creature of a hero in the capital to its elite side, paying the price
    difference (Elite Barracks; no recruitment limit).

    :raises IllegalMove: without the Barracks, for a hero outside the capital, no basic
        creature of that type, or gold short.

    Rule: mmh:course-of-play.recruit.
    """
    _recruit_step(state)
    hero = own_hero(state, seat, hero_id)
    if not has_building(state, seat, "barracks"):
        raise IllegalMove("Upgrading creatures needs the Elite Barracks.")
    if hero.space is not None:
        raise IllegalMove(f"{hero_name(hero)} is not in the capital.")
    unit = next((u for u in hero.army if u.creature == creature and not u.elite), None)
    if unit is None:
        raise no_such_marker(hero, creature, False, "to upgrade")
    cost = upgrade_cost(state, hero, creature)
    record = state.seats[seat]
    if record.gold < cost:
        raise IllegalMove(f"The upgrade costs {cost} gold; you have {record.gold}.")
    record.gold -= cost
    unit.elite = True
    return [
        ev(
            "upgrade",
            f"{hero_name(hero)} upgrades a {creature_name(creature, False)} to "
            f"{creature_name(creature, True)} for {cost} gold.",
            hero=hero.id,
        )
    ]


def dismiss(state: MmhState, seat: int, hero_id: str, creature: str, elite: bool) -> list[Event]:
    """Send one creature of a hero's army back to the reserve (no refund; never the last).

    :raises IllegalMove: for the last creature or a creature the army lacks.

    Rule: mmh:course-of-play.recruit.
    """
    _recruit_step(state)
    hero = own_hero(state, seat, hero_id)
    if len(hero.army) <= 1:
        raise IllegalMove("The last creature of an army may not be dismissed.")
    unit = next((u for u in hero.army if u.creature == creature and u.elite == elite), None)
    if unit is None:
        raise no_such_marker(hero, creature, elite, "to dismiss")
    hero.army.remove(unit)
    state.seats[seat].reserve[creature] += 1
    return [
        ev(
            "dismiss",
            f"{hero_name(hero)} dismisses a {creature_name(creature, elite)}.",
            hero=hero.id,
        )
    ]


# ------------------------------------------------------------------ level up
def level_up(
    state: MmhState,
    seat: int,
    hero_id: str,
    deck: str,
    trophies: tuple[int, ...],
    extra_xp: int = 0,
) -> list[Event]:
    """Spend XP (trophies, plus treasure XP) on a new skill: draw 2 from the chosen deck,
    keep 1 (mmh:other-game-rules.experience-points-xp-and-leveling-up).

    :raises IllegalMove: for too little XP or an empty deck.
    """
    hero = own_hero(state, seat, hero_id)
    if skill_cards_left(state, hero, deck) == 0:
        raise IllegalMove(f"Your {deck} skill deck and its discard pile are empty.")
    events = pay_level_up(state, hero, trophies, extra_xp)
    return events + draw_skills(state, hero, deck, 2)
