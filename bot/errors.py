"""User-facing refusals of the `GameService`, and how any refusal becomes a reply.

Three families of errors reach a player, each with a message that can be shown as it is:

* the engine's `RuleViolation` (illegal move, not your decision, stale button...);
* storage's `StorageError` subclasses (channel busy, lobby full, database busy...);
* `ServiceError` subclasses defined here: who may do what where (not seated, not the
  host, not a moderator, no game in this channel, game paused...). Each message says what
  is allowed instead.

`user_message` maps any of them to its text (None for anything else: a bug, which the
Discord layer's error handler logs and apologises for); `error_reply` wraps that text in
an ephemeral `Reply`. Before a commit the service never catches unexpected exceptions:
a failed action leaves the game unchanged because the storage commit is atomic. After a
commit the move stands, so a failure while showing it is caught there and the reply says
the move was applied (`bot.service_core.ServiceCore.narrate`).
"""

from __future__ import annotations

import traceback

from bot.customids import CustomIdError
from bot.outbox import Reply
from engine.core.errors import RuleViolation
from storage.errors import StorageError


class ServiceError(Exception):
    """A refusal by the service (not by the rules): the message says what to do instead.

    Attributes:
        code: a stable machine-readable code (``"not_seated"``...).
        message: the player-readable text (also ``str(error)``).
    """

    code = "service_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoGameHere(ServiceError):
    """The channel has no open game (or none in the status the command needs)."""

    code = "no_game"


class NotSeated(ServiceError):
    """The user has no seat in the game they tried to act in."""

    code = "not_seated"


class NotHost(ServiceError):
    """Only the game's host (or a moderator) may do this."""

    code = "not_host"


class NotModerator(ServiceError):
    """Only a moderator (Manage Server or the guild's moderator role) may do this."""

    code = "not_moderator"


class GamePaused(ServiceError):
    """A moderator paused the game; moves wait until it is resumed."""

    code = "game_paused"


class WrongStage(ServiceError):
    """The game is not in the stage the command needs (lobby commands once started...)."""

    code = "wrong_stage"


class BadOption(ServiceError):
    """A command option could not be read (an unknown card name, a malformed hex...)."""

    code = "bad_option"


class UnknownCommand(ServiceError):
    """No command has that name (console input, or a stale registration)."""

    code = "unknown_command"


class ChooseGame(ServiceError):
    """The user sits in several games and must say which one (``game`` option)."""

    code = "choose_game"


class BotLacksPermissions(ServiceError):
    """The bot lacks channel permissions a game needs there (`bot.actors.Actor.bot_missing`
    names them); the message says which and who can grant them."""

    code = "bot_permissions"


class DeckProblem(ServiceError):
    """A deck could not be imported or used; the message lists every problem."""

    code = "deck_problem"


USER_ERRORS: tuple[type[Exception], ...] = (
    RuleViolation,
    StorageError,
    ServiceError,
    CustomIdError,
)
"""Every error type whose message is meant for the player (catch these, log the rest). A
`CustomIdError` (a button or menu id this bot did not make, or a damaged one: a forged
click) is answered with `FOREIGN_COMPONENT`, never with the id it carried."""

FOREIGN_COMPONENT = (
    "That button or menu is not one this bot can read (damaged, or made by another "
    "version of it), so nothing was done. /game status shows the game with fresh buttons."
)
"""The reply to a click whose custom id does not decode (`bot.customids.CustomIdError`)."""


def user_message(error: BaseException) -> str | None:
    """Return the player-readable message of a user error, or None for anything else.

    :param error: any exception raised by a `GameService` call.
    :returns: the engine's, storage's or service's one-line (or short multi-line) message.
    """
    if isinstance(error, RuleViolation | StorageError | ServiceError):
        return error.message
    if isinstance(error, CustomIdError):
        return FOREIGN_COMPONENT
    return None


def error_reply(error: BaseException) -> Reply | None:
    """Return an ephemeral `Reply` for a user error, or None when ``error`` is a bug."""
    message = user_message(error)
    if message is None:
        return None
    return Reply(text=message[:2000], ephemeral=True)


def failure_text(error: BaseException) -> str:
    """An exception as a log line may show it: its type, its cause's type and its stack —
    never a message (DESIGN "Private information", house rule 6: a rule's refusal names the
    acting seat's own cards, an engine ``KeyError`` a card id).

    >>> failure_text(KeyError("fireball")).splitlines()[0]
    'KeyError'
    """
    cause = error.__cause__ or error.__context__
    caused = f" (caused by {type(cause).__name__})" if cause is not None else ""
    stack = "".join(traceback.format_tb(error.__traceback__))
    return f"{type(error).__name__}{caused}\n{stack}".rstrip()
