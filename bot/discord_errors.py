"""The one place where errors from slash commands, autocomplete and clicks become replies.

* A user error — the engine's `RuleViolation`, storage's `StorageError`, the service's
  `ServiceError` (see `bot.errors.user_message`) — is answered ephemerally with its own
  message, which is written for the player and never names a hidden card.
* discord.py's own refusals (a failed check, such as a moderator command used without
  the rights) are answered ephemerally too.
* Anything else is a bug: it is logged with the command, the user and the channel (ids,
  never option values: they may name private cards) and an error reference, and the user
  gets a short apology with that reference. The exception's message is left out of the
  log as well (an engine ``KeyError`` may carry a card id); its type and stack are kept.

The game is unchanged by a failed action: the service commits atomically, and a failure
after the commit (while sending the messages) says so instead.

* An acknowledgement that came after Discord's 3-second window (``404`` code ``10062``
  Unknown interaction) is no bug of ours and nothing can be sent to that interaction any
  more: it is logged as a WARNING saying so (`is_late_acknowledgement`), and the player
  is not answered (Discord already told them the application did not respond).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.discord_delivery import send_to_interaction
from bot.errors import failure_text, user_message

log = logging.getLogger(__name__)


UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction it no longer knows: acknowledged too late."""


class DeliveryFailed(Exception):
    """The action was applied, but sending its messages failed (wraps the cause)."""


def is_late_acknowledgement(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing an acknowledgement sent after its 3-second
    window (`discord.NotFound` with code 10062 Unknown interaction)."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def log_late_acknowledgement(interaction: discord.Interaction, doing: str) -> None:
    """Log (WARNING) that ``interaction`` was acknowledged too late, and what that meant
    (``doing``: "the action was not run"...)."""
    log.warning(
        "%s by user %s in channel %s: the acknowledgement came too late (Discord's 3 s "
        "window had passed: 10062 Unknown interaction); %s",
        describe_interaction(interaction),
        interaction.user.id,
        interaction.channel_id,
        doing,
    )


def describe_interaction(interaction: discord.Interaction) -> str:
    """``/game new`` or ``button ht:…`` — what was used, without any option value."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", "?"))
    kind = "select" if "values" in data else "button"
    return f"{kind} {custom_id[:100]}"


def unwrap(error: BaseException) -> BaseException:
    """The exception behind discord.py's wrappers (`CommandInvokeError`, `TransformerError`)."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = error.__cause__ if error.__cause__ is not None else getattr(error, "original", None)
        if inner is None:
            break
        error = inner
    return error


def player_text(error: BaseException) -> str | None:
    """The ephemeral text for an error a player caused, or None for a bug."""
    text = user_message(error)
    if text is not None:
        return text
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return str(error) or "You may not use this command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "This command changed since your Discord client loaded it; try again in a minute."
    return None


def log_unexpected(interaction: discord.Interaction, error: BaseException, reference: str) -> None:
    """Log a bug with its context and stack, leaving out every message text
    (`bot.errors.failure_text`)."""
    log.error(
        "Unexpected error in %s by user %s in channel %s (guild %s), reference %s: %s",
        describe_interaction(interaction),
        interaction.user.id,
        interaction.channel_id,
        interaction.guild_id,
        reference,
        failure_text(error),
    )


async def handle_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` about ``error`` (see the module docstring); never raises."""
    error = unwrap(error)
    after_commit = isinstance(error, DeliveryFailed)
    if after_commit and error.__cause__ is not None:
        error = error.__cause__
    if is_late_acknowledgement(error):
        # Nothing can reach this interaction any more: answering would fail the same way.
        log_late_acknowledgement(
            interaction,
            "the result could not be shown (it was applied)"
            if after_commit
            else "nothing was done",
        )
        return
    text = player_text(error)
    if text is None:
        reference = secrets.token_hex(3)
        log_unexpected(interaction, error, reference)
        if after_commit:
            text = (
                "Your action was recorded, but I could not show its result. "
                f"Use /game status to see the game. (Reference {reference}.)"
            )
        else:
            text = (
                "Sorry, something went wrong on my side; the game is unchanged. "
                f"Please try again, or tell a moderator (reference {reference})."
            )
    if interaction.type is discord.InteractionType.autocomplete:
        return
    try:
        await send_to_interaction(interaction, text[:2000], ephemeral=True)
    except discord.HTTPException as failure:
        log.warning(
            "Could not tell user %s about an error: HTTP %s code %s",
            interaction.user.id,
            failure.status,
            failure.code,
        )


def install(tree: app_commands.CommandTree[discord.Client]) -> None:
    """Make `handle_error` the tree's error handler (slash commands and autocomplete)."""

    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await handle_error(interaction, error)

    tree.error(on_error)
