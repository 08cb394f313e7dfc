"""Options chosen when a homm4 game is created (homm4:setup), with the rulebook's Game
Variants, Advanced Rules and the tournament deck size of the Errata.

Every field defaults to the base game: a game created with ``Homm4Options()`` plays the
basic rules. Each advanced rule is a switch; the variants carry their agreed numbers.
Combinations are validated here as far as the options alone allow (equal teams, the
starting composition, the pre-developed counts); what depends on the seat count or the
decks is checked by `engine.homm4.setup.new_game`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.words import plural


class DeckChoice(BaseModel):
    """One seat's deck: a ready-made deck id, or an explicit list ``{card id: copies}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: str | None = Field(default=None, description="id of a ready-made deck")
    cards: dict[str, int] | None = Field(default=None, description="a custom deck list")


class _Option(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartingForcesOption(_Option):
    """Different Starting Forces (homm4:game-variants.different-starting-forces).

    Attributes:
        units: how many Unit cards of Level 1, 2, 3 and 4 every player starts with (the
            same for everybody; the base game is 3, 2, 1, 0; the rulebook's example 6, 4,
            2, 1).
        heroes: how many Hero cards every player starts with (1 to 3).
    """

    units: tuple[int, int, int, int] = (3, 2, 1, 0)
    heroes: int = Field(default=1, ge=1, le=3)

    @model_validator(mode="after")
    def _sizes(self) -> StartingForcesOption:
        if any(n < 0 or n > 12 for n in self.units):
            raise ValueError("each level's Unit count is 0 to 12")
        return self


class PreDevelopedOption(_Option):
    """Pre-developed Heroes (homm4:game-variants.pre-developed-heroes).

    Attributes:
        primary: Primary Skill cards each starting Hero takes into its inventory.
        secondary: Secondary Skill cards each starting Hero takes.
        spells: magic Heroes take one Spell of each level their magic Skills allow (the
            rulebook's rule for magic Heroes).
        treasure: Treasure Artifacts every player takes (the same for everybody).
        other: Artifacts of the other categories (Chaos, Death, Life, Might, Nature,
            Order) every player takes (the same for everybody).
    """

    primary: int = Field(default=1, ge=0, le=4)
    secondary: int = Field(default=1, ge=0, le=4)
    spells: bool = True
    treasure: int = Field(default=0, ge=0, le=3)
    other: int = Field(default=0, ge=0, le=3)


class CarriedHero(_Option):
    """A Hero carried over from an earlier game of a Campaign
    (homm4:game-variants.campaigns): its card and the cards of its inventory, by card id.

    Attributes:
        seat: the seat that gets it (0-based).
        hero: the Hero card id.
        skills: Skill card ids in the order they were played.
        advanced: the Basic/Advanced Skill card ids among ``skills`` turned to Advanced.
        spells: Spell card ids it had learned.
        artifacts: Artifact card ids it carried.
        label: who it belonged to, for the log (e.g. the player's name).
    """

    seat: int = Field(ge=0, le=5)
    hero: str
    skills: tuple[str, ...] = ()
    advanced: tuple[str, ...] = ()
    spells: tuple[str, ...] = ()
    artifacts: tuple[str, ...] = ()
    label: str = ""


class CampaignOption(_Option):
    """Campaigns (homm4:game-variants.campaigns): this game continues a Campaign; its
    ``heroes`` were carried over from the previous game (empty: nobody's Hero survived,
    or this is the Campaign's first game)."""

    heroes: tuple[CarriedHero, ...] = ()


DeckSize = Literal["casual", "tournament-60", "tournament-sections"]
"""``casual``: 40 .. 10 per section (homm4:setup); ``tournament-60``: exactly 60 cards;
``tournament-sections``: exactly 10 per section (homm4:errata, Game Board size)."""


ADVANCED_RULES: tuple[tuple[str, str, str], ...] = (
    ("morale", "Morale", "homm4:advanced-rules.morale"),
    ("luck", "Luck", "homm4:advanced-rules.luck"),
    ("flying", "Flying Armies", "homm4:advanced-rules.flying-armies"),
    ("native_lands", "Native and Special Lands", "homm4:advanced-rules.native-and-special-lands"),
    ("distance_penalties", "Distance Penalties", "homm4:advanced-rules.distance-penalties"),
    (
        "other_faction_heroes",
        "Buying Heroes of Other Factions",
        "homm4:advanced-rules.buying-heroes-of-other-factions",
    ),
    (
        "resurrection",
        "Resurrecting Fallen Heroes",
        "homm4:advanced-rules.resurrecting-fallen-heroes",
    ),
    ("potions", "Potions of Immortality", "homm4:advanced-rules.potions-of-immortality"),
    ("resource_trading", "Resource Trading", "homm4:advanced-rules.resource-trading"),
    ("diplomacy", "Diplomacy", "homm4:advanced-rules.diplomacy"),
)
"""The boolean advanced-rule fields: (field, the rulebook's name, section id)."""


class Homm4Options(BaseModel):
    """Game options.

    Attributes:
        map_sections: how many surface Terrain Map Sections form the board (the
            rulebook's minimum is 4; at most as many as the pool has).
        assembly: ``quick`` (the board assembled legally at random) or ``manual`` (each
            player in turn reveals a section and attaches it, homm4:start-of-the-game).
        decks: one `DeckChoice` per seat, in seat order. Empty: every seat gets a
            ready-made deck, dealt from the shuffled list of ready-made decks.
        deck_size: the deck size rule (`DeckSize`; homm4:errata).
        morale .. diplomacy: the Advanced Rules (`ADVANCED_RULES`), off by default.
        teams: Team Play: the seats of each team (0-based), equal teams, every seat in
            exactly one (homm4:game-variants.team-play). Empty: everyone for themselves.
        starting_forces: Different Starting Forces, or None for the standard ones.
        pre_developed: Pre-developed Heroes, or None (Heroes start at level 1).
        underground: underground Terrain Map Sections, assembled as a second map linked
            to the surface by two pairs of entrances (homm4:terrain-map-sections-with-underground);
            0: none.
        campaign: a Campaign game and the Heroes carried over from the previous one, or
            None.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    map_sections: int = Field(default=4, ge=4, le=12)
    assembly: Literal["quick", "manual"] = "quick"
    decks: tuple[DeckChoice, ...] = ()
    deck_size: DeckSize = "casual"
    morale: bool = False
    luck: bool = False
    flying: bool = False
    native_lands: bool = False
    distance_penalties: bool = False
    other_faction_heroes: bool = False
    resurrection: bool = False
    potions: bool = False
    resource_trading: bool = False
    diplomacy: bool = False
    teams: tuple[tuple[int, ...], ...] = ()
    starting_forces: StartingForcesOption | None = None
    pre_developed: PreDevelopedOption | None = None
    underground: int = Field(default=0, ge=0, le=6)
    campaign: CampaignOption | None = None

    @model_validator(mode="after")
    def _teams_fair(self) -> Homm4Options:
        if not self.teams:
            return self
        if len(self.teams) < 2:
            raise ValueError("Team Play needs at least two teams")
        sizes = {len(team) for team in self.teams}
        if len(sizes) != 1:
            raise ValueError("Team Play needs teams of equal size")
        if min(sizes) < 2:
            raise ValueError("a team has at least 2 players (one player alone is no team)")
        seats = [s for team in self.teams for s in team]
        if len(set(seats)) != len(seats):
            raise ValueError("each seat plays in one team only")
        if any(not 0 <= s <= 5 for s in seats):
            raise ValueError("seats are numbered 0 to 5")
        return self

    def team_of(self, seat: int) -> tuple[int, ...]:
        """Return the seats of ``seat``'s team (itself alone without Team Play)."""
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)

    def allies(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` are on the same side (the same seat, or teammates
        in Team Play: homm4:game-variants.team-play)."""
        return a == b or b in self.team_of(a)

    def sections_in_play(self) -> int:
        """Return every Terrain Map Section in use: surface plus underground."""
        return self.map_sections + self.underground

    def summary(self) -> list[str]:
        """Return one short line per rule or variant in effect beyond the base game (for
        ``/game status`` and the lobby); empty for the base game."""
        lines = [name for field, name, _ in ADVANCED_RULES if getattr(self, field)]
        if self.teams:
            shown = " vs ".join("+".join(str(s + 1) for s in team) for team in self.teams)
            lines.append(f"Team Play (seats {shown})")
        if self.starting_forces is not None:
            units = self.starting_forces.units
            shown = ", ".join(f"{n}xL{level}" for level, n in enumerate(units, start=1) if n)
            lines.append(
                f"Different Starting Forces ({plural(self.starting_forces.heroes, 'Hero')}, "
                f"{shown or 'no Units'})"
            )
        if self.pre_developed is not None:
            pre = self.pre_developed
            lines.append(
                f"Pre-developed Heroes ({pre.primary} Primary + {pre.secondary} Secondary "
                f"Skill {'card' if pre.primary + pre.secondary == 1 else 'cards'} per Hero"
                f"{', Spells by magic level' if pre.spells else ''}, {pre.treasure} Treasure + "
                f"{pre.other} other {'Artifact' if pre.treasure + pre.other == 1 else 'Artifacts'} "
                "per player)"
            )
        if self.underground:
            lines.append(f"Underground ({plural(self.underground, 'section')})")
        if self.campaign is not None:
            lines.append(f"Campaign ({plural(len(self.campaign.heroes), 'Hero')} carried over)")
        if self.deck_size != "casual":
            lines.append(
                "Tournament decks: "
                + ("exactly 60 cards" if self.deck_size == "tournament-60" else "10 per section")
            )
        return lines
