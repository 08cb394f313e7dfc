"""Who owes what now: pending decisions, the legal commands for each, and the defaults.

Rule sections: mmh:course-of-play (the order of play), mmh:course-of-play.battles (who
decides in a battle), mmh:other-game-rules (choices from cards).

Precedence: a queued choice (drawn cards, treasure fields, raising the dead...), then a
battle step, then the set-up step or the active player's action.

`legal_commands` lists a finite set: where a choice is too large to enumerate (which
trophies pay a level-up, how much to trade, which creatures a retreat gives up) one
representative per useful choice is listed.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.errors import NotYourDecision
from engine.core.model import Command, Decision
from engine.core.words import plural
from engine.mmh import battle as fight
from engine.mmh import board as geometry
from engine.mmh import economy, movement, setup
from engine.mmh.commands import (
    Activate,
    ArenaRecruitCmd,
    Assign,
    Attack,
    Build,
    ChooseDeck,
    ChooseFields,
    ChooseHero,
    ChooseReward,
    Decline,
    Dismiss,
    EndAction,
    Explore,
    FightOn,
    GuardianAngel,
    Honor,
    Keep,
    Laurel,
    LevelUp,
    MakeRoom,
    Move,
    PassWindow,
    PlaceCapital,
    PlaceTile,
    PlayAction,
    RaiseCreature,
    RecruitCreature,
    RecruitHero,
    Retreat,
    ReturnCreatures,
    Search,
    SellScroll,
    SpendLuck,
    TakeControl,
    Trade,
    Upgrade,
    UseCard,
)
from engine.mmh.common import content, hero_name, who
from engine.mmh.content import CONTROLLABLE, WINDOW_NAMES, Window
from engine.mmh.gains import level_up_cost, skill_cards_left, trophy_xp
from engine.mmh.heroes import card_abilities, has_building, overwhelm
from engine.mmh.state import (
    ArenaRecruit,
    ArtefactSwap,
    ControlChoice,
    DragonVein,
    Hero,
    KeepCard,
    LeadershipCut,
    MmhState,
    Prompt,
    Raise,
    Reward,
    ScrollRoom,
    SkillDraw,
    TreasureChoice,
    XpSpend,
)

FREE = ("trade", "sell_scroll", "level_up")
ACTION_COMMANDS: dict[str, tuple[str, ...]] = {
    "build": ("build", *FREE, "end_action"),
    "recruit": ("recruit", "recruit_hero", "upgrade", "dismiss", *FREE, "end_action"),
    "hero": ("activate", "move", "explore", "take_control", *FREE, "end_action"),
}
PROMPT_COMMANDS: dict[str, tuple[str, ...]] = {
    "keep": ("keep",),
    "swap": ("keep",),
    "scroll_room": ("make_room", "decline"),
    "treasure": ("choose_fields",),
    "xp": ("level_up", "decline"),
    "skill_draw": ("choose_deck",),
    "dragon_vein": ("search", "decline"),
    "arena": ("arena_recruit", "decline"),
    "raise": ("raise", "decline"),
    "reward": ("reward", "decline"),
    "control": ("take_control", "decline"),
    "leadership": ("return_creatures",),
}
PRIVATE_PROMPTS: frozenset[str] = frozenset({"keep", "scroll_room", "dragon_vein"})
"""Queued choices whose options name cards only their owner may see (the cards drawn to
keep one, the held scrolls, the discard piles' contents): their decisions are private."""


def names_held_scroll(state: MmhState, command: Command) -> bool:
    """Whether ``command`` names a card some hero holds face down (a scroll): its ``card``
    or ``scroll`` field.

    Rule: mmh:game-material.cards.
    """
    card = getattr(command, "card", None) or getattr(command, "scroll", None)
    if card is None or not isinstance(card, str):
        return False
    return any(card in h.scrolls for h in state.heroes.values())


BATTLE_COMMANDS: dict[str, tuple[str, ...]] = {
    "honor": ("honor",),
    "window": ("use_card", "pass_window"),
    "turn": ("attack", "use_card"),
    "negate": ("luck",),
    "luck": ("luck",),
    "laurel": ("laurel",),
    "angel": ("angel",),
    "assign": ("assign",),
    "retreat": ("retreat", "fight_on"),
}


# ====================================================================== pending
def pending(state: MmhState) -> list[Decision]:
    """The decisions owed now (several only while heroes are being chosen).

    Rule: mmh:course-of-play.
    """
    if state.phase == "over":
        return []
    if state.queue:
        return [_prompt_decision(state, state.queue[0])]
    if state.battle is not None:
        return [_battle_decision(state)]
    if state.phase == "tiles":
        seat = setup.tile_placer(state)
        return [
            Decision(
                seat=seat,
                kind="place_tile",
                prompt=f"{who(seat)} places map tile {state.tile_stack[0]}.",
                commands=("place_tile",),
            )
        ]
    if state.phase == "capitals":
        seat = setup.capital_placer(state)
        return [
            Decision(
                seat=seat,
                kind="place_capital",
                prompt=f"{who(seat)} places the capital on a red map tile.",
                commands=("place_capital",),
            )
        ]
    if state.phase == "heroes":
        return [
            Decision(
                seat=s.seat,
                kind="choose_hero",
                prompt=f"{who(s.seat)} chooses a starting hero.",
                commands=("choose_hero",),
            )
            for s in state.seats
            if not s.heroes
        ]
    seat = state.active
    if state.action is None:
        return [
            Decision(
                seat=seat,
                kind="play_action",
                prompt=f"{who(seat)} plays an action card (round {state.round}).",
                commands=("play_action", "level_up"),
            )
        ]
    kind = state.action.kind
    words = {"build": "Build", "recruit": "Recruit", "hero": "Activate Hero"}[kind]
    return [
        Decision(
            seat=seat,
            kind=f"action_{kind}",
            prompt=f"{who(seat)} performs {words}.",
            commands=ACTION_COMMANDS[kind],
        )
    ]


def _prompt_decision(state: MmhState, prompt: Prompt) -> Decision:
    name = hero_name(prompt.hero)
    seat = who(prompt.seat)
    texts = {
        "keep": f"{seat} keeps one of the cards drawn for {name}.",
        "swap": f"{seat} keeps one of two artefacts of a category for {name}.",
        "scroll_room": f"{seat} may discard a scroll of {name} to draw a new one.",
        "treasure": f"{seat} chooses treasure fields for {name}.",
        "xp": f"{seat} may spend treasure XP on a level-up of {name}.",
        "skill_draw": f"{seat} chooses the might or magic deck for {name}'s skill card.",
        "dragon_vein": f"{seat} searches the discard piles for {name}.",
        "arena": f"{seat} may recruit at the Arena for {name}.",
        "raise": f"{seat} raises the dead for {name}.",
        "reward": f"{seat} takes the reward of victory for {name}.",
        "control": f"{seat} may take control of "
        + (
            geometry.space_label(state, prompt.space)
            if isinstance(prompt, ControlChoice)
            else "the location"
        )
        + f" with {name}.",
        "leadership": f"{seat} sends "
        + (
            plural(prompt.count, "creature")
            if isinstance(prompt, LeadershipCut)
            else "some creatures"
        )
        + f" of {name} back to the reserve (Leadership).",
    }
    return Decision(
        seat=prompt.seat,
        kind=prompt.kind,
        prompt=texts[prompt.kind],
        commands=PROMPT_COMMANDS[prompt.kind],
        private=prompt.kind in PRIVATE_PROMPTS,
    )


def _battle_decision(state: MmhState) -> Decision:
    b = state.battle
    assert b is not None
    if b.step in ("honor", "window", "retreat"):
        seat = (b.retreat_seats if b.step == "retreat" else b.window_seats)[0]
        texts = {
            "honor": f"{who(seat)} decides Honor: the elite die for everyone or no one.",
            "window": f"{who(seat)} may use cards ({_window_name(b.window)}).",
            "retreat": f"{who(seat)} may retreat before exchange of blows {b.exchange}.",
        }
        return Decision(
            seat=seat,
            kind=f"battle_{b.step}",
            prompt=texts[b.step],
            commands=BATTLE_COMMANDS[b.step],
        )
    if b.step == "angel":
        hero = fight.side_hero(state, b.damage_side)
        assert hero is not None
        return Decision(
            seat=hero.owner,
            kind="battle_angel",
            prompt=f"{who(hero.owner)} may call the Guardian Angel: ignore the elite die's "
            f"{b.elite_damage} damage.",
            commands=("angel",),
        )
    if b.step == "assign":
        hero = fight.side_hero(state, b.damage_side)
        assert hero is not None
        return Decision(
            seat=hero.owner,
            kind="battle_assign",
            prompt=f"{who(hero.owner)} assigns {b.damage} damage.",
            commands=("assign",),
        )
    unit = b.units[b.roll.unit] if b.roll is not None else b.units[b.order[b.pos]]
    seat = fight.unit_seat(state, unit)
    name = fight.unit_name(state, unit)
    texts = {
        "turn": f"{who(seat)}: {name} attacks.",
        "negate": f"{who(seat)} may spend luck to negate Bad Luck for {name}.",
        "luck": f"{who(seat)} may spend luck to reroll for {name}.",
        "laurel": f"{who(seat)} resolves the laurel wreath of {name}.",
    }
    commands = BATTLE_COMMANDS[b.step]
    if b.step == "turn" and unit.kind != "hero":
        commands = ("attack",)
    return Decision(seat=seat, kind=f"battle_{b.step}", prompt=texts[b.step], commands=commands)


def _window_name(window: str | None) -> str:
    return WINDOW_NAMES[Window(window)] if window else ""


# ====================================================================== legal
def legal_commands(state: MmhState, seat: int) -> list[Command]:
    """A finite list of commands ``seat`` may issue now, each accepted by apply.

    Rule: mmh:course-of-play.
    """
    owed = [d for d in pending(state) if d.seat == seat]
    if not owed:
        return []
    decision = owed[0]
    if state.queue:
        return _prompt_legal(state, state.queue[0])
    if state.battle is not None:
        return _battle_legal(state, seat)
    if decision.kind == "place_tile":
        tile = state.tile_stack[0]
        return [
            PlaceTile(column=c, row=r, rotation=rot)
            for c, r in setup.free_slots(state)
            for rot in geometry.legal_rotations(state.tiles, tile, (c - 1, r - 1))
        ]
    if decision.kind == "place_capital":
        return [
            PlaceCapital(space=geometry.space_label(state, s)) for s in setup.capital_spaces(state)
        ]
    if decision.kind == "choose_hero":
        return [ChooseHero(hero=h) for h in state.seats[seat].unused_heroes]
    if state.action is None:
        return _play_options(state, seat) + level_up_options(state, seat)
    return _action_legal(state, seat)


def _play_options(state: MmhState, seat: int) -> list[Command]:
    found: list[Command] = []
    town_hall = has_building(state, seat, "town_hall")
    for card in state.seats[seat].cards:
        if card.used:
            continue
        for action in card.actions:
            if action == "gather" and town_hall:
                found += [
                    PlayAction(card=card.number, action="gather", bonus=b)
                    for b in ("gold", "resources")
                ]
            else:
                found.append(PlayAction(card=card.number, action=action))
        found.append(PlayAction(card=card.number, action="pass"))
    return found


def level_up_options(
    state: MmhState, seat: int, extra_xp: int = 0, only: str | None = None
) -> list[Command]:
    """One `LevelUp` per hero and deck that can be paid (the fewest trophies that suffice).

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    found: list[Command] = []
    for hid in state.seats[seat].heroes:
        if only is not None and hid != only:
            continue
        hero = state.heroes[hid]
        trophies = paying_trophies(hero, extra_xp)
        if trophies is None:
            continue
        for deck in ("might", "magic"):
            if skill_cards_left(state, hero, deck):
                found.append(LevelUp(hero=hid, deck=deck, trophies=trophies))
    return found


def paying_trophies(hero: Hero, extra_xp: int = 0) -> tuple[int, ...] | None:
    """The trophies that pay the next level-up with the least waste (None if too few).

    Rule: mmh:other-game-rules.experience-points-xp-and-leveling-up.
    """
    cost = level_up_cost(hero)
    if extra_xp >= cost:
        return ()
    if trophy_xp(hero.trophies) + extra_xp < cost:
        return None
    best: tuple[int, ...] | None = None
    best_key = (10**6, 10**6)
    pool = sorted(hero.trophies)
    for size in range(1, min(len(pool), 6) + 1):
        for combo in combinations(pool, size):
            total = trophy_xp(list(combo)) + extra_xp
            if total >= cost and (total - cost, size) < best_key:
                best, best_key = combo, (total - cost, size)
        if best is not None:
            break
    if best is None:
        return tuple(pool)
    return best


def _free_options(state: MmhState, seat: int) -> list[Command]:
    found: list[Command] = []
    record = state.seats[seat]
    if has_building(state, seat, "marketplace"):
        if record.gold >= 2:
            found.append(Trade(give="gold", amount=2))
        if record.resources >= 2:
            found.append(Trade(give="resources", amount=2))
        for hid in record.heroes:
            hero = state.heroes[hid]
            if hero.space is None:
                found += [SellScroll(hero=hid, scroll=s) for s in hero.scrolls]
    return found + level_up_options(state, seat)


def _action_legal(state: MmhState, seat: int) -> list[Command]:
    step = state.action
    assert step is not None
    found: list[Command] = []
    record = state.seats[seat]
    if step.kind == "build":
        for building in economy.buildable(state, seat):
            b = content().building(building) if building != "level" else None
            if b is not None and b.either:
                res, _ = economy.building_cost(state, seat, building)
                found += [
                    Build(building=building, pay=p)
                    for p, have in (("resources", record.resources), ("gold", record.gold))
                    if have >= res
                ]
            else:
                found.append(Build(building=building))
    elif step.kind == "recruit":
        found += recruit_options(state, seat)
    else:
        found += _hero_options(state, seat)
    found += _free_options(state, seat)
    if _can_end(state):
        found.append(EndAction())
    return found


def _can_end(state: MmhState) -> bool:
    act = movement.activation(state)
    if act is None:
        return True
    hero = state.heroes[act.hero]
    return hero.space is None or movement.can_stop(state, hero, hero.space)


def recruit_options(state: MmhState, seat: int) -> list[Command]:
    """Every single recruit, hero recruit, upgrade and dismissal open in a Recruit action.

    Rule: mmh:course-of-play.recruit.
    """
    step = state.action
    assert step is not None
    record = state.seats[seat]
    c = content()
    found: list[Command] = []
    room = step.recruited < economy.recruit_limit(state, seat)
    for hid in record.heroes:
        hero = state.heroes[hid]
        if hero.space is None and room:
            for kind in c.faction_creatures(record.faction):
                for elite in (False, True):
                    try:
                        economy.check_recruit(state, seat, hero, kind.id, elite)
                    except Exception:
                        continue
                    found.append(RecruitCreature(hero=hid, creature=kind.id, elite=elite))
        if hero.space is None and has_building(state, seat, "barracks"):
            for creature in sorted({u.creature for u in hero.army if not u.elite}):
                if record.gold >= economy.upgrade_cost(state, hero, creature):
                    found.append(Upgrade(hero=hid, creature=creature))
        if len(hero.army) > 1:
            for creature, elite in sorted({(u.creature, u.elite) for u in hero.army}):
                found.append(Dismiss(hero=hid, creature=creature, elite=elite))
    if (
        room
        and has_building(state, seat, "hall_of_heroes")
        and len(record.heroes) < economy.MAX_HEROES
        and record.gold >= economy.hero_cost(state)
    ):
        found += [RecruitHero(hero=h) for h in record.unused_heroes]
    return found


def _hero_options(state: MmhState, seat: int) -> list[Command]:
    found: list[Command] = []
    act = movement.activation(state)
    if _can_end(state):
        found += [Activate(hero=h) for h in movement.activatable(state, seat)]
    if act is None:
        return found
    hero = state.heroes[act.hero]
    for dest in movement.legal_moves(state, hero):
        found.append(Move(to="capital" if dest is None else geometry.space_label(state, dest)))
    if hero.space is not None:
        if movement.explorable_now(state, hero.space) and _battle_ok(state, hero, hero.space):
            found.append(Explore())
        if _control_ok(state, seat, hero):
            found.append(TakeControl())
    return found


def _battle_ok(state: MmhState, hero: Hero, space: int) -> bool:
    act = movement.activation(state)
    assert act is not None
    symbol = geometry.board_of(state).guard_of.get(space)
    if symbol is None or symbol not in state.encounters:
        return True
    colour = content().encounter(state.encounters[symbol]).colour
    return act.battles > 0 or overwhelm(state, hero) >= movement.overwhelm_needed(state, colour)


def _control_ok(state: MmhState, seat: int, hero: Hero) -> bool:
    space = hero.space
    if space is None:
        return False
    location = geometry.board_of(state).space(space).location
    if location not in CONTROLLABLE or state.control.get(space) == seat:
        return False
    if movement.protected(state, space):
        return False
    return _battle_ok(state, hero, space)


# ---------------------------------------------------------------------- prompts
def _prompt_legal(state: MmhState, prompt: Prompt) -> list[Command]:
    seat = prompt.seat
    hero = state.heroes[prompt.hero]
    if isinstance(prompt, KeepCard):
        return [Keep(card=c) for c in prompt.cards]
    if isinstance(prompt, ArtefactSwap):
        return [Keep(card=prompt.new), Keep(card=prompt.old)]
    if isinstance(prompt, ScrollRoom):
        return [MakeRoom(scroll=s) for s in hero.scrolls] + [Decline()]
    if isinstance(prompt, TreasureChoice):
        fields = content().treasure(prompt.card).fields
        allowed = [i + 1 for i, f in enumerate(fields) if prompt.artefact or f.kind != "artefact"]
        return [
            ChooseFields(fields=combo)
            for combo in combinations(allowed, min(prompt.picks, len(allowed)))
        ]
    if isinstance(prompt, XpSpend):
        options = level_up_options(state, seat, prompt.xp, only=hero.id)
        return [*options, Decline()]
    if isinstance(prompt, SkillDraw):
        decks = [d for d in ("might", "magic") if skill_cards_left(state, hero, d)] or [
            "might",
            "magic",
        ]
        return [ChooseDeck(deck=d) for d in decks]
    if isinstance(prompt, DragonVein):
        found: list[Command] = []
        for pile, cards in (
            ("treasure", state.treasure_discard),
            ("scroll", state.scroll_discard),
            ("artefact", state.artefact_discard),
        ):
            found += [Search(pile=pile, card=c) for c in sorted(set(cards))]
        return [*found, Decline()]
    if isinstance(prompt, ArenaRecruit):
        found = []
        for kind in content().faction_creatures(state.seats[seat].faction):
            for elite in (False, True):
                try:
                    economy.check_recruit(state, seat, hero, kind.id, elite, arena=True)
                except Exception:
                    continue
                found.append(ArenaRecruitCmd(creature=kind.id, elite=elite))
        return [*found, Decline()]
    if isinstance(prompt, Raise):
        raising = fight.raise_options(state, hero, prompt.fallen)
        return [RaiseCreature(creature=c, mode=m) for c, m in raising] + [Decline()]
    if isinstance(prompt, ControlChoice):
        return [TakeControl(), Decline()]
    if isinstance(prompt, LeadershipCut):
        return leadership_options(hero, prompt.count)
    assert isinstance(prompt, Reward)
    rewards: list[Command] = [
        ChooseReward(deck=d) for d in ("might", "magic") if skill_cards_left(state, hero, d)
    ]
    rewards += [ChooseReward(artefact=a) for a in state.heroes[prompt.loser].artefacts]
    return rewards or [Decline()]


# ---------------------------------------------------------------------- battle
def _battle_legal(state: MmhState, seat: int) -> list[Command]:
    b = state.battle
    assert b is not None
    if b.step == "honor":
        return [Honor(elite_die=True), Honor(elite_die=False)]
    if b.step == "window":
        return [*card_options(state, seat, Window(b.window or "before")), PassWindow()]
    if b.step == "retreat":
        hero = fight.side_hero(state, fight.side_of_seat(state, seat) or 0)
        assert hero is not None
        options: list[Command] = [FightOn()]
        losses = fight.default_losses(state, hero)
        options.append(Retreat(losses=tuple(_ref(c, e) for c, e in losses)))
        return options
    if b.step == "angel":
        return [GuardianAngel(use=True), GuardianAngel(use=False)]
    if b.step == "assign":
        return [Assign(unit=u, order=o) for u, o in fight.assign_options(state)]
    if b.step == "negate":
        return [SpendLuck(choice="negate"), SpendLuck(choice="none")]
    if b.step == "luck":
        rerolls: list[Command] = [SpendLuck(choice=c) for c in fight.luck_choices(state)]
        return [*rerolls, SpendLuck(choice="none")]
    if b.step == "laurel":
        assert b.roll is not None
        return [Laurel(choice=c) for c in fight.laurel_options(state, b.units[b.roll.unit])]
    unit = b.units[b.order[b.pos]]
    found: list[Command] = []
    targets: list[int | None] = [None, *fight.focus_targets(state, unit)]
    elites = [True, False] if fight.can_elite(state, unit) else [False]
    found += [Attack(elite=e, target=t) for e in elites for t in targets]
    if unit.kind == "hero":
        found += card_options(state, seat, Window.IN_BATTLE)
    return found


def leadership_options(hero: Hero, count: int) -> list[Command]:
    """Every distinct choice of ``count`` creatures of the army to send back to the reserve
    when Leadership drops, as `ReturnCreatures` commands; the weakest first (basic before
    elite, lower capital level first: the default) (mmh:game-setup.choosing-the-starting-hero)."""
    c = content()
    ranked = sorted(
        ((u.creature, u.elite) for u in hero.army),
        key=lambda x: (x[1], c.creature(x[0]).level, x[0]),
    )
    seen: list[tuple[tuple[str, bool], ...]] = []
    for combo in combinations(ranked, count):
        if combo not in seen:
            seen.append(combo)
    return [ReturnCreatures(creatures=tuple(_ref(cr, e) for cr, e in combo)) for combo in seen]


def _ref(creature: str, elite: bool) -> str:
    return creature + ("+" if elite else "")


def card_options(state: MmhState, seat: int, window: Window) -> list[Command]:
    """Every (card, part, target) the seat may use in ``window`` now.

    Rule: mmh:other-game-rules.using-card-effects.
    """
    side = fight.side_of_seat(state, seat)
    if side is None:
        return []
    hero = fight.side_hero(state, side)
    assert hero is not None
    found: list[Command] = []
    for card in fight.usable_cards(state, seat, window):
        abilities = card_abilities(hero, card)
        assert abilities is not None
        parts = ["primary"]
        if abilities.secondary is not None and abilities.school_ok:
            parts.append("secondary" if abilities.link == "or" else "both")
        targets: list[int | None] = list(fight._targets(state, side, abilities.primary)) or [None]
        found += [UseCard(card=card, part=p, target=t) for p in parts for t in targets]
    return found


# ====================================================================== defaults
def default_command(state: MmhState, seat: int) -> Command:
    """The documented default for ``seat``'s overdue decision (used by a moderator's skip):
    pass the action card / end the action, keep the first drawn card, decline optional
    choices but take control of an unguarded location passed through, send the weakest
    creatures back when Leadership drops, pass card windows, attack with the elite die
    when allowed (an encounter marker's controller too), call the Guardian Angel, assign
    damage to the first stack, fight on.

    :raises NotYourDecision: if ``seat`` owes nothing.

    Rule: none (the documented default of a moderator's skip).
    """
    options = legal_commands(state, seat)
    if not options:
        raise NotYourDecision(f"{who(seat)} owes no decision now.")
    if state.queue and isinstance(state.queue[0], ControlChoice | LeadershipCut):
        return options[0]
    if state.battle is not None and state.battle.step == "angel":
        return GuardianAngel(use=True)
    preferred = (
        "end_action",
        "pass_window",
        "fight_on",
        "decline",
        "choose_deck",
        "keep",
        "choose_fields",
        "reward",
        "attack",
        "assign",
        "laurel",
    )
    if state.queue or state.battle is not None or state.action is not None:
        for kind in preferred:
            for option in options:
                if option.type == kind:
                    if (
                        kind == "attack"
                        and isinstance(option, Attack)
                        and option.target is not None
                    ):
                        continue
                    if kind == "luck":
                        continue
                    return option
        for option in options:
            if isinstance(option, SpendLuck) and option.choice == "none":
                return option
        return options[0]
    if state.phase == "play":
        card = next(c for c in state.seats[seat].cards if not c.used)
        return PlayAction(card=card.number, action="pass")
    return options[0]
