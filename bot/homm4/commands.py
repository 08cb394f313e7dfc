"""The homm4 command table: every player action as a slash command, its options, how the
options become an engine command, and where autocomplete suggestions come from.

Rule sections: homm4:start-of-the-game (``/setup``; ``/setup develop``:
homm4:game-variants.pre-developed-heroes; ``/setup entrance``:
homm4:terrain-map-sections-with-underground), homm4:purchase-phase (``/purchase``),
homm4:movement-phase (``/army``), homm4:movement-phase.scouting-terrain (``/scout``),
homm4:chipping-in-for-the-guard (``/guard``), homm4:battles (``/battle``),
homm4:heroes-levels-skills-and-spells (``/hero``), homm4:closing-phase (``/turn``),
homm4:advanced-rules.diplomacy and homm4:advanced-rules.resource-trading (``/deal``),
homm4:advanced-rules.resurrecting-fallen-heroes (``/hero loot``).

Option values are what a player can type: cards as ``#17`` (or by name, ``Orc``), hexes
as ``C4``, Armies by their number, battle Creatures by their number (``3`` or ``[3]``),
lists separated by spaces or commas (``#12 #13``), a deployment as
``#12 #13 melee; #20 ranged``. Autocomplete suggests values from
`Ruleset.legal_commands` for the acting seat (at most 25), but it is only a suggestion:
every command is validated again by the engine when applied.

`PLAY_COMMANDS` lists them; `build_command(spec_path, context, options)` turns options
into an engine command dict; `suggest(...)` gives autocomplete pairs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.adapters import PlayRequest
from bot.command_table import Choice, CommandSpec, OptionSpec
from bot.errors import BadOption, WrongStage
from bot.homm4 import describe as d
from bot.play_commands import filter_pairs, orders_spec, read_seat, wrong_stage
from engine.core.model import Command, Decision, seat_name
from engine.homm4 import board, zones
from engine.homm4 import commands as c
from engine.homm4.state import ArtifactRoom, Homm4State, ScoutOffer, SkillAward

RULESET = "homm4"

FieldKind = Literal[
    "card",
    "cards",
    "pay",
    "hex",
    "army",
    "armies",
    "creature",
    "targets",
    "int",
    "slot",
    "stacks",
    "seat",
]
"""How an option's text is read: one card, a list of cards, a payment (cards or
``auto``), a hex label, an Army number, a list of Army numbers, a battle Creature number,
battle targets (Creature numbers or ``walls``), a whole number, a section slot ``q,r``,
a deployment, or a seat (colour or number, 1 = Red)."""


@dataclass(frozen=True)
class PlayContext(PlayRequest):
    """A `PlayRequest` of a homm4 game (``state`` is a `Homm4State`): what a builder or
    an autocomplete source may look at."""

    state: Homm4State

    def of_type(self, command_type: str) -> list[Command]:
        """The legal commands of one engine type."""
        return [cmd for cmd in self.legal if cmd.type == command_type]


@dataclass(frozen=True)
class PlayCommand:
    """One homm4 slash command.

    Attributes:
        spec: its table entry (path, description, options).
        command_type: the engine command type it builds.
        fields: option name -> (engine field, how its text is read).
        fixed: engine fields with fixed values (e.g. ``{"strike": True}``).
        fill: fills engine fields the player may leave out (the site being scouted,
            the Creature due to act...) from the context.
    """

    spec: CommandSpec
    command_type: str
    fields: Mapping[str, tuple[str, FieldKind]] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    fill: Callable[[PlayContext, dict[str, Any]], None] | None = None


# ------------------------------------------------------------------ option helpers
def _opt(name: str, description: str, *, required: bool = False, auto: bool = True) -> OptionSpec:
    return OptionSpec(name, description, "string", required=required, autocomplete=auto)


def _int(name: str, description: str, *, required: bool = False, lo: int = 0) -> OptionSpec:
    return OptionSpec(name, description, "integer", required=required, min_value=lo)


def _choice(
    name: str, description: str, choices: Iterable[tuple[str, str]], *, required: bool = False
) -> OptionSpec:
    return OptionSpec(
        name,
        description,
        "string",
        required=required,
        choices=tuple(Choice(n, v) for n, v in choices),
    )


_PAY = _opt("pay", "Hand cards to discard as payment, e.g. #3 #8 (default: the cheapest)")


def _spec(
    path: tuple[str, str],
    description: str,
    options: Sequence[OptionSpec],
    phase: Sequence[str],
    handler: str,
) -> CommandSpec:
    return CommandSpec(
        path=path,
        description=description,
        options=tuple(options),
        kind="play",
        handler=handler,
        ruleset=RULESET,
        ephemeral=True,
        phase=tuple(phase),
    )


# ------------------------------------------------------------------ fillers
def _fill_site(ctx: PlayContext, command: dict[str, Any]) -> None:
    head = ctx.state.interrupts[0] if ctx.state.interrupts else None
    if "site" not in command and isinstance(head, ScoutOffer):
        command["site"] = board.label(ctx.state, ctx.state.sites[head.site].hex)


def _fill_award_hero(ctx: PlayContext, command: dict[str, Any]) -> None:
    head = ctx.state.interrupts[0] if ctx.state.interrupts else None
    if "hero" not in command and isinstance(head, SkillAward):
        command["hero"] = head.heroes[0]


def _due_creatures(ctx: PlayContext) -> list[int]:
    found: list[int] = []
    for cmd in ctx.legal:
        number = getattr(cmd, "creature", None)
        if isinstance(number, int) and cmd.type != "fill_front" and number not in found:
            found.append(number)
    return found


def _fill_creature(ctx: PlayContext, command: dict[str, Any]) -> None:
    if "creature" in command:
        return
    due = _due_creatures(ctx)
    if len(due) == 1:
        command["creature"] = due[0]
    elif due:
        raise BadOption(
            "Several Creatures act now; say which with creature: "
            + ", ".join(d.creature_label(ctx.state, n) for n in due)
            + "."
        )


def _fill_town(ctx: PlayContext, command: dict[str, Any]) -> None:
    if "town" in command:
        return
    towns = sorted({cmd.town for cmd in ctx.legal if hasattr(cmd, "town")})
    if len(towns) == 1:
        command["town"] = towns[0]
    else:
        mine = [board.label(ctx.state, s.hex) for s in zones.towns_of(ctx.state, ctx.seat)]
        if len(mine) == 1:
            command["town"] = mine[0]
        else:
            raise BadOption(f"Say which Town with town: ({', '.join(mine) or 'you control none'}).")


def _fill_buy(ctx: PlayContext, command: dict[str, Any]) -> None:
    if "town" in command:
        return
    towns = sorted(
        {
            str(getattr(cmd, "town", ""))
            for cmd in ctx.of_type("buy")
            if getattr(cmd, "card", None) == command.get("card")
        }
    )
    if len(towns) == 1:
        command["town"] = towns[0]
    else:
        _fill_town(ctx, command)


def _fill_attack(ctx: PlayContext, command: dict[str, Any]) -> None:
    _fill_creature(ctx, command)
    if "mode" in command:
        return
    matching = [
        cmd
        for cmd in ctx.of_type("attack")
        if isinstance(cmd, c.Attack)
        and cmd.creature == command.get("creature")
        and (
            cmd.target_walls
            if command.get("target_walls")
            else tuple(cmd.targets) == tuple(command.get("targets", ()))
        )
    ]
    command["mode"] = matching[0].mode if matching else "melee"


def _fill_close(ctx: PlayContext, command: dict[str, Any]) -> None:
    if "card" in command:
        return
    cards = sorted(
        {
            cmd.card
            for cmd in ctx.of_type("close_turn")
            if isinstance(cmd, c.CloseTurn) and cmd.card is not None
        }
    )
    if cards:
        listed = ", ".join(d.card_label(ctx.state, card) for card in cards)
        raise BadOption(f"Name the Hand card to put into your Risk Stack with card: ({listed}).")


def _fill_artifact_room(ctx: PlayContext, command: dict[str, Any]) -> None:
    head = ctx.state.interrupts[0] if ctx.state.interrupts else None
    if "discard" not in command and isinstance(head, ArtifactRoom):
        command["discard"] = head.artifact


def _fill_develop_hero(ctx: PlayContext, command: dict[str, Any]) -> None:
    if "hero" not in command:
        command["hero"] = next((h for s, h in ctx.state.to_develop if s == ctx.seat), None)


def develop_candidates(state: Homm4State, seat: int) -> list[int]:
    """The cards of ``seat``'s deck a starting Hero may take under Pre-developed Heroes
    (homm4:game-variants.pre-developed-heroes): Skill cards, Spell cards when Spells are
    agreed, Artifacts when any are agreed; Skills first, then Spells, then Artifacts, by
    name. Private: the seat's own deck."""
    from engine.homm4.cards import ArtifactCard, SkillCard, SpellCard

    rule = state.options.pre_developed
    if rule is None:
        return []
    kinds: list[type] = [SkillCard]
    if rule.spells:
        kinds.append(SpellCard)
    if rule.treasure or rule.other:
        kinds.append(ArtifactCard)
    deck = state.players_state[seat].deck
    return [
        card
        for kind in kinds
        for card in sorted(
            (c for c in deck if isinstance(zones.card(state, c), kind)),
            key=lambda c: (d.card_name(state, c), c),
        )
    ]


def _fill_chain(
    *fillers: Callable[[PlayContext, dict[str, Any]], None],
) -> Callable[[PlayContext, dict[str, Any]], None]:
    def run(ctx: PlayContext, command: dict[str, Any]) -> None:
        for filler in fillers:
            filler(ctx, command)

    return run


# ------------------------------------------------------------------ the table
_CARD_HAND = "a card of your Hand or Risk Stack: #17 or its name"

PLAY: tuple[PlayCommand, ...] = (
    # ---- set-up (homm4:start-of-the-game)
    PlayCommand(
        _spec(
            ("setup", "section"),
            "Attach the revealed Terrain Map Section (manual assembly)",
            [
                _opt("slot", "where: a free slot as q,r (see suggestions)", required=True),
                OptionSpec(
                    "rotation",
                    "turned 0-5 sixths clockwise",
                    "integer",
                    required=True,
                    min_value=0,
                    max_value=5,
                    autocomplete=True,
                ),
            ],
            ("place_section",),
            "place_section",
        ),
        "place_section",
        {"slot": ("slot", "slot"), "rotation": ("rotation", "int")},
    ),
    PlayCommand(
        _spec(
            ("setup", "develop"),
            "Pre-developed Heroes: give your starting Hero cards from your deck",
            [
                _opt(
                    "cards",
                    "Skill, Spell and Artifact cards of your deck, e.g. #19 #25 #5 (see suggestions)",
                    required=True,
                ),
                _opt("hero", "your starting Hero, e.g. #21 (default: the one being developed)"),
            ],
            ("develop_hero",),
            "develop_hero",
        ),
        "develop_hero",
        {"cards": ("cards", "cards"), "hero": ("hero", "card")},
        fill=_fill_develop_hero,
    ),
    PlayCommand(
        _spec(
            ("setup", "entrance"),
            "Underground: place the next entrance coin pair on two Object icons",
            [
                _opt("surface", "an Object icon on the surface map, e.g. D3", required=True),
                _opt(
                    "underground", "an Object icon on the underground map, e.g. W17", required=True
                ),
            ],
            ("place_entrance",),
            "place_entrance",
        ),
        "place_entrance",
        {"surface": ("surface", "hex"), "underground": ("underground", "hex")},
    ),
    PlayCommand(
        _spec(
            ("setup", "risk"),
            "Choose 5 of the 8 drawn cards as your Risk Stack",
            [
                _opt(
                    "cards",
                    "five cards, e.g. #3 #5 #6 #9 #10 (the other three form your Hand)",
                    required=True,
                )
            ],
            ("choose_risk_stack",),
            "choose_risk_stack",
        ),
        "choose_risk_stack",
        {"cards": ("cards", "cards")},
    ),
    PlayCommand(
        _spec(
            ("setup", "army"),
            "Place your first Army token on an edge hex",
            [_opt("hex", "an edge hex that is not impassable, e.g. A3", required=True)],
            ("place_army",),
            "place_army",
        ),
        "place_army",
        {"hex": ("hex", "hex")},
    ),
    # ---- purchase (homm4:purchase-phase)
    PlayCommand(
        _spec(
            ("purchase", "buy"),
            "Buy a Unit or Hero in one of your Towns",
            [
                _opt("card", _CARD_HAND, required=True),
                _opt("town", "the Town's hex, e.g. C4 (default: your only Town)"),
                _opt("into", "an Army number in that Town to join (default: under the Town card)"),
                _PAY,
            ],
            ("purchase",),
            "buy",
        ),
        "buy",
        {
            "card": ("card", "card"),
            "town": ("town", "hex"),
            "into": ("into", "army"),
            "pay": ("pay", "pay"),
        },
        fill=_fill_buy,
    ),
    PlayCommand(
        _spec(
            ("purchase", "upgrade"),
            "Raise a Town's level by one (pay level + 1 cards)",
            [_opt("town", "the Town's hex, e.g. C4 (default: your only Town)"), _PAY],
            ("purchase",),
            "upgrade_town",
        ),
        "upgrade_town",
        {"town": ("town", "hex"), "pay": ("pay", "pay")},
        fill=_fill_town,
    ),
    PlayCommand(
        _spec(
            ("purchase", "artifact"),
            "Buy an Artifact for a Hero standing in your Town",
            [
                _opt("card", "the Artifact: " + _CARD_HAND, required=True),
                _opt("hero", "the Hero card, e.g. #5", required=True),
                _PAY,
            ],
            ("purchase",),
            "buy_artifact",
        ),
        "buy_artifact",
        {"card": ("card", "card"), "hero": ("hero", "card"), "pay": ("pay", "pay")},
    ),
    PlayCommand(
        _spec(
            ("purchase", "skill"),
            "Buy a Skill a Town sells for a Hero standing there",
            [
                _opt("card", "the Skill card: " + _CARD_HAND, required=True),
                _opt("hero", "the Hero card, e.g. #5", required=True),
                _PAY,
            ],
            ("purchase",),
            "buy_skill",
        ),
        "buy_skill",
        {"card": ("card", "card"), "hero": ("hero", "card"), "pay": ("pay", "pay")},
    ),
    PlayCommand(
        _spec(
            ("purchase", "spell"),
            "Teach a Spell to a Hero in a Town (free; Movement Phase too)",
            [
                _opt("card", "the Spell card: " + _CARD_HAND, required=True),
                _opt("hero", "the Hero card, e.g. #5", required=True),
            ],
            ("purchase", "movement"),
            "learn_spell",
        ),
        "learn_spell",
        {"card": ("card", "card"), "hero": ("hero", "card")},
    ),
    PlayCommand(
        _spec(
            ("purchase", "done"),
            "End the Purchase Phase and start moving",
            [],
            ("purchase",),
            "end_purchase",
        ),
        "end_purchase",
    ),
    # ---- movement (homm4:movement-phase)
    PlayCommand(
        _spec(
            ("army", "move"),
            "Move an Army to a hex along its cheapest path",
            [
                _opt("army", "the Army number, e.g. 1", required=True),
                _opt("to", "the hex to go to, e.g. D5", required=True),
                _opt("with", "your Armies on the same hex joining the attack, e.g. 2 3"),
            ],
            ("movement",),
            "move",
        ),
        "move",
        {"army": ("army", "army"), "to": ("to", "hex"), "with": ("with_armies", "armies")},
    ),
    PlayCommand(
        _spec(
            ("army", "split"),
            "Split cards off an Army into a new Army on the same hex",
            [
                _opt("army", "the Army number, e.g. 1", required=True),
                _opt("cards", "the cards that leave, e.g. #12 #13", required=True),
            ],
            ("movement",),
            "split_army",
        ),
        "split_army",
        {"army": ("army", "army"), "cards": ("cards", "cards")},
    ),
    PlayCommand(
        _spec(
            ("army", "form"),
            "Form a new Army from cards under one of your Town cards",
            [
                _opt("town", "the Town's hex, e.g. C4", required=True),
                _opt("cards", "the cards, e.g. #12 #13", required=True),
            ],
            ("movement",),
            "form_army",
        ),
        "form_army",
        {"town": ("town", "hex"), "cards": ("cards", "cards")},
    ),
    PlayCommand(
        _spec(
            ("army", "transfer"),
            "Move cards between two of your Armies on one hex (ends both moves)",
            [
                _opt("source", "the Army giving cards", required=True),
                _opt("target", "the Army receiving them", required=True),
                _opt("cards", "the cards, e.g. #12 #13 (default: all: a merge)"),
            ],
            ("movement",),
            "transfer",
        ),
        "transfer",
        {"source": ("source", "army"), "target": ("target", "army"), "cards": ("cards", "cards")},
        fill=lambda ctx, cmd: cmd.setdefault(
            "cards", tuple(zones.army(ctx.state, cmd["source"]).cards) if "source" in cmd else ()
        ),
    ),
    PlayCommand(
        _spec(
            ("army", "give-artifact"),
            "Give an Artifact to another Hero on the same hex",
            [
                _opt("artifact", "the Artifact card, e.g. #30", required=True),
                _opt("hero", "the Hero receiving it, e.g. #5", required=True),
            ],
            ("movement",),
            "transfer_artifact",
        ),
        "transfer_artifact",
        {"artifact": ("artifact", "card"), "hero": ("to_hero", "card")},
    ),
    PlayCommand(
        _spec(
            ("army", "drop-artifact"),
            "Discard an Artifact from a Hero to free its slot",
            [_opt("artifact", "the Artifact card, e.g. #30", required=True)],
            ("purchase", "movement"),
            "discard_artifact",
        ),
        "discard_artifact",
        {"artifact": ("artifact", "card")},
    ),
    PlayCommand(
        _spec(
            ("army", "recruit"),
            "Recruit at a Creature Dwelling your Army visits",
            [
                _opt("army", "the Army at the Dwelling", required=True),
                _opt("card", "the Unit card: " + _CARD_HAND, required=True),
                _PAY,
            ],
            ("movement",),
            "recruit",
        ),
        "recruit",
        {"army": ("army", "army"), "card": ("card", "card"), "pay": ("pay", "pay")},
    ),
    PlayCommand(
        _spec(
            ("army", "spell"),
            "A Hero casts an adventure Spell (once per Hero per turn)",
            [
                _opt("hero", "the Hero card, e.g. #5", required=True),
                _opt("spell", "the Spell card in its inventory, e.g. #41", required=True),
            ],
            ("movement",),
            "cast_adventure_spell",
        ),
        "cast_adventure_spell",
        {"hero": ("hero", "card"), "spell": ("spell", "card")},
    ),
    PlayCommand(
        _spec(("army", "done"), "End the Movement Phase", [], ("movement",), "end_movement"),
        "end_movement",
    ),
    # ---- scouting (homm4:movement-phase.scouting-terrain)
    PlayCommand(
        _spec(
            ("scout", "identify"),
            "Identify the scouted icon with a card",
            [
                _opt(
                    "card",
                    "a Town, Unit or Object card (or your free Town), e.g. #4",
                    required=True,
                ),
                _opt("site", "the icon's hex (default: the one being scouted)"),
            ],
            ("identify",),
            "identify",
        ),
        "identify",
        {"card": ("card", "card"), "site": ("site", "hex")},
        fill=_fill_site,
    ),
    PlayCommand(
        _spec(
            ("scout", "pass"),
            "Do not identify the scouted icon",
            [_opt("site", "the icon's hex (default: the one being scouted)")],
            ("identify",),
            "pass_identify",
        ),
        "pass_identify",
        {"site": ("site", "hex")},
        fill=_fill_site,
    ),
    PlayCommand(
        _spec(
            ("guard", "reinforce"),
            "As Guard Player, add Units of the Guard's faction",
            [_opt("cards", "cards from Hand or Risk Stack, e.g. #7 #9 (none: add nothing)")],
            ("reinforce_guard",),
            "reinforce_guard",
        ),
        "reinforce_guard",
        {"cards": ("cards", "cards")},
    ),
    # ---- battles (homm4:battles)
    PlayCommand(
        _spec(
            ("battle", "deploy"),
            "Deploy your Creature Stacks on the Melee and Ranged Lines",
            [
                _opt(
                    "stacks",
                    "e.g. #12 #13 melee; #20 ranged — or auto, auto-2 (a suggested deployment)",
                    required=True,
                )
            ],
            ("battle_deploy",),
            "deploy",
        ),
        "deploy",
        {"stacks": ("stacks", "stacks")},
    ),
    PlayCommand(
        _spec(
            ("battle", "attack"),
            "Attack with a Creature (melee, ranged or spell)",
            [
                _opt(
                    "target",
                    "an enemy Creature number, e.g. 5; two or three, e.g. 5 6: multi-target; or walls",
                    required=True,
                ),
                _opt("creature", "your Creature's number (default: the one due)"),
                _choice(
                    "mode",
                    "how to attack (default: the first that reaches)",
                    [("melee", "melee"), ("ranged", "ranged"), ("spell", "spell")],
                ),
                OptionSpec(
                    "count",
                    "Mass attack: how many cards of the target (default 1)",
                    "integer",
                    min_value=1,
                    max_value=40,
                ),
            ],
            ("battle_act",),
            "attack",
        ),
        "attack",
        {
            "target": ("targets", "targets"),
            "creature": ("creature", "creature"),
            "mode": ("mode", "int"),
            "count": ("count", "int"),
        },
        fill=_fill_attack,
    ),
    PlayCommand(
        _spec(
            ("battle", "support"),
            "Give up this attack to support a friend's next attack",
            [
                _opt("target", "the friendly Creature's number", required=True),
                _opt("creature", "your Creature's number (default: the one due)"),
            ],
            ("battle_act",),
            "support",
        ),
        "support",
        {"target": ("target", "creature"), "creature": ("creature", "creature")},
        fill=_fill_creature,
    ),
    PlayCommand(
        _spec(
            ("battle", "group"),
            "Give up this attack to double the next one (Grouping)",
            [_opt("creature", "your Creature's number (default: the one due)")],
            ("battle_act",),
            "group",
        ),
        "group",
        {"creature": ("creature", "creature")},
        fill=_fill_creature,
    ),
    PlayCommand(
        _spec(
            ("battle", "defend"),
            "Give up this attack to add the level to Defense",
            [_opt("creature", "your Creature's number (default: the one due)")],
            ("battle_act",),
            "defend",
        ),
        "defend",
        {"creature": ("creature", "creature")},
        fill=_fill_creature,
    ),
    PlayCommand(
        _spec(
            ("battle", "regroup"),
            "Give up this attack to switch lines",
            [_opt("creature", "your Creature's number (default: the one due)")],
            ("battle_act",),
            "regroup",
        ),
        "regroup",
        {"creature": ("creature", "creature")},
        fill=_fill_creature,
    ),
    PlayCommand(
        _spec(
            ("battle", "cast"),
            "A Hero gives up its attack to cast a battle Spell",
            [
                _opt("spell", "the Spell card in the Hero's inventory, e.g. #41", required=True),
                _opt(
                    "target",
                    "target Creature number, or numbers for several targets (area Spells: none)",
                ),
                _opt("creature", "the Hero's Creature number (default: the one due)"),
                OptionSpec(
                    "count",
                    "Mass attack: how many cards of the target (default 1)",
                    "integer",
                    min_value=1,
                    max_value=40,
                ),
            ],
            ("battle_act",),
            "cast_spell",
        ),
        "cast_spell",
        {
            "spell": ("spell", "card"),
            "target": ("targets", "targets"),
            "creature": ("creature", "creature"),
            "count": ("count", "int"),
        },
        fill=_fill_creature,
    ),
    PlayCommand(
        _spec(
            ("battle", "counter"),
            "Counterattack the attack just survived, or decline",
            [
                _choice(
                    "answer",
                    "strike back or not (default: strike)",
                    [("strike", "strike"), ("decline", "decline")],
                )
            ],
            ("battle_counterattack",),
            "counterattack",
        ),
        "counterattack",
        {"answer": ("strike", "int")},
    ),
    PlayCommand(
        _spec(
            ("battle", "fill"),
            "Move a back-line Creature up to the Melee Line",
            [_opt("creature", "the Creature's number", required=True)],
            ("battle_fill_front",),
            "fill_front",
        ),
        "fill_front",
        {"creature": ("creature", "creature")},
    ),
    PlayCommand(
        _spec(
            ("battle", "retreat"),
            "End of Round: retreat with your Heroes, or fight on",
            [
                _choice(
                    "answer",
                    "retreat or fight on (default: retreat)",
                    [("retreat", "retreat"), ("fight on", "fight")],
                )
            ],
            ("battle_retreat",),
            "retreat",
        ),
        "retreat",
        {"answer": ("retreat", "int")},
    ),
    PlayCommand(
        _spec(
            ("battle", "surrender"),
            "End of Round: offer Hand cards for a safe withdrawal",
            [
                OptionSpec(
                    "cards",
                    "how many Hand cards to offer (leave out: no offer)",
                    "integer",
                    min_value=0,
                    max_value=99,
                ),
                _PAY,
            ],
            ("battle_surrender_offer",),
            "offer_surrender",
        ),
        "offer_surrender",
        {"cards": ("cards", "int"), "pay": ("pay", "pay")},
    ),
    PlayCommand(
        _spec(
            ("battle", "answer"),
            "Accept or reject the surrender offered to you",
            [
                _choice(
                    "answer",
                    "accept or reject",
                    [("accept", "accept"), ("reject", "reject")],
                    required=True,
                )
            ],
            ("battle_surrender_answer",),
            "answer_surrender",
        ),
        "answer_surrender",
        {"answer": ("accept", "int")},
    ),
    # ---- heroes (homm4:heroes-levels-skills-and-spells)
    PlayCommand(
        _spec(
            ("hero", "learn-skill"),
            "After a won battle, play a Skill card for a Hero (or skip)",
            [
                _opt("card", "the Skill card: " + _CARD_HAND + " (leave out: skip)"),
                _opt("hero", "the Hero (default: the one offered)"),
            ],
            ("learn_skill",),
            "learn_skill",
        ),
        "learn_skill",
        {"card": ("card", "card"), "hero": ("hero", "card")},
        fill=_fill_award_hero,
    ),
    PlayCommand(
        _spec(
            ("hero", "make-room"),
            "Discard an Artifact to make room for a captured one",
            [_opt("artifact", "the Artifact to discard (the new one: leave it)")],
            ("artifact_room",),
            "make_artifact_room",
        ),
        "make_artifact_room",
        {"artifact": ("discard", "card")},
        fill=_fill_artifact_room,
    ),
    # ---- deals (homm4:advanced-rules.diplomacy, homm4:advanced-rules.resource-trading)
    PlayCommand(
        _spec(
            ("deal", "pay"),
            "Diplomacy: pay Hand cards to a player (they draw as many)",
            [
                _opt(
                    "player",
                    "the player receiving them: colour or number, e.g. Blue",
                    required=True,
                ),
                OptionSpec(
                    "cards",
                    "how many Hand cards",
                    "integer",
                    required=True,
                    min_value=1,
                    max_value=99,
                ),
                _PAY,
            ],
            ("purchase", "movement"),
            "pay_player",
        ),
        "pay_player",
        {"player": ("to", "seat"), "cards": ("cards", "int"), "pay": ("pay", "pay")},
    ),
    PlayCommand(
        _spec(
            ("deal", "army"),
            "Diplomacy: hand an Army that has not moved this turn to a player",
            [
                _opt("army", "the Army number, e.g. 2", required=True),
                _opt("player", "the player receiving it: colour or number", required=True),
            ],
            ("purchase", "movement"),
            "give_army",
        ),
        "give_army",
        {"army": ("army", "army"), "player": ("to", "seat")},
    ),
    PlayCommand(
        _spec(
            ("deal", "sell"),
            "Resource Trading: a player uses your Object's bonus until your next turn ends",
            [
                _opt("object", "the Object's hex, e.g. C4", required=True),
                _opt("player", "the player using it: colour or number", required=True),
            ],
            ("purchase", "movement"),
            "sell_object",
        ),
        "sell_object",
        {"object": ("site", "hex"), "player": ("to", "seat")},
    ),
    PlayCommand(
        _spec(
            ("hero", "loot"),
            "Take the Artifacts of an enemy dead Hero lying where your Army stands",
            [
                _opt("army", "your Army on that hex (with a Hero)", required=True),
                _opt("hero", "the dead Hero card, e.g. #5", required=True),
            ],
            ("movement",),
            "loot_hero",
        ),
        "loot_hero",
        {"army": ("army", "army"), "hero": ("hero", "card")},
    ),
    # ---- closing (homm4:closing-phase)
    PlayCommand(
        _spec(
            ("turn", "close"),
            "Closing Phase: put a Hand card into the Risk Stack and draw",
            [_opt("card", "a Hand card, e.g. #8 (only with an empty Hand: none)")],
            ("closing",),
            "close_turn",
        ),
        "close_turn",
        {"card": ("card", "card")},
        fill=_fill_close,
    ),
)
"""Every homm4 player action (one entry per engine command the players issue)."""

ORDER_KINDS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "deploy": ("Deployment", (("ask me", "ask"), ("deploy automatically", "auto"))),
    "attack": (
        "Creature actions",
        (
            ("ask me", "ask"),
            ("attack the weakest (lowest Defense)", "weakest"),
            ("attack the strongest (highest attack)", "strongest"),
        ),
    ),
    "counter": (
        "Counterattacks",
        (("ask me", "ask"), ("always counter", "always"), ("never counter", "never")),
    ),
    "fill": ("Filling the front", (("ask me", "ask"), ("the best melee Creature", "auto"))),
    "retreat": ("Retreat offers", (("ask me", "ask"), ("never retreat", "never"))),
    "surrender": ("Surrender offers", (("ask me", "ask"), ("never offer", "never"))),
    "answer": (
        "Answers to surrender",
        (("ask me", "ask"), ("always reject", "reject"), ("always accept", "accept")),
    ),
}
"""Standing orders: kind -> (title, (choice label, value)...). ``ask`` clears the order."""

ORDERS_SPEC = orders_spec(
    ("battle", "orders"),
    "Standing orders: answer battle decisions for you automatically",
    ORDER_KINDS,
    RULESET,
)

PLAY_COMMANDS: dict[tuple[str, ...], PlayCommand] = {p.spec.path: p for p in PLAY}
"""The table by path."""

SPECS: tuple[CommandSpec, ...] = (*(p.spec for p in PLAY), ORDERS_SPEC)
"""Every homm4 command spec (play commands and standing orders)."""

GROUP_DESCRIPTIONS: dict[tuple[str, ...], str] = {
    ("setup",): "Set up a homm4 game: Heroes, map sections, entrances, Risk Stack, first Army",
    ("purchase",): "homm4 Purchase Phase: buy Units, Heroes, Artifacts, Skills; upgrade Towns",
    ("army",): "homm4 Movement Phase: move, split, form and merge Armies",
    ("scout",): "homm4 scouting: identify the scouted icon, or pass",
    ("guard",): "homm4 chipping in: reinforce the Guard you play",
    ("battle",): "homm4 battles: deploy, attack, support and the end-of-Round choices",
    ("hero",): "homm4 Heroes: Skills after a won battle, room for Artifacts",
    ("deal",): "homm4 deals (advanced rules): pay a player, hand over an Army, sell an Object",
    ("turn",): "homm4 Closing Phase",
}
"""The descriptions of homm4's top-level commands (``/setup``, ``/purchase``...)."""


# ------------------------------------------------------------------ reading values
_NUMBER = re.compile(r"^\s*[#\[]?\s*(\d+)\s*\]?\s*$")
_SPLIT = re.compile(r"[\s,]+")


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _visible_cards(ctx: PlayContext) -> list[int]:
    """Cards the seat may name: its Hand and Risk Stack, then every face-up card."""
    state = ctx.state
    player = state.players_state[ctx.seat]
    found = [*player.hand, *player.risk]
    if player.free_town is not None:
        found.append(player.free_town)
    for army in state.armies:
        found += army.cards
        for hero in army.cards:
            inv = state.inventories.get(hero)
            if inv is not None:
                found += [*inv.skills, *inv.spells, *inv.artifacts]
    for site in state.sites:
        found += site.garrison + site.guard
    return found


def _field_values(ctx: PlayContext, command_type: str, field_name: str) -> list[Any]:
    values: list[Any] = []
    for cmd in ctx.of_type(command_type):
        value = getattr(cmd, field_name, None)
        if value is not None and value not in values:
            values.append(value)
    return values


def read_card(ctx: PlayContext, text: str, preferred: Iterable[int] = ()) -> int:
    """Read one card: ``#17``/``17``, or a name matched among ``preferred`` then the
    cards the seat can see.

    :raises BadOption: when no card of that name is in reach.
    """
    match = _NUMBER.match(text)
    if match:
        return int(match.group(1))
    wanted = _norm(text)
    if not wanted:
        raise BadOption("Name a card by its number (#17) or its name.")
    for pool in (list(preferred), _visible_cards(ctx)):
        exact = [i for i in pool if _norm(d.card_name(ctx.state, i)) == wanted]
        if exact:
            return exact[0]
        starts = [i for i in pool if _norm(d.card_name(ctx.state, i)).startswith(wanted)]
        if starts:
            return starts[0]
    raise BadOption(f"No card called {text!r} is in reach; use its number, e.g. #17.")


def read_cards(ctx: PlayContext, text: str, preferred: Iterable[int] = ()) -> tuple[int, ...]:
    """Read a list of cards (``#12 #13``, ``#12,#13`` or names, one word each).

    :raises BadOption: for a card that cannot be read, saying how a list is written
        (`CARD_LIST_FORM`).
    """
    words = [w for w in _SPLIT.split(text.strip()) if w]
    chosen: list[int] = []
    pool = list(preferred)
    for word in words:
        try:
            number = read_card(ctx, word, [i for i in pool if i not in chosen])
        except BadOption as error:
            raise BadOption(f"{error.message} {CARD_LIST_FORM}") from None
        chosen.append(number)
    return tuple(chosen)


CARD_LIST_FORM = (
    "A list of cards is their numbers or one-word names separated by spaces or commas, "
    "e.g. #12 #13 #20 (the numbers are in /hand and /game status)."
)
"""How a card list is written, added to a refusal of one."""


def read_int(text: str, what: str) -> int:
    """Read a whole number (``3``, ``#3`` or ``[3]``). :raises BadOption: otherwise."""
    match = _NUMBER.match(str(text))
    if not match:
        raise BadOption(f"{what} must be a number, not {text!r}.")
    return int(match.group(1))


def read_creature(ctx: PlayContext, text: str, preferred: Iterable[int] = ()) -> int:
    """Read a battle Creature: its number (``3``, ``[3]``) or the name of its top card.

    :raises BadOption: when no Creature fits.
    """
    match = _NUMBER.match(text)
    if match:
        return int(match.group(1))
    battle = ctx.state.battle
    wanted = _norm(text)
    if battle is not None and wanted:
        ordered = list(preferred) + [cr.id for cr in battle.creatures]
        tops = {cr.id: cr.cards[0] for cr in battle.creatures}
        for number in ordered:
            if number in tops and _norm(d.card_name(ctx.state, tops[number])).startswith(wanted):
                return number
    raise BadOption(f"No battle Creature called {text!r}; use its number, e.g. 3.")


def read_stacks(ctx: PlayContext, text: str) -> tuple[c.StackOrder, ...] | c.Deploy:
    """Read a deployment: ``#12 #13 melee; #20 ranged`` (line words: melee/front/m,
    ranged/back/r; default melee), or ``auto`` / ``auto-N`` for a suggested deployment
    (also ``auto:N``, ``autoN``, ``auto N``). The bot suggests ``auto-N``: the console
    reads ``/battle deploy auto-2`` as the stacks (``auto:2`` there looks like an option
    called auto).

    :raises BadOption: for an empty stack or an unreadable card.
    """
    lowered = text.strip().lower()
    if lowered.startswith("auto"):
        options = [cmd for cmd in ctx.of_type("deploy") if isinstance(cmd, c.Deploy)]
        if not options:
            raise BadOption("You have nothing to deploy now.")
        number = lowered[4:].strip(" :-#")
        index = read_int(number, "The suggestion number") if number else 1
        if not 1 <= index <= len(options):
            raise BadOption(
                f"There are {len(options)} suggested deployments: /battle deploy auto-1 .. "
                f"auto-{len(options)} (or write the stacks, e.g. #12 #13 melee; #20 ranged)."
            )
        return options[index - 1]
    stacks: list[c.StackOrder] = []
    for part in re.split(r"[;\n|]+", text):
        words = [w for w in _SPLIT.split(part.strip()) if w]
        if not words:
            continue
        line: Literal["melee", "ranged"] = "melee"
        if words[-1].lower() in ("melee", "front", "m", "ranged", "back", "r"):
            line = "ranged" if words[-1].lower() in ("ranged", "back", "r") else "melee"
            words = words[:-1]
        if not words:
            raise BadOption(f"The stack {part.strip()!r} names no card.")
        stacks.append(c.StackOrder(cards=read_cards(ctx, " ".join(words)), line=line))
    if not stacks:
        raise BadOption("Write the stacks like: #12 #13 melee; #20 ranged (or auto).")
    return tuple(stacks)


def _read_value(ctx: PlayContext, play: PlayCommand, option: str, raw: Any) -> tuple[str, Any]:
    field_name, kind = play.fields[option]
    text = str(raw)
    preferred = _field_values(ctx, play.command_type, field_name)
    if kind == "card":
        return field_name, read_card(ctx, text, [v for v in preferred if isinstance(v, int)])
    if kind in ("cards", "pay"):
        if kind == "pay" and text.strip().lower() in ("", "auto", "default"):
            return field_name, None
        flat = [i for v in preferred if isinstance(v, tuple) for i in v]
        if play.command_type == "develop_hero":
            flat = develop_candidates(ctx.state, ctx.seat)
        return field_name, read_cards(ctx, text, flat)
    if kind == "hex":
        return field_name, text.strip().upper()
    if kind == "army":
        return field_name, read_int(text, "An Army")
    if kind == "armies":
        if text.strip().lower() == "none":
            return field_name, ()
        return field_name, tuple(read_int(w, "An Army") for w in _SPLIT.split(text.strip()) if w)
    if kind == "creature":
        return field_name, read_creature(ctx, text, [v for v in preferred if isinstance(v, int)])
    if kind == "targets":
        if text.strip().lower() in ("walls", "wall", "town"):
            return "target_walls", True
        if text.strip().lower() == "none":
            return field_name, ()
        words = [w for w in _SPLIT.split(text.strip()) if w]
        return field_name, tuple(read_creature(ctx, w) for w in words)
    if kind == "slot":
        numbers = re.findall(r"-?\d+", text)
        if len(numbers) != 2:
            raise BadOption(f"A slot is written q,r (e.g. 1,-1), not {text!r}.")
        return field_name, (int(numbers[0]), int(numbers[1]))
    if kind == "stacks":
        return field_name, read_stacks(ctx, text)
    if kind == "seat":
        return field_name, read_seat(text, ctx.state.players)
    return field_name, _scalar(field_name, raw)


def _scalar(field_name: str, raw: Any) -> Any:
    words = {
        "strike": True,
        "decline": False,
        "retreat": True,
        "fight": False,
        "accept": True,
        "reject": False,
    }
    if isinstance(raw, str) and raw.lower() in words:
        return words[raw.lower()]
    if field_name in ("mode",):
        return str(raw).lower()
    if isinstance(raw, bool | int):
        return raw
    return read_int(str(raw), field_name.capitalize())


_DEFAULT_BOOLS: dict[str, tuple[str, Any]] = {
    "counterattack": ("strike", True),
    "retreat": ("retreat", True),
}


OPTION_COMMANDS: dict[str, str] = {
    "pay_player": "diplomacy",
    "give_army": "diplomacy",
    "sell_object": "trading",
    "loot_hero": "resurrection",
}
"""Commands of an advanced rule -> the options word that turns the rule on."""


def available(spec: CommandSpec, decision: Decision) -> bool:
    """Whether play command ``spec`` answers ``decision`` in this game: its phase, and for
    an advanced rule's command, the rule is on (the decision lists its command type)."""
    play = PLAY_COMMANDS.get(spec.path)
    if play is None or decision.kind not in spec.phase:
        return False
    return play.command_type not in OPTION_COMMANDS or play.command_type in decision.commands


def require_phase(path: tuple[str, ...], ctx: PlayContext) -> None:
    """Refuse a command that cannot answer the decision the player owes now, naming the
    commands that can (so ``/battle attack`` in the Movement Phase does not end in a
    complaint about a missing option). Only when no legal command of its type exists:
    within its own phase the engine says why a move is not legal.

    :raises WrongStage: naming the decision owed and the commands answering it.
    """
    play = PLAY_COMMANDS[path]
    decision = ctx.decision
    word = OPTION_COMMANDS.get(play.command_type)
    if (
        word is not None
        and decision is not None
        and decision.kind in play.spec.phase
        and play.command_type not in decision.commands
    ):
        raise WrongStage(
            f"/{' '.join(path)} belongs to an advanced rule this game does not use "
            f"(the host turns it on with /game new options:{word})."
        )
    if decision is None or decision.kind in play.spec.phase:
        return
    if any(cmd.type == play.command_type for cmd in ctx.legal):
        return
    now = (s for s in SPECS if s.kind == "play" and available(s, decision))
    raise wrong_stage(path, decision.prompt, now)


def build_command(
    path: tuple[str, ...], ctx: PlayContext, options: Mapping[str, Any]
) -> dict[str, Any]:
    """Turn a play command's options into an engine command dict (``{"type": "buy", ...}``).

    :raises BadOption: when an option cannot be read (the message says how to write it).
    :raises KeyError: if ``path`` is not a homm4 play command.
    """
    play = PLAY_COMMANDS[path]
    command: dict[str, Any] = {"type": play.command_type, **play.fixed}
    for option, raw in options.items():
        if raw is None or option not in play.fields:
            continue
        field_name, value = _read_value(ctx, play, option, raw)
        if isinstance(value, c.Deploy):
            return value.model_dump(mode="json")
        command[field_name] = value
    if play.command_type in _DEFAULT_BOOLS:
        name, value = _DEFAULT_BOOLS[play.command_type]
        command.setdefault(name, value)
    if play.fill is not None:
        play.fill(ctx, command)
    return command


# ------------------------------------------------------------------ autocomplete
def _label_for(ctx: PlayContext, kind: FieldKind, value: Any) -> tuple[str, str] | None:
    state = ctx.state
    if kind == "card" and isinstance(value, int):
        return d.card_label(state, value), f"#{value}"
    if kind in ("cards", "pay") and isinstance(value, tuple):
        names = ", ".join(d.card_label(state, i) for i in value) or "none"
        return names, d.cards_text(state, value) or "none"
    if kind == "hex" and isinstance(value, str):
        return d.hex_label(state, value), value
    if kind == "army" and isinstance(value, int):
        return d.army_label(state, value), str(value)
    if kind == "armies" and isinstance(value, tuple):
        if not value:
            return "no other Army (this Army alone)", "none"
        return ", ".join(f"Army {a}" for a in value), " ".join(map(str, value))
    if kind == "creature" and isinstance(value, int):
        return d.creature_label(state, value), str(value)
    if kind == "targets" and isinstance(value, tuple):
        if not value:
            return "no target (an area Spell)", "none"
        return " + ".join(d.creature_label(state, t) for t in value), " ".join(map(str, value))
    if kind == "slot" and isinstance(value, tuple):
        return f"slot {value[0]},{value[1]}", f"{value[0]},{value[1]}"
    if kind == "seat" and isinstance(value, int):
        return seat_name(value), seat_name(value)
    if kind == "int":
        return str(value), str(value)
    return None


def _agrees(
    ctx: PlayContext, play: PlayCommand, cmd: Command, given: Mapping[str, Any], skip: str
) -> bool:
    for option, raw in given.items():
        if option == skip or option not in play.fields or raw in (None, ""):
            continue
        try:
            field_name, value = _read_value(ctx, play, option, raw)
        except (BadOption, ValueError):
            continue
        if field_name in ("pay", "stacks"):
            continue
        have = getattr(cmd, field_name, None)
        if have is not None and have != value:
            return False
    return True


def suggest(
    path: tuple[str, ...], ctx: PlayContext, option: str, current: str, given: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """Autocomplete for ``option`` of a play command: up to 25 ``(name, value)`` pairs.

    Values come from the seat's legal commands of that type that agree with the options
    already given; ``pay`` suggests Hand cards; list options suggest the next card to add
    to what was typed. Names may show the seat's own cards: autocomplete is private.
    """
    play = PLAY_COMMANDS.get(path)
    if play is None or option not in play.fields:
        return []
    field_name, kind = play.fields[option]
    pairs: list[tuple[str, str]] = []
    if kind == "pay":
        pairs = _append_suggestions(ctx, current, ctx.state.players_state[ctx.seat].hand)
    elif kind == "stacks":
        pairs = _deploy_suggestions(ctx)
    else:
        for cmd in ctx.of_type(play.command_type):
            if not _agrees(ctx, play, cmd, given, option):
                continue
            value = getattr(cmd, field_name, None)
            if field_name == "targets" and getattr(cmd, "target_walls", False):
                pair: tuple[str, str] | None = ("the Town walls", "walls")
            elif value is None:
                continue
            else:
                pair = _label_for(ctx, kind, value)
            if pair is not None and pair not in pairs:
                pairs.append(pair)
        if kind == "cards" and play.command_type in (
            "choose_risk_stack",
            "develop_hero",
            "split_army",
            "form_army",
            "transfer",
            "reinforce_guard",
        ):
            singles = sorted(
                {
                    i
                    for v in _field_values(ctx, play.command_type, field_name)
                    if isinstance(v, tuple)
                    for i in v
                }
            )
            if play.command_type in ("choose_risk_stack",):
                singles = sorted(ctx.state.players_state[ctx.seat].hand)
            if play.command_type == "develop_hero":
                singles = develop_candidates(ctx.state, ctx.seat)
            if play.command_type == "reinforce_guard":
                singles = sorted(set(singles))
            pairs = _append_suggestions(ctx, current, singles) + pairs[:1]
    return filter_pairs(pairs, current)


def _append_suggestions(
    ctx: PlayContext, current: str, cards: Iterable[int]
) -> list[tuple[str, str]]:
    words = [w for w in _SPLIT.split(current.strip()) if w]
    typed = " ".join(w for w in words if _NUMBER.match(w))
    chosen = {int(m.group(1)) for m in map(_NUMBER.match, words) if m is not None}
    pairs = []
    for card in cards:
        if card in chosen:
            continue
        value = f"{typed} #{card}".strip()
        pairs.append((f"{value} — {d.card_name(ctx.state, card)}", value))
    return pairs


def _deploy_suggestions(ctx: PlayContext) -> list[tuple[str, str]]:
    pairs = []
    for index, cmd in enumerate(ctx.of_type("deploy"), start=1):
        assert isinstance(cmd, c.Deploy)
        text = d.deployment_text(cmd)
        summary = f"{index}. {d.deployment_summary(ctx.state, cmd)}"
        pairs.append((summary, text if len(text) <= 100 else f"auto-{index}"))
    return pairs


# ------------------------------------------------------------------ the other way round
_BY_TYPE: dict[str, PlayCommand] = {p.command_type: p for p in PLAY}


def _option_text(kind: FieldKind, value: Any) -> str | int | None:
    if value is None:
        return None
    if kind == "card":
        return f"#{value}"
    if kind in ("cards", "pay"):
        return " ".join(f"#{i}" for i in value) if value else None
    if kind in ("armies", "targets"):
        return " ".join(str(i) for i in value) if value else None
    if kind == "slot":
        return f"{value[0]},{value[1]}"
    if kind == "seat":
        return seat_name(value)
    if isinstance(value, bool):
        return None
    if kind in ("army", "creature"):
        return str(value)
    return value if isinstance(value, int) else str(value)


_BOOL_WORDS: dict[str, tuple[str, str]] = {
    "strike": ("strike", "decline"),
    "retreat": ("retreat", "fight"),
    "accept": ("accept", "reject"),
}


def slash_for(command: Command) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The slash command and options that build ``command`` (the inverse of
    `build_command`): ``(("purchase", "buy"), {"card": "#12", "town": "C4"})``.

    Used by /help-style hints and by the tests that play whole games by slash commands.
    :raises KeyError: for a command type the players never issue.
    """
    play = _BY_TYPE[command.type]
    if isinstance(command, c.Deploy):
        from bot.homm4.describe import deployment_text

        return play.spec.path, {"stacks": deployment_text(command)}
    options: dict[str, Any] = {}
    for option, (field_name, kind) in play.fields.items():
        value = getattr(command, field_name, None)
        if field_name in _BOOL_WORDS and isinstance(value, bool):
            yes, no = _BOOL_WORDS[field_name]
            options[option] = yes if value else no
            continue
        if field_name == "targets" and getattr(command, "target_walls", False):
            options[option] = "walls"
            continue
        if field_name == "count" and value == 1:
            continue
        text = _option_text(kind, value)
        if text is not None:
            options[option] = text
    if isinstance(command, c.TransferCards):
        options["cards"] = " ".join(f"#{i}" for i in command.cards)
    return play.spec.path, options
