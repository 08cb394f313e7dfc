"""The battlefield picture: both sides' Melee and Ranged Lines, walls, round, last attack.

Rule sections: homm4:battles (attackers and defenders, tactical deployment, phases and
rounds, melee/ranged attacks, support, grouping, defense, counterattack), the rulebook's
"Battles in Towns" (walls intact, Breach, Sack; Town defense 10) and
homm4:heroes-levels-skills-and-spells.heroes-in-battle.

Layout, left to right as the rulebook lays the cards out: Attacker Ranged Line, Attacker
Melee Line, (walls), Defender Melee Line, Defender Ranged Line. Each Creature Stack is a
tile: its battlefield number (what the commands take) in its side's shape, name, cards in
the stack, current Melee / Ranged / Defense with the change from the printed card, its
Phase, and markers (Defending, Grouping, Countered, Acted, Support). Above: round, phase
track and whose decision it is; below: the last attack with its die roll and result.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.words import plural
from engine.homm4.cards import CardPool, HeroCard, UnitCard
from engine.homm4.views import AttackView, BattleView, CreatureView, InventoryView, PublicView
from rendering.canvas import Box, Canvas, Drawing, ellipsize, text_width
from rendering.homm4.palette import (
    BLACK,
    GOLD,
    HIGHLIGHT,
    INK,
    LIGHT,
    MUTED,
    NEUTRAL_RGB,
    PAGE,
    PANEL,
    PANEL_LINE,
    WHITE,
    darker,
    lighter,
    seat_label,
    seat_rgb,
    seat_shape,
)
from rendering.shapes import RGB, Shape, badge, paste_centred, token

WIDTH = 1300
"""Image width in px."""
TILE_W = 290
TILE_H = 134
GAP = 12
WALL_W = 56
HEADER_H = 176
FOOTER_H = 170

WALL_DEFENSE = 10
"""The Town walls' defense value (Battles in Towns)."""

_STAGES = {
    "deploy": "deploy their Creature Stacks",
    "fight": "act in Phase {phase}",
    "counter": "decide on a counterattack",
    "fill_front": "move a Creature to the Melee Line",
    "retreat": "retreat or fight on",
    "surrender_offer": "offer a surrender or fight on",
    "surrender_answer": "accept or reject the surrender",
}
_WALL_STATES = {"intact": "Intact", "breach": "Breach", "sack": "Sack"}
WALL_RGB: dict[str, RGB] = {
    "intact": (150, 146, 140),
    "breach": (226, 140, 40),
    "sack": (200, 44, 44),
}
"""The wall strip's colour per state (tests read it)."""


def side_colour(battle: BattleView, side: int) -> RGB:
    """The colour of battle side 0 (Attacker) or 1 (Defender); a Guard is grey."""
    if side == 1 and battle.defender_kind == "guard":
        return NEUTRAL_RGB
    return seat_rgb(battle.attacker if side == 0 else battle.defender)


def side_shape(battle: BattleView, side: int) -> Shape:
    """The shape of battle side 0 or 1 (a Guard: pentagon)."""
    if side == 1 and battle.defender_kind == "guard":
        return "pentagon"
    return seat_shape(battle.attacker if side == 0 else battle.defender)


def side_name(battle: BattleView, side: int) -> str:
    """``"Red"``, or ``"Guard (Blue plays it)"`` for a Guard Stack defender."""
    if side == 0:
        return seat_label(battle.attacker)
    if battle.defender_kind == "guard":
        return f"Guard (played by {seat_label(battle.defender)})"
    return seat_label(battle.defender)


def short_side_name(battle: BattleView, side: int) -> str:
    """``"Red"``, or ``"Guard"`` for a Guard Stack defender (column titles)."""
    if side == 1 and battle.defender_kind == "guard":
        return "Guard"
    return seat_label(battle.attacker if side == 0 else battle.defender)


def _columns(battle: BattleView) -> list[tuple[int, str]]:
    return [(0, "ranged"), (0, "melee"), (1, "melee"), (1, "ranged")]


def waiting_line(view: PublicView) -> str:
    """What the battle waits for, whole (``Waiting: Blue to choose a Phase 2 attack``; the
    picture's header cuts it to its width): ``Game over`` once the game is finished.
    :raises ValueError: when ``view`` has no battle."""
    battle = view.battle
    if battle is None:
        raise ValueError("no battle in progress")
    stage = _STAGES.get(battle.stage, battle.stage).format(phase=battle.phase)
    actor = side_name(battle, battle.to_act)
    return "Game over" if view.result.finished else f"Waiting: {actor} to {stage}"


def draw_battle(view: PublicView, pool: CardPool) -> Drawing:
    """Draw the battle in progress of ``view``; see the module docstring.

    :raises ValueError: if no battle is in progress (``view.battle`` is None).
    """
    battle = view.battle
    if battle is None:
        raise ValueError("no battle is in progress")
    columns = _columns(battle)
    stacks = {col: [c for c in battle.creatures if (c.side, c.line) == col] for col in columns}
    walls = battle.walls != "none"
    rows = max(
        [3] + [len(v) + (1 if walls and col == (1, "melee") else 0) for col, v in stacks.items()]
    )
    field_h = 52 + rows * (TILE_H + GAP) + 12
    canvas = Canvas(WIDTH, HEADER_H + field_h + FOOTER_H, PAGE)
    _header(canvas, view, battle)
    xs = _column_x(walls)
    heroes = {inv.hero.id: inv for army in view.armies for inv in army.heroes}
    highlight = _highlights(battle.last_attack)
    top = HEADER_H
    for (side, line), x in zip(columns, xs, strict=True):
        colour = side_colour(battle, side)
        title = f"{short_side_name(battle, side)} · {'Melee' if line == 'melee' else 'Ranged'} Line"
        canvas.draw.rounded_rectangle(
            (x, top + 8, x + TILE_W, top + 44), radius=8, fill=darker(colour, 0.55)
        )
        canvas.text(
            (x + TILE_W / 2, top + 26),
            ellipsize(title, TILE_W - 16, 22, "bold"),
            22,
            WHITE,
            weight="bold",
            anchor="mm",
            kind="column",
            key=f"{side}:{line}",
        )
        y = top + 52
        if walls and (side, line) == (1, "melee"):
            _town_tile(canvas, x, y, battle, pool)
            y += TILE_H + GAP
        for creature in stacks[(side, line)]:
            _creature_tile(canvas, x, y, battle, creature, pool, heroes, highlight.get(creature.id))
            y += TILE_H + GAP
        if not stacks[(side, line)] and battle.stage == "deploy":
            canvas.text((x + TILE_W / 2, y + 40), "not deployed yet", 22, MUTED, anchor="mm")
    if walls:
        _wall_strip(
            canvas, xs[1] + TILE_W + (xs[2] - xs[1] - TILE_W - WALL_W) // 2, top + 52, rows, battle
        )
    _footer(canvas, battle, pool, HEADER_H + field_h)
    return canvas.finish()


def _column_x(walls: bool) -> list[int]:
    middle = WALL_W + 2 * GAP if walls else 40
    total = 4 * TILE_W + 2 * GAP + middle
    left = (WIDTH - total) // 2
    return [
        left,
        left + TILE_W + GAP,
        left + 2 * TILE_W + GAP + middle,
        left + 3 * TILE_W + 2 * GAP + middle,
    ]


def _highlights(attack: AttackView | None) -> dict[int, str]:
    if attack is None:
        return {}
    marks = {target: "target" for target in attack.targets}
    marks[attack.attacker] = "attacker"
    return marks


# -------------------------------------------------------------------------- header
def _header(canvas: Canvas, view: PublicView, battle: BattleView) -> None:
    canvas.draw.rectangle((0, 0, WIDTH, HEADER_H - 8), fill=PANEL)
    where = " a Town" if battle.defender_kind == "town" else ""
    title = f"Battle at {battle.label} · Round {battle.round} · Phase {battle.phase}"
    canvas.text((24, 18), title, 34, LIGHT, weight="bold", kind="title", key="battle")
    x = 24
    y = 80
    for side in (0, 1):
        sprite = badge(side_shape(battle, side), 26, side_colour(battle, side), WHITE)
        paste_centred(canvas.image, sprite, x + 13, y)
        role = "attacks" if side == 0 else f"defends{where}"
        text = f"{side_name(battle, side)} {role}"
        canvas.text(
            (x + 34, y), text, 26, LIGHT, weight="medium", anchor="lm", kind="side", key=str(side)
        )
        x += 34 + text_width(text, 26, "medium") + 30
    canvas.text(
        (24, 124),
        ellipsize(waiting_line(view), 640, 26),
        26,
        HIGHLIGHT,
        weight="medium",
        kind="stage",
        key=battle.stage,
    )
    _phase_track(canvas, battle.phase, WIDTH - 24 - 10 * 50, 112)


def _phase_track(canvas: Canvas, phase: int, x: int, y: int) -> None:
    """Ten Phase boxes, the current one lit (homm4:battles.phases-and-rounds)."""
    canvas.text((x, y - 30), "Phase", 20, MUTED, weight="medium")
    for n in range(1, 11):
        left = x + (n - 1) * 50
        current = n == phase
        canvas.draw.rounded_rectangle(
            (left, y, left + 44, y + 40),
            radius=6,
            fill=HIGHLIGHT if current else PANEL_LINE,
            outline=BLACK if current else None,
            width=2,
        )
        canvas.text(
            (left + 22, y + 20),
            str(n),
            24,
            INK if current else LIGHT,
            weight="bold",
            anchor="mm",
            kind="phase_box" if current else "text",
            key=str(n) if current else "",
        )


# --------------------------------------------------------------------------- tiles
def _printed(card_id: str, pool: CardPool) -> UnitCard | HeroCard | None:
    card = pool.cards.get(card_id)
    return card if isinstance(card, UnitCard | HeroCard) else None


def creature_name(creature: CreatureView, pool: CardPool) -> str:
    """The name of a Creature Stack's top card (``"Orc"``)."""
    if not creature.cards:
        return f"Creature {creature.id}"
    card = pool.cards.get(creature.cards[0].card)
    return card.name if card is not None else creature.cards[0].card


def _creature_tile(
    canvas: Canvas,
    x: int,
    y: int,
    battle: BattleView,
    creature: CreatureView,
    pool: CardPool,
    heroes: dict[int, InventoryView],
    highlight: str | None,
) -> None:
    colour = side_colour(battle, creature.side)
    base = darker(colour, 0.32) if not creature.acted else (52, 48, 44)
    box: Box = (x, y, x + TILE_W, y + TILE_H)
    draw = canvas.draw
    draw.rounded_rectangle(box, radius=10, fill=base, outline=darker(colour, 0.7), width=2)
    draw.rounded_rectangle((x, y, x + 8, y + TILE_H), radius=4, fill=colour)
    if highlight is not None:
        ring = HIGHLIGHT if highlight == "attacker" else WHITE
        draw.rounded_rectangle(
            (x - 4, y - 4, x + TILE_W + 4, y + TILE_H + 4), radius=12, outline=ring, width=4
        )
    text = MUTED if creature.acted else LIGHT
    sprite = token(side_shape(battle, creature.side), 40, colour, WHITE, BLACK)
    paste_centred(canvas.image, sprite, x + 34, y + 28)
    canvas.text(
        (x + 34, y + 28 + (4 if side_shape(battle, creature.side) == "triangle" else 0)),
        str(creature.id),
        20,
        WHITE,
        weight="bold",
        anchor="mm",
        stroke=2,
        stroke_fill=BLACK,
        kind="creature_number",
        key=str(creature.id),
    )
    name = creature_name(creature, pool)
    count = "" if creature.hero else f"×{len(creature.cards)}"
    count_w = text_width(count, 26, "bold") if count else 0
    top = creature.cards[0] if creature.cards else None
    canvas.text(
        (x + 60, y + 28),
        ellipsize(name, TILE_W - 76 - count_w, 25, "bold"),
        25,
        text,
        weight="bold",
        anchor="lm",
        kind="creature_name",
        key=str(creature.id),
        card=top.card if top else None,
        instance=top.id if top else None,
    )
    if count:
        canvas.text(
            (x + TILE_W - 12, y + 28),
            count,
            26,
            text,
            weight="bold",
            anchor="rm",
            kind="count",
            key=str(creature.id),
        )
    printed = _printed(top.card, pool) if top else None
    stats = (
        ("Melee", creature.melee, printed.melee if printed else None),
        ("Ranged", creature.ranged, printed.ranged if printed else None),
        ("Defense", creature.defense, printed.defense if printed else None),
    )
    cx = x + 16
    for label, value, card_value in stats:
        _stat_chip(canvas, cx, y + 52, label, value, card_value, creature)
        cx += 70
    _phase_chip(canvas, cx + 4, y + 52, creature.phase, battle.phase)
    markers = _markers(creature, heroes)
    mx = x + 16
    for label, fill in markers:
        w = text_width(label, 17, "bold") + 14
        if mx + w > x + TILE_W - 8:
            break
        draw.rounded_rectangle((mx, y + TILE_H - 34, mx + w, y + TILE_H - 10), radius=6, fill=fill)
        canvas.text(
            (mx + w / 2, y + TILE_H - 22),
            label,
            17,
            WHITE if fill != GOLD else INK,
            weight="bold",
            anchor="mm",
            kind="marker",
            key=f"{creature.id}:{label}",
        )
        mx += w + 6
    canvas.mark(
        "creature",
        str(creature.id),
        box,
        text=name,
        card=top.card if top else None,
        instance=top.id if top else None,
    )
    for ref in creature.cards[1:]:
        canvas.mark("stack_card", str(creature.id), box, card=ref.card, instance=ref.id)


def _stat_chip(
    canvas: Canvas,
    x: int,
    y: int,
    label: str,
    value: int,
    printed: int | None,
    creature: CreatureView,
) -> None:
    muted = MUTED if creature.acted else LIGHT
    canvas.text(
        (x, y),
        label,
        16,
        lighter(muted, 0.1) if not creature.acted else MUTED,
        weight="medium",
        kind="stat_label",
        key=f"{creature.id}:{label}",
    )
    canvas.text(
        (x, y + 18), str(value), 28, muted, weight="bold", kind="stat", key=f"{creature.id}:{label}"
    )
    if printed is not None and value != printed:
        delta = value - printed
        sign = f"+{delta}" if delta > 0 else f"−{-delta}"
        colour = (120, 220, 120) if delta > 0 else (255, 120, 110)
        canvas.text(
            (x + text_width(str(value), 28, "bold") + 3, y + 20),
            sign,
            17,
            colour,
            weight="bold",
            kind="stat_delta",
            key=f"{creature.id}:{label}",
        )


def _phase_chip(canvas: Canvas, x: int, y: int, phase: int, current: int) -> None:
    lit = phase == current
    canvas.draw.rounded_rectangle(
        (x, y + 2, x + 52, y + 50), radius=8, fill=HIGHLIGHT if lit else PANEL_LINE
    )
    ink = INK if lit else LIGHT
    canvas.text((x + 26, y + 13), "Phase", 13, ink, weight="medium", anchor="mm", kind="caption")
    canvas.text(
        (x + 26, y + 34),
        str(phase),
        24,
        ink,
        weight="bold",
        anchor="mm",
        kind="creature_phase",
        key=str(phase),
    )


def _markers(creature: CreatureView, heroes: dict[int, InventoryView]) -> list[tuple[str, RGB]]:
    """The marker chips of a tile: hero level/mana, Defending, Grouping, Countered, Support,
    Acted (homm4:battles.defense, .grouping, .counterattack, .making-support)."""
    chips: list[tuple[str, RGB]] = []
    if creature.hero:
        inventory = heroes.get(creature.cards[0].id) if creature.cards else None
        if inventory is not None:
            chips.append(
                (f"Hero L{inventory.level} · Mana {inventory.mana - inventory.mana_spent}", GOLD)
            )
        else:
            chips.append(("Hero", GOLD))
    if creature.defending:
        chips.append(("Defending", (44, 88, 168)))
    if creature.grouped:
        chips.append(("Grouping ×2", (176, 60, 150)))
    if creature.countered:
        chips.append(("Countered", (120, 110, 100)))
    if creature.support:
        chips.append((f"Support +{creature.support}", (46, 128, 62)))
    if creature.acted:
        chips.append(("Acted", (90, 84, 78)))
    return chips


def _town_tile(canvas: Canvas, x: int, y: int, battle: BattleView, pool: CardPool) -> None:
    """The Town card standing on the defender's Melee Line: walls state and defense 10."""
    state = battle.walls
    fill = WALL_RGB.get(state, WALL_RGB["intact"])
    box: Box = (x, y, x + TILE_W, y + TILE_H)
    canvas.draw.rounded_rectangle(box, radius=10, fill=darker(fill, 0.45), outline=fill, width=4)
    canvas.mark("town_tile", "walls", (x, y, x + TILE_W + 1, y + TILE_H + 1))
    name = "Town"
    if battle.town is not None:
        card = pool.cards.get(battle.town.card)
        name = card.name if card is not None else battle.town.card
    canvas.text(
        (x + 16, y + 26),
        ellipsize(f"{name} walls", TILE_W - 32, 25, "bold"),
        25,
        WHITE,
        weight="bold",
        anchor="lm",
        kind="town_card",
        key="walls",
        card=battle.town.card if battle.town else None,
        instance=battle.town.id if battle.town else None,
    )
    label = _WALL_STATES.get(state, state)
    canvas.draw.rounded_rectangle((x + 16, y + 50, x + 150, y + 92), radius=8, fill=fill)
    canvas.text(
        (x + 83, y + 71),
        label,
        26,
        INK if state == "intact" else WHITE,
        weight="bold",
        anchor="mm",
        kind="walls_state",
        key=state,
    )
    canvas.text(
        (x + 162, y + 71), f"Defense {WALL_DEFENSE}", 22, LIGHT, weight="medium", anchor="lm"
    )
    hint = {
        "intact": "ranged hits on back line: half",
        "breach": "ranged hits on back line: −1",
        "sack": "no wall penalty",
    }.get(state, "")
    canvas.text((x + 16, y + TILE_H - 22), hint, 17, MUTED, anchor="lm")


def _wall_strip(canvas: Canvas, x: int, y: int, rows: int, battle: BattleView) -> None:
    """A stone wall in front of the defender: whole (intact), a gap at the gate (Breach),
    broken in two places (Sack)."""
    state = battle.walls
    fill = WALL_RGB.get(state, WALL_RGB["intact"])
    height = rows * (TILE_H + GAP) - GAP
    draw = canvas.draw
    gaps: Sequence[tuple[float, float]] = {
        "intact": (),
        "breach": ((0.42, 0.56),),
        "sack": ((0.18, 0.36), (0.56, 0.8)),
    }.get(state, ())
    course = 26
    for i, top in enumerate(range(y, y + height, course)):
        bottom = min(top + course - 3, y + height)
        rel = (top - y) / height
        if any(a <= rel <= b for a, b in gaps):
            continue
        shift = (i % 2) * (WALL_W // 2)
        draw.rectangle((x, top, x + WALL_W, bottom), fill=fill)
        for bx in range(x - WALL_W // 2 + shift, x + WALL_W, WALL_W // 2):
            if x < bx < x + WALL_W:
                draw.line([(bx, top), (bx, bottom)], fill=darker(fill, 0.6), width=3)
    draw.rectangle((x, y, x + WALL_W, y + height), outline=darker(fill, 0.5), width=3)
    canvas.mark("walls", state, (x, y, x + WALL_W, y + height), text=_WALL_STATES.get(state, state))


# -------------------------------------------------------------------------- footer
def attack_text(battle: BattleView, attack: AttackView, pool: CardPool) -> tuple[str, str]:
    """Two lines about the last attack: who hit whom how, and value + die = total vs defense
    with the result (homm4:battles.making-a-melee-attack)."""
    by_id = {c.id: c for c in battle.creatures}

    def who(number: int) -> str:
        creature = by_id.get(number)
        if creature is None:
            return f"Creature {number} (now destroyed)"
        return (
            f"{creature_name(creature, pool)} [{number}] ({short_side_name(battle, creature.side)})"
        )

    target = (
        "the Town walls" if attack.walls else ", ".join(who(t) for t in attack.targets) or "nobody"
    )
    mode = {
        "melee": "Melee attack",
        "ranged": "Ranged attack",
        "spell": "Spell attack",
        "counter": "Counterattack",
    }.get(attack.mode, attack.mode.title())
    first = f"{mode}: {who(attack.attacker)} on {target}"
    hit = attack.total >= attack.defense
    if attack.walls:
        result = (
            f"walls now: {_WALL_STATES.get(battle.walls, battle.walls)}"
            if hit
            else "the walls hold"
        )
    else:
        result = f"{plural(attack.killed, 'card')} killed" if hit else "no damage"
    second = f"{attack.attack_value} + die {attack.roll} = {attack.total} vs Defense {attack.defense}: {result}"
    return first, second


def _footer(canvas: Canvas, battle: BattleView, pool: CardPool, top: int) -> None:
    canvas.draw.rectangle((0, top, WIDTH, top + FOOTER_H), fill=PANEL)
    canvas.draw.line([(0, top), (WIDTH, top)], fill=PANEL_LINE, width=2)
    attack = battle.last_attack
    if attack is None:
        canvas.text(
            (24, top + FOOTER_H // 2),
            "No attack yet this battle.",
            28,
            MUTED,
            anchor="lm",
            kind="last_attack",
            key="none",
        )
        return
    _die(canvas, 24 + 55, top + FOOTER_H // 2, attack.roll)
    first, second = attack_text(battle, attack, pool)
    canvas.text((160, top + 30), "Last attack", 22, MUTED, weight="medium")
    canvas.text(
        (160, top + 72),
        ellipsize(first, WIDTH - 184, 28, "bold"),
        28,
        LIGHT,
        weight="bold",
        anchor="lm",
        kind="last_attack",
        key="who",
    )
    hit = attack.total >= attack.defense
    canvas.text(
        (160, top + 122),
        ellipsize(second, WIDTH - 184, 30, "bold"),
        30,
        (120, 220, 120) if hit else (255, 140, 120),
        weight="bold",
        anchor="lm",
        kind="last_attack",
        key="roll",
    )


def _die(canvas: Canvas, cx: int, cy: int, roll: int) -> None:
    """A d10 (a kite shape) showing ``roll``."""
    r = 52
    kite = [(cx, cy - r), (cx + r * 0.9, cy - r * 0.1), (cx, cy + r), (cx - r * 0.9, cy - r * 0.1)]
    canvas.draw.polygon(kite, fill=WHITE, outline=BLACK, width=4)
    canvas.draw.line(
        [(cx - r * 0.9, cy - r * 0.1), (cx, cy + r * 0.25), (cx + r * 0.9, cy - r * 0.1)],
        fill=(170, 170, 170),
        width=3,
    )
    canvas.draw.line([(cx, cy + r * 0.25), (cx, cy + r)], fill=(170, 170, 170), width=3)
    canvas.text(
        (cx, cy - r * 0.08),
        str(roll),
        40 if roll < 10 else 32,
        INK,
        weight="bold",
        anchor="mm",
        kind="die",
        key=str(roll),
    )
