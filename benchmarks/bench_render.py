"""Rendering figures: board, battlefield and hand — drawing and encoding — against a blank image.

Workload: the pictures shown in docs/RENDERING.md — the board and the active seat's Hand of
`heroes-table render --seed 9` (a 3-player game played by the computer, in Round 3 after a
move) and the battlefield of `heroes-table render --seed 12 --town-battle` (a battle at a
Town after an attack, with a Breach).

Floor: encoding a blank image of the same size in the same format. Any picture must at
least be encoded; a blank one is the cheapest picture of that size there is. Drawing is
measured with warm caches (the bot draws many pictures per process), encoding on the
drawn image, each repeated and interleaved with its floor.

The encodings compared all keep text sharp (lossless, or a 256-colour palette without
dithering). The "delivery cost" ranks them: encoding time plus the time to move the bytes
at `LINK_MBIT` Mbit/s (a phone on mobile data downloading the picture, or a small host
uploading it), for the board, the picture the bot posts most.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from PIL import Image

from benchmarks.report import AreaResult, Figure, ratio_at_most
from benchmarks.stats import Stat, interleaved

LINK_MBIT = 20.0
"""The link speed (Mbit/s) at which the delivery cost counts the bytes."""


@dataclass(frozen=True)
class Encoding:
    """One candidate encoding of an RGB image.

    Attributes:
        name: how the tables name it.
        encode: RGB image -> file bytes.
        slow: skipped in a quick run.
    """

    name: str
    encode: Callable[[Image.Image], bytes]
    slow: bool = False


def _save(image: Image.Image, kind: str, **params: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **params)
    return out.getvalue()


def _palette(level: int) -> Callable[[Image.Image], bytes]:
    """Palette PNG with the bot's palette (from a pixel sample), compressed by Pillow's
    zlib at ``level`` (the bot's encoding until ISA-L took over the compression)."""
    from rendering.encode import PALETTE_SAMPLE

    def encode(image: Image.Image) -> bytes:
        sample = image.resize(
            (max(1, image.width // PALETTE_SAMPLE), max(1, image.height // PALETTE_SAMPLE)),
            Image.Resampling.NEAREST,
        )
        palette = sample.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        quantised = image.quantize(palette=palette, dither=Image.Dither.NONE)
        return _save(quantised, "PNG", compress_level=level)

    return encode


def _palette_isal(level: int) -> Callable[[Image.Image], bytes]:
    """Palette PNG as the bot makes it, its pixels compressed by ISA-L at ``level``."""
    from rendering import encode as encoding

    def encode(image: Image.Image) -> bytes:
        sample = image.resize(
            (
                max(1, image.width // encoding.PALETTE_SAMPLE),
                max(1, image.height // encoding.PALETTE_SAMPLE),
            ),
            Image.Resampling.NEAREST,
        )
        palette = sample.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        quantised = image.quantize(palette=palette, dither=Image.Dither.NONE)
        return encoding.palette_png(quantised, level)

    return encode


def _palette_whole(level: int) -> Callable[[Image.Image], bytes]:
    """Palette PNG with the palette chosen from every pixel (the default until the
    benchmarks showed the quantiser was the largest cost of a picture)."""

    def encode(image: Image.Image) -> bytes:
        quantised = image.quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        return _save(quantised, "PNG", compress_level=level)

    return encode


def _rgb_png(level: int) -> Callable[[Image.Image], bytes]:
    return lambda image: _save(image, "PNG", compress_level=level)


def _webp(method: int) -> Callable[[Image.Image], bytes]:
    return lambda image: _save(image, "WEBP", lossless=True, method=method, quality=50, exact=True)


def encodings() -> list[Encoding]:
    """The candidates: the bot's default first, then the other sharp encodings."""
    from rendering.encode import DEFAULT_FORMAT, encode

    return [
        Encoding(f"default ({DEFAULT_FORMAT.value})", lambda image: encode(image, DEFAULT_FORMAT)),
        Encoding("palette PNG, palette from every pixel, zlib 3", _palette_whole(3), slow=True),
        Encoding("palette PNG, Pillow's zlib 3 (before)", _palette(3)),
        Encoding("palette PNG, Pillow's zlib 1", _palette(1)),
        Encoding("palette PNG, Pillow's zlib 6", _palette(6)),
        Encoding("palette PNG, Pillow's zlib 9", _palette(9), slow=True),
        Encoding("palette PNG, ISA-L 2", _palette_isal(2)),
        Encoding("palette PNG, ISA-L 3", _palette_isal(3)),
        Encoding("RGB PNG, zlib 1", _rgb_png(1)),
        Encoding("RGB PNG, zlib 6", _rgb_png(6), slow=True),
        Encoding("lossless WebP, method 0", _webp(0)),
        Encoding("lossless WebP, method 1", _webp(1), slow=True),
    ]


@dataclass
class Picture:
    """One picture to measure: how to draw it, and the drawn image."""

    name: str
    draw: Callable[[], Image.Image]
    image: Image.Image

    @property
    def size(self) -> str:
        """``W×H`` in pixels."""
        return f"{self.image.width}×{self.image.height}"

    def blank(self) -> Image.Image:
        """A blank image of the same size, in the pictures' background colour."""
        from rendering.homm4.palette import PAGE

        return Image.new("RGB", self.image.size, PAGE)


def pictures() -> list[Picture]:
    """Draw the three pictures once (which also warms the sprite caches)."""
    from rendering.cli import simulate
    from rendering.homm4 import draw_battle, draw_board, draw_hand

    shots = simulate(9, 3, 3)
    battle = simulate(12, 3, 3, town_battle=True).battle
    if battle is None:  # pragma: no cover - seed 12 has a Town battle
        raise RuntimeError("seed 12 has no battle")
    drawers: list[tuple[str, Callable[[], Image.Image]]] = [
        ("board", lambda: draw_board(shots.board).image),
        ("battlefield", lambda: draw_battle(battle).image),
        ("hand", lambda: draw_hand(shots.hand).image),
    ]
    return [Picture(name, draw, draw()) for name, draw in drawers]


@dataclass
class EncodingRow:
    """One encoding measured on one picture."""

    encoding: str
    picture: str
    ms: Stat
    blank_ms: Stat
    bytes: int

    @property
    def delivery_ms(self) -> float:
        """Encoding median plus the bytes' time on a `LINK_MBIT` link."""
        return self.ms.median + self.bytes * 8 / (LINK_MBIT * 1000)


def measure_encodings(
    shots: list[Picture], candidates: list[Encoding], repeats: int
) -> list[EncodingRow]:
    """Each candidate on each picture and on a blank of its size; per picture all the
    candidates are interleaved (A B C ... A B C ...), so noise falls on all alike."""
    rows = []
    for picture in shots:
        blank = picture.blank()
        calls: list[Callable[[], object]] = [
            partial(candidate.encode, picture.image) for candidate in candidates
        ]
        calls += [partial(candidate.encode, blank) for candidate in candidates]
        samples = interleaved(calls, repeats)
        for index, candidate in enumerate(candidates):
            rows.append(
                EncodingRow(
                    candidate.name,
                    picture.name,
                    Stat.of(samples[index]),
                    Stat.of(samples[len(candidates) + index]),
                    len(candidate.encode(picture.image)),
                )
            )
    return rows


def comparison_table(rows: list[EncodingRow], shots: list[Picture]) -> str:
    """Markdown: per encoding, ms and kB on each picture, and the board's delivery cost."""
    header = " | ".join(f"{p.name} {p.size}" for p in shots)
    lines = [
        f"| encoding | {header} | board delivery cost |",
        "|---|" + "---|" * len(shots) + "---|",
    ]
    names = list(dict.fromkeys(r.encoding for r in rows))
    for name in names:
        cells = []
        board_cost = 0.0
        for picture in shots:
            row = next(r for r in rows if r.encoding == name and r.picture == picture.name)
            cells.append(f"{row.ms.median:.1f} ms, {row.bytes / 1000:.0f} kB")
            if picture.name == "board":
                board_cost = row.delivery_ms
        lines.append(f"| {name} | {' | '.join(cells)} | {board_cost:.0f} ms |")
    return "\n".join(lines)


def best_encoding(rows: list[EncodingRow]) -> str:
    """The encoding with the lowest summed delivery cost over the pictures."""
    costs: dict[str, float] = {}
    for row in rows:
        costs[row.encoding] = costs.get(row.encoding, 0.0) + row.delivery_ms
    return min(costs, key=lambda name: costs[name])


def draw_figures(shots: list[Picture], default: Encoding, repeats: int) -> list[Figure]:
    """Drawing and encoding (default format) each picture, beside the blank encoding."""
    figures = []
    for picture in shots:
        blank = picture.blank()
        drawn, encoded, empty = interleaved(
            [picture.draw, partial(default.encode, picture.image), partial(default.encode, blank)],
            repeats,
        )
        floor = Stat.of(empty)
        figures.append(
            Figure(
                f"draw {picture.name} ({picture.size})",
                "ms",
                Stat.of(drawn),
                "encode a blank image, same size and format",
                floor,
                target=ratio_at_most(2.0) if picture.name == "board" else None,
            )
        )
        figures.append(
            Figure(
                f"encode {picture.name}, default format",
                "ms",
                Stat.of(encoded),
                "encode a blank image, same size and format",
                floor,
            )
        )
    return figures


RULESET_SEED = 5
"""The seed of the computer game each ruleset's pictures are taken from."""

FIRST_STEP = 60
"""Pictures are taken from this command of that game on (the middle of a game)."""

MAX_STEPS = 4_000
"""Commands played at most while looking for a view of every picture kind."""

MORE_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {"homm3": ({"mode": "map"},)}
"""Games played with other options, for the kinds a game with the default options never
draws (homm3's map is drawn in ``mode: map`` only)."""

CARD_FACES = 12
"""Card faces drawn per sample (the first of the pool), so one sample is not one card."""


@dataclass(frozen=True)
class KindShot:
    """One registered picture kind of one ruleset and a view it draws (`rendering.pictures`)."""

    ruleset: str
    kind: str
    views: tuple[Any, ...]


def ruleset_pictures() -> list[KindShot]:
    """A view of every picture kind of every registered ruleset: the first position from
    command `FIRST_STEP` of a seeded computer game (3 seats, or 2 where 3 is refused)
    that the kind draws (a battle picture waits for a battle; a kind the default options
    never draw comes from a game with the ruleset's `MORE_OPTIONS`); a card face: the first
    `CARD_FACES` cards of the pool (one face each, drawn in turn).

    :raises RuntimeError: naming a kind no position of the game could draw.
    """

    import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
    from engine.core.ruleset import get_ruleset, registered
    from rendering import pictures as registry

    shots: list[KindShot] = []
    for ruleset_id in registered():
        if not registry.load(ruleset_id):
            continue
        rules: Any = get_ruleset(ruleset_id)
        kinds = registry.kinds(ruleset_id)
        found: dict[str, tuple[Any, ...]] = {}
        if "card" in kinds:
            found["card"] = tuple(_card_faces(ruleset_id))
        for options in ({}, *MORE_OPTIONS.get(ruleset_id, ())):
            if len(found) == len(kinds):
                break
            _play_for_kinds(rules, ruleset_id, options, kinds, found)
        missing = sorted(set(kinds) - set(found))
        if missing:
            raise RuntimeError(f"{ruleset_id}: no position drew {', '.join(missing)}")
        shots += [KindShot(ruleset_id, kind, found[kind]) for kind in kinds]
    return shots


def _play_for_kinds(
    rules: Any, ruleset_id: str, options: dict[str, Any], kinds: list[str], found: dict[str, Any]
) -> None:
    """Play a seeded computer game with ``options`` (3 seats, or 2 where 3 is refused) and
    add to ``found`` (kind -> views) the first view from command `FIRST_STEP` on of each
    kind not found yet that draws."""
    import random

    from rendering import pictures as registry

    try:
        state, _ = rules.new_game(rules.parse_options(options), 3, RULESET_SEED)
    except ValueError:
        state, _ = rules.new_game(rules.parse_options(options), 2, RULESET_SEED)
    rng = random.Random(RULESET_SEED)
    step = 0
    while step < MAX_STEPS and len(found) < len(kinds) and not rules.result(state).finished:
        seat = rules.pending(state)[0].seat
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
        step += 1
        if step < FIRST_STEP:
            continue
        for kind in kinds:
            spec = registry.picture_kind(ruleset_id, kind)
            if kind in found or spec.view is registry.CardFace:
                continue
            view = spec.prepare(
                rules.view(state, seat) if spec.private else rules.public_view(state)
            )
            try:
                spec.draw(view)
            except ValueError:  # nothing to draw yet (no battle, not this mode)
                continue
            found[kind] = (view,)


def _card_faces(ruleset_id: str) -> list[Any]:
    """The first `CARD_FACES` card faces of the ruleset's pool (homm4's is the one with faces)."""
    from engine.homm4.cards import load_card_pool
    from rendering.pictures import CardFace

    if ruleset_id != "homm4":  # pragma: no cover - only homm4 registers card faces
        raise RuntimeError(f"{ruleset_id} registers card faces; add its pool here")
    cards = list(load_card_pool().cards)[:CARD_FACES]
    return [CardFace(card=card, instance=index + 1) for index, card in enumerate(cards)]


def ruleset_figures(shots: list[KindShot], repeats: int) -> tuple[list[Figure], str]:
    """Per ruleset and picture kind: drawing (warm caches) and encoding in the default
    format, each beside encoding a blank image of the same size, in CPU time of this
    process (`time.process_time`), interleaved. Returns the figures (the drawing's, with
    the ≤ 2× target) and a Markdown table of all three and the bytes."""
    from rendering import pictures as registry
    from rendering.encode import encode

    figures: list[Figure] = []
    lines = [
        "| ruleset | picture | size | draw | encode | blank encode | draw ÷ blank "
        "| (draw + encode) ÷ blank | bytes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for shot in shots:
        spec = registry.picture_kind(shot.ruleset, shot.kind)
        images = [spec.draw(view).image for view in shot.views]
        blanks = [Image.new("RGB", image.size, image.getpixel((0, 0))) for image in images]
        drawn, encoded, empty = interleaved(
            [
                partial(_each, spec.draw, shot.views),
                partial(_each, encode, images),
                partial(_each, encode, blanks),
            ],
            repeats,
            clock=time.process_time,
        )
        each = len(shot.views)
        draw, enc, floor = (Stat.of([x / each for x in xs]) for xs in (drawn, encoded, empty))
        size = f"{images[0].width}×{images[0].height}"
        figures.append(
            Figure(
                f"draw {shot.ruleset} {shot.kind} ({size}), CPU",
                "ms",
                draw,
                "encode a blank image, same size and format (CPU)",
                floor,
                target=ratio_at_most(2.0),
            )
        )
        data = sum(len(encode(image)) for image in images) // each
        lines.append(
            f"| {shot.ruleset} | {shot.kind} | {size} | {draw.median:.2f} ms | "
            f"{enc.median:.2f} ms | {floor.median:.2f} ms | {draw.median / floor.median:.2f}× | "
            f"{(draw.median + enc.median) / floor.median:.2f}× | {data / 1000:.0f} kB |"
        )
    pairs = [shot for shot in shots if registry.picture_kind(shot.ruleset, shot.kind).cut]
    if pairs:
        lines += [
            "",
            "The pairs the bot posts together (`bot.adapters.focus_first`): the whole picture "
            "drawn, then its focus cut from that one drawing (`rendering.pictures.render_json`), "
            "beside encoding a blank image of each size; shown beside the focus kinds' own rows "
            "above, which draw the focus alone (the whole picture laid out and only the cut "
            "painted, `rendering.scene`):",
            "",
            "| ruleset | pair | sizes | draw both | blank encodes | draw ÷ blank |",
            "|---|---|---|---|---|---|",
        ]
    for shot in pairs:
        figure, row = _pair_figure(shot, repeats)
        figures.append(figure)
        lines.append(row)
    return figures, "\n".join(lines)


def _pair_figure(shot: KindShot, repeats: int) -> tuple[Figure, str]:
    """The whole picture and its focus as the bot draws them (one drawing, the focus cut
    from it), beside encoding a blank image of each size, in CPU time, interleaved."""
    from rendering import pictures as registry
    from rendering.encode import encode

    focus = registry.picture_kind(shot.ruleset, shot.kind)
    assert focus.focus_of is not None and focus.cut is not None
    whole = registry.picture_kind(shot.ruleset, focus.focus_of)
    view = shot.views[0]
    cut = focus.cut

    def both() -> None:
        drawing = whole.draw(view)
        drawing.image.load()
        cut(view, drawing).image.load()

    images = [whole.draw(view).image, focus.draw(view).image]
    sizes = [image.size for image in images]
    blanks = [Image.new("RGB", image.size, image.getpixel((0, 0))) for image in images]
    drawn, empty = interleaved(
        [both, partial(_each, encode, blanks)], repeats, clock=time.process_time
    )
    draw, floor = Stat.of(drawn), Stat.of(empty)
    shown = " + ".join(f"{w}×{h}" for w, h in sizes)
    figure = Figure(
        f"draw {shot.ruleset} {focus.focus_of} + {shot.kind} pair, one drawing ({shown}), CPU",
        "ms",
        draw,
        "encode a blank image of each size (CPU)",
        floor,
        target=ratio_at_most(2.0),
    )
    row = (
        f"| {shot.ruleset} | {focus.focus_of} + {shot.kind} | {shown} | {draw.median:.2f} ms | "
        f"{floor.median:.2f} ms | {draw.median / floor.median:.2f}× |"
    )
    return figure, row


def _each(fn: Callable[[Any], object], items: Sequence[Any]) -> None:
    for item in items:
        fn(item)


def run(quick: bool = False) -> AreaResult:
    """Measure every rendering figure (``quick``: fewer repeats, fast encodings only)."""
    started = time.perf_counter()
    shots = pictures()
    candidates = [c for c in encodings() if not (quick and c.slow)]
    figures = draw_figures(shots, candidates[0], repeats=5 if quick else 30)
    rows = measure_encodings(shots, candidates, repeats=3 if quick else 10)
    for row in (r for r in rows if r.encoding == candidates[0].name):
        figures.append(
            Figure(f"bytes per {row.picture} image, default format", "kB", row.bytes / 1000)
        )
    kind_figures, kind_table = ruleset_figures(ruleset_pictures(), repeats=3 if quick else 15)
    figures += kind_figures
    best = best_encoding(rows)
    result = AreaResult(
        "render",
        "Rendering",
        figures,
        notes=[
            "Pictures of `heroes-table render --seed 9` (board, hand) and `--seed 12 "
            "--town-battle` (battlefield); drawing with warm caches (fonts, terrain tiles, "
            "text sprites), as in a running bot.",
            f"Lowest delivery cost (encoding + bytes at {LINK_MBIT:g} Mbit/s, summed over "
            f"the three pictures) in this run: **{best}**.",
        ],
        extra_markdown=(
            "Every picture kind of every ruleset, in CPU time of the benchmark's process "
            f"(median of the interleaved samples; a card face: the mean over {CARD_FACES} "
            f"cards), from a computer game of seed {RULESET_SEED} at command {FIRST_STEP} or "
            "later, with warm caches (a game's static parts laid out once, "
            "`rendering.canvas.drawn_once`, as in the game's worker after its first picture):\n\n"
            + kind_table
            + "\n\nEncodings that keep text sharp (median encoding time and size per picture):\n\n"
            + comparison_table(rows, shots)
        ),
    )
    result.seconds = time.perf_counter() - started
    return result
