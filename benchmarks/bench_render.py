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
from collections.abc import Callable
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
    """Palette PNG as the bot makes it (palette from a pixel sample), at zlib ``level``."""
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
        Encoding("palette PNG, palette from every pixel, zlib 3 (before)", _palette_whole(3)),
        Encoding("palette PNG, zlib 1", _palette(1)),
        Encoding("palette PNG, zlib 6", _palette(6)),
        Encoding("palette PNG, zlib 9", _palette(9), slow=True),
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
            "Encodings that keep text sharp (median encoding time and size per picture):\n\n"
            + comparison_table(rows, shots)
        ),
    )
    result.seconds = time.perf_counter() - started
    return result
