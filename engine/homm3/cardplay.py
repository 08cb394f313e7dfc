"""Playing Might & Magic cards and Morale cards in the Battlefield Combat.

Rule sections: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-
magic (Expert uses per Combat round), homm3turn:spending-positive-morale, homm3bf:
battlefield-setup.morale-deck.positive-morale-deck; core card rules: one Spell per Combat
round (Specialty cards exempt), Activation and Ongoing effects only while one of your units
activates and before it attacks, Instants also while an attack waits for cards; Empower
paid with Power cards or discarded Spells (+1 each); Spell damage ignores Defense; a bonus
to Attack lasts until the unit's next attack resolves or the activation ends (Defense:
until it is next attacked), one Permanent card at a time.

Every play is checked in full before anything changes: the handler for the card's effect
validates its targets and returns the change to make.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.errors import IllegalMove, InvalidInput, RuleViolation
from engine.core.model import Event, seat_name
from engine.core.words import plural
from engine.homm3 import combat_attack, dice, effects, hexes, morale, zones
from engine.homm3 import combat_core as core
from engine.homm3.commands import Play, UseMorale
from engine.homm3.content import TIER_ORDER, Card, Effect, load_content
from engine.homm3.rules import expert_limit, other
from engine.homm3.state import Bonus, Choice, CombatUnit, Homm3State, Modifier, Placed, Reaction

Apply = Callable[[], list[Event]]
TIERS = {1: "Bronze", 2: "Silver", 3: "Gold"}


@dataclass
class Ctx:
    """One play being checked: who plays what, how, with what Empower."""

    state: Homm3State
    seat: int
    cmd: Play
    card: Card
    effect: Effect
    expert: bool
    window: bool
    power: int = 0
    level: tuple[int, ...] | None = None
    spent: list[int] = field(default_factory=list)
    draws: int = 0
    experts: int = 0
    where: str = "activation"


# --------------------------------------------------------------- context
def context(state: Homm3State, seat: int) -> str | None:
    """``"activation"`` (your unit activates, before it attacks), ``"acted"`` (it has
    attacked), ``"window"`` (an attack waits for your cards), ``"reaction"`` (the enemy has
    just cast a Spell), ``"resurrection"`` (an enemy attack would bring your unit to 0
    Health), ``"opening"`` (no unit has activated in the Combat yet) or None.
    Rule: none (core game: when Activation, Ongoing and Instant cards may be played)"""
    combat = state.combat
    if state.phase != "combat" or combat is None or combat.stage != "round":
        return None
    if combat.reaction is not None:
        return "reaction" if combat.reaction.seat == seat else None
    if combat.opening is not None:
        return "opening" if combat.opening.priority == seat else None
    if combat.window is not None:
        window = combat.window
        if window.priority != seat:
            return None
        if window.stage == "cards":
            return "window"
        return "resurrection" if window.stage == "resurrection" else None
    if combat.active is None:
        return None
    unit = next(u for u in combat.units if u.number == combat.active)
    if unit.seat != seat:
        return None
    return "activation" if not combat.attacks else "acted"


def _source(state: Homm3State, seat: int, card: int) -> str:
    player = state.player(seat)
    if card in player.hand:
        return "hand"
    if card in player.scroll:
        return "scroll"
    raise InvalidInput(
        f"#{card} is not in your hand; your hand: "
        + (", ".join(zones.name(state, c) for c in player.hand) or "empty")
        + "."
    )


def play(state: Homm3State, seat: int, cmd: Play) -> list[Event]:
    """Play a card in Combat (checks everything first).

    :raises InvalidInput | IllegalMove: naming what is wrong and what is allowed.
    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic (and core
        game card rules)
    """
    ctx, source, apply = _prepare(state, seat, cmd)
    return _commit(ctx, source, apply)


def allowed(state: Homm3State, seat: int, cmd: Play) -> bool:
    """Whether `play` would accept ``cmd`` now (runs the same checks, changes nothing).

    Rule: homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic (and core
        game card rules)"""
    try:
        _prepare(state, seat, cmd)
    except RuleViolation:
        return False
    return True


def _prepare(state: Homm3State, seat: int, cmd: Play) -> tuple[Ctx, str, Apply]:
    where = context(state, seat)
    if where is None:
        raise IllegalMove(
            "You may play cards while one of your units activates, or when an attack waits for your cards."
        )
    source = _source(state, seat, cmd.card)
    card = load_content().cards[state.cards[cmd.card]]
    found = card.option(cmd.option)
    if found is None:
        raise InvalidInput(
            f"{card.name} has no option {cmd.option}; options: "
            + "; ".join(f"{i}: {e.text}" for i, _x, e in card.effects())
            + "."
        )
    expert, effect = found
    ctx = Ctx(
        state=state,
        seat=seat,
        cmd=cmd,
        card=card,
        effect=effect,
        expert=expert,
        window=where == "window",
        where=where,
    )
    _check_timing(ctx, where, source)
    if card.faction and card.faction != state.player(seat).faction:
        raise IllegalMove(
            f"{card.name} is a {card.faction.capitalize()} card; you may only discard it."
        )
    if expert:
        ctx.experts += 1
    _check_fields(ctx, source)
    if card.kind == "spell" or effect.levels:
        _pay_power(ctx, source)
    if ctx.experts > state.player(seat).experts:
        raise IllegalMove(
            f"That needs {plural(ctx.experts, 'Expert use')} and you have "
            f"{state.player(seat).experts} left this round."
        )
    handler = _HANDLERS.get(effect.effect)
    if handler is None:
        raise IllegalMove(f"{card.name}'s effect is not used in Combat.")
    return ctx, source, handler(ctx)


def _check_timing(ctx: Ctx, where: str, source: str) -> None:
    timing = ctx.effect.timing
    name = ctx.card.name
    if timing == "power":
        raise IllegalMove(
            f"{name} gives Empower: name it in 'power' when you cast a Spell or Specialty."
        )
    if timing == "adventure":
        raise IllegalMove(f"That effect of {name} is used during the Adventure.")
    if timing == "after_cast":
        last = core.combat(ctx.state).last_cast
        if last.get("seat") != ctx.seat:
            raise IllegalMove(f"{name} is played right after you cast a Spell.")
        return
    if where == "reaction" or timing == "after_enemy_cast":
        if where != "reaction" or timing != "after_enemy_cast":
            raise IllegalMove(
                "Right after the enemy casts a Spell only a card that answers a Spell may be played."
                if where == "reaction"
                else f"{name} is played right after the enemy casts a Spell."
            )
        return
    if where == "resurrection" or timing == "after_enemy_attack":
        if where != "resurrection" or timing != "after_enemy_attack":
            raise IllegalMove(
                "An enemy attack waits for your answer: only a Spell that cancels it may be cast now."
                if where == "resurrection"
                else f"{name} is cast right after an enemy attack that would bring your unit to 0 Health."
            )
        if source != "scroll" and core.spells_left(ctx.state, ctx.seat) <= 0:
            raise IllegalMove("You have already cast your Spell this Combat round.")
        return
    if where == "opening":
        _check_opening(ctx, source)
        return
    if timing == "start":
        raise IllegalMove(f"{name} is played before any unit activates in the Combat.")
    if timing in ("activation", "ongoing", "permanent") and where != "activation":
        raise IllegalMove(
            f"{name} ({timing}) is played while your unit activates, before it attacks."
        )
    if where == "acted" and timing != "instant":
        raise IllegalMove("Your unit has attacked: only Instant cards may be played now.")
    if ctx.card.kind == "spell":
        if source == "scroll" and where == "window" and timing != "instant":
            raise IllegalMove(f"{name} cannot be cast now.")
        if source != "scroll" and core.spells_left(ctx.state, ctx.seat) <= 0:
            raise IllegalMove("You have already cast your Spell this Combat round.")


def _check_opening(ctx: Ctx, source: str) -> None:
    opening = core.combat(ctx.state).opening
    assert opening is not None
    if opening.cast == ctx.seat:
        if ctx.card.kind != "spell" or source != "hand":
            raise IllegalMove("Cast a Spell card from your hand now, or pass.")
        if not opening.free and core.spells_left(ctx.state, ctx.seat) <= 0:
            raise IllegalMove("You have already cast your Spell this Combat round.")
        return
    if ctx.effect.timing == "start" or (ctx.effect.effect == "tactics" and ctx.effect.amount == 0):
        return
    raise IllegalMove(
        "Before any unit activates only cards played at the Combat's start may be played, or pass."
    )


_FIELDS = {
    "unit": "a unit's number",
    "units": "more units' numbers",
    "hex": "a hex",
    "hexes": "hexes",
    "stat": "a Statistic",
    "power": "Empower cards",
    "power_expert": "cards used for their Expert Empower",
    "discard": "cards discarded as a cost",
    "take": "a card of your discard pile to take back",
    "school": "the School of a Spell of any School",
}

# The target and cost fields each effect's handler reads (the rest are refused).
_EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "stat": ("unit",),
    "spec_stat": ("unit",),
    "stat_discard": ("unit", "discard"),
    "artillery": ("unit",),
    "heal": ("unit",),
    "tactics": ("units",),
    "triple_die": ("unit",),
    "initiative": ("unit",),
    "step": ("unit", "hex"),
    "spec_health": ("unit",),
    "ring": ("hex", "discard"),
    "recall": ("take",),
    "meteor": ("unit", "units"),
    "damage": ("unit",),
    "chain": ("unit",),
    "fireball": ("hexes",),
    "frost_ring": ("hex", "units"),
    "spell_stat": ("unit",),
    "prayer": ("unit", "stat"),
    "bless": ("unit",),
    "cure": ("unit",),
    "paralyse": ("unit",),
    "disrupt": ("unit",),
    "anti_magic": ("unit",),
    "counterstrike": ("unit",),
    "teleport": ("unit", "hex"),
    "fire_wall": ("hex",),
    "force_field": ("hex",),
    "fire_shield": ("unit",),
    "ballista": ("hex",),
}


def _fields(ctx: Ctx, source: str) -> list[str]:
    """The optional fields of `Play` that ``ctx``'s card and option use (all of them for an
    effect this module does not handle, which `_prepare` refuses by name)."""
    effect = ctx.effect.effect
    if effect not in _HANDLERS:
        return list(_FIELDS)
    used = list(_EFFECT_FIELDS.get(effect, ()))
    if ctx.card.kind == "spell" or ctx.effect.levels:
        used += ["power", "power_expert"]  # from the Scroll, _pay_power refuses them
        if ctx.card.school == "any" and source != "scroll":
            used.append("school")
    return used


def _check_fields(ctx: Ctx, source: str) -> None:
    """Refuse a play naming a field (a target, ``power``, ``discard``, ``take``, ``school``...)
    that the card's option does not use, naming what it does take (house rule 5;
    homm3bf:battlefield-combat.changes-to-combat-rules.the-deck-of-might-and-magic).

    :raises InvalidInput: naming the field that does not apply and the fields that do.
    """
    used = _fields(ctx, source)
    given = [f for f in _FIELDS if getattr(ctx.cmd, f) not in ((), None) and f not in used]
    if not given:
        return
    field = given[0]
    what = f"{ctx.card.name}{' from the Scroll' if source == 'scroll' else ''}"
    shown = [f"'{f}' ({_FIELDS[f]})" for f in _FIELDS if f in used and f != "power_expert"]
    takes = "; it takes " + ", ".join(shown) if shown else "; it takes no other field"
    raise InvalidInput(
        f"'{field}' ({_FIELDS[field]}) does not apply to {what}{takes}. "
        f"Option {ctx.cmd.option}: {ctx.effect.text}"
    )


def _pay_power(ctx: Ctx, source: str) -> None:
    state, cmd = ctx.state, ctx.cmd
    player = state.player(ctx.seat)
    content = load_content()
    if source == "scroll":
        if cmd.power:
            raise IllegalMove(
                "A Spell from the Scroll is cast at its lowest level, without Empower."
            )
        ctx.level = ctx.effect.levels[0] if ctx.effect.levels else None
        return
    school: str | None = ctx.card.school
    if school == "any":
        school = cmd.school or _permanent_school(state, ctx.seat) or "air"
    if len(set(cmd.power)) != len(cmd.power) or cmd.card in cmd.power:
        raise InvalidInput("Name each Empower card once, and not the card you play.")
    if any(c not in cmd.power for c in cmd.power_expert):
        raise InvalidInput("Cards used for their Expert Empower must also be listed in 'power'.")
    total = 0
    for card in cmd.power:
        if card not in player.hand:
            raise InvalidInput(f"#{card} is not in your hand.")
        spec = content.cards[state.cards[card]]
        if spec.kind == "spell":
            total += 1
            ctx.spent.append(card)
            continue
        wanted = card in cmd.power_expert
        row = next(
            ((x, e) for _i, x, e in spec.effects() if e.timing == "power" and x == wanted),
            None,
        )
        if row is None:
            raise IllegalMove(f"{spec.name} gives no {'Expert ' if wanted else ''}Empower.")
        expert, effect = row
        if effect.effect == "school" and spec.school != school:
            raise IllegalMove(f"{spec.name} empowers {spec.school} Spells only.")
        total += effect.amount
        ctx.draws += effect.draw
        ctx.experts += 1 if expert else 0
        ctx.spent.append(card)
    if (
        ctx.card.kind == "spell"
        and school is not None
        and _permanent_school(state, ctx.seat) == school
    ):
        total += 1
    ctx.power = total
    ctx.level = ctx.effect.level_for(total)
    if ctx.level is None and ctx.effect.levels:
        need = ctx.effect.levels[0][0]
        raise IllegalMove(f"{ctx.card.name} needs at least {need} Empower; you paid {total}.")


def _permanent_school(state: Homm3State, seat: int) -> str | None:
    for card in state.player(seat).permanent:
        spec = load_content().cards[state.cards[card]]
        if spec.school in ("air", "earth", "fire", "water"):
            return spec.school
    return None


def _commit(ctx: Ctx, source: str, apply: Apply) -> list[Event]:
    state, seat = ctx.state, ctx.seat
    player = state.player(seat)
    combat = core.combat(state)
    card = ctx.cmd.card
    player.experts -= ctx.experts
    if source == "scroll":
        player.scroll.remove(card)
        player.discard.append(card)
    elif ctx.effect.timing == "permanent":
        player.hand.remove(card)
        for old in player.permanent:
            player.discard.append(old)
        player.permanent = [card]
    else:
        player.hand.remove(card)
        player.discard.append(card)
    for spent in ctx.spent:
        player.hand.remove(spent)
        player.discard.append(spent)
    is_spell = ctx.card.kind == "spell"
    label = zones.name(state, card)
    detail = ctx.effect.text
    if ctx.level is not None and ctx.effect.levels:
        detail += f" (Empower {ctx.power})"
    events = [
        Event(
            kind="play",
            text=f"{seat_name(seat)} {'casts' if is_spell else 'plays'} {label}"
            + (" for its Expert effect" if ctx.expert else "")
            + (" from the Spell Scroll" if source == "scroll" else "")
            + f": {detail}",
            data={
                "seat": seat,
                "card": card,
                "id": ctx.card.id,
                "option": ctx.cmd.option,
                "power": ctx.power,
            },
        )
    ]
    if ctx.spent:
        events.append(
            Event(
                kind="empower",
                text=f"Empower paid with {', '.join(zones.name(state, c) for c in ctx.spent)}.",
                data={"cards": ctx.spent},
            )
        )
    opening = combat.opening if ctx.where == "opening" else None
    if is_spell and source != "scroll" and not (opening and opening.cast == seat and opening.free):
        combat.spells[seat] = combat.spells.get(seat, 0) + 1
    if is_spell and opening is not None and opening.cast == seat:
        opening.cast = None
        opening.free = False
    if ctx.effect.timing != "after_cast":
        combat.last_cast = (
            {"seat": seat, "spell": card, "companions": ctx.spent} if is_spell else {}
        )
    foe = other(seat)
    if is_spell and state.player(foe).hand and zones.unseen(state, ("resistance",)):
        combat.reaction = Reaction(
            seat=foe,
            caster=seat,
            card=card,
            option=ctx.cmd.option,
            command=ctx.cmd.model_dump(mode="json"),  # as it reads back from storage
            power=ctx.power,
            level=list(ctx.level or ()),
            spent=list(ctx.spent),
            draws=ctx.draws,
            context=ctx.where,
        )
        return events
    events += apply()
    return events + _settle_play(state, seat, ctx.where, ctx.draws, spell=is_spell)


def _settle_play(
    state: Homm3State, seat: int, where: str, draws: int, *, spell: bool
) -> list[Event]:
    """What follows a card's effect: the draws it gives, Distracted Mind after a Spell, a
    new chance to answer in the window it was played in, victory, and the attack or
    activation going on."""
    events: list[Event] = []
    if draws:
        events += zones.draw(state, seat, draws)
    if spell and morale.trigger(state, seat, "spell"):
        events += zones.random_discard(state, seat, "Distracted Mind")
    combat = core.combat(state)
    if where == "window":
        combat_attack.played_in_window(state)
    elif where == "opening" and combat.opening is not None:
        combat.opening.passes = 0
    events += core.check_victory(state, seat)
    return events + combat_attack.after_card(state)


# --------------------------------------------------------------- reaction
def pass_reaction(state: Homm3State, seat: int) -> list[Event]:
    """Do not answer the Spell the enemy has just cast: its effect resolves.

    :raises IllegalMove: when no enemy Spell waits for ``seat``'s answer.
    Rule: none (core game: answering a Spell the enemy casts)
    """
    combat = core.combat(state)
    reaction = combat.reaction
    if reaction is None or reaction.seat != seat:
        raise IllegalMove("No enemy Spell waits for your answer.")
    combat.reaction = None
    return [
        Event(kind="pass", text=f"{seat_name(seat)} lets the Spell resolve.", data={"seat": seat}),
        *_finish_cast(state, reaction, ignored=False),
    ]


def _finish_cast(state: Homm3State, reaction: Reaction, *, ignored: bool) -> list[Event]:
    """Resolve a Spell held for the enemy's answer (or drop its effect when Resisted), then
    what follows it; the caster may still play Knowledge or Mysticism right after."""
    combat = core.combat(state)
    card = load_content().cards[state.cards[reaction.card]]
    found = card.option(reaction.option)
    assert found is not None
    expert, effect = found
    ctx = Ctx(
        state=state,
        seat=reaction.caster,
        cmd=Play.model_validate(reaction.command),
        card=card,
        effect=effect,
        expert=expert,
        window=reaction.context == "window",
        power=reaction.power,
        level=tuple(reaction.level) or None,
        spent=list(reaction.spent),
        draws=reaction.draws,
        where=reaction.context,
    )
    combat.last_cast = {
        "seat": reaction.caster,
        "spell": reaction.card,
        "companions": list(reaction.spent),
    }
    events: list[Event] = []
    if not ignored:
        try:
            apply = _HANDLERS[effect.effect](ctx)
        except RuleViolation:
            events.append(
                Event(
                    kind="fizzle",
                    text=f"{card.name} finds nothing to act on any more and has no effect.",
                    data={"card": reaction.card},
                )
            )
        else:
            events += apply()
    return events + _settle_play(
        state, reaction.caster, reaction.context, reaction.draws, spell=True
    )


# ---------------------------------------------------------------- targets
def _unit(
    ctx: Ctx, *, own: bool | None = None, board: bool = True, tower: bool = False
) -> CombatUnit:
    if ctx.cmd.unit is None:
        raise InvalidInput(
            f"{ctx.card.name} needs a target unit: give 'unit' (a battlefield number)."
        )
    unit = core.get_unit(ctx.state, ctx.cmd.unit)
    if own is True and unit.seat != ctx.seat:
        raise IllegalMove(f"{ctx.card.name} targets one of your own units.")
    if own is False and unit.seat == ctx.seat:
        raise IllegalMove(f"{ctx.card.name} targets an enemy unit.")
    if board and unit.hex is None and not (tower and unit.unit == core.TOWER):
        raise IllegalMove(f"{core.unit_name(unit)} is not on the board.")
    return unit


def spell_target_problem(unit: CombatUnit, *, max_tier: int = 3) -> str | None:
    """Why a Spell cannot target ``unit`` (None when it can).

    Rule: none (core game: Spell targets, Magic Immunity)"""
    if core.spell_immune(unit):
        return f"{core.unit_name(unit)} is immune to Spells"
    if "anti_magic" in unit.flags:
        return f"{core.unit_name(unit)} is protected by Anti-Magic"
    if core.tier(unit) > max_tier:
        return f"at this Empower it reaches {TIERS[max_tier]} units at most"
    return None


def _spell_unit(
    ctx: Ctx, *, own: bool | None = None, max_tier: int = 3, tower: bool = False
) -> CombatUnit:
    unit = _unit(ctx, own=own, tower=tower)
    problem = spell_target_problem(unit, max_tier=max_tier)
    if problem:
        raise IllegalMove(f"{ctx.card.name} cannot target {core.unit_name(unit)}: {problem}.")
    return unit


def _value(ctx: Ctx, index: int = 1) -> int:
    assert ctx.level is not None
    return ctx.level[index]


def _hex(ctx: Ctx) -> str:
    if ctx.cmd.hex is None:
        raise InvalidInput(f"{ctx.card.name} needs a hex: give 'hex' (e.g. G5).")
    normal = hexes.normalize(ctx.cmd.hex)
    if normal is None:
        raise InvalidInput(f"{ctx.cmd.hex!r} is not a hex of the Battlefield (A1 to M9).")
    return normal


def _mod(unit: CombatUnit, stat: str, amount: int, until: str, source: str) -> None:
    unit.modifiers.append(
        Modifier.model_validate({"stat": stat, "amount": amount, "until": until, "source": source})
    )


def _instant_until(stat: str) -> str:
    return "attack" if stat == "attack" else "defended"


def _damage_all(
    ctx: Ctx, units: list[CombatUnit], amounts: list[int], *, spell: bool
) -> list[Event]:
    events: list[Event] = []
    for unit, amount in zip(units, amounts, strict=False):
        kind = "spell" if spell else ctx.card.kind
        taken = core.magic_damage(unit, amount, kind)
        if taken < amount:
            events.append(
                Event(
                    kind="ability",
                    text=f"{core.unit_name(unit)} "
                    + ("takes no damage from it." if not taken else f"takes only {taken} damage."),
                    data={"unit": unit.number},
                )
            )
        events += core.deal_damage(ctx.state, unit, taken, ctx.card.name)
    return events


# --------------------------------------------------------------- handlers
def _stat(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)
    stat = ctx.effect.stat or "attack"
    if ctx.effect.ranged and core.kind(unit) != "ranged":
        raise IllegalMove(f"{ctx.card.name} works on a Ranged unit.")
    amount = ctx.effect.amount
    if ctx.effect.effect == "spec_stat" and unit.unit in ctx.effect.double:
        amount *= 2
    ctx.draws += ctx.effect.draw

    def apply() -> list[Event]:
        _mod(unit, stat, amount, _instant_until(stat), ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} gets {amount:+d} {stat.capitalize()}.",
                data={"unit": unit.number},
            )
        ]

    return apply


def _stat_discard(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)
    player = ctx.state.player(ctx.seat)
    if (
        len(ctx.cmd.discard) != 1
        or ctx.cmd.discard[0] not in player.hand
        or ctx.cmd.discard[0] == ctx.cmd.card
    ):
        raise InvalidInput(
            f"{ctx.card.name} needs exactly one other card of your hand in 'discard'."
        )
    dropped = ctx.cmd.discard[0]
    if dropped in ctx.spent:
        raise InvalidInput("That card is already paid as Empower.")
    spell = load_content().cards[ctx.state.cards[dropped]].kind == "spell"
    if ctx.effect.draw and spell:
        ctx.draws += 1
    ctx.spent.append(dropped)
    amount = ctx.effect.amount

    def apply() -> list[Event]:
        _mod(unit, "attack", amount, "attack", ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} gets +{amount} Attack.",
                data={"unit": unit.number},
            )
        ]

    return apply


def _after_cast(ctx: Ctx) -> Apply:
    state = ctx.state
    last = core.combat(state).last_cast
    player = state.player(ctx.seat)
    spell = int(last["spell"])
    cards = [spell]
    if ctx.effect.effect == "mysticism" and ctx.effect.amount:
        cards += [int(c) for c in last.get("companions", [])]
    cards = [c for c in cards if c in player.discard]

    def apply() -> list[Event]:
        for card in cards:
            player.discard.remove(card)
            player.hand.append(card)
        if ctx.effect.effect == "knowledge" and ctx.effect.amount:
            combat = core.combat(state)
            combat.spell_bonus[ctx.seat] = combat.spell_bonus.get(ctx.seat, 0) + 1
        core.combat(state).last_cast = {}
        return [
            Event(
                kind="recall",
                text=f"{seat_name(ctx.seat)} takes {', '.join(zones.name(state, c) for c in cards) or 'nothing'} back into the hand.",
                data={},
            )
        ]

    return apply


def _school(ctx: Ctx) -> Apply:
    def apply() -> list[Event]:
        return [
            Event(
                kind="permanent",
                text=f"{ctx.card.name} is now in play (Permanent).",
                data={"seat": ctx.seat},
            )
        ]

    return apply


def _archery(ctx: Ctx) -> Apply:
    combat = core.combat(ctx.state)
    until = combat.round + ctx.effect.rounds - 1

    def apply() -> list[Event]:
        combat.bonuses.append(
            Bonus(
                seat=ctx.seat,
                kind="archery",
                attack=ctx.effect.amount,
                defense=ctx.effect.defense,
                until_round=until,
            )
        )
        return []

    return apply


def _artillery(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=False)
    foes = [u for u in core.living(ctx.state, other(ctx.seat), tower=False) if u.hex is not None]
    lowest = min(core.defense(ctx.state, u) for u in foes)
    if core.defense(ctx.state, unit) != lowest:
        raise IllegalMove(f"Artillery hits an enemy unit with the lowest Defense ({lowest}).")
    return lambda: core.deal_damage(ctx.state, unit, ctx.effect.amount, ctx.card.name)


def _heal(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)

    def apply() -> list[Event]:
        healed = core.heal(unit, ctx.effect.amount)
        return [
            Event(
                kind="heal",
                text=f"{core.unit_name(unit)} heals {healed} damage.",
                data={"unit": unit.number},
            )
        ]

    return apply


def _gain_morale(ctx: Ctx) -> Apply:
    def apply() -> list[Event]:
        events = zones.draw(ctx.state, ctx.seat, ctx.effect.amount) if ctx.effect.amount else []
        effects.push(ctx.state, ctx.seat, [{"step": "morale", "amount": 1}])
        return events + effects.run(ctx.state)

    return apply


def _tactics(ctx: Ctx) -> Apply:
    state = ctx.state
    combat = core.combat(state)
    if ctx.effect.amount == 0:
        own = [u for u in combat.units if u.seat == ctx.seat]
        if combat.round != 1 or any(u.activated for u in own):
            raise IllegalMove(
                "Tactics (basic) is played at the start of the Combat: in round 1, before any of your units has activated."
            )
    if len(ctx.cmd.units) != 2 or len(set(ctx.cmd.units)) != 2:
        raise InvalidInput("Tactics needs two of your units in 'units'.")
    first, second = (core.get_unit(state, n) for n in ctx.cmd.units)
    if first.seat != ctx.seat or second.seat != ctx.seat or first.hex is None or second.hex is None:
        raise IllegalMove("Tactics swaps two of your own units on the board.")

    def apply() -> list[Event]:
        first.hex, second.hex = second.hex, first.hex
        return [
            Event(
                kind="move",
                text=f"Tactics: {core.unit_name(first)} and {core.unit_name(second)} swap places.",
                data={},
            )
        ]

    return apply


def _draw(ctx: Ctx) -> Apply:
    ctx.draws += ctx.effect.amount
    return lambda: []


def _gain_expert(ctx: Ctx) -> Apply:
    player = ctx.state.player(ctx.seat)

    def apply() -> list[Event]:
        player.experts = min(expert_limit(player), player.experts + ctx.effect.amount)
        return [Event(kind="expert", text=f"{seat_name(ctx.seat)} regains an Expert use.", data={})]

    return apply


def _enemy_discard(ctx: Ctx) -> Apply:
    return lambda: zones.random_discard(ctx.state, other(ctx.seat), ctx.card.name)


def _triple(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)

    def apply() -> list[Event]:
        unit.flags.append("triple")
        return []

    return apply


def _hourglass(ctx: Ctx) -> Apply:
    state, seat = ctx.state, ctx.seat

    def apply() -> list[Event]:
        if ctx.effect.amount == 0:
            foe = state.player(other(seat))
            if foe.positive or foe.positive_token:
                effects.push(state, foe.seat, [{"step": "morale", "amount": -1}])
                return effects.run(state)
            return [
                Event(kind="morale", text=f"{seat_name(foe.seat)} has no Positive Morale.", data={})
            ]
        face, event = dice.roll_attack_face(state, "hourglass", seat_name(seat))
        if dice.offer(state, seat, die="attack", faces=[face], then="hourglass", best=0):
            return [event]
        return [event, *_hourglass_die(state, seat, [face], {})]

    return apply


def _hourglass_die(
    state: Homm3State, seat: int, faces: list[int], args: dict[str, object]
) -> list[Event]:
    """Hourglass of the Evil Hour's die is final: on 0 its player gains Positive Morale."""
    if dice.attack_value(faces[0]) != 0:
        return []
    effects.push(state, seat, [{"step": "morale", "amount": 1}])
    return effects.run(state)


def _initiative(ctx: Ctx) -> Apply:
    if ctx.card.kind == "spell":
        unit = _spell_unit(ctx)
        amount = ctx.effect.sign * _value(ctx)
    else:
        unit = _unit(ctx, own=True)
        amount = ctx.effect.amount * (2 if unit.unit in ctx.effect.double else 1)

    def apply() -> list[Event]:
        _mod(unit, "initiative", amount, "combat", ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} gets {amount:+d} Initiative for the Combat.",
                data={},
            )
        ]

    return apply


def _ground_initiative(ctx: Ctx) -> Apply:
    combat = core.combat(ctx.state)

    def apply() -> list[Event]:
        combat.bonuses.append(
            Bonus(seat=ctx.seat, kind="ground_initiative", attack=ctx.effect.amount)
        )
        return []

    return apply


def _no_penalty(ctx: Ctx) -> Apply:
    combat = core.combat(ctx.state)

    def apply() -> list[Event]:
        combat.bonuses.append(Bonus(seat=ctx.seat, kind="no_penalty"))
        return []

    return apply


def _step(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)
    target = _hex(ctx)
    assert unit.hex is not None
    if not hexes.adjacent(unit.hex, target) or not core.empty(ctx.state, target, unit.seat):
        raise IllegalMove(f"{core.unit_name(unit)} may step to an empty adjacent hex only.")

    def apply() -> list[Event]:
        start = unit.hex
        unit.hex = target
        events = [
            Event(
                kind="move", text=f"{core.unit_name(unit)} steps from {start} to {target}.", data={}
            )
        ]
        fire = core.fire_wall_at(ctx.state, target)
        return events + (core.deal_damage(ctx.state, unit, fire, "Fire Wall") if fire else [])

    return apply


def _spec_health(ctx: Ctx) -> Apply:
    unit = _unit(ctx, own=True)
    amount = ctx.effect.amount * (2 if unit.unit in ctx.effect.double else 1)

    def apply() -> list[Event]:
        _mod(unit, "health", amount, "combat", ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} has +{amount} Health for the Combat.",
                data={},
            )
        ]

    return apply


def _ring(ctx: Ctx) -> Apply:
    center = _hex(ctx)
    player = ctx.state.player(ctx.seat)
    need = ctx.effect.discard
    if (
        len(ctx.cmd.discard) != need
        or len(set(ctx.cmd.discard)) != need
        or any(c not in player.hand or c == ctx.cmd.card or c in ctx.spent for c in ctx.cmd.discard)
    ):
        raise InvalidInput(
            f"{ctx.card.name} needs {plural(need, 'other card')} of your hand in 'discard'."
        )
    ctx.spent.extend(ctx.cmd.discard)
    victims = [
        u
        for u in core.living(ctx.state, tower=False)
        if u.hex is not None and hexes.adjacent(center, u.hex)
    ]
    return lambda: _damage_all(ctx, victims, [ctx.effect.amount] * len(victims), spell=False)


def _recall(ctx: Ctx) -> Apply:
    player = ctx.state.player(ctx.seat)
    take = ctx.cmd.take
    if take is None or take not in player.discard:
        raise InvalidInput(
            f"{ctx.card.name} needs 'take': a Spell or Specialty card of your discard pile."
        )
    kind = load_content().cards[ctx.state.cards[take]].kind
    if kind not in ("spell", "specialty"):
        raise IllegalMove(f"{ctx.card.name} takes back a Spell or Specialty card only.")

    def apply() -> list[Event]:
        player.discard.remove(take)
        player.hand.append(take)
        return [
            Event(
                kind="recall",
                text=f"{seat_name(ctx.seat)} takes {zones.name(ctx.state, take)} back into the hand.",
                data={},
            )
        ]

    return apply


def _ripple(ctx: Ctx) -> Apply:
    ranks = {TIER_ORDER[t] for t in ctx.effect.tiers}
    victims = [
        u for u in core.living(ctx.state, other(ctx.seat), tower=False) if core.tier(u) in ranks
    ]
    return lambda: _damage_all(ctx, victims, [ctx.effect.amount] * len(victims), spell=False)


def _meteor(ctx: Ctx) -> Apply:
    first = _unit(ctx)
    extra = ctx.effect.amount
    if len(ctx.cmd.units) > extra or len(set(ctx.cmd.units)) != len(ctx.cmd.units):
        raise InvalidInput(
            f"{ctx.card.name} hits 1 more unit in 'unit' and up to {plural(extra, 'adjacent unit')} in 'units'."
        )
    others = [core.get_unit(ctx.state, n) for n in ctx.cmd.units]
    assert first.hex is not None
    for unit in others:
        if unit is first or unit.hex is None or not hexes.adjacent(first.hex, unit.hex):
            raise IllegalMove(f"{core.unit_name(unit)} is not adjacent to {core.unit_name(first)}.")
    damage = _value(ctx)
    victims = [first, *others]
    return lambda: _damage_all(ctx, victims, [damage] * len(victims), spell=False)


def _reshuffle(ctx: Ctx) -> Apply:
    state, seat = ctx.state, ctx.seat
    player = state.player(seat)

    def apply() -> list[Event]:
        player.deck.extend(player.discard)
        player.discard.clear()
        return [
            zones.shuffle(state, player.deck, f"{seat_name(seat)}'s deck"),
            *zones.draw(state, seat, 1),
        ]

    return apply


def _damage(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx, tower=True)
    return lambda: _damage_all(ctx, [unit], [_value(ctx)], spell=True)


def _chain(ctx: Ctx) -> Apply:
    first = _spell_unit(ctx)
    assert first.hex is not None and ctx.level is not None
    rest = sorted(
        (u for u in core.living(ctx.state, tower=False) if u is not first and u.hex is not None),
        key=lambda u: (hexes.distance(first.hex or "A1", u.hex or "A1"), u.number),
    )[:2]
    victims = [first, *rest]
    amounts = list(ctx.level[1:])
    return lambda: _damage_all(ctx, victims, amounts, spell=True)


def _fireball(ctx: Ctx) -> Apply:
    if len(ctx.cmd.hexes) != 2:
        raise InvalidInput("Fireball needs 2 adjacent hexes in 'hexes'.")
    cells = [hexes.normalize(h) for h in ctx.cmd.hexes]
    if None in cells or not hexes.adjacent(str(cells[0]), str(cells[1])):
        raise IllegalMove("Fireball's 2 hexes must be adjacent hexes of the board.")
    victims = [u for c in cells if c is not None and (u := core.unit_at(ctx.state, c)) is not None]
    for unit in victims:
        if "anti_magic" in unit.flags:
            raise IllegalMove(f"{core.unit_name(unit)} is protected by Anti-Magic.")
    damage = _value(ctx)
    return lambda: _damage_all(ctx, victims, [damage] * len(victims), spell=True)


def _frost_ring(ctx: Ctx) -> Apply:
    center = _hex(ctx)
    if not 1 <= len(ctx.cmd.units) <= 2 or len(set(ctx.cmd.units)) != len(ctx.cmd.units):
        raise InvalidInput("Frost Ring needs 1 or 2 units adjacent to the hex in 'units'.")
    victims = [core.get_unit(ctx.state, n) for n in ctx.cmd.units]
    for unit in victims:
        if unit.hex is None or not hexes.adjacent(center, unit.hex):
            raise IllegalMove(f"{core.unit_name(unit)} is not adjacent to {center}.")
        problem = spell_target_problem(unit)
        if problem:
            raise IllegalMove(f"Frost Ring cannot target it: {problem}.")
    damage = _value(ctx)
    return lambda: _damage_all(ctx, victims, [damage] * len(victims), spell=True)


def _spell_stat(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx)
    if ctx.effect.melee and core.kind(unit) == "ranged":
        raise IllegalMove(f"{ctx.card.name} works on a Ground or Flying unit.")
    stat = ctx.effect.stat or "attack"
    amount = ctx.effect.sign * _value(ctx)

    def apply() -> list[Event]:
        _mod(unit, stat, amount, _instant_until(stat), ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} gets {amount:+d} {stat.capitalize()}.",
                data={},
            )
        ]

    return apply


def _prayer(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx)
    stat = ctx.cmd.stat
    if stat is None:
        raise InvalidInput("Prayer needs 'stat': attack, defense or initiative.")
    amount = _value(ctx)
    until = "combat" if stat == "initiative" else _instant_until(stat)

    def apply() -> list[Event]:
        _mod(unit, stat, amount, until, ctx.card.id)
        return [
            Event(
                kind="modifier",
                text=f"{core.unit_name(unit)} gets +{amount} {stat.capitalize()}.",
                data={},
            )
        ]

    return apply


def _bless(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx)
    if core.kind(unit) == "ranged":
        raise IllegalMove("Bless works on a Ground or Flying unit.")
    amount = _value(ctx)

    def apply() -> list[Event]:
        unit.flags.append(f"bless:{amount}")
        return []

    return apply


def _cure(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx)
    amount = _value(ctx)

    def apply() -> list[Event]:
        unit.modifiers.clear()
        unit.flags = [f for f in unit.flags if f in ("diseased", "aged")]
        unit.paralysed = False
        healed = core.heal(unit, amount)
        return [
            Event(
                kind="heal",
                text=f"{core.unit_name(unit)} is cured and heals {healed} damage.",
                data={},
            )
        ]

    return apply


def _tiered(ctx: Ctx, *, own: bool | None = None) -> CombatUnit:
    return _spell_unit(ctx, own=own, max_tier=_value(ctx))


def _paralyse(ctx: Ctx) -> Apply:
    unit = _tiered(ctx)

    def apply() -> list[Event]:
        done = core.paralyse(unit)
        return [
            Event(
                kind="paralysis",
                text=f"{core.unit_name(unit)} {'is Paralysed' if done else 'cannot be Paralysed'}.",
                data={},
            )
        ]

    return apply


def _flag(name: str, *, own: bool | None = None) -> Callable[[Ctx], Apply]:
    def handler(ctx: Ctx) -> Apply:
        unit = _tiered(ctx, own=own)

        def apply() -> list[Event]:
            if name == "counterstrike":
                unit.extra_retaliation = True
            elif name not in unit.flags:
                unit.flags.append(name)
            return []

        return apply

    return handler


def _teleport(ctx: Ctx) -> Apply:
    unit = _tiered(ctx, own=True)
    target = _hex(ctx)
    if not core.empty(ctx.state, target) or core.fire_wall_at(ctx.state, target):
        raise IllegalMove(f"{target} is not an empty hex.")

    def apply() -> list[Event]:
        start = unit.hex
        unit.hex = target
        return [
            Event(
                kind="move",
                text=f"{core.unit_name(unit)} teleports from {start} to {target}.",
                data={},
            )
        ]

    return apply


def _marker(kind: str) -> Callable[[Ctx], Apply]:
    def handler(ctx: Ctx) -> Apply:
        target = _hex(ctx)
        combat = core.combat(ctx.state)
        if not core.empty(ctx.state, target) or any(target in p.hexes for p in combat.placed):
            raise IllegalMove(f"{target} is not an empty hex.")
        value = _value(ctx)

        def apply() -> list[Event]:
            if kind == "fire_wall":
                combat.placed.append(
                    Placed(
                        token=0,
                        kind="fire_wall",
                        name="Fire Wall",
                        hexes=[target],
                        owner=ctx.seat,
                        damage=value,
                    )
                )
            else:
                until = 0 if value >= 99 else combat.round + value - 1
                combat.placed.append(
                    Placed(
                        token=0,
                        kind="force_field",
                        name="Force Field",
                        hexes=[target],
                        owner=ctx.seat,
                        until_round=until,
                    )
                )
            return [
                Event(
                    kind="marker",
                    text=f"A {kind.replace('_', ' ').title()} rises on {target}.",
                    data={"hex": target},
                )
            ]

        return apply

    return handler


def _fire_shield(ctx: Ctx) -> Apply:
    unit = _spell_unit(ctx)
    value = _value(ctx)

    def apply() -> list[Event]:
        unit.flags.append(f"fire_shield:{value}")
        return []

    return apply


def _intelligence(ctx: Ctx) -> Apply:
    opening = core.combat(ctx.state).opening
    assert opening is not None
    if opening.cast is not None:
        raise IllegalMove("Cast the Spell you may cast now first, or pass.")
    content = load_content()
    player = ctx.state.player(ctx.seat)
    if not any(
        content.cards[ctx.state.cards[c]].kind == "spell" for c in player.hand if c != ctx.cmd.card
    ):
        raise IllegalMove("Intelligence casts a Spell card of your hand, and you hold none.")
    if not ctx.expert and core.spells_left(ctx.state, ctx.seat) <= 0:
        raise IllegalMove("You have already cast your Spell this Combat round.")

    def apply() -> list[Event]:
        opening.cast = ctx.seat
        opening.free = ctx.expert
        return [
            Event(
                kind="intelligence",
                text=f"{seat_name(ctx.seat)} may now cast a Spell before any unit activates"
                + (" (not counting toward the round's Spell)." if ctx.expert else "."),
                data={"seat": ctx.seat},
            )
        ]

    return apply


def _resistance(ctx: Ctx) -> Apply:
    combat = core.combat(ctx.state)
    reaction = combat.reaction
    assert reaction is not None
    name = zones.name(ctx.state, reaction.card)
    if reaction.power > ctx.effect.amount:
        raise IllegalMove(
            f"{name} was cast with {reaction.power} Empower; Resistance's basic effect answers "
            f"a Spell cast with at most {ctx.effect.amount} (its Expert effect answers any)."
        )

    def apply() -> list[Event]:
        combat.reaction = None
        return [
            Event(
                kind="resisted",
                text=f"Resistance: {name} has no effect.",
                data={"card": reaction.card},
            ),
            *_finish_cast(ctx.state, reaction, ignored=True),
        ]

    return apply


def _luck(ctx: Ctx) -> Apply:
    if ctx.effect.amount == 0:
        raise IllegalMove(
            "Luck's basic effect rerolls a Treasure die and a Resource die, and neither is "
            "thrown in Combat; play its Expert effect (option 1) to reroll your dice."
        )
    combat = core.combat(ctx.state)

    def apply() -> list[Event]:
        combat.luck[ctx.seat] = combat.round
        return [
            Event(
                kind="luck",
                text=f"Until the end of Combat round {combat.round}, {seat_name(ctx.seat)} may reroll each die they throw once.",
                data={"seat": ctx.seat, "round": combat.round},
            )
        ]

    return apply


def _eagle_eye(ctx: Ctx) -> Apply:
    want = "expert" if ctx.effect.amount else "basic"
    return lambda: eagle_eye(ctx.state, ctx.seat, want)


def eagle_eye(state: Homm3State, seat: int, want: str) -> list[Event]:
    """Turn over Spell deck cards until one of level ``want`` (``basic``/``expert``) shows;
    its finder then takes it or discards it (a private choice) and the others are shuffled
    back. An empty deck is refilled once from the discard pile (shared deck rules).
    Rule: none (core game: Eagle Eye Ability)"""
    content = load_content()
    turned: list[int] = []
    found: int | None = None
    events: list[Event] = []
    for _attempt in range(2):
        while state.spell_deck and found is None:
            card = state.spell_deck.pop(0)
            if content.cards[state.cards[card]].level == want:
                found = card
            else:
                turned.append(card)
        if found is not None:
            break
        events += zones.refill(state, "spell")
    state.spell_deck.extend(turned)
    events.append(
        Event(
            kind="eagle_eye",
            text=f"{seat_name(seat)} turns over {plural(len(turned) + (found is not None), 'Spell card')} looking for "
            f"{'an Expert' if want == 'expert' else 'a Basic'} Spell"
            + ("." if found is not None else " and finds none."),
            data={"seat": seat, "count": len(turned) + (found is not None)},
            private={
                seat: "You turn over "
                + (", ".join(zones.name(state, c) for c in turned) or "no other card")
                + (f" and find {zones.name(state, found)}." if found is not None else ".")
            },
        )
    )
    events.append(zones.shuffle(state, state.spell_deck, "The Spell deck"))
    if found is not None:
        state.looking[seat] = [found]
        name = zones.name(state, found)
        state.choice[seat] = Choice(
            kind="eagle_eye",
            prompt=f"{seat_name(seat)} takes the Spell found into the hand or discards it.",
            options=[f"Take {name} into your hand", f"Discard {name}"],
            private=True,
        )
    return events


def _answer_eagle_eye(state: Homm3State, seat: int, choice: Choice, index: int) -> list[Event]:
    card = state.looking.pop(seat)[0]
    if index == 0:
        state.player(seat).hand.append(card)
        return [
            Event(
                kind="gain_card",
                text=f"{seat_name(seat)} takes the Spell into the hand.",
                data={"seat": seat},
                private={seat: f"You take {zones.name(state, card)}."},
                private_data={seat: {"card": card}},
            )
        ]
    zones.discard_shared(state, "spell", [card])
    return [
        Event(
            kind="discard",
            text=f"{seat_name(seat)} discards {zones.name(state, card)} to the Spell discard pile.",
            data={"seat": seat, "cards": [card]},
        )
    ]


def _ballista(ctx: Ctx) -> Apply:
    state = ctx.state
    combat = core.combat(state)
    if combat.siege is None:
        raise IllegalMove("Ballista is played in a Siege, and this Combat is none.")
    if ctx.effect.amount:
        tower = next((u for u in combat.units if u.unit == core.TOWER and u.alive), None)
        if tower is None:
            raise IllegalMove("The Arrow Tower has already fallen.")

        def fell_tower() -> list[Event]:
            tower.alive = False
            return [Event(kind="defeated", text="Ballista: the Arrow Tower falls.", data={})]

        return fell_tower
    target = _hex(ctx)
    placed = next(
        (p for p in combat.placed if p.kind in ("wall", "gate") and target in p.hexes), None
    )
    if placed is None:
        standing = ", ".join(p.hexes[0] for p in combat.placed if p.kind in ("wall", "gate"))
        raise InvalidInput(f"There is no Wall or Gate on {target}; standing: {standing or 'none'}.")

    def apply() -> list[Event]:
        combat.placed.remove(placed)
        return [
            Event(
                kind="wall",
                text=f"Ballista destroys the {placed.name} on {', '.join(placed.hexes)}.",
                data={"hexes": placed.hexes},
            ),
            *combat_attack.walls_down(state),
        ]

    return apply


def _resurrection(ctx: Ctx) -> Apply:
    window = core.combat(ctx.state).window
    assert window is not None
    unit = core.get_unit(ctx.state, window.target)
    if unit.seat != ctx.seat:
        raise IllegalMove("Resurrection saves one of your own units.")
    problem = spell_target_problem(unit, max_tier=_value(ctx))
    if problem:
        raise IllegalMove(f"Resurrection cannot save {core.unit_name(unit)}: {problem}.")

    def apply() -> list[Event]:
        window.cancelled = True
        return []

    return apply


_HANDLERS: dict[str, Callable[[Ctx], Apply]] = {
    "stat": _stat,
    "spec_stat": _stat,
    "stat_discard": _stat_discard,
    "knowledge": _after_cast,
    "mysticism": _after_cast,
    "school": _school,
    "archery": _archery,
    "artillery": _artillery,
    "heal": _heal,
    "gain_morale": _gain_morale,
    "tactics": _tactics,
    "draw": _draw,
    "gain_expert": _gain_expert,
    "enemy_discard": _enemy_discard,
    "triple_die": _triple,
    "hourglass": _hourglass,
    "initiative": _initiative,
    "ground_initiative": _ground_initiative,
    "no_penalty": _no_penalty,
    "step": _step,
    "spec_health": _spec_health,
    "ring": _ring,
    "recall": _recall,
    "ripple": _ripple,
    "meteor": _meteor,
    "reshuffle": _reshuffle,
    "damage": _damage,
    "chain": _chain,
    "fireball": _fireball,
    "frost_ring": _frost_ring,
    "spell_stat": _spell_stat,
    "prayer": _prayer,
    "bless": _bless,
    "cure": _cure,
    "paralyse": _paralyse,
    "disrupt": _flag("disrupted"),
    "anti_magic": _flag("anti_magic"),
    "counterstrike": _flag("counterstrike", own=True),
    "teleport": _teleport,
    "fire_wall": _marker("fire_wall"),
    "force_field": _marker("force_field"),
    "fire_shield": _fire_shield,
    "intelligence": _intelligence,
    "resistance": _resistance,
    "luck": _luck,
    "eagle_eye": _eagle_eye,
    "ballista": _ballista,
    "resurrection": _resurrection,
}


# ------------------------------------------------------------- Morale use
def use_morale(state: Homm3State, seat: int, cmd: UseMorale) -> list[Event]:
    """Use a face-up Positive Morale card, or the Positive token (draw a card, or discard
    some cards and draw as many) (homm3turn:spending-positive-morale).

    :raises InvalidInput | IllegalMove: for a card not held or a use not possible now.
    """
    player = state.player(seat)
    in_combat = context(state, seat) is not None
    if cmd.card is None:
        if not player.positive_token:
            raise IllegalMove("You hold no Positive Morale token.")
        if cmd.unit is not None:
            raise InvalidInput(
                "'unit' does not apply to the Positive Morale token: option 0 draws a card, "
                "option 1 discards the cards named in 'discard' and draws as many."
            )
        if cmd.discard and cmd.option != 1:
            raise InvalidInput(
                "'discard' does not apply to the token's option 0 (draw a card); use option 1 "
                "to discard the cards named in 'discard' and draw as many."
            )
        if not in_combat:
            raise IllegalMove("The Positive token's draw and cycle are used in Combat.")
        discard = _cycle_check(player.hand, cmd.discard) if cmd.option == 1 else []
        player.positive_token = False
        events = [
            Event(
                kind="morale",
                text=f"{seat_name(seat)} spends the Positive Morale token.",
                data={"seat": seat},
            )
        ]
        if discard:
            events.append(zones.discard_from_hand(state, seat, discard))
        return events + zones.draw(state, seat, len(discard) if cmd.option == 1 else 1)
    if cmd.card not in player.positive:
        raise InvalidInput(
            "That is not one of your Positive Morale cards; yours: "
            + (", ".join(f"#{c}" for c in player.positive) or "none")
            + "."
        )
    spec = load_content().positive[state.cards[cmd.card]]
    _check_morale_fields(spec.name, spec.effect or "", spec.text, cmd)
    if not in_combat and spec.effect != "gain":
        raise IllegalMove(f"{spec.name} is used in Combat.")
    apply = _morale_effect(state, seat, cmd, spec.effect or "", spec.amount, spec.stat, in_combat)
    morale.use_positive(state, seat, cmd.card)
    events = [
        Event(
            kind="morale",
            text=f"{seat_name(seat)} uses {spec.name}: {spec.text}",
            data={"seat": seat, "card": cmd.card},
        )
    ]
    events += apply()
    window = state.combat.window if in_combat and state.combat is not None else None
    if window is not None and window.priority == seat:
        combat_attack.played_in_window(state)
    return events + (
        core.check_victory(state, seat) + combat_attack.after_card(state) if in_combat else []
    )


_MORALE_UNIT = ("stat", "heal", "initiative", "lucky", "unparalyse")


def _check_morale_fields(name: str, effect: str, text: str, cmd: UseMorale) -> None:
    """Refuse ``unit``/``discard``/``option`` on a Positive Morale card that does not use them
    (house rule 5; homm3turn:spending-positive-morale).

    :raises InvalidInput: naming the field that does not apply and what the card takes.
    """
    takes = (
        "it takes 'unit' (one of your units)"
        if effect in _MORALE_UNIT
        else "it takes 'discard' (cards of your hand)"
        if effect == "cycle"
        else "it takes no other field"
    )
    if cmd.unit is not None and effect not in _MORALE_UNIT:
        raise InvalidInput(f"'unit' does not apply to {name}; {takes}. {name}: {text}")
    if cmd.discard and effect != "cycle":
        raise InvalidInput(f"'discard' does not apply to {name}; {takes}. {name}: {text}")
    if cmd.option:
        raise InvalidInput(
            f"{name} has one use; 'option' applies to the Positive Morale token only. {name}: {text}"
        )


def _cycle_check(hand: list[int], discard: tuple[int, ...]) -> list[int]:
    if len(set(discard)) != len(discard) or any(c not in hand for c in discard):
        raise InvalidInput("Name cards of your hand in 'discard', each once.")
    return list(discard)


def _morale_effect(
    state: Homm3State,
    seat: int,
    cmd: UseMorale,
    effect: str,
    amount: int,
    stat: str | None,
    in_combat: bool,
) -> Apply:
    player = state.player(seat)

    def target(own: bool = True) -> CombatUnit:
        if cmd.unit is None:
            raise InvalidInput("Name one of your units in 'unit'.")
        unit = core.get_unit(state, cmd.unit)
        if own and unit.seat != seat:
            raise IllegalMove("Name one of your own units.")
        return unit

    if effect == "draw":
        return lambda: zones.draw(state, seat, amount)
    if effect == "gain" and in_combat:
        return lambda: zones.draw(state, seat, 1)
    unit = target() if effect in ("stat", "heal", "initiative", "lucky", "unparalyse") else None
    if effect == "unparalyse" and unit is not None and not unit.paralysed:
        raise IllegalMove(f"{core.unit_name(unit)} has no Paralysis token.")
    known = ("stat", "heal", "initiative", "lucky", "unparalyse", "gain_expert", "gain", "cycle")
    if effect not in known:
        raise IllegalMove("That Morale card cannot be used now.")

    def apply() -> list[Event]:
        if effect == "gain_expert":
            player.experts = min(expert_limit(player), player.experts + 1)
            return [Event(kind="expert", text=f"{seat_name(seat)} regains an Expert use.", data={})]
        if effect == "gain":
            effects.add_resources(player, "gold", amount)
            return [
                Event(kind="resources", text=f"{seat_name(seat)} gains {amount} Gold.", data={})
            ]
        assert unit is not None
        if effect == "stat":
            chosen = stat or "attack"
            _mod(unit, chosen, amount, _instant_until(chosen), "morale")
        elif effect == "initiative":
            _mod(unit, "initiative", amount, "combat", "morale")
        elif effect == "lucky":
            unit.flags.append("lucky")
        elif effect == "unparalyse":
            unit.paralysed = False
        else:
            healed = core.heal(unit, amount)
            return [
                Event(kind="heal", text=f"{core.unit_name(unit)} heals {healed} damage.", data={})
            ]
        return []

    if effect != "cycle":
        return apply
    if effect == "cycle":
        discard = _cycle_check(player.hand, cmd.discard)

        def cycle() -> list[Event]:
            events = [zones.discard_from_hand(state, seat, discard)] if discard else []
            return events + zones.draw(state, seat, len(discard))

        return cycle
    raise IllegalMove("That Morale card cannot be used now.")


dice.register("hourglass", _hourglass_die)
effects.register_answer("eagle_eye", _answer_eagle_eye)
