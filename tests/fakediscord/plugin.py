"""pytest fixture for the fake Discord: ``fake_discord``.

Use it from a test module with
``from tests.fakediscord.plugin import fake_discord_fixture  # noqa: F401`` (pytest finds
fixtures imported into a module; the fixture's name is ``fake_discord``), or list
``"tests.fakediscord.plugin"`` in the root conftest's ``pytest_plugins``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture(name="fake_discord")
async def fake_discord_fixture(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py's REST base and gateway URL patched (undone
    after the test). The world is empty: create guilds and users before running a bot.
    Tune ``fake_discord.ack_timeout`` / ``response_timeout`` as needed."""
    fake = FakeDiscord()
    await fake.start(monkeypatch)
    try:
        yield fake
    finally:
        await fake.stop()
