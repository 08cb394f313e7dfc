"""Typed rule violations: every refusal the engine gives, with a message a player can read.

Every error subclasses `RuleViolation` (itself a `ValueError`, as in python-chess). The
message names the bad input and what is allowed instead, and never names a hidden card:
rulesets build messages only from what the acting seat may see.
"""

from __future__ import annotations


class RuleViolation(ValueError):
    """A command that the rules refuse; the state it was applied to is unchanged.

    Attributes:
        code: a stable machine-readable code (``"wrong_phase"``, ``"illegal_move"``, ...).
        message: the player-readable sentence (also ``str(error)``).
    """

    code = "rule_violation"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongPhase(RuleViolation):
    """The command exists, but not in the current phase or step of the game."""

    code = "wrong_phase"


class NotYourDecision(RuleViolation):
    """The acting seat owes no decision of this kind now (not your turn)."""

    code = "not_your_decision"


class IllegalMove(RuleViolation):
    """The command is well formed and timely, but the rules forbid it."""

    code = "illegal_move"


class StaleState(RuleViolation):
    """The command was issued against an older version of the game (e.g. an old button)."""

    code = "stale_state"


class InvalidInput(RuleViolation):
    """The command could not be read: unknown type, missing or malformed fields."""

    code = "invalid_input"


class GameOver(RuleViolation):
    """The game has ended; no further commands are accepted."""

    code = "game_over"
