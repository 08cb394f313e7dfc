"""Every mmh player command, as pydantic models (one per rulebook action or choice).

Spaces are labels (``"C7"``); heroes, creatures and cards are content ids (``sandor``,
``ghoul``, ``arcane_bolt``); a creature marker in a list is ``ghoul`` (basic) or ``ghoul+``
(elite); markers on the initiative track are their track numbers (``[3]`` in pictures).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from engine.core.model import Command

Deck = Literal["might", "magic"]


# ------------------------------------------------------------------ set-up
class PlaceTile(Command):
    """Lay the next map tile at grid column/row (1-based), turned 0-3 quarter turns
    (mmh:game-setup.setting-up-the-game-board)."""

    type: Literal["place_tile"] = "place_tile"
    column: int = Field(ge=1, le=4)
    row: int = Field(ge=1, le=4)
    rotation: int = Field(ge=0, le=3)


class PlaceCapital(Command):
    """Place your capital marker (mmh:game-setup.setting-up-the-game-board, Placing the Capitals)."""

    type: Literal["place_capital"] = "place_capital"
    space: str


class ChooseHero(Command):
    """Choose your starting hero (mmh:game-setup.choosing-the-starting-hero)."""

    type: Literal["choose_hero"] = "choose_hero"
    hero: str


# ------------------------------------------------------------------ actions
class PlayAction(Command):
    """Play an action card (1-4) for one of its actions, or ``pass``; ``bonus`` picks the
    Town Hall's gold or resources when gathering (mmh:course-of-play.playing-action-cards)."""

    type: Literal["play_action"] = "play_action"
    card: int = Field(ge=1, le=4)
    action: Literal["build", "gather", "recruit", "hero", "pass"]
    bonus: Literal["gold", "resources"] | None = None


class Build(Command):
    """Construct a building, or ``level`` to raise the capital (mmh:course-of-play.build);
    ``pay`` picks gold or resources for the Town Hall."""

    type: Literal["build"] = "build"
    building: str
    pay: Literal["gold", "resources"] | None = None


class Trade(Command):
    """Exchange ``amount`` of one for half as much of the other (Marketplace, 2:1)."""

    type: Literal["trade"] = "trade"
    give: Literal["gold", "resources"]
    amount: int = Field(ge=2, le=200)


class SellScroll(Command):
    """Sell a scroll card of a hero in the capital for gold equal to its level."""

    type: Literal["sell_scroll"] = "sell_scroll"
    hero: str
    scroll: str


class RecruitCreature(Command):
    """Recruit a creature for a hero in the capital (mmh:course-of-play.recruit)."""

    type: Literal["recruit"] = "recruit"
    hero: str
    creature: str
    elite: bool = False


class RecruitHero(Command):
    """Recruit a new hero with the Hall of Heroes."""

    type: Literal["recruit_hero"] = "recruit_hero"
    hero: str


class Upgrade(Command):
    """Upgrade one basic creature of a hero in the capital to elite."""

    type: Literal["upgrade"] = "upgrade"
    hero: str
    creature: str


class Dismiss(Command):
    """Dismiss one creature (never a hero's last)."""

    type: Literal["dismiss"] = "dismiss"
    hero: str
    creature: str
    elite: bool = False


class Activate(Command):
    """Activate a hero (ends the previous hero's activation)."""

    type: Literal["activate"] = "activate"
    hero: str


class Move(Command):
    """Move the active hero one space, through a portal, or ``capital`` (his own)."""

    type: Literal["move"] = "move"
    to: str


class Explore(Command):
    """Explore the location the active hero stands on."""

    type: Literal["explore"] = "explore"


class TakeControl(Command):
    """Take control of the location the active hero stands on (a battle first when it is
    guarded); also the answer "take it" when he passes an unguarded one."""

    type: Literal["take_control"] = "take_control"


class LevelUp(Command):
    """Level a hero up: discard trophies worth the cost (skill cards + 3 XP), draw 2 skill
    cards from ``deck``, keep 1. While treasure XP is pending it counts too."""

    type: Literal["level_up"] = "level_up"
    hero: str
    deck: Deck
    trophies: tuple[int, ...] = ()


class EndAction(Command):
    """End the current action (Build without building; the end of Recruit or Activate Hero)."""

    type: Literal["end_action"] = "end_action"


# ------------------------------------------------------------------ choices
class Keep(Command):
    """Keep one of the drawn cards (or one of two artefacts of a category)."""

    type: Literal["keep"] = "keep"
    card: str


class MakeRoom(Command):
    """Discard a held scroll to draw a new one."""

    type: Literal["make_room"] = "make_room"
    scroll: str


class ChooseFields(Command):
    """Choose fields (1-4) of the drawn treasure card."""

    type: Literal["choose_fields"] = "choose_fields"
    fields: tuple[int, ...]


class ChooseDeck(Command):
    """Draw a free skill card from the might or magic deck."""

    type: Literal["choose_deck"] = "choose_deck"
    deck: Deck


class Search(Command):
    """Dragon Vein: take a card from the treasure, scroll or artefact discard pile."""

    type: Literal["search"] = "search"
    pile: Literal["treasure", "scroll", "artefact"]
    card: str


class ArenaRecruitCmd(Command):
    """Arena: recruit one creature of your faction for the exploring hero."""

    type: Literal["arena_recruit"] = "arena_recruit"
    creature: str
    elite: bool = False


class RaiseCreature(Command):
    """Spend a RAISE DEAD point: ``revive`` a fallen creature or ``upgrade`` a basic one."""

    type: Literal["raise"] = "raise"
    creature: str
    mode: Literal["revive", "upgrade"]


class ChooseReward(Command):
    """After winning a hero battle: a skill card (``deck``) or an ``artefact`` of the loser."""

    type: Literal["reward"] = "reward"
    deck: Deck | None = None
    artefact: str | None = None


class ReturnCreatures(Command):
    """Leadership dropped: send these creatures (``ghoul`` / ``ghoul+``) of the hero's army
    back to your reserve, as many as the army exceeds his Leadership."""

    type: Literal["return_creatures"] = "return_creatures"
    creatures: tuple[str, ...]


class Decline(Command):
    """Pass on an optional choice (treasure XP, a scroll, a Dragon Vein, an Arena, raising,
    taking control of an unguarded location passed through)."""

    type: Literal["decline"] = "decline"


# ------------------------------------------------------------------ battle
class Honor(Command):
    """Honor: everyone may roll the elite die in this battle (true) or nobody (false)."""

    type: Literal["honor"] = "honor"
    elite_die: bool


class UseCard(Command):
    """Use a skill, artefact or scroll in its window (In Battle: instead of the hero's
    attack); ``part`` primary / secondary (OR) / both (AND); ``target`` a track number."""

    type: Literal["use_card"] = "use_card"
    card: str
    part: Literal["primary", "secondary", "both"] = "primary"
    target: int | None = None


class PassWindow(Command):
    """Use no (more) cards in the open window."""

    type: Literal["pass_window"] = "pass_window"


class Attack(Command):
    """The marker due on the initiative track attacks; ``elite`` rolls the elite die in
    place of one attack die; ``target`` is a Focused Attack's pick."""

    type: Literal["attack"] = "attack"
    elite: bool = True
    target: int | None = None


class SpendLuck(Command):
    """After the roll: ``negate`` Bad Luck, reroll ``missed`` dice or the ``elite`` die with
    a luck marker, or ``none``."""

    type: Literal["luck"] = "luck"
    choice: Literal["negate", "missed", "elite", "none"]


class Laurel(Command):
    """Laurel wreath: ``upgrade`` a creature of the attacking stack or ``raise`` (RAISE DEAD 1)."""

    type: Literal["laurel"] = "laurel"
    choice: Literal["upgrade", "raise"]


class GuardianAngel(Command):
    """Guardian Angel: ``use`` ignores the elite die's damage of this attack (once per
    exchange of blows); false takes it and keeps the Angel for later in the exchange."""

    type: Literal["angel"] = "angel"
    use: bool


class Assign(Command):
    """Assign the pending damage to one of your stacks (track number); ``order``: flip
    ``elite`` creatures first or destroy ``basic`` ones first."""

    type: Literal["assign"] = "assign"
    unit: int
    order: Literal["elite", "basic"] = "elite"


class Retreat(Command):
    """Retreat to the capital, giving up ``losses`` (``ghoul``/``ghoul+``; default: the
    cheapest allowed)."""

    type: Literal["retreat"] = "retreat"
    losses: tuple[str, ...] | None = None


class FightOn(Command):
    """Stay in the battle for another exchange of blows."""

    type: Literal["fight_on"] = "fight_on"


AnyCommand = Annotated[
    PlaceTile
    | PlaceCapital
    | ChooseHero
    | PlayAction
    | Build
    | Trade
    | SellScroll
    | RecruitCreature
    | RecruitHero
    | Upgrade
    | Dismiss
    | Activate
    | Move
    | Explore
    | TakeControl
    | LevelUp
    | EndAction
    | Keep
    | MakeRoom
    | ChooseFields
    | ChooseDeck
    | Search
    | ArenaRecruitCmd
    | RaiseCreature
    | ChooseReward
    | ReturnCreatures
    | Decline
    | Honor
    | UseCard
    | PassWindow
    | Attack
    | SpendLuck
    | Laurel
    | GuardianAngel
    | Assign
    | Retreat
    | FightOn,
    Field(discriminator="type"),
]
COMMAND_ADAPTER: TypeAdapter[AnyCommand] = TypeAdapter(AnyCommand)
"""Parses a raw dict / JSON into the right command model."""
