"""Rendering: pure functions from engine views to image bytes (Pillow; no Discord, no I/O).

`rendering.homm4` draws the homm4 board, battlefield, hand and card faces. This package's
own import is light (no Pillow): `bot.cli` imports `rendering.cli` to build its parser.
Shared pieces: `rendering.encode` (image formats), `rendering.fonts` (the shipped Roboto
font), `rendering.canvas` (a drawing surface that records where every label went).
"""
