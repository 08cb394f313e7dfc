"""Shared fixtures of the rendering tests: hand-built views and their drawings (built once)."""

from __future__ import annotations

import pytest

from engine.homm4.views import PublicView, SeatView
from rendering.canvas import Drawing
from rendering.homm4 import draw_battle, draw_board, draw_hand
from tests.rendering import samples


@pytest.fixture(scope="session")
def public() -> PublicView:
    """A three-player mid-game position with a battle at a Town (walls breached)."""
    return samples.public_view(with_battle=True)


@pytest.fixture(scope="session")
def seat(public: PublicView) -> SeatView:
    """Red's view of ``public``: 5 Hand cards and 7 Risk Stack cards."""
    return samples.seat_view(public)


@pytest.fixture(scope="session")
def board(public: PublicView) -> Drawing:
    """The board drawing of ``public``."""
    return draw_board(public)


@pytest.fixture(scope="session")
def battle(public: PublicView) -> Drawing:
    """The battlefield drawing of ``public``."""
    return draw_battle(public)


@pytest.fixture(scope="session")
def hand(seat: SeatView) -> Drawing:
    """Red's hand drawing."""
    return draw_hand(seat)
