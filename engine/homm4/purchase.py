"""The Purchase Phase: buying Units and Heroes, upgrading Towns, buying Artifacts and
Skills, and learning Spells (also allowed in the Movement Phase).

Rule sections: homm4:purchase-phase, homm4:heroes-levels-skills-and-spells.buying-heroes,
homm4:heroes-levels-skills-and-spells.learning-spells, homm4:errata (University),
homm4:advanced-rules.buying-heroes-of-other-factions, homm4:game-variants.team-play (buying
Units and Artifacts and learning Spells in a teammate's Town, paid from one's own cards).

Every purchase takes the bought card from the Hand or the Risk Stack and pays its cost by
discarding that many *other* cards from the Hand (`engine.homm4.payment`). A Town offers
what its levels up to the current one list (levels are cumulative).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalMove
from engine.core.model import Event, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import board, heroes, payment, zones
from engine.homm4.artifacts import fitting_slots
from engine.homm4.cards import (
    ArtifactCard,
    ArtifactCategory,
    HeroCard,
    ObjectCard,
    RequiresObject,
    SkillCard,
    SpellCard,
    TownCard,
    UnitCard,
)
from engine.homm4.commands import BuyArtifact, BuySkill, BuyUnit, LearnSpell, UpgradeTown
from engine.homm4.state import Army, Homm4State, Site

MAX_TOWN_LEVEL = 4
OTHER_FACTION_HERO_PRICE = 4
"""A Hero of another faction costs 4 cards (homm4:advanced-rules.buying-heroes-of-other-factions)."""


# ------------------------------------------------------------------ lookups
def hide_name(state: Homm4State, instance: int, message: str) -> str:
    """Replace the name of hidden card ``instance`` in ``message`` by ``card #N`` (rule:
    an error message never names a card from a Hand, Risk Stack or deck).
    Rule: homm4:start-of-the-game.
    """
    return message.replace(zones.card(state, instance).name, f"card #{instance}")


def town_card(state: Homm4State, site: Site) -> TownCard:
    """Return the Town card of an identified Town site.

    :raises IllegalMove: if the site is not an identified Town.
    Rule: homm4:card-types.town-cards.
    """
    found = zones.card_as(state, site.card, TownCard) if site.card is not None else None
    if site.kind != "town" or found is None:
        raise IllegalMove(f"There is no identified Town at {board.label(state, site.hex)}.")
    return found


def own_town(state: Homm4State, seat: int, label_text: str) -> Site:
    """Return the Town ``seat`` controls at the hex named ``label_text``.

    :raises InvalidInput | IllegalMove: when the hex is bad or holds no Town of ``seat``.
    Rule: homm4:purchase-phase.
    """
    where = board.parse_hex(state, label_text)
    site = zones.site_at(state, where)
    if site is None or site.kind != "town" or site.owner != seat:
        mine = ", ".join(board.label(state, s.hex) for s in zones.towns_of(state, seat)) or "none"
        raise IllegalMove(
            f"You control no Town at {board.label(state, where)}. Your Towns: {mine}."
        )
    return site


def shop_town(state: Homm4State, seat: int, label_text: str) -> Site:
    """Return the Town at ``label_text`` where ``seat`` may buy: its own, or (Team Play) a
    teammate's (homm4:game-variants.team-play).

    :raises InvalidInput | IllegalMove: when the hex is bad or holds no such Town.
    """
    where = board.parse_hex(state, label_text)
    site = zones.site_at(state, where)
    if (
        site is not None
        and site.kind == "town"
        and site.owner is not None
        and state.options.allies(seat, site.owner)
    ):
        return site
    return own_town(state, seat, label_text)


def ally_towns(state: Homm4State, seat: int) -> list[Site]:
    """Return the teammates' Towns where ``seat`` has an Army standing (Team Play), by id.

    Rule: homm4:game-variants.team-play.
    """
    if not state.options.teams:
        return []
    mine = {a.hex for a in zones.armies_of(state, seat)}
    return [
        s
        for s in state.sites
        if s.kind == "town"
        and s.owner is not None
        and s.owner != seat
        and state.options.allies(seat, s.owner)
        and s.hex in mine
    ]


def hero_price(state: Homm4State, town: TownCard, site: Site, hero: HeroCard) -> int | None:
    """Return what ``hero`` costs in the Town ``town`` at ``site``, or None if it is not
    sold there.

    Basic rules: only Heroes of the Town's faction, at their printed cost
    (homm4:heroes-levels-skills-and-spells.buying-heroes). Buying Heroes of Other Factions
    (advanced rule): also Heroes whose faction is one of the other Spell schools the Town
    teaches at its current level, for 4 cards; a Town teaching no Spells (the Stronghold)
    still sells only its own faction's (homm4:advanced-rules.buying-heroes-of-other-factions).
    """
    if hero.cost is None:
        return None
    if hero.faction == town.faction:
        return hero.cost
    if not state.options.other_faction_heroes:
        return None
    schools = {
        school.value for level in town.levels[: site.level] for school in level.spell_schools
    }
    if hero.faction.value in schools:
        return OTHER_FACTION_HERO_PRICE
    return None


def available_units(state: Homm4State, site: Site) -> list[str]:
    """Return the unit card ids a Town sells at its current level (cumulative).

    Rule: homm4:purchase-phase.
    """
    town = town_card(state, site)
    return [u for level in town.levels[: site.level] for u in level.units]


def artifact_categories(state: Homm4State, site: Site) -> set[ArtifactCategory]:
    """Return the Artifact categories on sale in a Town at its current level.

    Rule: homm4:purchase-phase.
    """
    town = town_card(state, site)
    return {c for level in town.levels[: site.level] for c in level.artifact_categories}


def skills_for_sale(state: Homm4State, site: Site) -> dict[str, int]:
    """Return skill card id -> price for the Skills a Town sells at its current level.

    Rule: homm4:errata.
    """
    town = town_card(state, site)
    offers: dict[str, int] = {}
    for level in town.levels[: site.level]:
        for skill_id in level.skills_for_sale:
            offers[skill_id] = level.skill_price
    return offers


def teaches(state: Homm4State, site: Site, spell: SpellCard) -> bool:
    """Whether a Town at its current level teaches ``spell`` (its school at that level).

    Rule: homm4:heroes-levels-skills-and-spells.learning-spells.
    """
    town = town_card(state, site)
    return any(
        spell.school in level.spell_schools and spell.level <= level.max_spell_level
        for level in town.levels[: site.level]
    )


def controls_object(state: Homm4State, seat: int, object_id: str) -> bool:
    """Whether ``seat`` controls an Object site identified by the Object card ``object_id``.

    Rule: homm4:errata.
    """
    for site in state.sites:
        if site.kind == "object" and zones.object_user(site) == seat and site.card is not None:
            found = zones.card_as(state, site.card, ObjectCard)
            if found is not None and found.id == object_id:
                return True
    return False


def unit_problem(state: Homm4State, seat: int, unit: UnitCard) -> str | None:
    """Say why ``seat`` may not buy ``unit`` anywhere (X cost, missing Object), or None.

    Rule: homm4:purchase-phase.
    """
    if unit.cost is None:
        return "That Unit has an X cost and cannot be bought."
    for ability in unit.abilities:
        if isinstance(ability, RequiresObject) and not controls_object(state, seat, ability.object):
            needed = zones.pool().get(ability.object).name
            return f"That Unit may be bought only while you control a {needed}."
    return None


def hero_army_in_town(
    state: Homm4State, seat: int, hero: int, *, allies: bool = False
) -> tuple[Army, Site]:
    """Return the Army carrying ``hero`` and the Town of ``seat`` it stands in (``allies``:
    a teammate's Town counts too, homm4:game-variants.team-play).

    :raises IllegalMove: if the hero is in none of ``seat``'s Armies or not in its Town.
    """
    army = zones.find_hero_army(state, hero)
    if army is None or army.owner != seat or not zones.is_hero(state, hero):
        raise IllegalMove(f"Card #{hero} is not a Hero in one of your Armies.")
    site = zones.site_at(state, army.hex)
    friendly = (
        site is not None
        and site.owner is not None
        and (site.owner == seat or (allies and state.options.allies(seat, site.owner)))
    )
    if site is None or site.kind != "town" or not friendly:
        raise IllegalMove(
            f"{zones.name(state, hero)} is not in a Town you control; bring the Army to one of your Towns."
        )
    return army, site


# ------------------------------------------------------------------ buying
def buy(state: Homm4State, seat: int, command: BuyUnit) -> list[Event]:
    """Buy a Unit or Hero card from Hand or Risk Stack in a Town ``seat`` controls, placing
    it under the Town card or into an Army on the Town's hex (homm4:purchase-phase,
    homm4:heroes-levels-skills-and-spells.buying-heroes).

    :raises IllegalMove: when the card, Town, target Army or payment is not allowed.
    """
    site = shop_town(state, seat, command.town)
    if not zones.in_hand_or_risk(state, seat, command.card):
        raise IllegalMove(f"Card #{command.card} is not in your Hand or Risk Stack.")
    bought = zones.card(state, command.card)
    town = town_card(state, site)
    where = board.label(state, site.hex)
    if site.owner != seat and command.into is None:
        raise IllegalMove(
            "In a teammate's Town a bought card goes into one of your Armies there: name it with into."
        )
    if isinstance(bought, UnitCard):
        problem = unit_problem(state, seat, bought)
        if problem:
            raise IllegalMove(problem)
        offered = available_units(state, site)
        if bought.id not in offered:
            names = ", ".join(zones.pool().get(u).name for u in offered)
            raise IllegalMove(
                f"The level {site.level} {town.name} at {where} does not sell card #{command.card}; it sells {names}."
            )
    elif isinstance(bought, HeroCard):
        if bought.cost is None:
            raise IllegalMove(f"Card #{command.card} has an X cost and cannot be bought.")
        if hero_price(state, town, site, bought) is None:
            if state.options.other_faction_heroes:
                raise IllegalMove(
                    f"Card #{command.card} is a {bought.faction.value} Hero; {town.name} at level "
                    f"{site.level} sells Heroes of its own faction and of the Spell schools it teaches."
                )
            raise IllegalMove(
                f"Card #{command.card} is a {bought.faction.value} Hero; Heroes are bought only in Towns of "
                f"their own faction ({town.name} is {town.faction.value})."
            )
    else:
        raise IllegalMove(
            f"Card #{command.card} is not a Unit or Hero card; only those are bought in a Town."
        )
    target: Army | None = None
    if command.into is not None:
        target = zones.army(state, command.into)
        if target.owner != seat or target.hex != site.hex:
            raise IllegalMove(
                f"Army {command.into} is not one of your Armies standing in the Town at {where}."
            )
    if isinstance(bought, HeroCard):
        cost = hero_price(state, town, site, bought) or 0
    else:
        cost = bought.cost or 0
    pay = payment.check_payment(state, seat, cost, command.pay, exclude=[command.card])
    zones.take_from_hand_or_risk(state, seat, command.card)
    events = payment.discard_payment(state, seat, pay, bought.name)
    if isinstance(bought, HeroCard):
        heroes.ensure_inventory(state, command.card)
    if target is None:
        site.garrison.append(command.card)
        place = f"under the Town card at {where}"
    else:
        target.cards = army_rules.stack_order(state, [*target.cards, command.card])
        place = f"into {army_rules.army_label(target)} at {where}"
    events.append(
        Event(
            kind="buy",
            text=f"{seat_name(seat)} buys {zones.name(state, command.card)} for {cost} and places it {place}.",
            data={
                "seat": seat,
                "card": command.card,
                "cost": cost,
                "town": where,
                "army": command.into,
            },
        )
    )
    return events


def upgrade_town(state: Homm4State, seat: int, command: UpgradeTown) -> list[Event]:
    """Raise a Town's level by one for level+1 cards, once per Town per turn, up to 4
    (homm4:purchase-phase: L1->2 costs 2 cards, L2->3 costs 3).

    :raises IllegalMove: at level 4, when already upgraded this turn, or when unpaid.
    """
    site = own_town(state, seat, command.town)
    where = board.label(state, site.hex)
    if site.level >= MAX_TOWN_LEVEL:
        raise IllegalMove(f"The Town at {where} is already at the highest level, {MAX_TOWN_LEVEL}.")
    if site.upgraded_turn == state.turn:
        raise IllegalMove(
            f"The Town at {where} has already been upgraded this turn; each Town once per turn."
        )
    cost = site.level + 1
    pay = payment.check_payment(state, seat, cost, command.pay)
    events = payment.discard_payment(state, seat, pay, f"upgrading the Town at {where}")
    site.level += 1
    site.upgraded_turn = state.turn
    events.append(
        Event(
            kind="upgrade_town",
            text=f"{seat_name(seat)} upgrades the Town at {where} to level {site.level} for {cost} cards.",
            data={"seat": seat, "town": where, "level": site.level, "cost": cost},
        )
    )
    return events


def buy_artifact(state: Homm4State, seat: int, command: BuyArtifact) -> list[Event]:
    """Buy an Artifact of a category the Town sells for a Hero whose Army stands in it;
    Treasure is never sold (homm4:card-types.artifact-cards, homm4:purchase-phase).

    :raises IllegalMove: for a card not on sale, a Hero not in a Town, no free slot, or
        no payment.
    """
    if not zones.in_hand_or_risk(state, seat, command.card):
        raise IllegalMove(f"Card #{command.card} is not in your Hand or Risk Stack.")
    artifact = zones.card_as(state, command.card, ArtifactCard)
    if artifact is None:
        raise IllegalMove(f"Card #{command.card} is not an Artifact card.")
    if artifact.cost is None or artifact.category is ArtifactCategory.TREASURE:
        raise IllegalMove(
            f"Card #{command.card} is a Treasure; Treasures are never sold, only won from Guards."
        )
    _, site = hero_army_in_town(state, seat, command.hero, allies=True)
    on_sale = artifact_categories(state, site)
    if artifact.category not in on_sale:
        shown = ", ".join(sorted(c.value for c in on_sale)) or "none"
        raise IllegalMove(
            f"The Town at {board.label(state, site.hex)} does not sell {artifact.category.value} Artifacts "
            f"at level {site.level} (on sale: {shown})."
        )
    slots = fitting_slots(state, command.hero, command.card)
    if slots is None:
        raise IllegalMove(
            f"{zones.name(state, command.hero)} has no free slot for card #{command.card}; discard an Artifact first."
        )
    pay = payment.check_payment(state, seat, artifact.cost, command.pay, exclude=[command.card])
    zones.take_from_hand_or_risk(state, seat, command.card)
    events = payment.discard_payment(state, seat, pay, artifact.name)
    heroes.ensure_inventory(state, command.hero).artifacts[command.card] = slots
    events.append(
        Event(
            kind="buy_artifact",
            text=f"{seat_name(seat)} buys {zones.name(state, command.card)} for {zones.name(state, command.hero)}.",
            data={"seat": seat, "card": command.card, "hero": command.hero, "slots": slots},
        )
    )
    return events


def buy_skill(state: Homm4State, seat: int, command: BuySkill) -> list[Event]:
    """Buy a Skill card a Town sells (Haven's University: Basic Tactics, Life Magic or
    Combat for 2 cards) for a Hero whose Army stands there (homm4:errata).

    :raises IllegalMove: when the Town does not sell it, the Hero may not learn it, or unpaid.
    """
    if not zones.in_hand_or_risk(state, seat, command.card):
        raise IllegalMove(f"Card #{command.card} is not in your Hand or Risk Stack.")
    skill = zones.card_as(state, command.card, SkillCard)
    if skill is None:
        raise IllegalMove(f"Card #{command.card} is not a Skill card.")
    _, site = hero_army_in_town(state, seat, command.hero)
    offers = skills_for_sale(state, site)
    if skill.id not in offers:
        shown = ", ".join(zones.pool().get(s).name for s in offers) or "no Skills"
        raise IllegalMove(
            f"The Town at {board.label(state, site.hex)} sells {shown}, not card #{command.card}."
        )
    problem = heroes.skill_problem(state, command.hero, command.card)
    if problem:
        raise IllegalMove(hide_name(state, command.card, problem))
    price = offers[skill.id]
    pay = payment.check_payment(state, seat, price, command.pay, exclude=[command.card])
    zones.take_from_hand_or_risk(state, seat, command.card)
    events = payment.discard_payment(state, seat, pay, skill.name)
    events += heroes.add_skill(state, command.hero, command.card)
    return events


def learn_spell(state: Homm4State, seat: int, command: LearnSpell) -> list[Event]:
    """Place a Spell card from Hand or Risk Stack into a Hero's inventory, free of cost,
    when the Hero's Army stands in a Town of ``seat`` that teaches it and the Hero's Skills
    allow it (homm4:heroes-levels-skills-and-spells.learning-spells).

    :raises IllegalMove: naming what is missing.
    """
    if not zones.in_hand_or_risk(state, seat, command.card):
        raise IllegalMove(f"Card #{command.card} is not in your Hand or Risk Stack.")
    spell = zones.card_as(state, command.card, SpellCard)
    if spell is None:
        raise IllegalMove(f"Card #{command.card} is not a Spell card.")
    _, site = hero_army_in_town(state, seat, command.hero, allies=True)
    if not teaches(state, site, spell):
        raise IllegalMove(
            f"The level {site.level} Town at {board.label(state, site.hex)} does not teach "
            f"Level {spell.level} {spell.school.value.title()} Spells."
        )
    problem = heroes.spell_problem(state, command.hero, spell)
    if problem:
        raise IllegalMove(hide_name(state, command.card, problem))
    zones.take_from_hand_or_risk(state, seat, command.card)
    heroes.ensure_inventory(state, command.hero).spells.append(command.card)
    return [
        Event(
            kind="learn_spell",
            text=f"{zones.name(state, command.hero)} learns the Spell {zones.name(state, command.card)}.",
            data={"seat": seat, "hero": command.hero, "spell": command.card},
        )
    ]


# ------------------------------------------------------------------ options
def _hand_and_risk(state: Homm4State, seat: int) -> list[int]:
    player = state.players_state[seat]
    return sorted(player.hand + player.risk)


def buy_options(state: Homm4State, seat: int) -> list[BuyUnit]:
    """Every affordable purchase: each buyable card x each Town x (garrison or each Army
    there), paid by the default rule (``pay=None``).
    Rule: homm4:purchase-phase.
    """
    options: list[BuyUnit] = []
    cards = _hand_and_risk(state, seat)
    for site in [*zones.towns_of(state, seat), *ally_towns(state, seat)]:
        town = town_card(state, site)
        offered = set(available_units(state, site))
        where = board.label(state, site.hex)
        targets: list[int | None] = [
            *([None] if site.owner == seat else []),
            *[a.id for a in zones.armies_at(state, site.hex) if a.owner == seat],
        ]
        for instance in cards:
            found = zones.card(state, instance)
            if isinstance(found, UnitCard):
                if found.id not in offered or unit_problem(state, seat, found):
                    continue
                price = found.cost or 0
            elif isinstance(found, HeroCard):
                hero_cost = hero_price(state, town, site, found)
                if hero_cost is None:
                    continue
                price = hero_cost
            else:
                continue
            if not payment.can_afford(state, seat, price, [instance]):
                continue
            for into in targets:
                options.append(BuyUnit(card=instance, town=where, into=into))
    return options


def upgrade_options(state: Homm4State, seat: int) -> list[UpgradeTown]:
    """Every Town ``seat`` may upgrade now and can pay for.

    Rule: homm4:purchase-phase.
    """
    return [
        UpgradeTown(town=board.label(state, s.hex))
        for s in zones.towns_of(state, seat)
        if s.level < MAX_TOWN_LEVEL
        and s.upgraded_turn != state.turn
        and payment.can_afford(state, seat, s.level + 1)
    ]


def _heroes_in_own_towns(
    state: Homm4State, seat: int, allies: bool = False
) -> list[tuple[int, Site]]:
    found: list[tuple[int, Site]] = []
    for army in zones.armies_of(state, seat):
        site = zones.site_at(state, army.hex)
        if site is None or site.kind != "town" or site.owner is None:
            continue
        if site.owner != seat and not (allies and state.options.allies(seat, site.owner)):
            continue
        found.extend((h, site) for h in army_rules.army_heroes(state, army))
    return found


def artifact_options(state: Homm4State, seat: int) -> list[BuyArtifact]:
    """Every Artifact ``seat`` may buy now for a Hero standing in one of its Towns.

    Rule: homm4:purchase-phase.
    """
    options: list[BuyArtifact] = []
    cards = _hand_and_risk(state, seat)
    for hero, site in _heroes_in_own_towns(state, seat, allies=True):
        on_sale = artifact_categories(state, site)
        for instance in cards:
            artifact = zones.card_as(state, instance, ArtifactCard)
            if (
                artifact is not None
                and artifact.cost is not None
                and artifact.category in on_sale
                and fitting_slots(state, hero, instance) is not None
                and payment.can_afford(state, seat, artifact.cost, [instance])
            ):
                options.append(BuyArtifact(card=instance, hero=hero))
    return options


def skill_options(state: Homm4State, seat: int) -> list[BuySkill]:
    """Every Skill ``seat`` may buy now in a Town that sells it, for a Hero there.

    Rule: homm4:errata.
    """
    options: list[BuySkill] = []
    cards = _hand_and_risk(state, seat)
    for hero, site in _heroes_in_own_towns(state, seat):
        offers = skills_for_sale(state, site)
        if not offers:
            continue
        for instance in cards:
            skill = zones.card_as(state, instance, SkillCard)
            if (
                skill is not None
                and skill.id in offers
                and heroes.skill_problem(state, hero, instance) is None
                and payment.can_afford(state, seat, offers[skill.id], [instance])
            ):
                options.append(BuySkill(card=instance, hero=hero))
    return options


def spell_options(state: Homm4State, seat: int) -> list[LearnSpell]:
    """Every Spell ``seat`` may teach a Hero standing in one of its Towns now.

    Rule: homm4:heroes-levels-skills-and-spells.learning-spells.
    """
    options: list[LearnSpell] = []
    cards = _hand_and_risk(state, seat)
    for hero, site in _heroes_in_own_towns(state, seat, allies=True):
        for instance in cards:
            spell = zones.card_as(state, instance, SpellCard)
            if (
                spell is not None
                and teaches(state, site, spell)
                and heroes.spell_problem(state, hero, spell) is None
            ):
                options.append(LearnSpell(card=instance, hero=hero))
    return options


def purchase_options(
    state: Homm4State, seat: int
) -> Sequence[BuyUnit | UpgradeTown | BuyArtifact | BuySkill | LearnSpell]:
    """All Purchase Phase actions ``seat`` may take now (without ``end_purchase``).

    Rule: homm4:purchase-phase.
    """
    return [
        *buy_options(state, seat),
        *upgrade_options(state, seat),
        *artifact_options(state, seat),
        *skill_options(state, seat),
        *spell_options(state, seat),
    ]
