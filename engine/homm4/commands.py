"""Every homm4 player command, as pydantic models (one per rulebook action).

Card arguments are card *instance* ids (the numbers shown on card images, ``#17``); army
arguments are army ids; hexes are labels such as ``"C4"``; sites are named by their hex.
``pay`` lists the Hand cards discarded as payment; ``None`` lets the engine choose the
payment by its documented rule (the cheapest cards first, see `payment.auto_pay`).
Battle creatures are named by their battlefield number.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.core.model import Command

Line = Literal["melee", "ranged"]


# ---------------------------------------------------------------- set-up
class PlaceSection(Command):
    """Attach the revealed Terrain Map Section at macro ``slot`` turned ``rotation``
    sixths clockwise (homm4:start-of-the-game, manual assembly)."""

    type: Literal["place_section"] = "place_section"
    slot: tuple[int, int]
    rotation: int = Field(ge=0, le=5)


class ChooseRiskStack(Command):
    """Put these 5 of the 8 drawn cards face down as the Risk Stack; the other 3 are the
    Hand (homm4:start-of-the-game)."""

    type: Literal["choose_risk_stack"] = "choose_risk_stack"
    cards: tuple[int, ...]


class DevelopHero(Command):
    """Pre-developed Heroes: put these cards of your own deck into the inventory of your
    starting Hero ``hero`` (``None``: the Hero being developed now): the agreed Primary and
    Secondary Skill cards, one Spell of each level its magic allows, and Artifacts
    (homm4:game-variants.pre-developed-heroes)."""

    type: Literal["develop_hero"] = "develop_hero"
    cards: tuple[int, ...] = ()
    hero: int | None = None


class PlaceEntrance(Command):
    """Underground: put the next entrance coin on the Object icon at ``surface`` and its
    pair on the Object icon at ``underground`` (homm4:terrain-map-sections-with-underground)."""

    type: Literal["place_entrance"] = "place_entrance"
    surface: str
    underground: str


class PlaceArmy(Command):
    """Place the starting Army token on an edge hex that is not impassable."""

    type: Literal["place_army"] = "place_army"
    hex: str


# -------------------------------------------------------------- purchase
class BuyUnit(Command):
    """Buy a Unit (or a Hero: homm4:...buying-heroes) from Hand or Risk Stack in a Town you
    control; it goes under the Town card (``into=None``) or into an Army on that hex
    (homm4:purchase-phase)."""

    type: Literal["buy"] = "buy"
    card: int
    town: str
    pay: tuple[int, ...] | None = None
    into: int | None = None


class UpgradeTown(Command):
    """Raise a Town's level by one, paying level+1 cards; once per Town per turn."""

    type: Literal["upgrade_town"] = "upgrade_town"
    town: str
    pay: tuple[int, ...] | None = None


class BuyArtifact(Command):
    """Buy an Artifact of a category on sale in a Town where ``hero``'s Army stands."""

    type: Literal["buy_artifact"] = "buy_artifact"
    card: int
    hero: int
    pay: tuple[int, ...] | None = None


class BuySkill(Command):
    """Buy a Skill card a Town sells (e.g. Haven's University) for ``hero`` standing there."""

    type: Literal["buy_skill"] = "buy_skill"
    card: int
    hero: int
    pay: tuple[int, ...] | None = None


class LearnSpell(Command):
    """Place a Spell card into ``hero``'s inventory in a Town that teaches it; free
    (homm4:heroes-levels-skills-and-spells.learning-spells)."""

    type: Literal["learn_spell"] = "learn_spell"
    card: int
    hero: int


class EndPurchase(Command):
    """End the Purchase Phase and start moving."""

    type: Literal["end_purchase"] = "end_purchase"


# -------------------------------------------------------------- movement
class SplitArmy(Command):
    """Move ``cards`` of an Army into a new Army on the same hex (at most 4 Armies)."""

    type: Literal["split_army"] = "split_army"
    army: int
    cards: tuple[int, ...]


class FormArmy(Command):
    """Form a new Army from Unit/Hero cards under a Town card you control."""

    type: Literal["form_army"] = "form_army"
    town: str
    cards: tuple[int, ...]


class TransferCards(Command):
    """Move ``cards`` from one of your Armies to another on the same hex (all of them:
    a merge). Ends the movement of both Armies."""

    type: Literal["transfer"] = "transfer"
    source: int
    target: int
    cards: tuple[int, ...]


class TransferArtifact(Command):
    """Give an Artifact from one Hero to another in Armies on the same hex (ends the
    movement of both Armies)."""

    type: Literal["transfer_artifact"] = "transfer_artifact"
    artifact: int
    to_hero: int


class DiscardArtifact(Command):
    """Discard an Artifact from a Hero's inventory to free its slot (any time in your turn)."""

    type: Literal["discard_artifact"] = "discard_artifact"
    artifact: int


class Move(Command):
    """Move an Army toward ``to`` along its cheapest path. Movement stops early when a site
    is scouted or a battle starts. ``with_armies`` are your Armies on the same hex that join
    it to attack when ``to`` is an adjacent hex with an enemy (the Merging exception)."""

    type: Literal["move"] = "move"
    army: int
    to: str
    with_armies: tuple[int, ...] = ()


class Recruit(Command):
    """Buy the unit a captured Creature Dwelling sells into the Army visiting it."""

    type: Literal["recruit"] = "recruit"
    army: int
    card: int
    pay: tuple[int, ...] | None = None


class CastAdventureSpell(Command):
    """Cast an adventure Spell (movement or sight) known by ``hero``; once per hero per turn."""

    type: Literal["cast_adventure_spell"] = "cast_adventure_spell"
    hero: int
    spell: int


class EndMovement(Command):
    """End the Movement Phase."""

    type: Literal["end_movement"] = "end_movement"


# -------------------------------------------------------------- scouting
class Identify(Command):
    """Identify the scouted site at ``site`` with a card from Hand or Risk Stack (or your
    free Town card: ``card`` = its id)."""

    type: Literal["identify"] = "identify"
    site: str
    card: int


class PassIdentify(Command):
    """Do not identify the scouted site (the next player may steal the intelligence)."""

    type: Literal["pass_identify"] = "pass_identify"
    site: str


class ReinforceGuard(Command):
    """As Guard Player, add Unit cards of the Guard's faction from Hand or Risk Stack
    (possibly none) (homm4:chipping-in-for-the-guard)."""

    type: Literal["reinforce_guard"] = "reinforce_guard"
    cards: tuple[int, ...] = ()


# ---------------------------------------------------------------- battle
class StackOrder(BaseModel):
    """One Creature Stack of a deployment: its cards (top first) and its line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: tuple[int, ...]
    line: Line


class Deploy(Command):
    """Deploy all your forces as at most 7 Creature Stacks (homm4:battles.tactical-deployment)."""

    type: Literal["deploy"] = "deploy"
    stacks: tuple[StackOrder, ...]


class Attack(Command):
    """Attack with ``creature``: ``mode`` melee, ranged or spell (spellcasting units).

    ``targets`` are enemy creature numbers (several only for multi-target units);
    ``target_walls`` attacks the Town walls instead (melee only). ``count`` > 1 is a Mass
    attack on that many cards of the single target (homm4:battles.making-a-melee-attack).
    """

    type: Literal["attack"] = "attack"
    creature: int
    mode: Literal["melee", "ranged", "spell"]
    targets: tuple[int, ...] = ()
    target_walls: bool = False
    count: int = Field(default=1, ge=1)


class SupportCreature(Command):
    """Give up this attack to add the stack's level total to a friend's next attack."""

    type: Literal["support"] = "support"
    creature: int
    target: int


class Group(Command):
    """Give up this attack to double the next one (Swarm, homm4:battles.grouping)."""

    type: Literal["group"] = "group"
    creature: int


class Defend(Command):
    """Give up this attack to add the level to Defense until its next turn (homm4:battles.defense)."""

    type: Literal["defend"] = "defend"
    creature: int


class Regroup(Command):
    """Give up this attack to switch lines (homm4:battles.regrouping)."""

    type: Literal["regroup"] = "regroup"
    creature: int


class CastSpell(Command):
    """A hero gives up its attack to cast a battle Spell from its inventory within its Mana
    (homm4:heroes-levels-skills-and-spells.casting-spells)."""

    type: Literal["cast_spell"] = "cast_spell"
    creature: int
    spell: int
    targets: tuple[int, ...] = ()
    count: int = Field(default=1, ge=1)


class Counterattack(Command):
    """Answer the attack just survived (``strike=False`` declines) (homm4:battles.counterattack)."""

    type: Literal["counterattack"] = "counterattack"
    strike: bool = True


class FillFront(Command):
    """Move a back-line creature to the front line when the rules require it."""

    type: Literal["fill_front"] = "fill_front"
    creature: int


class Retreat(Command):
    """At the end of a Round, retreat with your heroes (or ``retreat=False`` to fight on)."""

    type: Literal["retreat"] = "retreat"
    retreat: bool = True


class OfferSurrender(Command):
    """At the end of a Round, offer ``cards`` from your Hand for a safe withdrawal
    (``cards=None``: no offer) (homm4:battles.surrender).

    ``pay`` optionally names the Hand cards to discard if the offer is accepted (as many
    as ``cards``); ``None`` lets the engine choose them by `payment.auto_pay`.
    """

    type: Literal["offer_surrender"] = "offer_surrender"
    cards: int | None = Field(default=None, ge=0)
    pay: tuple[int, ...] | None = None


class AnswerSurrender(Command):
    """Accept or reject the opponent's surrender offer."""

    type: Literal["answer_surrender"] = "answer_surrender"
    accept: bool


class LearnSkill(Command):
    """After a won battle, play a Skill card into ``hero``'s inventory (``card=None``: skip)."""

    type: Literal["learn_skill"] = "learn_skill"
    hero: int
    card: int | None = None


class MakeArtifactRoom(Command):
    """Choose which Artifact to discard when a captured one fits no free slot."""

    type: Literal["make_artifact_room"] = "make_artifact_room"
    discard: int


# ------------------------------------------------------ advanced rules
class PayPlayer(Command):
    """Diplomacy: discard ``cards`` Hand cards (never the Risk Stack); ``to`` draws as
    many from their own deck (homm4:advanced-rules.diplomacy). ``pay`` optionally names
    the Hand cards; ``None`` lets the engine choose them by `payment.auto_pay`."""

    type: Literal["pay_player"] = "pay_player"
    to: int = Field(ge=0, le=5)
    cards: int = Field(ge=1)
    pay: tuple[int, ...] | None = None


class GiveArmy(Command):
    """Diplomacy: hand control of an Army that has not moved this turn to seat ``to``
    (at the start of its Units' turn, homm4:advanced-rules.diplomacy)."""

    type: Literal["give_army"] = "give_army"
    army: int
    to: int = Field(ge=0, le=5)


class SellObject(Command):
    """Resource Trading: turn the Object you control at ``site`` to "Sold" so seat ``to``
    uses its bonus until the end of your next turn (homm4:advanced-rules.resource-trading)."""

    type: Literal["sell_object"] = "sell_object"
    site: str
    to: int = Field(ge=0, le=5)


class LootHero(Command):
    """Take every Artifact of an enemy dead Hero lying where ``army`` stands
    (homm4:advanced-rules.resurrecting-fallen-heroes)."""

    type: Literal["loot_hero"] = "loot_hero"
    army: int
    hero: int


# --------------------------------------------------------------- closing
class CloseTurn(Command):
    """Closing Phase: put ``card`` from Hand into the Risk Stack and draw one card
    (``card=None`` only with an empty Hand) (homm4:closing-phase)."""

    type: Literal["close_turn"] = "close_turn"
    card: int | None = None


Homm4Command = Annotated[
    PlaceSection
    | DevelopHero
    | PlaceEntrance
    | ChooseRiskStack
    | PlaceArmy
    | BuyUnit
    | UpgradeTown
    | BuyArtifact
    | BuySkill
    | LearnSpell
    | EndPurchase
    | SplitArmy
    | FormArmy
    | TransferCards
    | TransferArtifact
    | DiscardArtifact
    | Move
    | Recruit
    | CastAdventureSpell
    | EndMovement
    | Identify
    | PassIdentify
    | ReinforceGuard
    | Deploy
    | Attack
    | SupportCreature
    | Group
    | Defend
    | Regroup
    | CastSpell
    | Counterattack
    | FillFront
    | Retreat
    | OfferSurrender
    | AnswerSurrender
    | LearnSkill
    | MakeArtifactRoom
    | PayPlayer
    | GiveArmy
    | SellObject
    | LootHero
    | CloseTurn,
    Field(discriminator="type"),
]
COMMAND_ADAPTER: TypeAdapter[Homm4Command] = TypeAdapter(Homm4Command)
