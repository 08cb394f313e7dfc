"""Encodings: lossless formats, deterministic, within the width and size budget."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from rendering import encode as enc
from rendering.encode import DEFAULT_FORMAT, MAX_WIDTH, ImageFormat, encode
from tests.rendering.helpers import PNG_SIGNATURE, decode


def _picture() -> Image.Image:
    image = Image.new("RGB", (400, 300), (40, 36, 30))
    draw = ImageDraw.Draw(image)
    draw.ellipse((50, 50, 200, 200), fill=(214, 40, 40))
    draw.text((220, 100), "C4", fill=(255, 255, 255))
    return image


@pytest.mark.parametrize("fmt", list(ImageFormat))
def test_each_format_round_trips_losslessly_enough(fmt: ImageFormat) -> None:
    picture = _picture()
    data = encode(picture, fmt)
    assert data == encode(picture, fmt)
    decoded = decode(data).convert("RGB")
    assert decoded.size == picture.size
    assert decoded.getpixel((125, 125)) == (214, 40, 40)
    if fmt.extension == "png":
        assert data.startswith(PNG_SIGNATURE)
    else:
        assert data[:4] == b"RIFF"
        assert decoded.tobytes() == picture.tobytes()


def test_default_is_a_palette_png() -> None:
    assert DEFAULT_FORMAT is ImageFormat.PALETTE_PNG
    assert decode(encode(_picture())).mode == "P"
    assert ImageFormat.PALETTE_PNG.mime == "image/png"
    assert ImageFormat.WEBP.extension == "webp"


def test_too_wide_is_refused() -> None:
    with pytest.raises(ValueError, match="1601 px wide"):
        encode(Image.new("RGB", (MAX_WIDTH + 1, 10)))


def test_a_png_over_budget_falls_back_to_a_palette(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(enc, "MAX_BYTES", 100)
    data = encode(_picture(), ImageFormat.PNG)
    assert data.startswith(PNG_SIGNATURE)
    assert decode(data).mode == "P"


@pytest.mark.parametrize("offset", [(0, 0), (1, 2), (3, 3)])
def test_a_small_patch_keeps_its_colour_in_a_palette_png(offset: tuple[int, int]) -> None:
    """The palette comes from a 1-in-16 pixel sample: a colour covering 4 x 4 px, wherever
    it lies, is in the sample and comes back exact."""
    image = Image.new("RGB", (1200, 900), (40, 36, 30))
    draw = ImageDraw.Draw(image)
    for index in range(300):  # many colours, so the palette must choose
        x, y = 40 * (index % 30), 30 * (index // 30)
        draw.rectangle((x, y, x + 39, y + 29), fill=(index % 251, (7 * index) % 253, 90))
    x, y = 601 + offset[0], 451 + offset[1]
    draw.rectangle((x, y, x + 3, y + 3), fill=(255, 0, 200))
    decoded = decode(encode(image)).convert("RGB")
    assert decoded.getpixel((x + 1, y + 1)) == (255, 0, 200)


def test_palette_png_holds_the_indices_and_palette_exactly() -> None:
    """`palette_png` (ISA-L deflate, our own chunks) reads back, CRCs checked, as the same
    palette image: every pixel's index and every palette colour."""
    import io

    quantised = _picture().quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    data = enc.palette_png(quantised)
    assert data.startswith(PNG_SIGNATURE) and data == enc.palette_png(quantised)
    Image.open(io.BytesIO(data)).verify()  # chunk CRCs and structure
    decoded = decode(data)
    assert decoded.mode == "P" and decoded.size == (400, 300)
    assert decoded.tobytes() == quantised.tobytes()
    used = len(quantised.getpalette() or [])
    assert (decoded.getpalette() or [])[:used] == quantised.getpalette()
    assert decoded.convert("RGB").tobytes() == quantised.convert("RGB").tobytes()


def test_palette_png_refuses_what_is_not_a_palette_image() -> None:
    with pytest.raises(ValueError, match="not mode RGB"):
        enc.palette_png(_picture())
