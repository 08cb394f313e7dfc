"""A fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests of the real discord.py bot.

See README.md in this folder. Start with ``FakeDiscord`` or the ``fake_discord`` fixture
(``tests.fakediscord.plugin``).
"""

from .bot import BotRunner, run_bot
from .faults import RateLimitRule, Violation
from .interactions import CallbackAttempt, InitialResponse, InteractionResult
from .schema import ImpossibleInteraction, Upload
from .server import FakeDiscord, RecordedRequest
from .world import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    World,
)

__all__ = [
    "BotRunner",
    "CallbackAttempt",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "ImpossibleInteraction",
    "InitialResponse",
    "InteractionResult",
    "RateLimitRule",
    "RecordedRequest",
    "Upload",
    "Violation",
    "World",
    "run_bot",
]
