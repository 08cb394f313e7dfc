"""Focus pictures (issue 16, "Pictures a phone can read"): every public picture kind of the
four games has a focus picture, posted before the whole one, in which every label the
decision needs reads at least 9 px tall when Discord shows it 400 px wide. The positions
are real: seeded all-computer games (the `heroes-table render` snapshots)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from rendering import pictures
from rendering.canvas import Drawing
from rendering.encode import encode
from rendering.focus import (
    NEEDED_PX,
    PHONE_WIDTH,
    crosses,
    needed_marks,
    shown_height,
    smallest_shown,
)
from tests.rendering.helpers import decode, inside


@cache
def _homm4(seed: int, town: bool = False) -> Any:
    from rendering.cli import simulate

    return simulate(seed, 4, 3, town)


@cache
def _homm3(seed: int) -> Any:
    from rendering.homm3.cli import snapshots

    return snapshots(seed, 3, False)


@cache
def _mmh(seed: int) -> Any:
    from rendering.mmh.cli import snapshots

    return snapshots(seed, 3, 4)


@cache
def _heroforge(seed: int, players: int = 4) -> Any:
    from rendering.heroforge.cli import snapshot

    return snapshot(seed, players, 4)


POSITIONS: dict[str, tuple[str, str, Callable[[], BaseModel]]] = {
    "homm4-board": ("homm4", "board", lambda: _homm4(9).board),
    "homm4-board-wide": ("homm4", "board", lambda: _homm4(3).board),
    "homm4-battle": ("homm4", "battle", lambda: _homm4(12, True).battle),
    "homm4-battle-field": ("homm4", "battle", lambda: _homm4(9).battle),
    "homm3-battle": ("homm3", "battle", lambda: _homm3(11)[1]),
    "homm3-adventure": ("homm3", "adventure", lambda: _homm3(11)[0]),
    "homm3-battle-1": ("homm3", "battle", lambda: _homm3(1)[1]),
    "mmh-board": ("mmh", "board", lambda: _mmh(4)[0]),
    "mmh-battle": ("mmh", "battle", lambda: _mmh(4)[1]),
    "heroforge-board": ("heroforge", "board", lambda: _heroforge(7)),
    "heroforge-board-2": ("heroforge", "board", lambda: _heroforge(3, 2)),
}


def _drawn(name: str) -> tuple[pictures.PictureKind, Drawing, Drawing, BaseModel]:
    ruleset, kind, position = POSITIONS[name]
    view = position()
    focus_kind = pictures.focus_of(ruleset, kind)
    assert focus_kind == f"{kind}-focus"
    spec = pictures.picture_kind(ruleset, focus_kind)
    whole = pictures.picture_kind(ruleset, kind)
    return spec, whole.draw(whole.prepare(view)), spec.draw(spec.prepare(view)), view


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_needed_label_of_a_focus_reads_9_px_at_400_px(name: str) -> None:
    spec, whole, focus, _ = _drawn(name)
    labels = needed_marks(focus, spec.exempt)
    assert labels, "a focus picture shows labels"
    small = [
        (m.kind, m.text, round(shown_height(m, focus.image.width), 1))
        for m in labels
        if shown_height(m, focus.image.width) < NEEDED_PX
    ]
    assert small == []
    assert smallest_shown(focus, spec.exempt) >= NEEDED_PX
    # the whole picture does not (that is why the focus is posted first), bar the homm3
    # Adventure, whose text is drawn large enough (its focus leaves out the other panels)
    if name != "homm3-adventure":
        assert smallest_shown(whole, spec.exempt) < NEEDED_PX
    assert PHONE_WIDTH <= focus.image.width <= whole.image.width
    # every label inside the picture's bounds
    width, height = focus.image.size
    assert all(inside(m.box, (0, 0, width, height)) for m in focus.marks if m.text)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_focus_cut_shows_no_part_of_a_label_unit_or_card(name: str) -> None:
    """No mark of the whole picture (a label, a unit token, a card, a player's panel) is cut
    by the focus's edge: each lies wholly inside the cut or wholly outside it, bar the
    kinds a map's edge passes through (hexes, Fields, paths) and marks holding what the
    decision is about."""
    import importlib

    ruleset, kind, _ = POSITIONS[name]
    names = {("mmh", "battle"): "TRACK"}
    module = importlib.import_module(f"rendering.{ruleset}.focus")
    spec = getattr(module, names.get((ruleset, kind), kind.upper()))
    _, whole, focus, _ = _drawn(name)
    box = tuple(int(v) for v in focus.of_kind("focus_cut")[0].key.split(","))
    cut = [
        (m.kind, m.key, m.text)
        for m in whole.marks
        if m.kind not in spec.clipped and crosses(m.box, box) and not inside(box, m.box)
    ]
    assert cut == []
    # and every mark inside the cut is drawn in the focus, moved with it
    kept = [m for m in whole.marks if inside(m.box, box)]
    assert len(focus.marks) >= len(kept) + 1


def test_the_battlefield_and_track_focus_show_every_column_and_card() -> None:
    """homm3: all 13 columns of the Battlefield, with the lists under it left out (the
    band names each unit with its hex); mmh: every card of the initiative track."""
    for name in ("homm3-battle", "homm3-battle-1"):
        _, whole, focus, view = _drawn(name)
        assert {m.key for m in focus.of_kind("edge")} >= set("ABCDEFGHIJKLM")
        assert not focus.of_kind("roster") and not focus.of_kind("order_title")
        combat = view.combat  # type: ignore[attr-defined]
        band = " ".join(m.text for m in focus.of_kind("focus_line"))
        for unit in combat.units:
            if unit.alive and unit.hex is not None:
                assert f"[{unit.number}] " in band and f" {unit.hex}" in band
    _, whole, track, _ = _drawn("mmh-battle")
    assert {m.key for m in track.of_kind("unit_card")} == {
        m.key for m in whole.of_kind("unit_card")
    }
    # what the decision is: in the band, or (the short mmh track) inside the cut
    assert focus.of_kind("focus_line") or focus.find("status", "pending")


def test_the_homm4_board_focus_is_around_the_acting_army() -> None:
    from rendering.homm4.focus import acting_army

    _, whole, focus, view = _drawn("homm4-board")
    army = acting_army(view)  # type: ignore[arg-type]
    assert army is not None and army.owner == view.active  # type: ignore[attr-defined]
    key = f"army:{army.id}"
    token = focus.find("army_number", key)
    assert inside(token.box, focus.find("focus_cut", focus.of_kind("focus_cut")[0].key).box)
    # the hexes next to it are named in the cut (where it can move)
    labels = {m.key for m in focus.of_kind("hex_label")}
    assert army.label in labels and len(labels) >= 20
    band = [m.text for m in focus.of_kind("focus_line")]
    assert band[0] == whole.of_kind("title")[0].text  # Round, whose turn, Phase
    assert any(t.startswith(f"Army {army.id}: {army.label} · ") for t in band)


@pytest.mark.parametrize("name", ["homm4-battle", "homm4-battle-field"])
def test_the_homm4_battle_focus_holds_both_melee_lines(name: str) -> None:
    _, whole, focus, view = _drawn(name)
    battle = view.battle  # type: ignore[attr-defined]
    melee = {str(c.id) for c in battle.creatures if c.line == "melee"}
    assert melee <= {m.key for m in focus.of_kind("creature_number")}
    band = [m.text for m in focus.of_kind("focus_line")]
    assert band[0] == f"Battle at {battle.label} · Round {battle.round} · Phase {battle.phase}"
    assert any(t.startswith("Waiting: ") and not t.endswith("…") for t in band) or (
        view.result.finished  # type: ignore[attr-defined]
    )
    if battle.last_attack is not None:
        rolls = [m.text for m in whole.of_kind("last_attack")]
        assert set(rolls) <= set(band)


@pytest.mark.parametrize("name", ["homm3-battle", "homm3-battle-1"])
def test_the_homm3_battlefield_focus_is_around_the_active_unit(name: str) -> None:
    _, _, focus, view = _drawn(name)
    combat = view.combat  # type: ignore[attr-defined]
    if combat.active is not None:
        assert focus.find("unit_number", f"unit:{combat.active}")
    band = [m.text for m in focus.of_kind("focus_line")]
    assert band[0].startswith("Battlefield — Combat round")
    assert len(focus.of_kind("hex_label")) >= 60  # most of the 13 x 9 hexes, named


def test_the_homm3_adventure_focus_is_the_panel_of_the_player_to_act() -> None:
    _, _, focus, view = _drawn("homm3-adventure")
    seat = view.adventure.active  # type: ignore[attr-defined]
    colour = view.players[seat].colour  # type: ignore[attr-defined]
    assert focus.find("player", colour)
    assert focus.find("resources", colour)
    band = [m.text for m in focus.of_kind("focus_line")]
    assert view.prompts[0] in " ".join(band).replace("\n", " ") or view.prompts[0][:30] in band[1]  # type: ignore[attr-defined]


def test_the_mmh_focus_is_around_the_active_hero_and_the_marker_due() -> None:
    from rendering.mmh.focus import active_hero

    _, _, focus, view = _drawn("mmh-board")
    hero = active_hero(view)  # type: ignore[arg-type]
    assert hero is not None and hero.owner == view.active  # type: ignore[attr-defined]
    assert focus.find("hero", hero.id)
    assert any(m.key == f"hero:{hero.id}" for m in focus.of_kind("focus_line"))
    _, _, track, battle_view = _drawn("mmh-battle")
    current = battle_view.battle.current  # type: ignore[attr-defined]
    assert current is not None and track.find("unit", str(current))
    assert track.find("status", "pending")  # what is owed, inside the cut


def test_the_heroforge_focus_is_around_the_active_hero() -> None:
    for name in ("heroforge-board", "heroforge-board-2"):
        _, _, focus, view = _drawn(name)
        player = next(p for p in view.players if p.seat == view.active)  # type: ignore[attr-defined]
        if player.plate is not None:
            assert focus.find("hero", player.colour)
        band = [m.text for m in focus.of_kind("focus_line")]
        assert band[0].startswith(f"Hero Forge — Round {view.round}")  # type: ignore[attr-defined]
        assert not band[0].endswith("…")  # the band's title is whole


@pytest.mark.parametrize("name", ["homm4-board", "homm3-battle", "mmh-board", "heroforge-board"])
def test_a_focus_is_pure(name: str) -> None:
    """The same view gives the same bytes (the picture cache keys on the view)."""
    spec, _, focus, view = _drawn(name)
    assert encode(spec.draw(spec.prepare(view)).image) == encode(focus.image)


def test_a_focus_is_a_channel_picture_drawn_from_the_public_part_only() -> None:
    """A seat's own view (its Hand and Risk Stack, its hidden cards) is reduced to its
    public part before a focus is drawn: the same bytes as from the public view, and no
    card of the seat's Hand or Risk Stack is named on it (homm4, homm3)."""
    shots = _homm4(9)
    hidden = {c.id for c in (*shots.hand.hand, *shots.hand.risk)}
    assert hidden
    for kind in ("board-focus",):
        spec = pictures.picture_kind("homm4", kind)
        assert not spec.private and spec.public_part is not None
        from_seat = spec.draw(spec.prepare(shots.hand))
        from_public = spec.draw(spec.prepare(shots.board))
        assert encode(from_seat.image) == encode(from_public.image)
        assert from_seat.instances().isdisjoint(hidden)
    _, battle, hands = _homm3(11)
    spec = pictures.picture_kind("homm3", "battle-focus")
    public = encode(spec.draw(spec.prepare(battle)).image)
    for seat_view in hands:
        assert encode(spec.draw(spec.prepare(seat_view)).image) == public
        drawn = spec.draw(spec.prepare(seat_view))
        assert not any(m.key.startswith("#") for m in drawn.of_kind("card"))


def test_only_public_kinds_have_a_focus_and_the_focus_is_posted_under_its_own_name() -> None:
    for ruleset in ("homm4", "homm3", "mmh", "heroforge"):
        for kind in pictures.kinds(ruleset):
            spec = pictures.picture_kind(ruleset, kind)
            focus = pictures.focus_of(ruleset, kind)
            if spec.private or kind == "card" or spec.focus_of is not None:
                assert focus is None, (ruleset, kind)
                continue
            assert focus == f"{kind}-focus", (ruleset, kind)
            made = pictures.picture_kind(ruleset, focus)
            assert made.filename == spec.filename.replace(".png", "-focus.png")
            assert made.view is spec.view and made.public_part is spec.public_part


@pytest.mark.parametrize(
    ("ruleset", "extra", "names"),
    [
        ("homm4", ["--seed", "9"], {"board-focus.png", "battle-focus.png"}),
        ("homm3", ["--seed", "11"], {"adventure-focus.png", "battle-focus.png"}),
        ("mmh", ["--seed", "4", "--players", "3", "--round", "4"], {"board-focus.png"}),
        ("heroforge", ["--seed", "7", "--players", "4", "--round", "4"], {"board-focus.png"}),
    ],
)
def test_render_focus_writes_the_focus_pictures(
    tmp_path: Path, ruleset: str, extra: list[str], names: set[str]
) -> None:
    import argparse

    from rendering import cli

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    plain = parser.parse_args(["--ruleset", ruleset, "--out", str(tmp_path / "a"), *extra])
    cli.main(plain)
    assert not any("focus" in p.name for p in (tmp_path / "a").iterdir())
    args = parser.parse_args(
        ["--ruleset", ruleset, "--out", str(tmp_path / "b"), "--focus", *extra]
    )
    cli.main(args)
    written = {p.name for p in (tmp_path / "b").iterdir() if "focus" in p.name}
    assert names <= written
    for name in written:
        assert decode((tmp_path / "b" / name).read_bytes()).width >= PHONE_WIDTH


def test_render_json_cuts_the_focus_from_the_whole_drawing_of_the_same_view() -> None:
    """The bot asks for the focus and then the whole picture of one view: the second is
    encoded from the drawing the first made (one drawing for the pair), and the bytes
    are those of drawing each on its own."""
    view = POSITIONS["homm4-board"][2]()
    spec = pictures.picture_kind("homm4", "board-focus")
    payload = spec.prepare(view).model_dump_json()
    pictures._whole.cache_clear()
    focus = pictures.render_json("homm4", "board-focus", payload)
    whole = pictures.render_json("homm4", "board", payload)
    info = pictures._whole.cache_info()
    assert (info.hits, info.misses) == (1, 1)
    assert focus == encode(spec.draw(spec.prepare(view)).image)
    board = pictures.picture_kind("homm4", "board")
    assert whole == encode(board.draw(board.prepare(view)).image)


@pytest.mark.parametrize(
    ("ruleset", "options", "players"),
    [
        ("homm4", {}, 3),
        ("homm3", {"mode": "adventure"}, 2),
        ("mmh", {"length": "quick"}, 2),
        ("heroforge", {}, 3),
    ],
)
def test_a_focus_draws_and_reads_at_every_stage_of_a_real_game(
    ruleset: str, options: dict[str, Any], players: int
) -> None:
    """A seeded all-computer game to its end (every 9th position): wherever the whole
    picture draws, its focus draws too, with every needed label at 9 px at 400 px (set-up,
    deployment, battles, the last position), and drawn on its own it has the pixels and
    marks of the focus cut from the whole picture painted at once."""
    import random

    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset

    rules: Any = get_ruleset(ruleset)
    rng = random.Random(1)
    state, _ = rules.new_game(rules.parse_options(options), players, 1)
    focus_kinds = [
        pictures.picture_kind(ruleset, k)
        for k in pictures.kinds(ruleset)
        if pictures.picture_kind(ruleset, k).focus_of is not None
    ]
    drawn: dict[str, int] = {}
    steps = 0
    while steps < 3000:
        finished = rules.result(state).finished
        if steps % 9 == 0 or finished:
            view = rules.public_view(state)
            for spec in focus_kinds:
                whole = pictures.picture_kind(ruleset, spec.focus_of or "")
                prepared = spec.prepare(view)
                try:
                    painted = whole.draw(prepared)
                except ValueError:
                    continue  # nothing to draw (no battle, no tile laid yet)
                focus = spec.draw(prepared)
                assert smallest_shown(focus, spec.exempt) >= NEEDED_PX, (spec.kind, steps)
                # drawn alone (the whole recorded, only the cut painted: rendering.scene)
                # it is the focus cut from the whole picture painted at once (the bot's)
                assert spec.cut is not None
                cut = spec.cut(prepared, painted)
                assert focus.image.tobytes() == cut.image.tobytes(), (spec.kind, steps)
                assert focus.marks == cut.marks, (spec.kind, steps)
                drawn[spec.kind] = drawn.get(spec.kind, 0) + 1
        if finished:
            break
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
        steps += 1
    assert rules.result(state).finished
    assert drawn and min(drawn.values()) >= 1
