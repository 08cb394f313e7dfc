"""Who owes what now: pending decisions, the legal commands for each, and the defaults.

Rule sections: homm4:game-process, homm4:turn-summary (phase order), plus the sections of
each decision (scouting, chipping in, hero levels, artifacts, closing).

Precedence: a battle in progress, then the first queued interrupt (scouting offer, Guard
reinforcement, Skill award, Artifact room), then the phase's decision of the seat whose
turn (or setup step) it is.

`legal_commands` lists a finite set: where a free choice is too large to enumerate (which
Hand cards pay, which subset reinforces a Guard, which cards split off), one
representative per useful choice is listed, and ``pay`` is left to the default rule.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.errors import NotYourDecision
from engine.core.model import Command, Decision, seat_name
from engine.homm4 import armies as army_rules
from engine.homm4 import (
    battle,
    board,
    diplomacy,
    fallen,
    heroes,
    movement,
    payment,
    purchase,
    scouting,
    setup,
    variants,
    zones,
)
from engine.homm4.artifacts import fitting_slots
from engine.homm4.commands import (
    ChooseRiskStack,
    CloseTurn,
    DevelopHero,
    DiscardArtifact,
    EndMovement,
    EndPurchase,
    FormArmy,
    Identify,
    LearnSkill,
    MakeArtifactRoom,
    PassIdentify,
    PlaceArmy,
    PlaceEntrance,
    PlaceSection,
    ReinforceGuard,
    SplitArmy,
    TransferArtifact,
    TransferCards,
)
from engine.homm4.state import ArtifactRoom, ChipIn, Homm4State, ScoutOffer, SkillAward

HIDDEN_CARD_COMMANDS: frozenset[str] = frozenset(
    {
        "buy",
        "buy_artifact",
        "buy_skill",
        "learn_spell",
        "recruit",
        "identify",
        "reinforce_guard",
        "choose_risk_stack",
        "learn_skill",
        "close_turn",
        "develop_hero",
    }
)
"""Command types that name a Hand, Risk Stack or deck card (homm4:card-types): never shown
in public. The decisions answered by them alone (identify, reinforce_guard, learn_skill,
choose_risk_stack, purchase, closing, develop_hero) are built ``private``; the Movement
Phase's recruit and learn_spell are left out of its public buttons."""

DEAL_COMMANDS = ("pay_player", "give_army", "sell_object")
"""Diplomacy and Resource Trading deals, in the Purchase and Movement Phases (advanced rules)."""
PURCHASE_COMMANDS = (
    "buy",
    "upgrade_town",
    "buy_artifact",
    "buy_skill",
    "learn_spell",
    "discard_artifact",
    *DEAL_COMMANDS,
    "end_purchase",
)
MOVEMENT_COMMANDS = (
    "split_army",
    "form_army",
    "transfer",
    "transfer_artifact",
    "discard_artifact",
    "move",
    "recruit",
    "cast_adventure_spell",
    "learn_spell",
    "loot_hero",
    *DEAL_COMMANDS,
    "end_movement",
)


def interrupt_decision(state: Homm4State) -> Decision | None:
    """Return the decision the first queued interrupt asks for, or None.

    Rule: homm4:game-process.
    """
    if not state.interrupts:
        return None
    head = state.interrupts[0]
    if isinstance(head, ScoutOffer):
        site = state.sites[head.site]
        where = board.label(state, site.hex)
        stolen = (
            ""
            if head.offeree == head.scout
            else f" ({seat_name(head.scout)}'s scouting: steal the intelligence?)"
        )
        return Decision(
            seat=head.offeree,
            kind="identify",
            prompt=f"{seat_name(head.offeree)} may identify the {site.kind} icon at {where}{stolen}.",
            commands=("identify", "pass_identify"),
            private=True,
        )
    if isinstance(head, ChipIn):
        where = board.label(state, state.sites[head.site].hex)
        return Decision(
            seat=head.guard_player,
            kind="reinforce_guard",
            prompt=f"{seat_name(head.guard_player)} is the Guard Player at {where} and may reinforce the Guard.",
            commands=("reinforce_guard",),
            private=True,
        )
    if isinstance(head, SkillAward):
        return Decision(
            seat=head.seat,
            kind="learn_skill",
            prompt=f"{seat_name(head.seat)} may play a Skill card for a Hero who won the battle.",
            commands=("learn_skill",),
            private=True,
        )
    assert isinstance(head, ArtifactRoom)
    return Decision(
        seat=head.seat,
        kind="artifact_room",
        prompt=f"{seat_name(head.seat)} must discard an Artifact to make room (or leave the new one).",
        commands=("make_artifact_room",),
    )


def pending(state: Homm4State) -> list[Decision]:
    """Return the decisions owed now (see the module docstring for precedence).

    Rule: homm4:game-process.
    """
    if state.phase == "over":
        return []
    if state.battle is not None:
        return list(battle.battle_pending(state))
    head = interrupt_decision(state)
    if head is not None:
        return [head]
    seat = state.active
    who = seat_name(seat)
    if state.phase == "develop":
        return develop_decisions(state)
    if state.phase == "entrances":
        coin = board.coins_placed(state) + 1
        return [
            Decision(
                seat=seat,
                kind="place_entrance",
                prompt=f"{who} places entrance coin {coin} of {board.entrance_pairs(state)} on a "
                "surface Object icon and its pair on an underground one.",
                commands=("place_entrance",),
            )
        ]
    if state.phase == "assemble":
        return [
            Decision(
                seat=seat,
                kind="place_section",
                prompt=f"{who} reveals and attaches the next Terrain Map Section.",
                commands=("place_section",),
            )
        ]
    if state.phase == "setup":
        if state.setup_step == "risk":
            return [
                Decision(
                    seat=seat,
                    kind="choose_risk_stack",
                    prompt=f"{who} chooses 5 of the 8 cards drawn as the Risk Stack.",
                    commands=("choose_risk_stack",),
                    private=True,
                )
            ]
        return [
            Decision(
                seat=seat,
                kind="place_army",
                prompt=f"{who} places the Army token on an edge hex.",
                commands=("place_army",),
            )
        ]
    if state.phase == "purchase":
        return [
            Decision(
                seat=seat,
                kind="purchase",
                prompt=f"{who}'s Purchase Phase.",
                commands=phase_commands(state, PURCHASE_COMMANDS),
                private=True,
            )
        ]
    if state.phase == "movement":
        return [
            Decision(
                seat=seat,
                kind="movement",
                prompt=f"{who}'s Movement Phase.",
                commands=phase_commands(state, MOVEMENT_COMMANDS),
            )
        ]
    return [
        Decision(
            seat=seat,
            kind="closing",
            prompt=f"{who}'s Closing Phase: put a Hand card into the Risk Stack.",
            commands=("close_turn",),
            private=True,
        )
    ]


def develop_decisions(state: Homm4State) -> list[Decision]:
    """Pre-developed Heroes: one decision per seat that still has a starting Hero to
    develop (the seats choose at the same time; each seat's Heroes top first;
    homm4:game-variants.pre-developed-heroes)."""
    found: list[Decision] = []
    for seat in range(state.players):
        hero = next((h for s, h in state.to_develop if s == seat), None)
        if hero is None:
            continue
        found.append(
            Decision(
                seat=seat,
                kind="develop_hero",
                prompt=f"{seat_name(seat)} chooses from their deck the Skill, Spell and Artifact "
                f"cards of {zones.name(state, hero)} (Pre-developed Heroes).",
                commands=("develop_hero",),
                private=True,
            )
        )
    return found


def phase_commands(state: Homm4State, commands: tuple[str, ...]) -> tuple[str, ...]:
    """``commands`` without those of advanced rules this game does not use (Diplomacy:
    pay_player, give_army; Resource Trading: sell_object; Resurrecting Fallen Heroes:
    loot_hero).
    Rule: homm4:advanced-rules.
    """
    off: set[str] = set()
    if not state.options.diplomacy:
        off |= {"pay_player", "give_army"}
    if not state.options.resource_trading:
        off.add("sell_object")
    if not state.options.resurrection:
        off.add("loot_hero")
    return tuple(c for c in commands if c not in off)


def owed(state: Homm4State, seat: int) -> Decision | None:
    """Return the decision ``seat`` owes now, or None.

    Rule: homm4:game-process.
    """
    return next((d for d in pending(state) if d.seat == seat), None)


# ------------------------------------------------------------------ legal
def legal_commands(state: Homm4State, seat: int) -> list[Command]:
    """Return the commands ``seat`` may issue now (see the module docstring).

    Rule: homm4:game-process.
    """
    decision = owed(state, seat)
    if decision is None:
        return []
    if state.battle is not None:
        return list(battle.battle_legal(state, seat))
    kind = decision.kind
    options: list[Command] = []
    if kind == "identify":
        head = state.interrupts[0]
        assert isinstance(head, ScoutOffer)
        site = state.sites[head.site]
        where = board.label(state, site.hex)
        options += [
            Identify(site=where, card=c) for c in scouting.identify_options(state, seat, site)
        ]
        options.append(PassIdentify(site=where))
    elif kind == "reinforce_guard":
        cards = scouting.reinforce_options(state, seat)
        options.append(ReinforceGuard(cards=()))
        options += [ReinforceGuard(cards=(c,)) for c in cards]
        if len(cards) > 1:
            options.append(ReinforceGuard(cards=tuple(cards)))
    elif kind == "learn_skill":
        options += skill_award_options(state, seat)
    elif kind == "artifact_room":
        head = state.interrupts[0]
        assert isinstance(head, ArtifactRoom)
        inv = heroes.inventory(state, head.hero)
        options += [
            MakeArtifactRoom(discard=a)
            for a in sorted(inv.artifacts)
            if _fits_after(state, head.hero, head.artifact, a)
        ]
        options.append(MakeArtifactRoom(discard=head.artifact))
    elif kind == "place_section":
        options += [
            PlaceSection(slot=slot, rotation=rot) for slot, rot in board.legal_placements(state)
        ]
    elif kind == "develop_hero":
        options += [
            DevelopHero(cards=tuple(cards), hero=_developing(state, seat))
            for cards in variants.development_choices(state, seat)
        ]
    elif kind == "place_entrance":
        surface, underground = setup.default_entrance(state)
        options.append(PlaceEntrance(surface=surface, underground=underground))
        above, below = board.entrance_sites(state)
        options += [
            PlaceEntrance(
                surface=board.label(state, up.hex), underground=board.label(state, down.hex)
            )
            for up in above
            for down in below
            if (board.label(state, up.hex), board.label(state, down.hex)) != (surface, underground)
        ]
    elif kind == "choose_risk_stack":
        options += _risk_choices(state, seat)
    elif kind == "place_army":
        options += [PlaceArmy(hex=board.label(state, h)) for h in setup.army_hexes(state, seat)]
    elif kind == "purchase":
        options += purchase.purchase_options(state, seat)
        options += discard_artifact_options(state, seat)
        options += deal_options(state, seat)
        options.append(EndPurchase())
    elif kind == "movement":
        options += management_options(state, seat)
        options += movement.move_options(state, seat)
        options += movement.recruit_options(state, seat)
        options += movement.adventure_spell_options(state, seat)
        options += purchase.spell_options(state, seat)
        options += discard_artifact_options(state, seat)
        options += fallen.loot_options(state, seat)
        options += deal_options(state, seat)
        options.append(EndMovement())
    elif kind == "closing":
        options += [CloseTurn(card=c) for c in sorted(state.players_state[seat].hand)]
    return options


def deal_options(state: Homm4State, seat: int) -> list[Command]:
    """Representative Diplomacy and Resource Trading deals ``seat`` may make now (advanced
    rules; empty when they are off).
    Rule: homm4:advanced-rules.diplomacy.
    """
    return [
        *diplomacy.pay_options(state, seat),
        *diplomacy.give_options(state, seat),
        *diplomacy.sell_options(state, seat),
    ]


def _developing(state: Homm4State, seat: int) -> int:
    """The starting Hero ``seat`` is developing now."""
    return next(h for s, h in state.to_develop if s == seat)


def _fits_after(state: Homm4State, hero: int, artifact: int, discard: int) -> bool:
    return fitting_slots(state, hero, artifact, ignore=discard) is not None


def _risk_choices(state: Homm4State, seat: int) -> list[ChooseRiskStack]:
    hand = sorted(state.players_state[seat].hand)
    size = min(setup.RISK_STACK_SIZE, len(hand))
    default = tuple(setup.default_risk_stack(state, seat))
    choices = [ChooseRiskStack(cards=default)]
    choices += [
        ChooseRiskStack(cards=combo)
        for combo in combinations(hand, size)
        if set(combo) != set(default)
    ]
    return choices


def skill_award_options(state: Homm4State, seat: int) -> list[LearnSkill]:
    """Every Skill card ``seat`` may play for the first Hero of its Skill award, or skip.

    Rule: homm4:heroes-levels-skills-and-spells.hero-level.
    """
    head = state.interrupts[0]
    assert isinstance(head, SkillAward)
    hero = head.heroes[0]
    player = state.players_state[seat]
    cards = heroes.skill_choices(state, hero, sorted(player.hand + player.risk))
    return [LearnSkill(hero=hero, card=c) for c in cards] + [LearnSkill(hero=hero, card=None)]


def discard_artifact_options(state: Homm4State, seat: int) -> list[DiscardArtifact]:
    """Every Artifact ``seat``'s Heroes on the board could discard.

    Rule: homm4:heroes-levels-skills-and-spells.heroes-and-artifacts.
    """
    options: list[DiscardArtifact] = []
    for army in zones.armies_of(state, seat):
        for hero in army_rules.army_heroes(state, army):
            inv = state.inventories.get(hero)
            if inv is not None:
                options += [DiscardArtifact(artifact=a) for a in sorted(inv.artifacts)]
    return options


def management_options(state: Homm4State, seat: int) -> list[Command]:
    """Representative army-management commands: split one card off, form an Army of a
    whole garrison or one card of it, merge two Armies, move one card between Armies,
    pass an Artifact between Heroes on one hex.
    Rule: homm4:movement-phase.managing-armies.
    """
    options: list[Command] = []
    mine = zones.armies_of(state, seat)
    room = len(mine) < army_rules.MAX_ARMIES
    if room:
        for army in mine:
            if not army.moved and not army.done and len(army.cards) > 1:
                options += [SplitArmy(army=army.id, cards=(c,)) for c in army.cards]
        for site in zones.towns_of(state, seat):
            if site.garrison:
                where = board.label(state, site.hex)
                options.append(FormArmy(town=where, cards=tuple(site.garrison)))
                if len(site.garrison) > 1:
                    options += [FormArmy(town=where, cards=(c,)) for c in site.garrison]
    for source in mine:
        for target in mine:
            if source.id == target.id or source.hex != target.hex:
                continue
            options.append(
                TransferCards(source=source.id, target=target.id, cards=tuple(source.cards))
            )
            if len(source.cards) > 1:
                options += [
                    TransferCards(source=source.id, target=target.id, cards=(c,))
                    for c in source.cards
                ]
    friends = [a for a in state.armies if state.options.allies(seat, a.owner)]
    for source in mine:
        for giver in army_rules.army_heroes(state, source):
            inv = state.inventories.get(giver)
            if inv is None:
                continue
            for artifact in sorted(inv.artifacts):
                for target in friends:
                    if target.hex != source.hex:
                        continue
                    for taker in army_rules.army_heroes(state, target):
                        if taker != giver and fitting_slots(state, taker, artifact) is not None:
                            options.append(TransferArtifact(artifact=artifact, to_hero=taker))
    return options


# ------------------------------------------------------------------ defaults
def default_command(state: Homm4State, seat: int) -> Command:
    """Return the documented default for ``seat``'s overdue decision.

    identify: pass; reinforce_guard: add nothing; learn_skill: skip; artifact_room: leave
    the new Artifact; place_section: the first free slot, unturned; develop_hero: the
    automatic pick (`variants.default_development`); place_entrance: the pair the quick
    set-up would draw now (`setup.default_entrance`); choose_risk_stack:
    `setup.default_risk_stack`; place_army: the first legal edge hex (row by row);
    purchase: end_purchase; movement: end_movement; closing: put into the Risk Stack the
    Hand card the payment rule would spend last; a battle: the battle's own default.

    :raises NotYourDecision: if ``seat`` owes nothing.
    Rule: homm4:game-process.
    """
    decision = owed(state, seat)
    if decision is None:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    if state.battle is not None:
        command: Command = battle.battle_default(state, seat)
        return command
    kind = decision.kind
    if kind == "identify":
        head = state.interrupts[0]
        assert isinstance(head, ScoutOffer)
        return PassIdentify(site=board.label(state, state.sites[head.site].hex))
    if kind == "reinforce_guard":
        return ReinforceGuard(cards=())
    if kind == "learn_skill":
        head = state.interrupts[0]
        assert isinstance(head, SkillAward)
        return LearnSkill(hero=head.heroes[0], card=None)
    if kind == "artifact_room":
        head = state.interrupts[0]
        assert isinstance(head, ArtifactRoom)
        return MakeArtifactRoom(discard=head.artifact)
    if kind == "place_section":
        slot, rotation = board.legal_placements(state)[0]
        return PlaceSection(slot=slot, rotation=rotation)
    if kind == "develop_hero":
        return DevelopHero(
            cards=tuple(variants.default_development(state, seat)),
            hero=_developing(state, seat),
        )
    if kind == "place_entrance":
        surface, underground = setup.default_entrance(state)
        return PlaceEntrance(surface=surface, underground=underground)
    if kind == "choose_risk_stack":
        return ChooseRiskStack(cards=tuple(setup.default_risk_stack(state, seat)))
    if kind == "place_army":
        return PlaceArmy(hex=board.label(state, setup.army_hexes(state, seat)[0]))
    if kind == "purchase":
        return EndPurchase()
    if kind == "movement":
        return EndMovement()
    hand = state.players_state[seat].hand
    keep = payment.auto_pay(state, seat, len(hand))
    return CloseTurn(card=keep[-1])
